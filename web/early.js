/* Dice Hall before Python: the boot screen's progress and errors, and the screens the build drew.
 *
 * index.html's first script picked the language and fetched dist/screens/<lang>.json (written by
 * build.py with the real shell: web/dicehall/prerender.py). When the address names one of those
 * screens (Home, a game's set-up or rules) and nothing stored would change it, it is painted at
 * once and the boot screen shrinks to a strip above it that keeps showing the progress.
 * On those screens a tap that only moves between them (a link, "New game") is answered at once;
 * any other tap, and what is typed into a field, is kept (one per control) and handed to the
 * shell when it has started and drawn the same screen (`diceHallEarly.handOff()`, called by
 * dicehall/browser.py once its listeners are on): nothing tapped before Python is lost, and
 * nothing is done twice.
 */
(function () {
  "use strict";
  var root = document.documentElement;
  var app = document.getElementById("app");
  var strings = {}; // the boot words of the player's language (screens file), English meanwhile
  var screens = null; // hash -> {screen, html}, once the screens file is here
  var painted = null; // the element painted last (the shell's first draw replaces it)
  var queue = []; // kept taps and fields: {route, kind: "tap"|"field", testid, action, arg, value, checked, files}
  var progress = 0.04;
  var phase = 1;
  var PHASES = ["", "boot.loading", "boot.python", "boot.table"];
  // Where each step of a boot puts the bar (fractions of the whole). A first visit: the runtime's
  // download (bytes, posted by the snapshot maker), then the maker's steps; a return visit: the
  // snapshot read and restored; then PyScript, the app's import and the first screen.
  var STEPS = {wasm: 0.5, instantiated: 0.54, booted: 0.62, imported: 0.7, made: 0.76, read: 0.4, restored: 0.78};
  var DOWNLOAD = [0.04, 0.48]; // the bar moves over this span as the runtime's bytes arrive
  // The runtime's two large files, [loaded, total] each (sizes as built, until the first count).
  var DOWNLOADS = {"pyodide.asm.wasm": [0, 3.5e6], "python_stdlib.zip": [0, 2.5e6]};

  function booting() { return root.getAttribute("data-app-state") === "booting"; }
  function text(key, fallback) { return strings[key] || fallback; }

  function show() {
    var t = document.getElementById("boot-text");
    if (t) t.textContent = text(root.hasAttribute("data-early-waiting") ? "boot.waiting" : PHASES[phase], t.textContent);
    var bar = document.getElementById("boot-bar");
    if (bar) bar.style.inlineSize = (progress * 100).toFixed(1) + "%";
    var pb = bar && bar.parentNode;
    if (pb) pb.setAttribute("aria-valuenow", String(Math.round(progress * 100)));
  }
  var moved = 0; // performance.now() of the last real step
  function advance(to) { if (to > progress) { progress = Math.min(to, 0.98); moved = performance.now(); show(); } }
  // Some steps say nothing while they run (Python's own start in the maker worker is one call of
  // 2-3 s on a phone): after 0.7 s without news the bar creeps a little toward the next step
  // every half second, never reaching it, so that the player sees the page alive; the next real
  // step moves it on. (Checked each second after a second without news, the gaps between its
  // moves came to 1.96 s on an emulated phone.)
  var STOPS = [0.48, 0.5, 0.54, 0.62, 0.7, 0.76, 0.78, 0.85, 0.92, 0.98];
  var creeping = setInterval(function () {
    if (!booting()) { clearInterval(creeping); return; }
    if (performance.now() - moved < 700) return;
    var next = 0.98;
    for (var i = 0; i < STOPS.length; i++) if (STOPS[i] > progress + 0.01) { next = STOPS[i]; break; }
    progress += Math.max(0.001, (next - 0.01 - progress) * 0.1);
    show();
  }, 500);

  window.diceHallBootPhase = function (n) {
    if (n > phase) { phase = n; advance(n === 2 ? 0.85 : n === 3 ? 0.92 : progress); show(); }
  };
  addEventListener("dicehall:boot-progress", function (e) {
    var d = e.detail || {};
    if (d.total && DOWNLOADS.hasOwnProperty(d.file)) {
      DOWNLOADS[d.file] = [d.loaded, d.total];
      var loaded = 0, total = 0;
      for (var f in DOWNLOADS) { loaded += DOWNLOADS[f][0]; total += DOWNLOADS[f][1]; }
      advance(DOWNLOAD[0] + (DOWNLOAD[1] - DOWNLOAD[0]) * Math.min(1, loaded / total));
    } else if (STEPS[d.step]) advance(STEPS[d.step]);
  });
  window.diceHallBootError = function (detail) {
    if (!booting()) return;
    root.setAttribute("data-app-state", "error");
    root.removeAttribute("data-early");
    document.getElementById("boot").hidden = false;
    document.getElementById("boot-err-text").textContent = text("boot.error", "Dice Hall could not start.");
    document.getElementById("boot-reload").textContent = text("boot.reload", "Reload");
    document.getElementById("boot-err-detail").textContent = String(detail || "");
  };

  // --- the screens the build drew ---------------------------------------------------------------
  function route() {
    var h = location.hash.replace(/^#\/?/, "").replace(/\/+$/, "");
    return h ? "#/" + h : "#/home";
  }
  function stored(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  // A screen the build drew is what the shell would draw only for a player with nothing stored
  // that shows on it: Home lists unfinished games and rooms, a set-up the one remembered.
  function drawable(r) {
    if (!screens || !screens[r]) return false;
    if (r === "#/home") {
      if (stored("dicehall.table") || stored("dicehall.room") || stored("dicehall.guest")) return false;
      var parked = stored("dicehall.parked");
      return !parked || parked === "{}";
    }
    var m = /^#\/setup\/(.+)$/.exec(r);
    if (m) {
      try { return !(JSON.parse(stored("dicehall.setups") || "{}") || {})[m[1]]; } catch (e) { return false; }
    }
    return true;
  }
  function paint() {
    if (!booting() || !screens) return;
    var r = route();
    if (!drawable(r)) {
      if (root.hasAttribute("data-early")) { // a screen only the shell draws: the boot screen again
        root.removeAttribute("data-early");
        app.removeAttribute("data-screen");
        app.innerHTML = "";
        painted = null;
      }
      return;
    }
    // The game's own strings, which the shell loads before it draws its set-up or rules, are
    // fetched now (index.html diceHallPrefetchScreen): Python takes them when it starts.
    if (window.diceHallPrefetchScreen) window.diceHallPrefetchScreen(r);
    app.setAttribute("data-screen", screens[r].screen);
    app.innerHTML = screens[r].html;
    painted = app.firstElementChild;
    root.setAttribute("data-early", screens[r].screen);
    scrollTo(0, 0);
    queue.forEach(function (e) { if (e.route === r) mark(e); });
  }
  function mark(e) {
    var el = find(e);
    if (el) el.setAttribute("aria-busy", "true");
  }
  function find(e) {
    var sel = e.testid ? '[data-testid="' + CSS.escape(e.testid) + '"]'
      : '[data-action="' + CSS.escape(e.action) + '"]' + (e.arg == null ? "" : '[data-arg="' + CSS.escape(e.arg) + '"]');
    return app.querySelector(sel);
  }
  function keep(e) {
    e.route = route();
    for (var i = 0; i < queue.length; i++) {
      var q = queue[i];
      if (q.route === e.route && q.kind === e.kind && q.testid === e.testid && q.action === e.action && q.arg === e.arg) {
        if (e.kind === "field") queue.splice(i, 1); // the field's latest value counts
        else return; // a second tap on a control whose first waits: one action per control
        break;
      }
    }
    queue.push(e);
    mark(e);
    root.setAttribute("data-early-waiting", "1");
    show();
  }

  window.diceHallScreens && window.diceHallScreens.then(function (data) {
    strings = data.boot || {};
    if (data.title) document.title = data.title;
    screens = data.screens || null;
    show();
    paint();
  }, function () { /* the boot screen stays, in English, until Python draws */ });
  addEventListener("hashchange", function () { if (active()) paint(); });

  function active() { return booting() && root.hasAttribute("data-early"); }
  document.addEventListener("click", function (event) {
    if (!active()) return;
    var el = event.target.closest && event.target.closest("[data-action]");
    if (!el || !app.contains(el) || el.disabled || el.tagName === "INPUT") return;
    var action = el.getAttribute("data-action"), arg = el.getAttribute("data-arg");
    event.preventDefault();
    event.stopPropagation();
    if (action === "go") { location.hash = arg; return; }
    if (action === "new-setup") { location.hash = "#/setup/" + arg; return; }
    keep({kind: "tap", testid: el.getAttribute("data-testid"), action: action, arg: arg});
  }, true);
  function field(event) {
    if (!active()) return;
    var el = event.target;
    if (!el || !app.contains(el) || !el.getAttribute) return;
    var testid = el.getAttribute("data-testid");
    if (!testid || !(el.getAttribute("data-field") || el.getAttribute("data-action") === "import")) return;
    keep({kind: "field", testid: testid, value: el.value, checked: !!el.checked,
          files: el.files && el.files.length ? Array.prototype.slice.call(el.files) : null});
  }
  document.addEventListener("input", field, true);
  document.addEventListener("change", field, true);

  // --- the hand-over ----------------------------------------------------------------------------
  function replay(e) {
    var el = find(e);
    if (!el || el.disabled) return; // that control is not on the shell's screen: nothing to do
    if (e.kind === "tap") { el.click(); return; }
    if (e.files && typeof DataTransfer === "function") {
      var dt = new DataTransfer();
      e.files.forEach(function (f) { dt.items.add(f); });
      el.files = dt.files;
    } else if (el.type === "checkbox" || el.type === "radio") {
      el.checked = e.checked;
    } else if (!e.files) {
      el.value = e.value;
    }
    el.dispatchEvent(new Event("input", {bubbles: true}));
    el.dispatchEvent(new Event("change", {bubbles: true}));
  }
  window.diceHallEarly = {
    // The shell has started and listens: what was kept on the screen it shows is done now, in
    // order, once it has drawn that screen (a game's words may still be on their way).
    handOff: function () {
      var r = route(), todo = queue.filter(function (e) { return e.route === r; }), tries = 0;
      queue = [];
      root.removeAttribute("data-early");
      root.removeAttribute("data-early-waiting");
      (function run() {
        if (painted && app.firstElementChild === painted && tries++ < 200) { setTimeout(run, 50); return; }
        painted = null;
        todo.forEach(replay);
      })();
    },
    kept: function () { return queue.length; },
    // A promise, resolved once what the page holds now has been shown: after the next frame, at
    // background priority (a tap waiting is answered first); at once on a hidden page (no frame
    // comes, and a hidden page's background tasks may wait long), and at the latest after half a
    // second. The shell's first screen is drawn before what can wait a frame (the computer's
    // first step, the AI worker's start): queued behind it, that work had the first frame's end
    // wait ~40-90 ms on an emulated phone (traced).
    shown: function () {
      return new Promise(function (resolve) {
        var done = false;
        function go() {
          if (done) return;
          done = true;
          if (document.hidden) resolve();
          else if (window.scheduler && scheduler.postTask) scheduler.postTask(resolve, {priority: "background"});
          else setTimeout(resolve, 0);
        }
        if (document.hidden) { go(); return; }
        requestAnimationFrame(go);
        setTimeout(go, 500);
      });
    },
    // The shell, before it draws its first screen: when the one thing kept on the screen the
    // address shows is a tap on `testid`, it is taken (true) for the shell to do at once, so that
    // the first screen it draws is what that tap leads to (a kept Start: the new game's table,
    // not the set-up and then the table).
    takeKept: function (testid) {
      var r = route(), here = queue.filter(function (e) { return e.route === r; });
      if (here.length !== 1 || here[0].kind !== "tap" || here[0].testid !== testid) return false;
      queue.splice(queue.indexOf(here[0]), 1);
      return true;
    },
  };
  show();
  var py = document.querySelector('script[type="py"]');
  if (py) {
    py.addEventListener("py:ready", function () { window.diceHallBootPhase(2); });
    py.addEventListener("py:error", function (e) { window.diceHallBootError(e && e.detail); });
  }
  function fail(e) {
    var msg = (e && (e.message || (e.reason && (e.reason.message || e.reason)))) || "error";
    window.diceHallBootError(msg);
  }
  addEventListener("error", function (e) { if (e && e.message) fail(e); });
  addEventListener("unhandledrejection", fail);
  setTimeout(function () { if (booting()) fail({message: "timeout"}); }, 180000);
})();
