// The offline table: Pyodide runs the pure-Python engine and bots in this page
// (canasta.offline.table.LocalTable); the page shows its snapshots and sends back the text of
// a move the snapshot listed. Nothing of the match leaves the page.
import { loadPyodide } from "/offline/pyodide/pyodide.mjs";

const $ = (id) => document.getElementById(id);
// The pause before each bot move, in ms (`?pace=0` plays them at once: tests, impatience).
const PACE = new URLSearchParams(location.search).get("pace");
const BOT_PAUSE_MS = PACE !== null && Number(PACE) >= 0 && Number(PACE) <= 5000 ? Number(PACE) : 450;
let py = null;         // the Pyodide instance, once the engine is in
let S = null;          // the last snapshot
let botTimer = null;
let VARIANTS = [];

function setEngine(text, kind) {
  const box = $("engine");
  box.textContent = text;
  box.dataset.kind = kind || "";
}

// The server's status when it answers; offline (no answer) the cached files are used.
async function serverStatus() {
  try {
    const res = await fetch("/offline/status", { cache: "no-store" });
    return res.ok ? await res.json() : null;
  } catch (e) {
    return null;
  }
}

async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register("/offline/sw.js", { scope: "/offline/" });
  } catch (e) { /* the page still plays while the server answers */ }
}

// Python call: a method of the table (or a module function) with JSON arguments; the
// answer is the JSON the Python side wrote.
function call(expr) {
  return JSON.parse(py.runPython(expr));
}

async function loadEngine() {
  setEngine(t("ui.offline_loading"), "loading");
  const status = await serverStatus();
  if (status && !status.pyodide) {
    setEngine(t("ui.offline_missing", { help: status.help }), "error");
    return false;
  }
  py = await loadPyodide({ indexURL: "/offline/pyodide/" });
  const res = await fetch("/offline/canasta.zip");
  if (!res.ok) throw new Error("canasta.zip: " + res.status);
  py.FS.mkdirTree("/canasta");
  py.unpackArchive(await res.arrayBuffer(), "zip", { extractDir: "/canasta" });
  py.runPython(`
import json, os, sys
os.environ["CANASTA_PURE"] = "1"
sys.path.insert(0, "/canasta")
from canasta.offline import table as _offline
T = None
`);
  VARIANTS = call(`json.dumps(_offline.variants(${JSON.stringify(LANG)}))`);
  setEngine(t("ui.offline_ready"), "ready");
  return true;
}

// -- setup ------------------------------------------------------------------------------
function fillSetup() {
  const sel = $("variant");
  const chosen = sel.value || localStorage.getItem("canasta.offline.variant") || "international";
  sel.replaceChildren();
  for (const v of VARIANTS) {
    const o = el("option", null, variantName(v.name));
    o.value = v.name;
    sel.appendChild(o);
  }
  sel.value = VARIANTS.some((v) => v.name === chosen) ? chosen : VARIANTS[0].name;
  fillPlayers();
  const level = $("level");
  const was = level.value || "medium";
  level.replaceChildren();
  for (const name of ["easy", "medium", "hard"]) {
    const o = el("option", null, t("ui.level_" + name));
    o.value = name;
    level.appendChild(o);
  }
  level.value = was;
}

function fillPlayers() {
  const v = VARIANTS.find((x) => x.name === $("variant").value);
  const sel = $("players");
  const was = Number(sel.value) || 4;
  sel.replaceChildren();
  for (const n of v.players) {
    const o = el("option", null, String(n));
    o.value = String(n);
    sel.appendChild(o);
  }
  sel.value = String(v.players.includes(was) ? was : v.players[v.players.length - 1]);
}

function start() {
  const variant = $("variant").value;
  localStorage.setItem("canasta.offline.variant", variant);
  const args = [variant, Number($("players").value), $("level").value].map((x) => JSON.stringify(x));
  py.runPython(`T = _offline.LocalTable(${args.join(", ")}, lang=${JSON.stringify(LANG)})`);
  $("setup").classList.add("hidden");
  $("game").classList.remove("hidden");
  show(call("T.snapshot_json()"));
}

