// The shared half of the bench/*_pyodide.mjs runners: boot Pyodide (npm `pyodide`) in Node,
// mount the repo at /repo (NODEFS), put it and bench/ on sys.path, set the given globals, run
// Python whose last expression is a JSON text, and print that object with the runtime and the
// boot time added. Pyodide in Node runs the same WebAssembly CPython as the browser's worker.
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export async function measureInPyodide(globals, code) {
  try {
    const t0 = Date.now();
    const py = await loadPyodide();
    const bootMs = Date.now() - t0;
    py.FS.mkdirTree("/repo");
    py.FS.mount(py.FS.filesystems.NODEFS, { root: REPO }, "/repo");
    for (const [name, value] of Object.entries(globals)) py.globals.set(name, value);
    const out = py.runPython(
      "import json, sys\nsys.dont_write_bytecode = True\n"
      + "sys.path.insert(0, '/repo')\nsys.path.insert(0, '/repo/bench')\n" + code);
    const result = JSON.parse(out);
    result.runtime = "pyodide-node";
    result.pyodide_boot_ms = bootMs;
    console.log(JSON.stringify(result));
  } catch (err) {
    console.error("pyodide bench failed:", err);
    process.exit(3);
  }
}
