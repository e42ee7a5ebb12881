// Penta advisor benchmark under Pyodide (npm `pyodide`) in Node: the same measurement as
// bench/penta_advisor.py (it imports `measure` from it), printing one JSON object.
//
//   node bench/penta_advisor_pyodide.mjs [positions] [seed]
//
// The repo is mounted with NODEFS at /repo. The table is handed to `load_table` as bytes read
// by JavaScript (as the browser front end does after fetching ./data/penta/values.bin).
import { loadPyodide } from "pyodide";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

async function main() {
  const [positions = "300", seed = "1"] = process.argv.slice(2);
  const t0 = Date.now();
  const py = await loadPyodide();
  const bootMs = Date.now() - t0;
  py.FS.mkdirTree("/repo");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: REPO }, "/repo");
  const table = readFileSync(join(REPO, "pygame_core", "games", "penta", "data", "values.bin"));
  py.globals.set("TABLE_BYTES", new Uint8Array(table.buffer, table.byteOffset, table.byteLength));
  py.globals.set("POSITIONS", Number(positions));
  py.globals.set("SEED", Number(seed));
  const out = py.runPython(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
sys.path.insert(0, "/repo/bench")
import penta_advisor
result = penta_advisor.measure(POSITIONS, SEED, TABLE_BYTES.to_bytes())
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
