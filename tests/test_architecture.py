"""The import rules and the one-package-per-game rule, enforced.

- `pygame_core` (engines, AI, records) never imports the browser or the front end.
- The front end is pure Python but for one browser module (`browser.py`) and the three
  adapters it uses (`storage.py`, `assets.py`, `jsrooms.py`): only they import `pyscript`,
  `pyodide` or `js`. No view or widget imports the shell or the controller.
- The front end stays in small pieces: no module in `web/dicehall` is over 600 lines.
- No shared file names a game: a game lives in `pygame_core/games/<id>/` and
  `web/dicehall/games/<id>/` and nowhere else (adding one edits no shared file). The game ids
  come from the registry.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from support import ROOT

from pygame_core.registry import entries

BROWSER = {"pyscript", "js", "pyodide", "pyodide_js"}
BROWSER_MODULES = ("browser.py", "storage.py", "assets.py", "jsrooms.py", "boot.py")  # (boot.py: the page's entry, main.py's)
SHELL = ("dicehall.shell", "dicehall.browser", "dicehall.controller")
MAX_MODULE_LINES = 600


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


def test_only_the_browser_module_and_its_adapters_import_the_browser():
    web = ROOT / "web"
    front = sorted((web / "dicehall").rglob("*.py"))
    browser = [p for p in front if p.parent == web / "dicehall" and p.name in BROWSER_MODULES]
    assert len(browser) == len(BROWSER_MODULES)
    pure = [p for p in front if p not in browser]
    assert any("games" in p.parts for p in pure) and any("widgets" in p.parts for p in pure)
    for path in pure:
        names = imports(path, ".".join(path.relative_to(web).parent.parts))
        assert not top(names) & BROWSER, (path, top(names) & BROWSER)
    for path in browser:  # the adapters serve the browser module; none is imported by pure code
        assert path.name == "browser.py" or not any(
            f"dicehall.{path.stem}" in imports(p, ".".join(p.relative_to(web).parent.parts)) for p in pure), path


def test_views_and_widgets_do_not_import_the_shell_or_the_controller():
    web = ROOT / "web"
    for sub in ("games", "widgets"):
        for path in (web / "dicehall" / sub).rglob("*.py"):
            names = imports(path, ".".join(path.relative_to(web).parent.parts))
            bad = {n for n in names if n in SHELL or n.startswith(tuple(m + "." for m in SHELL))}
            assert not bad, (path, bad)


def test_no_front_end_module_is_over_600_lines():
    web = ROOT / "web" / "dicehall"
    long = {str(p.relative_to(web)): n for p in web.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}
    assert not (web / "app.py").exists()


def test_no_shared_file_names_a_game():
    # The project's own games (the tests' fixture games are not the project's: "claim" is a word
    # shared code may use, as in the service worker's clients.claim()).
    own = ROOT / "pygame_core" / "games"
    games = [game for game, entry in entries().items()
             if own in Path(sys.modules[entry.rules.__module__].__file__).resolve().parents]
    assert len(games) >= 5
    pattern = re.compile(r"\b(" + "|".join(games) + r")\b", re.I)
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
