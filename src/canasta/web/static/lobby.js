// The lobby: choose a variant, house rules and who sits where; create the table and hand
// out the invitation links (kept in this browser's localStorage).
"use strict";

const $ = (id) => document.getElementById(id);
let VARIANTS = [];
let BOTS = [];

async function load() {
  const res = await fetch("/api/variants");
  const data = await res.json();
  VARIANTS = data.variants;
  BOTS = data.bots;
  const sel = $("variant");
  sel.replaceChildren();
  VARIANTS.forEach((v) => {
    const o = el("option", null, variantName(v.name));
    o.value = v.name;
    sel.appendChild(o);
  });
  onVariant();
  renderSettings();
  renderRecent();
}

const CLOCKS = [0, 30, 60, 90, 120, 300];

function clockLabel(n) {
  if (!n) return t("ui.clock_off");
  return n % 60 === 0 && n >= 120 ? t("ui.clock_min", { n: n / 60 }) : t("ui.clock_s", { n });
}

// The table's settings: the clock, the bot for an absent player, hints, undo, public.
function renderSettings() {
  const clock = $("clock");
  const keep = clock.value || "0";
  clock.replaceChildren();
  CLOCKS.forEach((n) => {
    const o = el("option", null, clockLabel(n));
    o.value = String(n);
    clock.appendChild(o);
  });
  clock.value = keep;
  const level = $("away-level");
  const keepLevel = level.value || defaultLevel();
  level.replaceChildren();
  BOTS.forEach((b) => {
    const o = el("option", null, levelName(b));
    o.value = b;
    level.appendChild(o);
  });
  level.value = keepLevel;
}

function defaultLevel() {
  return BOTS.includes("hard") ? "hard" : BOTS[0];
}

function levelName(b) {
  return tOr("ui.level_" + b, b);
}

function variant() {
  return VARIANTS.find((v) => v.name === $("variant").value) || VARIANTS[0];
}

function onVariant() {
  const v = variant();
  const players = $("players");
  const keep = Number(players.value) || 4;
  players.replaceChildren();
  v.players.forEach((n) => {
    const o = el("option", null, String(n));
    o.value = String(n);
    players.appendChild(o);
  });
  players.value = String(v.players.includes(keep) ? keep : v.players.includes(4) ? 4 : v.players[0]);
  const opts = $("options");
  opts.replaceChildren();
  v.options.forEach((o) => {
    const label = el("label", "option");
    const description = tOr(`option.${v.name}.${o.name}.description`, o.description);
    label.title = description;
    label.appendChild(el("span", null, tOr("option." + o.name, o.name.replace(/_/g, " "))));
    const s = el("select");
    s.name = "opt:" + o.name;
    o.choices.forEach((c) => {
      const opt = el("option", null, choiceLabel(c));
      opt.value = c;
      s.appendChild(opt);
    });
    s.value = o.default;
    label.appendChild(s);
    label.appendChild(el("small", null, description));
    opts.appendChild(label);
  });
  $("options-box").classList.toggle("hidden", !v.options.length);
  $("options-count").textContent = String(v.options.length);
  onPlayers();
}

function onPlayers() {
  const n = Number($("players").value);
  $("team-size-box").classList.toggle("hidden", n !== 6);
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll(".seat-row")].map((r) => ({
    name: r.querySelector("input").value,
    type: r.querySelector(".type").value,
    level: r.querySelector(".level").value,
  }));
  rows.replaceChildren();
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { name: "", type: i === 0 ? "human" : "bot", level: defaultLevel() };
    const row = el("div", "seat-row");
    row.appendChild(el("span", "seat-no", t("ui.seat_n", { n: i + 1 })));
    const name = el("input");
    name.placeholder = t("ui.name");
    name.maxLength = 24;
    name.value = prev.name;
    name.setAttribute("aria-label", t("ui.name"));
    row.appendChild(name);
    const type = el("select", "type");
    [["human", t("ui.person")], ["bot", t("ui.bot")], ["open", t("ui.open_seat")]].forEach(([v, label]) => {
      const o = el("option", null, label);
      o.value = v;
      type.appendChild(o);
    });
    type.value = prev.type;
    type.setAttribute("aria-label", t("ui.seat_n", { n: i + 1 }));
    row.appendChild(type);
    const level = el("select", "level");
    BOTS.forEach((b) => {
      const o = el("option", null, levelName(b));
      o.value = b;
      level.appendChild(o);
    });
    level.value = prev.level;
    level.setAttribute("aria-label", t("ui.level"));
    row.appendChild(level);
    const sync = () => level.classList.toggle("invisible", type.value !== "bot");
    type.addEventListener("change", sync);
    sync();
    rows.appendChild(row);
  }
}

