/* Dice Hall AI worker: a plain module worker (no PyScript) that computes AI moves for every game.
 *
 * Created by ai-client.js once the app's first screen is drawn (restoring beside the page, it
 * held a phone's page back). PyScript's own worker set-up cost about 400 ms before it even asked
 * for an interpreter (measured; issue 12), which is why this worker is plain. Its interpreter:
 * - on a visit with a boot snapshot, it gets what the page handed over (held by ai-client.js
 *   until then): the compiled wasm and the snapshot's length ({boot: {wasm, length}}), then the
 *   entry's packed bytes ({bytes}; null if the page did not get that far, and the worker boots
 *   by itself): nothing is read or compiled twice;
 * - otherwise ({boot: "self"}) it asks snap-loader.mjs like the page does: a restore from Cache
 *   Storage if it can, else a plain boot.
 * Its modules are imported dynamically, not statically: Chromium gives a dedicated worker V8's
 * code cache for the modules it imports with import(), but not for its static module graph
 * (measured here with a service worker, as in the app: calling Pyodide's 1.2 MB module factory
 * took 60-90 ms on every visit when imported statically; imported dynamically, 10-19 ms once it
 * had run on two earlier visits). Compiled from scratch, the worker created its module in about
 * 0.5 s, against 0.3 s on the page.
 * Then it writes app.zip (a snapshot has no files, and lazy imports need it; see useAppZip) and
 * runs worker.py, whose CALLS it serves.
 *
 * Messages in: {prefetch} (on a return visit), {boot} once (and {bytes} after {boot: {wasm,
 * length}}), then {id, fn, args}.
 * Out: {ready: true} or {failed: reason} once, then {id, value} or {id, error} per call.
 * Calls that arrive while it boots wait for it.
 */
const loader = import("./snap-loader.mjs");

let begin, handBytes;
const told = new Promise((resolve) => { begin = resolve; });
const handed = new Promise((resolve) => { handBytes = resolve; }); // the entry's packed bytes, or null

async function interpreter() {
  const { loadPyodide, restoreHandedOver } = await loader;
  const how = await told;
  if (how && how.wasm && how.length) {
    try {
      return await restoreHandedOver(how.wasm, how.length, handed);
    } catch (err) {
      console.warn("dicehall: AI worker could not restore what the page handed over", err);
    }
  }
  return loadPyodide();
}

async function fetched(name, read) {
  const response = await fetch(new URL(`../${name}`, import.meta.url));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return read(response);
}

async function boot() {
  // the app's files are fetched while the interpreter boots
  const files = Promise.all([fetched("app.zip", (r) => r.arrayBuffer()), fetched("worker.py", (r) => r.text())]);
  files.catch(() => {}); // reported below, once the interpreter is up
  const pyodide = await interpreter();
  const [zip, source] = await files;
  (await loader).useAppZip(pyodide, zip);
  const scope = pyodide.globals.get("dict")();
  pyodide.runPython(source, { globals: scope, filename: "worker.py" });
  const calls = {};
  for (const name of scope.get("CALLS")) calls[name] = scope.get(name);
  return calls;
}

const booted = boot();
booted.then(() => self.postMessage({ ready: true }),
            (err) => self.postMessage({ failed: String((err && err.message) || err) }));

self.onmessage = async (event) => {
  const { boot: how, id, fn, args } = event.data || {};
  if (how) return begin(how);
  if (event.data && event.data.prefetch) {
    // On a return visit, loaded and compiled while the worker waits for the page (snap-loader
    // imports it when it boots); an error here comes again there, and is reported.
    import("./pyodide.asm.mjs").catch(() => {});
    return;
  }
  if ("bytes" in (event.data || {})) return handBytes(event.data.bytes);
  try {
    const calls = await booted;
    if (!Object.hasOwn(calls, fn)) throw new Error(`no such call: ${fn}`);
    self.postMessage({ id, value: String(await calls[fn](...args)) });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
