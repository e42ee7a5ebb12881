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
// Files shipped gzip'd as <url>.gz (build.py PACKED_FILES; <url> itself is a stub): stored here
// unpacked under <url>, with UNPACKED_HEADER, so that pages read them whole and V8 keeps its
// code cache for them. Never fetched from the network under <url>.
const PACKED = {"__DICEHALL_PACKED__": ""};
const UNPACKED_HEADER = "X-Dicehall-Unpacked";
const PREFIX = "dicehall-";
const CACHE = PREFIX + VERSION;
const INDEX = new URL("./index.html", self.registration.scope).href;

// Installing fills the new, empty cache: what mending does for a cache missing files (below).
self.addEventListener("install", (event) => {
  if (event.addRoutes) {
    event.waitUntil(event.addRoutes(staticRoutes()).catch((err) => console.warn("dicehall: no static routes", err)));
  }
  event.waitUntil(untilFirstBootIsOver().then(mend));
});

// The app's files are answered from this worker's cache by the browser itself (the Static
// Routing API, Chromium 123+), without this worker being started or running any of its code:
// on a return visit the page's files had waited for its start (~0.1-0.25 s each, traced on an
// emulated phone) and a file not in the cache is fetched from the network, as respond() does.
// Navigations (answered with index.html, then the cache mended), the packed files (unpacked on
// a miss) and addresses with a query (matched ignoring it) still come to the fetch handler.
function staticRoutes() {
  const scope = self.registration.scope;
  const path = (url) => new URL(url, scope).pathname;
  const handler = [{ requestMode: "navigate" }]
    .concat(Object.keys(PACKED).map((url) => ({ urlPattern: new URLPattern({ pathname: path(url), search: "*", hash: "*", baseURL: scope }) })));
  return [
    { condition: { or: handler }, source: "fetch-event" },
    {
      condition: { urlPattern: new URLPattern({ pathname: path("./") + "*", search: "", hash: "*", baseURL: scope }), requestMethod: "GET" },
      source: { cacheName: CACHE },
    },
  ];
}

// A first visit registers this worker as it opens (sw-register.js), so that a tab closed before
// the app had booted still leaves the app's files downloading here, and its boot snapshot made
// from them (pyodide/snap-sw.mjs). The first install's downloads wait until that page has
// booted ({type: "BOOTED"}) or is gone, so as not to slow its boot on a phone's network; no
// longer than FIRST_INSTALL_WAIT_MS. An update (a worker active already) never waits.
const FIRST_INSTALL_WAIT_MS = 60 * 1000;
let pageBooted;
const booted = new Promise((resolve) => { pageBooted = resolve; });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilFirstBootIsOver() {
  if (self.registration.active) return;
  const until = Date.now() + FIRST_INSTALL_WAIT_MS;
  while (Date.now() < until) {
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    if (!pages.length) return;
    if (await Promise.race([booted.then(() => true), sleep(500).then(() => false)])) return;
  }
}

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") {
    self.skipWaiting();
  } else if (event.data && event.data.type === "BOOTED") {
    pageBooted();
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

const absolute = (url) => new URL(url, self.registration.scope).href;

// <url>'s unpacked copy into the cache, from <url>.gz (the cache's, or the network's); the .gz
// goes once unpacked. Resolves to the stored response.
async function unpack(precache, url) {
  const packedUrl = absolute(url + ".gz");
  const packed = (await precache.match(packedUrl)) || (await fetch(new Request(packedUrl, { cache: "no-cache" })));
  if (!packed.ok) throw new Error(`${url}.gz: HTTP ${packed.status}`);
  const body = packed.body.pipeThrough(new DecompressionStream("gzip"));
  await precache.put(absolute(url), new Response(body, {
    headers: { "Content-Type": PACKED[url], [UNPACKED_HEADER]: "1" },
  }));
  await precache.delete(packedUrl);
  return precache.match(absolute(url));
}

const PACKED_URLS = new Map(Object.keys(PACKED).map((url) => [absolute(url), url]));

async function respond(request) {
  const precache = await cache();
  const packed = PACKED_URLS.get(request.url);
  if (packed) return (await precache.match(request.url)) || unpack(precache, packed);
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

// The precache mends itself: on each visit (a navigation), after the page has its answer, every
// precached file missing from the cache (site data partly cleared, storage evicted, the whole
// cache deleted under a running worker) is fetched again, so the next offline visit still
// works. Only what is missing is fetched; nothing when the cache is whole. A missing PRECACHE
// file fails it (and so an install); OPTIONAL ones never do. The packed files' .gz are fetched
// and stored unpacked under their own names.
let mending = null;
async function mend() {
  const precache = await caches.open(CACHE); // by name: a deleted cache is made again
  const have = new Set((await precache.keys()).map((request) => request.url));
  const missing = [];
  for (const url of PRECACHE) {
    const unpacked = url.endsWith(".gz") ? url.slice(0, -3) : null;
    if (unpacked && unpacked in PACKED) {
      if (!have.has(absolute(unpacked))) await unpack(precache, unpacked);
    } else if (!have.has(absolute(url))) {
      missing.push(url);
    }
  }
  // "no-cache": revalidate with the server (ETag -> 304 when unchanged) so a max-age'd
  // HTTP-cache copy of the previous release never lands in the new cache.
  const request = (url) => new Request(url, { cache: "no-cache" });
  if (missing.length) await precache.addAll(missing.map(request));
  await Promise.allSettled(OPTIONAL.filter((url) => !have.has(absolute(url))).map((url) => precache.add(request(url))));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") opened = null; // the cache by name again (it may be gone)
  const answer = respond(request);
  event.respondWith(answer);
  if (request.mode === "navigate" && !mending) {
    mending = answer.catch(() => null).then(mend).catch(() => null).then(() => { mending = null; });
    event.waitUntil(mending);
  }
});
