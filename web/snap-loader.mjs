/* Dice Hall boot snapshot: PyScript's interpreter module (pyscript.json "interpreter").
 *
 * PyScript imports this module and calls its `loadPyodide(options)` and `version`, exactly as it
 * would Pyodide's own pyodide.mjs, which sits next to it (build.py copies it to dist/pyodide/).
 * Measured facts behind every step: shared/notes/boot-snapshot.md.
 *
 * - Hit (every visit after the first): restore the interpreter from a memory snapshot kept in
 *   Cache Storage, then reseed `random` (it would repeat after every restore). The restore
 *   starts before PyScript asks for it (prestart(), called by index.html), the app's archive is
 *   written into it again (files are not in a snapshot), and PyScript runs main.py. The AI worker
 *   (ai-worker.mjs) restores from the compiled wasm and the bytes this thread hands over.
 * - Miss (a first visit): the page's thread never boots Python plainly (that held it for 8–9 s
 *   at a time on an emulated phone). A module worker (snap-maker.mjs) compiles the wasm and
 *   hands it over, boots an interpreter, writes app.zip, imports every DOM-free module (engines,
 *   AI, the shell) and hands over its memory as a snapshot, which the page restores from (one
 *   task of about 0.7 s there); the worker then stores the snapshot, so a first visit closed
 *   early still leaves it for the next. A snapshot made in a worker restores on the main
 *   thread and in the AI worker alike (measured). <html data-boot> = "made".
 * - Any failure (no Cache Storage, a truncated or corrupt entry, another Pyodide build, a
 *   rejected restore) deletes the entry and boots plainly: a player never sees it.
 * - The entry is stored without the snapshot's zero blocks (packSnapshot: 19.3 MB for a 31.5 MB
 *   heap), which makes it quicker to read and lighter on the phone's storage.
 *
 * The cache key holds the Pyodide version and the hash of app.zip (build.py fills it in), so
 * an updated app never runs old pre-imported modules; other keys are deleted when storing.
 * <html data-boot> tells tests and benchmarks which path ran: "snapshot", "made" or "plain";
 * data-boot-stored="1" once a fresh snapshot is in the cache.
 * Private Pyodide options used (pinned Pyodide; both paths run in CI): _loadSnapshot,
 * _makeSnapshot (snap-maker.mjs), makeMemorySnapshot, createPyodideModule.
 */
import { loadPyodide as loadPlain, version } from "./pyodide.mjs";
import { CACHE_NAME, DIGEST_HEADER, LENGTH_HEADER, digestOf, packSnapshot, unpackSnapshot } from "./snap-pack.mjs";
// pyodide.asm.mjs (1.2 MB of JavaScript) is imported only when a restore needs it, so that this
// module, and with it prestart()'s read of the snapshot, runs before that file is parsed.

export { version };
export { CACHE_NAME, DIGEST_HEADER, LENGTH_HEADER, digestOf, packSnapshot }; // (snap-make.mjs's)

const APP_HASH = "__DICEHALL_APP_HASH__";
// Resolves if `packed` is what was stored, rejects otherwise (an entry without a digest too).
async function checked(packed, expected) {
  if (!expected || (await digestOf(packed)) !== expected) throw new Error("boot snapshot: digest mismatch");
}
// ("-nojspi": made by an interpreter created without JSPI, see withoutJspi; one made with it,
// stored by an earlier version of this file, is never restored into one without.)
export const KEY = new URL(`./boot-snapshot/${version}/${APP_HASH}-nojspi.bin`, import.meta.url).href;
export { APP_HASH };
const ON_MAIN_THREAD = typeof document !== "undefined";
// Always passed to Pyodide: without it, loadPyodide finds its own folder by throwing an Error
// and parsing its stack (the AI worker did, on every boot; the page passed it already).
const INDEX_URL = new URL("./", import.meta.url).href;

// The app's modules are imported from app.zip itself (zipimport; the bytecode is in it), written
// into the interpreter's cwd: nothing is unpacked on a boot (unpacking its 164 files took ~50 ms
// of every warm boot). Every interpreter (the page, the AI worker, the snapshot maker) uses the
// same absolute path, so one restored from a snapshot finds the archive its importer remembers;
// the snapshot's key holds app.zip's hash, so the bytes are the same too. The page's copy is
// written by loadPyodide below, before PyScript runs anything.
// app.zip goes first on sys.path, before the cwd ('') a restore puts in front: PyScript writes
// its `pyscript` package into the cwd on every boot, and the same package with its bytecode in
// app.zip (build.py pyscript_package) is then imported instead, without compiling it.
export function useAppZip(pyodide, zip) {
  pyodide.FS.writeFile("app.zip", new Uint8Array(zip));
  const archive = `${pyodide.FS.cwd().replace(/\/$/, "")}/app.zip`; // (os.path.abspath's)
  withModule(pyodide, "sys", (sys) => {
    const path = sys.path;
    try {
      while (path.count(archive)) path.remove(archive);
      path.insert(0, archive);
    } finally {
      path.destroy();
    }
  });
}

