// The table page: one WebSocket, the seat's view rendered as a card table, moves sent with
// the version they were made against. The server checks everything; this page only offers
// the moves the server listed as legal.
"use strict";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const hashParams = new URLSearchParams(location.hash.slice(1));
const token = hashParams.get("seat") || null;

let S = null;            // the last state message
let ws = null;
let retry = 0;
let selected = new Set(); // indexes into S.view.hand
let handKey = "";
let lastLogLength = 0;
let fatal = null;
let connState = "connecting"; // buttons work only "online": a move is never sent into a void

const $ = (id) => document.getElementById(id);

// -- connection -------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(tableId)}`);
  setConn("connecting");
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify({ type: "hello", token, chat: true }));
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "state") {
      connState = "online";
      onState(msg);
      setConn("online");
    } else if (msg.type === "hint") {
      onHint(msg);
    } else if (msg.type === "rematched") {
      onRematched(msg);
    } else if (msg.type === "error") {
      onError(msg);
    } else if (String(msg.type).startsWith("chat")) {
      onChat(msg);  // chat.js
    }
  };
  ws.onclose = (ev) => {
    if (ev.code === 4403 || ev.code === 4404) {
      fatal = ev.code === 4404 ? t("ui.unknown_table") : t("ui.bad_token");
      setConn("offline");
      showFatal();
      return;
    }
    setConn("reconnecting");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 400 * 2 ** retry);
  };
}

// Send a message; while the connection is down nothing is sent and the player is told so
// (a move is never dropped silently). Returns whether it was sent.
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN && connState === "online") {
    ws.send(JSON.stringify(msg));
    return true;
  }
  toast(t("ui.err_offline"));
  return false;
}

function act(action) {
  if (send({ type: "action", version: S.version, action })) document.body.classList.add("busy");
}

function setConn(kind) {
  const was = connState;
  connState = kind;
  document.body.dataset.conn = kind;
  if (kind !== "online") document.body.classList.remove("busy");
  if (S && was !== kind) render();
  const c = $("conn");
  c.className = "conn " + kind;
  c.title = kind === "online" ? t("ui.connected") : kind === "reconnecting" ? t("ui.reconnecting") : "";
  c.textContent = kind === "reconnecting" ? t("ui.reconnecting") : "";
}

function onError(msg) {
  document.body.classList.remove("busy");
  let text;
  if (msg.code === "stale") text = t("ui.err_stale");
  else if (msg.code === "not-your-turn") text = t("ui.err_not_your_turn");
  else if (msg.code === "illegal" && msg.refusal) text = refusalText(msg.refusal);
  else if (msg.code === "illegal") text = t("ui.err_illegal", { msg: msg.message });
  else if (msg.code === "not-allowed") text = msg.key && hasText(msg.key) ? t(msg.key, msg.values || {}) : t("ui.err_not_allowed");
  else if (msg.code === "storage") text = t("ui.err_storage");
  else if (msg.code === "rate-limited") text = t("ui.chat_slow");
  else if (msg.code === "server-error") text = t("ui.err_server");
  else if (msg.key) text = t(msg.key, msg.values || {});
  else text = t("ui.err_generic", { msg: msg.message });
  toast(text);
}

function showFatal() {
  $("status").textContent = fatal;
  $("status").classList.add("fatal");
}

// -- state ------------------------------------------------------------------------------
function onState(msg) {
  document.body.classList.remove("busy");
  const key = msg.hand_number + ":" + (msg.view.hand || []).join(",");
  if (key !== handKey) {
    selected = new Set();
    handKey = key;
  }
  if (S && S.hand_number !== msg.hand_number) lastLogLength = 0;
  S = msg;
  noteDealCommitment();
  clockAt = performance.now();
  render();
}

const V = () => S.view;
const me = () => S.you;
const isActor = () => S.you !== null && V().actor === S.you && V().phase !== "over";
const myTeam = () => (S.you === null ? null : S.seats[S.you].team);

function seatName(i) {
  const s = S.seats[i];
  return s ? s.name : "?";
}

