// Cards as DOM elements, the card keys the rules treat as interchangeable, and the small
// widgets the pages share (links, titled names, the table's toast).
"use strict";

const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANK_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "JK"];

function parseCard(text) {
  if (text === "JK") return { rank: "JK", suit: "", red: false, wild: true };
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  return { rank, suit, red: suit === "h" || suit === "d", wild: rank === "2" };
}

// Cards of one rank are interchangeable for the rules (deuces too); jokers differ.
function cardKey(text) {
  return text === "JK" ? "JK" : text.slice(0, -1);
}

function signature(cards) {
  return cards.map(cardKey).sort().join(" ");
}

function rankIndex(rank) {
  const i = RANK_ORDER.indexOf(rank);
  return i < 0 ? 99 : i;
}

// Display groups: naturals from ace down to four, black threes, then wild cards; with the
// account preference "sort: suit" (body data-sort, rated.js) one group per suit instead.
const SUIT_ORDER = ["s", "h", "c", "d"];
function groupHand(cards) {
  const groups = new Map();
  const bySuit = document.body && document.body.dataset.sort === "suit";
  cards.forEach((text, index) => {
    const c = parseCard(text);
    const key = c.wild ? "W" : bySuit ? "S" + c.suit : c.rank;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ text, index, card: c });
  });
  const order = (k) => (k === "W" ? 100 : k[0] === "S" && k.length === 2 ? 50 + SUIT_ORDER.indexOf(k[1]) : rankIndex(k));
  const out = [...groups.entries()].sort((a, b) => order(a[0]) - order(b[0]));
  for (const [, items] of out) {
    items.sort((a, b) => rankIndex(a.card.rank) - rankIndex(b.card.rank) || (a.card.suit < b.card.suit ? -1 : 1));
  }
  return out;
}

// A card's name for screen readers, in the page's language: "queen of hearts", "7 of clubs".
function cardName(text) {
  const c = parseCard(text);
  if (c.rank === "JK") return t("card.joker");
  const rank = hasText("card.rank." + c.rank) ? t("card.rank." + c.rank) : c.rank;
  return t("card.name", { rank, suit: t("card.suit." + c.suit) });
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function cardEl(text, extra) {
  const c = parseCard(text);
  const e = el("div", "card" + (c.red ? " red" : "") + (c.wild ? " wild" : "") + (c.rank === "JK" ? " joker" : "") + (extra ? " " + extra : ""));
  e.dataset.card = text;
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", cardName(text));
  if (c.rank === "JK") {
    e.appendChild(el("span", "corner", "JK"));
    e.appendChild(el("span", "pip", "\u2605"));
  } else {
    const corner = el("span", "corner");
    corner.appendChild(el("span", "rank", c.rank));
    corner.appendChild(el("span", "suit", SUIT_SYMBOL[c.suit]));
    e.appendChild(corner);
    e.appendChild(el("span", "pip", SUIT_SYMBOL[c.suit]));
  }
  return e;
}

function backEl(extra) {
  const e = el("div", "card back" + (extra ? " " + extra : ""));
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", t("card.back"));
  return e;
}

// One invitation or spectator link: its label, the URL in a read-only field, a copy button
// and, with `withOpen`, a link that opens it in a new tab. Shared by the lobby and the table.
function linkRow(label, url, withOpen = false) {
  const row = el("div", "link-row");
  row.appendChild(el("span", "link-label", label));
  const input = el("input", "link");
  input.value = url;
  input.readOnly = true;
  row.appendChild(input);
  const copy = el("button", "btn small secondary", t("ui.copy"));
  copy.type = "button";
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(url); } catch (err) { input.select(); document.execCommand("copy"); }
    copy.textContent = t("ui.copied");
  });
  row.appendChild(copy);
  if (withOpen) {
    const open = el("a", "btn small secondary", t("ui.open"));
    open.href = url;
    open.target = "_blank";
    open.rel = "noopener";
    row.appendChild(open);
  }
  return row;
}

// A name the layout may cut keeps its whole text as the element's title.
function titled(e) { e.title = e.textContent; return e; }

let toastTimer = null;
// The table's toast (#toast): it passes taps through (CSS) and sits above the action bar
// (fixed at the bottom on a phone, at the foot of the table on a desk), not over its buttons.
function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  const bar = document.getElementById("actions").getBoundingClientRect();
  const shown = bar.height > 0 && bar.top < innerHeight && bar.bottom > 0;
  box.style.bottom = shown ? `${Math.max(22, innerHeight - bar.top + 10)}px` : "";
  box.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.add("hidden"), 4500);
}