/** Fresh dice and AI seeds: a restored `random` would repeat the snapshot's on every visit. */
export function reseed(pyodide) {
  withModule(pyodide, "random", (random) => random.seed());
}

// The loader runs no Python source: a restored page's boot never uses Python's compiler (build.py
// restore_without_compiling: nor does Pyodide's finalizeBootstrap). The first piece of source was
// the first use of the tokenizer, parser, compiler and AST conversions, whose wasm functions V8
// compiled on the page's thread as they were first called (no code cache before a third visit):
// with no source, a return visit after a first tab closed early compiled ~1200 of them, not
// ~1600 (~0.25 s instead of ~0.37 s of its thread, traced at CPU x4). What each piece did (this,
// the reseeding, the prelude's check, main.py) is done through proxies of the modules instead.
// In 8 paired such visits on an emulated phone the first game was playable sooner in all 8
// (medians 2833 -> 2593 ms).
function withModule(pyodide, name, use) {
  const module = pyodide.pyimport(name);
  try {
    return use(module);
  } finally {
    module.destroy();
  }
}

// Pyodide's wasm and its JavaScript ship gzip'd (build.py PACKED_FILES): their own names hold
// stubs of a few bytes, which Pyodide's fetch of the wasm then gets on a visit the service
// worker does not serve (a first one); the service worker stores them unpacked, with this
// header, under their own names. So a file is read whole where the service worker has it, and
// unpacked here (DecompressionStream) from its .gz otherwise.
const UNPACKED_HEADER = "X-Dicehall-Unpacked";
const STUB_MAX = 1024;

async function unpacked(name, type) {
  const whole = await fetch(new URL(`./${name}`, import.meta.url));
  if (whole.ok && (whole.headers.get(UNPACKED_HEADER) || Number(whole.headers.get("Content-Length")) > STUB_MAX)) {
    return whole;
  }
  const packed = await fetch(new URL(`./${name}.gz`, import.meta.url));
  if (!packed.ok) throw new Error(`${name}.gz: HTTP ${packed.status}`);
  const body = countedResponse(name, packed).body;
  return new Response(body.pipeThrough(new DecompressionStream("gzip")), { headers: { "Content-Type": type } });
}

/** `response` with its body counted as it arrives (see progress). */
export function countedResponse(file, response) {
  const total = Number(response.headers.get("Content-Length")) || 0;
  if (!total || !response.body) return response;
  return new Response(response.body.pipeThrough(counted(file, total)),
    { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Tell the boot screen how far the boot is: {step} or a download's {file, loaded, total}.
 * The page hears it as a "dicehall:boot-progress" event (web/early.js moves its bar); a worker
 * posts it to the page ({progress}: snap-maker.mjs's messages, relayed by makeNow). */
export function progress(detail) {
  if (ON_MAIN_THREAD) dispatchEvent(new CustomEvent("dicehall:boot-progress", { detail }));
  else if (typeof WorkerGlobalScope !== "undefined" && self.name === KEY) self.postMessage({ progress: detail });
}

// A download's bytes as they arrive, told at most every 200 ms (a first visit's runtime takes
// seconds on a phone's network: the bar moves meanwhile).
function counted(file, total) {
  let loaded = 0;
  let told = 0;
  return new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      const now = performance.now();
      if (total && now - told >= 200) { told = now; progress({ file, loaded, total }); }
      controller.enqueue(chunk);
    },
    flush() { if (total) progress({ file, loaded: total, total }); },
  });
}

const WASM_NAME = "pyodide.asm.wasm"; // (Pyodide fetches it by this name too: lazyWasmFetch)

/** Pyodide's wasm, compiled (streaming) from wherever it is whole. */
export function compileWasm() {
  return WebAssembly.compileStreaming(unpacked(WASM_NAME, "application/wasm"));
}

// Pyodide's module factory. On a page the service worker serves, from pyodide.asm.js, the same
// factory as a classic script (build.py classic_pyodide_script): Chromium keeps a full code cache
// for a classic script the worker stored, none for a module (the page compiled the module's
// functions as they ran: playable 50-130 ms later on an emulated phone, medians of three
// paired runs). Elsewhere the module is imported (workers get a code cache for a module they
// import()); its stub says null, then it is imported from its .gz. (A service worker may not
// import() at all: snap-sw.mjs passes scriptFactory.)
async function moduleFactory() {
  if (ON_MAIN_THREAD && navigator.serviceWorker && navigator.serviceWorker.controller) {
    try {
      return await classicFactory();
    } catch (err) {
      console.warn("dicehall: pyodide.asm.js not loaded, importing the module", err);
    }
  }
  const module = await import("./pyodide.asm.mjs");
  if (module.default) return module.default;
  const source = await (await unpacked("pyodide.asm.mjs", "text/javascript")).text();
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return (await import(url)).default;
  } finally {
    URL.revokeObjectURL(url);
  }
}

