// The account page (/account) and the leaderboard (/leaderboard/<variant>): optional
// accounts, their preferences and password, rated matches (against bots, or a person who
// gets a link) and the ratings. Every POST sends
// the canasta_csrf cookie's value in X-CSRF-Token (double-submit); the sign-in itself is an
// HttpOnly cookie no script reads. Preferences are copied to localStorage ("canasta.prefs",
// "canasta.lang") for the table page (rated.js).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let CSRF = "";
  let ME = null;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  async function me() {
    const res = await fetch("/api/accounts/me", { credentials: "same-origin" });
    const body = await res.json();
    CSRF = body.csrf;
    ME = body.account;
    if (ME) keepPrefs(ME.prefs);
    return ME;
  }

  async function post(path, body) {
    const res = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
      body: JSON.stringify(body || {}),
    });
    let data = {};
    try { data = await res.json(); } catch (e) { /* an empty answer */ }
    return { ok: res.ok, status: res.status, data };
  }

  function keepPrefs(prefs) {
    localStorage.setItem("canasta.prefs", JSON.stringify(prefs || {}));
    if (prefs && prefs.lang) localStorage.setItem("canasta.lang", prefs.lang);
  }

  function say(text, error) {
    const box = $("acct-msg");
    if (!box) return;
    box.textContent = text;
    box.classList.toggle("error", !!error);
    box.classList.toggle("hidden", !text);
  }

  function refusal(r) {
    const code = r.data && r.data.code;
    if (code === "bad-login") return t("acct.err_bad_login");
    if (code === "name-taken") return t("acct.err_name_taken");
    if (code === "rate-limited") return t("acct.err_rate");
    if (code === "csrf") return t("acct.err_csrf");
    return t("acct.err_other", { message: (r.data && r.data.message) || r.status });
  }

  // -- the account page -------------------------------------------------------------------
  // A table in a box of its own that scrolls sideways if it must: the page never does. The
  // box is a named region that takes the focus, so the keyboard can scroll it too.
  function table(headers, rows, label) {
    const box = el("div", "scroll");
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", label);
    const tbl = el("table");
    box.appendChild(tbl);
    const head = el("tr");
    headers.forEach(([text, cls]) => head.appendChild(el("th", cls, text)));
    tbl.appendChild(head);
    rows.forEach((r) => tbl.appendChild(r));
    return box;
  }

  function ratingText(r) {
    return `${Math.round(r.rating)} \u00b1${Math.round(r.rd)}`;
  }

  function renderRatings() {
    const box = $("ratings");
    box.replaceChildren();
    if (!ME.ratings.length) { box.appendChild(el("p", "help", t("acct.no_ratings"))); return; }
    const rows = ME.ratings.map((r) => {
      const tr = el("tr");
      const name = el("td");
      const link = el("a", null, variantName(r.variant));
      link.href = `/leaderboard/${encodeURIComponent(r.variant)}`;
      name.appendChild(link);
      tr.appendChild(name);
      const value = el("td", "num", ratingText(r));
      if (r.provisional) value.append(" ", el("span", "tag", t("acct.provisional")));
      tr.appendChild(value);
      tr.appendChild(el("td", "num", `${r.wins}\u2013${r.losses}\u2013${r.draws}`));
      return tr;
    });
    box.appendChild(table([[t("ui.variant")], [t("acct.rating"), "num"], [t("acct.wld"), "num"]], rows, t("acct.ratings")));
  }

  function resultText(h) {
    if (!h.rated) return t("acct.unrated");
    if (!h.result) return t("acct.in_play");
    return t("acct.result_" + h.result) + (h.abandoned ? " (" + t("acct.abandoned") + ")" : "");
  }

  function renderHistory() {
    const box = $("history");
    box.replaceChildren();
    if (!ME.history.length) { box.appendChild(el("p", "help", t("acct.no_history"))); return; }
    const rows = ME.history.map((h) => {
      const tr = el("tr");
      tr.dataset.table = h.table;
      const what = el("td", null, variantName(h.variant));
      what.appendChild(el("small", null, new Date(h.at).toLocaleDateString(LANG)));
      tr.appendChild(what);
      tr.appendChild(el("td", "result", resultText(h)));
      const change = el("td", "num");
      if (h.rating_before !== null && h.rating_after !== null) {
        const d = Math.round(h.rating_after - h.rating_before);
        change.textContent = `${Math.round(h.rating_after)} (${d >= 0 ? "+" : ""}${d})`;
        change.classList.add(d >= 0 ? "up" : "down");
      }
      tr.appendChild(change);
      const links = el("td");
      const open = el("a", null, t("acct.open_table"));
      open.href = h.path;
      const rec = el("a", null, t("acct.record"));
      rec.href = h.record;
      rec.setAttribute("download", "");
      links.append(open, " \u00b7 ", rec);
      tr.appendChild(links);
      return tr;
    });
    box.appendChild(table([[t("ui.variant")], [t("acct.result")], [t("acct.rating"), "num"], [""]], rows, t("acct.history")));
  }

  function fillSelect(select, items, value) {
    select.replaceChildren();
    items.forEach(([v, label]) => {
      const o = el("option", null, label);
      o.value = v;
      select.appendChild(o);
    });
    if (value !== undefined) select.value = value;
  }

  let VARIANTS = [];
  let BOTS = [];

  function renderProfile() {
    const signedIn = !!ME;
    $("signin").classList.toggle("hidden", signedIn);
    $("profile").classList.toggle("hidden", !signedIn);
    if (!signedIn) return;
    $("who").textContent = t("acct.signed_in_as", { name: ME.name });
    $("pw-name").value = ME.name;  // for password managers: whose password changes
    renderRatings();
    renderHistory();
    fillSelect($("pref-lang"), [["", t("acct.lang_browser")], ...LANGS.map((l) => [l, l.toUpperCase()])], ME.prefs.lang || "");
    $("pref-four").checked = !!ME.prefs.four_colour;
    $("pref-sort").value = ME.prefs.sort || "rank";
    const variant = $("play-variant").value || "international";
    fillSelect($("play-variant"), VARIANTS.map((v) => [v.name, variantName(v.name)]), variant);
    const level = $("play-level").value || "medium";
    fillSelect($("play-level"), BOTS.map((b) => [b, t("ui.level_" + b)]), level);
  }

  async function signIn(register) {
    const name = $("name").value.trim().replace(/\s+/g, " ");
    const password = $("password").value;
    if (register && password.length < 8) { say(t("acct.err_password_short"), true); return; }
    const r = await post(register ? "/api/accounts/register" : "/api/accounts/login", { name, password });
    if (!r.ok) { say(refusal(r), true); return; }
    ME = r.data.account;
    keepPrefs(ME.prefs);
    $("password").value = "";
    say("");
    if (ME.prefs.lang && ME.prefs.lang !== LANG) await setLang(ME.prefs.lang);
    renderProfile();
  }

  async function accountPage() {
    const [variants] = await Promise.all([fetch("/api/variants").then((r) => r.json()), me()]);
    VARIANTS = variants.variants;
    BOTS = variants.bots;
    $("signin").addEventListener("submit", (e) => { e.preventDefault(); signIn(false); });
    $("do-register").addEventListener("click", () => {
      if ($("signin").reportValidity()) signIn(true);
    });
    $("signout").addEventListener("click", async () => {
      await post("/api/accounts/logout");
      ME = null;
      localStorage.removeItem("canasta.prefs");
      renderProfile();
    });
    $("prefs").addEventListener("submit", async (e) => {
      e.preventDefault();
      const prefs = { lang: $("pref-lang").value || null, four_colour: $("pref-four").checked, sort: $("pref-sort").value };
      const r = await post("/api/accounts/prefs", prefs);
      if (!r.ok) { say(refusal(r), true); return; }
      ME = r.data.account;
      keepPrefs(ME.prefs);
      if (ME.prefs.lang && ME.prefs.lang !== LANG) await setLang(ME.prefs.lang);
      say(t("acct.saved"));
    });
    $("play").addEventListener("submit", async (e) => {
      e.preventDefault();
      const players = Number($("play-players").value);
      const level = $("play-level").value;
      // against a person: seat 1 is theirs (the next seat: an opponent whatever the
      // player count), every other seat a bot
      const person = $("play-with").value === "person";
      const seats = [{ type: "human" }];
      for (let i = 1; i < players; i++) seats.push(person && i === 1 ? { type: "human" } : { type: "bot", level });
      const r = await post("/api/accounts/tables", { variant: $("play-variant").value, players, seats, lang: LANG });
      if (!r.ok) { say(refusal(r), true); return; }
      const [mine, ...theirs] = r.data.seats.filter((s) => s.token);
      if (!theirs.length) { location.href = mine.path; return; }
      // the opponent's link is shown once: the server keeps only its hash
      $("invite-link").value = new URL(theirs[0].path, location.href).href;
      $("invite-go").href = mine.path;
      $("invite").classList.remove("hidden");
      $("invite-link").focus();
      $("invite-link").select();
    });
    $("password-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const r = await post("/api/accounts/password", { password: $("pw-current").value, new_password: $("pw-new").value });
      if (!r.ok) { say(r.data && r.data.code === "bad-login" ? t("acct.err_wrong_password") : refusal(r), true); return; }
      ME = r.data.account;
      $("pw-current").value = "";
      $("pw-new").value = "";
      say(t("acct.password_changed"));
    });
    $("delete").addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!confirm(t("acct.delete_confirm"))) return;
      const r = await post("/api/accounts/delete", { password: $("delete-password").value });
      if (!r.ok) { say(refusal(r), true); return; }
      ME = null;
      localStorage.removeItem("canasta.prefs");
      $("delete-password").value = "";
      say(t("acct.deleted"));
      renderProfile();
    });
    window.addEventListener("langchange", renderProfile);
    renderProfile();
  }

  // -- the leaderboard --------------------------------------------------------------------
  async function renderBoard(variant) {
    const res = await fetch(`/api/leaderboard/${encodeURIComponent(variant)}`);
    const box = $("board");
    box.replaceChildren();
    if (!res.ok) { box.appendChild(el("p", "help", t("acct.err_other", { message: res.status }))); return; }
    const data = await res.json();
    const rows = [
      ...data.players.map((p) => ({ ...p, bot: false })),
      ...data.bots.map((b) => ({ name: t("acct.bot_named", { level: t("ui.level_" + b.level) }), rating: b.rating, rd: b.rd, bot: true })),
    ].sort((a, b) => b.rating - a.rating);
    if (!data.players.length) box.appendChild(el("p", "help", t("acct.no_players")));
    const trs = rows.map((r) => {
      const tr = el("tr", r.bot ? "bot" : (ME && r.name === ME.name ? "me" : null));
      tr.appendChild(el("td", "num", r.bot ? "" : String(r.rank)));
      const name = el("td", "who", r.name);
      if (r.provisional) name.append(" ", el("span", "tag", t("acct.provisional")));
      if (r.bot) name.append(" ", el("span", "tag", t("acct.anchor")));
      tr.appendChild(name);
      tr.appendChild(el("td", "num rating", ratingText(r)));
      tr.appendChild(el("td", "num", r.bot ? "" : `${r.wins}\u2013${r.losses}\u2013${r.draws}`));
      return tr;
    });
    box.appendChild(table([[t("acct.rank"), "num"], [t("acct.player")], [t("acct.rating"), "num"], [t("acct.wld"), "num"]], trs, t("acct.leaderboard")));
  }

  async function leaderboardPage() {
    const [variants] = await Promise.all([fetch("/api/variants").then((r) => r.json()), me()]);
    const wanted = decodeURIComponent(location.pathname.split("/")[2] || "international");
    const select = $("board-variant");
    const fill = () => {
      const value = select.value || wanted;
      fillSelect(select, variants.variants.map((v) => [v.name, variantName(v.name)]), value);
    };
    fill();
    select.addEventListener("change", () => {
      history.replaceState(null, "", `/leaderboard/${encodeURIComponent(select.value)}`);
      renderBoard(select.value);
    });
    window.addEventListener("langchange", () => { fill(); renderBoard(select.value); });
    await renderBoard(select.value);
  }

  initI18n().then(async () => {
    await initLangSwitch();
    if ($("board")) await leaderboardPage(); else await accountPage();
    document.body.dataset.ready = "1";
  });
})();
