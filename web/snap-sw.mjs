/* Dice Hall: the boot snapshot of a first visit closed too soon, made by a service worker.
 *
 * The page's maker (snap-maker.mjs) dies with its tab: a first visit closed before it stored the
 * snapshot left the next visit to download what was missing, boot plainly and make it again.
 * snap-loader.mjs therefore registers this module service worker on every visit that finds no
 * snapshot, with a scope of its own (./snap/, where no page is: it never controls the app, so it
 * never starts on the app's requests) and app.zip's hash in its URL (a new build installs a new
 * one). Its install lasts until the snapshot is stored:
 * - while a page of the app is open, it waits (that page's maker stores it);
 * - once none is left, it waits for the app's files in the app's service-worker cache (sw.js
 *   downloads them in the background, even with no page open), then makes the snapshot from
 *   them (snap-make.mjs) and stores it; the next visit restores from it.
 * An install Chromium would stop (an event over five minutes) gives up before: the next visit
 * without a snapshot registers it again.
 */
import { KEY, scriptFactory } from "./snap-loader.mjs";
import { CACHE_NAME } from "./snap-pack.mjs";
import { makeSnapshot } from "./snap-make.mjs";

const STEP_MS = 1000;
const FILES_WAIT_MS = 120 * 1000; // then from the network (its HTTP cache) instead
const GIVE_UP_MS = 4 * 60 * 1000;

// The app's files from its service worker's cache (sw.js: "dicehall-<version>", the newest
// first; its copies of the packed files are whole), else the network.
const APP_CACHE_PREFIX = "dicehall-";
const NEEDED = ["./pyodide.asm.wasm", "./pyodide.asm.js", "./python_stdlib.zip", "../app.zip"]
  .map((name) => new URL(name, import.meta.url).href);

async function fromAppCache(url) {
  const names = (await caches.keys()).filter((name) => name.startsWith(APP_CACHE_PREFIX)).reverse();
  for (const name of names) {
    const hit = await (await caches.open(name)).match(url);
    if (hit) return hit;
  }
  return null;
}

const networkFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), import.meta.url).href;
  return (await fromAppCache(url)) || networkFetch(input, init);
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function stored() {
  return Boolean(await (await caches.open(CACHE_NAME)).match(KEY));
}

async function pagesOpen() {
  return (await self.clients.matchAll({ type: "window", includeUncontrolled: true })).length > 0;
}

async function filesCached() {
  for (const url of NEEDED) if (!(await fromAppCache(url))) return false;
  return true;
}

async function makeUnlessStored() {
  const started = Date.now();
  for (;;) {
    if (await stored()) return;
    const waited = Date.now() - started;
    if (waited > GIVE_UP_MS) throw new Error("boot snapshot: not stored, and a page stayed open");
    if (!(await pagesOpen()) && (waited > FILES_WAIT_MS || (await filesCached()))) break;
    await sleep(STEP_MS);
  }
  // (a service worker may not import() Pyodide's module: its classic script, as a function's body)
  await makeSnapshot(KEY, { factory: scriptFactory });
  console.info("dicehall: boot snapshot made by the service worker");
}

self.addEventListener("install", (event) => {
  self.skipWaiting(); // nothing to hand over: it controls no page
  event.waitUntil(makeUnlessStored().catch((err) => {
    console.warn("dicehall: the service worker made no boot snapshot", err);
    throw err;
  }));
});
