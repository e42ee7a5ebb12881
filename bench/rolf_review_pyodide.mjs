// Rolf review benchmark under Pyodide in Node: the same measurement as bench/rolf_review.py (it
// imports `measure` from it), printing one JSON object (see pyodide_measure.mjs): what the AI
// worker spends reviewing a whole game.
//
//   node bench/rolf_review_pyodide.mjs [games] [seed] [players] [levels]
import { measureInPyodide } from "./pyodide_measure.mjs";

const [games = "6", seed = "1", players = "2", levels = "easy,medium"] = process.argv.slice(2);
await measureInPyodide({ GAMES: Number(games), SEED: Number(seed), PLAYERS: Number(players), LEVELS: levels }, `
import rolf_review
json.dumps(rolf_review.measure(GAMES, SEED, PLAYERS, LEVELS.split(",")))
`);