// pyodide.asm.js declares `_createPyodideModule` and reads `_dicehallAsmUrl` for the module's
// import.meta.url (build.py classic_pyodide_script). On the page it runs as a classic script;
// where no script element is (snap-sw.mjs), as a function's body (scriptFactory).
const ASM_SCRIPT_URL = new URL("./pyodide.asm.js", import.meta.url).href;
const asmUrlIsTheModules = () => { globalThis._dicehallAsmUrl = new URL("./pyodide.asm.mjs", import.meta.url).href; };

function classicFactory() {
  asmUrlIsTheModules();
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = ASM_SCRIPT_URL;
    script.onload = () => {
      const factory = globalThis._createPyodideModule;
      if (typeof factory === "function") resolve(factory);
      else reject(new Error("pyodide.asm.js: no factory in it"));
    };
    script.onerror = () => reject(new Error("pyodide.asm.js: not loaded"));
    document.head.append(script);
  });
}

/** Pyodide's factory from pyodide.asm.js run as a function's body (a service worker may not
 * import() a module). */
export async function scriptFactory() {
  const source = await (await unpacked("pyodide.asm.js", "text/javascript")).text();
  asmUrlIsTheModules();
  const factory = new Function(`${source}\nreturn _createPyodideModule;`)();
  if (typeof factory !== "function") throw new Error("pyodide.asm.js: no factory in it");
  return factory;
}

function mark(name, value) {
  if (ON_MAIN_THREAD) document.documentElement.setAttribute(name, value);
  else if (name === "data-boot") console.info(`dicehall boot (worker): ${value}`); // no <html> there
}

// Pyodide runs Python on stacks of its own (JSPI, WebAssembly.Suspending) where the browser has
// them. Chromium then crashes the whole tab now and then ("Target crashed" in the browser tests,
// "Aw, Snap!" for a player; Chromium 156 here): when it samples a native stack on the page's
// thread while Python runs on such a stack (its sampling heap profiler, on in a share of
// renderers, or GWP-ASan, or DevTools' memory sampling), its frame-pointer unwinder scans past
// the end of that stack into an unmapped page (SIGSEGV at the same instruction in all 41 crash
// dumps on the test machine, 11 from ordinary test runs). With DevTools sampling every 4 KiB, 17
// of 30 return visits crashed; without JSPI, 0 of 30 (tests/browser/test_renderer_crash.py). The app never needs JSPI (it blocks on
// nothing: no run_sync), and Safari has none: the module is created as there, the two feature
// tests Pyodide reads while creating it hidden for that time. The interpreter decides then, once.
const JSPI_NAMES = ["Suspending", "Suspender"]; // the standard API, and the older one
let jspiHidden = 0;
const jspiKept = {}; // name -> its property descriptor

async function withoutJspi(create) {
  if (jspiHidden++ === 0) {
    for (const name of JSPI_NAMES) {
      const kept = Object.getOwnPropertyDescriptor(WebAssembly, name);
      if (kept) { jspiKept[name] = kept; delete WebAssembly[name]; }
    }
  }
  try {
    return await create();
  } finally {
    if (--jspiHidden === 0) {
      for (const [name, kept] of Object.entries(jspiKept)) Object.defineProperty(WebAssembly, name, kept);
      for (const name of JSPI_NAMES) delete jspiKept[name];
    }
  }
}

/** A task boundary (a macrotask: the page paints and answers taps in between; a promise's
 * microtask would not). On a page in view, the boot goes on in a task of background priority
 * (scheduler.postTask): Chromium runs input, rendering and the page's other tasks first. With
 * message tasks it gave the page a frame only every ~0.1 s or more while the boot ran, and on an
 * emulated phone's return visit a tap on the drawn Home (Playwright's click: it waits for frames)
 * took 0.66-0.90 s to show the set-up, against 0.32-0.40 s so; a resumed game was playable no
 * later (8 paired visits). A hidden page, where no one taps and a background task may wait
 * longer, keeps message tasks. */
export function nextTask() {
  if (ON_MAIN_THREAD && document.visibilityState === "visible" && typeof scheduler !== "undefined"
      && typeof scheduler.postTask === "function") {
    return scheduler.postTask(() => {}, { priority: "background" });
  }
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(null);
  });
}

// Pyodide's restoreSnapshot copies the heap into the fresh module's memory in one go: ~0.3 s of a
// task at CPU x4, most of it the memory's first touch. The page copies it beforehand, a few MB
// per task, the same bytes at the same place (the snapshot's header says where its heap starts,
// and nothing runs in the module in between), and then gives restoreSnapshot the header alone:
// it reads the header as ever and copies nothing more (it used to write the whole heap once
// again, into memory already touched: 31 MB more of the page's thread). Returns what
// restoreSnapshot is to be given. A snapshot that is not one is left to restoreSnapshot to refuse.
const COPY_CHUNK = 4 << 20;
const RESTORE_AFTER_CONFIG = ["pyproxyToStringRepr", "convertNullToNone", "toJsLiteralMap"];
async function copyHeapAhead(module, snapshot) {
  if (snapshot.byteLength < 16 || snapshot.byteOffset % 4) return snapshot;
  const start = new DataView(snapshot.buffer, snapshot.byteOffset, 16).getUint32(4, true);
  const heap = snapshot.subarray(Math.min(start, snapshot.byteLength));
  if (!heap.length || heap.length > module.HEAP8.length || start % 4) return snapshot;
  for (let at = 0; at < heap.length; at += COPY_CHUNK) {
    await nextTask();
    module.HEAP8.set(heap.subarray(at, at + COPY_CHUNK), at); // (HEAP8 stays: the memory grew already)
  }
  await nextTask();
  return snapshot.subarray(0, start);
}

