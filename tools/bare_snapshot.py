"""The build's bare-interpreter snapshot: a first visit's Python starts from it instead of booting
CPython (tools/site.py ships it in dist/pyodide/, static/boot_snapshot.js restores it).

Why: on a first visit the largest single cost before Python is ready is CPython's own start inside
`loadPyodide` (its init and the imports of Pyodide's own modules). A return visit skips it with a
snapshot its browser made; a first visit had none. Node runs the same runtime, so the build makes
one (tools/bare_snapshot.mjs) and ships it, gzip-compressed in the file itself (any static host
serves it as it is): about 3.6 MB.

The file is the snapshot with the runtime's data segment (the memory the wasm starts with, nearly
the same bytes after the boot) XORed out of its memory: mostly zeros, so it compresses to 3.6 MB
instead of 5.2. The page XORs it back with the segment read from the wasm it runs, and uses the
result only when it hashes to the build's SHA-256 (the manifest's `bareSnapshot.sha256`); on any
mismatch it boots normally.

A Python started from it has the 120 stdlib modules of Pyodide's boot imported already, so such a
visit is given a stdlib zip without their sources (`stdlib` in the manifest): 0.67 MB less, which
pays for most of the snapshot. Only tracebacks through those modules lose their source lines
there.

Without Node.js the build ships none (a warning): first visits then boot normally.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "bare_snapshot.mjs"
# what the snapshot depends on: the (patched) runtime the page runs, and the script that makes it
INPUTS = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
FORMAT = "2"  # bump when the file's layout changes


def inputs_key(pdir: Path) -> str:
    h = hashlib.sha256(FORMAT.encode() + SCRIPT.read_bytes())
    for f in INPUTS:
        h.update(f.encode() + b"\0" + hashlib.sha256((pdir / f).read_bytes()).digest())
    return h.hexdigest()[:16]


def make(pdir: Path, cache: Path, log=print) -> dict | None:
    """Write `bare-snapshot-<key>.snap` into `pdir` (the runtime already patched there) and return
    its manifest entry, or None (logged) when it cannot be made here."""
    node = shutil.which("node")
    if node is None:
        log("WARNING: no Node.js: shipping no bare snapshot (first visits boot CPython normally)")
        return None
    key = inputs_key(pdir)
    cached = cache / "bare-snapshot" / key
    if not (cached / "info.json").exists():
        with tempfile.TemporaryDirectory() as tmp:
            snap, info = Path(tmp) / "snap.gz", Path(tmp) / "info.json"
            r = subprocess.run([node, str(SCRIPT), str(pdir), str(snap), str(info)], capture_output=True, text=True)
            if r.returncode != 0:
                log(f"WARNING: no bare snapshot (first visits boot CPython normally): {r.stderr.strip()[-2000:]}")
                return None
            cached.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(snap, cached / "snap.gz")
            shutil.copyfile(info, cached / "info.json")
    name = f"bare-snapshot-{key}.snap"
    shutil.copyfile(cached / "snap.gz", pdir / name)
    info = json.loads((cached / "info.json").read_text())
    stdlib = f"python_stdlib-{key}.zip"
    dropped = trim_stdlib(pdir / "python_stdlib.zip", pdir / stdlib, set(info.pop("modules")))
    return {"file": "pyodide/" + name, "bytes": (pdir / name).stat().st_size, **info,
            "stdlib": "pyodide/" + stdlib, "stdlibDropped": dropped}


def trim_stdlib(src: Path, dst: Path, modules: set[str]) -> int:
    """The stdlib zip without the sources of `modules` (imported in the snapshot already: a Python
    started from it never reads them; the normal boot reads the whole zip). Returns how many."""
    dropped = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for entry in zin.infolist():
            if entry.filename in modules:
                dropped += 1
                continue
            zout.writestr(entry, zin.read(entry), compress_type=entry.compress_type)
    if dropped != len(modules):
        raise RuntimeError(f"the stdlib zip lacks {len(modules) - dropped} of the snapshot's modules")
    return dropped
