// A table everyone can read: the display settings (large cards, high contrast), names for
// screen readers of what the stacks and melds show, keyboard play with keys for every move
// (the help line lists them), focus kept across re-renders, and a live region that reads out
// what happens at the table.
"use strict";

const DISPLAY = { "large-cards": "canasta.largeCards", "high-contrast": "canasta.highContrast" };
// The keys of the moves (ui.keys_help lists them): each presses the action button of that
// name when it is enabled; every other button is reached with Tab.
const MOVE_KEYS = { d: "draw", p: "take-pile", m: "meld", l: "lay-off", x: "discard", g: "go-out", u: "undo" };
let lastFocus = null;   // a selector for what had the focus, to find it again after a render
let heardLog = null;    // how many log entries were read out

function initDisplay() {
  for (const [id, key] of Object.entries(DISPLAY)) {
    const button = $(id);
    const apply = (on) => {
      document.body.classList.toggle(id, on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    };
    apply(localStorage.getItem(key) === "1");
    button.addEventListener("click", () => {
      const on = !document.body.classList.contains(id);
      localStorage.setItem(key, on ? "1" : "0");
      apply(on);
    });
  }
}

// Tabs with their roles: the selected one is aria-selected and its panel is shown.
function initTabs() {
  const tabs = [...document.querySelectorAll(".tab")];
  const pick = (tab) => {
    tabs.forEach((x) => {
      x.classList.toggle("active", x === tab);
      x.setAttribute("aria-selected", x === tab ? "true" : "false");
      x.tabIndex = x === tab ? 0 : -1;
    });
    document.querySelectorAll(".tab-body").forEach((b) => b.classList.toggle("hidden", b.id !== "tab-" + tab.dataset.tab));
    tab.classList.remove("unread");
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => pick(tab));
    tab.addEventListener("keydown", (e) => {
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      const next = tabs[(i + step + tabs.length) % tabs.length];
      pick(next);
      next.focus();
    });
  });
  pick(tabs.find((x) => x.classList.contains("active")) || tabs[0]);
}

function announce(text) {
  const box = $("announce");
  if (box && text) box.textContent = text;
}

// An element that acts on Enter and Space like a button, while `on`.
function asButton(node, on, label) {
  if (label) node.setAttribute("aria-label", label);
  if (on) {
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    if (!node.dataset.keys) {
      node.dataset.keys = "1";
      node.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && node.getAttribute("role") === "button") {
          e.preventDefault();
          node.click();
        }
      });
    }
  } else {
    node.setAttribute("role", "group");
    node.removeAttribute("tabindex");
  }
}

function nameStacks() {
  const v = V();
  asButton($("stock"), $("stock").classList.contains("clickable"),
    t("card.stack", { what: t("ui.stock"), n: v.stock_size }));
  const pileLabel = v.pile_top ? t("card.pile_top", { what: t("ui.pile"), n: v.pile_size, card: cardName(v.pile_top) })
    : t("card.stack", { what: t("ui.pile"), n: v.pile_size });
  asButton($("pile"), $("pile").classList.contains("clickable"), pileLabel);
}

function nameMelds() {
  const canLayOff = isActor() && V().phase === "play" && selected.size > 0;
  document.querySelectorAll(".team .meld").forEach((m) => {
    const names = [...m.querySelectorAll(".card")].map((c) => c.getAttribute("aria-label"));
    const count = m.querySelector(".count");
    const rank = m.dataset.rank === "W" ? t("card.joker") : (hasText("card.rank." + m.dataset.rank) ? t("card.rank." + m.dataset.rank) : m.dataset.rank);
    const label = t("card.meld", { rank, cards: names.join(", ") }) + (count ? ` (${count.textContent})` : "");
    asButton(m, canLayOff && !!m.closest(".team.mine"), label);
  });
}

function announceEvents() {
  const lines = V().log_entries || [];
  if (heardLog !== null && lines.length > heardLog) announce(entryText(lines[lines.length - 1]));
  heardLog = lines.length;
}

// Where the focus was (a card of the hand by its place, an action by its name), to put it
// back when a render replaced that element.
function focusKey(node) {
  if (!node || !node.closest) return null;
  const card = node.closest("#hand .card");
  if (card) return { sel: `#hand .card[data-index="${card.dataset.index}"]`, hand: true };
  const act = node.closest("#actions button[data-action]");
  if (act) return { sel: `#actions button[data-action="${act.dataset.action}"]`, hand: false };
  if (node.id) return { sel: "#" + node.id, hand: false };
  return null;
}

function restoreFocus() {
  if (!lastFocus || (document.activeElement && document.activeElement !== document.body)) return;
  const target = document.querySelector(lastFocus.sel)
    || document.querySelector("#actions button:not(:disabled)") || document.querySelector("#hand .card");
  if (target) target.focus({ preventScroll: true });
}

function afterRender() {
  if (!S) return;
  nameStacks();
  nameMelds();
  announceEvents();
  if (typeof renderChatPeople === "function") renderChatPeople();
  restoreFocus();
}

function pressAction(name) {
  const b = document.querySelector(`#actions button[data-action="${name}"]`);
  if (b && !b.disabled) { b.click(); return true; }
  return false;
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || !S) return;
  const target = e.target;
  if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
  if (e.key === "?") { $("keys-help").classList.toggle("hidden"); e.preventDefault(); return; }
  if (e.key === "Escape") { pressAction("clear"); return; }
  if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && target && target.closest && target.closest("#hand .card")) {
    const cards = [...document.querySelectorAll("#hand .card")];
    const i = cards.indexOf(target.closest(".card"));
    const next = cards[i + (e.key === "ArrowRight" ? 1 : -1)];
    if (next) { next.focus(); e.preventDefault(); }
    return;
  }
  const name = MOVE_KEYS[e.key.toLowerCase()];
  if (name && pressAction(name)) e.preventDefault();
}

document.addEventListener("focusin", (e) => { lastFocus = focusKey(e.target); });
// Focus left on purpose (a click elsewhere) is not put back; focus lost with a replaced
// element is.
document.addEventListener("focusout", (e) => {
  const was = e.target;
  setTimeout(() => { if (was.isConnected && document.activeElement === document.body) lastFocus = null; }, 0);
});
document.addEventListener("keydown", onKey);
initDisplay();
// On a touch screen with no mouse (a phone) the keys' help line is noise that pushes the
// table down: it starts hidden there, and "?" still shows it to whoever has a keyboard.
if (window.matchMedia("(hover: none) and (pointer: coarse)").matches) $("keys-help").classList.add("hidden");