function teamLabel(t_) {
  if (t_ === myTeam()) return t("ui.your_side");
  const names = V().teams[t_].map(seatName);
  return names.join(" & ");
}

// One log entry from the server ({key, values, seat?, team?}) in this page's language.
function entryText(entry) {
  const values = Object.assign({}, entry.values);
  // cards as the hand shows them, "7♥", not as typed, "7h" (CARD_VALUES in i18n/events.py)
  for (const k of ["card", "cards", "top"]) {
    if (k in values) values[k] = String(values[k]).split(" ").map(cardLabel).join(" ");
  }
  if (entry.seat !== undefined && entry.seat !== null) values.name = seatName(entry.seat);
  // what a bot did for an absent person: "Bot for Ann draws a card" (stand_in_entry)
  if (entry.bot && values.name !== undefined) values.name = t("event.bot_for", { name: values.name });
  let key = entry.key;
  if (entry.team !== undefined && entry.team !== null) {
    values.team = teamLabel(entry.team);
    // "Your side has opened", "Ann & Bob have opened": the verb agrees with the side
    const form = entry.team === myTeam() ? ".yours" : V().teams[entry.team].length > 1 ? ".plural" : "";
    if (form && hasText(key + form)) key += form;
  }
  if (values.count === 1 && hasText(key + ".one")) key += ".one";  // "draws a card"
  return t(key, values);
}

// -- rendering --------------------------------------------------------------------------
function render() {
  if (!S) return;
  document.title = `Canasta · ${variantName(S.variant)}`;
  // state for scripts and tests driving the page
  document.body.dataset.version = String(S.version);
  document.body.dataset.phase = V().phase;
  document.body.dataset.myTurn = isActor() ? "yes" : "no";
  document.body.dataset.match = S.match && S.match.over ? "over" : "playing";
  renderTop();
  renderSeats();
  renderTeams();
  renderCenter();
  applyHighlights();
  renderHand();
  renderActions();
  renderLog();
  renderHistory();
  renderSeatAdmin();
  renderSheet();
  renderHint();
  renderClock();
  afterRender();  // access.js: names for screen readers, focus kept, events announced
}

function renderTop() {
  $("variant").textContent = variantName(S.variant);
  $("hand-no").textContent = t("ui.hand_n", { n: S.hand_number + 1 });
  const board = $("scoreboard");
  board.replaceChildren();
  S.match.scores.forEach((score, i) => {
    const item = el("span", "score team-" + i + (i === myTeam() ? " mine" : ""));
    item.appendChild(titled(el("span", "who", teamLabel(i))));
    item.appendChild(el("b", null, String(score)));
    board.appendChild(item);
  });
  if (S.match.target) board.appendChild(el("span", "target", t("ui.to_target", { n: S.match.target })));
}

function renderSeats() {
  const box = $("seats");
  const mine = $("me-seat");
  const left = $("seat-left");
  const right = $("seat-right");
  box.replaceChildren();
  mine.replaceChildren();
  left.replaceChildren();
  right.replaceChildren();
  const partners = S.you === null ? [] : V().teams[myTeam()];
  const order = seatOrder();
  // four at a table: the left neighbour and the right one beside the stock and the pile,
  // the partner across (above); other counts sit in a row above
  const place = (i) => (i === S.you ? mine : S.players === 4 && S.you !== null
    ? (i === order[0] ? left : i === order[2] ? right : box) : box);
  for (const i of order) {
    const seat = S.seats[i];
    const chip = el("div", "seat team-" + seat.team);
    chip.dataset.seat = String(i);
    if (i === V().actor && V().phase !== "over") chip.classList.add("acting");
    if (i === S.you) chip.classList.add("me");
    const top = el("div", "seat-top");
    top.appendChild(el("span", "dot " + (seat.controller === "bot" ? "bot" : seat.connected ? "on" : "off")));
    top.appendChild(titled(el("span", "seat-name", seat.name)));
    chip.appendChild(top);
    const info = el("div", "seat-info");
    const backs = el("span", "mini-backs");
    backs.appendChild(el("span", "mini-back"));
    backs.appendChild(el("b", null, String(V().hand_sizes[i])));
    info.appendChild(backs);
    if (i === S.you) info.appendChild(el("span", "tag you", t("ui.you")));
    else if (partners.includes(i)) info.appendChild(el("span", "tag partner", t("ui.partner")));
    if (seat.away) info.appendChild(el("span", "tag away", t("ui.away")));
    else if (seat.controller === "bot") info.appendChild(el("span", "tag", `${t("ui.bot")} · ${tOr("ui.level_" + seat.level, seat.level)}`));
    if (i === S.dealer) info.appendChild(el("span", "tag", t("ui.dealer")));
    chip.appendChild(info);
    const last = lastMoveText((V().last_moves || [])[i]);
    if (last) chip.appendChild(el("div", "seat-last", last));
    if (S.clock && S.clock.seat === i) chip.appendChild(el("div", "seat-clock"));
    chip.title = tCount("ui.cards_n", V().hand_sizes[i]);
    // the own seat sits at the bottom, by the hand; the others around the table
    place(i).appendChild(chip);
  }
}

