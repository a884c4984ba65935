// The score sheet at the end of a hand: every side's itemized sheet and every player's cards
// left; at the end of the match, the winner and every hand's totals, and the rematch. The
// sheet a player has open stays open when someone else deals the next hand: it closes when
// its reader closes it, except at the end of the match: then the last hand's sheet, with the
// winner, takes its place once.
"use strict";

let sheetOpen = null;     // the hand number whose sheet is shown, or null
let sheetClosed = -1;     // the last hand whose sheet its reader closed
const endOf = {};         // hand number -> {left: cards per seat, wentOut, teams}
let wantRematch = false;
let matchEndShown = false; // the last hand's sheet was put up once the match ended

// A score-sheet item from its code (the scorer numbers the players of a side who still hold
// cards, "player 1": they are named).
function sheetLabel(item, team, end) {
  if (!item || !item.code) return "";
  const values = Object.assign({}, item.values);
  if (values.player !== undefined) {
    // numbered within the side, the one who went out keeping a number (core.scoring)
    const seat = end.teams[team][Number(values.player) - 1];
    values.player = seat === undefined ? t("score.player_n", { n: values.player }) : seatName(seat);
  }
  if (item.code === "penalty" && values.penalty) {
    // by its code (core.scoring.Penalty), as the scorepad names it
    let text = values.penalty === "custom" ? values.label : t("penalty." + values.penalty);
    if (values.difference) text += ` (${t("scorepad.difference")} ${values.difference})`;
    if (values.count > 1) text += ` \u00d7${values.count}`;
    values.name = text;
  }
  return t("score." + item.code, values);
}

function noteHandEnd() {
  const v = V();
  if (v.phase !== "over") return;
  endOf[S.hand_number] = { left: v.hands_left, wentOut: v.went_out, teams: v.teams, reason: endReason() };
  if (S.match.over && !matchEndShown) {
    matchEndShown = true;
    sheetOpen = S.hand_number;
  } else if (sheetOpen === null && sheetClosed !== S.hand_number) sheetOpen = S.hand_number;
}

function openSheet() {
  sheetOpen = S.hand_number;
  sheetClosed = -1;
  renderSheet();
}

function closeSheet() {
  sheetClosed = sheetOpen;
  sheetOpen = null;
  renderSheet();
}

function sheetColumn(s, codes, end) {
  const col = el("div", "sheet-team team-" + s.team + (s.team === myTeam() ? " mine" : ""));
  col.appendChild(el("h3", null, teamLabel(s.team)));
  const table = el("table");
  s.items.forEach((item, i) => {
    const tr = el("tr", item.points < 0 ? "neg" : "");
    tr.appendChild(el("td", null, sheetLabel(codes[i], s.team, end) || item.label));
    tr.appendChild(el("td", "pts", String(item.points)));
    table.appendChild(tr);
  });
  const total = el("tr", "total");
  total.appendChild(el("td", null, t("ui.total")));
  total.appendChild(el("td", "pts", String(s.hand_total)));
  table.appendChild(total);
  const run = el("tr", "running");
  run.appendChild(el("td", null, `${t("ui.before")} ${s.score_before} \u2192 ${t("ui.after")}`));
  run.appendChild(el("td", "pts", String(s.score_after)));
  table.appendChild(run);
  col.appendChild(table);
  if (end.left) {
    const left = el("div", "cards-left");
    left.appendChild(el("h4", null, t("ui.cards_left")));
    end.teams[s.team].forEach((seat) => {
      const row = el("div", "left-row");
      row.dataset.seat = String(seat);
      row.appendChild(el("span", "left-name", seatName(seat)));
      const fan = el("span", "left-cards");
      end.left[seat].forEach((c) => fan.appendChild(cardEl(c, "tiny")));
      if (!end.left[seat].length) fan.appendChild(el("span", "none", "\u2014"));
      row.appendChild(fan);
      left.appendChild(row);
    });
    col.appendChild(left);
  }
  return col;
}

// One side's cell of a hand row of the match sheet: the hand's points and the score after.
function totalCell(s) {
  const cell = el("td");
  cell.appendChild(el("span", "delta", (s.hand_total >= 0 ? "+" : "") + s.hand_total));
  cell.appendChild(el("b", null, String(s.score_after)));
  return cell;
}

