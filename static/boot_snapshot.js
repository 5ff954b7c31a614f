// The build's bare-interpreter snapshot (tools/bare_snapshot.py): a first visit's Python starts
// from a CPython that Node booted at build time, instead of booting its own (the largest single
// cost of a first visit before Python is ready). A return visit has its own snapshots
// (docs/snapshot.md); this one is for a browser that has none yet.
//
// The file is gzip-compressed, and the runtime's data segment (its initial memory, read from the
// runtime's wasm) is XORed out of the snapshot's memory: what is left is mostly zeros (3.6 MB
// compressed instead of 5.2). It is used only when the rebuilt bytes hash to the build's SHA-256;
// anything else throws and the caller boots normally. Shared with the build (tools/bare_snapshot.mjs).
import { sha256Hex } from "./restart_snapshot.js";

// the bytes of the wasm module's (first, active) data segment: the memory it starts with
export function wasmDataSegment(wasm) {
  const b = wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm);
  if (b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) throw new Error("not a wasm module");
  let i = 8;
  const leb = () => { let r = 0, s = 0, x; do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return r; };
  while (i < b.length) {
    const id = b[i++], size = leb(), end = i + size;
    if (id === 11) {
      if (leb() < 1 || leb() !== 0) throw new Error("the wasm's first data segment is not active");
      const op = b[i++];
      if (op !== 0x23 && op !== 0x41) throw new Error("the wasm's data segment has an unknown offset");
      leb(); // global index or constant: the base is the build's record (dataBase)
      if (b[i++] !== 0x0b) throw new Error("the wasm's data segment has an unknown offset");
      const len = leb();
      return b.subarray(i, i + len);
    }
    i = end;
  }
  throw new Error("the wasm has no data segment");
}

// XOR the data segment into (or out of) the snapshot's memory, in place
export function xorDataSegment(snapshot, segment, dataBase) {
  const at = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1] + dataBase;
  if (!Number.isInteger(dataBase) || at + segment.length > snapshot.length) throw new Error("the snapshot is smaller than the wasm's data");
  for (let k = 0; k < segment.length; k++) snapshot[at + k] ^= segment[k];
}

// Fill `out` (info.size bytes, handed to loadPyodide as the snapshot before it is filled) with
// the build's snapshot: `wasm` is a promise of the runtime's wasm bytes; throws unless the result
// is the build's snapshot, byte for byte
export async function fillBuildSnapshot(out, info, base, wasm, fetchFn = fetch) {
  const r = await fetchFn(new URL(info.file, base).href);
  if (!r.ok) throw new Error(`HTTP ${r.status} for the build's bare snapshot`);
  const reader = r.body.pipeThrough(new DecompressionStream("gzip")).getReader();
  let at = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.length > out.length) throw new Error("the build's bare snapshot is longer than recorded");
    out.set(value, at);
    at += value.length;
  }
  if (at !== out.length) throw new Error("the build's bare snapshot is shorter than recorded");
  xorDataSegment(out, wasmDataSegment(await wasm), info.dataBase);
  if (await sha256Hex(out) !== info.sha256) throw new Error("the build's bare snapshot does not match this runtime");
}