function meldEl(meld, team) {
  const box = el("div", "meld" + (meld.canasta ? " canasta " + meld.canasta : ""));
  box.dataset.rank = meld.rank;
  const fan = el("div", "fan");
  // a canasta is squared up with a red card on top when natural, a black one when mixed
  let shown = meld.cards;
  if (meld.canasta) {
    const want = meld.canasta === "natural";
    const top = meld.cards.find((c) => !parseCard(c).wild && parseCard(c).red === want) || meld.cards[0];
    shown = [top];
  }
  shown.forEach((c) => fan.appendChild(cardEl(c, "small")));
  box.appendChild(fan);
  const label = el("div", "meld-label");
  label.appendChild(el("b", "count", String(meld.count)));
  if (meld.canasta) label.appendChild(el("span", "kind", t("ui.canasta_" + meld.canasta)));
  else if (meld.wilds) label.appendChild(el("span", "kind wilds", `${meld.wilds}\u00d7\u2605`));
  box.appendChild(label);
  if (team === myTeam()) {
    box.addEventListener("click", () => layOffOnto(meld.rank));
  }
  return box;
}

function teamPanel(t_) {
  const v = V();
  const panel = el("div", "team team-" + t_ + (t_ === myTeam() ? " mine" : ""));
  const head = el("div", "team-head");
  head.appendChild(el("span", "team-name", teamLabel(t_)));
  let opening;
  if (v.opened[t_]) opening = el("span", "tag ok", t("ui.opened"));
  else if (v.team_of_current === t_ && v.opening_points > 0) {
    opening = el("span", "tag warn", t("ui.opening_progress", { p: v.opening_points, n: v.opening_minimum[t_] }));
  } else opening = el("span", "tag", t("ui.opening_needed", { n: v.opening_minimum[t_] }));
  head.appendChild(opening);
  if (v.red_threes[t_].length) {
    const reds = el("span", "red-threes");
    reds.title = t("ui.red_threes");
    v.red_threes[t_].forEach((c) => reds.appendChild(cardEl(c, "tiny")));
    head.appendChild(reds);
  }
  panel.appendChild(head);
  const melds = el("div", "melds");
  if (!v.melds[t_].length) melds.appendChild(el("span", "none", t("ui.no_melds")));
  v.melds[t_].forEach((m) => melds.appendChild(meldEl(m, t_)));
  panel.appendChild(melds);
  return panel;
}

function renderTeams() {
  const v = V();
  v.team_of_current = S.seats[v.current].team;
  const mine = $("my-team");
  const other = $("other-teams");
  mine.replaceChildren();
  other.replaceChildren();
  v.teams.forEach((_, t_) => {
    if (t_ === myTeam()) mine.appendChild(teamPanel(t_));
    else other.appendChild(teamPanel(t_));
  });
  mine.classList.toggle("hidden", myTeam() === null);
}

