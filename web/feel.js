/* Dice Hall: game feel the Python side asks for (no user-facing text here).
 * - diceHallSound(kind): a short synthesized sound for "roll", "celebrate" or "win" (Settings:
 *   off by default; no audio files to download or cache).
 * - diceHallWakeLock(on): keep the screen awake while a game is on the table; the browser drops
 *   the lock when the page is hidden, so it is asked for again when the page comes back.
 * - diceHallLeaveWarning(on): while on (this phone hosts a game others play), leaving or reloading
 *   the page asks first (`beforeunload`: the browser shows its own words).
 */
(function () {
  "use strict";
  var audio = null;
  var NOTES = {
    roll: [[180, 0.00, 0.05], [140, 0.06, 0.05], [200, 0.12, 0.06]],
    celebrate: [[523, 0.00, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.20]],
    win: [[523, 0.00, 0.14], [659, 0.14, 0.14], [784, 0.28, 0.14], [1047, 0.42, 0.30]]
  };
  window.diceHallSound = function (kind) {
    var notes = NOTES[kind];
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!notes || !Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
    var now = audio.currentTime;
    notes.forEach(function (n) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = kind === "roll" ? "triangle" : "sine";
      osc.frequency.value = n[0];
      gain.gain.setValueAtTime(0.0001, now + n[1]);
      gain.gain.exponentialRampToValueAtTime(0.15, now + n[1] + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + n[1] + n[2]);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + n[1]);
      osc.stop(now + n[1] + n[2] + 0.02);
    });
  };

  var wanted = false;
  var lock = null;
  function acquire() {
    if (!wanted || lock || !navigator.wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
      if (!wanted) l.release();
    }).catch(function () { /* refused (battery saver, no permission): the screen may dim */ });
  }
  window.diceHallWakeLock = function (on) {
    wanted = !!on;
    if (wanted) acquire();
    else if (lock) { lock.release(); lock = null; }
    document.documentElement.dataset.wakeLock = wanted ? "wanted" : "off";
  };
  document.addEventListener("visibilitychange", acquire);

  var warnLeaving = false;
  window.diceHallLeaveWarning = function (on) {
    warnLeaving = !!on;
    document.documentElement.dataset.leaveWarning = warnLeaving ? "on" : "off";
  };
  window.addEventListener("beforeunload", function (event) {
    if (!warnLeaving) return;
    event.preventDefault();
    event.returnValue = "";  // (older browsers ask only when a value is set)
  });
})();
