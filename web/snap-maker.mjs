/* Dice Hall boot snapshot maker: a module worker started by snap-loader.mjs on a visit with no
 * snapshot (the first), so that the page's thread never boots Python plainly.
 *
 * It compiles the wasm (posts {wasm: module}: the page restores with it), boots an interpreter
 * able to make a snapshot, writes app.zip, imports every module that does not use the page,
 * posts the interpreter's memory ({bytes}, moved: the page restores from it at once), then
 * stores it in Cache Storage under the key it was given as its worker name (Pyodide version +
 * app.zip hash; other keys are deleted) and posts "stored" — or, at any step, the reason it
 * could not. See snap-loader.mjs and shared/notes/boot-snapshot.md.
 */
import { loadPyodide } from "./pyodide.mjs";
import { CACHE_NAME, DIGEST_HEADER, LENGTH_HEADER, compileWasm, digestOf, countedResponse, moduleOptions, packSnapshot, progress, useAppZip } from "./snap-loader.mjs";

const KEY = self.name;

// Python run in the maker: import what can be imported without a browser, so a restored
// interpreter starts with it in memory. The build lists those modules (build.py
// pre_import_modules: the app's modules whose source imports none of the page's modules); one
// that fails to import here (it imports one left out) is dropped.
const PRE_IMPORTED = ["__DICEHALL_PRE_IMPORT__"];
const PRE_IMPORT = `
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
_dicehall_pre_import(${JSON.stringify(PRE_IMPORTED)})
del _dicehall_pre_import
`;

// The standard library (2.5 MB, fetched by Pyodide) is counted as it arrives, like the wasm:
// together they are most of a first visit's wait on a phone's network.
const baseFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const response = await baseFetch(input, init);
  return String(input && input.url || input).endsWith("/python_stdlib.zip") ? countedResponse("python_stdlib.zip", response) : response;
};

async function make() {
  const zip = fetch(new URL("../app.zip", import.meta.url));
  zip.catch(() => {});
  // The wasm is compiled here and handed to the page, which restores with it (no second compile).
  const wasm = compileWasm();
  wasm.then((module) => { self.postMessage({ wasm: module }); progress({ step: "wasm" }); }, () => {});
  const maker = await loadPyodide(moduleOptions({ _makeSnapshot: true, stdout: () => {}, stderr: () => {} }, { wasm }));
  progress({ step: "booted" });
  const response = await zip;
  if (!response.ok) throw new Error(`app.zip: HTTP ${response.status}`);
  useAppZip(maker, await response.arrayBuffer());
  maker.runPython(PRE_IMPORT);
  progress({ step: "imported" });
  const bytes = maker.makeMemorySnapshot();
  progress({ step: "made" });
  const packed = packSnapshot(bytes);
  self.postMessage({ bytes }, [bytes.buffer]); // the page restores from them now
  const cache = await caches.open(CACHE_NAME);
  for (const request of await cache.keys()) {
    if (request.url !== KEY) await cache.delete(request);
  }
  await cache.put(KEY, new Response(packed, {
    headers: { "Content-Type": "application/octet-stream", [LENGTH_HEADER]: String(packed.length && new DataView(packed.buffer).getUint32(4, true)),
               [DIGEST_HEADER]: await digestOf(packed) },
  }));
}

make().then(() => self.postMessage("stored"), (err) => self.postMessage(String(err && err.message || err)));