// Pyodide's loadPyodide, after finalizeBootstrap (which follows restoreSnapshot in the same task),
// awaits its package index, then sets up the standard streams: a task boundary is put in that
// wait, so that the streams' set-up (~0.1 s at CPU x4) runs in a task of its own.
function streamsInTaskOfTheirOwn(module) {
  const api = module.API;
  const finalize = api && api.finalizeBootstrap;
  if (typeof finalize !== "function") return;
  api.finalizeBootstrap = function (...args) {
    const result = finalize.apply(this, args);
    const ready = api.packageIndexReady;
    api.packageIndexReady = Promise.resolve(ready).then(nextTask).then(() => ready);
    return result;
  };
}

// Pyodide fetches pyodide.asm.wasm as it prepares its settings, to instantiate from, although
// the module always comes compiled here (see moduleOptions): on a visit the service worker
// serves, that was 9.6 MB read out of its cache beside the restore (its response ended ~0.12 s
// after it began, on a desktop). Until the settings are made, a fetch of that file is answered
// with a response whose body is fetched only when read (by the instantiation's fallback: any
// call the hook below does not recognise).
export function lazyWasmFetch() {
  const base = globalThis.fetch;
  if (typeof base !== "function" || typeof ReadableStream !== "function") return { end() {} };
  let ended = false;
  const lazy = function (input, init) {
    const url = String((input && input.url) || input);
    if (ended || !url.endsWith(`/${WASM_NAME}`)) return base.apply(this, arguments);
    let reader = null;
    const body = new ReadableStream({
      async pull(controller) {
        reader = reader || (await base(input, init)).body.getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) { return reader && reader.cancel(reason); },
    }, { highWaterMark: 0 });
    return Promise.resolve(new Response(body, { headers: { "Content-Type": "application/wasm" } }));
  };
  globalThis.fetch = lazy;
  return {
    end() {
      ended = true;
      if (globalThis.fetch === lazy) globalThis.fetch = base;
    },
  };
}

// Pyodide's options with its module created here: `wasm`, a compiled module (or a promise of one)
// from elsewhere, is used instead of compiling pyodide.asm.wasm again (else it is compiled here,
// see compileWasm); `factory` gives Pyodide's module factory (else moduleFactory); `grow` bytes of memory are
// made before anything runs; `filled` (the AI worker's) settles once the snapshot's bytes are in
// place: Pyodide reads the snapshot only after the module is created (restoreSnapshot, right
// after createPyodideModule resolves), so the module is created while the bytes are on their way.
// On the page, the module's creation is cut into tasks of at most ~0.25 s at CPU x4 (a return
// visit's longest tasks were this creation, ~0.9 s, and the restore after it, ~0.5 s): the lazy
// compile of Pyodide's factory, the instantiation, the three linking steps of its
// receiveInstance (made async by build.py yielding_receive_instance, given `dicehallYield`),
// `snapshot` (the bytes restored from) copied ahead in chunks, and the streams' set-up.
export function moduleOptions(options, { wasm, grow, filled, snapshot, factory = moduleFactory } = {}) {
  wasm = Promise.resolve(wasm || compileWasm());
  wasm.catch(() => {}); // reported where it is awaited
  const fetchedLazily = lazyWasmFetch();
  return {
    ...options,
    createPyodideModule: async (settings) => {
      fetchedLazily.end(); // (Pyodide has asked for the file by now: its settings hold the answer)
      const createPyodideModule = await factory();
      if (ON_MAIN_THREAD) {
        await nextTask();
        settings.dicehallYield = nextTask; // (read by the receiveInstance build.py split)
      }
      if (grow) {
        settings.preRun = settings.preRun || [];
        settings.preRun.unshift((module) => module.growMemory(grow));
      }
      if (wasm) {
        // Pyodide's own instantiateWasm adds two imports of its making, then calls
        // instantiateStreaming on its fetch of the .wasm: answer that call (known by one of
        // those imports) with the module we have, and only that call, once.
        const streaming = WebAssembly.instantiateStreaming;
        WebAssembly.instantiateStreaming = async (source, imports) => {
          if (!(imports && imports.env && "JsvError_Check" in imports.env)) return streaming(source, imports);
          WebAssembly.instantiateStreaming = streaming;
          let module;
          try {
            module = await wasm;
          } catch (err) {
            module = await compileWasm(); // the early compile failed: once more from the file
          }
          if (ON_MAIN_THREAD) await nextTask();
          const instance = await WebAssembly.instantiate(module, imports);
          if (ON_MAIN_THREAD) await nextTask();
          return { module, instance };
        };
      }
      const module = await withoutJspi(() => createPyodideModule(settings));
      progress({ step: "instantiated" });
      await filled;
      // On the page, the restore runs in tasks of its own, not in the instantiation's: one task
      // of both was the longest of a return visit (~1.5 s traced at CPU x4), then two of ~0.8 s;
      // now the heap's copy, restoreSnapshot and finalizeBootstrap (right after this returns)
      // are each in tasks of their own.
      if (ON_MAIN_THREAD) {
        const restoredFrom = snapshot ? await copyHeapAhead(module, snapshot) : snapshot;
        if (snapshot && !RESTORE_AFTER_CONFIG.some((name) => options[name])) {
          // Pyodide's restoreSnapshot runs here, in a task before finalizeBootstrap's (Pyodide
          // calls both in one go); its call then returns what this one did. Between the two,
          // Pyodide only applies the options named in RESTORE_AFTER_CONFIG (flags in the heap,
          // which a restore would overwrite): with any of them the restore stays where it was.
          const restored = module.API.restoreSnapshot(restoredFrom);
          module.API.restoreSnapshot = () => restored;
        }
        streamsInTaskOfTheirOwn(module);
        await nextTask();
      }
      return module;
    },
  };
}

