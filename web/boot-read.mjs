/* index.html's early work on a return visit, off the page's thread (a module worker):
 * - the runtime's wasm compiled (on the page's thread that took ~0.7 s of tasks, traced at CPU
 *   x4, and held back the loader module), posted as {module}. It is fetched, so that the
 *   service worker answers it: V8 then reads its code cache for it, and writes one, through this
 *   worker (which index.html therefore never terminates) a second or more after the compile,
 *   once the page has run enough of it. A response taken from Cache Storage here (caches.match)
 *   got no code cache at all, written or read (traced: Chromium 156);
 * - the boot snapshot read from Cache Storage, its digest checked and its zero blocks put back,
 *   posted as {snapshot} with both arrays moved, not copied. On the page's thread the unpacking
 *   and the digest had been ~0.8 s of one task before the restore (traced, CPU x4, loaded
 *   machine); here they run beside the page's own work.
 * snap-loader.mjs takes both (diceHallEarlyWasm, diceHallEarlySnapshot) and does either itself
 * when this worker could not: a failure here is never more than a slower boot. */
import { readStored } from "./snap-pack.mjs";

WebAssembly.compileStreaming(fetch("./pyodide.asm.wasm")).then(
  (module) => postMessage({ module }),
  (err) => postMessage({ error: String((err && err.message) || err) }));

// The page waits for this answer: every way out posts one.
readStored().then(
  (read) => {
    if (!read) { postMessage({ snapshot: null }); return; }
    postMessage({ snapshot: read }, read.bytes ? [read.packed.buffer, read.bytes.buffer] : [read.packed.buffer]);
  }).catch(() => postMessage({ snapshot: null }));
