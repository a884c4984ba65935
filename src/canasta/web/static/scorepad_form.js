// The scorepad's hand form: per team the canastas, red threes, melded cards and each
// player's cards left (by points or as cards), penalties; the tally it makes for the server;
// and the draft of the hand being typed, kept in localStorage until the hand is stored (a
// phone that drops the tab, or a reload, loses nothing). Loaded before scorepad.js, which
// keeps the pad and shows it.
"use strict";

const $ = (id) => document.getElementById(id);
let PAD = null;          // the pad from the server
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
    b.addEventListener("click", () => { modes[key] = m; onChange(); saveDraft(); });
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

// -- what is typed: kept across a change of language and in the draft -------------------------
function fieldKey(e) { return `${e.closest(".team-box")?.dataset.team}/${e.closest(".player")?.dataset.player}/${e.name}`; }

function formSnapshot() {
  const values = {};
  document.querySelectorAll("#teams [name]").forEach((e) => { values[fieldKey(e)] = e.value; });
  return { modes: Object.assign({}, modes), values, out: $("went-out").value, concealed: $("concealed").checked };
}

// The form drawn again with what ``snap`` holds (its modes first: they decide the fields).
function restoreForm(snap) {
  Object.assign(modes, snap.modes || {});
  renderHandForm();
  const sel = $("went-out");
  if ([...sel.options].some((o) => o.value === snap.out)) sel.value = snap.out;
  sel.dispatchEvent(new Event("change"));
  $("concealed").checked = !!snap.concealed;
  const values = snap.values || {};
  document.querySelectorAll("#teams [name]").forEach((e) => {
    if (Object.prototype.hasOwnProperty.call(values, fieldKey(e))) e.value = String(values[fieldKey(e)]);
  });
  updateSums();
}

// The draft of the next hand, per scorepad, until the hand is stored: a draft typed for
// another hand number (the pad moved on elsewhere) is dropped.
function draftKey() { return `canasta.scorepad.draft.${PAD.id}`; }

function saveDraft() {
  if (!PAD || !PAD.editable || PAD.winner !== null) return;
  try { localStorage.setItem(draftKey(), JSON.stringify(Object.assign({ hand: PAD.hands.length }, formSnapshot()))); } catch (e) { /* storage full or off: the form still works */ }
}

function restoreDraft() {
  let draft = null;
  try { draft = JSON.parse(localStorage.getItem(draftKey()) || "null"); } catch (e) { draft = null; }
  if (!draft) return false;
  if (draft.hand !== PAD.hands.length) { dropDraft(); return false; }
  restoreForm(draft);
  return true;
}

function dropDraft() { try { localStorage.removeItem(draftKey()); } catch (e) { /* nothing kept */ } }