function renderCenter() {
  const v = V();
  const stock = $("stock-stack");
  stock.replaceChildren();
  if (v.stock_size) stock.appendChild(backEl());
  else stock.appendChild(el("div", "card slot"));
  stock.appendChild(el("span", "size", String(v.stock_size)));
  const canDraw = isActor() && connState === "online" && v.legal.some((a) => a.type === "draw");
  $("stock").classList.toggle("clickable", canDraw);
  $("stock").onclick = canDraw ? () => act({ type: "draw" }) : null;

  const pile = $("pile-stack");
  pile.replaceChildren();
  if (v.pile_top) {
    if (v.pile_size > 1) pile.appendChild(backEl("under"));
    pile.appendChild(cardEl(v.pile_top, v.pile_frozen ? "top frozen-card" : "top"));
  } else pile.appendChild(el("div", "card slot"));
  pile.appendChild(el("span", "size", String(v.pile_size)));
  const badges = $("pile-badges");
  badges.replaceChildren();
  if (v.pile_frozen) badges.appendChild(el("span", "badge frozen", "\u2744 " + t("ui.frozen")));
  if (v.stopped) badges.appendChild(el("span", "badge stopped", t("ui.stopped")));
  const take = takeAction();
  $("pile").classList.toggle("clickable", !!take);
  $("pile").onclick = take ? () => act(take) : null;
}

function selectedCards() {
  const hand = V().hand || [];
  return [...selected].sort((a, b) => a - b).map((i) => hand[i]);
}

function renderHand() {
  const box = $("hand");
  box.replaceChildren();
  const hand = V().hand;
  box.classList.toggle("hidden", !hand);
  if (!hand) return;
  const drawn = drawnIndexes(hand);
  for (const [, items] of groupHand(hand)) {
    const g = el("div", "group");
    for (const item of items) {
      const c = cardEl(item.text, (selected.has(item.index) ? "selected" : "") + (drawn.has(item.index) ? " drawn" : ""));
      if (drawn.has(item.index)) c.title = t("ui.just_drawn");
      c.tabIndex = 0;
      c.dataset.index = String(item.index);
      c.setAttribute("role", "button");
      c.setAttribute("aria-pressed", selected.has(item.index) ? "true" : "false");
      const toggle = () => {
        if (selected.has(item.index)) selected.delete(item.index);
        else selected.add(item.index);
        renderHand();
        renderActions();
        renderCenter();
        renderHint();
        afterRender();
      };
      c.addEventListener("click", toggle);
      c.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
      g.appendChild(c);
    }
    box.appendChild(g);
  }
}

function legalOf(type) {
  return (V().legal || []).filter((a) => a.type === type);
}

function takeAction() {
  if (!isActor() || V().phase !== "draw" || connState !== "online") return null;
  const cards = selectedCards();
  const sig = signature(cards);
  const match = legalOf("take-pile").find((a) => signature(a.cards) === sig);
  return match ? { type: "take-pile", cards } : null;
}

function layOffOnto(rank) {
  if (!isActor() || V().phase !== "play") return;
  const cards = selectedCards();
  if (!cards.length) return;
  const sig = signature(cards);
  if (legalOf("lay-off").some((a) => a.rank === rank && signature(a.cards) === sig)) {
    act({ type: "lay-off", rank, cards });
  }
}

function button(label, cls, onClick, enabled = true, action = "") {
  const b = el("button", "btn " + cls, label);
  b.type = "button";
  b.disabled = !enabled || connState !== "online";
  if (action) b.dataset.action = action;
  b.addEventListener("click", onClick);
  return b;
}

