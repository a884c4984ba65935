// Help at the table: the turn clock's countdown, hints (the server's suggestions, written
// from the catalogues), and the words for an absent player whose seat a bot keeps.
"use strict";

let clockAt = 0;       // performance.now() when the last clock reading arrived
let hint = null;       // the last hint message, while it is for the current version

function clockLeft() {
  if (!S || !S.clock) return null;
  return Math.max(0, S.clock.remaining - (performance.now() - clockAt) / 1000);
}

// The countdown beside the name of the seat it runs for, the same for every seat and spectator:
// the turn clock, or the away time of a person who left (S.clock.away: when it runs out a bot
// steps in, the clock on or off); and the others' status line that says so.
function renderClock() {
  const left = clockLeft();
  const n = left === null ? null : Math.ceil(left);
  const away = !!(S && S.clock && S.clock.away);
  document.querySelectorAll(".seat-clock").forEach((e) => {
    if (n === null) { e.textContent = ""; return; }
    e.textContent = t(away ? "ui.clock_away" : "ui.clock_left", { n });
    e.classList.toggle("low", n <= 10);
    e.classList.toggle("away", away);
  });
  document.querySelectorAll(".away-soon").forEach((e) => {
    e.textContent = n === null ? "" : t("ui.away_soon", { name: seatName(S.clock.seat), n });
  });
}
// table.js (which declares S) loads after this script: until it has, there is no clock
// (a slow server left it unloaded for a tick: "S is not defined")
setInterval(() => { if (typeof S !== "undefined" && S && S.clock) renderClock(); }, 250);

function moveText(a) {
  const cards = (a.cards || []).map(cardLabel).join(" ");
  if (a.type === "draw") return t("ui.move_draw");
  if (a.type === "take-pile") return t("ui.move_take_pile", { cards });
  if (a.type === "meld") return t("ui.move_meld", { cards });
  if (a.type === "lay-off") return t("ui.move_lay_off", { cards, rank: rankLabel(a.rank) });
  if (a.type === "discard") return t("ui.move_discard", { card: cardLabel(a.card) });
  return t("ui.move_other", { text: a.text || a.type });
}

function askHint() {
  hint = { version: S.version, items: null };
  if (!send({ type: "hint" })) { hint = null; return; }
  renderHint();
}

function onHint(msg) {
  hint = msg;
  renderHint();
}

function renderHint() {
  const box = $("hint");
  if (!hint || !S || hint.version !== S.version || !isActor()) {
    box.classList.add("hidden");
    box.replaceChildren();
    return;
  }
  box.classList.remove("hidden");
  box.replaceChildren();
  const head = el("div", "hint-head");
  head.appendChild(el("b", null, t("ui.hint_title")));
  const close = button("\u00d7", "ghost small", () => { hint = null; renderHint(); }, true, "hint-close");
  close.setAttribute("aria-label", t("ui.close"));
  head.appendChild(close);
  box.appendChild(head);
  if (!hint.items) {
    box.appendChild(el("p", "hint-wait", t("ui.hint_thinking")));
    return;
  }
  const list = el("ol", "hint-list");
  hint.items.forEach((item) => {
    const li = el("li");
    const top = el("div", "hint-move");
    top.appendChild(el("b", null, moveText(item.action)));
    const v = Math.round(item.value);
    top.appendChild(el("span", "hint-value", t("ui.hint_value", { v: (v > 0 ? "+" : "") + v })));
    li.appendChild(top);
    const why = el("ul", "hint-why");
    item.reasons.filter((r) => r.key !== "hint.reason.estimate").forEach((r) => {
      const values = {};
      Object.entries(r.values || {}).forEach(([k, x]) => {
        // card texts ("7h") are shown with their suit; ranks ("10", "K") stay as they are
        values[k] = typeof x === "string" && /^([2-9AKQJ]|10)[shdc]$/.test(x) ? cardLabel(x) : x;
      });
      why.appendChild(el("li", null, t(r.key, values)));
    });
    li.appendChild(why);
    list.appendChild(li);
  });
  box.appendChild(list);
  box.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

// The status line of a seat a bot keeps for its absent person.
function awayStatus() {
  const mine = S.you !== null && S.seats[S.you];
  if (mine && mine.controller === "bot") return mine.away ? t("ui.away_you") : t("ui.bot_plays_you");
  return null;
}
