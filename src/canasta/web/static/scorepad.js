// The scorepad of a real table: pick the rules, type each hand per team, read the itemized
// sheet and the match total. The server scores every hand (the code of `canasta score`) and
// keeps the match; the link /scorepad/<id> reopens it on any device.
"use strict";

const $ = (id) => document.getElementById(id);
const padId = (location.pathname.match(/^\/scorepad\/([A-Za-z0-9_-]+)/) || [])[1] || null;
let VARIANTS = [];
let PAD = null;          // the pad from the server
let shownHand = -1;      // the hand whose sheet is open in the history
const modes = {};        // "melded:<team>" / "hand:<team>:<player>" -> "count" | "cards"

// -- small widgets -----------------------------------------------------------------------
function stepper(label, name, value = 0) {
  const row = el("label", "stepper");
  row.appendChild(el("span", null, label));
  const input = el("input");
  input.type = "number";
  input.inputMode = "numeric";
  input.min = "0";
  input.max = "200";
  input.value = String(value);
  input.name = name;
  input.setAttribute("aria-label", label);
  const minus = el("button", null, "\u2212");
  const plus = el("button", null, "+");
  [minus, plus].forEach((b) => { b.type = "button"; b.tabIndex = -1; });
  minus.addEventListener("click", () => { input.value = String(Math.max(0, (Number(input.value) || 0) - 1)); input.dispatchEvent(new Event("input", { bubbles: true })); });
  plus.addEventListener("click", () => { input.value = String((Number(input.value) || 0) + 1); input.dispatchEvent(new Event("input", { bubbles: true })); });
  row.append(minus, input, plus);
  return row;
}

function modeSwitch(key, onChange) {
  const box = el("span", "mode");
  [["count", t("scorepad.by_points")], ["cards", t("scorepad.as_cards")]].forEach(([m, label]) => {
    const b = el("button", m === (modes[key] || "count") ? "active" : "", label);
    b.type = "button";
    b.dataset.mode = m;
    b.addEventListener("click", () => { modes[key] = m; onChange(); });
    box.appendChild(b);
  });
  return box;
}

const CLASS_POINTS = { 50: 50, 20: 20, 10: 10, 5: 5, b3: 5, r3: 0 };
function classLabel(c) { return t("scorepad.class." + c); }

function teamName(i) { return PAD.names[i]; }
function playerLabel(team, p) {
  return PAD.setup.teams[team].length > 1 ? t("scorepad.player_n", { n: p + 1 }) : teamName(team);
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
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
  remember(r.data);
  history.pushState(null, "", `/scorepad/${r.data.id}`);
  showPad(r.data);
}

function remember(pad) {
  const all = JSON.parse(localStorage.getItem("canasta.scorepads") || "{}");
  all[pad.id] = { variant: pad.variant, names: pad.names, created: all[pad.id]?.created || new Date().toISOString() };
  localStorage.setItem("canasta.scorepads", JSON.stringify(all));
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
  renderTotals();
  renderHandForm();
  renderHistory();
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
    row.appendChild(el("span", "who", teamName(i)));
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
  share.appendChild(linkRow("", `${location.origin}/scorepad/${PAD.id}`));
  $("hand").classList.toggle("hidden", PAD.winner !== null);
}

