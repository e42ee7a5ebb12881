"""build.py's Pyodide: `receiveInstance` in pyodide.asm.mjs (the linking of the instantiated wasm,
~0.5 s of one main-thread task on an emulated phone) made async with a task boundary before each
of its three linking steps, when the module's settings carry `dicehallYield`
(`build.yielding_receive_instance`; web/snap-loader.mjs passes it on the page), and its factory
declared as a parenthesized function expression, which V8 compiles eagerly with the module
(`build.eager_pyodide_factory`). Checked on the pinned npm pyodide: the changed module boots
under Node and yields exactly there; without the setting it boots as before; a Pyodide that
reads otherwise is refused. And snap-loader.mjs's lazy answer to Pyodide's own fetch of the wasm."""

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
import { readFileSync } from "node:fs";
import { loadPyodide } from "./pyodide.mjs";
import module from "./pyodide.asm.mjs";
// "classic": the factory from pyodide.asm.js, run as a function's body (as snap-sw.mjs does)
globalThis._dicehallAsmUrl = new URL("./pyodide.asm.mjs", import.meta.url).href;
const create = process.argv[3] === "classic"
  ? new Function(readFileSync(new URL("./pyodide.asm.js", import.meta.url), "utf8") + "\\nreturn _createPyodideModule;")()
  : module;
const given = process.argv[2] === "yield";
const steps = [];
// The wasm modules made while it boots (Emscripten wraps JavaScript functions for the table in
// modules it makes itself: build.py js_wrappers_at_once makes one for all of them).
let made = 0;
const Made = WebAssembly.Module;
WebAssembly.Module = new Proxy(Made, { construct(target, args) { made += 1; return Reflect.construct(target, args); } });
const pyodide = await loadPyodide({
  indexURL: new URL("./", import.meta.url).pathname,
  createPyodideModule: (settings) => {
    if (given) settings.dicehallYield = () => new Promise((resolve) => setImmediate(() => { steps.push("task"); resolve(); }));
    return create(settings);
  },
});
// The file system as build.py leaves it (module_creation_without_stacks): a directory made twice, a
// tree over existing directories, an entry that exists refused, a new one made.
const FS = pyodide.FS;
FS.mkdirTree("/a/b/c");
FS.mkdirTree("/a/b/c");
FS.mkdirTree("/home/pyodide/d");
let again = null;
try { FS.mkdir("/a/b"); } catch (err) { again = err.errno; }
FS.writeFile("/a/b/c/f", "x");
const files = pyodide.runPython(`
import os
try:
    os.mkdir("/a/b/c")
    made = "made"
except FileExistsError:
    made = "exists"
open("/a/b/c/g", "w").write("y")
[made, sorted(os.listdir("/a/b/c")), os.path.isdir("/home/pyodide/d")]
`).toJs();
WebAssembly.Module = Made;
// The table as the linking left it: its length, and which slots hold a function at all (the same
// slots in Pyodide's own module: a snapshot's function pointers are slots).
const table = pyodide._module.wasmTable;
const filled = [];
for (let i = 0; i < table.length; i++) if (table.get(i)) filled.push(i);
// A JavaScript function called through the table from the wasm: Python's time comes from
// Emscripten's JavaScript clock, through its library functions.
const clock = pyodide.runPython("type(__import__('time').time()).__name__ if __import__('time').time() > 1.6e9 else None");
// The global offset table (build.py lazy_main_got): what a library loaded later is given for the
// module's symbols (functions: their slots; data: their addresses), and that a library's own
// export of one of them does not replace it.
const M = pyodide._module;
const asked = ["PyObject_GetAttrString", "malloc", "PyObject_Repr", "_Py_NoneStruct", "_Py_TrueStruct", "PyExc_TypeError"]
  .map((name) => M.GOTHandler.get(new Set(), name).value);
M.updateGOT({ PyObject_Repr: () => 0, _Py_NoneStruct: new WebAssembly.Global({ value: "i32" }, 1) });
const got = { asked, kept: [M.GOT.PyObject_Repr.value, M.GOT._Py_NoneStruct.value] };
console.log(JSON.stringify({ steps: steps.length, sum: pyodide.runPython("sum(range(10))"), again, files,
                             made, table: [table.length, filled.length, filled.reduce((a, b) => (a * 31 + b) % 1000000007, 7)], clock,
                             got, entries: Object.keys(M.GOT).length }));
