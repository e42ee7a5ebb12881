// Geek Out! Masters' review under Pyodide in Node: bench/geekout_review.py's typical 3-player
// games, each reviewed from a cold win-probability model; wall time, and the Node process's CPU
// time around each review (Pyodide's own clock is the wall clock, and the machine may be shared).
// One JSON object.
//
//   node bench/geekout_review_pyodide.mjs [games]
import { loadPyodide } from "pyodide";
import { REPO } from "./pyodide_measure.mjs";

const games = Number(process.argv[2] || 5);
const t0 = Date.now();
const py = await loadPyodide();
const bootMs = Date.now() - t0;
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root: REPO }, "/repo");
py.runPython(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, '/repo')
sys.path.insert(0, '/repo/bench')
import geekout_review
from pygame_core.games.geekout import solver
solver.get_policy()
RECORDS = geekout_review.records(${games}, 0)
ROWS = []
`);
for (let k = 0; k < games; k++) {
  const cpu = process.cpuUsage();
  const row = JSON.parse(py.runPython(`json.dumps(geekout_review.review_once(RECORDS[${k}]))`));
  const used = process.cpuUsage(cpu);
  row.game = k;
  row.cpu_seconds = Math.round((used.user + used.system) / 1000) / 1000;
  py.globals.set("ROW", py.toPy(row));
  py.runPython("ROWS.append(dict(ROW))");
}
const out = JSON.parse(py.runPython("json.dumps(geekout_review.summary(ROWS))"));
out.runtime = "pyodide-node";
out.pyodide_boot_ms = bootMs;
console.log(JSON.stringify(out));
