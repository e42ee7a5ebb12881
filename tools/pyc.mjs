/* Compiles Python sources to bytecode with the Pyodide that runs them (build.py calls this).
 *
 * stdin: JSON [[name, source], …]; stdout: JSON {name: base64 of the .pyc}. The .pyc files are
 * "unchecked hash" ones: the importer uses them without comparing them with the source's
 * modification time, which app.zip does not keep. Bytecode is specific to the Python
 * build, so it must come from node_modules/pyodide, the same Pyodide the app ships.
 */
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const files = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (text) => process.stderr.write(text + "\n") });
pyodide.globals.set("files", pyodide.toPy(files));
const result = pyodide.runPython(`
import base64, json, os, py_compile
out = {}
for name, source in files:
    src = "/src/" + name
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with open(src, "w", encoding="utf-8") as f:
        f.write(source)
    pyc = py_compile.compile(src, cfile=src + "c", dfile=name, doraise=True,
                             invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open(pyc, "rb") as f:
        out[name] = base64.b64encode(f.read()).decode()
json.dumps(out)
`);
process.stdout.write(result);
