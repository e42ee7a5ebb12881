/* Dice Hall: reads a QR code in camera frames for web/direct.js (`scan`), off the page's thread.
 *
 * In: {width, height, data} (an ImageData's RGBA bytes, moved). Out: the text read, or null.
 * jsQR (vendor/jsqr.js, from npm) is loaded with the worker, the first time a code is scanned.
 * A frame of 640×480 takes it tens of milliseconds on a phone: too long for the page's thread.
 */
"use strict";
importScripts("vendor/jsqr.js");

const MAX_TEXT = 4096; // longer than any code or link Dice Hall makes

self.onmessage = (event) => {
  const { width, height, data } = event.data || {};
  let text = null;
  try {
    const found = self.jsQR(new Uint8ClampedArray(data), width, height, { inversionAttempts: "attemptBoth" });
    if (found && typeof found.data === "string" && found.data.length <= MAX_TEXT) text = found.data;
  } catch (err) {
    text = null; // an unreadable frame: the next one is tried
  }
  self.postMessage(text);
};
