// Rolf AI benchmark under Pyodide in Node: the same measurement as bench/rolf_decisions.py (it
// imports `measure` from it), printing one JSON object (see pyodide_measure.mjs): what the AI
// worker spends per decision.
//
//   node bench/rolf_decisions_pyodide.mjs [positions] [seed] [levels]
import { measureInPyodide } from "./pyodide_measure.mjs";

const [positions = "100", seed = "1", levels = "random,greedy,easy,medium,hard"] = process.argv.slice(2);
await measureInPyodide({ POSITIONS: Number(positions), SEED: Number(seed), LEVELS: levels }, `
import rolf_decisions
json.dumps(rolf_decisions.measure(POSITIONS, SEED, LEVELS.split(",")))
`);
