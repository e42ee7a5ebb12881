// Geek Out! Masters' policy under Pyodide (npm `pyodide`) in Node: bench/geekout_policy.py's
// `measure` (table load, the first AI decision of a game, optionally the full build).
//
//   node bench/geekout_policy_pyodide.mjs [--build]
//
// The repo is mounted with NODEFS at /repo; Pyodide in Node runs the same WebAssembly CPython as
// the browser's worker.
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

async function main() {
  const build = process.argv.includes("--build");
  const t0 = Date.now();
  const py = await loadPyodide();
  const bootMs = Date.now() - t0;
  py.FS.mkdirTree("/repo");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: REPO }, "/repo");
  py.globals.set("BUILD", build);
  const out = py.runPython(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
sys.path.insert(0, "/repo/bench")
import geekout_policy
json.dumps(geekout_policy.measure(BUILD, 0, 1, 0 if BUILD else 4))
`);
  const result = JSON.parse(out);
  result.runtime = "pyodide-node";
  result.pyodide_boot_ms = bootMs;
  console.log(JSON.stringify(result));
}

main().catch((err) => {
  console.error("pyodide bench failed:", err);
  process.exit(3);
});
