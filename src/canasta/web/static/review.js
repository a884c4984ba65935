// The Review of a finished hand (canasta.web.play.reviews): every decision of a seat (yours, or
// seat 0 for a spectator) searched by the expert on the server, asked for again until it is
// ready (a progress bar meanwhile): the best moves with their points and match-win chances,
// the points lost and the mark, the hand's result split into luck and play, and each marked
// decision's position to play on from (canasta play --from FILE).
"use strict";

let reviewing = null;   // {hand, seat, timer} of the review shown

function openReview(hand) {
  closeReview();
  const seat = S.you === null ? 0 : S.you;
  reviewing = { hand, seat, timer: null };
  $("review").classList.remove("hidden");
  $("review-title").textContent = `${t("ui.review")} \u2014 ${t("ui.hand_n", { n: hand + 1 })} \u2014 ${seatName(seat)}`;
  $("review-body").replaceChildren();
  $("review-note").textContent = t("ui.review_running");
  const bar = $("review-progress");
  bar.classList.remove("hidden");
  bar.removeAttribute("value");
  pollReview();
}

function closeReview() {
  if (reviewing && reviewing.timer) clearTimeout(reviewing.timer);
  reviewing = null;
  $("review").classList.add("hidden");
}

async function pollReview() {
  const r = reviewing;
  if (!r) return;
  let body;
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hands/${r.hand}/review?seat=${r.seat}`);
    body = await res.json();
    if (!res.ok) { reviewFailed(r, body.message || String(res.status)); return; }
  } catch (e) {
    reviewFailed(r, String(e));
    return;
  }
  if (reviewing !== r) return;
  const bar = $("review-progress");
  if (body.status === "running") {
    if (body.total) { bar.max = body.total; bar.value = body.done; }
    $("review-note").textContent = body.total ? t("ui.review_running_n", { done: body.done, total: body.total }) : t("ui.review_running");
    r.timer = setTimeout(pollReview, 500);
    return;
  }
  bar.classList.add("hidden");
  if (body.status === "failed") { reviewFailed(r, body.message); return; }
  renderReview(body.review);
}

function reviewFailed(r, message) {
  if (reviewing !== r) return;
  $("review-progress").classList.add("hidden");
  $("review-note").textContent = t("review.error", { message });
}

function signed(x) {
  const v = Math.round(x);
  return (v > 0 ? "+" : "") + v;
}

function reasonText(r) {
  const values = {};
  Object.entries(r.params || {}).forEach(([k, x]) => {
    values[k] = typeof x === "string" && /^([2-9AKQJ]|10)[shdc]$/.test(x) ? cardLabel(x) : x;
  });
  return t("hint.reason." + r.key, values);
}

function markText(mark) {
  return mark ? t("review.mark." + mark) : "";
}

function reviewRows(d, win) {
  const rows = d.best.map((mv, i) => [i + 1, mv]);
  if (!d.best.some((mv) => mv.action === d.played.action)) rows.push([d.rank, d.played]);
  return rows.map(([place, mv], j) => {
    const tr = el("tr", (j === 0 ? "first" : "") + (mv.action === d.played.action ? " played" : ""));
    tr.appendChild(el("td", "num", j === 0 ? String(d.action) : ""));
    tr.appendChild(el("td", "move", `${place}. ${moveText(mv.action_json)}${mv.action === d.played.action ? " *" : ""}`));
    tr.appendChild(el("td", "pts", mv.points === null ? t("review.not_searched") : signed(mv.points)));
    if (win) tr.appendChild(el("td", "pts", mv.win === null ? "\u2014" : `${Math.round(mv.win * 100)}%`));
    tr.appendChild(el("td", "pts", j === 0 ? String(Math.round(d.loss)) : ""));
    tr.appendChild(el("td", "mark " + (j === 0 && d.mark ? d.mark : ""), j === 0 ? markText(d.mark) : ""));
    return tr;
  });
}

function positionLink(d, hand) {
  const name = `hand${hand}-action${d.action}.json`;
  const url = URL.createObjectURL(new Blob([JSON.stringify(d.position, null, 1) + "\n"], { type: "application/json" }));
  const a = el("a", "btn small secondary", t("ui.review_position"));
  a.href = url;
  a.download = name;
  a.dataset.action = "review-position";
  const box = el("div", "review-playon");
  box.appendChild(a);
  box.appendChild(el("code", null, t("review.play_on", { action: d.action, command: `canasta play --from ${name}` })));
  return box;
}

function renderReview(doc) {
  const name = seatName(doc.seat);
  $("review-note").textContent = t("review.thresholds", doc.thresholds) + " "
    + (doc.win_estimated ? t("review.win_note") : t("review.win_none", { variant: doc.variant, players: doc.players }));
  const body = $("review-body");
  body.replaceChildren();
  const win = doc.win_estimated;
  doc.hands.forEach((h) => {
    if (!h.decisions.length) body.appendChild(el("p", null, t("review.no_decisions", { name })));
    else {
      const table = el("table", "review");
      const head = el("tr");
      const cols = ["review.col.action", "review.col.moves", "review.col.points"];
      if (win) cols.push("review.col.win");
      cols.push("review.col.loss", "review.col.mark");
      cols.forEach((k) => head.appendChild(el("th", /points|win|loss|action/.test(k) ? "num" : null, t(k))));
      table.appendChild(head);
      h.decisions.forEach((d) => reviewRows(d, win).forEach((tr) => table.appendChild(tr)));
      const scroll = el("div", "review-scroll");  // a phone scrolls the table sideways
      scroll.appendChild(table);
      body.appendChild(scroll);
      body.appendChild(el("p", "review-caption", t("review.caption")));
    }
    const a = h.account;
    const sum = { result: signed(a.result), luck: signed(a.luck), deal: signed(a.deal), draws: signed(a.draws),
      play: signed(a.play), side: signed(a.side), others: signed(a.others), name };
    body.appendChild(el("p", "review-account", t("review.account", sum)));
    body.appendChild(el("p", "review-caption", t("review.account_value." + a.value)));
    body.appendChild(el("p", "review-summary", t("review.summary", { count: h.decisions.length, loss: Math.round(h.loss),
      blunders: h.marks.blunder, mistakes: h.marks.mistake, inaccuracies: h.marks.inaccuracy })));
    h.decisions.filter((d) => d.mark).forEach((d) => {
      const box = el("div", "review-why " + d.mark);
      box.appendChild(el("p", null, t("review.why", { action: d.action, mark: markText(d.mark), loss: Math.round(d.loss) })));
      const better = d.best.filter((mv) => mv.action !== d.played.action).sort((x, y) => y.lead - x.lead)[0];
      [["review.why_played", d.played], ["review.why_best", better]].forEach(([key, mv]) => {
        if (!mv) return;
        box.appendChild(el("p", "review-reason", t(key, { move: moveText(mv.action_json), lead: signed(mv.lead),
          reasons: mv.reasons.map(reasonText).join(" ") })));
      });
      if (d.position) box.appendChild(positionLink(d, h.hand));
      body.appendChild(box);
    });
  });
}

