// Penta advisor benchmark under Pyodide in Node: the same measurement as bench/penta_advisor.py
// (it imports `measure` from it), printing one JSON object (see pyodide_measure.mjs).
//
//   node bench/penta_advisor_pyodide.mjs [positions] [seed]
//
// The table is handed to `load_table` as bytes read by JavaScript (as the browser front end does
// after fetching ./data/penta/values.bin).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, measureInPyodide } from "./pyodide_measure.mjs";

const [positions = "300", seed = "1"] = process.argv.slice(2);
const table = readFileSync(join(REPO, "pygame_core", "games", "penta", "data", "values.bin"));
await measureInPyodide({
  TABLE_BYTES: new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
  POSITIONS: Number(positions), SEED: Number(seed),
}, `
import penta_advisor
json.dumps(penta_advisor.measure(POSITIONS, SEED, TABLE_BYTES.to_bytes()))
`);
