/* Dice Hall boot snapshot: its making, shared by the page's maker (snap-maker.mjs, a module
 * worker on a first visit) and the service worker that makes it when no page is left to
 * (snap-sw.mjs).
 *
 * makeSnapshot(key) compiles the wasm (hooks.onWasm gets the module), boots an interpreter able
 * to make a snapshot, writes app.zip (refused unless it is the build's: its hash is in the
 * loader), imports every module that does not use the page, makes the snapshot
 * (hooks.onBytes gets its bytes, which it may move), then stores it in Cache Storage under
 * `key` (Pyodide version + app.zip hash; other keys are deleted). See snap-loader.mjs and
 * shared/notes/boot-snapshot.md.
 */
import { loadPyodide } from "./pyodide.mjs";
import { APP_HASH, CACHE_NAME, DIGEST_HEADER, LENGTH_HEADER, compileWasm, digestOf, moduleOptions, packSnapshot, progress, useAppZip } from "./snap-loader.mjs";

// Python run in the maker: import what can be imported without a browser, so a restored
// interpreter starts with it in memory. The build lists those modules (build.py
// pre_import_modules: the app's modules whose source imports none of the page's modules); one
// that fails to import here (it imports one left out) is dropped.
const PRE_IMPORTED = ["__DICEHALL_PRE_IMPORT__"];
export const PRE_IMPORT = `
import importlib, sys
def _dicehall_pre_import(names):
    # Standard modules PyScript's own package imports on every boot (pyscript.display: html,
    # which loads a table of 2,000 entity names, and base64; pyscript.util: inspect, ~0.15 s of
    # the page's thread at CPU x4 on a return visit, timed); the rest is imported already.
    import base64, html, inspect, zlib
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            sys.modules.pop(name, None)
    # The games discovered and each one's fixed tables made (pygame_core.registry.warm).
    try:
        importlib.import_module("pygame_core.registry").warm()
    except Exception:
        pass
    # Every object alive now is kept out of the cyclic collector's passes: a restored
    # interpreter's collections then walk only what the page made after the restore.
    import gc
    gc.collect()
    gc.freeze()
_dicehall_pre_import(${JSON.stringify(PRE_IMPORTED)})
del _dicehall_pre_import
`;

const INDEX_URL = new URL("./", import.meta.url).href;

export async function makeSnapshot(key, { onWasm = () => {}, onBytes = () => {}, factory } = {}) {
  const zip = fetch(new URL("../app.zip", import.meta.url));
  zip.catch(() => {});
  const wasm = compileWasm();
  wasm.then((module) => { onWasm(module); progress({ step: "wasm" }); }, () => {});
  const maker = await loadPyodide(moduleOptions(
    { indexURL: INDEX_URL, _makeSnapshot: true, stdout: () => {}, stderr: () => {} }, { wasm, factory }));
  progress({ step: "booted" });
  const response = await zip;
  if (!response.ok) throw new Error(`app.zip: HTTP ${response.status}`);
  const archive = await response.arrayBuffer();
  // A snapshot is stored under the hash of the app.zip it was made with: an archive of another
  // build (a cache or a server between two releases) would pair old modules with a new app.
  if ((await digestOf(archive)).slice(0, APP_HASH.length) !== APP_HASH) throw new Error("app.zip is not this build's");
  useAppZip(maker, archive);
  maker.runPython(PRE_IMPORT);
  progress({ step: "imported" });
  const bytes = maker.makeMemorySnapshot();
  progress({ step: "made" });
  const packed = packSnapshot(bytes);
  onBytes(bytes);
  const cache = await caches.open(CACHE_NAME);
  for (const request of await cache.keys()) {
    if (request.url !== key) await cache.delete(request);
  }
  await cache.put(key, new Response(packed, {
    headers: { "Content-Type": "application/octet-stream", [LENGTH_HEADER]: String(packed.length && new DataView(packed.buffer).getUint32(4, true)),
               [DIGEST_HEADER]: await digestOf(packed) },
  }));
}
