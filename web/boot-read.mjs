/* index.html's early work on a return visit, off the page's thread (a module worker):
 * - the runtime's wasm compiled (V8 reads its code cache for it: on the page's thread that took
 *   ~0.7 s of tasks, traced at CPU x4, and held back the loader module), posted as {module};
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
