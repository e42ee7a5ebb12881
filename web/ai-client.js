/* Dice Hall: the page's side of the AI worker (pyodide/ai-worker.mjs). No user-facing text.
 *
 * window.diceHallAI:
 * - start(): makes sure a worker boots; the app calls it once its first screen is shown, and
 *   the worker is created then, not before. On a visit with a boot snapshot the page has by then
 *   handed over what the worker restores from: the compiled wasm ("dicehall:handover-wasm" from
 *   snap-loader.mjs) and the entry's packed bytes once the page has unpacked them
 *   ("dicehall:handover-bytes"; null if it did not get that far: the worker then boots by
 *   itself); they are held here until start(). Otherwise (a first visit, or a restore that
 *   failed) the worker boots by itself, so that two boots never share the CPU on a first visit
 *   (that made it about a quarter slower). A worker created as the page opened, restoring
 *   beside the page, was ready before the page (~0.9 s into a return visit on an emulated phone,
 *   against ~1.85 s now, ~0.25 s after the first game is playable), but it held the page back:
 *   on the phone's two cores its module's creation and restore ran beside the page's own, and in
 *   paired return visits the first game was playable sooner without it in 4 of 6 (medians 1678
 *   -> 1602 ms; an earlier run, 5 of 6, 2284 -> 2078 ms).
 * - restart(): a fresh worker (the app's recovery after a failed call).
 * - ready(): a promise, resolved when the worker has booted, rejected if it could not.
 * - call(fn, ...args): a promise of the worker's answer (a string); rejected with its error.
 * <html data-ai-worker> = "ready" | "failed", set the moment the worker says so (tests and
 * bench/boot.py time it).
 */
(function () {
  "use strict";
  var root = document.documentElement;
  var URL_ = new URL("./pyodide/ai-worker.mjs", document.baseURI).href;
  var worker = null, booting = null, pending = {}, nextId = 1;

  function fail(reason) {
    var error = new Error(reason);
    Object.keys(pending).forEach(function (id) { pending[id].reject(error); });
    pending = {};
    if (worker) worker.terminate();
    worker = null;
    return error;
  }

  var told = false; // the worker has its {boot} message

  function create() {
    if (worker || booting) return;
    booting = new Promise(function (resolve, reject) {
      var settled = false;
      function settle(ok, reason) {
        if (settled) return;
        settled = true;
        root.setAttribute("data-ai-worker", ok ? "ready" : "failed");
        if (ok) resolve(); else reject(fail(reason));
      }
      told = false;
      try {
        worker = new Worker(URL_, { type: "module", name: "ai" });
        // A return visit (as index.html's early compile): the worker loads Pyodide's JavaScript
        // now. On a first visit it waits: that load competed with the page's plain boot
        // (first visits, 6 interleaved rounds: ready 5730 ms with it, 5409 ms without).
        if (navigator.serviceWorker && navigator.serviceWorker.controller) worker.postMessage({ prefetch: true });
      } catch (err) {
        settle(false, String(err && err.message || err));
        return;
      }
      worker.onmessage = function (event) {
        var data = event.data || {};
        if (data.ready) return settle(true);
        if (data.failed) return settle(false, data.failed);
        var call = pending[data.id];
        if (!call) return;
        delete pending[data.id];
        if ("error" in data) call.reject(new Error(data.error)); else call.resolve(data.value);
      };
      worker.onerror = function (event) {
        event.preventDefault();
        var reason = "AI worker error: " + (event.message || "unknown");
        if (!settled) settle(false, reason); else fail(reason);
      };
    });
    booting.catch(function () { /* the app reads the failure from ready() */ });
  }

  function tell(how, transfer) {
    if (!worker || told) return;
    told = true;
    worker.postMessage({ boot: how }, transfer || []);
  }

  function start() {
    release();
    create();
    tell("self");
    return booting;
  }

  function call(fn) {
    var args = Array.prototype.slice.call(arguments, 1);
    if (!worker) return Promise.reject(new Error("AI worker not running"));
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, fn: fn, args: args });
    });
  }

  window.diceHallAI = {
    start: function () { start(); },
    restart: function () { fail("AI worker replaced"); booting = null; start(); },
    ready: function () { return start(); },
    call: call,
  };
  // What the page handed over for the worker's restore, until start() creates the worker.
  var held = null, heldBytes; // {wasm, length}; the bytes (undefined: not handed over yet)

  function postBytes(bytes) {
    if (worker) worker.postMessage({ bytes: bytes || null }, bytes ? [bytes.buffer] : []);
  }

  function release() {
    if (!held) return;
    var how = held;
    held = null;
    create();
    tell(how);
    if (heldBytes !== undefined) postBytes(heldBytes);
    heldBytes = undefined;
  }

  window.addEventListener("dicehall:handover-wasm", function (event) {
    var detail = event.detail || {};
    if (worker && told) return; // started already (by itself)
    held = { wasm: detail.wasm, length: detail.length };
  });
  window.addEventListener("dicehall:handover-bytes", function (event) {
    var bytes = (event.detail || {}).bytes;
    if (held) heldBytes = bytes; else postBytes(bytes);
  });
})();
