// Node: a snapshot of a freshly booted, bare Pyodide interpreter, made at build time
// (tools/bare_snapshot.py explains why; static/boot_snapshot.js restores it).
//   node tools/bare_snapshot.mjs <dist/pyodide/ (patched runtime)> <out.snap> <out.json>
// out.snap: the snapshot with the runtime's data segment XORed out of its memory, gzip-compressed;
// out.json: its size and SHA-256 (unmasked), and where the data segment sits in memory.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { pathToFileURL } from "node:url";
import { wasmDataSegment, xorDataSegment, fillBuildSnapshot } from "../static/boot_snapshot.js";
import { sha256Hex } from "../static/restart_snapshot.js";

const [dir, outSnap, outJson] = process.argv.slice(2);
const indexURL = path.resolve(dir) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const wasm = fs.readFileSync(indexURL + "pyodide.asm.wasm");
const segment = wasmDataSegment(wasm);

const made = await loadPyodide({ indexURL, fullStdLib: false, _makeSnapshot: true });
// the data segment is placed at the memory base Emscripten gives a main module (1024): most of
// its bytes are still there after the boot
const dataBase = 1024;
const heap = made._module.HEAPU8;
let same = 0;
for (let k = 0; k < segment.length; k++) if (heap[dataBase + k] === segment[k]) same++;
if (same < 0.9 * segment.length) throw new Error(`the wasm's data segment is not at ${dataBase} (${same} of ${segment.length} bytes match)`);

// the stdlib modules the snapshot holds imported: a visit started from it needs no source of theirs
// (tools/bare_snapshot.py ships the stdlib zip without them for it)
const scope = made.globals.get("dict")(); // (not __main__'s: the snapshot's stays as the boot left it)
const modules = JSON.parse(made.runPython(`
import sys, json
_pre = "/lib/python312.zip/"
json.dumps(sorted(m.__file__[len(_pre):] for m in list(sys.modules.values()) if (getattr(m, "__file__", None) or "").startswith(_pre)))
`, { globals: scope }));
scope.destroy();
const snapshot = made.makeMemorySnapshot();
const info = { size: snapshot.length, sha256: await sha256Hex(snapshot), dataBase, modules };
const masked = Uint8Array.from(snapshot);
xorDataSegment(masked, segment, dataBase);
const packed = zlib.gzipSync(masked, { level: 9 });

// the page's way back (static/boot_snapshot.js) gives the same bytes, and a Python that answers
const again = new Uint8Array(info.size);
await fillBuildSnapshot(again, { ...info, file: "x.snap" }, "http://build.invalid/", Promise.resolve(wasm),
                        async () => new Response(packed));
const restored = await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: again });
const answer = restored.runPython("import sys, math\nf'{sys.version_info[0]}.{sys.version_info[1]} {math.factorial(5)}'");
if (answer !== "3.12 120") throw new Error("the restored bare interpreter answered " + answer);

fs.writeFileSync(outSnap, packed);
fs.writeFileSync(outJson, JSON.stringify(info));
