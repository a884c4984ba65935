// The offline page's engine checked against the golden transcripts: loads Pyodide (the
// npm package installed by `npm ci`), the offline bundle (python -m canasta.offline.bundle)
// and tests/golden, replays every transcript in Pyodide with canasta.sim.golden.check and
// prints one JSON line: {"ok": true} or {"ok": false, "problem": "...the diff..."}.
//   node tools/offline_golden.mjs BUNDLE.zip GOLDEN_DIR [PYODIDE_DIR]
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [bundle, golden, pyodideDir = "node_modules/pyodide"] = process.argv.slice(2);
if (!bundle || !golden) {
  console.error("usage: node tools/offline_golden.mjs BUNDLE.zip GOLDEN_DIR [PYODIDE_DIR]");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.resolve(pyodideDir, "pyodide.mjs")).href);
const started = Date.now();
const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
py.FS.mkdirTree("/bundle");
py.unpackArchive(new Uint8Array(fs.readFileSync(bundle)), "zip", { extractDir: "/bundle" });
py.FS.mkdirTree("/golden");
for (const name of fs.readdirSync(golden)) {
  if (name.endsWith(".txt")) py.FS.writeFile("/golden/" + name, fs.readFileSync(path.join(golden, name), "utf8"));
}
const loaded = Date.now() - started;
const out = py.runPython(`
import json, os, sys, time
os.environ["CANASTA_PURE"] = "1"
sys.path.insert(0, "/bundle")
from pathlib import Path
import canasta.core
from canasta.sim import golden
t = time.perf_counter()
problem = golden.check(Path("/golden"))
json.dumps({"ok": problem is None, "problem": problem, "compiled": canasta.core.COMPILED,
            "python": sys.version.split()[0], "files": len(list(Path("/golden").glob("*.txt"))),
            "check_s": round(time.perf_counter() - t, 2)})
`);
const result = JSON.parse(out);
result.load_ms = loaded;
console.log(JSON.stringify(result));
process.exit(result.ok ? 0 : 1);
