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
 * - Miss (main thread only): a throwaway interpreter unpacks app.zip and imports every DOM-free
 *   module (engines, AI, views' helpers); its memory is the snapshot. PyScript gets a second
 *   interpreter restored from those bytes (never the maker, whose `js` globals are broken), and
 *   the bytes are stored in the background.
 * - Any failure (no Cache Storage, a truncated or corrupt entry, another Pyodide build, a
 *   rejected restore) deletes the entry and boots plainly: a player never sees it.
 *
 * The cache key holds the Pyodide version and the hash of app.zip (build.py fills it in), so
 * an updated app never runs old pre-imported modules; other keys are deleted when storing.
 * <html data-boot> tells tests and benchmarks which path ran: "snapshot", "made" or "plain";
 * data-boot-stored="1" once a fresh snapshot is in the cache.
 * Private Pyodide options used (pinned Pyodide; both paths run in CI): _loadSnapshot,
 * _makeSnapshot, makeMemorySnapshot, createPyodideModule.
 */
import { loadPyodide as loadPlain, version } from "./pyodide.mjs";
import createPyodideModule from "./pyodide.asm.mjs";

export { version };

const APP_HASH = "__DICEHALL_APP_HASH__";
const CACHE_NAME = "dh-boot-snapshot"; // not "dicehall-…": the service worker deletes those on update
const KEY = new URL(`./boot-snapshot/${version}/${APP_HASH}.bin`, import.meta.url).href;
const ON_MAIN_THREAD = typeof document !== "undefined";

// Python run in the maker: import what can be imported without a browser, so a restored
// interpreter starts with it in memory. Modules that use the page (pyscript, js) are skipped by
// their source, before import; anything that fails to import is dropped.
const PRE_IMPORT = `
import importlib, importlib.util, pkgutil, sys
def _dicehall_pre_import():
    def browser_free(name):
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return False
        text = open(spec.origin, encoding="utf-8").read()
        return not any(word in text for word in ("pyscript", "import js", "from js ", "pyodide."))
    done = []
    for top in ("pygame_core", "dicehall"):
        if not browser_free(top):
            continue
        package = importlib.import_module(top)
        names = [top] + [m.name for m in pkgutil.walk_packages(package.__path__, top + ".", onerror=lambda n: None)]
        for name in names:
            try:
                if browser_free(name):
                    importlib.import_module(name)
                    done.append(name)
            except Exception:
                sys.modules.pop(name, None)
    return len(done)
_dicehall_pre_import()
del _dicehall_pre_import
`;

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

async function makeSnapshot(options) {
  const maker = await loadPlain({ ...options, _makeSnapshot: true });
  const response = await fetch(new URL("../app.zip", import.meta.url));
  if (!response.ok) throw new Error(`app.zip: HTTP ${response.status}`);
  maker.unpackArchive(await response.arrayBuffer(), "zip");
  maker.runPython(PRE_IMPORT);
  return maker.makeMemorySnapshot();
}

async function store(cache, bytes) {
  try {
    for (const request of await cache.keys()) {
      if (request.url !== KEY) await cache.delete(request);
    }
    await cache.put(KEY, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    mark("data-boot-stored", "1");
  } catch (err) {
    // Quota or storage denied: next visit boots plainly and tries again.
    console.warn("dicehall: boot snapshot not stored", err);
  }
}

export async function loadPyodide(options = {}) {
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
        mark("data-boot", "snapshot");
        return pyodide;
      }
    } catch (err) {
      console.warn("dicehall: boot snapshot refused, booting plainly", err);
      try { await cache.delete(KEY); } catch (e) { /* nothing more to clean */ }
      cache = null; // no second try in this visit: the next one makes a fresh snapshot
    }
  }
  if (cache && ON_MAIN_THREAD) {
    try {
      const bytes = await makeSnapshot(options);
      const pyodide = await restore(options, bytes);
      mark("data-boot", "made");
      store(cache, bytes); // in the background: the game does not wait for the disk
      return pyodide;
    } catch (err) {
      console.warn("dicehall: no boot snapshot this time", err);
    }
  }
  mark("data-boot", "plain");
  return loadPlain(options);
}