function teamForm(i) {
  const s = PAD.setup;
  const box = el("div", "team-box team-" + i);
  box.dataset.team = String(i);
  box.appendChild(el("h3", null, teamName(i)));
  const sum = el("span", "sum");

  box.appendChild(el("h4", null, t("scorepad.canastas")));
  const kinds = el("div", "steppers");
  s.kinds.forEach((k) => kinds.appendChild(stepper(t("scorepad.kind." + k), `canasta:${k}`)));
  box.appendChild(kinds);

  const reds = el("div", "steppers");
  reds.appendChild(stepper(t("scorepad.red_threes"), "red_threes"));
  box.appendChild(reds);

  const mk = `melded:${i}`;
  const head = el("h4", null, t("scorepad.melded"));
  const body = el("div");
  const draw = () => {
    head.querySelector(".mode")?.remove();
    head.insertBefore(modeSwitch(mk, draw), sum);
    body.replaceChildren();
    kinds.classList.toggle("hidden", modes[mk] === "cards");
    if (modes[mk] === "cards") {
      const area = el("textarea");
      area.name = "melds";
      area.placeholder = t("scorepad.melds_help");
      area.setAttribute("aria-label", t("scorepad.melds_help"));
      body.appendChild(area);
    } else {
      const grid = el("div", "steppers");
      s.melded_classes.forEach((c) => grid.appendChild(stepper(classLabel(c), `melded:${c}`)));
      body.appendChild(grid);
    }
    updateSums();
  };
  head.appendChild(sum);
  sum.dataset.sum = "melded";
  box.appendChild(head);
  box.appendChild(body);
  draw();

  s.teams[i].forEach((_, p) => {
    const out = wentOut();
    const hk = `hand:${i}:${p}`;
    const h = el("h4", null, t("scorepad.hand_of", { name: playerLabel(i, p) }));
    const hsum = el("span", "sum");
    hsum.dataset.sum = "hand";
    const hbody = el("div", "hand-body");
    hbody.dataset.player = String(p);
    const drawHand = () => {
      h.querySelector(".mode")?.remove();
      h.insertBefore(modeSwitch(hk, drawHand), hsum);
      hbody.replaceChildren();
      if (modes[hk] === "cards") {
        const input = el("input");
        input.type = "text";
        input.name = "cards";
        input.placeholder = "Qs 7h JK";
        input.setAttribute("aria-label", t("scorepad.hand_of", { name: playerLabel(i, p) }));
        hbody.appendChild(input);
      } else {
        const grid = el("div", "steppers");
        s.hand_classes.forEach((c) => grid.appendChild(stepper(classLabel(c), `hand:${c}`)));
        hbody.appendChild(grid);
      }
      updateSums();
    };
    h.appendChild(hsum);
    const wrap = el("div", "player");
    wrap.dataset.player = String(p);
    wrap.classList.toggle("hidden", out && out.team === i && out.player === p);
    wrap.append(h, hbody);
    box.appendChild(wrap);
    drawHand();
  });

  {
    const pen = el("details", "penalties");
    pen.appendChild(el("summary", null, t("scorepad.penalties")));
    s.penalties.forEach((p) => {
      const row = el("div", "penalty-row");
      const label = el("span", null, t("penalty." + p.name));
      label.appendChild(el("span", "pts", ` (${p.kind === "difference" ? t("scorepad.times_difference", { n: p.points }) : p.points})`));
      row.appendChild(label);
      const st = stepper("", `penalty:${p.name}`);
      st.querySelector("span").remove();
      st.style.gridTemplateColumns = "40px 48px 40px";
      row.appendChild(st);
      pen.appendChild(row);
      if (p.kind === "difference") {
        const diff = el("input");
        diff.type = "number";
        diff.name = `difference:${p.name}`;
        diff.placeholder = t("scorepad.difference");
        diff.setAttribute("aria-label", t("scorepad.difference"));
        pen.appendChild(diff);
      }
    });
    const custom = el("div", "custom-row");
    const what = el("input");
    what.type = "text";
    what.name = "custom:label";
    what.placeholder = t("scorepad.custom");
    what.setAttribute("aria-label", t("scorepad.custom"));
    const pts = el("input");
    pts.type = "number";
    pts.name = "custom:points";
    pts.placeholder = t("scorepad.points");
    pts.setAttribute("aria-label", t("scorepad.points"));
    custom.append(what, pts);
    pen.appendChild(custom);
    box.appendChild(pen);
  }
  return box;
}

function wentOut() {
  const v = $("went-out").value;
  if (!v) return null;
  const [team, player] = v.split(":").map(Number);
  return { team, player };
}

function renderHandForm(keepOut = false) {
  $("hand-title").textContent = t("ui.hand_n", { n: PAD.hands.length + 1 });
  const sel = $("went-out");
  const keep = sel.value;
  sel.replaceChildren();
  const none = el("option", null, t("scorepad.nobody"));
  none.value = "";
  sel.appendChild(none);
  PAD.setup.teams.forEach((seats, i) => seats.forEach((_, p) => {
    const o = el("option", null, seats.length > 1 ? `${teamName(i)} \u00b7 ${playerLabel(i, p)}` : teamName(i));
    o.value = `${i}:${p}`;
    sel.appendChild(o);
  }));
  sel.value = keepOut && [...sel.options].some((o) => o.value === keep) ? keep : "";
  if (!keepOut) $("concealed").checked = false;
  $("concealed").parentElement.classList.toggle("hidden", !PAD.setup.concealed_bonus);
  const box = $("teams");
  box.replaceChildren();
  PAD.setup.teams.forEach((_, i) => box.appendChild(teamForm(i)));
  $("preview").classList.add("hidden");
  $("hand-error").textContent = "";
}