"""


def pyodide_folder(folder: Path, module: str) -> Path:
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        shutil.copy(PYODIDE / name, folder / name)
    (folder / "pyodide.asm.mjs").write_text(module, encoding="utf-8")
    (folder / "boot.mjs").write_text(BOOT, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def split_pyodide(tmp_path_factory) -> Path:
    module = build.pyodide_module((PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8"))
    folder = pyodide_folder(tmp_path_factory.mktemp("pyodide"), module)
    (folder / "pyodide.asm.js").write_text(build.classic_pyodide_script(module), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def own_boot(tmp_path_factory) -> dict:
    """Pyodide's own module booted by the same script: what the build's must do alike."""
    own = boot(pyodide_folder(tmp_path_factory.mktemp("own"), (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")), "plain")
    assert own["made"] > 200  # (one module per JavaScript function in the table: what js_wrappers_at_once saves)
    assert own["entries"] > 8000  # (an entry for every symbol the module exports: what lazy_main_got saves)
    assert own["got"]["kept"] == own["got"]["asked"][2:4]  # (the module's symbols, not the library's)
    return own


def boot(folder: Path, mode: str, factory: str = "module") -> dict:
    done = subprocess.run(["node", str(folder / "boot.mjs"), mode, factory], capture_output=True, text=True, timeout=180, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def as_ever(own: dict, steps: int) -> dict:
    """A boot of the build's module: `steps` tasks yielded, the file system as ever, the same
    function table as Pyodide's own module made, its JavaScript functions wrapped by one module
    (plus the two Pyodide itself makes later), the same values in its global offset table for
    whoever asks, with far fewer entries made (lazy_main_got; 280-odd under Pyodide 0.29)."""
    return {"steps": steps, "sum": 45, **FILES_AS_EVER, "made": 3, "table": own["table"], "clock": "float",
            "got": own["got"], "entries": FEW_ENTRIES}


class _FewerThan:
    def __init__(self, bound: int):
        self.bound = bound

    def __eq__(self, other) -> bool:
        return isinstance(other, int) and other < self.bound

    def __repr__(self) -> str:
        return f"<fewer than {self.bound}>"


FEW_ENTRIES = _FewerThan(1000)


def test_the_split_receive_instance_boots_with_a_task_before_each_linking_step(split_pyodide: Path, own_boot: dict):
    assert boot(split_pyodide, "yield") == as_ever(own_boot, 3)


def test_without_the_setting_it_boots_as_before(split_pyodide: Path, own_boot: dict):
    assert boot(split_pyodide, "plain") == as_ever(own_boot, 0)


def assert_refused(transform, *altered_sources: str) -> None:
    """The build refuses each of these Pyodide sources (each reads otherwise than it expects)."""
    for altered in altered_sources:
        with pytest.raises(SystemExit):
            transform(altered)


# What the file system does in each boot above (BOOT): EEXIST (20) for a directory that exists.
FILES_AS_EVER = {"again": 20, "files": ["exists", ["f", "g"], True]}


def test_the_linking_wraps_javascript_functions_in_one_module_and_another_linking_is_refused():
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    changed = build.js_wrappers_at_once(source)
    assert changed.count("dicehallWrapAll()") == 1 and changed.count(build.CONVERT_FROM_WRAPPED) == 1
    assert_refused(build.js_wrappers_at_once,
                   source.replace(build.REPORT_UNDEFINED, "var reportUndefinedSymbols=function(){"),
                   source.replace("entry.value=addFunction(value,value.sig)", "entry.value=addFunction(value)"))


def test_the_module_is_created_without_a_stack_and_another_file_system_or_sleep_is_refused():
    """build.module_creation_without_stacks: the file system looks in its name table before it
    looks up and catches (the boots above check that it works as ever), and the shared memory
    of the synchronous sleep is made on its first use; a Pyodide that reads otherwise is refused."""
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    changed = build.module_creation_without_stacks(source)
    assert changed.count("dicehallHasEntry(") == 3 and changed.count(build.SYNC_SLEEP_LAZY) == 1
    assert build.SYNC_SLEEP not in changed and changed.count("shared:!0") == 1
    assert_refused(build.module_creation_without_stacks,
                   source.replace(build.MAY_CREATE, build.MAY_CREATE.replace("return 20", "return 21")),
                   source.replace(build.MKDIR_TREE_STEP, build.MKDIR_TREE_STEP.replace("!=20", "!==20")),
                   source.replace(build.SYNC_SLEEP, build.SYNC_SLEEP.replace("maximum:1", "maximum:2")))


def test_the_build_splits_the_shipped_module_once_and_refuses_another():
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    split = build.yielding_receive_instance(source)
    assert split.count("async function receiveInstance(") == 1
    assert split.count(build.NEXT_TASK) == 3
    with pytest.raises(SystemExit):
        build.yielding_receive_instance(source.replace("updateGOT(origExports);LDSO.init();", "LDSO.init();updateGOT(origExports);"))


def test_the_global_offset_table_is_made_when_asked_for_and_another_is_refused():
    """build.lazy_main_got (the boots above check the table and the values given): a Pyodide whose
    global offset table reads otherwise is refused."""
    source = build.yielding_receive_instance((PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8"))
    changed = build.lazy_main_got(source)
    assert changed.count("dicehallMainGOTPass(origExports);") == 1 and changed.count("dicehallGOT(symName)") == 2
    assert_refused(build.lazy_main_got,
                   source.replace(build.GOT_HANDLER, build.GOT_HANDLER.replace("var rtn", "let rtn")),
                   source.replace("updateGOT(origExports);", "updateGOT(origExports,true);"),
                   source.replace("{newValue=value}else{continue}", "{newValue=value}else{continue}GOT[symName]=GOT[symName];"))


def test_the_converted_exports_overlay_the_instances_and_another_conversion_is_refused():
    """build.exports_overlaid (the boots above check that the module works as ever): the object
    applySignatureConversions returns inherits the instance's exports and owns the 20 it wraps,
    instead of a copy of all of them; a Pyodide that writes its exports elsewhere is refused."""
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    changed = build.exports_overlaid(source)
    assert build.SIGNATURE_CONVERSIONS not in changed and "Object.assign({},wasmExports)" not in changed
    assert changed.count("function applySignatureConversions(wasmExports){wasmExports=Object.create(wasmExports,{") == 1
    assert changed.count("writable:true,enumerable:true,configurable:true}") == 20
    assert_refused(build.exports_overlaid,
                   source.replace(build.SIGNATURE_CONVERSIONS, build.SIGNATURE_CONVERSIONS.replace("({},", "({},{},")),
                   source.replace("return wasmExports}function callMain", 'wasmExports["x"]=1;return wasmExports}function callMain'),
                   source.replace("function callMain(", "function dicehallX(){wasmExports.y=2}function callMain("))


def test_the_factory_is_a_parenthesized_expression_and_another_is_refused():
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    eager = build.eager_pyodide_factory(source)
    assert eager.startswith("var _createPyodideModule=(async function _createPyodideModule(")
    assert eager.endswith("return moduleRtn});export default _createPyodideModule;\n")
    with pytest.raises(SystemExit):
        build.eager_pyodide_factory(source + "export const more = 1;\n")


def test_the_classic_script_boots_and_yields_as_the_module_does(split_pyodide: Path, own_boot: dict):
    assert boot(split_pyodide, "yield", "classic") == as_ever(own_boot, 3)


def test_the_classic_script_is_the_module_without_its_export_and_another_is_refused():
    module = build.eager_pyodide_factory((PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8"))
    classic = build.classic_pyodide_script(module)
    assert "export default" not in classic and "import.meta" not in classic
    assert classic.count(build.ASM_SCRIPT_URL) == module.count("import.meta.url") > 0
    assert classic.rstrip("\n") == module[:-len(build.MODULE_EXPORT)].replace("import.meta.url", build.ASM_SCRIPT_URL)
    with pytest.raises(SystemExit):
        build.classic_pyodide_script(module + "export const more = 1;\n")
    with pytest.raises(SystemExit):
        build.classic_pyodide_script(module.replace("import.meta.url", "import.meta.resolve('x')", 1))


LAZY_WASM_CHECK = """
import { lazyWasmFetch } from "./snap-loader.mjs";
const calls = [];
const base = async (input) => { calls.push(String(input)); return new Response(new Uint8Array([0, 97, 115, 109])); };
globalThis.fetch = base;
const lazy = lazyWasmFetch();
const wasm = await fetch("http://app/pyodide/pyodide.asm.wasm");
await fetch("http://app/app.zip");
const unread = calls.slice();
const bytes = Array.from(new Uint8Array(await wasm.arrayBuffer()));
const read = calls.slice();
lazy.end();
await fetch("http://app/pyodide/pyodide.asm.wasm");
console.log(JSON.stringify({unread, bytes, read, after: calls.length, restored: globalThis.fetch === base,
                            type: wasm.headers.get("Content-Type")}));
