"""The post-import snapshot's parts that need no browser: the runtime patches (tools/runtime_patch.py)
hit their anchors in the shipped Pyodide and the build stops, naming the anchor, when one is
missing; the snapshot blob format of static/import_snapshot.js (under Node)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tools import runtime_patch, site
from node_js import run_script, static_module

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = site.CACHE / f"pyodide-{site.PYODIDE_VERSION}"


def test_each_runtime_patch_finds_its_anchor_once_in_the_shipped_runtime():
    # the runtime is fetched by the site build, which `build.py test` runs first
    assert (RUNTIME / "pyodide.asm.js").exists(), f"no Pyodide runtime in {RUNTIME}: run `python -m tools.site build`"
    for name, patches in runtime_patch.PATCHES.items():
        text = (RUNTIME / name).read_text()
        patched = runtime_patch.patch_text(name, text)
        for _, anchor, patch in patches:
            assert text.count(anchor) == 1 and anchor not in patched and patch in patched


def test_loadpyodide_awaits_the_check_before_it_copies_a_snapshot_in():
    """_beforeSnapshotRestore (the post-import snapshot's hash, the build's bare snapshot rebuilt)
    is awaited before restoreSnapshot reads the bytes, and the memory hook after it."""
    patched = runtime_patch.patch_text("pyodide.mjs", (RUNTIME / "pyodide.mjs").read_text())
    before = patched.index("await e._beforeSnapshotRestore(c,n,i)")
    assert before < patched.index("n.restoreSnapshot(i)") < patched.index("await e._afterSnapshotRestore(c,n,i)")


def test_a_missing_anchor_stops_the_build_and_names_it():
    with pytest.raises(runtime_patch.RuntimePatchError, match="restoreSnapshot call") as e:
        runtime_patch.patch_text("pyodide.mjs", "let l;i&&(l=n.restoreSnapshotOther(i));")
    assert "tools/runtime_patch.py" in str(e.value)
    with pytest.raises(runtime_patch.RuntimePatchError, match="memoryBase/tableBase"):
        runtime_patch.patch_text("pyodide.asm.js", "var x=1;")


NODE = r"""
const m = await import(%(module)s);
const out = {};
const snap = new Uint8Array(64).map((_, i) => i);
const meta = {format: 2, libs: [{name: "/lib/a.so", memoryBase: 1024, tableBase: 7000}], note: "é"};
const files = [{path: "/lib/p/a.py", data: new TextEncoder().encode("x = 1\n")}, {path: "/lib/p/e", data: new Uint8Array(0)},
               {path: "/lib/p/b.bin", data: new Uint8Array(37).fill(7)}];
const back = m.unpackSnapshot(m.packSnapshot(meta, snap, files));
out.meta = back.meta;
out.files = back.meta.files.map(([p, at, n]) => [p, Array.from(back.files.subarray(at, at + n))]);
out.snapshot = Array.from(back.snapshot);
out.aligned = back.snapshot.byteOffset %% 16;
try { m.unpackSnapshot(m.packSnapshot({...meta, format: 99}, snap)); out.otherFormat = "accepted"; }
catch (e) { out.otherFormat = String(e.message); }
try { m.serializeJsFunction(Math.max); out.native = "saved"; } catch (e) { out.native = "refused"; }
out.fn = m.serializeJsFunction((entries) => Object.fromEntries(entries));
console.log("@@" + JSON.stringify(out));
"""


def test_the_snapshot_blob_round_trips_its_metadata_files_and_memory(tmp_path):
    out = run_script(NODE % {"module": static_module("import_snapshot.js")})
    assert out["meta"]["libs"][0]["tableBase"] == 7000 and out["meta"]["note"] == "é"
    assert out["files"] == [["/lib/p/a.py", list(b"x = 1\n")], ["/lib/p/e", []], ["/lib/p/b.bin", [7] * 37]]
    assert out["snapshot"] == list(range(64)) and out["aligned"] == 0  # Pyodide reads it as Uint32
    assert "another format" in out["otherFormat"]
    assert out["native"] == "refused"  # a native function has no source to save
    assert out["fn"] == {"jsFunctionSource": "(entries) => Object.fromEntries(entries)"}
