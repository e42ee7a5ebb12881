/* Dice Hall room transports, the one piece they share: how they call Python back.
 *
 * web/rooms.js (over PeerJS) and web/direct.js (without a server) report to the Python room
 * sessions through one callback, onEvent(kind, connId, data). diceHallEmitter(label, onEvent,
 * isClosed) wraps it: strings or null only; never called after close (isClosed()); a failing
 * handler (a Python exception) is reported under `label` without its data and does not break the
 * transport. Loaded before both (index.html); the transports look it up only when a room opens.
 */
(function () {
  "use strict";
  window.diceHallEmitter = function (label, onEvent, isClosed) {
    return (kind, connId, data) => {
      if (isClosed()) return;
      try {
        onEvent(kind, connId === null ? null : String(connId), data === null ? null : String(data));
      } catch (err) {
        console.error(`${label}: the ${kind} handler failed:`, err);
      }
    };
  };
})();
