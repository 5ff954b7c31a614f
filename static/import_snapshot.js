// The post-import snapshot: a Pyodide memory snapshot taken after numpy and the engine are
// imported, so that a warm visit or a fresh Python after a Stop skips loading and importing them.
// docs/snapshot.md explains the design; tools/runtime_patch.py the two runtime hooks it needs.
//
// Pyodide restores the wasm memory only. numpy's compiled modules (.so side modules) also live in
// the wasm function table and in Emscripten's JS dynamic linker, and their files in the in-memory
// file system. Restoring therefore:
//   1. copies the snapshot's memory back (Pyodide's restoreSnapshot);
//   2. writes site-packages' files into the file system again (stored in the snapshot's blob as the
//      snapshot worker had them unpacked);
//   3. loads every .so again, in the recorded order, at the recorded memory and table bases
//      (the `gradpadDylink.place` hook), and puts back the table slots that the dynamic linker
//      filled later (dlsym's PyInit_*: function pointers the memory refers to);
//   4. copies the snapshot's memory back once more (loading ran the libraries' initialisers);
//   5. lets Pyodide finish its boot; then a probe must give right answers before anything uses it.
// Any mismatch throws: the caller boots the normal way.

const SNAPSHOT_FORMAT = 2;

// ------------------------------------------------------------------ the record (snapshot making)
// Install before loadPyodide: every side module the dynamic linker loads is recorded with the
// bases it got. Returns the recorder; `finish(pyodide)` makes the metadata.
export function recordDylinks() {
  const libs = [];
  let bootTableLength = null;
  globalThis.gradpadDylink = {
    place: (name, metadata, table) => {
      if (bootTableLength === null) bootTableLength = table.length;
      return null; // Emscripten picks, as usual
    },
    loaded: (name, memoryBase, tableBase, metadata) => {
      libs.push({ name, memoryBase, tableBase, tableSize: metadata.tableSize, memorySize: metadata.memorySize });
    },
  };
  return {
    finish(pyodide, packages) {
      delete globalThis.gradpadDylink;
      const Module = pyodide._module;
      const LDSO = Module.LDSO;
      for (const lib of libs) {
        const dso = LDSO.loadedLibsByName[lib.name];
        if (!dso) throw new Error("a loaded library is not in the linker's table: " + lib.name);
        lib.global = !!dso.global;
      }
      const aliases = {};
      for (const [key, dso] of Object.entries(LDSO.loadedLibsByName)) {
        if (key !== dso.name && key !== "__main__") aliases[key] = dso.name;
      }
      const handles = {};
      for (const [h, dso] of Object.entries(LDSO.loadedLibsByHandle)) {
        if (Number(h) !== 0) handles[h] = dso.name;
      }
      // the table slots beyond the boot's that no library's own range covers: functions the
      // linker added later (GOT entries, dlsym's PyInit_*); each must be named to be put back
      const byFunc = new Map();
      for (const [key, dso] of Object.entries(LDSO.loadedLibsByName)) {
        if (key !== dso.name || !dso.exports || typeof dso.exports !== "object") continue;
        for (const [sym, f] of Object.entries(dso.exports)) {
          if (typeof f === "function" && !byFunc.has(f)) byFunc.set(f, [dso.name, sym]);
        }
      }
      const inLib = (i) => libs.some((l) => i >= l.tableBase && i < l.tableBase + l.tableSize);
      const table = Module.wasmTable;
      const slots = [];
      for (let i = bootTableLength ?? table.length; i < table.length; i++) {
        if (inLib(i)) continue;
        const f = table.get(i);
        if (!f) continue;
        const who = byFunc.get(f);
        if (!who) throw new Error(`table slot ${i} holds a function no library exports: cannot restore it`);
        slots.push([i, who[0], who[1]]);
      }
      const pkgs = {};
      for (const name of packages) pkgs[name] = { channel: pyodide.loadedPackages[name] };
      return {
        format: SNAPSHOT_FORMAT, libs, aliases, handles, slots, bootTableLength, tableLength: table.length,
        sitePackages: pyodide._api.sitepackages, packages: pkgs,
      };
    },
  };
}

