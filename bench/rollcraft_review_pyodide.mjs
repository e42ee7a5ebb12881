// RollCraft T8's review under Pyodide in Node: bench/rollcraft_review.py's `measure` (typical
// 2-player games, medium and hard seats), one JSON object (see pyodide_measure.mjs).
//
//   node bench/rollcraft_review_pyodide.mjs [games]
import { measureInPyodide } from "./pyodide_measure.mjs";

const games = Number(process.argv[2] || 5);
await measureInPyodide({ GAMES: games }, `
import rollcraft_review
json.dumps(rollcraft_review.measure(GAMES, 0))
`);
