# Dice Hall main thread: boots the UI (dicehall.app); the AI worker starts once the UI is ready.
import os
import sys

from pyscript import window

# The app imports from app.zip itself, which snap-loader.mjs wrote into the cwd and put on sys.path
# before PyScript ran this (kept here so that main.py does not depend on that order).
if os.path.abspath("app.zip") not in sys.path:
    sys.path.insert(0, os.path.abspath("app.zip"))

try:
    window.performance.mark("dh:main")
    window.diceHallBootPhase(3)
    from dicehall.app import start

    window.performance.mark("dh:imported")

    await start()  # noqa: F704  (PyScript runs main.py with top-level await)
except BaseException as err:  # a readable message, never a blank page
    import traceback

    window.console.error("".join(traceback.format_exception(err)))
    window.diceHallBootError(f"{type(err).__name__}: {err}")
