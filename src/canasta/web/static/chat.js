// The chat at the table (canasta.web.play.chat): preset phrases, shown in the reader's
// language from their keys; free text where the host allowed it, always set as text (never
// as markup); mute or block per person; report a message. Only seated people take part.
"use strict";

const CHAT = { on: false, mode: "presets", presets: [], max: 200, modes: {}, messages: [], reported: new Set() };

function onChat(msg) {
  if (msg.type === "chat-welcome") {
    Object.assign(CHAT, { on: true, mode: msg.mode, presets: msg.presets || [], max: msg.max || 200,
      modes: msg.modes || {}, messages: msg.messages || [] });
    renderChat();
  } else if (msg.type === "chat") {
    CHAT.messages.push(msg);
    if (CHAT.messages.length > 200) CHAT.messages.shift();
    renderChatLog();
    if (msg.seat !== S?.you) {
      announce(t("ui.chat_said", { name: msg.name, text: chatText(msg) }));
      const tab = document.querySelector('.tab[data-tab="chat"]');
      if (tab && !tab.classList.contains("active")) tab.classList.add("unread");
    }
  } else if (msg.type === "chat-modes") {
    CHAT.modes = msg.modes || {};
    renderChatPeople();
  } else if (msg.type === "chat-reported") {
    CHAT.reported.add(msg.id);
    renderChatLog();
    toast(t("ui.chat_reported"));
  }
}

function chatText(m) {
  return m.preset ? t("chat.preset." + m.preset) : String(m.text || "");
}

function renderChat() {
  const seated = !!S && S.you !== null;
  $("chat-note").textContent = !seated ? t("ui.chat_spectator") : CHAT.mode === "free" ? "" : t("ui.chat_presets_only");
  $("chat-form").classList.toggle("hidden", !CHAT.on || CHAT.mode !== "free");
  $("chat-text").maxLength = CHAT.max;
  const box = $("chat-presets");
  box.replaceChildren();
  if (CHAT.on) {
    CHAT.presets.forEach((key) => {
      const b = el("button", "btn small secondary", t("chat.preset." + key));
      b.type = "button";
      b.dataset.preset = key;
      b.addEventListener("click", () => send({ type: "chat", preset: key }));
      box.appendChild(b);
    });
  }
  $("chat-people-box").classList.toggle("hidden", !CHAT.on);
  renderChatLog();
  renderChatPeople();
}

function renderChatLog() {
  const box = $("chat-log");
  box.replaceChildren();
  if (!CHAT.messages.length) box.appendChild(el("li", "none", t("ui.chat_none")));
  for (const m of CHAT.messages) {
    const li = el("li", m.seat === S?.you ? "own" : null);
    li.dataset.id = String(m.id);
    li.appendChild(el("b", "who", m.name));
    li.appendChild(el("span", "said", chatText(m)));
    if (CHAT.on && S && m.seat !== S.you) {
      const done = CHAT.reported.has(m.id);
      const b = el("button", "btn small ghost report", t("ui.chat_report"));
      b.type = "button";
      b.disabled = done;
      b.setAttribute("aria-label", t("ui.chat_report_label", { name: m.name }));
      b.addEventListener("click", () => send({ type: "chat-report", id: m.id }));
      li.appendChild(b);
    }
    box.appendChild(li);
  }
  box.scrollTop = box.scrollHeight;
}

// One choice per other person seated here: hear them, mute them, or block them.
function renderChatPeople() {
  const box = $("chat-people");
  if (!S || !CHAT.on || S.you === null) { box.replaceChildren(); return; }
  const key = JSON.stringify([LANG, CHAT.modes, S.seats.map((s) => [s.name, s.kind])]);
  if (box.dataset.key === key) return;  // unchanged: keep the focus on a select
  box.dataset.key = key;
  box.replaceChildren();
  S.seats.forEach((seat) => {
    if (seat.seat === S.you || seat.kind !== "human") return;
    const row = el("div", "chat-person");
    row.appendChild(el("span", "seat-name", seat.name));
    const pick = el("select");
    pick.dataset.seat = String(seat.seat);
    pick.setAttribute("aria-label", t("ui.chat_mode_for", { name: seat.name }));
    for (const [value, label] of [["none", "ui.chat_hear"], ["mute", "ui.chat_mute"], ["block", "ui.chat_block"]]) {
      const o = el("option", null, t(label));
      o.value = value;
      pick.appendChild(o);
    }
    pick.value = CHAT.modes[String(seat.seat)] || "none";
    pick.addEventListener("change", () => send({ type: "chat-mute", seat: seat.seat, mode: pick.value }));
    row.appendChild(pick);
    box.appendChild(row);
  });
}

$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (text && send({ type: "chat", text })) input.value = "";
});
window.addEventListener("langchange", () => { $("chat-people").dataset.key = ""; renderChat(); });
