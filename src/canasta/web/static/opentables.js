// The lobby's list of public tables with a free seat: sit down at one with a name of your
// own (the server hands out the seat's secret link, kept in this browser like your tables).
"use strict";

let OPEN = [];

async function loadOpen() {
  try {
    const res = await fetch("/api/lobby");
    OPEN = (await res.json()).tables || [];
  } catch (e) {
    OPEN = [];
  }
  renderOpen();
}

function renderOpen() {
  const list = $("open-tables");
  list.replaceChildren();
  $("join-name").parentElement.classList.toggle("hidden", !OPEN.length);
  // a table waiting for players comes first: a newcomer sees where to sit before the form
  const panel = $("open-panel");
  const main = panel.parentElement;
  if (OPEN.length && main.firstElementChild !== panel) main.insertBefore(panel, main.firstElementChild);
  if (!OPEN.length) {
    list.appendChild(el("li", "none", t("ui.no_open_tables")));
    return;
  }
  OPEN.forEach((tab) => {
    const li = el("li", "open-table");
    li.dataset.table = tab.table;
    const free = tab.seats.filter((s) => s.kind === "open");
    const head = el("div", "open-head");
    head.appendChild(el("b", null, variantName(tab.variant)));
    head.appendChild(el("span", "tag", `${tab.players} \u00b7 ${tCount("ui.free_seats", free.length)}`));
    li.appendChild(head);
    const seats = el("div", "open-seats");
    tab.seats.forEach((s) => {
      if (s.kind !== "open") {
        seats.appendChild(el("span", "tag", s.name));
        return;
      }
      const b = el("button", "btn small primary", `${t("ui.join")} \u00b7 ${t("ui.seat_n", { n: s.seat + 1 })}`);
      b.type = "button";
      b.dataset.action = "join";
      b.addEventListener("click", () => join(tab, s.seat, b));
      seats.appendChild(b);
    });
    li.appendChild(seats);
    list.appendChild(li);
  });
}

async function join(tab, seat, btn) {
  btn.disabled = true;
  const name = ($("join-name").value || "").trim();
  const res = await fetch(`/api/tables/${encodeURIComponent(tab.table)}/seats/${seat}/join`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, lang: LANG }),  // unnamed: "Giocatore 2" in the page's language
  });
  const data = await res.json();
  if (!res.ok) {
    $("create-error").textContent = data.message || res.statusText;
    btn.disabled = false;
    loadOpen();
    return;
  }
  const all = JSON.parse(localStorage.getItem("canasta.tables") || "{}");
  all[tab.table] = { variant: tab.variant, created: new Date().toISOString(), links: [{ seat, name, path: data.path }] };
  localStorage.setItem("canasta.tables", JSON.stringify(all));
  location.href = data.path;
}

(function initOpen() {
  const panel = $("open-panel");
  const row = el("label", "join-name");
  row.appendChild(el("span", null, ""));
  const input = el("input");
  input.id = "join-name";
  input.maxLength = 24;
  row.appendChild(input);
  panel.insertBefore(row, $("open-tables"));
  const sync = () => {
    row.firstChild.textContent = t("ui.join_name");
    input.placeholder = t("ui.name");
  };
  window.addEventListener("langchange", sync);
  $("refresh-open").addEventListener("click", loadOpen);
  initI18n().then(() => { sync(); loadOpen(); });
})();
