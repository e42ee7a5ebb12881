// Run the engine pytest suite inside the real Pyodide runtime (npm `pyodide`) under Node, offline.
//
//   node tests/pyodide/run.mjs [pytest args...]        (default: tests/engine)
//
// Wheels come from a local directory (DICEHALL_PYODIDE_WHEELS, default <repo>/.cache/pyodide-wheels),
// filled once by tests/pyodide/run.sh with `pip download`. The repo is mounted with NODEFS at /repo.
// Exit code = pytest's exit code.
import { loadPyodide } from "pyodide";
import { readdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WHEELS = resolve(process.env.DICEHALL_PYODIDE_WHEELS || join(REPO, ".cache", "pyodide-wheels"));
const REQUIRED = ["pytest", "pluggy", "iniconfig", "packaging", "pygments"];

function wheelPaths() {
  if (!existsSync(WHEELS)) {
    throw new Error(`no wheel directory ${WHEELS}; run tests/pyodide/run.sh (it downloads them)`);
  }
  const wheels = readdirSync(WHEELS).filter((f) => f.endsWith(".whl")).sort();
  const names = new Set(wheels.map((f) => f.split("-")[0].toLowerCase()));
  const missing = REQUIRED.filter((n) => !names.has(n));
  if (missing.length) throw new Error(`missing wheels in ${WHEELS}: ${missing.join(", ")}`);
  return wheels.map((f) => join(WHEELS, f));
}

async function main() {
  const args = process.argv.slice(2);
  const pytestArgs = ["-q", "-p", "no:cacheprovider", ...(args.length ? args : ["tests/engine"])];
  const t0 = Date.now();
  const py = await loadPyodide();
  const tBoot = Date.now();
  await py.loadPackage(wheelPaths(), { messageCallback: () => {} });
  const tPkgs = Date.now();
  py.FS.mkdirTree("/repo");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: REPO }, "/repo");
  py.globals.set("PYTEST_ARGS", py.toPy(pytestArgs));
  const code = py.runPython(`
import os, sys
sys.dont_write_bytecode = True      # don't litter the host tree with cpython-314 .pyc files
os.chdir("/repo")
sys.path.insert(0, "/repo")
print(f"pyodide: Python {sys.version.split()[0]} on {sys.platform}", flush=True)
import pytest
int(pytest.main(list(PYTEST_ARGS)))
`);
  const t1 = Date.now();
  console.log(`pyodide runner: boot ${tBoot - t0} ms, wheels ${tPkgs - tBoot} ms, pytest ${t1 - tPkgs} ms, exit ${code}`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => { console.error("pyodide runner failed:", err); process.exit(3); },
);
