// The duplicate tournament page (/tournaments and /tournaments/<id>): making one, joining by
// its link, the host's start, and the board: standings, rounds with every table's link and
// record, each deal compared across its two tables, the teams and the committed deals.
// An entrant's token travels in the fragment (#entrant=...) and is kept in localStorage.
"use strict";

const $ = (id) => document.getElementById(id);
const TID = (location.pathname.match(/^\/tournaments\/([^/]+)/) || [])[1] || null;
const KEY = TID ? "canasta.tourney." + TID : null;
const POLL_MS = 2000;
let VIEW = null;
let TOKENS = {};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function loadTokens() {
  if (!KEY) return;
  try { TOKENS = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { TOKENS = {}; }
  const m = location.hash.match(/(entrant|host)=([A-Za-z0-9_-]+)/);
  if (m) {
    TOKENS[m[1]] = m[2];
    localStorage.setItem(KEY, JSON.stringify(TOKENS));
    history.replaceState(null, "", location.pathname);  // the secret leaves the address bar
  }
}

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || res.statusText);
  return data;
}

function teamName(n) {
  const team = VIEW && VIEW.teams[n];
  const people = team ? team.members.filter((m) => m.kind === "human").map((m) => m.name) : [];
  const label = t("tourney.team_n", { n: n + 1 });
  return people.length ? label + " (" + people.join(", ") + ")" : label;
}

// -- making a tournament ---------------------------------------------------------------------
async function setup() {
  $("setup").classList.remove("hidden");
  const info = await api("GET", "/api/variants");
  const variant = $("t-variant");
  info.variants.forEach((v) => variant.appendChild(new Option(variantName(v.name), v.name)));
  info.bots.forEach((b) => $("t-level").appendChild(new Option(t("ui.level_" + b), b)));
  $("t-level").value = info.bots.includes("medium") ? "medium" : info.bots[0];
  const players = () => {
    const v = info.variants.find((x) => x.name === variant.value);
    const box = $("t-players");
    box.replaceChildren();
    v.players.filter((n) => n % 2 === 0).forEach((n) => box.appendChild(new Option(String(n), String(n))));
    box.value = v.players.includes(4) ? "4" : box.options[0].value;
  };
  variant.addEventListener("change", players);
  players();
  $("setup").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("setup-error").textContent = "";
    const start = $("t-start").value;
    const body = {
      name: $("t-name").value || null, variant: variant.value, players: Number($("t-players").value),
      tables: Number($("t-tables").value), rounds: Number($("t-rounds").value),
      deals: Number($("t-deals").value), clock: Number($("t-clock").value),
      level: $("t-level").value, lang: LANG,
      starts_at: start ? new Date(start).getTime() / 1000 : null,
    };
    try {
      const made = await api("POST", "/api/tournaments", body);
      location.href = made.path;
    } catch (e) { $("setup-error").textContent = e.message; }
  });
}

// -- the board -------------------------------------------------------------------------------
async function refresh() {
  try {
    VIEW = await api("GET", "/api/tournaments/" + TID, null, TOKENS.entrant || TOKENS.host);
    $("fatal").classList.add("hidden");
    render();
  } catch (e) {
    $("fatal").textContent = e.message;
    $("fatal").classList.remove("hidden");
  }
  if (!VIEW || VIEW.status !== "over") setTimeout(refresh, POLL_MS);
}

function stateText(v) {
  if (v.status === "over") return t("tourney.state_over");
  if (v.status === "playing") return t("tourney.state_round", { n: v.round, of: v.rounds });
  if (v.starts_at) return t("tourney.state_starts", { when: new Date(v.starts_at * 1000).toLocaleString(LANG) });
  return t("tourney.state_open");
}

function render() {
  const v = VIEW;
  $("board").classList.remove("hidden");
  $("t-title").textContent = v.name;
  $("t-summary").textContent = [variantName(v.variant), t("ui.players") + ": " + v.players,
    t("tourney.tables") + ": " + v.tables, t("tourney.rounds") + ": " + v.rounds,
    t("tourney.deals") + ": " + v.deals_per_round].join(" \u00b7 ");
  $("t-state").textContent = stateText(v);
  $("record").href = "/api/tournaments/" + v.tournament + "/record";
  renderEntry(v);
  renderStandings(v);
  renderSchedule(v);
  renderResults(v);
  renderTeams(v);
  renderDeals(v);
}

function renderEntry(v) {
  const open = v.status === "open";
  $("host-box").classList.toggle("hidden", !(v.host && open));
  $("join-link").value = location.origin + "/tournaments/" + v.tournament;
  $("join-box").classList.toggle("hidden", !open || !!v.you);
  const team = $("join-team");
  if (open && !v.you && team.options.length !== v.teams.length + 1) {
    team.replaceChildren(new Option(t("tourney.any_team"), ""));
    v.teams.forEach((tm) => team.appendChild(new Option(teamName(tm.team) + " · " + tCount("tourney.free_seats", tm.free), String(tm.team))));
  }
  const you = $("you-box");
  you.classList.toggle("hidden", !v.you);
  if (!v.you) return;
  you.replaceChildren(el("p", null, t("tourney.you_are", { name: v.you.name, team: teamName(v.you.team) })));
  if (v.you.path && v.status === "playing") {
    const go = el("a", "btn primary big", t("tourney.go_to_table"));
    go.href = v.you.path;
    go.id = "go-table";
    you.appendChild(go);
  } else if (open) {
    you.appendChild(el("p", "help", t("tourney.wait_start")));
  }
}

