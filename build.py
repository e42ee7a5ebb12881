#!/usr/bin/env python3
"""Build Dice Hall into a static, offline-capable PWA in ``dist/``.

    python3 build.py                  # build dist/ from scratch
    python3 build.py serve [--port 8000]   # build, then serve dist/ on 127.0.0.1

Standard library only (Python 3.11).  Runs ``npm ci`` itself when
``node_modules/pyodide`` is missing.  See docs/ARCHITECTURE.md and
/work/shared/notes/pyscript-pyodide.md for why the runtime is shipped this way.
"""

from __future__ import annotations

import argparse
import ast
import base64
import functools
import gzip
import hashlib
import http.server
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
MAX_TOTAL_BYTES = 13_000_000  # budget: dist/ under 13 MB (7 MB of it is the Pyodide runtime, packed; five games with data)

APP_NAME = "Dice Hall"
APP_SHORT_NAME = "Dice Hall"
APP_DESCRIPTION = "Dice games for friends around one table — works offline."
THEME_COLOR = "#1f5f3f"       # felt green (icon background, browser chrome)
BACKGROUND_COLOR = "#f6f3ea"  # splash screen: the boot screen's own background (web/index.html --bg)
DIE_COLOR = "#fbf8ef"          # ivory die
PIP_COLOR = "#1b2430"          # dark pips

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Pyodide's two largest files ship gzip'd, as <name>.gz (the wasm 9.6 -> 3.5 MB, its JavaScript
# 1.25 -> 0.26 MB: a first visit downloads less than half). <name> itself is a stub of a few
# bytes, because Pyodide asks for the wasm by that name on every boot; the app's loader compiles
# and imports from the .gz (web/snap-loader.mjs), and the service worker stores each file
# unpacked under its own name, so that later visits read it whole (V8's code cache included).
PACKED_FILES = {
    "pyodide.asm.wasm": ("application/wasm", b"\0asm\x01\0\0\0"),
    "pyodide.asm.mjs": ("text/javascript", b"export default null; // the module itself is pyodide.asm.mjs.gz\n"),
}
# pyodide.asm.js: the same factory as a classic script (classic_pyodide_script), for the page on a
# visit the service worker serves. Shipped whole, not packed: Chromium makes the code cache of a
# script a service worker stores while installing only for a response it fetched (addAll), not
# for one it made (the packed files' are unpacked into new Responses). Only the service worker
# downloads it, after the first boot; many hosts gzip it on the way anyway.
ASM_SCRIPT = "pyodide.asm.js"
SW_PACKED_TOKEN = '{"__DICEHALL_PACKED__": ""}'
# Standard-library modules no part of the app imports, left out of the shipped python_stdlib.zip
# (about 460 KB of a first visit's download): debuggers, profilers, test runners, the REPL,
# process pools (no processes in the browser), mail and web servers. Measured under Node with
# the app's modules, PyScript's package and a game of each kind imported and played: none of
# these was imported. The browser suite plays every game on the trimmed file.
STDLIB_UNUSED = frozenset((
    "multiprocessing", "_pyrepl", "unittest", "doctest.py", "pdb.py", "pydoc.py", "xmlrpc",
    "pickletools.py", "wsgiref", "imaplib.py", "mailbox.py", "smtplib.py", "ftplib.py", "poplib.py",
    "trace.py", "pstats.py", "profile.py", "cProfile.py", "timeit.py", "tabnanny.py", "sqlite3",
    "webbrowser.py", "__phello__"))
# The standard library's 8-bit codecs that are only a table of characters (encodings/cp1250.py,
# iso8859_2.py, mac_roman.py, koi8_r.py…, ~3 KB each deflated, about 0.27 MB together): the app
# reads and writes UTF-8 only, and none is imported on a boot or in a game. Kept of them: cp437
# (a zip's names without the UTF-8 flag) and cp1252 (the usual "ANSI" text). A decode with one
# left out fails with "unknown encoding".
STDLIB_CODEC_TABLES = re.compile(r"encodings/(cp(?!437\.|1252\.)\d+|iso8859_\d+|mac_\w+|koi8_\w|kz1048|ptcp154|hp_roman8|tis_620|palmos)\.py")
# Placeholders in web/sw.js replaced by build.py.
SW_VERSION_TOKEN = '"__DICEHALL_VERSION__"'
SNAP_LOADER = "snap-loader.mjs"  # web/snap-loader.mjs -> dist/pyodide/ (boot from a memory snapshot)
SNAP_APP_HASH_TOKEN = "__DICEHALL_APP_HASH__"
SNAP_MAKER = "snap-maker.mjs"  # web/snap-maker.mjs -> dist/pyodide/ (makes the snapshot in a worker)
SNAP_MAKE = "snap-make.mjs"  # web/snap-make.mjs -> dist/pyodide/ (the snapshot's making, shared)
SNAP_SW = "snap-sw.mjs"  # web/snap-sw.mjs -> dist/pyodide/ (a service worker: makes it when no page is left)
SNAP_PACK = "snap-pack.mjs"  # web/snap-pack.mjs -> dist/pyodide/ (the snapshot's packing, shared)
BOOT_READER = "boot-read.mjs"  # web/boot-read.mjs -> dist/pyodide/ (a return visit's early worker)
AI_WORKER = "ai-worker.mjs"  # web/ai-worker.mjs -> dist/pyodide/ (the AI worker, next to snap-loader.mjs)
# Other browser libraries copied unchanged from node_modules (dest in dist/ -> source); loaded
# only when needed (vendor/peerjs.min.js: by web/rooms.js, the first time an online room is used;
# vendor/qrcode.js: by web/direct.js, the first time an invitation without a server is drawn;
# vendor/jsqr.js: by web/qr-scan-worker.js, the first time a host scans a guest's answer).
VENDOR_FILES = {"vendor/peerjs.min.js": "peerjs/dist/peerjs.min.js",
                "vendor/qrcode.js": "qrcode-generator/dist/qrcode.js",
                "vendor/jsqr.js": "jsqr/dist/jsQR.js"}
# PyScript plugins Dice Hall never uses (no terminal, editor or pygame scripts): excluded in
# pyscript.json, PyScript does not fetch and run them before every boot (about 50 ms warm).
PYSCRIPT_UNUSED_PLUGINS = ("py-editor", "py-game", "py-terminal", "donkey", "deprecations-manager")
SW_PRECACHE_TOKEN = '["__DICEHALL_PRECACHE__"]'
SW_OPTIONAL_TOKEN = '["__DICEHALL_OPTIONAL__"]'
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
WEB_STATIC_SUFFIXES = {".html", ".css", ".py", ".js", ".mjs", ".json", ".svg", ".png",
                       ".webp", ".ico", ".txt", ".woff2"}


# ---------------------------------------------------------------- PNG icons
def _hex_rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def png_bytes(width: int, height: int, rgba_rows: list[bytes]) -> bytes:
    """Encode RGBA rows (each width*4 bytes) as a PNG (colour type 6, 8 bit)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    raw = b"".join(b"\x00" + row for row in rgba_rows)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def _rounded_rect_sdf(px: float, py: float, cx: float, cy: float, half: float, r: float) -> float:
    qx = abs(px - cx) - (half - r)
    qy = abs(py - cy) - (half - r)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def render_icon(size: int, *, maskable: bool = False) -> bytes:
    """A die showing five pips on the theme colour.

    Normal icons: a rounded theme-coloured tile (transparent corners) with the die on it.
    Maskable: full-bleed theme colour, die inside the 80 % safe circle.
    Anti-aliased with signed distance fields (one sample per pixel).
    """
    bg = _hex_rgb(THEME_COLOR)
    die = _hex_rgb(DIE_COLOR)
    pip = _hex_rgb(PIP_COLOR)
    s = float(size)
    c = s / 2.0
    tile_half, tile_r = s / 2.0, s * 0.22
    # Safe zone for maskable icons is a circle of radius 0.4*s; the die's corners
    # (half-diagonal of a rounded square) must stay inside it.
    die_half = s * (0.27 if maskable else 0.33)
    die_r = die_half * 0.28
    pip_r = die_half * 0.17
    off = die_half * 0.52
    pips = [(c, c), (c - off, c - off), (c + off, c - off), (c - off, c + off), (c + off, c + off)]
    rows = []
    for y in range(size):
        py = y + 0.5
        row = bytearray(size * 4)
        for x in range(size):
            px = x + 0.5
            if maskable:
                a_tile = 1.0
            else:
                a_tile = min(max(0.5 - _rounded_rect_sdf(px, py, c, c, tile_half, tile_r), 0.0), 1.0)
            if a_tile == 0.0:
                continue
            r, g, b = bg
            d_die = _rounded_rect_sdf(px, py, c, c, die_half, die_r)
            if d_die < 0.5:
                a = min(0.5 - d_die, 1.0)
                r, g, b = (r + (die[0] - r) * a, g + (die[1] - g) * a, b + (die[2] - b) * a)
                if d_die < -pip_r * 0.5:
                    d_pip = min(math.hypot(px - qx, py - qy) for qx, qy in pips) - pip_r
                    if d_pip < 0.5:
                        a = min(0.5 - d_pip, 1.0)
                        r, g, b = (r + (pip[0] - r) * a, g + (pip[1] - g) * a, b + (pip[2] - b) * a)
            i = x * 4
            row[i:i + 4] = bytes((round(r), round(g), round(b), round(255 * a_tile)))
        rows.append(bytes(row))
    return png_bytes(size, size, rows)


def ico_from_png(png: bytes, size: int) -> bytes:
    """A .ico container holding one PNG image (supported by all current browsers)."""
    dim = 0 if size >= 256 else size
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png


# ---------------------------------------------------------------- helpers
def ensure_node_modules(root: Path = ROOT) -> None:
    if (root / "node_modules" / "pyodide" / "pyodide.mjs").is_file() and \
            (root / "node_modules" / "@pyscript" / "core" / "dist" / "core.js").is_file() and \
            all((root / "node_modules" / src).is_file() for src in VENDOR_FILES.values()):
        return
    npm = shutil.which("npm")
    if not npm:
        raise SystemExit("build.py: node_modules missing and npm not found (install Node 20 + npm)")
    print("build.py: node_modules missing, running npm ci ...", flush=True)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=root, check=True)


def _iter_package_files(pkg_dir: Path):
    """Python sources of a package; data, catalogs and styles ship as separate dist/ files."""
    for path in sorted(pkg_dir.rglob("*")):
        rel_parts = path.relative_to(pkg_dir).parts
        if any(p == "__pycache__" or p.startswith(".") or p in ("data", "i18n") for p in rel_parts):
            continue
        if path.is_file() and path.suffix == ".py":
            yield path


# PyScript chunks imported only on demand by features the app does not use (py-editor's
# CodeMirror, py-terminal's xterm, MicroPython's zip): measured in shared/notes, section 7.
PYSCRIPT_UNUSED = ("codemirror", "xterm", "zip-")


def pyodide_version(root: Path = ROOT) -> str:
    """The version of the Pyodide shipped (node_modules/pyodide): bytecode is specific to it."""
    return json.loads((root / "node_modules" / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"]


def run_node_tool(tool: Path, args: list[str], what: str, stdin: bytes | None = None) -> bytes:
    """A tools/*.mjs script's standard output under Node 20; the build stops, saying `what`
    failed and why, if Node is missing or the script fails."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit(f"build.py: node not found (Node 20 compiles {what})")
    done = subprocess.run([node, str(tool), *args], input=stdin, capture_output=True, check=False)
    if done.returncode:
        raise SystemExit(f"build.py: compiling {what} failed:\n{done.stderr.decode(errors='replace')}")
    return done.stdout


def compile_pyc(sources: dict[str, bytes], root: Path = ROOT) -> dict[str, bytes]:
    """arc name of a .py -> its bytecode (.pyc) compiled by the app's own Pyodide (tools/pyc.mjs,
    under Node). Importing from bytecode skips compiling: on a first visit the app's modules
    compiled for about 0.3 s. Kept in node_modules/.cache/dicehall-pyc/ by Pyodide version and
    source, so an unchanged build does not start Pyodide again."""
    pyodide = pyodide_version(root)
    cache = root / "node_modules" / ".cache" / "dicehall-pyc"
    keys = {arc: hashlib.sha256(f"{pyodide}\0{arc}\0".encode() + data).hexdigest() for arc, data in sources.items()}
    out = {arc: (cache / f"{key}.pyc").read_bytes() for arc, key in keys.items() if (cache / f"{key}.pyc").is_file()}
    todo = [[arc, data.decode("utf-8")] for arc, data in sources.items() if arc not in out]
    if todo:
        done = run_node_tool(root / "tools" / "pyc.mjs", [], "the app's bytecode", stdin=json.dumps(todo).encode())
        cache.mkdir(parents=True, exist_ok=True)
        for arc, b64 in json.loads(done).items():
            out[arc] = base64.b64decode(b64)
            (cache / f"{keys[arc]}.pyc").write_bytes(out[arc])
    return out


def trimmed_stdlib(data: bytes) -> bytes:
    """Pyodide's python_stdlib.zip without the STDLIB_UNUSED modules and STDLIB_CODEC_TABLES (same
    order, dates and compression otherwise)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as kept:
        for info in source.infolist():
            if info.filename.split("/")[0] not in STDLIB_UNUSED and not STDLIB_CODEC_TABLES.fullmatch(info.filename):
                kept.writestr(info, source.read(info), compress_type=info.compress_type, compresslevel=9)
    return out.getvalue()


def stdlib_bytecode(stdlib: bytes, app_zip: bytes, snap_make: Path, root: Path = ROOT) -> dict[str, bytes]:
    """arc name of a .py in `stdlib` -> its bytecode, for every standard-library module a boot
    imports: Pyodide's own boot and the snapshot maker's imports of the app (tools/stdlib_pyc.mjs
    runs them under Node, with the Pyodide shipped). Kept in node_modules/.cache/dicehall-stdlib/
    by Pyodide version and the files that decide it."""
    tool = root / "tools" / "stdlib_pyc.mjs"
    digest = hashlib.sha256(pyodide_version(root).encode())
    for part in (stdlib, app_zip, snap_make.read_bytes(), tool.read_bytes()):
        digest.update(hashlib.sha256(part).digest())
    cached = root / "node_modules" / ".cache" / "dicehall-stdlib" / f"{digest.hexdigest()}.json"
    if not cached.is_file():
        with tempfile.TemporaryDirectory() as tmp:
            stdlib_file, app_file = Path(tmp) / "python_stdlib.zip", Path(tmp) / "app.zip"
            stdlib_file.write_bytes(stdlib)
            app_file.write_bytes(app_zip)
            done = run_node_tool(tool, [str(snap_make), str(stdlib_file), str(app_file)], "the standard library's bytecode")
        json.loads(done)  # whole, before it is kept
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.part")  # parallel builds read it whole or not at all
        partial.write_bytes(done)
        os.replace(partial, cached)
    return {arc: base64.b64decode(b64) for arc, b64 in json.loads(cached.read_bytes()).items()}


def stdlib_with_bytecode(stdlib: bytes, bytecode: dict[str, bytes]) -> bytes:
    """`stdlib` with each module of `bytecode` shipped as its bytecode alone, in place of its
    source (same order and dates): the importer takes a .pyc it finds without a .py. The zip
    grows: ~1.34 MB of bytecode replace ~0.82 MB of sources (deflated, Pyodide 314.0.7's boot);
    the other modules stay sources, compiled if ever imported. A traceback through a module
    shipped so shows its file and line, not the line's text."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(stdlib)) as source, zipfile.ZipFile(out, "w") as shipped:
        for info in source.infolist():
            if info.filename in bytecode:
                compiled = zipfile.ZipInfo(info.filename + "c", date_time=info.date_time)
                compiled.external_attr = info.external_attr
                shipped.writestr(compiled, bytecode[info.filename], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
            else:
                shipped.writestr(info, source.read(info), compress_type=info.compress_type, compresslevel=9)
    return out.getvalue()


def pyscript_package(root: Path = ROOT) -> dict[str, bytes]:
    """PyScript's own Python package (`pyscript`), as PyScript writes it into the interpreter's
    cwd on every boot: arc name -> source, read from the artifact its JavaScript is built with
    (@pyscript/core src/stdlib/pyscript.js, the same text). Shipped in app.zip with its bytecode,
    which is first on sys.path when PyScript then imports it: compiling it took ~0.3 s of the
    page's thread on a return visit at CPU x4 (about 75 ms of the 100 ms its boot code ran under
    Node), inside the longest task of that visit."""
    artifact = root / "node_modules" / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
    text = artifact.read_text(encoding="utf-8")
    tree = json.loads(text[text.index("export default") + len("export default"):].strip().rstrip(";"))

    def files(prefix: str, node: dict):
        for name, value in node.items():
            if isinstance(value, str):
                yield prefix + name, value.encode("utf-8")
            else:
                yield from files(prefix + name + "/", value)
    package = dict(files("", tree))
    init = "pyscript/__init__.py"
    package[init] = lazy_pyscript_init(package[init].decode("utf-8")).encode("utf-8")
    return package


# PyScript's submodules its package imports on every boot that the app never uses: imported on
# first use instead. Traced on a return visit (CPU x4, a loaded machine), `import pyscript` was
# ~2.1 s of one main-thread task, ~1.6 s of it these five (fetch, storage with flatted,
# websocket, events, workers); the app takes `window` and `document` only (pyscript.context).
PYSCRIPT_LAZY = ("pyscript.fetch", "pyscript.storage", "pyscript.websocket", "pyscript.events", "pyscript.workers")


# Pyodide's Emscripten `receiveInstance` (pyodide.asm.mjs), run once the wasm is instantiated:
# it links the module's symbols (mergeLibSymbols, updateGOT, reportUndefinedSymbols), ~0.5 s of
# one main-thread task on a return visit traced at CPU x4 (the visit's longest, with the
# instantiation). The build makes it async, with a task boundary before each of those steps when
# the module's settings carry `dicehallYield` (web/snap-loader.mjs passes a macrotask on the page;
# elsewhere it is absent and nothing waits). Its caller resolves a promise with its result, which
# may be a promise. A Pyodide whose receiveInstance no longer reads so is refused (a pinned
# Pyodide: look at it again).
RECEIVE_INSTANCE = (
    'function receiveInstance(instance,module){wasmExports=instance.exports;var origExports=wasmExports;'
    'mergeLibSymbols(wasmExports,"main");var metadata=getDylinkMetadata(module);if(metadata.neededDynlibs)'
    '{dynamicLibraries=metadata.neededDynlibs.concat(dynamicLibraries)}wasmExports=applySignatureConversions'
    '(wasmExports);assignWasmExports(wasmExports);updateGOT(origExports);LDSO.init();loadDylibs();'
    'updateMemoryViews();return wasmExports}')
RECEIVE_INSTANCE_CALLER = 'Module["instantiateWasm"](info,(inst,mod)=>{resolve(receiveInstance(inst,mod))})'
NEXT_TASK = 'await (Module["dicehallYield"]||(()=>{}))();'


def yielding_receive_instance(source: str) -> str:
    """pyodide.asm.mjs with `receiveInstance` split into tasks (see RECEIVE_INSTANCE)."""
    if source.count(RECEIVE_INSTANCE) != 1 or source.count(RECEIVE_INSTANCE_CALLER) != 1:
        raise SystemExit("build.py: pyodide.asm.mjs's receiveInstance no longer reads as expected")
    split = ("async " + RECEIVE_INSTANCE
             .replace('mergeLibSymbols(', NEXT_TASK + 'mergeLibSymbols(')
             .replace('updateGOT(', NEXT_TASK + 'updateGOT(')
             .replace('LDSO.init();', NEXT_TASK + 'LDSO.init();'))
    return source.replace(RECEIVE_INSTANCE, split)


# Emscripten's linking (the same file) gives every symbol the wasm exports an entry in its global
# offset table, GOT (updateGOT): a WebAssembly.Global each, 8834 of them, when the module itself
# asks for ~280 (its GOT.func and GOT.mem imports) and a library loaded later for the ones it
# imports; reportUndefinedSymbols then goes over all of them twice. Under Node that was ~40 of
# updateGOT's ~45 ms and ~40 of the next step's ~50 ms (timed on this machine, loaded). The main
# module's pass (dicehallMainGOTPass) still puts each exported function in the table, in the same
# order (the same slots: a snapshot's function pointers are slots), and sets the entries the
# module asked for; any other entry of a symbol it exports is made the first time something asks
# for it (dicehallGOT: the GOT.* imports of a library, or updateGOT for one), with the value the
# pass would have given it. So a library's own export of a symbol the module exports still
# loses to the module's, as before.
UPDATE_GOT = ('var updateGOT=(exports,replace)=>{for(var symName in exports){if(isInternalSym(symName)){continue}'
              'var value=exports[symName];var existingEntry=GOT[symName]&&GOT[symName].value!=-1;')
UPDATE_GOT_LAZY = ('var updateGOT=(exports,replace)=>{for(var symName in exports){if(isInternalSym(symName)){continue}'
                   'var value=exports[symName];dicehallGOT(symName);var existingEntry=GOT[symName]&&GOT[symName].value!=-1;')
GOT_HANDLER = "var GOTHandler={get(weakImports,symName){var rtn=GOT[symName];"
GOT_HANDLER_LAZY = "var GOTHandler={get(weakImports,symName){var rtn=dicehallGOT(symName);"
MAIN_GOT_PASS = (
    "var dicehallMainExports=null;"
    "var dicehallGOT=symName=>{var entry=GOT[symName];if(entry||!dicehallMainExports||"
    "!Object.hasOwn(dicehallMainExports,symName)||isInternalSym(symName))return entry;"
    "var value=dicehallMainExports[symName],address;if(typeof value==\"function\"){address=getFunctionAddress(value)}"
    "else if(typeof value.value==\"number\"){address=value.value}else{return entry}"
    "return GOT[symName]=new WebAssembly.Global({value:\"i32\",mutable:true},address)};"
    "var dicehallMainGOTPass=exports=>{for(var symName in exports){if(isInternalSym(symName)){continue}"
    "var value=exports[symName];var entry=GOT[symName];if(entry&&entry.value!=-1){continue}var newValue;"
    "if(typeof value==\"function\"){newValue=addFunction(value)}else if(typeof value.value==\"number\"){newValue=value}"
    "else{continue}if(entry){entry.value=newValue}}dicehallMainExports=exports};"
)
MAIN_UPDATE_GOT = "updateGOT(origExports);"


def lazy_main_got(source: str) -> str:
    """pyodide.asm.mjs whose linking makes the main module's GOT entries only when asked for (see
    UPDATE_GOT)."""
    if source.count(UPDATE_GOT) != 1 or source.count(GOT_HANDLER) != 1 or source.count(MAIN_UPDATE_GOT) != 1 \
            or source.count("GOT[") != 6 or "var getFunctionAddress=func=>" not in source:
        raise SystemExit("build.py: pyodide.asm.mjs's global offset table no longer reads as expected")
    return (source.replace(UPDATE_GOT, MAIN_GOT_PASS + UPDATE_GOT_LAZY)
            .replace(GOT_HANDLER, GOT_HANDLER_LAZY)
            .replace(MAIN_UPDATE_GOT, "dicehallMainGOTPass(origExports);"))


# The same linking's `applySignatureConversions` copies the instance's 8556 exports into a new
# object (Object.assign) to replace 20 of them with wrappers: 14 ms of the page's thread in a
# profiled return visit at CPU x4. The new object inherits the exports instead, and has those 20
# as its own properties from the start (the exports object is frozen: an inherited read-only
# property could not be assigned over); every later use of it reads a property by name.
SIGNATURE_CONVERSIONS = "function applySignatureConversions(wasmExports){wasmExports=Object.assign({},wasmExports);"
CONVERTED_EXPORT = re.compile(r'wasmExports\["([A-Za-z0-9_$]+)"\]=makeWrapper_')


def exports_overlaid(source: str) -> str:
    """pyodide.asm.mjs whose applySignatureConversions does not copy the exports (see
    SIGNATURE_CONVERSIONS)."""
    start = source.find(SIGNATURE_CONVERSIONS)
    end = source.find("return wasmExports}", start)
    names = CONVERTED_EXPORT.findall(source[start:end]) if start >= 0 and end > start else []
    if source.count(SIGNATURE_CONVERSIONS) != 1 or not names or len(set(names)) != len(names) \
            or len(re.findall(r'wasmExports\[[^\]]*\]=', source)) != len(names) \
            or len(re.findall(r'wasmExports\.[A-Za-z0-9_$]+=[^=]', source)) != 0:
        raise SystemExit("build.py: pyodide.asm.mjs's applySignatureConversions no longer reads as expected")
    own = ",".join(f'{json.dumps(name)}:{{value:wasmExports[{json.dumps(name)}],writable:true,enumerable:true,'
                   'configurable:true}' for name in names)
    return source.replace(SIGNATURE_CONVERSIONS, "function applySignatureConversions(wasmExports){"
                          f"wasmExports=Object.create(wasmExports,{{{own}}});")


# Emscripten's file system (the same file) learns whether a directory entry exists by looking it
# up and catching the error: mayCreate (before every file or directory is made) and mkdirTree (on
# each existing directory of the path). Chromium captures the stack of each thrown error with
# lines and columns (for the console, were it uncaught), and while the module is created that
# stack holds the factory itself: V8 then worked out the source positions of its whole 1.2 MB
# (~0.15 s of one task on an emulated phone's return visit; with V8's source positions made eagerly,
# by a flag, that task was gone). Where the directory is the in-memory file system's, whose
# entries are all in FS.nameTable, both look there first and throw nothing; anything else goes
# as before. A Pyodide whose file system reads otherwise is refused.
FS_START = "var FS={root:null,"
FS_HAS_ENTRY = ('function dicehallHasEntry(parent,name){for(var node=FS.nameTable[FS.hashName(parent.id,name)];node;'
                'node=node.name_next){if(node.parent.id===parent.id&&node.name===name)return true}return false}')
MAY_CREATE = 'mayCreate(dir,name){if(!FS.isDir(dir.mode)){return 54}try{var node=FS.lookupNode(dir,name);return 20}catch(e){}'
MAY_CREATE_AT_ONCE = ('mayCreate(dir,name){if(!FS.isDir(dir.mode)){return 54}if(dir.node_ops.lookup===MEMFS.node_ops.lookup&&'
                      '!FS.mayLookup(dir)&&!dicehallHasEntry(dir,name)){return FS.nodePermissions(dir,"wx")}'
                      'try{var node=FS.lookupNode(dir,name);return 20}catch(e){}')
MKDIR_TREE_STEP = 'try{FS.mkdir(d,mode)}catch(e){if(e.errno!=20)throw e}'
MKDIR_TREE_STEP_AT_ONCE = ('var dicehallParent=FS.lookupPath(d,{parent:true}).node;if(!(dicehallParent.node_ops.lookup==='
                           'MEMFS.node_ops.lookup&&dicehallHasEntry(dicehallParent,PATH.basename(d))))' + MKDIR_TREE_STEP)


# Pyodide's JavaScript (the same file) creates, as the module is made, a shared one-page wasm
# memory for its synchronous sleep (Atomics.wait, which a page's thread may not even use). On a
# page that is not cross-origin isolated Chromium reports that memory as an issue with the stack
# where it was made: the same cost as a thrown error above (~0.1 s, traced). It is made on the
# sleep's first use instead.
SYNC_SLEEP = ('var io=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,maximum:1}).buffer);'
              'function so(t){try{return Atomics.wait(io,0,0,t),!0}catch{return!1}}a(so,"syncSleep");')
SYNC_SLEEP_LAZY = ('var io;function so(t){try{return io??=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,'
                   'maximum:1}).buffer),Atomics.wait(io,0,0,t),!0}catch{return!1}}a(so,"syncSleep");')


# Emscripten's dynamic linking (the same file) puts every JavaScript function the wasm takes the
# address of into the function table, one at a time (reportUndefinedSymbols -> addFunction): the
# table refuses a JavaScript function (a TypeError), so each one gets a module of its own made,
# compiled and instantiated (convertJsFunctionToWasm) to wrap it. That was 261 compiles and
# instantiations on every boot, ~0.1 s of the page's thread on an emulated phone's return visit
# (traced: wasm.SyncCompile 38 ms, wasm.SyncInstantiate 67 ms). They are made in one module
# instead, its imports those functions and its exports their wrappers, before that loop, which
# then takes each function's wrapper from it: the same wrappers into the same table slots in the
# same order (a snapshot's function pointers are slots). If that module cannot be made, each is
# wrapped as before.
REPORT_UNDEFINED = "var reportUndefinedSymbols=()=>{"
CONVERT_JS_FUNCTION = "var convertJsFunctionToWasm=(func,sig)=>{"
WRAP_AT_ONCE = (
    "var dicehallWrapped=null;"
    "var dicehallWrapAll=()=>{try{var funcs=[],seen=new Set;"
    "for(var[symName,entry]of Object.entries(GOT)){if(entry.value!=-1)continue;"
    "var value=resolveGlobalSymbol(symName,true).sym;"
    "if(typeof value!='function'||typeof value.sig!='string'||seen.has(value)||getFunctionAddress(value)"
    "||/\\[native code\\]\\s*\\}$/.test(Function.prototype.toString.call(value)))continue;"
    "seen.add(value);funcs.push(value)}"
    "if(funcs.length<2)return null;"
    "var leb=n=>{var out=[];do{var b=n&127;n>>>=7;out.push(n?b|128:b)}while(n);return out};"
    "var name=text=>[...leb(text.length),...Array.from(text,c=>c.charCodeAt(0))];"
    "var section=(id,body)=>[id,...leb(body.length),...body];"
    "var types=[],typeOf=new Map,imports=[],exports=[],env={};"
    "funcs.forEach((f,i)=>{var t=typeOf.get(f.sig);if(t===undefined){typeOf.set(f.sig,t=typeOf.size);"
    "types.push(96,...generateTypePack(f.sig.slice(1)),...generateTypePack(f.sig[0]==='v'?'':f.sig[0]))}"
    "imports.push(...name('e'),...name(''+i),0,...leb(t));exports.push(...name(''+i),0,...leb(i));env[i]=f});"
    "var bytes=Uint8Array.from([0,97,115,109,1,0,0,0,...section(1,[...leb(typeOf.size),...types]),"
    "...section(2,[...leb(funcs.length),...imports]),...section(7,[...leb(funcs.length),...exports])]);"
    "var wrappers=new WebAssembly.Instance(new WebAssembly.Module(bytes),{e:env}).exports;"
    "return new Map(funcs.map((f,i)=>[f,wrappers[i]]))}catch(e){return null}};"
    "var reportUndefinedSymbols=()=>{dicehallWrapped=dicehallWrapAll();"
    "try{dicehallReportUndefinedSymbols()}finally{dicehallWrapped=null}};"
)
CONVERT_FROM_WRAPPED = CONVERT_JS_FUNCTION + "if(dicehallWrapped&&dicehallWrapped.has(func))return dicehallWrapped.get(func);"


def js_wrappers_at_once(source: str) -> str:
    """pyodide.asm.mjs whose linking wraps the JavaScript functions it puts in the table in one
    module (see REPORT_UNDEFINED)."""
    if source.count(REPORT_UNDEFINED) != 1 or source.count(CONVERT_JS_FUNCTION) != 1 \
            or "entry.value=addFunction(value,value.sig)" not in source \
            or "var generateTypePack=types=>" not in source or "var resolveGlobalSymbol=(symName," not in source:
        raise SystemExit("build.py: pyodide.asm.mjs's linking no longer reads as expected")
    return (source.replace(REPORT_UNDEFINED, WRAP_AT_ONCE + "var dicehallReportUndefinedSymbols=()=>{")
            .replace(CONVERT_JS_FUNCTION, CONVERT_FROM_WRAPPED))


def module_creation_without_stacks(source: str) -> str:
    """pyodide.asm.mjs whose creation captures no stack with the factory in it: its file system
    looks in FS.nameTable before it looks up and catches (see FS_HAS_ENTRY), and its shared memory
    for a synchronous sleep is made on first use (SYNC_SLEEP)."""
    if source.count(FS_START) != 1 or source.count(MAY_CREATE) != 1 or source.count(MKDIR_TREE_STEP) != 1 \
            or "lookup(parent,name){if(!MEMFS.doesNotExistError)" not in source \
            or "lookup:MEMFS.node_ops.lookup," not in source:
        raise SystemExit("build.py: pyodide.asm.mjs's file system no longer reads as expected")
    if source.count(SYNC_SLEEP) != 1 or source.count("shared:!0") != 1:
        raise SystemExit("build.py: pyodide.asm.mjs's synchronous sleep no longer reads as expected")
    return (source.replace(FS_START, FS_HAS_ENTRY + FS_START)
            .replace(MAY_CREATE, MAY_CREATE_AT_ONCE)
            .replace(MKDIR_TREE_STEP, MKDIR_TREE_STEP_AT_ONCE)
            .replace(SYNC_SLEEP, SYNC_SLEEP_LAZY))


# The same file's factory, `async function _createPyodideModule(…){…}` (the whole 1.2 MB file), is
# compiled by V8 on its first call, on the page's thread: ~0.2 s of one task at CPU x4 on a return
# visit. Declared as a parenthesized function expression instead, V8 compiles it eagerly with the
# module (PIFE heuristic), which Chromium streams and compiles off the page's thread there. (A
# return visit's page now runs it as a classic script, classic_pyodide_script.)
FACTORY_START = "async function _createPyodideModule(moduleArg={}){"
FACTORY_END = "return moduleRtn}export default _createPyodideModule;"


def eager_pyodide_factory(source: str) -> str:
    """pyodide.asm.mjs with its factory compiled eagerly (see FACTORY_START)."""
    body = source.rstrip("\n")
    if not body.startswith(FACTORY_START) or not body.endswith(FACTORY_END) or body.count(FACTORY_END) != 1:
        raise SystemExit("build.py: pyodide.asm.mjs's factory no longer reads as expected")
    return ("var _createPyodideModule=(" + body[:-len(FACTORY_END)] + "return moduleRtn});"
            "export default _createPyodideModule;\n")


# Pyodide's finalizeBootstrap, which follows every boot (a restore's too), ran five pieces of
# Python source: `import _pyodide_core` (rawRun), then, through eval_code, `{}`, the import of
# importlib, and the namespaces of __main__ and builtins. Each was compiled, and on a restored
# page's return visit the first was the first use of Python's tokenizer, parser, compiler and AST
# conversions: V8 compiled their wasm functions as they were first called, on the page's thread
# (~520 of the ~1600 a closed-first-tab return visit compiled, ~0.1 s traced at CPU x4). The
# same values come without source: on a restore `_pyodide_core` is imported already (the
# snapshot's sys.modules and __main__ hold it; the import statement only bound the name again),
# and the four values are calls on what `_pyodide._base` imports (builtins, import_module).
# snap-loader.mjs runs no source either (useAppZip, the reseeding, main.py: withModule, isAppMain).
FINALIZE_START = re.compile(r'API\.finalizeBootstrap=function\((\w+),(\w+)\)\{\1&&(\w+)\(\);'
                            r'let\[(\w+),(\w+)\]=API\.rawRun\("import _pyodide_core"\);')
FINALIZE_EVALS = ('API.runPythonInternal_dict=API._pyodide._base.eval_code("{}"),'
                  'API.importlib=API.runPythonInternal("import importlib; importlib");')
FINALIZE_EVALS_UNPARSED = ('API.runPythonInternal_dict=API._pyodide._base.builtins.dict(),'
                           'API.importlib=API._pyodide._base.import_module("importlib");')
FINALIZE_IMPORT = re.compile(r'let (\w+)=API\.importlib\.import_module;')
FINALIZE_NAMESPACES = re.compile(r'let (\w+)=API\.runPythonInternal\("import __main__; __main__\.__dict__"\),'
                                 r'(\w+)=API\.runPythonInternal\("import builtins; builtins\.__dict__"\);')


def restore_without_compiling(source: str) -> str:
    """pyodide.asm.mjs whose finalizeBootstrap compiles no Python source (see FINALIZE_START)."""
    start = FINALIZE_START.findall(source)
    namespaces = FINALIZE_NAMESPACES.findall(source)
    import_module = FINALIZE_IMPORT.findall(source)
    if len(start) != 1 or source.count(FINALIZE_EVALS) != 1 or len(namespaces) != 1 or len(import_module) != 1:
        raise SystemExit("build.py: pyodide.asm.mjs's finalizeBootstrap no longer reads as expected")
    snapshot, deserializer, sync_up, failed, said = start[0]
    main_dict, builtins_dict = namespaces[0]
    vars_of = "API._pyodide._base.builtins.vars"
    source = FINALIZE_START.sub(
        f'API.finalizeBootstrap=function({snapshot},{deserializer}){{{snapshot}&&{sync_up}();'
        f'let[{failed},{said}]={snapshot}?[0,""]:API.rawRun("import _pyodide_core");', source)
    source = FINALIZE_NAMESPACES.sub(
        f'let {main_dict}={vars_of}({import_module[0]}("__main__")),'
        f'{builtins_dict}={vars_of}({import_module[0]}("builtins"));', source)
    return source.replace(FINALIZE_EVALS, FINALIZE_EVALS_UNPARSED)


# The JavaScript modules every boot runs on the page (pyodide.mjs, snap-loader.mjs, snap-pack.mjs and
# PyScript's core chunk) are compiled whole as they are streamed, off the page's thread, not each
# function on its first call on the page's (Chromium's per-file explicit compile hint, a magic
# comment first in the file). Modules get no code cache from the service worker (classic scripts
# do, see classic_pyodide_script): on an emulated phone's return visit (one trace each, CPU x4)
# the page's V8.CompileCode summed ~0.24 s, with the hint ~0.14 s.
COMPILE_HINT = b"//# allFunctionsCalledOnLoad\n"
PYSCRIPT_STATIC_IMPORT = re.compile(r'from\s*"\./([\w.-]+\.js)"')


def compiled_on_load(source: bytes) -> bytes:
    """A JavaScript file that asks to be compiled whole as it loads (see COMPILE_HINT)."""
    return source if source.startswith(COMPILE_HINT) else COMPILE_HINT + source


def pyodide_module(source: str) -> str:
    """pyodide.asm.mjs as the app ships it (and pyodide.asm.js, classic_pyodide_script of it)."""
    return eager_pyodide_factory(lazy_main_got(yielding_receive_instance(js_wrappers_at_once(
        exports_overlaid(module_creation_without_stacks(restore_without_compiling(source)))))))


# The module's `import.meta.url` (Emscripten's own URL, a base for a file it would locate without
# Pyodide's locateFile) in the classic script: where the loader says it is, else where it runs.
ASM_SCRIPT_URL = "(globalThis._dicehallAsmUrl||self.location.href)"
MODULE_EXPORT = "export default _createPyodideModule;\n"


def classic_pyodide_script(module: str) -> str:
    """pyodide.asm.mjs (as eager_pyodide_factory leaves it) as a classic script that declares
    `_createPyodideModule`. Chromium keeps a full code cache (every function compiled) for a
    classic script a service worker stores while it installs, but none for a module it serves:
    on an emulated phone's return visit the page compiled the module's functions as they ran,
    and with this script the first game was playable sooner in 23 of 32 paired visits (three runs;
    medians 50-130 ms sooner)."""
    if not module.startswith("var _createPyodideModule=(") or not module.endswith(MODULE_EXPORT) \
            or module.count("export default") != 1 or module.count("import.meta") != module.count("import.meta.url"):
        raise SystemExit("build.py: pyodide.asm.mjs no longer reads as a factory and its export")
    return module[:-len(MODULE_EXPORT)].replace("import.meta.url", ASM_SCRIPT_URL) + "\n"


def lazy_pyscript_init(source: str) -> str:
    """PyScript's `pyscript/__init__.py` with its imports of PYSCRIPT_LAZY (also under `if not
    RUNNING_IN_WORKER:`) made lazy: the same names, each imported on first access through the
    package's `__getattr__` (PEP 562), so `from pyscript import fetch` works as before. Every
    other statement is kept as it is. A package whose lazy imports are not found is refused: an
    update of @pyscript/core must be looked at again (tests/test_build_pyscript.py)."""
    tree = ast.parse(source)
    kept, lazy, main_only = [], {}, set()

    def lazy_import(node, worker_too: bool) -> bool:
        if isinstance(node, ast.ImportFrom) and node.module in PYSCRIPT_LAZY and node.level == 0 \
                and all(alias.asname is None and alias.name != "*" for alias in node.names):
            for alias in node.names:
                lazy[alias.name] = node.module
                if not worker_too:
                    main_only.add(alias.name)
            return True
        return False

    for node in tree.body:
        if lazy_import(node, True):
            continue
        if isinstance(node, ast.If) and ast.unparse(node.test) == "not RUNNING_IN_WORKER" and not node.orelse \
                and all(lazy_import(inner, False) for inner in node.body):
            continue
        kept.append(ast.get_source_segment(source, node))
    missing = set(PYSCRIPT_LAZY) - set(lazy.values())
    if missing:
        raise SystemExit(f"build.py: PyScript's __init__.py no longer imports {sorted(missing)} as expected")
    return "\n".join(kept + [
        "# (build.py lazy_pyscript_init: these are imported on first use)",
        f"_LAZY = {dict(sorted(lazy.items()))!r}",
        f"_MAIN_ONLY = {sorted(main_only)!r}",
        "def __getattr__(name):",
        "    if name not in _LAZY or (name in _MAIN_ONLY and RUNNING_IN_WORKER):",
        "        raise AttributeError(f\"module 'pyscript' has no attribute {name!r}\")",
        "    import importlib",
        "    value = getattr(importlib.import_module(_LAZY[name]), name)",
        "    globals()[name] = value",
        "    return value",
        ""])


def build_app_zip(packages: list[tuple[Path, str]], root: Path = ROOT, extra: dict[str, bytes] | None = None) -> bytes:
    """Deterministic zip: sorted entries, fixed timestamps and permissions; every module with
    its bytecode for the shipped Pyodide next to it (mod.py, mod.pyc). The app imports straight
    from the zip (zipimport: sys.path holds app.zip, see web/main.py), which looks for bytecode
    there, not in __pycache__/. `extra`: more modules (arc name -> source), e.g. PyScript's."""
    entries: dict[str, bytes] = dict(extra or {})
    for pkg_dir, arc_root in packages:
        if not pkg_dir.is_dir():
            continue
        for path in _iter_package_files(pkg_dir):
            entries[arc_root + "/" + path.relative_to(pkg_dir).as_posix()] = path.read_bytes()
    sources = {arc: data for arc, data in entries.items() if arc.endswith(".py")}
    for arc, pyc in compile_pyc(sources, root).items():
        entries[arc + "c"] = pyc
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for arc, data in sorted(entries.items()):
            info = zipfile.ZipInfo(arc, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return buf.getvalue()


# The modules the boot snapshot's maker imports (web/snap-make.mjs), so that an interpreter
# restored from it starts with them in memory: every module of these packages whose source
# imports none of the page's modules (PAGE_MODULES, anywhere in its syntax tree; a text search
# also caught "import json"). The maker drops any that still fails (it imports one that is
# left out). Decided here, not by the maker: reading and parsing every source there was ~0.27 s
# of its ~0.62 s (CPython) on every first visit, on the way to the first game.
PRE_IMPORT_TOPS = ("pygame_core", "dicehall")
PAGE_MODULES = ("js", "pyscript", "pyodide")
SNAP_PRE_IMPORT_TOKEN = '["__DICEHALL_PRE_IMPORT__"]'


def browser_free(source: str) -> bool:
    """True when `source` imports none of PAGE_MODULES (absolute imports, at any depth)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] in PAGE_MODULES for name in names):
            return False
    return True


def pre_import_modules(app_zip: bytes) -> list[str]:
    """The browser-free modules of PRE_IMPORT_TOPS in app.zip, a package before its modules
    (none of a top package whose own `__init__` is not browser-free)."""
    sources: dict[str, str] = {}
    with zipfile.ZipFile(io.BytesIO(app_zip)) as zf:
        for arc in zf.namelist():
            parts = arc[:-3].split("/") if arc.endswith(".py") else None
            if not parts or parts[0] not in PRE_IMPORT_TOPS:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            sources[".".join(parts)] = zf.read(arc).decode("utf-8")
    names: list[str] = []
    for top in PRE_IMPORT_TOPS:
        if top not in sources or not browser_free(sources[top]):
            continue
        names += [name for name in sorted(n for n in sources if n == top or n.startswith(top + "."))
                  if browser_free(sources[name])]
    return names


def game_packages(roots: list[Path], web: Path) -> dict[str, tuple[Path | None, Path | None]]:
    """Every game: id -> (engine package dir, view package dir), a folder with __init__.py under
    pygame_core/games/ and web/dicehall/games/ of the project (`web` may be overridden) and of
    any extra root mirroring it (the tests' fixture game)."""
    games: dict[str, list] = {}
    webs = [web] + [r / "web" for r in roots[1:]]
    for root, web_root in zip(roots, webs):
        for kind, base in ((0, root / "pygame_core" / "games"), (1, web_root / "dicehall" / "games")):
            if base.is_dir():
                for path in sorted(base.iterdir()):
                    if path.is_dir() and (path / "__init__.py").is_file():
                        games.setdefault(path.name, [None, None])[kind] = path
    return {name: (pair[0], pair[1]) for name, pair in sorted(games.items())}


def bare_pyodide(dest: Path, root: Path = ROOT) -> None:
    """Pyodide's files as npm ships them, unpacked, into `dest` (the benchmarks' bare Pyodide
    page sits next to the app: bench/boot.py, bench/first_visit.py)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in (*PYODIDE_FILES, "pyodide-lock.json"):
        shutil.copy(root / "node_modules" / "pyodide" / name, dest / name)


def catalogs(web: Path, games: dict) -> dict[str, bytes]:
    """dist/i18n/: the shared catalog per language, with every game's title and blurb added (the
    home screen lists the games before any of them opens), and each game's own catalog."""
    out: dict[str, bytes] = {}
    shared_dir = web / "i18n"
    for path in sorted(shared_dir.glob("*.json")):
        lang = path.stem
        merged = json.loads(path.read_text(encoding="utf-8"))
        for name, (_, view_dir) in games.items():
            own = view_dir / "i18n" / f"{lang}.json" if view_dir else None
            if own is None or not own.is_file():
                continue
            messages = json.loads(own.read_text(encoding="utf-8"))
            for key in (f"{name}.title", f"{name}.blurb"):
                if key in messages:
                    merged[key] = messages[key]
            out[f"i18n/{name}/{lang}.json"] = (json.dumps(messages, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        out[f"i18n/{lang}.json"] = (json.dumps(merged, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    return out


def _web_static_files(web_dir: Path):
    """(source, relative dest) for web/ files copied as-is (sw.js is templated separately)."""
    if not web_dir.is_dir():
        return
    for path in sorted(web_dir.iterdir()):
        if path.is_file() and not path.name.startswith(".") and path.name not in ("sw.js", SNAP_LOADER, SNAP_MAKER, SNAP_MAKE, SNAP_SW, AI_WORKER, SNAP_PACK, BOOT_READER) \
                and path.suffix in WEB_STATIC_SUFFIXES:
            yield path, path.name


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def manifest(titles: dict[str, str] | None = None, screenshots: list[tuple[str, bytes]] = ()) -> dict:
    """The web app manifest. `titles`: game id -> English title (a shortcut to each game's set-up;
    the manifest has one language, so shortcuts use English titles). `screenshots`: (dist path,
    PNG bytes) of the install dialog's pictures, taken by tools/screenshots.py into public/."""
    shortcuts = [{"name": "Continue the game", "short_name": "Continue", "url": "./index.html#/play"}]
    for game, title in (titles or {}).items():
        shortcuts.append({"name": f"New game of {title}", "short_name": title, "url": f"./index.html#/setup/{game}"})
    shots = []
    for rel, data in screenshots:
        width, height = png_size(data)
        shots.append({"src": "./" + rel, "sizes": f"{width}x{height}", "type": "image/png",
                      "form_factor": "narrow" if width < height else "wide"})
    return {
        "id": "./",
        "name": APP_NAME,
        "short_name": APP_SHORT_NAME,
        "description": APP_DESCRIPTION,
        "start_url": "./index.html",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games", "entertainment"],
        "icons": [
            {"src": "./icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": "./icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": "./icons/icon-512-maskable.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
        "shortcuts": shortcuts[:10],
        **({"screenshots": shots} if shots else {}),
    }


_ICON_CACHE: dict[tuple[int, bool], bytes] = {}


def _icon(size: int, maskable: bool = False) -> bytes:
    key = (size, maskable)
    if key not in _ICON_CACHE:
        _ICON_CACHE[key] = render_icon(size, maskable=maskable)
    return _ICON_CACHE[key]


def _dist_files(out: Path) -> list[Path]:
    return sorted(p for p in out.rglob("*") if p.is_file())


def build(out: Path | str = DIST, *, root: Path | str = ROOT, web_dir: Path | str | None = None,
          extra_files: dict[str, bytes] | None = None, extra_roots: list[Path | str] = (),
          quiet: bool = False) -> dict:
    """Write ``out`` from scratch.  Returns a summary dict.

    ``web_dir`` overrides ``<root>/web`` (tests build a placeholder page that way);
    ``extra_files`` ({"rel/path": bytes}) are added last (tests use it to fake a new release);
    ``extra_roots`` are trees mirroring the project's (``pygame_core/games/<id>/``,
    ``web/dicehall/games/<id>/``) whose games are added (the tests' fixture game).
    """
    root = Path(root).resolve()
    out = Path(out).resolve()
    web = Path(web_dir).resolve() if web_dir else root / "web"
    ensure_node_modules(root)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    warnings: list[str] = []

    # The modules every boot runs on the page, compiled whole as they stream (COMPILE_HINT).
    core = root / "node_modules" / "@pyscript" / "core" / "dist"
    on_load = {"pyodide/pyodide.mjs", f"pyodide/{SNAP_LOADER}", f"pyodide/{SNAP_PACK}",
               *(f"pyscript/{chunk}" for chunk in PYSCRIPT_STATIC_IMPORT.findall((core / "core.js").read_text(encoding="utf-8")))}

    def write(rel: str, data: bytes) -> None:
        if rel in on_load:
            data = compiled_on_load(data)
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)

    # 1. Pyodide runtime (only what loadPyodide fetches) + trimmed lock file.
    pyo = root / "node_modules" / "pyodide"
    for name in PYODIDE_FILES:
        data = (pyo / name).read_bytes()
        if name == "python_stdlib.zip":
            stdlib = trimmed_stdlib(data)
            continue  # written with its bytecode once app.zip is made (step 3)
        shipped = {name: data}
        if name == "pyodide.asm.mjs":
            module = pyodide_module(data.decode("utf-8"))
            shipped = {name: module.encode("utf-8"), ASM_SCRIPT: classic_pyodide_script(module).encode("utf-8")}
        for name, data in shipped.items():
            if name in PACKED_FILES:
                write(f"pyodide/{name}.gz", gzip.compress(data, compresslevel=9, mtime=0))
                data = PACKED_FILES[name][1]
            write("pyodide/" + name, data)
    lock = json.loads((pyo / "pyodide-lock.json").read_text(encoding="utf-8"))
    write("pyodide/pyodide-lock.json",
          json.dumps({"info": lock["info"], "packages": {}}, separators=(",", ":")).encode())

    # 2. PyScript core (chunk names are hashed, so all of dist/ minus source maps).
    for path in sorted(core.rglob("*")):
        if path.is_file() and not path.name.endswith(".map") and not path.name.startswith(PYSCRIPT_UNUSED):
            write("pyscript/" + path.relative_to(core).as_posix(), path.read_bytes())
    for rel, src in VENDOR_FILES.items():  # precached with everything else (step 6)
        write(rel, (root / "node_modules" / src).read_bytes())

    # 3. Python packages -> app.zip (written as it is into the interpreter's cwd by
    #    web/snap-loader.mjs; the app imports from it, see useAppZip there).
    roots = [root, *(Path(r).resolve() for r in extra_roots)]
    games = game_packages(roots, web)
    packages = [(root / "pygame_core", "pygame_core"), (web / "dicehall", "dicehall")]
    for name, (engine_dir, view_dir) in games.items():
        if engine_dir is None or view_dir is None:
            warnings.append(f"game {name} lacks its {'engine' if engine_dir is None else 'view'} package")
        if engine_dir is not None and engine_dir.parent != root / "pygame_core" / "games":
            packages.append((engine_dir, f"pygame_core/games/{name}"))
        if view_dir is not None and view_dir.parent != web / "dicehall" / "games":
            packages.append((view_dir, f"dicehall/games/{name}"))
    for pkg_dir, _ in packages[:2]:
        if not pkg_dir.is_dir():
            warnings.append(f"package dir missing, skipped: {pkg_dir}")
    app_zip = build_app_zip(packages, root, extra=pyscript_package(root))
    write("app.zip", app_zip)
    # The boot snapshot's modules sit next to pyodide.mjs (PyScript derives indexURL from the
    # loader's location), each from the web dir given, else the project's. The loader's cache key
    # carries app.zip's hash, so a new app never restores old modules; the maker gets the list of
    # modules it imports (pre_import_modules).
    def boot_module(name: str, token: str | None = None, value: str = "") -> None:
        source = web / name if (web / name).is_file() else root / "web" / name
        text = source.read_bytes()
        if token is not None:
            if token.encode() not in text:
                raise SystemExit(f"build.py: {source} lacks {token}")
            text = text.replace(token.encode(), value.encode())
        write(f"pyodide/{name}", text)

    boot_module(SNAP_LOADER, SNAP_APP_HASH_TOKEN, hashlib.sha256(app_zip).hexdigest()[:16])
    boot_module(SNAP_MAKE, SNAP_PRE_IMPORT_TOKEN, json.dumps(pre_import_modules(app_zip)))
    for name in (SNAP_MAKER, SNAP_SW, AI_WORKER, SNAP_PACK, BOOT_READER):  # copied as they are
        boot_module(name)
    # The standard library, its modules a boot imports as bytecode (stdlib_bytecode).
    write("pyodide/python_stdlib.zip",
          stdlib_with_bytecode(stdlib, stdlib_bytecode(stdlib, app_zip, out / "pyodide" / SNAP_MAKE, root)))
    # Game data (e.g. a solver's table) is fetched when the game opens: dist/data/<game>/, with
    # data/index.json giving each file's sha256 so the app refuses a truncated or altered copy.
    data_index: dict[str, dict[str, str]] = {}
    for name, (engine_dir, _) in games.items():
        data_dir = engine_dir / "data" if engine_dir else None
        if data_dir is not None and data_dir.is_dir():
            for path in sorted(data_dir.iterdir()):
                if path.is_file() and not path.name.startswith((".", "_")) and path.suffix != ".py":
                    data = path.read_bytes()
                    write(f"data/{name}/{path.name}", data)
                    data_index.setdefault(name, {})[path.name] = hashlib.sha256(data).hexdigest()
    write("data/index.json", (json.dumps(data_index, sort_keys=True) + "\n").encode())
    write("pyscript.json", (json.dumps(
        {"interpreter": f"./pyodide/{SNAP_LOADER}",
         "plugins": [f"!{name}" for name in PYSCRIPT_UNUSED_PLUGINS]}, indent=2) + "\n").encode())
    for rel, data in catalogs(web, games).items():
        write(rel, data)
    # The screens a first visit paints before Python (web/early.js), drawn by the shell itself:
    # CPython runs dicehall.prerender against the app.zip just written, with these catalogs.
    drawn = subprocess.run([sys.executable, "-m", "dicehall.prerender", str(out)], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(out / "app.zip"), "PYTHONDONTWRITEBYTECODE": "1"})
    if drawn.returncode != 0:
        raise SystemExit(f"build.py: drawing the early screens failed:\n{drawn.stderr}")

    # 4. Generated icons + manifest.
    write("icons/icon-192.png", _icon(192))
    write("icons/icon-512.png", _icon(512))
    write("icons/icon-512-maskable.png", _icon(512, True))
    write("icons/apple-touch-icon.png", _icon(180, True))
    write("favicon.png", _icon(48))
    write("favicon.ico", ico_from_png(_icon(32), 32))
    titles = {}
    for name, (_, view_dir) in games.items():
        try:
            titles[name] = json.loads((view_dir / "i18n" / "en.json").read_text(encoding="utf-8"))[f"{name}.title"]
        except (OSError, ValueError, KeyError, TypeError):
            warnings.append(f"game {name}: no English title for the manifest shortcut")
    shots_dir = root / "public" / "screenshots"
    shots = [(f"screenshots/{p.name}", p.read_bytes()) for p in sorted(shots_dir.glob("*.png"))] if shots_dir.is_dir() else []
    write("manifest.webmanifest", (json.dumps(manifest(titles, shots), indent=2, ensure_ascii=False) + "\n").encode())

    # 5. Front-end static files (app.css gets every game's style.css appended), then public/.
    for src, rel in _web_static_files(web):
        data = src.read_bytes()
        if rel == "app.css":
            for name, (_, view_dir) in games.items():
                style = view_dir / "style.css" if view_dir else None
                if style is not None and style.is_file():
                    data += f"\n/* --- {name} --- */\n".encode() + style.read_bytes()
        write(rel, data)
    if not (out / "sw-register.js").exists() and (root / "web" / "sw-register.js").is_file():
        write("sw-register.js", (root / "web" / "sw-register.js").read_bytes())
    public = root / "public"
    if public.is_dir():
        for path in sorted(public.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                rel = path.relative_to(public).as_posix()
                if (out / rel).exists():
                    warnings.append(f"public/{rel} overrides a generated/web file")
                write(rel, path.read_bytes())
    for rel, data in (extra_files or {}).items():
        write(rel, data)

    index = out / "index.html"
    if not index.is_file():
        warnings.append("no index.html (web/index.html missing)")
    else:
        html = index.read_text(encoding="utf-8", errors="replace")
        for needle in ("manifest.webmanifest", "sw-register.js", 'rel="icon"'):
            if needle not in html and needle.replace('"', "") not in html:
                warnings.append(f"index.html does not reference {needle}")

    # 6. Service worker: precache list + content version injected into web/sw.js.
    sw_src_path = web / "sw.js"
    if not sw_src_path.is_file():
        sw_src_path = root / "web" / "sw.js"
    sw_src = sw_src_path.read_text(encoding="utf-8")
    for token in (SW_VERSION_TOKEN, SW_PRECACHE_TOKEN, SW_OPTIONAL_TOKEN, SW_PACKED_TOKEN):
        if token not in sw_src:
            raise SystemExit(f"build.py: {sw_src_path} lacks placeholder {token}")
    files = [p for p in _dist_files(out) if p.relative_to(out).as_posix() != "sw.js"]
    h = hashlib.sha256()
    for p in files:
        rel = p.relative_to(out).as_posix()
        h.update(rel.encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    h.update(b"sw.js\0" + hashlib.sha256(sw_src.encode()).digest())
    version = h.hexdigest()[:12]
    rels = [p.relative_to(out).as_posix() for p in files]
    optional = ["./" + r for r in rels if r.startswith("data/") and r != "data/index.json"]
    packed = {f"./pyodide/{name}": content_type for name, (content_type, _) in PACKED_FILES.items()}
    precache = ["./" + r for r in rels if "./" + r not in optional and "./" + r not in packed]
    sw = sw_src.replace(SW_VERSION_TOKEN, json.dumps(version)).replace(
        SW_PRECACHE_TOKEN, json.dumps(precache, indent=2)).replace(SW_OPTIONAL_TOKEN, json.dumps(optional, indent=2)).replace(
        SW_PACKED_TOKEN, json.dumps(packed, indent=2))
    write("sw.js", sw.encode())

    all_files = _dist_files(out)
    total = sum(p.stat().st_size for p in all_files)
    precache_bytes = sum(p.stat().st_size for p in files)
    summary = {
        "out": str(out), "version": version, "files": len(all_files), "total_bytes": total,
        "precache_files": len(precache) + len(optional), "precache_bytes": precache_bytes, "warnings": warnings,
        "optional": optional,
    }
    if not quiet:
        for w in warnings:
            print("build.py: warning:", w)
        print(f"build.py: {out} — {len(all_files)} files, {total:,} bytes "
              f"({total / 1048576:.2f} MiB), precache {len(precache)} files + {len(optional)} optional, version {version}")
    if total >= MAX_TOTAL_BYTES:
        raise SystemExit(f"build.py: dist is {total:,} bytes, over the {MAX_TOTAL_BYTES // 1_000_000} MB budget")
    return summary


# ---------------------------------------------------------------- static server
class _Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive; every response carries Content-Length
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json", ".json": "application/json",
        ".css": "text/css", ".html": "text/html; charset=utf-8", ".py": "text/plain; charset=utf-8",
        ".zip": "application/zip", ".png": "image/png", ".ico": "image/x-icon", ".svg": "image/svg+xml",
    }
    quiet = True

    def _etag(self, path: str) -> str | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        return f'"{st.st_mtime_ns:x}-{st.st_size:x}"'

    def send_head(self):
        # Strong validator so a same-second rebuild is never answered "304" with stale bytes.
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if os.path.isfile(index) and self.path.split("?", 1)[0].endswith("/"):
                path = index
        etag = self._etag(path) if os.path.isfile(path) else None
        self._dicehall_etag = etag
        if etag and etag in [t.strip() for t in self.headers.get("If-None-Match", "").split(",")]:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return None
        return super().send_head()

    def end_headers(self):
        name = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
        if name in ("sw.js", "index.html", ""):
            self.send_header("Cache-Control", "no-cache")
        else:
            self.send_header("Cache-Control", "max-age=600")
        etag = getattr(self, "_dicehall_etag", None)
        if etag and not self._headers_buffer_has(b"ETag:"):
            self.send_header("ETag", etag)
        super().end_headers()

    def _headers_buffer_has(self, prefix: bytes) -> bool:
        return any(line.startswith(prefix) for line in getattr(self, "_headers_buffer", []))

    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        if not self.quiet:
            super().log_message(format, *args)


class DiceHallServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def start_in_thread(self) -> threading.Thread:
        t = threading.Thread(target=self.serve_forever, name="dicehall-http", daemon=True)
        t.start()
        return t

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


def serve(directory: Path | str = DIST, port: int = 8000, *, host: str = "127.0.0.1",
          quiet: bool = True) -> DiceHallServer:
    """Create (not start) a threaded static server for ``directory``.

    ``srv = serve(dist, 0); srv.start_in_thread(); srv.url; srv.stop()``
    (or ``threading.Thread(target=srv.serve_forever)``).
    """
    handler = functools.partial(type("H", (_Handler,), {"quiet": quiet}), directory=str(directory))
    return DiceHallServer((host, port), handler)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", nargs="?", choices=["build", "serve"], default="build")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--out", default=str(DIST))
    args = ap.parse_args(argv)
    build(args.out)
    if args.command == "serve":
        srv = serve(args.out, args.port, quiet=False)
        print(f"Serving {args.out} on {srv.url} (Ctrl-C to stop)", flush=True)
        try:
            srv.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
