// Rolf AI benchmark under Pyodide (npm `pyodide`) in Node: the same measurement as
// bench/rolf_decisions.py (it imports `measure` from it), printing one JSON object.
//
//   node bench/rolf_decisions_pyodide.mjs [positions] [seed] [levels]
//
// The repo is mounted with NODEFS at /repo. Pyodide in Node runs the same WebAssembly CPython as
// the browser's worker, so these timings are what the AI worker spends per decision.
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

async function main() {
  const [positions = "100", seed = "1", levels = "random,greedy,easy,medium,hard"] = process.argv.slice(2);
  const t0 = Date.now();
  const py = await loadPyodide();
  const bootMs = Date.now() - t0;
  py.FS.mkdirTree("/repo");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: REPO }, "/repo");
  py.globals.set("POSITIONS", Number(positions));
  py.globals.set("SEED", Number(seed));
  py.globals.set("LEVELS", levels);
  const out = py.runPython(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
sys.path.insert(0, "/repo/bench")
import rolf_decisions
json.dumps(rolf_decisions.measure(POSITIONS, SEED, LEVELS.split(",")))
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
