/* Dice Hall rooms: the browser transport for online rooms (no user-facing text here).
 *
 * Carries text messages between one host page and its guests' pages over WebRTC data channels,
 * with PeerJS (vendor/peerjs.min.js, loaded the first time a room is used, never at boot) and a
 * PeerJS broker for signalling. Who may do what is the Python room protocol's business
 * (pygame_core/rooms/); this file only moves strings. Python (Pyodide) calls it with plain strings:
 *
 *   diceHallRooms.load() -> Promise (resolves once PeerJS is loaded)
 *   diceHallRooms.host(optionsJson, onEvent) -> {send(connId, text), drop(connId), close()}
 *     onEvent("open", null, room) | ("connect", connId, null) | ("message", connId, text)
 *           | ("close", connId, null) | ("error", connId|null, code) | ("broker", null, "lost"|"back")
 *   diceHallRooms.peers(brokerJson) -> Promise<'{"status", "body"}'> (the broker's peer ids, if it lists them)
 *   diceHallRooms.join(optionsJson, onEvent) -> {send(text), close()}
 *     onEvent("open", null, null) (after every (re)connection) | ("message", null, text)
 *           | ("close", null, null) | ("error", null, code) (a code said again only after an open)
 *     It retries until close(): while the page is in sight at least every second (guestWait).
 *
 * optionsJson: {"room": id, "token": host token (host only), "broker": {host, port, path,
 * secure, key} or null (PeerJS's public broker), "iceServers": [...]}. iceServers is always
 * passed to PeerJS, so its built-in public TURN relay is never used.
 * Facts behind the choices: /work/shared/notes/p2p-rooms.md. The token is never logged.
 */
