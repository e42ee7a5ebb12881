/* Dice Hall direct links: an online room without any server (no user-facing text here).
 *
 * For phones on the same network: the host makes an *invitation* (a WebRTC offer), the guest
 * opens it as a link or a QR code and makes an *answer*, the host enters the answer, and a data
 * channel opens between the two. No broker, no trickle ICE: each side waits until its candidates
 * are gathered (at most GATHER_MS, see the notes) and sends them all in one compact code. The
 * codes keep only what the other side cannot guess (ICE user fragment and password, the DTLS
 * fingerprint, the UDP candidates) and are rebuilt into a fixed data-channel-only SDP, so an
 * invitation is about 100–300 characters: a short link, a small QR code. Facts behind this:
 * /work/shared/notes/p2p-rooms.md section 3.
 *
 * Same events as web/rooms.js (both report through web/transport-events.js), so the Python room
 * sessions do not care which one they ride on:
 *
 *   diceHallDirect.host(optionsJson, onEvent) -> {send(connId, text), drop(connId), close(),
 *                                                invite(inviteId), accept(inviteId, answerCode)}
 *     onEvent("open", null, room) at once | ("invite", inviteId, '{"code":…,"qr":{…}}')
 *           | ("connect", inviteId, null) | ("message", inviteId, text) | ("close", inviteId, null)
 *           | ("error", inviteId, "invite-failed" | "no-candidates" | "bad-answer" | "failed")
 *   diceHallDirect.join(optionsJson, onEvent) -> {send(text), close()}   (options: offer code)
 *     onEvent("answer", null, '{"code":…,"qr":{…}}') | ("open", null, null) | ("message", null, text)
 *           | ("close", null, null) | ("error", null, "bad-offer" | "no-candidates" | "failed")
 *   diceHallDirect.qr(text) -> Promise of '{"size":…,"d":…}' or 'null' (the QR code of a link)
 *   diceHallDirect.canScan() -> whether a camera may be asked for (getUserMedia, workers)
 *   diceHallDirect.scan(optionsJson, onEvent) -> {stop()}   (options: the <video>'s selector)
 *     onEvent("scanned", null, text) | ("error", null, "denied" | "no-camera" | "failed")
 *
 * A direct link cannot come back by itself once it closes (there is nobody to carry a new offer):
 * the host makes a new invitation; an admitted guest's seat secret still brings them back to
 * their seat without asking again.
 *
 * Codes: fields joined by "~"; ICE characters "+" and "/" travel as "-" and "_" so a code sits in
 * a URL path segment unchanged.
 *   invitation  o1~<invite id>~<ufrag>~<pwd>~<fingerprint, base64url>~<candidates>
 *   answer      a1~<invite id>~<ufrag>~<pwd>~<fingerprint, base64url>~<candidates>
 *   candidates  "<h|s|r><address>,<port>" joined by ";" (host, server-reflexive, relay; UDP only)
 * The room id travels next to the invitation in the link (#/join/<room>/<invitation>).
 */