async function onSubmit(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const n = Number($("players").value);
  const options = {};
  document.querySelectorAll("#options select").forEach((s) => { options[s.name.slice(4)] = s.value; });
  // a person left unnamed is "Giocatore 1" in the creator's language (the server does the
  // same with `lang`, for API clients); bots keep the server's "Bot 2"
  const seats = [...document.querySelectorAll(".seat-row")].map((r, i) => {
    const type = r.querySelector(".type").value;
    const typed = r.querySelector("input").value.trim();
    return {
      type, level: r.querySelector(".level").value,
      name: typed || (type === "human" ? t("ui.player_n", { n: i + 1 }) : ""),
    };
  });
  const body = {
    variant: $("variant").value, players: n, options, seats,
    clock: Number($("clock").value), level: $("away-level").value,
    hints: $("hints").checked, undo: $("undo").checked, lang: LANG, chat: $("chat").value,
    public: $("public").checked || seats.some((s) => s.type === "open"),
  };
  if (n === 6) body.team_size = Number($("team-size").value);
  $("create-btn").disabled = true;
  try {
    const res = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) {
      $("create-error").textContent = data.message || res.statusText;
      return;
    }
    showCreated(data, body);
  } finally {
    $("create-btn").disabled = false;
  }
}

function saveTable(data, body) {
  const all = JSON.parse(localStorage.getItem("canasta.tables") || "{}");
  all[data.table] = {
    variant: body.variant,
    created: new Date().toISOString(),
    links: data.seats.filter((s) => s.path).map((s) => ({ seat: s.seat, name: s.name, path: s.path })),
  };
  localStorage.setItem("canasta.tables", JSON.stringify(all));
}

function showCreated(data, body) {
  saveTable(data, body);
  const box = $("links");
  box.replaceChildren();
  data.seats.filter((s) => s.path).forEach((s) => box.appendChild(linkRow(`${t("ui.seat_n", { n: s.seat + 1 })} \u00b7 ${s.name}`, location.origin + s.path, true)));
  box.appendChild(linkRow(t("ui.spectator_link"), location.origin + data.spectator.path, true));
  const first = data.seats.find((s) => s.path);
  const sit = $("sit");
  sit.href = first.path;
  sit.textContent = t("ui.sit_down", { name: first.name });
  $("created").classList.remove("hidden");
  $("created").scrollIntoView({ behavior: "smooth" });
  renderRecent();
}

function renderRecent() {
  const list = $("recent");
  list.replaceChildren();
  const all = JSON.parse(localStorage.getItem("canasta.tables") || "{}");
  const entries = Object.entries(all).sort((a, b) => (a[1].created < b[1].created ? 1 : -1)).slice(0, 10);
  if (!entries.length) list.appendChild(el("li", "none", t("ui.no_tables")));
  entries.forEach(([id, info]) => {
    const li = el("li");
    const a = el("a", null, `${variantName(info.variant)} \u00b7 ${new Date(info.created).toLocaleString(LANG)}`);
    a.href = info.links.length ? info.links[0].path : `/t/${id}`;
    li.appendChild(a);
    list.appendChild(li);
  });
}

$("variant").addEventListener("change", onVariant);
$("players").addEventListener("change", onPlayers);
$("create").addEventListener("submit", onSubmit);
window.addEventListener("langchange", () => {
  if (!VARIANTS.length) return;
  const keep = { variant: $("variant").value, players: $("players").value };
  const chosen = {};
  document.querySelectorAll("#options select").forEach((s) => { chosen[s.name] = s.value; });
  VARIANTS.forEach((v, i) => { $("variant").options[i].textContent = variantName(v.name); });
  $("variant").value = keep.variant;
  onVariant();
  $("players").value = keep.players;
  document.querySelectorAll("#options select").forEach((s) => { if (s.name in chosen) s.value = chosen[s.name]; });
  onPlayers();
  renderSettings();
  renderRecent();
  if (typeof renderOpen === "function") renderOpen();
});
initI18n().then(async () => {
  await initLangSwitch();
  load();
});