function num(scope, name) { const e = scope.querySelector(`[name="${name}"]`); return e ? Number(e.value) || 0 : 0; }

function updateSums() {
  document.querySelectorAll(".team-box").forEach((box) => {
    box.querySelectorAll(".sum").forEach((sum) => {
      const scope = sum.dataset.sum === "melded" ? box : sum.closest(".player");
      if (!scope) return;
      const prefix = sum.dataset.sum === "melded" ? "melded:" : "hand:";
      let pts = 0;
      scope.querySelectorAll(`input[name^="${prefix}"]`).forEach((i) => { pts += (Number(i.value) || 0) * CLASS_POINTS[i.name.slice(prefix.length)]; });
      sum.textContent = scope.querySelector(`input[name^="${prefix}"]`) ? t("scorepad.total_points", { n: pts }) : "";
    });
  });
}

function collect() {
  const out = wentOut();
  const teams = PAD.setup.teams.map((seats, i) => {
    const box = document.querySelector(`.team-box[data-team="${i}"]`);
    const team = { red_threes: num(box, "red_threes"), penalties: [], hands: [] };
    if (modes[`melded:${i}`] === "cards") {
      team.melds = box.querySelector('[name="melds"]').value.split("\n").filter((l) => l.trim());
    } else {
      team.canastas = {};
      PAD.setup.kinds.forEach((k) => { const n = num(box, `canasta:${k}`); if (n) team.canastas[k] = n; });
      team.melded = {};
      PAD.setup.melded_classes.forEach((c) => { const n = num(box, `melded:${c}`); if (n) team.melded[c] = n; });
    }
    seats.forEach((_, p) => {
      const scope = box.querySelector(`.hand-body[data-player="${p}"]`);
      if (out && out.team === i && out.player === p) { team.hands.push({}); return; }
      if (modes[`hand:${i}:${p}`] === "cards") { team.hands.push(scope.querySelector('[name="cards"]').value); return; }
      const counts = {};
      PAD.setup.hand_classes.forEach((c) => { const n = num(scope, `hand:${c}`); if (n) counts[c] = n; });
      team.hands.push(counts);
    });
    PAD.setup.penalties.forEach((p) => {
      const count = num(box, `penalty:${p.name}`);
      if (!count) return;
      const entry = { name: p.name, count };
      if (p.kind === "difference") entry.difference = num(box, `difference:${p.name}`);
      team.penalties.push(entry);
    });
    const label = box.querySelector('[name="custom:label"]').value.trim();
    const points = Number(box.querySelector('[name="custom:points"]').value);
    if (points) team.penalties.push({ name: "custom", points: -Math.abs(points), label: label || t("scorepad.custom") });
    return team;
  });
  return { teams, went_out: out, concealed: !!(out && $("concealed").checked) };
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
    showPad(r.data);
    $("history").scrollIntoView({ behavior: "smooth", block: "start" });
  } finally {
    $("add").disabled = false;
  }
}

function renderHistory() {
  const box = $("history");
  box.replaceChildren();
  $("remove").classList.toggle("hidden", !PAD.hands.length);
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
$("hand").addEventListener("input", updateSums);
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
    const keyOf = (e) => `${e.closest(".team-box")?.dataset.team}/${e.closest(".player")?.dataset.player}/${e.name}`;
    const typed = new Map([...document.querySelectorAll("#teams [name]")].map((e) => [keyOf(e), e.value]));
    const out = $("went-out").value;
    const concealed = $("concealed").checked;
    showPad(PAD);
    $("went-out").value = out;
    $("went-out").dispatchEvent(new Event("change"));
    $("concealed").checked = concealed;
    document.querySelectorAll("#teams [name]").forEach((e) => { if (typed.has(keyOf(e))) e.value = typed.get(keyOf(e)); });
    updateSums();
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