// Pyodide issue #6254: a snapshot of a heap that grew past the initial size does not fit the
// fresh module's memory, so it is grown to the snapshot's size first.
async function restore(options, bytes, { wasm, filled } = {}) {
  if (ON_MAIN_THREAD) await nextTask(); // (not in the task that read or received the bytes)
  const pyodide = await loadPlain(moduleOptions({ ...options, _loadSnapshot: bytes },
    { wasm, grow: bytes.byteLength, filled, snapshot: ON_MAIN_THREAD ? bytes : undefined }));
  reseed(pyodide);
  return pyodide;
}

/** The AI worker's restore from what the page handed over (ai-client.js holds it until the app's
 * first screen): the compiled wasm module and the snapshot's length, then (`handed`, a promise)
 * the entry's packed bytes. The worker reads and compiles nothing again (doing so took it about
 * 0.3 s here). */
export async function restoreHandedOver(wasm, length, handed) {
  // Pyodide restores from the array it was given before the module exists, so the bytes that
  // arrive later are unpacked into it.
  const bytes = new Uint8Array(length);
  const filled = Promise.resolve(handed).then((packed) => {
    if (!packed) throw new Error("boot snapshot: the page handed over no snapshot");
    unpackSnapshot(packed, bytes);
  });
  filled.catch(() => {}); // awaited (and its error caught) in createPyodideModule
  const pyodide = await restore({ indexURL: INDEX_URL }, bytes, { wasm, filled });
  mark("data-boot", "snapshot");
  return pyodide;
}

// A first visit: the interpreter is booted, its app imported and its snapshot made in a module
// worker (snap-maker.mjs), off this thread (a plain boot here held the page for seconds at a
// time); the worker hands over the compiled wasm as soon as it has it, then the snapshot's
// bytes, which this thread restores from, and stores the snapshot in Cache Storage at once
// (a first visit closed early still leaves it for the next one).
function makeNow() {
  return new Promise((resolve, reject) => {
    const maker = new Worker(new URL("./snap-maker.mjs", import.meta.url), { type: "module", name: KEY });
    let gotWasm;
    const wasm = new Promise((ok) => { gotWasm = ok; });
    maker.onmessage = (event) => {
      const data = event.data;
      if (data && data.wasm) gotWasm(data.wasm);
      else if (data && data.progress) progress(data.progress); // (on this thread: the page's event)
      else if (data && data.bytes) resolve({ bytes: data.bytes, wasm });
      else if (data === "stored") { mark("data-boot-stored", "1"); maker.terminate(); }
      else { maker.terminate(); reject(new Error(String(data))); }
    };
    maker.onerror = (event) => { maker.terminate(); reject(new Error(event.message || "snapshot maker failed")); };
  });
}

// The page's maker dies with its tab: a first visit closed before the snapshot was stored (a
// player who opened the link, saw Home and left) would leave the next visit to make it again,
// downloading and booting plainly first (1.6x a bare Pyodide page's warm boot, measured on an
// emulated phone). So a miss also registers snap-sw.mjs, a service worker of its own scope
// (./snap/: it never controls a page, so it never starts on the app's requests), which makes
// the snapshot once no page of the app is left and the app's files are in the service worker's
// cache, unless a page stored it first. Its URL carries app.zip's hash, so a new build
// registers a new one; its scripts skip the HTTP cache (updateViaCache "none").
function leaveToServiceWorker() {
  let container = null;
  try { container = navigator.serviceWorker; } catch (err) { /* an opaque origin: none */ }
  if (!container) return;
  container.register(new URL(`./snap-sw.mjs?app=${APP_HASH}`, import.meta.url), {
    type: "module", scope: new URL("./snap/", import.meta.url).href, updateViaCache: "none",
  }).catch((err) => console.warn("dicehall: no service worker to make the boot snapshot", err));
}

