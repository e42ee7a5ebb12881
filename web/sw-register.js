/* Dice Hall: service-worker registration and update detection (no user-facing text here;
 * the Python UI shows the translated banner).
 *
 * - Registers ./sw.js at once on a page no worker controls (a first visit: a tab closed before
 *   the app booted still leaves the app downloading in the worker), telling it {type: "BOOTED"}
 *   once the app has booted (html[data-app-state] leaves "booting"): a first install waits for
 *   that (or for no page left) before downloading, so the precache does not compete with the cold
 *   boot for CPU and bandwidth. A page a worker controls registers once the app has booted.
 *   Pages without data-app-state register on window "load".
 * - Calls reg.update() on every boot (browsers do not reliably check on reload).
 * - A new worker waiting behind an active one => html[data-update-ready="1"] plus a window
 *   event "dicehall-update-ready" (detail: {registration}).
 * - window.diceHallApplyUpdate() tells the waiting worker to take over; the page reloads once
 *   on the resulting controllerchange. Returns false when no update is waiting.
 * - window.diceHallServiceWorker is a promise of the registration (null when unsupported).
 */
(function () {
  "use strict";
  var root = document.documentElement;
  if (!("serviceWorker" in navigator)) {
    window.diceHallServiceWorker = Promise.resolve(null);
    window.diceHallApplyUpdate = function () { return false; };
    return;
  }
  var sw = navigator.serviceWorker;
  var registration = null;
  var applying = false;
  var reloading = false;
  var resolveReg;
  window.diceHallServiceWorker = new Promise(function (resolve) { resolveReg = resolve; });

  function announce(reg) {
    if (root.dataset.updateReady === "1") return;
    root.dataset.updateReady = "1";
    window.dispatchEvent(new CustomEvent("dicehall-update-ready", { detail: { registration: reg } }));
  }

  function watch(reg) {
    registration = reg;
    if (reg.waiting && reg.active) announce(reg);
    reg.addEventListener("updatefound", function () {
      var worker = reg.installing;
      if (!worker) return;
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed" && (sw.controller || reg.active)) announce(reg);
      });
    });
  }

  sw.addEventListener("controllerchange", function () {
    if (!applying || reloading) return;
    reloading = true;
    window.location.reload();
  });

  window.diceHallApplyUpdate = function () {
    var waiting = registration && registration.waiting;
    if (!waiting) return false;
    applying = true;
    waiting.postMessage({ type: "SKIP_WAITING" });
    return true;
  };

  var appBooted = false;
  function tellBooted(reg) {
    if (appBooted && reg && reg.installing) reg.installing.postMessage({ type: "BOOTED" });
  }

  function register() {
    sw.register("./sw.js", { scope: "./" })
      .then(function (reg) {
        watch(reg);
        resolveReg(reg);
        tellBooted(reg);
        return reg.update().catch(function () { /* offline: keep the running version */ });
      })
      .catch(function (err) {
        resolveReg(null);
        if (window.console) console.warn("dicehall: service worker registration failed", err);
      });
  }

  var started = false;
  function start() {
    if (started) return;
    started = true;
    register();
  }
  function booted() {
    appBooted = true;
    if (started) tellBooted(registration);
    else start();
  }

  var state = root.getAttribute("data-app-state");
  if (state === null || state !== "booting") {
    appBooted = true;
    if (state === null && document.readyState !== "complete") {
      window.addEventListener("load", start, { once: true });
    } else {
      start();
    }
  } else {
    if (!sw.controller) start();
    var observer = new MutationObserver(function () {
      if (root.getAttribute("data-app-state") !== "booting") {
        observer.disconnect();
        booted();
      }
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-app-state"] });
    // Never leave the app without offline support because boot hangs.
    window.setTimeout(function () { observer.disconnect(); booted(); }, 30000);
  }
})();
