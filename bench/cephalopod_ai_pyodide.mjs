// Cephalopod AI benchmark under Pyodide in Node: the same measurement as bench/cephalopod_ai.py
// (it imports `measure` from it), printing one JSON object (see pyodide_measure.mjs).
//
//   node bench/cephalopod_ai_pyodide.mjs [positions] [seed] [nodes] [seconds]
//
// Pyodide is 3-5x slower than CPython: with the shipped budget Hard stops on its time cap
// there, which is what the browser sees too.
import { measureInPyodide } from "./pyodide_measure.mjs";

const [positions = "40", seed = "1", nodes = "", seconds = ""] = process.argv.slice(2);
await measureInPyodide({
  POSITIONS: Number(positions), SEED: Number(seed),
  NODES: nodes ? Number(nodes) : null, SECONDS: seconds ? Number(seconds) : null,
}, `
import cephalopod_ai
from pygame_core.games.cephalopod import ai
json.dumps(cephalopod_ai.measure(POSITIONS, SEED, NODES or ai.HARD_NODES, SECONDS or ai.HARD_SECONDS))
`);
