"""build.py's Pyodide: `receiveInstance` in pyodide.asm.mjs (the linking of the instantiated wasm,
~0.5 s of one main-thread task on an emulated phone) made async with a task boundary before each
of its three linking steps, when the module's settings carry `dicehallYield`
(`build.yielding_receive_instance`; web/snap-loader.mjs passes it on the page), and its factory
declared as a parenthesized function expression, which V8 compiles eagerly with the module
(`build.eager_pyodide_factory`). Checked on the pinned npm pyodide: the changed module boots
under Node and yields exactly there; without the setting it boots as before; a Pyodide that
reads otherwise is refused."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import build

PYODIDE = build.ROOT / "node_modules" / "pyodide"
pytestmark = pytest.mark.skipif(not (PYODIDE / "pyodide.asm.mjs").is_file() or shutil.which("node") is None,
                                reason="npm ci has not run (node_modules/pyodide), or no node")

BOOT = """
import { loadPyodide } from "./pyodide.mjs";
import create from "./pyodide.asm.mjs";
const given = process.argv[2] === "yield";
const steps = [];
const pyodide = await loadPyodide({
  indexURL: new URL("./", import.meta.url).pathname,
  createPyodideModule: (settings) => {
    if (given) settings.dicehallYield = () => new Promise((resolve) => setImmediate(() => { steps.push("task"); resolve(); }));
    return create(settings);
  },
});
console.log(JSON.stringify({ steps: steps.length, sum: pyodide.runPython("sum(range(10))") }));
"""


@pytest.fixture(scope="module")
def split_pyodide(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pyodide")
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        shutil.copy(PYODIDE / name, folder / name)
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    (folder / "pyodide.asm.mjs").write_text(build.eager_pyodide_factory(build.yielding_receive_instance(source)), encoding="utf-8")
    (folder / "boot.mjs").write_text(BOOT, encoding="utf-8")
    return folder


def boot(folder: Path, mode: str) -> dict:
    done = subprocess.run(["node", str(folder / "boot.mjs"), mode], capture_output=True, text=True, timeout=180, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_split_receive_instance_boots_with_a_task_before_each_linking_step(split_pyodide: Path):
    assert boot(split_pyodide, "yield") == {"steps": 3, "sum": 45}


def test_without_the_setting_it_boots_as_before(split_pyodide: Path):
    assert boot(split_pyodide, "plain") == {"steps": 0, "sum": 45}


def test_the_build_splits_the_shipped_module_once_and_refuses_another():
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    split = build.yielding_receive_instance(source)
    assert split.count("async function receiveInstance(") == 1
    assert split.count(build.NEXT_TASK) == 3
    with pytest.raises(SystemExit):
        build.yielding_receive_instance(source.replace("updateGOT(origExports);LDSO.init();", "LDSO.init();updateGOT(origExports);"))


def test_the_factory_is_a_parenthesized_expression_and_another_is_refused():
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    eager = build.eager_pyodide_factory(source)
    assert eager.startswith("var _createPyodideModule=(async function _createPyodideModule(")
    assert eager.endswith("return moduleRtn});export default _createPyodideModule;\n")
    with pytest.raises(SystemExit):
        build.eager_pyodide_factory(source + "export const more = 1;\n")
