# Dice Hall main thread (PyScript's script): the boot is dicehall.boot.main, from app.zip, which
# snap-loader.mjs (PyScript's interpreter module) wrote into the cwd and put first on sys.path.
# snap-loader.mjs runs these two statements itself, from the bytecode (isAppMain): keep them as
# they are, with nothing but comments beside them (tests/test_build_pyodide.py).
from dicehall.boot import main

await main()  # noqa: F704, PLE1142  (PyScript runs a script with top-level await)