function cell(row, text, cls) { const c = el("td", cls, text); row.appendChild(c); return c; }
function head(table, labels) {
  const tr = el("tr");
  labels.forEach(([key, cls]) => tr.appendChild(el("th", cls, t(key))));
  table.replaceChildren(tr);
}
const signed = (x) => (x > 0 ? "+" : "") + (Math.round(x * 10) / 10);

function renderStandings(v) {
  const table = $("standings");
  head(table, [["tourney.rank"], ["tourney.team"], ["tourney.played", "num wide"], ["tourney.won", "num"],
    ["tourney.tied", "num wide"], ["tourney.lost", "num wide"], ["tourney.points", "num"], ["tourney.diff", "num"]]);
  v.standings.forEach((s) => {
    const tr = el("tr", v.you && v.you.team === s.team ? "mine" : null);
    cell(tr, s.rank); cell(tr, teamName(s.team));
    [[s.played, "num wide"], [s.won, "num"], [s.tied, "num wide"], [s.lost, "num wide"],
      [s.points, "num"]].forEach(([x, cls]) => cell(tr, x, cls));
    cell(tr, signed(s.diff), "num");
    table.appendChild(tr);
  });
}

function tableLinks(row, tb) {
  const label = t("tourney.table_n", { n: tb.number + 1 });
  const box = el("span", "t-table");
  row.appendChild(box);
  if (!tb.table) { box.appendChild(el("span", "tag", label)); return; }
  const a = el("a", null, label);
  a.href = tb.path;
  box.appendChild(a);
  box.appendChild(el("span", "tag" + (tb.status === "over" ? " ok" : ""), t("tourney.status_" + tb.status)));
  if (tb.hands_done) {
    const rec = el("a", null, t("tourney.table_record"));
    rec.href = tb.record;
    rec.setAttribute("download", "");
    box.appendChild(rec);
  }
}

function renderSchedule(v) {
  const box = $("schedule");
  box.replaceChildren();
  v.schedule.forEach((r) => {
    const round = el("div", "t-round");
    round.appendChild(el("h3", null, t("tourney.round_n", { n: r.round })));
    r.matches.forEach((m) => {
      const row = el("div", "t-match");
      row.appendChild(el("span", "vs", t("tourney.versus", { a: teamName(m.a), b: teamName(m.b) })));
      m.tables.forEach((tb) => tableLinks(row, tb));
      round.appendChild(row);
    });
    box.appendChild(round);
  });
}

function renderResults(v) {
  const table = $("results");
  head(table, [["tourney.round"], ["tourney.deal"], ["tourney.match"], ["tourney.first_table", "num"],
    ["tourney.second_table", "num"], ["tourney.diff", "num"], ["tourney.winner"]]);
  v.results.forEach((p) => {
    const tr = el("tr");
    cell(tr, p.round); cell(tr, p.deal + 1);
    cell(tr, t("tourney.versus", { a: teamName(p.a), b: teamName(p.b) }));
    cell(tr, p.first.join(" : "), "num");
    cell(tr, p.second.slice().reverse().join(" : "), "num");  // team a's side first
    cell(tr, signed(p.diff), "num");
    cell(tr, p.winner === null ? t("tourney.tie") : teamName(p.winner));
    table.appendChild(tr);
  });
}

function renderTeams(v) {
  const box = $("teams");
  box.replaceChildren();
  v.teams.forEach((tm) => {
    const card = el("div", "t-team");
    card.appendChild(el("b", null, t("tourney.team_n", { n: tm.team + 1 })));
    tm.members.forEach((m) => {
      const line = el("div", null, m.name + " \u00b7 " + t("tourney.table_of_pair", { n: m.squad + 1 }));
      if (m.kind === "bot") line.prepend(el("span", "tag", t("ui.bot")), " ");
      card.appendChild(line);
    });
    if (tm.free) card.appendChild(el("div", "help", tCount("tourney.free_seats", tm.free)));
    box.appendChild(card);
  });
}

function renderDeals(v) {
  const table = $("deals");
  head(table, [["tourney.round"], ["tourney.deal"], ["tourney.commitment"], ["tourney.seed"]]);
  v.deals.forEach((d) => {
    const tr = el("tr");
    cell(tr, d.round); cell(tr, d.deal + 1); cell(tr, d.commitment);
    cell(tr, d.seed ? d.seed + " / " + d.nonce : t("tourney.secret"));
    table.appendChild(tr);
  });
}

async function join(ev) {
  ev.preventDefault();
  $("board-error").textContent = "";
  const team = $("join-team").value;
  try {
    const got = await api("POST", "/api/tournaments/" + TID + "/join",
      { name: $("join-name").value || null, team: team === "" ? null : Number(team), lang: LANG });
    TOKENS.entrant = got.token;
    localStorage.setItem(KEY, JSON.stringify(TOKENS));
    VIEW = await api("GET", "/api/tournaments/" + TID, null, got.token);
    render();
  } catch (e) { $("board-error").textContent = e.message; }
}

async function start() {
  $("board-error").textContent = "";
  try {
    VIEW = await api("POST", "/api/tournaments/" + TID + "/start", { token: TOKENS.host }, TOKENS.host);
    render();
  } catch (e) { $("board-error").textContent = e.message; }
}

initI18n().then(async () => {
  await initLangSwitch();
  window.addEventListener("langchange", () => { if (VIEW) render(); });
  if (!TID) { await setup(); return; }
  loadTokens();
  $("join-box").addEventListener("submit", join);
  $("start").addEventListener("click", start);
  await refresh();
});
