// The table at a glance: the seats around the table (partners facing), each player's last
// move beside their name and highlighted on the table, the cards just drawn marked in the
// hand, and the points of the selected cards against the opening minimum. Everything comes
// from the server's data (last_moves, drawn, hand_points), never from log text.
"use strict";

let animatedUpTo = { hand: -1, n: -1 };  // moves already animated (each animates once)

// The other seats clockwise from the left neighbour: in a game of four the partner sits
// across, in the middle; the own seat comes last (its cards are the hand below).
function seatOrder() {
  const n = S.players;
  const start = S.you === null ? n - 1 : S.you;
  const out = [];
  for (let k = 1; k <= n; k++) out.push((start + k) % n);
  return out;
}

function cardLabel(text) {
  if (text === "JK") return "JK";
  return text.slice(0, -1) + (SUIT_SYMBOL[text.slice(-1)] || "");
}

function rankLabel(rank) {
  return rank === "W" ? "\u2605" : rank;
}

function lastMoveText(m) {
  if (!m) return "";
  if (m.kind === "discard") return t("ui.last_discard", { card: cardLabel(m.card) });
  if (m.kind === "meld") return t("ui.last_meld", { rank: rankLabel(m.rank) });
  if (m.kind === "lay-off") return t("ui.last_lay_off", { rank: rankLabel(m.rank) });
  if (m.kind === "take-pile") return t("ui.last_take_pile");
  if (m.kind === "draw") return t("ui.last_draw");
  return "";
}

// The newest move of the hand (the one to animate).
function newestMove() {
  let best = null;
  (V().last_moves || []).forEach((m, seat) => {
    if (m && (!best || m.n > best.n)) best = Object.assign({ seat }, m);
  });
  return best;
}

// Mark each player's last move on the table; the newest one also gets a short animation
// (none with prefers-reduced-motion, see style.css).
function applyHighlights() {
  const moves = V().last_moves || [];
  const newest = newestMove();
  const fresh = newest && (animatedUpTo.hand !== S.hand_number || newest.n > animatedUpTo.n);
  moves.forEach((m, seat) => {
    if (!m) return;
    const isNewest = newest && newest.seat === seat;
    let target = null;
    if (m.kind === "meld" || m.kind === "lay-off" || m.kind === "take-pile") {
      target = document.querySelector(`.team.team-${m.team} .meld[data-rank="${CSS.escape(m.rank)}"]`);
    } else if (m.kind === "discard" && isNewest) {
      target = document.querySelector("#pile-stack .top");
    }
    if (!target) return;
    target.classList.add("fresh", "fresh-" + m.kind);
    target.dataset.lastBy = String(seat);
    if (isNewest && fresh) target.classList.add("anim");
  });
  if (newest && newest.kind === "take-pile" && fresh) $("pile").classList.add("anim-taken");
  if (newest) animatedUpTo = { hand: S.hand_number, n: newest.n };
}

// Indexes of the hand's cards that were just drawn (each drawn card marks one copy).
function drawnIndexes(hand) {
  const out = new Set();
  for (const card of V().drawn || []) {
    const i = hand.findIndex((c, k) => c === card && !out.has(k));
    if (i >= 0) out.add(i);
  }
  return out;
}

// "Selected: 45 points · opening 45 of 50" while a side has not opened.
function selectionText() {
  const v = V();
  if (!v.hand || !selected.size || v.phase !== "play") return "";
  const points = [...selected].reduce((sum, i) => sum + ((v.hand_points || [])[i] || 0), 0);
  const team = myTeam();
  if (team !== null && !v.opened[team]) {
    return t("ui.selected_opening", { p: points, o: v.opening_points + points, n: v.opening_minimum[team] });
  }
  return t("ui.selected_points", { p: points });
}

function renderSelection() {
  const box = $("sel-points");
  const text = selectionText();
  box.textContent = text;
  box.classList.toggle("hidden", !text);
  const v = V();
  const team = myTeam();
  if (text && team !== null && !v.opened[team]) {
    const points = [...selected].reduce((sum, i) => sum + ((v.hand_points || [])[i] || 0), 0);
    box.classList.toggle("enough", v.opening_points + points >= v.opening_minimum[team]);
  } else box.classList.remove("enough");
}
