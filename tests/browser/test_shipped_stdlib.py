"""The shipped standard library (dist/pyodide/python_stdlib.zip, build.py): the modules a boot
imports are there as bytecode, the others as sources, and the codec tables left out fail
plainly. Run under Node with the shipped Pyodide as the snapshot maker runs (no browser)."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile

import pytest

import build

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="no node")

CHECK = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { loadPyodide } from %(pyodide)s;
const dist = %(dist)s;
const { PRE_IMPORT } = await import(pathToFileURL(dist + "/pyodide/snap-make.mjs").href);
const pyodide = await loadPyodide({ stdLibURL: dist + "/pyodide/python_stdlib.zip", stdout: () => {}, stderr: () => {} });
pyodide.FS.writeFile("app.zip", readFileSync(dist + "/app.zip"));
pyodide.runPython("import os, sys\\nsys.path.insert(0, os.path.abspath('app.zip'))");
pyodide.runPython(PRE_IMPORT);
process.stdout.write(pyodide.runPython(`
import json, sys
def stdlib_files():
    return {n: (m.__file__, m.__spec__.origin == "frozen") for n, m in list(sys.modules.items())
            if (getattr(m, "__file__", None) or "").startswith("/lib/python")}
booted = stdlib_files()
import difflib  # a module no boot imports
def decodes(codec):
    try:
        return b"\\\\x80".decode(codec)
    except LookupError as err:
        return "LookupError: " + str(err)
json.dumps({"booted": booted, "difflib": difflib.__file__, "json_doc": sys.modules["json"].__doc__,
            "codecs": {c: decodes(c) for c in ("cp437", "cp1252", "latin-1", "cp1250", "iso8859_2", "mac_roman")}})
`));
"""


def test_a_boot_compiles_nothing_and_the_rest_stays_sources(dist_dir, tmp_path):
    dist, _ = dist_dir
    script = tmp_path / "check.mjs"
    script.write_text(CHECK % {"pyodide": json.dumps((build.ROOT / "node_modules" / "pyodide" / "pyodide.mjs").as_uri()),
                               "dist": json.dumps(str(dist))}, encoding="utf-8")
    done = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=300, check=True)
    result = json.loads(done.stdout)
    booted = result["booted"]
    assert len(booted) > 60 and "json" in booted and "pygame_core" not in booted
    from_source = sorted(n for n, (path, frozen) in booted.items() if path.endswith(".py") and not frozen)
    assert from_source == [], "a boot compiled these from source"
    assert booted["json"][0].endswith("/json/__init__.pyc")
    assert result["json_doc"] is None  # shipped without docstrings
    assert result["difflib"].endswith("/difflib.py")  # no boot imports it: its source, compiled if used
    codecs = result["codecs"]
    assert codecs["cp437"] == "Ç" and codecs["cp1252"] == "€" and codecs["latin-1"] == "\x80"
    for left_out in ("cp1250", "iso8859_2", "mac_roman"):
        assert codecs[left_out].startswith("LookupError: unknown encoding"), left_out


def test_the_zip_keeps_every_other_entry_and_its_order(dist_dir):
    dist, _ = dist_dir
    npm = zipfile.ZipFile(build.ROOT / "node_modules" / "pyodide" / "python_stdlib.zip").namelist()
    shipped = zipfile.ZipFile(dist / "pyodide" / "python_stdlib.zip").namelist()
    as_sources = [n[:-1] if n.endswith(".pyc") else n for n in shipped]
    left_out = [n for n in npm if n not in as_sources]
    assert as_sources == [n for n in npm if n not in left_out], "same order"
    assert left_out and all(n.split("/")[0] in build.STDLIB_UNUSED or build.STDLIB_CODEC_TABLES.fullmatch(n)
                            for n in left_out)
    assert not any(build.STDLIB_CODEC_TABLES.fullmatch(f"encodings/{c}.py") for c in ("cp437", "cp1252", "utf_8", "latin_1", "charmap"))
    assert sum(n.endswith(".pyc") for n in shipped) > 60