function renderActions() {
  const box = $("actions");
  const status = $("status");
  box.replaceChildren();
  status.classList.remove("fatal");
  renderSelection();
  if (fatal) { showFatal(); return; }
  const v = V();
  const cards = selectedCards();
  const sig = signature(cards);
  if (S.you === null) {
    status.textContent = v.phase === "over" ? t("ui.hand_over") : t("ui.spectating");
    return;
  }
  if (v.phase === "over") {
    status.textContent = t("ui.hand_over") + " \u2014 " + endReason();
    box.appendChild(button(t("ui.show_sheet"), "secondary", openSheet, true, "sheet"));
    if (!S.match.over) box.appendChild(button(t("ui.next_hand"), "primary", nextHand, true, "next-hand"));
    else box.appendChild(button(t("ui.rematch"), "primary", rematch, true, "rematch"));
    if (S.seats[S.you].away) box.appendChild(button(t("ui.im_back"), "secondary", () => send({ type: "take-back" }), true, "take-back"));
    return;
  }
  const away = awayStatus();
  if (away) {
    status.textContent = away;
    const label = S.seats[S.you].away ? t("ui.im_back") : t("ui.take_back");
    box.appendChild(button(label, "primary", () => send({ type: "take-back" }), true, "take-back"));
    return;
  }
  if (!isActor()) {
    const actor = S.seats[v.actor];
    if (actor && !actor.away && S.clock && S.clock.away && S.clock.seat === v.actor) {
      status.replaceChildren(el("span", "away-soon"));  // assist.js counts it down
      return;
    }
    status.textContent = actor && actor.away ? t("ui.away_waiting", { name: seatName(v.actor) })
      : v.phase === "answer" ? t("ui.waiting_answer", { name: seatName(v.actor) }) : t("ui.waiting_for", { name: seatName(v.actor) });
    return;
  }
  if (S.settings && S.settings.hints && v.phase !== "answer") {
    box.appendChild(button(t("ui.hint"), "ghost", askHint, true, "hint"));
  }
  if (v.phase === "answer") {
    status.textContent = t("ui.hint_answer", { name: seatName(v.current) });
    box.appendChild(button(t("ui.answer_yes"), "primary", () => act({ type: "answer", yes: true }), true, "answer-yes"));
    box.appendChild(button(t("ui.answer_no"), "secondary", () => act({ type: "answer", yes: false }), true, "answer-no"));
    return;
  }
  if (v.phase === "draw") {
    status.textContent = t(legalOf("take-pile").length ? "ui.hint_draw" : "ui.hint_draw_stock");
    if (legalOf("draw").length) box.appendChild(button(t("ui.draw"), "primary", () => act({ type: "draw" }), true, "draw"));
    if (legalOf("take-pile").length) {
      const take = takeAction();
      box.appendChild(button(t("ui.take_pile"), "primary", () => take && act(take), !!take, "take-pile"));
    }
    if (legalOf("end-hand").length) box.appendChild(button(t("ui.end_hand"), "secondary", () => act({ type: "end-hand" }), true, "end-hand"));
    return;
  }
  // play
  const provisional = legalOf("retract").length > 0;
  status.textContent = provisional ? t("ui.hint_provisional") : t("ui.hint_play");
  if (legalOf("meld").length) {
    const ok = cards.length > 0 && legalOf("meld").some((a) => signature(a.cards) === sig);
    box.appendChild(button(t("ui.meld"), "primary", () => act({ type: "meld", cards }), ok, "meld"));
  }
  if (cards.length) {
    const ranks = [...new Set(legalOf("lay-off").filter((a) => signature(a.cards) === sig).map((a) => a.rank))];
    for (const r of ranks) {
      box.appendChild(button(t("ui.lay_off", { r: r === "W" ? "\u2605" : r }), "primary", () => act({ type: "lay-off", rank: r, cards }), true, "lay-off"));
    }
  }
  if (legalOf("discard").length) {
    const one = cards.length === 1 && legalOf("discard").some((a) => cardKey(a.card) === cardKey(cards[0]));
    const last = (v.hand || []).length === 1;
    box.appendChild(button(last ? t("ui.discard_out") : t("ui.discard"), last ? "primary" : "secondary", () => act({ type: "discard", card: cards[0] }), one, "discard"));
  }
  if (v.go_out) {
    const b = button(t("ui.go_out"), "gold", () => { if (send({ type: "go-out", version: S.version })) document.body.classList.add("busy"); }, true, "go-out");
    b.title = v.go_out.join(" \u00b7 ");
    box.appendChild(b);
  }
  if (legalOf("ask-partner").length) box.appendChild(button(t("ui.ask_partner"), "secondary", () => act({ type: "ask-partner" }), true, "ask-partner"));
  if (provisional) box.appendChild(button(t("ui.retract"), "secondary", () => act({ type: "retract" }), true, "retract"));
  if (legalOf("end-hand").length) box.appendChild(button(t("ui.end_hand"), "secondary", () => act({ type: "end-hand" }), true, "end-hand"));
  if (S.can_undo) box.appendChild(button(t("ui.undo"), "secondary", () => { if (send({ type: "undo", version: S.version })) document.body.classList.add("busy"); }, true, "undo"));
  if (cards.length) box.appendChild(button(t("ui.clear"), "ghost", () => { selected = new Set(); render(); }, true, "clear"));
}

