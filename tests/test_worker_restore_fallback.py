"""A worker whose snapshot restore fails boots nothing more (static/worker.js): it says
`restore-failed` and the page starts a fresh worker with no snapshot (static/loader.js bootFresh).
A second loadPyodide in the worker whose restore failed once never finished (CI, stop 35: the page
stayed on "Starting…" for good). Here worker.js runs under Node with a stand-in Pyodide whose
restore fails as CI's did (a library's file not in the file system: emscripten asks `locateFile`,
which Pyodide has made throw), and a stand-in Cache Storage holding a post-import snapshot whose
hash the page recorded. The browser side: tests/browser/test_import_snapshot.py."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from node_js import run_script

ROOT = Path(__file__).resolve().parent.parent

# a stand-in for pyodide.mjs: each loadPyodide is counted; one given a snapshot fails in its
# `_afterSnapshotRestore` as Pyodide 0.27.7 does when a library's file is not there
PYODIDE = r"""
export async function loadPyodide(opts) {
  globalThis.loadPyodideCalls.push(opts._loadSnapshot ? "snapshot" : "plain");
  if (globalThis.wasmFails) {  // as Pyodide 0.27.7's instantiateWasm: the failure logged, loadPyodide never settles
    WebAssembly.instantiateStreaming(Promise.reject(new Error("Out of memory: Cannot allocate Wasm memory for new instance")), {})
      .catch((e) => console.warn("wasm instantiation failed!", String(e)));
    return new Promise(() => {});
  }
  if (!opts._loadSnapshot) return { runPython: () => "ok", setInterruptBuffer() {}, pyimport() { throw new Error("a plain boot went on here"); } };
  await opts._loadSnapshot;
  if (opts._beforeSnapshotRestore) await opts._beforeSnapshotRestore();
  const Module = {
    FS: { mkdirTree() {}, writeFile() {} }, wasmTable: { length: 0 }, LDSO: { loadedLibsByName: {}, loadedLibsByHandle: {} },
    locateFile() { throw new Error("Didn't expect to load any more file_packager files!"); },
    async loadDynamicLibrary(name) { return Module.locateFile(name); },
  };
  await opts._afterSnapshotRestore(Module);
  throw new Error("the restore went on after its libraries failed");
}
"""

NODE = r"""
const dir = %(dir)s;
const posted = [];
globalThis.loadPyodideCalls = [];
globalThis.wasmFails = %(wasm_fails)s;
globalThis.self = globalThis;
globalThis.postMessage = (msg) => posted.push(msg);
const { packSnapshot } = await import(dir + "import_snapshot.js");
const meta = { format: 2, libs: [{ name: "/lib/python3.12/site-packages/numpy/_core/_multiarray_umath.so", memoryBase: 0, tableBase: 0 }],
               aliases: {}, handles: {}, slots: [], bootTableLength: 0, packages: {}, stages: ["numpy", "engine", "ui"] };
const blob = packSnapshot(meta, new Uint8Array(64), []);  // (no files: the library's is missing)
const hex = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", blob)), (b) => b.toString(16).padStart(2, "0")).join("");
const deleted = [];
globalThis.caches = {
  open: async (name) => ({
    match: async (key) => key.endsWith("imports-snapshot.bin") && !deleted.includes(key) ? new Response(blob) : undefined,
    delete: async (key) => { deleted.push(key); return true; },
  }),
  delete: async () => true,
};
await import(dir + "worker.js");
self.onmessage({ data: { type: "init", base: dir, search: "", hash: "", origin: "http://site", pathname: "/", storage: {},
                         interrupt: null, restoreCode: null, standby: false, snapshotHash: null,
                         importsSnapshotHash: globalThis.wasmFails ? null : hex } });
for (let i = 0; i < 200 && !posted.some((m) => ["restore-failed", "boot-error", "ready"].includes(m.type)); i++)
  await new Promise((r) => setTimeout(r, 10));
await new Promise((r) => setTimeout(r, 100)); // (anything the worker would do next)
const said = posted.filter((m) => !["mark", "stage", "resource"].includes(m.type));
const marks = posted.filter((m) => m.type === "mark").map((m) => m.name);
console.log("@@" + JSON.stringify({ said, marks, calls: globalThis.loadPyodideCalls, deleted }));
process.exit(0);
"""

MANIFEST = {
    "build": "t", "pyodide": "0.27.7", "bareSnapshot": None, "lazy": None,
    "stages": {"numpy": ["numpy"], "engine": ["gradpad"], "ui": []},
    "files": {"numpy": {"file": "pyodide/numpy.whl", "integrity": "sha256-x"},
              "gradpad": {"file": "pyodide/gradpad.whl", "integrity": "sha256-x"}},
    "panel": {"cdn_root": "pyodide/"},
}


def run_worker(tmp_path, wasm_fails=False) -> dict:
    assert shutil.which("node"), "Node.js runs the worker's module: install nodejs"
    site = tmp_path / "site"
    (site / "pyodide").mkdir(parents=True)
    for name in ("import_snapshot.js", "restart_snapshot.js", "boot_snapshot.js"):
        shutil.copy(ROOT / "static" / name, site / name)
    worker = (ROOT / "static" / "worker.js").read_text()
    (site / "worker.js").write_text(worker.replace("__GRADPAD_MANIFEST__", json.dumps(MANIFEST)))
    (site / "pyodide" / "pyodide.mjs").write_text(PYODIDE)
    return run_script(NODE % {"dir": json.dumps(site.as_uri() + "/"), "wasm_fails": json.dumps(wasm_fails)})


def test_a_failed_snapshot_restore_says_so_and_boots_nothing_more_in_that_worker(tmp_path):
    out = run_worker(tmp_path)
    # one loadPyodide, the restore: no second one in the worker whose restore failed
    assert out["calls"] == ["snapshot"], out
    assert "runtime:imports-snapshot-failed" in out["marks"], out
    said = [m for m in out["said"] if m["type"] != "snapshot-back"]
    assert [m["type"] for m in said] == ["restore-failed"], said
    assert said[0]["kind"] == "post-import snapshot", said
    assert "Didn't expect to load any more file_packager files!" in said[0]["error"], said
    # the snapshot that failed is gone from Cache Storage before the page hears of it
    assert [k for k in out["deleted"] if k.endswith("imports-snapshot.bin")], out


def test_a_runtime_wasm_that_fails_to_instantiate_is_said_not_waited_on(tmp_path):
    # Pyodide 0.27.7 only logs "wasm instantiation failed!" and its loadPyodide never settles: the
    # worker says so, and the page starts a fresh worker instead of showing "Starting…" for good
    out = run_worker(tmp_path, wasm_fails=True)
    assert out["calls"] == ["plain"], out
    said = out["said"]
    assert [m["type"] for m in said] == ["restore-failed"], said
    assert said[0]["kind"] == "runtime" and "Cannot allocate Wasm memory" in said[0]["error"], said
