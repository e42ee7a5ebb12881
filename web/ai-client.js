/* Dice Hall: the page's side of the AI worker (pyodide/ai-worker.mjs). No user-facing text.
 *
 * window.diceHallAI:
 * - The worker is created as soon as this script runs, on every visit: its modules (1.2 MB of
 *   Pyodide's JavaScript to parse) load on the other core while the page boots, and it waits to
 *   be told how to get its interpreter. Created when the page found the snapshot instead, it
 *   was ready about 0.3 s later on a warm visit here. index.html runs this script before its
 *   stylesheet (which a classic script would wait for): in two interleaved runs of warm visits
 *   the worker was then ready 56 and 82 ms sooner.
 * - start(): makes sure a worker boots. On a visit with a boot snapshot the worker gets the
 *   compiled wasm as soon as the page has it ("dicehall:handover-wasm" from snap-loader.mjs)
 *   and creates its module on the other core, then the entry's packed bytes once the page has
 *   unpacked them ("dicehall:handover-bytes"; null if it did not get that far: the worker then
 *   boots by itself). Otherwise (a first visit, or a restore that failed) the app calls start()
 *   once its UI is up and the worker boots by itself, so that two boots never share the CPU on
 *   a first visit (that made it about a quarter slower).
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
  window.addEventListener("dicehall:handover-wasm", function (event) {
    var detail = event.detail || {};
    create();
    tell({ wasm: detail.wasm, length: detail.length });
  });
  window.addEventListener("dicehall:handover-bytes", function (event) {
    var bytes = (event.detail || {}).bytes;
    if (worker) worker.postMessage({ bytes: bytes || null }, bytes ? [bytes.buffer] : []);
  });
  create();
})();
