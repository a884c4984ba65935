// The offline table's service worker: keeps the page, its scripts, the catalogues, the
// engine bundle and Pyodide in a cache named after their versions (filled in by the server),
// and answers from it first, so the page opens and plays with the network gone.
"use strict";
const CACHE = "canasta-offline-__VERSION__";
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k.startsWith("canasta-offline-") && k !== CACHE).map((k) => caches.delete(k)),
  )).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  // The status asks the server itself: offline, the page reads the failure as "offline".
  if (url.pathname === "/offline/status") return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(event.request, { ignoreSearch: true });
    if (kept) return kept;
    const fresh = await fetch(event.request);
    if (fresh.ok && FILES.includes(url.pathname)) cache.put(event.request, fresh.clone());
    return fresh;
  }));
});