// -- the table --------------------------------------------------------------------------
function sideName(team) {
  return S.teams[team].includes(0) ? t("ui.your_side") : t("ui.team_n", { n: team + 1 });
}

function render() {
  $("hand-no").textContent = t("ui.hand_n", { n: S.hand_number });
  const board = $("scoreboard");
  board.replaceChildren();
  S.teams.forEach((seats, team) => {
    board.appendChild(el("span", "score" + (seats.includes(0) ? " mine" : ""), `${sideName(team)}: ${S.scores[team]}`));
  });

  const others = $("others");
  others.replaceChildren();
  S.names.forEach((name, seat) => {
    if (seat === 0) return;
    const partner = S.teams.some((team) => team.includes(0) && team.includes(seat));
    const box = el("div", "offline-seat" + (S.actor === seat ? " to-act" : ""));
    box.appendChild(el("span", "name", name + (partner ? ` (${t("ui.partner")})` : "")));
    box.appendChild(el("span", "count", tCount("ui.cards_n", S.hand_sizes[seat])));
    others.appendChild(box);
  });

  const stock = $("stock-stack");
  stock.replaceChildren();
  if (S.stock_size) stock.appendChild(backEl());
  stock.appendChild(el("span", "stack-count", String(S.stock_size)));
  const pile = $("pile-stack");
  pile.replaceChildren();
  if (S.pile_top) pile.appendChild(cardEl(S.pile_top));
  pile.appendChild(el("span", "stack-count", String(S.pile_size)));
  const badges = $("pile-badges");
  badges.replaceChildren();
  if (S.pile_frozen) badges.appendChild(el("span", "badge frozen", t("ui.frozen")));

  const melds = $("melds");
  melds.replaceChildren();
  S.melds.forEach((rows, team) => {
    const box = el("div", "teams" + (S.teams[team].includes(0) ? " mine" : ""));
    box.appendChild(el("h3", null, sideName(team)));
    const threes = S.red_threes[team] || [];
    if (!rows.length && !threes.length) box.appendChild(el("p", "muted", t("ui.no_melds")));
    const line = el("div", "offline-meld-row");
    for (const m of rows) {
      const meld = el("div", "offline-meld" + (m.canasta ? " canasta" : ""));
      meld.setAttribute("role", "group");
      meld.setAttribute("aria-label", `${m.rank}: ${tCount("ui.cards_n", m.cards.length)}`);
      meld.appendChild(el("span", "offline-meld-count", String(m.cards.length)));
      m.cards.forEach((c) => meld.appendChild(cardEl(c, "small")));
      line.appendChild(meld);
    }
    if (threes.length) {
      const meld = el("div", "offline-meld red-threes");
      threes.forEach((c) => meld.appendChild(cardEl(c, "small")));
      line.appendChild(meld);
    }
    box.appendChild(line);
    melds.appendChild(box);
  });

  const hand = $("hand");
  hand.replaceChildren();
  const discards = new Map(S.moves.filter((m) => m.kind === "Discard").map((m) => [m.cards[0], m]));
  for (const [, items] of groupHand(S.hand)) {
    const group = el("div", "hand-group");
    for (const item of items) {
      const card = cardEl(item.text);
      const move = discards.get(item.text);
      if (move) {
        card.tabIndex = 0;
        card.setAttribute("role", "button");
        card.title = move.label;
        card.setAttribute("aria-label", move.label);
        card.classList.add("playable");
        card.addEventListener("click", () => play(move.text));
        card.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(move.text); }
        });
      }
      group.appendChild(card);
    }
    hand.appendChild(group);
  }

  const moves = $("moves");
  moves.replaceChildren();
  for (const m of S.moves) {
    if (m.kind === "Discard") continue; // a click on the card discards it
    const b = el("button", "btn move " + m.kind.toLowerCase(), m.label);
    b.type = "button";
    b.dataset.move = m.text;
    b.addEventListener("click", () => play(m.text));
    moves.appendChild(b);
  }
  if (discards.size) moves.appendChild(el("p", "muted offline-tip", t("ui.offline_discard_tip")));

  $("status").textContent = S.hand_over ? t("ui.hand_over") :
    S.your_turn ? t(S.phase === "draw" ? "ui.offline_draw" : "ui.offline_play") : t("ui.offline_waiting", { name: S.names[S.actor] });
  const err = $("error");
  err.textContent = S.error || "";
  err.classList.toggle("hidden", !S.error);

  const log = $("log");
  log.replaceChildren();
  S.log.slice().reverse().forEach((line) => log.appendChild(el("li", null, line)));
  renderSheet();
}