async function openCache() {
  try {
    return await caches.open(CACHE_NAME);
  } catch (err) {
    return null; // Cache Storage denied (private mode, policy): plain boots only
  }
}

// The page's side of the AI worker's restore (ai-client.js holds it for the worker, created once
// the app's first screen is drawn; see restoreHandedOver):
// the compiled wasm and the snapshot's length as soon as both are known, then the entry's packed
// bytes as soon as the page has unpacked them (moved, not copied: the page needs them no more),
// or null if it never got that far. Nothing is handed over once the page's attempt is over.
// The packed bytes used to go after the page's own restore, unpacked: the worker, its module
// created, then waited about 0.1 s for them (and copied them once more).
function workerHandover() {
  const send = (event, detail) => dispatchEvent(new CustomEvent(event, { detail }));
  let handed = false; // the wasm went
  let packed = null; // bytes waiting for the wasm to go first
  let over = false; // the bytes (or null) went, or nothing will
  return {
    wasm(module, length) {
      if (over || handed || !(length > 0)) return;
      handed = true;
      send("dicehall:handover-wasm", { wasm: module, length });
      if (packed) this.bytes(packed);
    },
    bytes(given) {
      if (over) return;
      if (!handed) { packed = given; return; }
      over = true;
      packed = null;
      send("dicehall:handover-bytes", { bytes: given });
    },
    close() {
      if (!over && handed) send("dicehall:handover-bytes", { bytes: null });
      over = true;
      packed = null;
    },
  };
}

// The stored entry as {length, digest, body} (body: its bytes, or a promise of them), or null;
// with `bytes` too (the snapshot unpacked) when index.html's early reader (boot-read.mjs) read
// this key's entry and found its digest good. Otherwise the entry is looked up here, its headers
// first, and checked and unpacked on this thread.
async function readEntry(cache) {
  const early = ON_MAIN_THREAD ? globalThis.diceHallEarlySnapshot : undefined;
  if (early) {
    delete globalThis.diceHallEarlySnapshot;
    try {
      const read = await early;
      if (read && read.url === KEY) {
        performance.mark("dh:early-snapshot");
        return { length: read.length, digest: read.digest, body: read.packed, bytes: read.bytes };
      }
    } catch (err) { /* read again below */ }
  }
  const hit = await cache.match(KEY);
  if (!hit) return null;
  const body = hit.arrayBuffer();
  body.catch(() => {}); // awaited (and its error caught) in attempt()
  return { length: hit.headers.get(LENGTH_HEADER), digest: hit.headers.get(DIGEST_HEADER), body };
}

// One look in the cache: {pyodide} restored, {miss} (no entry: make one after a plain boot), or
// {} (no Cache Storage, or a bad entry, now deleted: no second try in this visit). `early`: the
// page's wasm compile started by index.html, if any.
async function attempt(options, early) {
  const cache = await openCache();
  if (!cache) return {};
  const handover = ON_MAIN_THREAD ? workerHandover() : null;
  try {
    const entry = await readEntry(cache);
    if (!entry) return { miss: true };
    const announced = Number(entry.length);
    let hooks = {};
    if (ON_MAIN_THREAD) {
      // The wasm compiles (from V8's code cache after the first visit) while the entry is
      // read, and goes to the AI worker with the length the entry announces, so that the
      // worker creates its module while this thread still reads and restores.
      const wasm = early || compileWasm();
      wasm.then((module) => handover.wasm(module, announced), () => {});
      hooks = { wasm };
    }
    const body = await entry.body; // (the early reader's bytes as they are: a copy was 19 MB more on this thread)
    const packed = body instanceof Uint8Array ? body : new Uint8Array(body);
    if (ON_MAIN_THREAD) { performance.mark("dh:read"); progress({ step: "read" }); }
    const bytes = entry.bytes || unpackSnapshot(packed);
    if (ON_MAIN_THREAD) { performance.mark("dh:unpacked"); mark("data-snapshot-read", entry.bytes ? "early-reader" : "page"); }
    if (announced && bytes.length !== announced) throw new Error("boot snapshot: not the length announced");
    // The digest is checked while the module is created (unless the early reader checked it);
    // the restore waits for it, and the AI worker gets the bytes only once they are known good.
    const verified = entry.bytes ? Promise.resolve() : checked(packed, entry.digest);
    verified.then(() => handover && handover.bytes(packed), () => {});
    const pyodide = await restore(options, bytes, { ...hooks, filled: verified });
    if (ON_MAIN_THREAD) { performance.mark("dh:restored"); progress({ step: "restored" }); }
    return { pyodide };
  } catch (err) {
    console.warn("dicehall: boot snapshot refused, booting plainly", err);
    try { await cache.delete(KEY); } catch (e) { /* nothing more to clean */ }
    return {};
  } finally {
    if (handover) handover.close();
  }
}

