# Dice Hall main thread: boots the UI (dicehall.browser); the AI worker starts once the UI is ready.
# The app imports from app.zip, which snap-loader.mjs (PyScript's interpreter module) wrote into
# the cwd and put on sys.path before PyScript ran this (useAppZip).
import asyncio

from pyscript import window

try:
    window.performance.mark("dh:main")
    window.diceHallBootPhase(3)
    from dicehall.browser import start

    window.performance.mark("dh:imported")
    # Where PyScript's own package was imported from: app.zip's bytecode, not its sources that
    # PyScript writes into the cwd (snap-loader.mjs useAppZip; tests/browser/test_boot_snapshot.py).
    window.document.documentElement.dataset.pyscriptFrom = "app.zip" if ".zip" in (__import__("pyscript").__spec__.origin or "") else "cwd"
    # The app's start in a task of its own, not in the one that compiled this and imported the
    # browser module (a macrotask: Pyodide's event loop schedules the next step with a message).
    await asyncio.sleep(0)  # noqa: F704, PLE1142

    await start()  # noqa: F704  (PyScript runs main.py with top-level await)
except BaseException as err:  # a readable message, never a blank page
    import traceback

    window.console.error("".join(traceback.format_exception(err)))
    window.diceHallBootError(f"{type(err).__name__}: {err}")
