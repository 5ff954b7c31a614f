"""Two small text patches to the Pyodide 0.27.7 runtime that the site ships (applied by
tools/site.py when it copies the runtime into dist/pyodide/). They make a memory snapshot taken
AFTER numpy and the engine are imported restorable (static/import_snapshot.js, docs/snapshot.md).

Why: Pyodide's own snapshot restore copies back the wasm memory only. numpy's compiled modules
(.so side modules) also live outside it: their code in the wasm function table and their
bookkeeping in Emscripten's JS dynamic linker. To restore them, the page loads each .so again at
the very memory and table addresses it had when the snapshot was made, between the memory restore
and Python's first step. Neither is reachable from outside the runtime, hence:

1. pyodide.asm.js, `loadWebAssemblyModule`: where Emscripten picks a new side module's memory base
   (malloc) and table base (the table's end), ask `globalThis.gradpadDylink.place(name, metadata)`
   first (restore: the recorded bases) and tell `gradpadDylink.loaded(...)` what was picked
   (snapshot making: the record). Without `globalThis.gradpadDylink` nothing changes.
2. pyodide.mjs, `loadPyodide`: after `restoreSnapshot` (memory copied back) and before
   `finalizeBootstrap` (the first Python code), await `config._afterSnapshotRestore(Module, API,
   snapshot)` when given; and before `restoreSnapshot`, await
   `config._beforeSnapshotRestore(Module, API, snapshot)` when given: the snapshot's hash is checked
   there, while the runtime's JS and wasm were loading (nothing of the snapshot's bytes is used
   before it but their length), and the build's bare snapshot is unmasked (tools/bare_snapshot.py).

Each anchor is the exact minified text of 0.27.7; if it is not found exactly once, the build
stops and names it (a Pyodide update must revisit this file).
"""
from __future__ import annotations

from pathlib import Path

DYLINK_ANCHOR = ("var memoryBase=metadata.memorySize?alignMemory(getMemory(metadata.memorySize+memAlign),"
                 "memAlign):0;var tableBase=metadata.tableSize?wasmTable.length:0;")
DYLINK_PATCH = ("var gpDylink=globalThis.gradpadDylink,gpPlaced=gpDylink&&gpDylink.place"
                "?gpDylink.place(libName,metadata,wasmTable):null;"
                "var memoryBase=gpPlaced?gpPlaced.memoryBase:(metadata.memorySize?alignMemory("
                "getMemory(metadata.memorySize+memAlign),memAlign):0);"
                "var tableBase=gpPlaced?gpPlaced.tableBase:(metadata.tableSize?wasmTable.length:0);"
                "gpDylink&&gpDylink.loaded&&gpDylink.loaded(libName,memoryBase,tableBase,metadata);")

RESTORE_ANCHOR = "i&&(l=n.restoreSnapshot(i));"
RESTORE_PATCH = ("i&&(e._beforeSnapshotRestore&&await e._beforeSnapshotRestore(c,n,i),"
                 "l=n.restoreSnapshot(i),e._afterSnapshotRestore&&"
                 "await e._afterSnapshotRestore(c,n,i));")

PATCHES = {
    "pyodide.asm.js": [("loadWebAssemblyModule's memoryBase/tableBase", DYLINK_ANCHOR, DYLINK_PATCH)],
    "pyodide.mjs": [("loadPyodide's restoreSnapshot call", RESTORE_ANCHOR, RESTORE_PATCH)],
}


class RuntimePatchError(RuntimeError):
    pass


def patch_text(name: str, text: str) -> str:
    for what, anchor, patch in PATCHES.get(name, []):
        n = text.count(anchor)
        if n != 1:
            raise RuntimePatchError(
                f"runtime patch: the anchor for {what} in {name} was found {n} times (expected once): "
                f"{anchor!r}. The Pyodide runtime changed: update tools/runtime_patch.py")
        text = text.replace(anchor, patch)
    return text


def patch_runtime(pdir: Path) -> None:
    """Patch the copied runtime files in dist's pyodide/ folder in place."""
    for name in PATCHES:
        p = pdir / name
        p.write_text(patch_text(name, p.read_text()))