function matchTable() {
  const table = el("table", "history match-hands");
  const head = el("tr");
  head.appendChild(el("th", null, t("ui.hand")));
  V().teams.forEach((_, i) => head.appendChild(el("th", null, teamLabel(i))));
  table.appendChild(head);
  S.match.hands.forEach((h) => {
    const tr = el("tr");
    tr.appendChild(el("td", null, [String(h.hand + 1), standInText(h, "ui.stand_in_short")].filter(Boolean).join(" ")));
    h.sheets.forEach((s) => tr.appendChild(totalCell(s)));
    table.appendChild(tr);
  });
  return table;
}

// The rematch: asked of the server even when it exists already, since each seat gets a new
// token for it (given once, in the answer "rematched"), never this table's.
// The seats a bot played for their person in hand ``h`` (the server's record of it), named.
function standInText(h, key) {
  if (!h.stand_ins || !h.stand_ins.length) return "";
  return t(key, { names: h.stand_ins.map((i) => (S.seats[i] || {}).name || t("ui.seat_n", { n: i + 1 })).join(", ") });
}

function rematch() {
  wantRematch = send({ type: "rematch" });
}

function onRematched(msg) {
  if (!wantRematch) return;
  wantRematch = false;
  location.href = `/t/${encodeURIComponent(msg.table)}#seat=${encodeURIComponent(msg.token)}`;
}

// The deal's commitment as this page first saw it, per table and hand (kept in
// localStorage): the sheet of the finished hand compares the one revealed with it.
function dealSeen(hand) {
  const all = JSON.parse(localStorage.getItem("canasta.deals") || "{}");
  return (all[tableId] || {})[hand];
}

function noteDealCommitment() {
  const deal = S.deal;
  if (!deal || V().phase === "over" || dealSeen(deal.hand)) return;
  const all = JSON.parse(localStorage.getItem("canasta.deals") || "{}");
  all[tableId] = Object.assign(all[tableId] || {}, { [deal.hand]: deal.commitment });
  localStorage.setItem("canasta.deals", JSON.stringify(all));
}

// Under the sheet: the commitment published before the hand, and whether this page saw the
// same one before the hand's end ("A shuffle you can check", docs/web.md).
function renderDealProof(hand) {
  const box = $("sheet-deal");
  box.replaceChildren();
  box.classList.toggle("hidden", !hand.deal);
  if (!hand.deal) return;
  const seen = dealSeen(hand.hand);
  box.appendChild(el("span", null, t("ui.deal_commitment") + " "));
  box.appendChild(el("code", "commitment", hand.deal.commitment.slice(0, 16) + "…"));
  box.title = hand.deal.commitment;
  const verdict = !seen ? "ui.deal_unseen" : seen === hand.deal.commitment ? "ui.deal_same" : "ui.deal_differs";
  box.appendChild(el("span", "deal-" + verdict.slice(8), " " + t(verdict) + " " + t("ui.deal_check")));
}

function renderSheet() {
  noteHandEnd();
  const box = $("sheet");
  const number = sheetOpen;
  const hand = number === null ? null : S.match.hands.find((h) => h.hand === number);
  if (!hand) {
    box.classList.add("hidden");
    return;
  }
  const end = endOf[number] || { left: null, wentOut: null, teams: V().teams, reason: "" };
  box.classList.remove("hidden");
  const over = S.match.over && number === S.hand_number;
  if (over && S.match.winner !== null) {
    const w = S.match.winner;
    const form = w === myTeam() ? ".yours" : V().teams[w].length > 1 ? ".plural" : "";
    $("sheet-title").textContent = t("ui.match_over" + form, { team: teamLabel(w) });
  } else $("sheet-title").textContent = `${t("ui.score_sheet")} \u2014 ${t("ui.hand_n", { n: number + 1 })}`;
  $("sheet-reason").textContent = [end.reason, standInText(hand, "ui.stand_in_hand")].filter(Boolean).join(" ");
  const body = $("sheet-body");
  body.replaceChildren();
  hand.sheets.forEach((s, k) => body.appendChild(sheetColumn(s, (hand.codes || [])[k] || [], end)));
  const all = $("sheet-hands");
  all.replaceChildren();
  if (over) {
    all.appendChild(el("h3", null, t("ui.match_hands")));
    all.appendChild(matchTable());
  }
  all.classList.toggle("hidden", !over);
  $("sheet-record").href = `/api/tables/${tableId}/hands/${number}/record`;
  renderDealProof(hand);
  const current = number === S.hand_number && V().phase === "over";
  $("sheet-next").classList.toggle("hidden", S.you === null || S.match.over || !current);
  $("sheet-next").disabled = connState !== "online";
  $("sheet-rematch").classList.toggle("hidden", S.you === null || !over);
  $("sheet-rematch").disabled = connState !== "online";
}