function renderSheet() {
  const box = $("sheet");
  if (!S.hand_over) { box.classList.add("hidden"); return; }
  $("sheet-title").textContent = S.match_over ? (S.teams[S.winner].includes(0) ?
    t("ui.match_over.yours") : t("ui.match_over", { team: sideName(S.winner) })) : t("ui.hand_over");
  const body = $("sheet-body");
  body.replaceChildren();
  for (const sheet of S.sheets) {
    const table = el("table", "sheet-table");
    const cap = el("caption", null, sideName(sheet.team));
    table.appendChild(cap);
    for (const item of sheet.items) {
      const tr = el("tr");
      tr.appendChild(el("td", null, item.text));
      tr.appendChild(el("td", "num", String(item.points)));
      table.appendChild(tr);
    }
    const total = el("tr", "total");
    total.appendChild(el("td", null, t("ui.total")));
    total.appendChild(el("td", "num", String(sheet.hand_total)));
    table.appendChild(total);
    const after = el("tr", "total");
    after.appendChild(el("td", null, t("ui.scores")));
    after.appendChild(el("td", "num", String(sheet.score_after)));
    table.appendChild(after);
    body.appendChild(table);
  }
  $("sheet-next").classList.toggle("hidden", S.match_over);
  box.classList.remove("hidden");
  ($("sheet-next").classList.contains("hidden") ? $("sheet-new") : $("sheet-next")).focus();
}

function show(snapshot) {
  S = snapshot;
  render();
  clearTimeout(botTimer);
  if (!S.hand_over && !S.your_turn) botTimer = setTimeout(() => show(call("json.dumps(T.step())")), BOT_PAUSE_MS);
}

function play(text) {
  if (!S || !S.your_turn) return;
  show(call(`json.dumps(T.play(${JSON.stringify(text)}))`));
}

// -- start-up ---------------------------------------------------------------------------
let installPrompt = null;
window.addEventListener("beforeinstallprompt", (e) => {
  e.preventDefault();
  installPrompt = e;
  $("install").classList.remove("hidden");
});
$("install").addEventListener("click", async () => {
  if (!installPrompt) return;
  installPrompt.prompt();
  installPrompt = null;
  $("install").classList.add("hidden");
});
$("variant").addEventListener("change", fillPlayers);
$("setup-form").addEventListener("submit", (e) => { e.preventDefault(); start(); });
$("sheet-next").addEventListener("click", () => show(call("json.dumps(T.next_hand())")));
$("sheet-new").addEventListener("click", () => {
  clearTimeout(botTimer);
  $("sheet").classList.add("hidden");
  $("game").classList.add("hidden");
  $("setup").classList.remove("hidden");
  S = null;
});
window.addEventListener("langchange", () => {
  if (!py) return;
  VARIANTS = call(`json.dumps(_offline.variants(${JSON.stringify(LANG)}))`);
  fillSetup();
  if (S) {
    py.runPython(`T.set_lang(${JSON.stringify(LANG)})`);
    show(call("T.snapshot_json()"));
  }
});

(async () => {
  await initI18n();
  await initLangSwitch();
  registerWorker();
  try {
    if (await loadEngine()) {
      fillSetup();
      $("start").disabled = false;
      document.body.dataset.ready = "true";
    }
  } catch (e) {
    setEngine(t("ui.offline_failed", { msg: String(e && e.message || e) }), "error");
  }
})();
