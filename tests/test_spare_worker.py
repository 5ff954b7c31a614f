"""The light spare worker (static/spare_worker.js), under Node with stand-in workers: one spare at a
time, told only to warm up (no init, so no Python), handed out once to the next worker the page
starts, none on a page that starts no Python of its own, and a spare that failed is not handed out.
The browser side (worker.js `warm`, a restart from the spare): tests/browser/test_import_snapshot.py."""
from __future__ import annotations

from pathlib import Path
from node_js import run_script, static_module

ROOT = Path(__file__).resolve().parent.parent

NODE = r"""
const m = await import(%(module)s);
const out = {};
const made = [];
const spawn = () => { const w = { sent: [], postMessage(msg) { this.sent.push(msg); } }; made.push(w); return w; };
const sp = m.makeSpareWorker({ spawn, base: "http://site/" });
out.none = sp.take();
sp.prepare();
sp.prepare(); // one at a time
out.madeOne = [made.length, sp.state.made];
out.toldOnlyToWarm = made[0].sent;
made[0].onmessage({ data: { type: "spare-warm" } });
out.warm = sp.state.warm;
const w = sp.take();
out.taken = [w === made[0], w.onmessage, sp.state.taken, sp.state.warm];
out.takenTwice = sp.take();
// a spare that failed to start is dropped, not handed to the next Python
sp.prepare();
made[1].onerror(new Event("error"));
out.failed = sp.take();
// a page that starts no Python of its own keeps no spare
const off = m.makeSpareWorker({ spawn, base: "http://site/", off: true });
off.prepare();
out.off = [off.take(), made.length];
console.log("@@" + JSON.stringify(out));
"""


def test_one_spare_is_warmed_and_handed_to_the_next_worker_once(tmp_path):
    out = run_script(NODE % {"module": static_module("spare_worker.js")})
    assert out["none"] is None
    assert out["madeOne"] == [1, 1]
    assert out["toldOnlyToWarm"] == [{"type": "warm", "base": "http://site/"}]  # no init: no Python runs
    assert out["warm"] is True
    assert out["taken"] == [True, None, 1, False]
    assert out["takenTwice"] is None
    assert out["failed"] is None
    assert out["off"] == [None, 2]
