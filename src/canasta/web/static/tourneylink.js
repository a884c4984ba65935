// At a duplicate tournament's table: a link back to the tournament in the top bar, and no
// rematch (the tournament's next round is on its page). Kept out of table.js.
"use strict";

(async () => {
  const id = (location.pathname.match(/^\/t\/([^/]+)/) || [])[1];
  if (!id) return;
  let state;
  try {
    const res = await fetch("/api/tables/" + encodeURIComponent(id));
    if (!res.ok) return;
    state = await res.json();
  } catch (e) { return; }
  const tid = state.settings && state.settings.tournament;
  if (!tid) return;
  document.body.classList.add("in-tournament");
  const link = document.createElement("a");
  link.className = "pad-link";
  link.id = "tourney-link";
  link.href = "/tournaments/" + encodeURIComponent(tid);
  link.dataset.i18n = "tourney.back";
  link.textContent = t("tourney.back");
  const bar = document.querySelector(".topbar");
  bar.insertBefore(link, bar.querySelector(".conn"));
  window.addEventListener("langchange", () => { link.textContent = t("tourney.back"); });
})();