"""


def test_pyodides_own_fetch_of_the_wasm_reads_the_file_only_if_its_body_is_read(tmp_path: Path):
    """web/snap-loader.mjs lazyWasmFetch (moduleOptions: the module always comes compiled, so the
    fetch Pyodide makes while preparing its settings is answered lazily): until `end()`, a fetch of
    pyodide.asm.wasm reaches the network only when its body is read, and then gives the file's
    bytes; other files are fetched as ever; `end()` puts the page's fetch back."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    for name in ("snap-loader.mjs", "snap-pack.mjs"):
        shutil.copy(build.ROOT / "web" / name, tmp_path / name)
    shutil.copy(PYODIDE / "pyodide.mjs", tmp_path / "pyodide.mjs")
    (tmp_path / "check.mjs").write_text(LAZY_WASM_CHECK, encoding="utf-8")
    done = subprocess.run([node, str(tmp_path / "check.mjs")], capture_output=True, text=True, timeout=60, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["unread"] == ["http://app/app.zip"], result
    assert result["bytes"] == [0, 97, 115, 109] and result["type"] == "application/wasm", result
    assert result["read"] == ["http://app/app.zip", "http://app/pyodide/pyodide.asm.wasm"], result
    assert result["after"] == 3 and result["restored"] is True, result


RESTORE_CHECK = """
import { readFileSync } from "node:fs";
import { loadPyodide } from "./pyodide.mjs";
import { isAppMain, reseed, useAppZip } from "./snap-loader.mjs";
const indexURL = new URL("./", import.meta.url).pathname;
// A snapshot whose interpreter hears every compilation of Python source (an audit hook in it)...
const maker = await loadPyodide({ indexURL, _makeSnapshot: true });
maker.runPython(`
import sys
COMPILED = []
def _heard(event, args):
    if event == "compile":
        COMPILED.append(str(args[1]))
sys.addaudithook(_heard)
`);
const snapshot = maker.makeMemorySnapshot();
// ... restored, then given the app's archive and fresh seeds as the loader does
const restored = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
const emptyZip = new Uint8Array(22);
emptyZip.set([80, 75, 5, 6]);
useAppZip(restored, emptyZip);
useAppZip(restored, emptyZip); // (once on sys.path however often)
reseed(restored);
const compiled = restored.globals.get("COMPILED").toJs();
const sys = restored.pyimport("sys");
const path = sys.path.toJs();
const random = restored.runPython("import random; random.random()");
const later = restored.globals.get("COMPILED").toJs();
const main = readFileSync(process.argv[2], "utf8");
console.log(JSON.stringify({ compiled, later, path, random, main: isAppMain(main),
  others: [main.replace("await main()", "await main()\\nprint(1)"), main.replaceAll("dicehall.boot", "dicehall.shell"),
           "from dicehall.boot import main", "# from dicehall.boot import main\\nawait main()"].map(isAppMain) }));
"""


def restore_check(folder: Path) -> dict:
    for name in ("snap-loader.mjs", "snap-pack.mjs"):
        shutil.copy(build.ROOT / "web" / name, folder / name)
    (folder / "restore.mjs").write_text(RESTORE_CHECK, encoding="utf-8")
    done = subprocess.run(["node", str(folder / "restore.mjs"), str(build.ROOT / "web" / "main.py")],
                          capture_output=True, text=True, timeout=180, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_restore_and_the_loaders_steps_compile_no_python_source(split_pyodide: Path, tmp_path: Path):
    """build.py restore_without_compiling and snap-loader.mjs's useAppZip, reseed and main.py
    (isAppMain): a snapshot restored by the build's module compiles no Python source on its way
    (an audit hook in the snapshot hears none), where Pyodide's own module compiles its five; the
    archive goes first on sys.path, once; `random` is reseeded; Python still compiles when asked.
    And main.py is the two statements the loader runs from app.zip's bytecode, nothing else."""
    own = restore_check(pyodide_folder(tmp_path, (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")))
    assert len(own["compiled"]) >= 5, own  # (the control: finalizeBootstrap's five pieces, heard)
    ours = restore_check(split_pyodide)
    assert ours["compiled"] == [], ours
    assert ours["later"][:1] == ["<exec>"], ours  # (runPython: its source, parsed then compiled)
    assert ours["path"][0] == "/home/pyodide/app.zip" and ours["path"].count("/home/pyodide/app.zip") == 1, ours
    assert 0 <= ours["random"] < 1 and own["random"] != ours["random"]
    assert ours["main"] is True and ours["others"] == [False, False, False, False], ours


def test_another_finalize_bootstrap_is_refused():
    source = (PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    changed = build.restore_without_compiling(source)
    assert 'API.rawRun("import _pyodide_core")' in changed and "eval_code(\"{}\")" not in changed
    assert "runPythonInternal(\"import" not in changed
    for part in ('API.rawRun("import _pyodide_core");', 'eval_code("{}")', '"import builtins; builtins.__dict__"'):
        with pytest.raises(SystemExit):
            build.restore_without_compiling(source.replace(part, part.replace("import", "imp").replace("{}", "[]"), 1))
