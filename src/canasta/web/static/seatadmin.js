// The Seats tab of the table page: who plays each seat, handing a seat to a bot and taking it
// back, and the invitation links this browser saved when it created the table.
"use strict";

function renderSeatAdmin() {
  const box = $("seat-admin");
  box.replaceChildren();
  S.seats.forEach((seat) => {
    const row = el("div", "admin-row");
    row.appendChild(el("span", "dot " + (seat.controller === "bot" ? "bot" : seat.connected ? "on" : "off")));
    row.appendChild(titled(el("span", "seat-name", seat.name)));
    const what = seat.controller === "bot" ? `${t("ui.bot")} (${t("ui.level_" + seat.level)})` : seat.connected ? t("ui.online") : t("ui.offline");
    row.appendChild(el("span", "tag", what));
    if (S.you !== null && seat.kind === "human" && seat.controller === "human" && (!seat.connected || seat.seat === S.you)) {
      row.appendChild(button(t("ui.give_bot"), "small secondary", () => send({ type: "bot", seat: seat.seat }), true, "give-bot"));
    }
    if (seat.seat === S.you && seat.controller === "bot") {
      row.appendChild(button(t("ui.take_back"), "small primary", () => send({ type: "take-back" }), true, "take-back"));
    }
    box.appendChild(row);
  });
  const invites = $("invites");
  invites.replaceChildren();
  const saved = JSON.parse(localStorage.getItem("canasta.tables") || "{}")[tableId];
  if (saved && saved.links) {
    invites.appendChild(el("h3", null, t("ui.invite_links")));
    saved.links.forEach((l) => invites.appendChild(linkRow(l.name, location.origin + l.path)));
    invites.appendChild(linkRow(t("ui.spectator_link"), location.origin + `/t/${tableId}`));
  }
}
