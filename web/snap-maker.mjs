/* Dice Hall boot snapshot maker: a module worker started by snap-loader.mjs on a visit with no
 * snapshot (the first), so that the page's thread never boots Python plainly.
 *
 * It makes the snapshot (snap-make.mjs) under the key it was given as its worker name, and
 * posts what the page restores from as soon as it has it: the compiled wasm ({wasm: module}),
 * then the interpreter's memory ({bytes}, moved); then "stored" once the snapshot is in Cache
 * Storage — or, at any step, the reason it could not.
 */
import { countedResponse } from "./snap-loader.mjs";
import { makeSnapshot } from "./snap-make.mjs";

// The standard library (2.5 MB, fetched by Pyodide) is counted as it arrives, like the wasm:
// together they are most of a first visit's wait on a phone's network.
const baseFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const response = await baseFetch(input, init);
  return String(input && input.url || input).endsWith("/python_stdlib.zip") ? countedResponse("python_stdlib.zip", response) : response;
};

makeSnapshot(self.name, {
  onWasm: (module) => self.postMessage({ wasm: module }), // the page restores with it (no second compile)
  onBytes: (bytes) => self.postMessage({ bytes }, [bytes.buffer]), // the page restores from them now
}).then(() => self.postMessage("stored"), (err) => self.postMessage(String(err && err.message || err)));
