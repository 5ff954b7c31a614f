// Node: the post-import snapshot (static/import_snapshot.js) made at build time, as the browser's
// snapshot worker makes it (static/worker.js makeImportsSnapshot): numpy, the engine and the UI
// stage's wheels loaded and imported, every side module's place recorded.
//   node tools/imports_snapshot.mjs <dist/> <out.snap> <out.json> [placeholder base URL]
// out.snap: the packed blob (meta, site-packages files, memory) with the runtime's data segment
// XORed out of the memory, gzip-compressed; out.json: sizes, SHA-256 (of the packed blob, unmasked),
// timings. An investigation tool, not part of the build: docs/snapshot.md ("A first visit from a
// post-import snapshot made at build time") gives what it measured.
// Env: GP_STAGES=numpy,engine (leave the UI stage out), GP_SIZES=1 (other packings), GP_RAW=<path>
// (also write the unmasked blob: tools/probe_build_imports.py seeds a browser with it).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { pathToFileURL } from "node:url";
import { wasmDataSegment, xorDataSegment } from "../static/boot_snapshot.js";
import { sha256Hex } from "../static/restart_snapshot.js";
import { recordDylinks, packSnapshot, readTree, serializeJsFunction, unpackSnapshot, restoreImports, PROBE } from "../static/import_snapshot.js";

const [dist, outSnap, outJson, base = "http://gradpad-build.invalid/"] = process.argv.slice(2);
const t0 = Date.now();
const lap = {};
const indexURL = path.resolve(dist, "pyodide") + "/";
const M = JSON.parse(fs.readFileSync(path.join(dist, "manifest.json"), "utf8"));
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const wasm = fs.readFileSync(indexURL + "pyodide.asm.wasm");
const segment = wasmDataSegment(wasm);

// what the imports take from the page's `js` (a worker's globals) and Node lacks: stand-ins, which a
// restore resolves again by name in the browser (Pyodide saves such objects as their path)
globalThis.XMLHttpRequest ??= class XMLHttpRequest {};

// GP_STAGES=numpy,engine: without the UI stage (Panel, Bokeh), which is most of the memory
const stages = (process.env.GP_STAGES || "numpy,engine,ui").split(",");
const names = stages.flatMap((s) => M.stages[s]);
const recorder = recordDylinks();
// A browser's runtime adds functions of its own to the table as it boots (Chromium: one more than
// Node, probably the wasm-GC trampoline CPython calls C through): the libraries are placed after a few
// empty slots, so that they are free in any browser (restoreImports refuses a taken slot)
const TABLE_RESERVE = 8;
const recordPlace = globalThis.gradpadDylink.place;
let reserved = false;
globalThis.gradpadDylink.place = (name, metadata, table) => {
  if (!reserved) { reserved = true; table.grow(TABLE_RESERVE); }
  return recordPlace(name, metadata, table);
};
const py = await loadPyodide({ indexURL, fullStdLib: false, _makeSnapshot: true });
lap.boot = Date.now() - t0;
const errors = [];
await py.loadPackage(names, { checkIntegrity: true, errorCallback: (m) => errors.push(m), messageCallback: () => {} });
if (errors.length) throw new Error(errors.join("\n"));
lap.loaded = Date.now() - t0;
const scope = py.globals.get("dict")();
py.runPython("import app.bootstrap\napp.bootstrap.engine_info()", { globals: scope });
if (stages.includes("ui")) py.runPython(`
import importlib, app.bootstrap as b
b.prepare_panel(${JSON.stringify(new URL(M.panel.cdn_root, base).href)})
for m in b.UI_IMPORT_STEPS:
    importlib.import_module(m)
importlib.import_module("app.main").load_panel_extension()
b.panel_imported()
import app.env
app.env._page_state = None
`, { globals: scope });
py.runPython(PROBE, { globals: scope });
const imported = JSON.parse(py.runPython(`
import sys, json, gc
_webgpu = sys.modules.get("core._engine.backends.webgpu.runtime")
if _webgpu is not None:
    _webgpu._runtime = _webgpu._failure = None
del _webgpu
gc.collect()
gc.freeze()
json.dumps(sorted({getattr(m, "__file__", None) or "" for m in list(sys.modules.values())} - {""}))
`, { globals: scope }));
scope.destroy();
lap.imported = Date.now() - t0;
const meta = recorder.finish(py, names);
meta.build = M.build;
meta.stages = stages;
meta.madeIn = "node";  // (its memory holds Node's runtime choices: see worker.js restoreTrampoline)
const loaded = { ...py.loadedPackages };
for (const k of Object.keys(loaded)) delete py.loadedPackages[k];
// (zeroing the free heap first was tried: 4.2 MB of it, and the gzip size did not change)
const raw = py.makeMemorySnapshot({ serializer: serializeJsFunction });
Object.assign(py.loadedPackages, loaded);
const files = readTree(py.FS, py._api.sitepackages);
const importedSet = new Set(imported);
// files a restored Python never reads: the compiled modules it holds imported already
// (the .so files stay: each library is loaded again from its file on restore)
const needed = files.filter((f) => !importedSet.has(f.path) || f.path.endsWith(".so"));
const blob = packSnapshot(meta, raw, files);
const blobNeeded = packSnapshot(meta, raw, needed);
lap.made = Date.now() - t0;

