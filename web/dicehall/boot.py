"""The app's boot on the page's thread. PyScript runs web/main.py, which imports this and awaits
`main()`; snap-loader.mjs runs it as exactly that (isAppMain), from app.zip's bytecode, so that no
Python source is compiled on the page while it boots (snap-loader.mjs withModule)."""

import asyncio
import sys

import js as window  # the page's global object (PyScript's package is not needed: see below)


async def main() -> None:
    try:
        window.performance.mark("dh:main")
        window.diceHallBootPhase(3)
        from dicehall.browser import start

        window.performance.mark("dh:imported")
        # Whether the boot imported PyScript's own package: the app does not use it, and the
        # loader leaves its import to its first use (snap-loader.mjs preludeImportOnly;
        # tests/browser/test_boot_snapshot.py).
        window.document.documentElement.dataset.pyscriptImported = "yes" if "pyscript" in sys.modules else "no"
        # The app's start in a task of its own, not in the one that imported the browser module
        # (a macrotask: Pyodide's event loop schedules the next step with a message).
        await asyncio.sleep(0)
        await start()
    except BaseException as err:  # a readable message, never a blank page
        import traceback

        window.console.error("".join(traceback.format_exception(err)))
        window.diceHallBootError(f"{type(err).__name__}: {err}")
