"""A sixth game added from outside the project tree: the fixture Pig (tests/fixtures/pig, a tree
mirroring the project root), copied to a folder outside the project and named in
DICEHALL_EXTRA_GAMES, passes the conformance suite, the catalog checks and the shell's tests,
and a build with that folder added ships it. No shared file knows it: nothing in the project's
code or tests names it, and it is added the way any game package is (its folder is searched)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

from support import FIXTURES, ROOT

GAME = "pig"


def outside_copy(tmp_path):
    outside = tmp_path / "elsewhere" / "pig-game"
    shutil.copytree(FIXTURES / GAME, outside, ignore=shutil.ignore_patterns("__pycache__"))
    assert ROOT not in outside.resolve().parents
    return outside


def test_the_game_passes_the_conformance_catalog_and_shell_suites_from_outside(tmp_path):
    outside = outside_copy(tmp_path)
    env = {**os.environ, "DICEHALL_EXTRA_GAMES": str(outside)}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-m", "not browser",
         "tests/engine/test_conformance.py", "tests/web/test_catalogs.py", "tests/web/test_app_shell.py",
         "tests/web/test_play.py", "-k", f"{GAME} or registers"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    passed = set(re.findall(r"^(\S+\[[^\]]*" + GAME + r"[^\]]*\]) PASSED", result.stdout, re.M))
    suites = {name.split("::")[0] for name in passed}
    assert suites == {"tests/engine/test_conformance.py", "tests/web/test_catalogs.py", "tests/web/test_app_shell.py",
                      "tests/web/test_play.py"}, suites
    assert len(passed) >= 15, sorted(passed)
    assert "test_every_game_package_registers PASSED" in result.stdout


def test_a_build_with_the_folder_added_ships_the_game(tmp_path):
    import json
    import zipfile

    sys.path.insert(0, str(ROOT))
    import build

    outside = outside_copy(tmp_path)
    out = tmp_path / "dist"
    build.build(out, root=ROOT, extra_roots=[outside], quiet=True)
    names = zipfile.ZipFile(out / "app.zip").namelist()
    assert f"pygame_core/games/{GAME}/rules.py" in names and f"dicehall/games/{GAME}/view.py" in names
    for lang in ("en", "nb", "sv", "pl", "ar"):
        shared = json.loads((out / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        own = json.loads((out / "i18n" / GAME / f"{lang}.json").read_text(encoding="utf-8"))
        assert shared[f"{GAME}.title"] == own[f"{GAME}.title"]  # Home lists it before it opens


def test_no_shared_code_names_the_game():
    """The project's code and the suites the game passed (the browser's fixture site names the
    fixture games it builds in, as a test of this very thing)."""
    pattern = re.compile(rf"\b{GAME}\b", re.I)
    tests = ROOT / "tests"
    shared = [ROOT / "build.py", *(ROOT / "pygame_core").rglob("*.py"), *(ROOT / "web").rglob("*"),
              *(tests / "engine").rglob("*.py"), *(tests / "web").rglob("*.py"), *tests.glob("*.py")]
    named = [str(p.relative_to(ROOT)) for p in shared
             if p.is_file() and p.suffix in (".py", ".js", ".mjs", ".json", ".html", ".css")
             and FIXTURES / GAME not in p.parents and p != ROOT / "tests" / "test_outside_game.py"
             and pattern.search(p.read_text(encoding="utf-8"))]
    assert named == []
