/* Dice Hall boot snapshot: PyScript's interpreter module (pyscript.json "interpreter").
 *
 * PyScript imports this module and calls its `loadPyodide(options)` and `version`, exactly as it
 * would Pyodide's own pyodide.mjs, which sits next to it (build.py copies it to dist/pyodide/).
 * Measured facts behind every step: shared/notes/boot-snapshot.md.
 *
 * - Hit (every visit after the first): restore the interpreter from a memory snapshot kept in
 *   Cache Storage (~0.25x of a plain boot), then reseed `random` (it would repeat after every
 *   restore). PyScript then writes the app's files again (they are not in the snapshot) and runs
 *   main.py. The AI worker (same pyscript.json) restores the same snapshot.
 * - Miss: a plain boot. Once the app and its AI worker are up, a module worker (snap-maker.mjs)
 *   boots a throwaway interpreter, unpacks app.zip, imports every DOM-free module (engines, AI,
 *   views' helpers) and stores its memory as the snapshot. A snapshot made in a worker restores
 *   on the main thread and in the AI worker alike (measured), and the first visit is not slowed.
 * - Any failure (no Cache Storage, a truncated or corrupt entry, another Pyodide build, a
 *   rejected restore) deletes the entry and boots plainly: a player never sees it.
 *
 * The cache key holds the Pyodide version and the hash of app.zip (build.py fills it in), so
 * an updated app never runs old pre-imported modules; other keys are deleted when storing.
 * <html data-boot> tells tests and benchmarks which path ran: "snapshot" or "plain";
 * data-boot-stored="1" once a fresh snapshot is in the cache.
 * Private Pyodide options used (pinned Pyodide; both paths run in CI): _loadSnapshot,
 * _makeSnapshot (snap-maker.mjs), makeMemorySnapshot, createPyodideModule.
 */
import { loadPyodide as loadPlain, version } from "./pyodide.mjs";
import createPyodideModule from "./pyodide.asm.mjs";

export { version };

const APP_HASH = "__DICEHALL_APP_HASH__";
const CACHE_NAME = "dh-boot-snapshot"; // not "dicehall-…": the service worker deletes those on update
const KEY = new URL(`./boot-snapshot/${version}/${APP_HASH}.bin`, import.meta.url).href;
const ON_MAIN_THREAD = typeof document !== "undefined";

function mark(name, value) {
  if (ON_MAIN_THREAD) document.documentElement.setAttribute(name, value);
  else if (name === "data-boot") console.info(`dicehall boot (worker): ${value}`); // no <html> there
}

function restoreOptions(options, bytes) {
  return {
    ...options,
    _loadSnapshot: bytes,
    // Pyodide issue #6254: a snapshot of a heap that grew past the initial size does not fit
    // the fresh module's memory; grow it first.
    createPyodideModule: (settings) => {
      settings.preRun = settings.preRun || [];
      settings.preRun.unshift((module) => module.growMemory(bytes.byteLength));
      return createPyodideModule(settings);
    },
  };
}

async function restore(options, bytes) {
  const pyodide = await loadPlain(restoreOptions(options, bytes));
  pyodide.runPython("import random as _r\n_r.seed()\ndel _r"); // fresh dice and AI seeds per visit
  return pyodide;
}

function makeLater() {
  // After the app is up (and its AI worker had its turn at the CPU), a separate worker makes
  // the snapshot and stores it: the first visit itself boots exactly as a plain one.
  const root = document.documentElement;
  const start = () => {
    const maker = new Worker(new URL("./snap-maker.mjs", import.meta.url),
                             { type: "module", name: KEY }); // the key goes by name (see the notes: ignoreSearch)
    maker.onmessage = (event) => {
      if (event.data === "stored") mark("data-boot-stored", "1");
      else console.warn("dicehall: boot snapshot not made", event.data);
      maker.terminate();
    };
    maker.onerror = (event) => { console.warn("dicehall: boot snapshot maker failed", event.message); maker.terminate(); };
  };
  const ready = () => root.getAttribute("data-app-state") === "ready" && root.hasAttribute("data-ai-worker");
  if (ready()) { setTimeout(start, 500); return; }
  const watch = new MutationObserver(() => {
    if (ready()) { watch.disconnect(); setTimeout(start, 500); }
  });
  watch.observe(root, { attributes: true, attributeFilter: ["data-app-state", "data-ai-worker"] });
}

export async function loadPyodide(options = {}) {
  if (ON_MAIN_THREAD) performance.mark("dh:loader"); // boot timeline for bench/boot.py
  let cache = null;
  try {
    cache = await caches.open(CACHE_NAME);
  } catch (err) {
    cache = null; // Cache Storage denied (private mode, policy): plain boots only
  }
  if (cache) {
    let hit = null;
    try {
      hit = await cache.match(KEY);
      if (hit) {
        const pyodide = await restore(options, new Uint8Array(await hit.arrayBuffer()));
        if (ON_MAIN_THREAD) performance.mark("dh:restored");
        mark("data-boot", "snapshot");
        return pyodide;
      }
    } catch (err) {
      console.warn("dicehall: boot snapshot refused, booting plainly", err);
      try { await cache.delete(KEY); } catch (e) { /* nothing more to clean */ }
      cache = null; // no second try in this visit: the next one makes a fresh snapshot
    }
  }
  // A page may opt out before boot (window.diceHallMakeSnapshot = false): tests that do not
  // need it, a benchmark of plain boots.
  if (cache && ON_MAIN_THREAD && globalThis.diceHallMakeSnapshot !== false) makeLater();
  mark("data-boot", "plain");
  return loadPlain(options);
}