function masked(b) {
  const { snapshot } = unpackSnapshot(b);
  const out = Uint8Array.from(b);
  const at = b.length - snapshot.length;
  xorDataSegment(out.subarray(at), segment, 1024);
  return out;
}
const gz = (b, level) => zlib.gzipSync(b, { level });
const sizes = {
  memory: raw.length, files: files.reduce((n, f) => n + f.data.length, 0), nFiles: files.length,
  filesNeeded: needed.reduce((n, f) => n + f.data.length, 0), nNeeded: needed.length,
  blob: blob.length, blobNeeded: blobNeeded.length,
};
// what the needed files are, by top folder (biggest first)
const byDir = {};
for (const f of needed) {
  const k = f.path.split("/").slice(4, 7).join("/");
  byDir[k] = (byDir[k] || 0) + f.data.length;
}
sizes.neededBiggest = Object.entries(byDir).sort((a, b) => b[1] - a[1]).slice(0, 15);
const packed = gz(masked(blobNeeded), 9);
sizes.gzBlobNeededMasked9 = packed.length;
if (process.env.GP_SIZES) {  // the other ways to pack it, for comparison (a minute of CPU)
  sizes.gzMemory = gz(raw, 6).length;
  sizes.gzMemoryMasked = gz(masked(packSnapshot({ format: 2, files: [] }, raw)), 6).length;
  sizes.brBlobNeededMasked = zlib.brotliCompressSync(masked(blobNeeded), { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 } }).length;
}
if (process.env.GP_RAW) fs.writeFileSync(process.env.GP_RAW, blobNeeded);  // the unmasked blob (experiments)
lap.compressed = Date.now() - t0;

// the way back, in Node: the blob restores and answers the probe
const [again] = await restoreImports(loadPyodide, { indexURL, blob: blobNeeded });
const s2 = again.globals.get("dict")();
const answer = again.runPython(PROBE, { globals: s2 });
lap.restored = Date.now() - t0;
if (answer !== "ok") throw new Error("the restored Python answered " + answer);

fs.writeFileSync(outSnap, packed);
fs.writeFileSync(outJson, JSON.stringify({ sha256: await sha256Hex(blobNeeded), size: blobNeeded.length, sizes, lap,
                                          bootTableLength: meta.bootTableLength, libs: meta.libs.length }, null, 1));
console.log(JSON.stringify({ sizes, lap, bootTableLength: meta.bootTableLength }, null, 1));
process.exit(0);
