// Cephalopod AI benchmark under Pyodide (npm `pyodide`) in Node: the same measurement as
// bench/cephalopod_ai.py (it imports `measure` from it), printing one JSON object.
//
//   node bench/cephalopod_ai_pyodide.mjs [positions] [seed] [nodes] [seconds]
//
// The repo is mounted with NODEFS at /repo. Pyodide is 3-5x slower than CPython: with the
// shipped budget Hard stops on its time cap there, which is what the browser sees too.
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

async function main() {
  const [positions = "40", seed = "1", nodes = "", seconds = ""] = process.argv.slice(2);
  const t0 = Date.now();
  const py = await loadPyodide();
  const bootMs = Date.now() - t0;
  py.FS.mkdirTree("/repo");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: REPO }, "/repo");
  py.globals.set("POSITIONS", Number(positions));
  py.globals.set("SEED", Number(seed));
  py.globals.set("NODES", nodes ? Number(nodes) : null);
  py.globals.set("SECONDS", seconds ? Number(seconds) : null);
  const out = py.runPython(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
sys.path.insert(0, "/repo/bench")
import cephalopod_ai
from pygame_core.games.cephalopod import ai
result = cephalopod_ai.measure(POSITIONS, SEED, NODES or ai.HARD_NODES, SECONDS or ai.HARD_SECONDS)
json.dumps(result)
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
