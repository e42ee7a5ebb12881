// Geek Out! Masters' policy under Pyodide in Node: bench/geekout_policy.py's `measure` (table
// load, the first AI decision of a game, optionally the full build), one JSON object (see
// pyodide_measure.mjs).
//
//   node bench/geekout_policy_pyodide.mjs [--build]
import { measureInPyodide } from "./pyodide_measure.mjs";

await measureInPyodide({ BUILD: process.argv.includes("--build") }, `
import geekout_policy
json.dumps(geekout_policy.measure(BUILD, 0, 1, 0 if BUILD else 4))
`);
