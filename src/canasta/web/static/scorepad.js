// The scorepad of a real table: pick the rules, type each hand per team, read the itemized
// sheet and the match total. The server scores every hand (the code of `canasta score`) and
// keeps the match. The scorepad belongs to its keeper: the keeper's link
// /scorepad/<id>#key=<key> (or the key this device kept) changes it; the share link
// /scorepad/<id> shows it read-only and follows the keeper's hands.
"use strict";

const padId = (location.pathname.match(/^\/scorepad\/([A-Za-z0-9_-]+)/) || [])[1] || null;
let VARIANTS = [];
let shownHand = -1;      // the hand whose sheet is open in the history
let padKey = null;       // the keeper's key, if this device holds it
let follow = null;       // the timer of a read-only page asking for changes
const FOLLOW_MS = 4000;

function storedPads() {
  try { return JSON.parse(localStorage.getItem("canasta.scorepads") || "{}") || {}; } catch (e) { return {}; }
}

// The key from the keeper's link (then taken out of the address bar, so that a screenshot
// or a copied address shares the read-only link) or the one this device kept.
function takeKey(id) {
  const m = location.hash.match(/(?:^#|&)key=([A-Za-z0-9_-]{1,200})/);
  if (m) { history.replaceState(null, "", location.pathname); return m[1]; }
  return storedPads()[id]?.key || null;
}

async function api(method, path, body) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  if (padKey) headers["X-Scorepad-Key"] = padKey;
  const res = await fetch(path, {
    method, headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = { message: res.statusText }; }
  return { ok: res.ok, status: res.status, data };
}

function errorText(data) {
  if (!data) return "";
  let text;
  if (data.key) text = t(data.key, data.values || {});
  else if (data.code === "table") text = t("scorepad.err.table", { msg: data.message });
  else if (data.code === "stale") text = t("scorepad.err.stale");
  else if (data.code === "not-found") text = t("scorepad.err.not_found");
  else if (data.code === "bad-token") text = t("scorepad.err.read_only");
  else text = t("ui.err_generic", { msg: data.message || "" });
  if (data.team !== undefined && data.team !== null && PAD) text = `${teamName(data.team)}: ${text}`;
  return text;
}

// -- setup: a new scorepad ----------------------------------------------------------------
async function loadVariants() {
  const res = await fetch("/api/variants");
  VARIANTS = (await res.json()).variants;
  const sel = $("variant");
  sel.replaceChildren();
  VARIANTS.forEach((v) => {
    const o = el("option", null, variantName(v.name));
    o.value = v.name;
    sel.appendChild(o);
  });
  onVariant();
}

function variant() { return VARIANTS.find((v) => v.name === $("variant").value) || VARIANTS[0]; }

function onVariant() {
  const v = variant();
  const players = $("players");
  const keep = Number(players.value) || 4;
  players.replaceChildren();
  v.players.forEach((n) => { const o = el("option", null, String(n)); o.value = String(n); players.appendChild(o); });
  players.value = String(v.players.includes(keep) ? keep : v.players.includes(4) ? 4 : v.players[0]);
  const opts = $("options");
  opts.replaceChildren();
  v.options.forEach((o) => {
    const label = el("label", "option");
    const description = tOr(`option.${v.name}.${o.name}.description`, o.description);
    label.appendChild(el("span", null, tOr("option." + o.name, o.name.replace(/_/g, " "))));
    const s = el("select");
    s.name = "opt:" + o.name;
    o.choices.forEach((c) => { const opt = el("option", null, choiceLabel(c)); opt.value = c; s.appendChild(opt); });
    s.value = o.default;
    label.appendChild(s);
    label.appendChild(el("small", null, description));
    opts.appendChild(label);
  });
  $("options-box").classList.toggle("hidden", !v.options.length);
  $("options-count").textContent = String(v.options.length);
  onPlayers();
}

function teamCount() {
  const n = Number($("players").value);
  if (n === 6) return n / Number($("team-size").value);
  return { 2: 2, 3: 3, 4: 2, 5: 5 }[n] || 2;
}

function onPlayers() {
  $("team-size-box").classList.toggle("hidden", Number($("players").value) !== 6);
  const box = $("names");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let i = 0; i < teamCount(); i++) {
    const input = el("input");
    input.type = "text";
    input.maxLength = 40;
    input.placeholder = t("scorepad.team_default", { n: i + 1 });
    input.value = old[i] || "";
    input.setAttribute("aria-label", t("scorepad.team_default", { n: i + 1 }));
    box.appendChild(input);
  }
}

async function onStart(ev) {
  ev.preventDefault();
  $("setup-error").textContent = "";
  const options = {};
  document.querySelectorAll("#options select").forEach((s) => { options[s.name.slice(4)] = s.value; });
  const players = Number($("players").value);
  const names = [...$("names").querySelectorAll("input")].map((i, k) => i.value.trim() || t("scorepad.team_default", { n: k + 1 }));
  const body = { variant: $("variant").value, options, players, names };
  if (players === 6) body.team_size = Number($("team-size").value);
  const r = await api("POST", "/api/scorepads", body);
  if (!r.ok) { $("setup-error").textContent = errorText(r.data); return; }
  padKey = r.data.key || null;
  remember(r.data);
  history.pushState(null, "", `/scorepad/${r.data.id}`);
  showPad(r.data);
}

function remember(pad) {
  const all = storedPads();
  const entry = { variant: pad.variant, names: pad.names, created: all[pad.id]?.created || new Date().toISOString() };
  if (pad.editable && padKey) entry.key = padKey;  // a key the server refused is not kept
  all[pad.id] = entry;
  try { localStorage.setItem("canasta.scorepads", JSON.stringify(all)); } catch (e) { /* not kept */ }
}

function renderRecent() {
  const all = Object.entries(JSON.parse(localStorage.getItem("canasta.scorepads") || "{}"));
  $("recent-box").classList.toggle("hidden", !all.length);
  const list = $("recent");
  list.replaceChildren();
  all.sort((a, b) => (a[1].created < b[1].created ? 1 : -1)).slice(0, 10).forEach(([id, info]) => {
    const li = el("li");
    const a = el("a", null, `${variantName(info.variant)} \u00b7 ${info.names.join(" \u2013 ")} \u00b7 ${new Date(info.created).toLocaleDateString(LANG)}`);
    a.href = `/scorepad/${id}`;
    li.appendChild(a);
    list.appendChild(li);
  });
}

// -- the match ----------------------------------------------------------------------------
function showPad(pad) {
  PAD = pad;
  $("setup").classList.add("hidden");
  $("match").classList.remove("hidden");
  document.title = `${t("scorepad.title")} \u00b7 ${variantName(pad.variant)}`;
  document.body.classList.toggle("read-only", !pad.editable);
  $("read-only").classList.toggle("hidden", !!pad.editable);
  renderTotals();
  renderHandForm();
  if (pad.editable) restoreDraft();
  renderHistory();
  followChanges();
}

// A read-only page asks for the pad every few seconds (while it is shown) and draws it again
// when the keeper changed it.
function followChanges() {
  if (PAD.editable || follow) return;
  follow = setInterval(async () => {
    if (document.hidden) return;
    const r = await api("GET", `/api/scorepads/${PAD.id}`);
    if (r.ok && r.data.version !== PAD.version) {
      if (shownHand >= r.data.hands.length) shownHand = -1;
      showPad(r.data);
    }
  }, FOLLOW_MS);
}

function renderTotals() {
  const s = PAD.setup;
  $("pad-variant").textContent = variantName(PAD.variant);
  $("pad-target").textContent = t("scorepad.target", { n: s.target });
  const box = $("totals");
  box.replaceChildren();
  PAD.scores.forEach((score, i) => {
    const row = el("div", "pad-total team-" + i);
    row.dataset.team = String(i);
    const who = el("span", "who", teamName(i));
    who.title = teamName(i);
    row.appendChild(who);
    row.appendChild(el("b", "score-value", String(score)));
    const bar = el("div", "bar");
    const fill = el("span");
    fill.style.width = `${Math.max(0, Math.min(100, (100 * score) / s.target))}%`;
    bar.appendChild(fill);
    row.appendChild(bar);
    const left = s.target - score;
    row.appendChild(el("span", "togo", left > 0 ? t("scorepad.to_go", { n: left }) : t("scorepad.reached")));
    box.appendChild(row);
  });
  const w = $("winner");
  w.classList.toggle("hidden", PAD.winner === null);
  if (PAD.winner !== null) w.textContent = t("scorepad.winner", { team: teamName(PAD.winner) });
  const share = $("share");
  share.replaceChildren();
  share.appendChild(el("p", "help", t("scorepad.share_view")));
  share.appendChild(linkRow("", `${location.origin}/scorepad/${PAD.id}`));
  if (PAD.editable && padKey) {
    share.appendChild(el("p", "help", t("scorepad.keeper_link")));
    share.appendChild(linkRow("", `${location.origin}/scorepad/${PAD.id}#key=${padKey}`));
  }
  $("hand").classList.toggle("hidden", PAD.winner !== null || !PAD.editable);
}

// One sheet item in this page's language (penalties by the name the scorekeeper chose).
function itemText(item) {
  const v = item.values || {};
  if (item.code === "penalty" && v.penalty) {
    let text = v.penalty === "custom" ? v.label : t("penalty." + v.penalty);
    if (v.difference) text += ` (${t("scorepad.difference")} ${v.difference})`;
    if (v.count > 1) text += ` \u00d7${v.count}`;
    return t("score.penalty", { name: text });
  }
  if (item.code === "cards_in_hand" || item.code === "cards_in_hand_unopened") {
    const team = item.team;
    return t("score." + item.code, Object.assign({}, v, { player: playerLabel(team, Number(v.player) - 1) }));
  }
  return tOr("score." + item.code, item.label, v);
}

function renderSheets(box, sheets) {
  box.replaceChildren();
  sheets.forEach((s) => {
    const col = el("div", "sheet-team team-" + s.team);
    col.appendChild(el("h3", null, teamName(s.team)));
    const table = el("table");
    s.items.forEach((item) => {
      const tr = el("tr", item.points < 0 ? "neg" : "");
      tr.appendChild(el("td", null, itemText(Object.assign({ team: s.team }, item))));
      tr.appendChild(el("td", "pts", String(item.points)));
      table.appendChild(tr);
    });
    const total = el("tr", "total");
    total.append(el("td", null, t("ui.total")), el("td", "pts", String(s.hand_total)));
    const run = el("tr", "running");
    run.append(el("td", null, `${t("ui.before")} ${s.score_before} \u2192 ${t("ui.after")}`), el("td", "pts", String(s.score_after)));
    table.append(total, run);
    col.appendChild(table);
    box.appendChild(col);
  });
  box.classList.remove("hidden");
}

async function onCheck() {
  $("hand-error").textContent = "";
  const r = await api("POST", `/api/scorepads/${PAD.id}/hands`, { tally: collect(), preview: true });
  if (!r.ok) { $("hand-error").textContent = errorText(r.data); $("preview").classList.add("hidden"); return; }
  renderSheets($("preview"), r.data.sheets);
}

async function onAdd(ev) {
  ev.preventDefault();
  $("hand-error").textContent = "";
  $("add").disabled = true;
  try {
    const r = await api("POST", `/api/scorepads/${PAD.id}/hands`, { tally: collect() });
    if (!r.ok) { $("hand-error").textContent = errorText(r.data); return; }
    shownHand = r.data.hands.length - 1;
    dropDraft();
    showPad(r.data);
    $("history").scrollIntoView({ behavior: "smooth", block: "start" });
  } finally {
    $("add").disabled = false;
  }
}

function renderHistory() {
  const box = $("history");
  box.replaceChildren();
  $("remove").classList.toggle("hidden", !PAD.hands.length || !PAD.editable);
  if (!PAD.hands.length) {
    box.appendChild(el("p", "help", t("scorepad.no_hands")));
    $("sheet").classList.add("hidden");
    return;
  }
  const table = el("table", "pad-history");
  const head = el("tr");
  head.appendChild(el("th", null, t("ui.hand")));
  PAD.names.forEach((n) => head.appendChild(el("th", null, n)));
  table.appendChild(head);
  PAD.hands.forEach((h) => {
    const tr = el("tr", "clickable" + (h.hand === shownHand ? " selected" : ""));
    tr.dataset.hand = String(h.hand);
    tr.appendChild(el("td", null, String(h.hand + 1)));
    h.sheets.forEach((s) => {
      const td = el("td");
      td.appendChild(el("b", null, String(s.score_after)));
      td.appendChild(el("span", "delta", (s.hand_total >= 0 ? "+" : "") + s.hand_total));
      tr.appendChild(td);
    });
    tr.addEventListener("click", () => { shownHand = shownHand === h.hand ? -1 : h.hand; renderHistory(); });
    table.appendChild(tr);
  });
  box.appendChild(table);
  const shown = PAD.hands[shownHand];
  if (shown) {
    renderSheets($("sheet"), shown.sheets);
    const dl = el("a", "download", t("scorepad.download"));
    dl.href = `/api/scorepads/${PAD.id}/hands/${shown.hand}/result`;
    dl.setAttribute("download", "");
    $("sheet").appendChild(dl);
  } else $("sheet").classList.add("hidden");
}

async function onRemove() {
  const last = PAD.hands.length - 1;
  if (last < 0 || !confirm(t("scorepad.confirm_remove", { n: last + 1 }))) return;
  const r = await api("DELETE", `/api/scorepads/${PAD.id}/hands/${last}`);
  if (!r.ok) { $("hand-error").textContent = errorText(r.data); return; }
  shownHand = -1;
  showPad(r.data);
}

// -- wiring -------------------------------------------------------------------------------
$("variant").addEventListener("change", onVariant);
$("players").addEventListener("change", onPlayers);
$("team-size").addEventListener("change", onPlayers);
$("setup").addEventListener("submit", onStart);
$("hand").addEventListener("submit", onAdd);
$("hand").addEventListener("input", () => { updateSums(); saveDraft(); });
$("hand").addEventListener("change", saveDraft);
$("check").addEventListener("click", onCheck);
$("remove").addEventListener("click", onRemove);
$("went-out").addEventListener("change", () => {
  const out = wentOut();
  document.querySelectorAll(".team-box").forEach((box) => box.querySelectorAll(".player").forEach((p) => {
    p.classList.toggle("hidden", !!out && out.team === Number(box.dataset.team) && out.player === Number(p.dataset.player));
  }));
});
window.addEventListener("langchange", () => {
  if (PAD) {
    // the numbers typed so far survive: only the words change
    const typed = formSnapshot();
    showPad(PAD);
    restoreForm(typed);
  } else if (VARIANTS.length) {
    const keep = { variant: $("variant").value, players: $("players").value };
    VARIANTS.forEach((v, i) => { $("variant").options[i].textContent = variantName(v.name); });
    $("variant").value = keep.variant;
    onVariant();
    $("players").value = keep.players;
    onPlayers();
    renderRecent();
  }
});
window.addEventListener("popstate", () => location.reload());

initI18n().then(async () => {
  await initLangSwitch();
  if (padId) {
    padKey = takeKey(padId);
    const r = await api("GET", `/api/scorepads/${padId}`);
    if (!r.ok) {
      $("fatal").textContent = errorText(r.data);
      $("fatal").classList.remove("hidden");
      return;
    }
    remember(r.data);
    showPad(r.data);
  } else {
    $("setup").classList.remove("hidden");
    await loadVariants();
    renderRecent();
  }
});
