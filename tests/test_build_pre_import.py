"""build.py's list of the modules the boot snapshot's maker imports (`build.pre_import_modules`,
substituted into web/snap-make.mjs): every module of pygame_core and dicehall whose source
imports none of the page's modules (js, pyscript, pyodide), a package before its modules."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import zipfile

import build


def zipped(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for arc, text in files.items():
            zf.writestr(arc, text)
    return buf.getvalue()


def test_modules_that_import_the_page_anywhere_are_left_out():
    app = zipped({
        "pygame_core/__init__.py": "",
        "pygame_core/dice.py": "import json\nimport random\n",
        "pygame_core/games/__init__.py": "",
        "pygame_core/games/x/__init__.py": "from .rules import X\n",
        "pygame_core/games/x/rules.py": "from ..dice import roll\n",
        "dicehall/__init__.py": "",
        "dicehall/shell.py": "from .dom import esc\n",
        "dicehall/dom.py": "def esc(s):\n    return s\n",
        "dicehall/browser.py": "import asyncio\nfrom pyscript import window\n",
        "dicehall/late.py": "def f():\n    import js\n    return js\n",
        "dicehall/ffi.py": "from pyodide.ffi import create_proxy\n",
        "dicehall/jsonish.py": "import jsonschema_like\n",  # a name that merely starts with "js"
        "pyscript/__init__.py": "import js\n",  # not one of the packages
        "dicehall/data.json": "{}",
    })
    assert build.pre_import_modules(app) == [
        "pygame_core", "pygame_core.dice", "pygame_core.games", "pygame_core.games.x", "pygame_core.games.x.rules",
        "dicehall", "dicehall.dom", "dicehall.jsonish", "dicehall.shell",
    ]


def test_a_top_package_that_imports_the_page_is_left_out_whole():
    app = zipped({"pygame_core/__init__.py": "", "pygame_core/a.py": "",
                  "dicehall/__init__.py": "import js\n", "dicehall/b.py": ""})
    assert build.pre_import_modules(app) == ["pygame_core", "pygame_core.a"]


def test_the_built_maker_carries_the_apps_list(tmp_path):
    build.build(tmp_path / "dist", quiet=True)
    maker = (tmp_path / "dist" / "pyodide" / build.SNAP_MAKE).read_text(encoding="utf-8")
    listed = json.loads(re.search(r"const PRE_IMPORTED = (\[.*?\]);", maker).group(1))
    assert listed == build.pre_import_modules((tmp_path / "dist" / "app.zip").read_bytes())
    assert "pygame_core.games.penta.rules" in listed and "dicehall.shell" in listed
    assert "dicehall.browser" not in listed and "dicehall.jsrooms" not in listed
    # The maker's Python, run here on the built app.zip as the maker runs it: every listed module
    # imported, the games discovered with their fixed tables made, everything frozen for the
    # cyclic collector (a restored page's collections skip the snapshot's objects).
    code = re.search(r"const PRE_IMPORT = `(.*?)`;", maker, re.S).group(1)
    code = code.replace("${JSON.stringify(PRE_IMPORTED)}", json.dumps(listed))
    probe = (f"import sys\nsys.path.insert(0, {str(tmp_path / 'dist' / 'app.zip')!r})\n{code}\n"
             "import gc, json\nfrom pygame_core import registry\n"
             "from pygame_core.games.cephalopod import core\n"
             "print(json.dumps([sorted(registry._ENTRIES), sorted(core._GEOMETRIES), gc.get_freeze_count() > 0,"
             f" all(name in sys.modules for name in {listed!r})]))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr
    games, sizes, frozen, imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert games == sorted(build.game_packages([build.ROOT], build.ROOT / "web")) and sizes == [5]
    assert frozen and imported
