"""The post-import snapshot's bytes kept on the page for restarts (static/restart_snapshot.js),
under Node with stand-in workers: they go to a new worker only while they match the hash the page
records, are moved (not copied), come back only from the worker they were lent to and only before
it said it was ready, and are forgotten when a worker given them booted another way."""
from __future__ import annotations

from pathlib import Path
from node_js import run_script, static_module


ROOT = Path(__file__).resolve().parent.parent

NODE = r"""
const m = await import(%(module)s);
const out = {};
let recorded = "h1";
const rs = m.makeRestartSnapshot({ cacheName: "c", key: "k", expected: () => recorded });
const worker = () => ({ sent: [], postMessage(msg, transfer) { this.sent.push({ msg, transfer: transfer || [] }); } });
const init = (h = recorded) => ({ type: "init", importsSnapshotHash: h });
const buf = () => new Uint8Array([1, 2, 3, 4]).buffer;

// nothing kept yet: the init goes as it is
const w0 = worker();
out.nothingKept = rs.post(w0, init()) === false && !("importsSnapshot" in w0.sent[0].msg);
// the snapshot maker's bytes are kept when their hash is the recorded one, else not
rs.made(buf(), "other");
out.madeOther = rs.state.bytes;
rs.made(buf(), "h1");
out.madeRecorded = rs.state.bytes;
// lent to a new worker: moved (in the transfer list), the page holds none meanwhile
const w1 = worker(), s1 = { worker: w1 };
s1.gaveSnapshot = rs.post(w1, init());
const sent = w1.sent[0];
out.lent = [s1.gaveSnapshot, sent.msg.importsSnapshot instanceof ArrayBuffer, sent.transfer[0] === sent.msg.importsSnapshot, rs.state.bytes];
// a second worker meanwhile gets none
const w2 = worker(), s2 = { worker: w2 };
s2.gaveSnapshot = rs.post(w2, init());
out.secondMeanwhile = s2.gaveSnapshot;
// bytes from a worker they were not lent to are refused; from the lent one before its ready, kept
rs.returned(s2, buf());
out.fromOther = rs.state.bytes;
rs.returned(s1, buf());
out.back = [rs.state.bytes, rs.state.given, rs.state.back];
// once its ready was heard, the worker can no longer hand bytes in
const w3 = worker(), s3 = { worker: w3 };
s3.gaveSnapshot = rs.post(w3, init());
rs.heard(s3, "imports-snapshot");
rs.returned(s3, new Uint8Array([9, 9]).buffer);
out.afterReady = rs.state.bytes;
// (kept again, as the snapshot maker's)
rs.made(buf(), "h1");
// the recorded hash changed since they were checked (a new snapshot): not given
recorded = "h2";
const w4 = worker();
out.staleHash = rs.post(w4, init("h2"));
recorded = "h1";
// a worker given them that booted another way (its restore failed): they are not given back, and said so
const w5 = worker(), s5 = { worker: w5 };
s5.gaveSnapshot = rs.post(w5, init());
rs.heard(s5, "boot");
out.failed = [s5.gaveSnapshot, rs.state.bytes, rs.state.dropped];
// a page that starts no Python of its own keeps nothing
const offRs = m.makeRestartSnapshot({ cacheName: "c", key: "k", expected: () => "h1", off: true });
offRs.made(buf(), "h1");
out.off = offRs.state.bytes;
out.hex = await m.sha256Hex(new TextEncoder().encode("abc"));
console.log("@@" + JSON.stringify(out));
"""


def test_the_kept_snapshot_is_lent_to_one_worker_and_taken_back_only_before_it_is_ready(tmp_path):
    out = run_script(NODE % {"module": static_module("restart_snapshot.js")})
    assert out["nothingKept"] is True
    assert out["madeOther"] == 0 and out["madeRecorded"] == 4
    assert out["lent"] == [True, True, True, 0]
    assert out["secondMeanwhile"] is False
    assert out["fromOther"] == 0
    assert out["back"] == [4, 1, 1]
    assert out["afterReady"] == 0
    assert out["staleHash"] is False
    assert out["failed"] == [True, 0, "boot"]
    assert out["off"] == 0
    assert out["hex"] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