(function () {
  "use strict";
  if (window.diceHallRooms) return;

  const MAX_MESSAGE = 65536;        // a guest's message longer than this (UTF-16 units) is refused
  const BACKOFF_FIRST = 500;        // retry delays: 0.5 s doubling ...
  const BACKOFF_LAST = 30000;       // ... up to 30 s (a hidden guest page, and every host page)
  const VISIBLE_RETRY_MS = 1000;    // a guest page in sight waits at most this: see guestWait
  const STABLE_MS = 5000;           // a link open this long resets the guest's retry delay
  const PENDING_MS = 20000;         // a data connection not open after this is given up
  // PeerJS errors that no retry can mend (a guest's taken random id is mended by a new id).
  const FATAL = new Set(["browser-incompatible", "invalid-id", "invalid-key", "ssl-unavailable"]);
  // Resolved against this script's own address, so it works from any page path.
  const PEERJS_URL = new URL("vendor/peerjs.min.js",
    (document.currentScript && document.currentScript.src) || document.baseURI).href;

  // ------------------------------------------------------------------ loading PeerJS lazily
  let loading = null;

  function load() {
    if (window.peerjs && window.peerjs.Peer) return Promise.resolve();
    if (!loading) {
      loading = new Promise((resolve, reject) => {
        const script = document.createElement("script");
        const fail = (why) => {
          loading = null;  // a later call tries again (e.g. back online)
          script.remove();
          reject(new Error(`Dice Hall rooms: could not load ${PEERJS_URL} (${why})`));
        };
        script.src = PEERJS_URL;
        script.async = true;
        script.onload = () => (window.peerjs && window.peerjs.Peer ? resolve() : fail("no window.peerjs.Peer"));
        script.onerror = () => fail("network error or missing file");
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  // ------------------------------------------------------------------ helpers
  class Backoff {
    constructor() { this.reset(); }
    reset() { this.delay = BACKOFF_FIRST; }
    next() {
      const delay = this.delay;
      this.delay = Math.min(this.delay * 2, BACKOFF_LAST);
      return delay;
    }
  }

  function parseOptions(optionsJson) {
    const opts = typeof optionsJson === "string" ? JSON.parse(optionsJson) : optionsJson;
    if (!opts || typeof opts.room !== "string" || !opts.room) throw new Error("Dice Hall rooms: options need a room id");
    return opts;
  }

  // PeerJS's Peer options: the broker's address (or the library's defaults when null), the ICE
  // servers (always explicit), the host's token; no PeerJS logging (its log would show the token).
  function peerOptions(opts, token) {
    const out = { debug: 0, config: { iceServers: Array.isArray(opts.iceServers) ? opts.iceServers : [] } };
    const broker = opts.broker;
    if (broker && typeof broker === "object") {
      for (const key of ["host", "port", "path", "secure", "key"]) {
        if (broker[key] !== undefined && broker[key] !== null) out[key] = broker[key];
      }
    }
    if (token) out.token = String(token);
    return out;
  }

  function errorType(err) {
    return (err && typeof err.type === "string" && err.type) || "unknown";
  }

  // pagehide destroys the peer, so the other side gets "close" at once (a page that just
  // vanishes closes nothing: see the notes); pageshow from the back/forward cache starts again.
  function lifecycle(onHide, onShow) {
    const hide = () => onHide();
    const show = (event) => { if (event.persisted) onShow(); };
    window.addEventListener("pagehide", hide);
    window.addEventListener("pageshow", show);
    return () => {
      window.removeEventListener("pagehide", hide);
      window.removeEventListener("pageshow", show);
    };
  }

  // How long a guest waits before its next try, from its backoff. Ruling (issue 28: guests
  // stayed "connection lost" 10 s after the host came back): a page in sight tries at least
  // every VISIBLE_RETRY_MS, jittered to 0.6-1 times that so a room's guests do not all knock at
  // once; a try is one broker round trip, so a guest is back about a second after its host. A
  // hidden page backs off up to 30 s, and tries at once when shown again (join's `shown`).
  function guestWait(backoff) {
    const delay = backoff.next();
    if (document.hidden) return delay;
    return Math.round(Math.min(delay, VISIBLE_RETRY_MS) * (0.6 + 0.4 * Math.random()));
  }

  // Keep a peer registered with the broker: reconnect() with backoff after each loss (`wait`
  // turns the backoff into a delay: a guest's is guestWait). Data connections keep working
  // while the broker is away.
  function brokerRetry(getPeer, wait = (backoff) => backoff.next()) {
    const backoff = new Backoff();
    let timer = null;
    return {
      lost(peer) {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (getPeer() !== peer || peer.destroyed || !peer.disconnected) return;
          try { peer.reconnect(); } catch (err) { /* destroyed meanwhile: its close handler restarts */ }
        }, wait(backoff));
      },
      back() { clearTimeout(timer); backoff.reset(); },
      stop() { clearTimeout(timer); },
    };
  }

  // ------------------------------------------------------------------ host
  function host(optionsJson, onEvent) {
    const opts = parseOptions(optionsJson);
    const room = opts.room;
    let closed = false, hidden = false, fatal = false;
    let peer = null, brokerLost = false, restartTimer = null, nextId = 0;
    const conns = new Map();  // connId -> {conn, open, timer}
    const emit = window.diceHallEmitter("diceHallRooms", onEvent, () => closed);
    const broker = brokerRetry(() => peer);
    const restart = new Backoff();

    function start() {
      if (closed || hidden || fatal || peer) return;
      const p = new window.peerjs.Peer(room, peerOptions(opts, opts.token));
      let registered = false;
      peer = p;
      p.on("open", () => {
        if (peer !== p) return;
        broker.back();
        restart.reset();
        if (!registered) { registered = true; emit("open", null, room); }
        if (brokerLost) { brokerLost = false; emit("broker", null, "back"); }
      });
      p.on("disconnected", () => {
        if (peer !== p) return;
        if (!brokerLost) { brokerLost = true; emit("broker", null, "lost"); }
        if (!fatal) broker.lost(p);
      });
      p.on("error", (err) => {
        if (peer !== p) return;
        const type = errorType(err);
        if (type === "network" && brokerLost) return;  // each failed retry says it again
        if (FATAL.has(type) || type === "unavailable-id") fatal = true;  // another host holds the id
        emit("error", null, type);
      });
      p.on("close", () => {  // destroyed: by PeerJS when the first registration fails
        if (peer !== p) return;
        peer = null;
        broker.stop();
        if (!closed && !hidden && !fatal) restartTimer = setTimeout(start, restart.next());
      });
      p.on("connection", (conn) => (peer === p ? accept(conn) : conn.close()));
    }

    function accept(conn) {
      const connId = "c" + (++nextId);
      const entry = { conn, open: false, timer: null };
      entry.timer = setTimeout(() => { if (!entry.open) dropConn(connId); }, PENDING_MS);
      conns.set(connId, entry);
      conn.on("open", () => {
        // (once: PeerJS told one connection's "open" twice, 0.1 ms apart, in a CI run)
        if (conns.get(connId) !== entry || entry.open) return;
        entry.open = true;
        clearTimeout(entry.timer);
        emit("connect", connId, null);
      });
      conn.on("data", (data) => {
        if (conns.get(connId) !== entry || !entry.open) return;
        // Only text, and not too much of it, reaches Python: anything else ends the connection.
        if (typeof data !== "string" || data.length > MAX_MESSAGE) { dropConn(connId); return; }
        emit("message", connId, data);
      });
      conn.on("close", () => finish(connId, entry));
      conn.on("error", (err) => { if (conns.get(connId) === entry) emit("error", connId, errorType(err)); });
    }

    // A connection is over: forget it; Python hears "close" only for one it heard "connect" for.
    function finish(connId, entry) {
      if (conns.get(connId) !== entry) return;
      conns.delete(connId);
      clearTimeout(entry.timer);
      if (entry.open) emit("close", connId, null);
    }

    function dropConn(connId) {
      const entry = conns.get(connId);
      if (!entry) return;
      entry.conn.close();     // PeerJS emits its "close" (-> finish) when the channel was open
      finish(connId, entry);  // ... and when it was not, this does
    }

    function teardown() {
      clearTimeout(restartTimer);
      broker.stop();
      const p = peer;
      peer = null;  // first: this peer's own events are ignored from now on
      if (p) p.destroy();  // closes every connection: each gets its "close" event
      for (const [connId, entry] of conns) finish(connId, entry);
      brokerLost = false;
    }

    const unlisten = lifecycle(
      () => { hidden = true; teardown(); },
      () => { hidden = false; start(); });
    load().then(start, () => emit("error", null, "load-failed"));

    return {
      send(connId, text) {
        const entry = conns.get(String(connId));
        if (closed || !entry || !entry.open) return false;
        entry.conn.send(String(text));
        return true;
      },
      drop(connId) { dropConn(String(connId)); },
      close() {
        if (closed) return;
        closed = true;  // no event after this
        unlisten();
        teardown();
      },
    };
  }

  // ------------------------------------------------------------------ guest
  function randomPeerId() {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    return "dhg" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function join(optionsJson, onEvent) {
    const opts = parseOptions(optionsJson);
    const room = opts.room;
    let closed = false, hidden = false, fatal = false;
    let peer = null, brokerLost = false, restartTimer = null;
    let conn = null, connOpenedAt = 0, retryTimer = null, pendingTimer = null;
    let lastError = null;  // said once until the next open: retries every second say it again
    const emit = window.diceHallEmitter("diceHallRooms", onEvent, () => closed);
    const broker = brokerRetry(() => peer, guestWait);
    const restart = new Backoff();
    const retry = new Backoff();

    function start() {
      if (closed || hidden || fatal || peer) return;
      const p = new window.peerjs.Peer(randomPeerId(), peerOptions(opts, null));
      peer = p;
      p.on("open", () => {
        if (peer !== p) return;
        broker.back();
        restart.reset();
        brokerLost = false;
        connect();
      });
      p.on("disconnected", () => {
        if (peer !== p) return;
        brokerLost = true;
        broker.lost(p);
      });
      p.on("error", (err) => {
        if (peer !== p) return;
        const type = errorType(err);
        if (type === "network" && brokerLost) return;
        if (FATAL.has(type)) fatal = true;
        if (type !== lastError) emit("error", null, type);
        lastError = type;
        if (type === "peer-unavailable") giveUpPending();  // the host is not there (yet): retry later
        if (type === "unavailable-id" && !p.destroyed) p.destroy();  // our random id clashed: a new one
      });
      p.on("close", () => {
        if (peer !== p) return;
        peer = null;
        broker.stop();
        if (!closed && !hidden && !fatal) restartTimer = setTimeout(start, guestWait(restart));
      });
    }

    // One data connection to the host at a time; needs the broker (for signalling).
    function connect() {
      clearTimeout(retryTimer);
      retryTimer = null;
      if (closed || hidden || !peer || !peer.open || conn) return;
      // "raw": strings go over the data channel as they are ("json" refuses 16 300 bytes and more).
      const c = peer.connect(room, { reliable: true, serialization: "raw" });
      if (!c) return;
      conn = c;
      connOpenedAt = 0;
      pendingTimer = setTimeout(giveUpPending, PENDING_MS);
      c.on("open", () => {
        if (conn !== c) return;
        clearTimeout(pendingTimer);
        connOpenedAt = Date.now();
        lastError = null;
        emit("open", null, null);
      });
      c.on("data", (data) => {
        if (conn === c && connOpenedAt && typeof data === "string") emit("message", null, data);
      });
      c.on("close", () => connClosed(c));
      c.on("error", (err) => { if (conn === c) emit("error", null, errorType(err)); });
    }

    function connClosed(c) {
      if (conn !== c) return;
      conn = null;
      clearTimeout(pendingTimer);
      if (connOpenedAt) {
        // A link that lasted resets the delay; a host that keeps closing us sees it grow.
        if (Date.now() - connOpenedAt >= STABLE_MS) retry.reset();
        connOpenedAt = 0;
        emit("close", null, null);
      }
      if (!closed && !hidden && !fatal) retryTimer = setTimeout(connect, guestWait(retry));
    }

    // The page is in sight again: a try now, not after the long wait of a hidden page.
    function shown() {
      if (document.hidden || closed || hidden || fatal) return;
      if (retryTimer !== null && !conn) { retry.reset(); connect(); }
      if (!peer && restartTimer !== null) { clearTimeout(restartTimer); restartTimer = null; restart.reset(); start(); }
      if (peer && brokerLost) { broker.back(); broker.lost(peer); }
    }

    function giveUpPending() {
      const c = conn;
      if (!c || connOpenedAt) return;
      c.close();
      connClosed(c);
    }

    function teardown() {
      clearTimeout(restartTimer);
      clearTimeout(retryTimer);
      broker.stop();
      const p = peer;
      peer = null;
      if (p) p.destroy();  // closes the data connection: the host hears it at once
      if (conn) connClosed(conn);
      clearTimeout(retryTimer);
      brokerLost = false;
    }

    const unlisten = lifecycle(
      () => { hidden = true; teardown(); },
      () => { hidden = false; retry.reset(); start(); });
    document.addEventListener("visibilitychange", shown);
    load().then(start, () => emit("error", null, "load-failed"));

    return {
      send(text) {
        if (closed || !conn || !connOpenedAt) return false;
        conn.send(String(text));
        return true;
      },
      close() {
        if (closed) return;
        closed = true;  // no event after this, no more retries
        unlisten();
        document.removeEventListener("visibilitychange", shown);
        teardown();
      },
    };
  }

  // ------------------------------------------------------------------ discovery
  // The ids a meeting server holds: GET <path><key>/peers, which a PeerServer answers only when
  // started with --allow_discovery (else 401). Resolves to JSON text {"status", "body"}: the
  // HTTP status (0: not reached within PEERS_MS) and at most PEERS_MAX characters of the body.
  // Python (web/dicehall/roomlist.py) reads it; no PeerJS is loaded for this.
  const PEERS_MS = 8000;
  const PEERS_MAX = 400000;

  async function peers(brokerJson) {
    const b = JSON.parse(brokerJson);
    const path = String(b.path || "/");
    const url = `${b.secure ? "https" : "http"}://${b.host}:${Number(b.port)}${path}${path.endsWith("/") ? "" : "/"}`
      + `${encodeURIComponent(b.key || "peerjs")}/peers`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), PEERS_MS);
    try {
      const r = await fetch(url, { cache: "no-store", credentials: "omit", signal: abort.signal });
      const body = r.ok ? (await r.text()).slice(0, PEERS_MAX + 1) : "";
      return JSON.stringify({ status: r.status, body });
    } catch (err) {
      return JSON.stringify({ status: 0, body: "" });
    } finally {
      clearTimeout(timer);
    }
  }

  window.diceHallRooms = Object.freeze({ load, host, join, peers });
})();