(function () {
  "use strict";
  if (window.diceHallDirect) return;

  const MAX_MESSAGE = 65536;     // a message longer than this (UTF-16 units) ends the link
  const GATHER_MS = 3000;        // an unreachable STUN server would hold gathering for ~40 s
  const MAX_CANDIDATES = 6;      // keeps a code short enough for a small QR code
  const MAX_CODE = 1000;
  const PENDING_MS = 10 * 60 * 1000;  // an invitation nobody answers is given up
  const HERE = (document.currentScript && document.currentScript.src) || document.baseURI;
  const QR_URL = new URL("vendor/qrcode.js", HERE).href;
  const SCAN_WORKER_URL = new URL("qr-scan-worker.js", HERE).href;
  const SCAN_MS = 150;           // between two frames read (one at a time)
  const SCAN_SIDE = 640;         // a frame's longer side, at most, in pixels
  const TYPES = { host: "h", srflx: "s", relay: "r" };
  const TYPE_NAMES = { h: "host", s: "srflx", r: "relay" };
  const CODE_RE = /^([oa])1~([a-z0-9]{4,16})~([A-Za-z0-9_-]{4,64})~([A-Za-z0-9_-]{22,256})~([A-Za-z0-9_-]{43})~([hsr][0-9A-Za-z.:-]{1,80},[0-9]{1,5}(?:;[hsr][0-9A-Za-z.:-]{1,80},[0-9]{1,5}){0,7})$/;

  // ------------------------------------------------------------------ QR codes (lazy)
  let qrLoading = null;

  function loadQr() {
    if (typeof window.qrcode === "function") return Promise.resolve();
    if (!qrLoading) {
      qrLoading = new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = QR_URL;
        script.async = true;
        script.onload = () => (typeof window.qrcode === "function" ? resolve() : reject(new Error("no qrcode")));
        script.onerror = () => { qrLoading = null; script.remove(); reject(new Error("could not load " + QR_URL)); };
        document.head.appendChild(script);
      });
    }
    return qrLoading;
  }

  // A QR code of `text` as the size in modules and one SVG path of its dark modules (Python
  // draws the <svg>); null when the QR library cannot be loaded (the link is still there).
  async function qrOf(text) {
    try {
      await loadQr();
      const qr = window.qrcode(0, "M");  // type 0: the smallest version that fits
      qr.addData(text, "Byte");
      qr.make();
      const n = qr.getModuleCount();
      let d = "";
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c} ${r}h1v1h-1z`;
      }
      return { size: n, d };
    } catch (err) {
      console.error("diceHallDirect: no QR code:", err);
      return null;
    }
  }

  // ------------------------------------------------------------------ compact codes
  const toCode = (s) => s.replace(/\+/g, "-").replace(/\//g, "_");
  const fromCode = (s) => s.replace(/-/g, "+").replace(/_/g, "/");

  function b64url(bytes) {
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function unb64url(text) {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
    return Array.from(bin, (ch) => ch.charCodeAt(0));
  }

  // The parts of a local description that the other side needs, as a code.
  function encode(kind, inviteId, sdp) {
    const line = (prefix) => {
      const found = sdp.split(/\r?\n/).find((l) => l.startsWith(prefix));
      return found ? found.slice(prefix.length).trim() : null;
    };
    const ufrag = line("a=ice-ufrag:"), pwd = line("a=ice-pwd:"), fp = line("a=fingerprint:sha-256 ");
    if (!ufrag || !pwd || !fp) throw new Error("incomplete local description");
    const candidates = [];
    for (const l of sdp.split(/\r?\n/)) {
      // a=candidate:<foundation> <component> <protocol> <priority> <address> <port> typ <type> …
      const m = /^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ (host|srflx|relay)\b/i.exec(l);
      if (m && candidates.length < MAX_CANDIDATES) candidates.push(TYPES[m[3]] + m[1] + "," + m[2]);
    }
    if (!candidates.length) return null;
    const fingerprint = b64url(fp.split(":").map((h) => parseInt(h, 16)));
    return [kind + "1", inviteId, toCode(ufrag), toCode(pwd), fingerprint, candidates.join(";")].join("~");
  }

  function decode(code, kind) {
    const m = typeof code === "string" && code.length <= MAX_CODE ? CODE_RE.exec(code.trim()) : null;
    if (!m || m[1] !== kind) return null;
    return { invite: m[2], ufrag: fromCode(m[3]), pwd: fromCode(m[4]), fingerprint: unb64url(m[5]),
      candidates: m[6].split(";").map((c) => {
        const [address, port] = c.slice(1).split(",");
        return { type: TYPE_NAMES[c[0]], address, port: Number(port) };
      }) };
  }

  // A data-channel-only session description from a decoded code: every side's SDP looks like
  // this apart from the parts the code carries (checked against Chromium's own in the tests).
  function describe(parts, type) {
    const hex = parts.fingerprint.map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(":");
    const lines = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
      "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"];
    parts.candidates.forEach((c, i) => {
      const priority = (c.type === "host" ? 2122260223 : c.type === "srflx" ? 1686052607 : 41885439) - i;
      const related = c.type === "host" ? "" : " raddr 0.0.0.0 rport 0";
      lines.push(`a=candidate:${i + 1} 1 udp ${priority} ${c.address} ${c.port} typ ${c.type}${related}`);
    });
    lines.push(`a=ice-ufrag:${parts.ufrag}`, `a=ice-pwd:${parts.pwd}`, `a=fingerprint:sha-256 ${hex}`,
      `a=setup:${type === "offer" ? "actpass" : "active"}`, "a=mid:0", "a=sctp-port:5000",
      "a=max-message-size:262144");
    return { type, sdp: lines.join("\r\n") + "\r\n" };
  }

  // ------------------------------------------------------------------ one peer connection
  function gathered(pc) {
    return new Promise((resolve) => {
      if (pc.iceGatheringState === "complete") { resolve(); return; }
      const timer = setTimeout(resolve, GATHER_MS);  // what was found so far is in localDescription
      pc.addEventListener("icegatheringstatechange", () => {
        if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
      });
    });
  }

  // Both sides create the same negotiated channel: no "datachannel" event to wait for.
  function channel(opts) {
    const pc = new RTCPeerConnection({ iceServers: Array.isArray(opts.iceServers) ? opts.iceServers : [] });
    const dc = pc.createDataChannel("dicehall", { negotiated: true, id: 0, ordered: true });
    return { pc, dc };
  }

  async function localCode(pc, kind, inviteId) {
    await pc.setLocalDescription(kind === "o" ? await pc.createOffer() : await pc.createAnswer());
    await gathered(pc);
    const code = encode(kind, inviteId, pc.localDescription.sdp);
    if (!code) return null;
    return { code, qr: null };
  }

  function parseOptions(optionsJson) {
    const opts = typeof optionsJson === "string" ? JSON.parse(optionsJson) : optionsJson;
    if (!opts || typeof opts.room !== "string" || !opts.room) throw new Error("Dice Hall direct: options need a room id");
    return opts;
  }

  // ------------------------------------------------------------------ host
  function host(optionsJson, onEvent) {
    const opts = parseOptions(optionsJson);
    let closed = false;
    const links = new Map();  // inviteId -> {pc, dc, open, timer}
    const emit = window.diceHallEmitter("diceHallDirect", onEvent, () => closed);

    function finish(id, entry) {
      if (links.get(id) !== entry) return;
      links.delete(id);
      clearTimeout(entry.timer);
      try { entry.pc.close(); } catch (err) { /* already closed */ }
      if (entry.open) emit("close", id, null);
    }

    function watch(id, entry) {
      entry.dc.onopen = () => {
        if (links.get(id) !== entry) return;
        entry.open = true;
        clearTimeout(entry.timer);
        emit("connect", id, null);
      };
      entry.dc.onmessage = (event) => {
        if (links.get(id) !== entry || !entry.open) return;
        if (typeof event.data !== "string" || event.data.length > MAX_MESSAGE) { finish(id, entry); return; }
        emit("message", id, event.data);
      };
      entry.dc.onclose = () => finish(id, entry);
      entry.pc.onconnectionstatechange = () => {
        const state = entry.pc.connectionState;
        if (state === "failed" || state === "closed") {
          if (!entry.open && links.get(id) === entry) emit("error", id, "failed");
          finish(id, entry);
        }
      };
    }

    setTimeout(() => emit("open", null, opts.room), 0);
    const onHide = () => { for (const [id, entry] of links) finish(id, entry); };
    window.addEventListener("pagehide", onHide);

    return {
      send(connId, text) {
        const entry = links.get(String(connId));
        if (closed || !entry || !entry.open || entry.dc.readyState !== "open") return false;
        entry.dc.send(String(text));
        return true;
      },
      drop(connId) {
        const entry = links.get(String(connId));
        if (entry) finish(String(connId), entry);
      },
      close() {
        if (closed) return;
        for (const [id, entry] of links) finish(id, entry);
        closed = true;
        window.removeEventListener("pagehide", onHide);
      },
      invite(inviteId) {
        const id = String(inviteId);
        if (closed || links.has(id)) return;
        const entry = { ...channel(opts), open: false, timer: null };
        entry.timer = setTimeout(() => finish(id, entry), PENDING_MS);
        links.set(id, entry);
        watch(id, entry);
        localCode(entry.pc, "o", id).then(async (made) => {
          if (links.get(id) !== entry) return;
          if (!made) { emit("error", id, "no-candidates"); finish(id, entry); return; }
          made.qr = await qrOf(made.code);
          emit("invite", id, JSON.stringify(made));
        }, (err) => {
          console.error("diceHallDirect: no invitation:", err);
          emit("error", id, "invite-failed");
          finish(id, entry);
        });
      },
      accept(inviteId, answerCode) {
        const id = String(inviteId);
        const entry = links.get(id);
        const parts = decode(String(answerCode), "a");
        if (!entry || entry.open || !parts || parts.invite !== id || entry.pc.signalingState !== "have-local-offer") {
          emit("error", id, "bad-answer");
          return;
        }
        entry.pc.setRemoteDescription(describe(parts, "answer")).catch((err) => {
          console.error("diceHallDirect: answer refused:", err);
          emit("error", id, "bad-answer");
        });
      },
    };
  }

  // ------------------------------------------------------------------ guest
  function join(optionsJson, onEvent) {
    const opts = parseOptions(optionsJson);
    let closed = false, open = false;
    const emit = window.diceHallEmitter("diceHallDirect", onEvent, () => closed);
    const parts = decode(String(opts.offer || ""), "o");
    let link = null;

    function end() {
      if (!link) return;
      const { pc } = link;
      link = null;
      try { pc.close(); } catch (err) { /* already closed */ }
      if (open) { open = false; emit("close", null, null); }
    }

    if (!parts) {
      setTimeout(() => emit("error", null, "bad-offer"), 0);
    } else {
      link = channel(opts);
      const { pc, dc } = link;
      dc.onopen = () => { if (link && link.dc === dc) { open = true; emit("open", null, null); } };
      dc.onmessage = (event) => {
        if (!open || typeof event.data !== "string" || event.data.length > MAX_MESSAGE) return;
        emit("message", null, event.data);
      };
      dc.onclose = () => { if (link && link.dc === dc) end(); };
      pc.onconnectionstatechange = () => {
        if (pc.connectionState !== "failed" && pc.connectionState !== "closed") return;
        if (!open && link && link.pc === pc) emit("error", null, "failed");
        if (link && link.pc === pc) end();
      };
      pc.setRemoteDescription(describe(parts, "offer"))
        .then(() => localCode(pc, "a", parts.invite))
        .then(async (made) => {
          if (!link || link.pc !== pc) return;
          if (!made) { emit("error", null, "no-candidates"); end(); return; }
          made.qr = await qrOf(made.code);
          emit("answer", null, JSON.stringify(made));
        }, (err) => {
          console.error("diceHallDirect: no answer:", err);
          emit("error", null, "bad-offer");
          end();
        });
    }
    const onHide = () => end();
    window.addEventListener("pagehide", onHide);

    return {
      send(text) {
        if (closed || !open || !link || link.dc.readyState !== "open") return false;
        link.dc.send(String(text));
        return true;
      },
      close() {
        if (closed) return;
        closed = true;
        window.removeEventListener("pagehide", onHide);
        end();
      },
    };
  }

  // qr(text) -> Promise of '{"size":…,"d":…}' or "null": the QR code of any text (a room's link).
  const qr = async (text) => JSON.stringify(await qrOf(String(text)));

  // ------------------------------------------------------------------ scanning a QR code
  // The host reads the guest's answer with the camera: the guest's phone shows it as a QR code,
  // and typing 100-300 characters from one phone into another is no way to start a game.
  function canScan() {
    return !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia && typeof Worker === "function");
  }

  // scan(optionsJson, onEvent) -> {stop()}: the camera (the back one if there is one) into the
  // <video> options.video (a selector); frames go to web/qr-scan-worker.js one at a time, at most
  // every SCAN_MS, scaled to at most SCAN_SIDE pixels, so this thread only draws a small frame.
  //   onEvent("scanned", null, text) for each new text read
  //         | ("error", null, "denied" | "no-camera" | "failed"), after which it has stopped.
  function scan(optionsJson, onEvent) {
    const opts = JSON.parse(optionsJson);
    let stopped = false, stream = null, worker = null, timer = null, last = null;
    const emit = window.diceHallEmitter("diceHallDirect", onEvent, () => stopped);
    const video = document.querySelector(String(opts.video));
    function stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      if (stream) stream.getTracks().forEach((track) => track.stop());
      if (worker) worker.terminate();
      if (video) video.srcObject = null;
    }
    function fail(kind) {
      emit("error", null, kind);
      stop();
    }
    async function start() {
      if (!video || !canScan()) { fail("no-camera"); return; }
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
      } catch (err) {
        const name = err && err.name;
        fail(name === "NotAllowedError" || name === "SecurityError" ? "denied" : "no-camera");
        return;
      }
      if (stopped) { stream.getTracks().forEach((track) => track.stop()); return; }
      video.muted = true;
      video.setAttribute("playsinline", "");
      video.srcObject = stream;
      try {
        await video.play();
      } catch (err) {
        fail("failed");
        return;
      }
      worker = new Worker(SCAN_WORKER_URL);
      worker.onerror = () => fail("failed"); // e.g. jsQR could not be loaded
      const canvas = document.createElement("canvas");
      const context = canvas.getContext("2d", { willReadFrequently: true });
      const later = () => { if (!stopped) timer = setTimeout(grab, SCAN_MS); };
      function grab() {
        if (stopped) return;
        const w = video.videoWidth, h = video.videoHeight;
        if (!w || !h) { later(); return; }
        const scale = Math.min(1, SCAN_SIDE / Math.max(w, h));
        canvas.width = Math.round(w * scale);
        canvas.height = Math.round(h * scale);
        context.drawImage(video, 0, 0, canvas.width, canvas.height);
        const image = context.getImageData(0, 0, canvas.width, canvas.height);
        worker.postMessage({ width: image.width, height: image.height, data: image.data.buffer }, [image.data.buffer]);
      }
      worker.onmessage = (event) => {
        const text = event.data;
        if (typeof text === "string" && text && text !== last) {
          last = text;
          emit("scanned", null, text);
        }
        later();
      };
      grab();
    }
    Promise.resolve().then(start); // events only once the caller holds the scan
    return { stop };
  }

  window.diceHallDirect = Object.freeze({ host, join, qr, canScan, scan, encode, decode, describe });
})();