function endReason() {
  const v = V();
  if (v.end_reason === "went_out" && v.went_out !== null) return t("ui.end_went_out", { name: seatName(v.went_out) });
  const key = "end_" + v.end_reason;
  return tOr("ui." + key, v.end_reason.replace(/_/g, " "));
}

function nextHand() {
  // the reader of the sheet dealt: their sheet closes (the others' stay open)
  if (send({ type: "next-hand", version: S.version })) {
    document.body.classList.add("busy");
    sheetClosed = S.hand_number;
    sheetOpen = null;
  }
}

function renderLog() {
  const box = $("log");
  const lines = V().log_entries || [];
  box.replaceChildren();
  lines.forEach((entry) => {
    const li = el("li", null, entryText(entry));
    if (entry.seat === S.you && /\.self$/.test(entry.key)) li.className = "own";
    box.appendChild(li);
  });
  if (lines.length !== lastLogLength) {
    const body = $("tab-log");
    body.scrollTop = body.scrollHeight;
    lastLogLength = lines.length;
  }
}

function renderHistory() {
  const box = $("history");
  box.replaceChildren();
  const hands = S.match.hands;
  const table = el("table", "history");
  const head = el("tr");
  head.appendChild(el("th", null, t("ui.hand")));
  V().teams.forEach((_, i) => head.appendChild(el("th", null, teamLabel(i))));
  table.appendChild(head);
  hands.forEach((h) => {
    const tr = el("tr");
    const link = el("a", null, String(h.hand + 1));
    link.href = `/api/tables/${tableId}/hands/${h.hand}/record`;
    link.setAttribute("download", "");
    const td = el("td");
    td.appendChild(link);
    tr.appendChild(td);
    h.sheets.forEach((s) => tr.appendChild(totalCell(s)));
    table.appendChild(tr);
  });
  box.appendChild(table);
}

// -- wiring -----------------------------------------------------------------------------
$("sheet-close").addEventListener("click", closeSheet);
$("sheet-next").addEventListener("click", nextHand);
$("sheet-rematch").addEventListener("click", rematch);
$("sheet-review").addEventListener("click", () => { if (sheetOpen !== null) openReview(sheetOpen); });
$("review-close").addEventListener("click", closeReview);
window.addEventListener("langchange", render);
// On a phone the action bar is fixed at the bottom; its height (two rows of buttons in Italian
// or Romanian) is kept as --bar-h so the hand above it is never covered.
function fitActionBar() {
  const bar = $("actions");
  const h = getComputedStyle(bar).position === "fixed" ? bar.offsetHeight : 0;
  document.documentElement.style.setProperty("--bar-h", `${h}px`);
}
if (window.ResizeObserver) new ResizeObserver(fitActionBar).observe($("actions"), { box: "border-box" });
window.addEventListener("resize", fitActionBar);
window.addEventListener("hashchange", () => location.reload());
// once every script of the page has run (initTabs is access.js's, onChat chat.js's)
document.addEventListener("DOMContentLoaded", () => initI18n().then(async () => {
  await initLangSwitch();
  initTabs();
  connect();
}));