// every file under `dir` of the interpreter's file system: [{path, data}]
export function readTree(FS, dir) {
  const out = [];
  const walk = (d) => {
    for (const name of FS.readdir(d)) {
      if (name === "." || name === "..") continue;
      const path = d + "/" + name;
      const mode = FS.stat(path).mode;
      if (FS.isDir(mode)) walk(path);
      else if (FS.isFile(mode)) out.push({ path, data: FS.readFile(path) });
    }
  };
  walk(dir);
  return out;
}

// one blob in Cache Storage: [u32 meta length][meta JSON][the files][Pyodide's snapshot], the
// last two at 16-byte boundaries; meta.files = [[path, offset, size]] into the files' region.
// The files are stored as the snapshot worker had them (site-packages as the wheels unpacked):
// restoring writes them back without unzipping anything.
export function packSnapshot(meta, snapshot, files = []) {
  let size = 0;
  meta = { ...meta, files: files.map((f) => { const at = size; size += f.data.length; return [f.path, at, f.data.length]; }) };
  const json = new TextEncoder().encode(JSON.stringify(meta));
  const head = Math.ceil((4 + json.length) / 16) * 16;
  const region = Math.ceil(size / 16) * 16;
  const out = new Uint8Array(head + region + snapshot.length);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  for (const [i, f] of files.entries()) out.set(f.data, head + meta.files[i][1]);
  out.set(snapshot, head + region);
  return out;
}

export function unpackSnapshot(blob) {
  const len = new DataView(blob.buffer, blob.byteOffset).getUint32(0, true);
  const meta = JSON.parse(new TextDecoder().decode(blob.subarray(4, 4 + len)));
  if (meta.format !== SNAPSHOT_FORMAT) throw new Error("post-import snapshot of another format");
  const head = Math.ceil((4 + len) / 16) * 16;
  const size = meta.files.reduce((n, f) => Math.max(n, f[1] + f[2]), 0);
  const region = Math.ceil(size / 16) * 16;
  return { meta, files: blob.subarray(head, head + region), snapshot: blob.subarray(head + region) };
}

// JS objects that Python holds and that no path from globalThis reaches must be written into the
// snapshot: the one such at import time is Panel's `_dict_converter`, a function made from source
// (pyodide.code.run_js). Functions are kept as their source and made again on restore; anything
// else fails the snapshot (the normal boot stays).
export function serializeJsFunction(obj) {
  const src = typeof obj === "function" ? String(obj) : "";
  if (!src || /\{\s*\[native code\]\s*\}\s*$/.test(src)) throw new Error("a JS object Python holds cannot be saved: " + (src || typeof obj));
  return { jsFunctionSource: src };
}

function deserializeJsFunction(saved) {
  if (!saved || typeof saved.jsFunctionSource !== "string") throw new Error("unknown saved JS object");
  // the source was in the hash-checked snapshot, made by this site's own code
  return (0, eval)("(" + saved.jsFunctionSource + ")");
}

// ------------------------------------------------------------------ restore
function mkdirs(FS, dir) {
  try { FS.mkdirTree(dir); } catch (e) { /* exists */ }
}

