/* Dice Hall service worker: precache-first, offline PWA.
 *
 * build.py injects VERSION (content hash of dist/), PRECACHE (every file the app needs to
 * start: an install fails if one is missing) and OPTIONAL (games' lazily loaded data: cached
 * when it can be, never blocking the install, so a missing data file cannot cost the app its
 * offline mode). A new build therefore produces a byte-different sw.js, which the browser
 * installs next to the running one; it then WAITS until the page asks it to take over
 * ({type: "SKIP_WAITING"}, sent by sw-register.js when the user accepts the update).
 */
"use strict";

const VERSION = "__DICEHALL_VERSION__";
const PRECACHE = ["__DICEHALL_PRECACHE__"];
const OPTIONAL = ["__DICEHALL_OPTIONAL__"];
const PREFIX = "dicehall-";
const CACHE = PREFIX + VERSION;
const INDEX = new URL("./index.html", self.registration.scope).href;

self.addEventListener("install", (event) => {
  // "no-cache": revalidate with the server (ETag -> 304 when unchanged) so a max-age'd
  // HTTP-cache copy of the previous release never lands in the new cache.
  const request = (url) => new Request(url, { cache: "no-cache" });
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(PRECACHE.map(request)).then(() =>
        Promise.allSettled(OPTIONAL.map((url) => cache.add(request(url))))
      )
    )
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") {
    self.skipWaiting();
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith(PREFIX) && key !== CACHE)
            .map((key) => caches.delete(key))
        )
      )
      .then(() => self.clients.claim())
  );
});

// Opened once per worker, not per request: every file of a warm boot comes through here.
let opened = null;
function cache() {
  if (!opened) opened = caches.open(CACHE).catch((err) => { opened = null; throw err; });
  return opened;
}

async function respond(request) {
  const precache = await cache();
  // An exact match first: Chromium answers a match with ignoreSearch by opening every entry
  // of the cache (80 here), an exact one by its key; only a URL with a query needs the former.
  let hit = await precache.match(request);
  if (!hit && new URL(request.url).search) hit = await precache.match(request, { ignoreSearch: true });
  if (!hit && request.mode === "navigate" && new URL(request.url).pathname.endsWith("/")) {
    hit = await precache.match(INDEX);
  }
  if (hit) return hit;
  try {
    return await fetch(request);
  } catch (err) {
    if (request.mode === "navigate") {
      const index = await precache.match(INDEX);
      if (index) return index;
    }
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(respond(request));
});
