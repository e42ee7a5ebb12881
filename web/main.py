# Dice Hall main thread: boots the UI (dicehall.browser); the AI worker starts once the UI is ready.
# The app imports from app.zip, which snap-loader.mjs (PyScript's interpreter module) wrote into
# the cwd and put on sys.path before PyScript ran this (useAppZip).
import asyncio
import sys

import js as window  # the page's global object (PyScript's package is not needed: see below)

try:
    window.performance.mark("dh:main")
    window.diceHallBootPhase(3)
    from dicehall.browser import start

    window.performance.mark("dh:imported")
    # Whether the boot imported PyScript's own package: the app does not use it, and the loader
    # leaves its import to its first use (snap-loader.mjs preludeInTasks; tests/browser/test_boot_snapshot.py).
    window.document.documentElement.dataset.pyscriptImported = "yes" if "pyscript" in sys.modules else "no"
    # The app's start in a task of its own, not in the one that compiled this and imported the
    # browser module (a macrotask: Pyodide's event loop schedules the next step with a message).
    await asyncio.sleep(0)  # noqa: F704, PLE1142

    await start()  # noqa: F704  (PyScript runs main.py with top-level await)
except BaseException as err:  # a readable message, never a blank page
    import traceback

    window.console.error("".join(traceback.format_exception(err)))
    window.diceHallBootError(f"{type(err).__name__}: {err}")
