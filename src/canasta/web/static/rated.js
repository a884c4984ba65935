// The table page's side of accounts (loaded before table.js): the signed-in person's
// preferences (four colours, order of the hand, language: kept in localStorage by
// accounts.js, applied before the table first renders), the seat claimed for the account
// (the match joins its history, and counts at a rated table), and at a rated table a bar
// with the match's standing (asked again when the match ends) and the Abandon button (a
// loss).
"use strict";

(() => {
  const prefs = JSON.parse(localStorage.getItem("canasta.prefs") || "{}");
  const apply = (p) => {
    document.body.classList.toggle("four-colour", !!p.four_colour);
    document.body.dataset.sort = p.sort === "suit" ? "suit" : "rank";
  };
  apply(prefs);
  if (prefs.lang) localStorage.setItem("canasta.lang", prefs.lang);

  const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  let CSRF = "";
  let account = null;
  let info = null;

  async function post(path, body) {
    const res = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
      body: JSON.stringify(body || {}),
    });
    return { ok: res.ok, data: await res.json().catch(() => ({})) };
  }

  function bar() {
    let box = document.getElementById("rated-bar");
    if (!box) {
      box = document.createElement("div");
      box.id = "rated-bar";
      box.className = "rated-bar";
      box.setAttribute("role", "status");
      const top = document.querySelector(".topbar");
      top.parentNode.insertBefore(box, top.nextSibling);
    }
    return box;
  }

  function render() {
    if (!info || !info.rated || typeof t !== "function") return;
    const box = bar();
    box.replaceChildren();
    const mine = account && info.seats.some((s) => s.account === account.name);
    const text = document.createElement("span");
    text.className = "rated-text";
    if (info.status === "playing" && token && !mine) text.textContent = t("acct.need_account");
    else text.textContent = t("acct.rated_" + info.status);
    box.dataset.status = info.status;
    box.appendChild(text);
    if (info.status === "playing" && mine && token) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = "abandon";
      b.className = "btn small secondary";
      b.textContent = t("acct.abandon");
      b.addEventListener("click", async () => {
        if (!confirm(t("acct.abandon_confirm"))) return;
        const r = await post(`/api/accounts/tables/${encodeURIComponent(tableId)}/abandon`, { token });
        if (r.ok) { info = r.data; render(); }
      });
      box.appendChild(b);
    }
    const link = document.createElement("a");
    link.className = "pad-link";
    link.href = "/leaderboard/" + encodeURIComponent(info.variant);
    link.textContent = t("acct.leaderboard");
    box.appendChild(link);
  }

  async function refresh() {
    const res = await fetch(`/api/accounts/tables/${encodeURIComponent(tableId)}`);
    if (!res.ok) return;
    info = await res.json();
    render();
    if (info.rated && info.status === "playing") setTimeout(refresh, 15000);
  }

  async function start() {
    try {
      const me = await (await fetch("/api/accounts/me", { credentials: "same-origin" })).json();
      CSRF = me.csrf;
      account = me.account;
      if (account) {
        localStorage.setItem("canasta.prefs", JSON.stringify(account.prefs || {}));
        apply(account.prefs || {});
        if (token) await post(`/api/accounts/tables/${encodeURIComponent(tableId)}/claim`, { token });
      }
      await refresh();
    } catch (e) { /* the table plays on without accounts */ }
  }

  // the match just ended (table.js marks the body): its standing now, not at the next poll
  new MutationObserver(() => {
    if (document.body.dataset.match === "over" && info && info.rated && info.status === "playing") refresh();
  }).observe(document.body, { attributes: true, attributeFilter: ["data-match"] });

  window.addEventListener("langchange", render);
  if (tableId) start();
})();