// loadPyodide with the post-import snapshot. Throws on any mismatch (the caller boots normally).
// `verified`: a promise that rejects unless the blob's bytes are the ones this browser made; the
// runtime's JS and wasm load meanwhile and nothing of the blob is used before it settles but the
// memory's length and the header (runtime_patch.py: `_beforeSnapshotRestore`)
export async function restoreImports(loadPyodide, { indexURL, blob, mark = () => {}, verified = null }) {
  const { meta, files, snapshot } = unpackSnapshot(blob);
  const heapStart = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1];
  const afterSnapshotRestore = async (Module) => {
    mark("runtime:imports-memory");
    const FS = Module.FS;
    const made = new Set();
    for (const [path, at, size] of meta.files) {
      const dir = path.slice(0, path.lastIndexOf("/"));
      if (!made.has(dir)) { mkdirs(FS, dir); made.add(dir); }
      FS.writeFile(path, files.subarray(at, at + size));
    }
    mark("runtime:imports-files");
    const table = Module.wasmTable;
    if (table.length > meta.bootTableLength)
      throw new Error(`the table has ${table.length} slots before the libraries, the snapshot's had ${meta.bootTableLength}`);
    let next = 0;
    globalThis.gradpadDylink = {
      place: (name) => {
        const lib = meta.libs[next++];
        if (!lib || lib.name !== name) throw new Error(`library order differs: ${name}, recorded ${lib && lib.name}`);
        if (table.length > lib.tableBase) throw new Error(`table slot ${lib.tableBase} for ${name} is taken`);
        return { memoryBase: lib.memoryBase, tableBase: lib.tableBase };
      },
    };
    try {
      for (const lib of meta.libs) {
        await Module.loadDynamicLibrary(lib.name, { loadAsync: true, nodelete: true, allowUndefined: true,
                                                   global: lib.global, fs: FS }, lib.global ? null : {});
        // its other names (Pyodide adds the basename) at once: a later library may need it by one
        for (const [alias, name] of Object.entries(meta.aliases)) {
          if (name === lib.name) Module.LDSO.loadedLibsByName[alias] = Module.LDSO.loadedLibsByName[name];
        }
      }
    } finally {
      delete globalThis.gradpadDylink;
    }
    if (next !== meta.libs.length) throw new Error("not every recorded library was loaded");
    const LDSO = Module.LDSO;
    for (const [alias, name] of Object.entries(meta.aliases)) LDSO.loadedLibsByName[alias] = LDSO.loadedLibsByName[name];
    for (const [h, name] of Object.entries(meta.handles)) LDSO.loadedLibsByHandle[h] = LDSO.loadedLibsByName[name];
    for (const [i, libName, sym] of meta.slots) {
      const dso = LDSO.loadedLibsByName[libName];
      const f = dso && dso.exports && dso.exports[sym];
      if (typeof f !== "function") throw new Error(`${libName} exports no ${sym} for table slot ${i}`);
      if (i < table.length) {
        const now = table.get(i);
        if (now === f) continue;
        if (now) throw new Error(`table slot ${i} holds another function than ${sym}`);
      } else {
        table.grow(i + 1 - table.length);
      }
      Module.setWasmTableEntry(i, f);
    }
    // the libraries' data and initialisers wrote into memory: the snapshot's state wins
    Module.HEAP8.set(snapshot.subarray(heapStart));
    mark("runtime:imports-libs");
  };
  // (read once the runtime's JS is loaded: the wasm is instantiated, and the memory copied, next)
  const loadSnapshot = { then: (resolve) => { mark("runtime:imports-js"); resolve(snapshot); } };
  const pyodide = await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: loadSnapshot,
                                      _beforeSnapshotRestore: verified ? () => verified : undefined,
                                      _snapshotDeserializer: deserializeJsFunction,
                                      _afterSnapshotRestore: afterSnapshotRestore });
  for (const [name, p] of Object.entries(meta.packages)) pyodide.loadedPackages[name] = p.channel;
  return [pyodide, meta];
}

// A restored interpreter answers right before it is used: numpy (an op through its C code and
// linalg), the engine's grad. It also reseeds the random generators (each restore would otherwise
// start from the same seeds).
export const PROBE = `
def _gp_probe():
    import sys, math
    if sys.path[:2] == ["", ""]:
        del sys.path[0]
    # every restore starts from the same memory: the random generators seeded at import would
    # repeat the same numbers on every visit
    import random
    random.seed()
    import numpy as np
    np.random.seed()
    import core
    x = np.linspace(0.0, 1.0, 5)
    assert abs(float(np.sin(x).sum()) - sum(math.sin(v) for v in x.tolist())) < 1e-12, "numpy sin"
    assert float(core.grad(lambda v: v ** 3)(2.0)) == 12.0, "grad"
    assert int(np.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]]))[1, 1] * 8) == 2, "linalg"
    return "ok"
_gp_probe()
`;