// An interpreter, restored if it can be, else booted plainly.
async function boot(options) {
  options = { indexURL: INDEX_URL, ...options };
  // index.html starts compiling the wasm as the page opens, on a return visit. Taken here, at
  // once, and used by whichever boot follows: a return visit with no usable snapshot (not made
  // yet, damaged, another build's) compiled the wasm a second time before.
  const early = ON_MAIN_THREAD ? globalThis.diceHallEarlyWasm : undefined;
  if (ON_MAIN_THREAD) delete globalThis.diceHallEarlyWasm;
  const { pyodide, miss } = await attempt(options, early);
  if (pyodide) {
    mark("data-boot", "snapshot");
    return pyodide;
  }
  // A page may opt out before boot (window.diceHallMakeSnapshot = false): tests that do not
  // need it, a benchmark of plain boots.
  if (miss && ON_MAIN_THREAD && globalThis.diceHallMakeSnapshot !== false) {
    leaveToServiceWorker();
    try {
      const made = await makeNow();
      // (a return visit whose snapshot was missing compiled the wasm here already: index.html)
      const pyodide = await restore(options, made.bytes, { wasm: early || made.wasm });
      progress({ step: "restored" });
      mark("data-boot", "made");
      return pyodide;
    } catch (err) {
      console.warn("dicehall: no snapshot made on this visit, booting plainly", err);
    }
  }
  mark("data-boot", "plain");
  return loadPlain(moduleOptions(options, { wasm: early }));
}

// The page's boot does not wait for PyScript: index.html calls prestart() as soon as this
// module is loaded, and the interpreter is restored, or booted plainly on a first visit, while
// PyScript loads its own modules (PyScript asked for it only ~0.6 s after navigation on a first
// visit here). PyScript's loadPyodide() then takes that interpreter. Its stdout and stderr are
// not known yet, so the early interpreter writes through `relay`, pointed at them on hand-over.
// PyScript passes only those and indexURL (pyscript.json asks for no packages); indexURL is this
// module's folder either way.
const relay = { stdout: (text) => console.log(text), stderr: (text) => console.warn(text) };
let early = null;
let earlyZip = null;

