"""The build's bare snapshot (tools/bare_snapshot.py, static/boot_snapshot.js) under Node, without
a browser: the page rebuilds the build's bytes exactly from the shipped file and the runtime's
wasm, and refuses a file or a wasm that does not give the build's SHA-256."""
from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

from node_js import run_script, static_module

ROOT = Path(__file__).resolve().parent.parent


def leb(n: int) -> bytes:
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def wasm_with_data(segment: bytes) -> bytes:
    """A wasm module with a memory-less type section and one active data segment at global 0."""
    types = b"\x01" + leb(1) + b"\x00"  # section 1, size 1, zero types
    body = leb(1) + leb(0) + b"\x23\x00\x0b" + leb(len(segment)) + segment
    data = b"\x0b" + leb(len(body)) + body
    return b"\x00asm\x01\x00\x00\x00" + types + data


NODE = r"""
import fs from "node:fs";
const m = await import(%(module)s);
const wasm = new Uint8Array(fs.readFileSync(%(wasm)s));
const info = JSON.parse(fs.readFileSync(%(info)s, "utf8"));
const files = { good: fs.readFileSync(%(good)s), bad: fs.readFileSync(%(bad)s) };
const out = {};
for (const [name, w] of [["good", wasm], ["bad", files.bad], ["otherWasm", wasm.map((b, i) => i === wasm.length - 1 ? b ^ 1 : b)]]) {
  const file = name === "bad" ? files.bad : files.good;
  const bytes = new Uint8Array(info.size);
  try {
    await m.fillBuildSnapshot(bytes, info, "http://site.invalid/", Promise.resolve(name === "otherWasm" ? w : wasm),
                              async () => new Response(file));
    out[name] = Buffer.from(bytes).toString("hex");
  } catch (e) {
    out[name] = "error: " + e.message;
  }
}
console.log("@@" + JSON.stringify(out));
"""


def test_the_builds_bare_snapshot_is_rebuilt_exactly_or_refused(tmp_path):
    assert shutil.which("node"), "Node.js runs the page's module: install nodejs"
    segment = bytes(range(7, 7 + 64))
    # a snapshot: Pyodide's header (u32 magic, u32 offset of the memory), then the memory, whose
    # bytes at dataBase mostly still hold the wasm's data segment
    heap_start, base = 16, 8
    memory = bytearray(128)
    memory[base:base + len(segment)] = segment
    memory[base + 5] ^= 0x5A  # the boot changed a byte of the data
    memory[100] = 42
    snapshot = (1).to_bytes(4, "little") + heap_start.to_bytes(4, "little") + bytes(8) + bytes(memory)
    masked = bytearray(snapshot)
    for k, b in enumerate(segment):
        masked[heap_start + base + k] ^= b
    assert masked.count(0) > snapshot.count(0)  # what the masking is for: zeros compress
    good = gzip.compress(bytes(masked))
    bad = bytearray(masked)
    bad[100 + heap_start] ^= 1
    info = {"size": len(snapshot), "sha256": hashlib.sha256(snapshot).hexdigest(), "dataBase": base, "file": "x.snap"}
    paths = {"wasm": wasm_with_data(segment), "good": good, "bad": gzip.compress(bytes(bad)),
             "info": json.dumps(info).encode()}
    for name, data in paths.items():
        (tmp_path / name).write_bytes(data)
    out = run_script(NODE % {"module": static_module("boot_snapshot.js"),
                             **{k: json.dumps(str(tmp_path / k)) for k in paths}})
    assert out["good"] == snapshot.hex()
    assert out["bad"] == "error: the build's bare snapshot does not match this runtime"
    assert out["otherWasm"].startswith("error: "), out["otherWasm"]
