"""The import rules and the one-package-per-game rule, enforced.

- `pygame_core` (engines, AI, records) never imports the browser or the front end.
- Views, widgets and the controller are pure Python: no browser imports; no view or widget
  imports the app shell or the controller.
- No shared file names a game: a game lives in `pygame_core/games/<id>/` and
  `web/dicehall/games/<id>/` and nowhere else (adding one edits no shared file).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from support import ROOT

BROWSER = {"pyscript", "js", "pyodide", "pyodide_js"}
GAME_IDS = ("penta", "rolf", "geekout", "rollcraft", "cephalopod")


def imports(path: Path, package: str) -> set[str]:
    """Absolute module names a file imports (relative imports resolved against `package`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out |= {f"{module}.{alias.name}" for alias in node.names}
    return out


def modules(root: Path, sub: str):
    for path in sorted((root / sub).rglob("*.py")):
        pkg = ".".join(path.relative_to(root).parent.parts)
        yield path, imports(path, pkg)


def top(names: set[str]) -> set[str]:
    return {n.split(".")[0] for n in names}


def test_engines_never_import_the_browser_or_the_front_end():
    for path, names in modules(ROOT, "pygame_core"):
        bad = top(names) & (BROWSER | {"dicehall"})
        assert not bad, (path, bad)


def test_views_widgets_and_controller_are_pure_and_views_do_not_import_the_shell():
    web = ROOT / "web"
    pure = [p for p in (web / "dicehall").rglob("*.py") if p.name not in ("app.py", "storage.py", "assets.py", "jsrooms.py")]
    assert any("games" in p.parts for p in pure) and any("widgets" in p.parts for p in pure)
    for path in pure:
        pkg = ".".join(path.relative_to(web).parent.parts)
        names = imports(path, pkg)
        assert not top(names) & BROWSER, (path, top(names) & BROWSER)
        if path.name != "controller.py":
            bad = {n for n in names if n in ("dicehall.app", "dicehall.controller") or n.startswith(("dicehall.app.", "dicehall.controller."))}
            assert not bad, (path, bad)


def test_no_shared_file_names_a_game():
    pattern = re.compile(r"\b(" + "|".join(GAME_IDS) + r")\b", re.I)
    shared = [ROOT / "build.py", *(ROOT / "pygame_core").rglob("*"), *(ROOT / "web").rglob("*")]
    offenders = []
    for path in shared:
        if not path.is_file() or path.suffix not in (".py", ".js", ".mjs", ".css", ".html", ".json") or "__pycache__" in path.parts:
            continue
        parts = path.relative_to(ROOT).parts
        if parts[:2] == ("pygame_core", "games") and len(parts) > 3 or parts[:3] == ("web", "dicehall", "games") and len(parts) > 4:
            continue  # inside a game's own package
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert offenders == []


def test_a_simulation_in_several_processes_plays_the_same_games():
    from pygame_core.__main__ import simulate

    one = simulate("penta", 2, 2, seed=3, ai="greedy,beginner")
    two = simulate("penta", 2, 2, seed=3, ai="greedy,beginner", jobs=2)
    for key in ("mean_scores", "stdev_scores", "win_shares", "moves"):
        assert one[key] == two[key], key
