"""build.py's PyScript package in app.zip: `pyscript/__init__.py` imports the submodules the app
never uses (fetch, storage, websocket, events, workers) on first use, with the same names as
PyScript's own (`build.lazy_pyscript_init`). Checked on the package of the pinned @pyscript/core,
run under CPython with stand-ins for the browser-side modules."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import build

ARTIFACT = build.ROOT / "node_modules" / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
pytestmark = pytest.mark.skipif(not ARTIFACT.is_file(), reason="npm ci has not run (node_modules/@pyscript/core)")


def original_init() -> str:
    text = ARTIFACT.read_text(encoding="utf-8")
    return json.loads(text[text.index("export default") + len("export default"):].strip().rstrip(";"))["pyscript"]["__init__.py"]


def imported_names(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def test_the_lazy_package_offers_every_name_of_pyscripts_own():
    lazy = build.pyscript_package()["pyscript/__init__.py"].decode("utf-8")
    namespace: dict = {}
    exec(compile(ast.Module(body=[n for n in ast.parse(lazy).body if isinstance(n, ast.Assign)], type_ignores=[]), "init", "exec"),
         namespace)
    assert imported_names(lazy) | set(namespace["_LAZY"]) == imported_names(original_init())
    assert set(namespace["_LAZY"].values()) == set(build.PYSCRIPT_LAZY)
    eager = lazy.split("# (build.py lazy_pyscript_init")[0]
    assert not any(module in eager for module in build.PYSCRIPT_LAZY)


def test_a_lazy_submodule_is_imported_on_first_use_only(tmp_path: Path):
    package = tmp_path / "pyscript"
    package.mkdir()
    (package / "__init__.py").write_bytes(build.pyscript_package()["pyscript/__init__.py"])
    # stand-ins for the browser-side modules, each defining the names the package takes from it
    tree = ast.parse(original_init())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            path = tmp_path.joinpath(*node.module.split(".")).with_suffix(".py")
            body = "".join(f"{alias.name} = '{node.module}.{alias.name}'\n" for alias in node.names)
            # (the page's thread: pyscript.context says it is not in a worker)
            path.write_text(body.replace("RUNNING_IN_WORKER = 'pyscript.context.RUNNING_IN_WORKER'", "RUNNING_IN_WORKER = False"))
    check = """
import sys
import pyscript
lazy = ("pyscript.fetch", "pyscript.storage", "pyscript.websocket", "pyscript.events", "pyscript.workers")
assert not any(m in sys.modules for m in lazy), [m for m in lazy if m in sys.modules]
assert pyscript.window == "pyscript.context.window"
from pyscript import fetch, when
assert fetch == "pyscript.fetch.fetch" and when == "pyscript.events.when"
assert "pyscript.fetch" in sys.modules and "pyscript.storage" not in sys.modules
assert pyscript.workers == "pyscript.workers.workers"
try:
    pyscript.nothing
except AttributeError:
    pass
else:
    raise AssertionError("an unknown name must raise AttributeError")
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


PRELUDE_CHECK = """
import { stdlib } from %(stdlib)s;
import { preludeImportOnly, preludePieces } from "./snap-loader.mjs";
const alone = "import pyscript as _pyscript\\ndel _pyscript\\n";
const outside = stdlib.replace('_path = _Path("./pyscript/web.py")', '_path = _Path("./elsewhere/web.py")');
const extra = stdlib.replace("import pyscript as _pyscript", "import sys\\nimport pyscript as _pyscript");
const smuggled = stdlib.replace(',encoding="utf-8")\\n_path = _Path("./pyscript/web.py")', ',encoding="utf-8"); import sys\\n_path = _Path("./pyscript/web.py")');
console.log(JSON.stringify({
  writes: (stdlib.match(/^_path\\.write_text\\(/gm) || []).length,
  pinned: preludeImportOnly(stdlib) === alone,
  outside: preludeImportOnly(outside), extra: preludeImportOnly(extra),
  smuggled: [smuggled !== stdlib, preludeImportOnly(smuggled)],
  main: preludeImportOnly("import asyncio\\nfrom pyscript import window\\n"),
  pieces: preludePieces(stdlib).join("\\n") === stdlib,
}));
"""


def test_pyscripts_prelude_is_run_as_its_import_alone_only_when_it_is_nothing_but_its_package_writes(tmp_path: Path):
    """web/snap-loader.mjs preludeImportOnly: the prelude of the pinned PyScript (its package's
    files written into the cwd, then `import pyscript`) is recognised, and the page runs only its
    import (app.zip holds the package); a prelude with anything else in it, a file outside
    ./pyscript or a statement after a write is run as it is (null)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    for name in ("snap-loader.mjs", "snap-pack.mjs"):
        shutil.copy(build.ROOT / "web" / name, tmp_path / name)
    shutil.copy(build.ROOT / "node_modules" / "pyodide" / "pyodide.mjs", tmp_path / "pyodide.mjs")
    stdlib = (build.ROOT / "node_modules" / "@pyscript" / "core" / "src" / "stdlib.js").as_uri()
    (tmp_path / "check.mjs").write_text(PRELUDE_CHECK % {"stdlib": json.dumps(stdlib)}, encoding="utf-8")
    done = subprocess.run([node, str(tmp_path / "check.mjs")], capture_output=True, text=True, timeout=60, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["writes"] >= 10 and result["pinned"] is True, result
    assert result["outside"] is None and result["extra"] is None and result["main"] is None, result
    assert result["smuggled"] == [True, None], result
    assert result["pieces"] is True, result
