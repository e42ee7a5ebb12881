// Geek Out! Masters' review under Pyodide in Node: bench/geekout_review.py's `measure` (typical
// 3-player games, each reviewed from a cold win-probability model), one JSON object (see
// pyodide_measure.mjs).
//
//   node bench/geekout_review_pyodide.mjs [games]
import { measureInPyodide } from "./pyodide_measure.mjs";

const games = Number(process.argv[2] || 5);
await measureInPyodide({ GAMES: games }, `
import geekout_review
json.dumps(geekout_review.measure(GAMES, 0))
`);
