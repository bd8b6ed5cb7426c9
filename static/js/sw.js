/* Stichbuch's service worker: the pages and static files keep opening without a network.
   Static files and the scripts' sentences (the JS catalogue, /jsi18n/<language>/,
   one per language): from the cache, refreshed in the background. Pages: from the network,
   the cached copy when there is none. The API, the live streams and pages answered
   no-store are never cached; logging out clears the caches (Clear-Site-Data). */
"use strict";
var CACHE = "stichbuch-v8"; // a new name when the cached files change shape
var STATIC = ["/static/js/record.js", "/static/js/outbox.js", "/static/js/offline.js", "/static/js/offtally.js", "/static/js/sender.js", "/static/js/live.js",
  "/static/js/htmx.min.js", "/static/css/base.css", "/static/css/cards.css", "/static/css/live.css", "/static/css/tally.css",
  "/jsi18n/de/", "/jsi18n/en/"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(STATIC); }).catch(function () {}));
  self.skipWaiting();
});
self.addEventListener("activate", function (event) {
  // The previous version's files go: a phone never mixes the old grid with new pages.
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});
self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") === 0 || url.pathname.indexOf("/live/") >= 0) return;
  if (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/jsi18n/") === 0) {
    event.respondWith(caches.open(CACHE).then(function (c) {
      return c.match(request).then(function (hit) {
        var fresh = fetch(request).then(function (r) { if (r.ok) c.put(request, r.clone()); return r; });
        return hit || fresh;
      });
    }));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then(function (r) {
      var copy = r.clone();
      // A page that shows a secret (an invitation or live link, one's devices) says
      // no-store: no copy of it stays on the phone for whoever opens it next.
      if (r.ok && !/no-store/.test(r.headers.get("Cache-Control") || "")) {
        caches.open(CACHE).then(function (c) { c.put(request, copy); });
      }
      return r;
    }).catch(function () {
      return caches.match(request).then(function (hit) { return hit || Response.error(); });
    }));
  }
});
