/* The standard-library modules a boot imports, compiled to bytecode (build.py calls this).
 *
 * Pyodide ships its standard library as sources (python_stdlib.zip: .py files only), so every
 * boot compiled each module it imported: on a desktop, ~1.5 s of the ~2.5 s a first visit's
 * interpreter took to boot (loadPyodide in a worker: 2.6 s with the sources, 1.06 s with their
 * bytecode). This boots the app's own Pyodide under Node as the snapshot maker does (Pyodide's boot,
 * app.zip on sys.path, then the maker's own Python: snap-make.mjs PRE_IMPORT, read from the built
 * file so both run the same text), and answers with the bytecode of every module it imported
 * from the standard library, without their docstrings (below).
 *
 * argv: the built snap-make.mjs, the (trimmed) python_stdlib.zip, app.zip.
 * stdout: JSON {arc name of a .py in the zip: base64 of its .pyc}. The .pyc files are "unchecked
 * hash" ones, as app.zip's (tools/pyc.mjs): the importer takes them as they are. Bytecode is
 * specific to the Python build, so it must come from node_modules/pyodide, the Pyodide shipped.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const [snapMake, stdlib, appZip] = process.argv.slice(2);
const { PRE_IMPORT } = await import(pathToFileURL(snapMake).href);
if (typeof PRE_IMPORT !== "string") throw new Error(`${snapMake} exports no PRE_IMPORT`);
const pyodide = await loadPyodide({ stdLibURL: stdlib, stdout: () => {}, stderr: (text) => process.stderr.write(text + "\n") });
pyodide.FS.writeFile("app.zip", readFileSync(appZip));
pyodide.runPython("import os, sys\nsys.path.insert(0, os.path.abspath('app.zip'))");
pyodide.runPython(PRE_IMPORT);
// the modules imported so far, before this tool's own imports below
pyodide.runPython("import sys\n_dicehall_booted = list(sys.modules.values())");
const result = pyodide.runPython(`
import ast, base64, importlib.util, json, sys, zipimport
from importlib._bootstrap_external import _code_to_hash_pyc

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)

def _without_docstrings(tree):
    # Each docstring becomes a pass (the next statement is then never taken for one): __doc__
    # is None, as under python -OO, whose docstring removal the standard library is tested with;
    # assert statements stay. About 0.23 MB less to download.
    for node in ast.walk(tree):
        first = node.body[0] if isinstance(node, _DOCUMENTED) and node.body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            node.body[0] = ast.copy_location(ast.Pass(), first)
    return tree

def _dicehall_stdlib_bytecode():
    home = next(p for p in sys.path if p.endswith(".zip") and "/lib/python" in p) + "/"
    archive = zipimport.zipimporter(home)
    out = {}
    for module in _dicehall_booted:
        path = getattr(module, "__file__", None) or ""
        spec = getattr(module, "__spec__", None)
        if not (path.startswith(home) and path.endswith(".py")) or (spec and spec.origin == "frozen"):
            continue  # (a frozen module, such as os, names its source but is not read from it)
        arc = path[len(home):]
        source = archive.get_data(arc)
        # compiled under the name the module is imported by, as the importer would have
        code = compile(_without_docstrings(ast.parse(source, path)), path, "exec", dont_inherit=True)
        out[arc] = base64.b64encode(_code_to_hash_pyc(code, importlib.util.source_hash(source), False)).decode()
    return json.dumps(out, sort_keys=True)

_dicehall_stdlib_bytecode()
`);
process.stdout.write(result);