// The app's archive, fetched while the interpreter boots and written into it as soon as it is
// up (on the page; the AI worker fetches its own). PyScript's "files" would fetch it only after
// the interpreter exists, then write it, before it runs anything (about 30 ms of a warm boot).
function fetchAppZip() {
  return fetch(new URL("../app.zip", import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`app.zip: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
}

export function prestart() {
  if (!ON_MAIN_THREAD || early) return;
  performance.mark("dh:prestart");
  earlyZip = fetchAppZip();
  earlyZip.catch(() => {}); // reported when PyScript asks for the interpreter
  early = boot({
    indexURL: INDEX_URL,
    stdout: (text) => relay.stdout(text),
    stderr: (text) => relay.stderr(text),
  });
}

// PyScript's Python prelude, run before main.py on every boot: it writes its `pyscript` package
// into the cwd, file by file (`_path = _Path("./pyscript/x.py")`, `_path.write_text("…")`), then
// runs `import pyscript as _pyscript`. Timed on a return visit at CPU x4, that one runPythonAsync
// was one task of ~0.75 s: ~0.35 s compiling its ~80 KB of source (the package's text inside
// it), ~0.25 s of writes, ~0.19 s of the import. It is run here in pieces, each in a task of its
// own, in the same order and namespace: cut only before the lines PyScript generates at the top
// level (a file's `_path = _Path(` after a finished write or mkdir, and the import), where a
// statement surely ends, and only once a piece holds PRELUDE_PIECE characters. Any other code,
// or a prelude that does not read so, runs as it is.
const PRELUDE_IMPORT = "import pyscript as _pyscript";
const PRELUDE_PIECE = 12000;

export function preludePieces(code) {
  const lines = String(code).split("\n");
  const ended = (line) => line.startsWith("_path.write_text(") || line === "    _path.mkdir(parents=True, exist_ok=True)" || line === "_path = None";
  const pieces = [];
  let piece = [];
  let size = 0;
  lines.forEach((line, i) => {
    const cut = i > 0 && ended(lines[i - 1]) && (line === PRELUDE_IMPORT || (line.startsWith("_path = _Path(") && size >= PRELUDE_PIECE));
    if (cut) { pieces.push(piece.join("\n")); piece = []; size = 0; }
    piece.push(line);
    size += line.length + 1;
  });
  pieces.push(piece.join("\n"));
  return pieces;
}

// The prelude's writes are wasted where app.zip holds the `pyscript` package: its import takes
// app.zip's copy (first on sys.path; build.py pyscript_package, from the same text). Measured on
// a return visit at CPU x4: its pieces before the import were ~0.13 s of the page's thread. And
// the import itself is left to whoever needs the package: the app does not (it reads the page
// through `js` and `pyodide.ffi`), and on an emulated phone's return visit that import alone was
// 0.13-0.29 s of the page's thread before main.py could run (marked; profiled, ~45 % of it the
// import system finding its five small modules and the two JavaScript modules they use). So a
// prelude that is nothing but PyScript's writes of ./pyscript files and that import
// (preludeImportOnly) is not run at all, once Python has said that `import pyscript` would come
// from app.zip: the package is then imported on first use, the same package from the same
// place. `null` from preludeImportOnly: the prelude is run as it is.
const PRELUDE_LINE = [
  /^$/, /^import os as _os$/, /^from pathlib import Path as _Path$/, /^_path = None$/,
  /^_path = _Path\("\.\/pyscript(\/[\w.\/]+)?"\)$/, /^if not _os\.path\.exists\("\.\/pyscript(\/[\w.\/]+)?"\):$/,
  /^    _path\.mkdir\(parents=True, exist_ok=True\)$/, /^_path\.write_text\("(?:[^"\\]|\\.)*"(,encoding="utf-8")?\)$/,
  /^import pyscript as _pyscript$/, /^del (_Path|_path|_os|_pyscript)$/,
];
const PRELUDE_ALONE = `${PRELUDE_IMPORT}\ndel _pyscript\n`;

/** Whether `import pyscript` would take the package from app.zip, first on sys.path. */
function pyscriptFromZip(pyodide) {
  return withModule(pyodide, "importlib.util", (util) => withModule(pyodide, "sys", (sys) => {
    const spec = util.find_spec("pyscript");
    const path = sys.path;
    try {
      const origin = spec ? spec.origin : undefined;
      const first = path.length ? path.get(0) : undefined;
      return typeof origin === "string" && typeof first === "string" && first.endsWith(".zip")
        && origin.startsWith(`${first}/`);
    } finally {
      if (spec) spec.destroy();
      path.destroy();
    }
  }));
}

export function preludeImportOnly(code) {
  const lines = String(code).split("\n");
  if (!lines.includes(PRELUDE_IMPORT)) return null;
  return lines.every((line) => PRELUDE_LINE.some((shape) => shape.test(line))) ? PRELUDE_ALONE : null;
}

// main.py, which PyScript runs as source, holds these statements and comments, nothing else
// (tests/test_build_pyodide.py): it is run as them, from app.zip's bytecode (see withModule).
// <html data-main="bytecode"> says it was.
const MAIN_STATEMENTS = ["from dicehall.boot import main", "await main()"];

export function isAppMain(code) {
  let seen = 0; // (PyScript's prelude, ~80 KB, is told apart at its first statement)
  for (const line of String(code).split("\n")) {
    const statement = line.replace(/(^|\s+)#.*$/, "").trim();
    if (statement && statement !== MAIN_STATEMENTS[seen++]) return false;
  }
  return seen === MAIN_STATEMENTS.length;
}

async function runAppMain(boot) {
  mark("data-main", "bytecode");
  try {
    return await boot.main(); // (a coroutine: Pyodide's event loop runs it)
  } finally {
    boot.destroy();
  }
}

// What PyScript runs before and as main.py (runPythonAsync): its prelude (see preludePieces,
// preludeImportOnly) and main.py (isAppMain).
function pyscriptRuns(pyodide) {
  const runAsync = pyodide.runPythonAsync;
  pyodide.runPythonAsync = async function (code, ...rest) {
    if (typeof code === "string" && isAppMain(code)) {
      let boot = null;
      try { boot = pyodide.pyimport("dicehall.boot"); } catch (err) { console.warn("dicehall: main.py run as source", err); }
      if (boot) return runAppMain(boot);
    }
    const alone = typeof code === "string" ? preludeImportOnly(code) : null;
    if (alone) {
      let fromZip = false;
      try { fromZip = pyscriptFromZip(pyodide); } catch (err) { /* run it as it is */ }
      if (fromZip) {
        mark("data-prelude", "on-first-use"); // (tests/browser/test_boot_snapshot.py)
        return undefined; // (what the prelude's last line, a `del`, gives)
      }
    }
    const pieces = typeof code === "string" && code.split("\n").includes(PRELUDE_IMPORT) ? preludePieces(code) : [code];
    if (pieces.length > 1) mark("data-prelude-pieces", String(pieces.length)); // (tests/browser/test_boot_snapshot.py)
    let result;
    for (const [i, piece] of pieces.entries()) {
      if (i > 0) await nextTask();
      result = await runAsync.call(this, piece, ...rest);
    }
    return result;
  };
}

export async function loadPyodide(options = {}) {
  if (ON_MAIN_THREAD) performance.mark("dh:loader"); // boot timeline for bench/boot.py
  const started = early;
  const zip = earlyZip || (ON_MAIN_THREAD ? fetchAppZip() : null);
  early = earlyZip = null;
  const pyodide = await (started || boot(options));
  if (started) {
    if (options.stdout) relay.stdout = options.stdout;
    if (options.stderr) relay.stderr = options.stderr;
  }
  if (zip) useAppZip(pyodide, await zip);
  if (ON_MAIN_THREAD) pyscriptRuns(pyodide);
  // PyScript's own start (its JavaScript, then its Python: the package written, `import pyscript`)
  // follows in a task of its own, not in the restore's last one.
  if (ON_MAIN_THREAD) await nextTask();
  return pyodide;
}
