// Cephalopod review benchmark under Pyodide in Node: the same measurement as
// bench/cephalopod_review.py (it imports `measure` from it), printing one JSON object.
//
//   node bench/cephalopod_review_pyodide.mjs [games] [seed] [capped: 0|1] [levels: medium,medium]
//
// Pyodide in Node runs the same WebAssembly CPython as the browser's AI worker.
import { measureInPyodide } from "./pyodide_measure.mjs";

const [games = "2", seed = "1", capped = "1", levels = "medium,medium"] = process.argv.slice(2);
await measureInPyodide({ GAMES: Number(games), SEED: Number(seed), CAPPED: capped === "1", LEVELS: levels }, `
import cephalopod_review
json.dumps(cephalopod_review.measure(GAMES, SEED, None, CAPPED, LEVELS))
`);
