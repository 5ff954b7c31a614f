"""static/lesson.js (the one-script-tag lesson) under Node with a small stand-in for the host page's
DOM: the lesson it puts in the frame's #fragment is the one app.lesson reads (cells, per-cell
options, code with quotes and backticks), the frame is gradpad's and sandboxed, and the host page
changes only where its Python blocks were. The real page: tests/browser/test_lesson.py."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from app import lesson, share

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "lesson.js"

# a host page: blocks as {attrs of <pre>, attrs of <code>, text}; the script's <script> tag attrs
FAKE_DOM = r"""
const [blocks, scriptData, messages] = JSON.parse(process.argv[1]);
const events = {}, log = [], made = [];
class El {
  constructor(tag, data = {}, text = "") { this.tagName = tag.toUpperCase(); this.dataset = data; this.textContent = text;
    this.children = []; this.parent = null; this.attrs = {}; this.style = {}; this.className = "";
    if (tag === "iframe") { this.contentWindow = { frame: made.length }; made.push(this); } }
  closest(sel) { return sel === "pre" ? (this.tagName === "PRE" ? this : this.parent) : null; }
  querySelector(sel) { return this.children.find((c) => c.tagName === sel.toUpperCase()) || null; }
  setAttribute(k, v) { this.attrs[k] = v; }
  replaceWith(other) { log.push({ replaced: this.index ?? `frame ${this.contentWindow.frame}`, by: other.tagName, src: other.src, attrs: other.attrs,
                                  text: other.textContent, cls: other.className, title: other.title }); }
}
const pres = blocks.map(([preData, codeData, text], i) => {
  const pre = new El("pre", preData, text), code = new El("code", codeData, text);
  pre.children.push(code); code.parent = pre; pre.index = i; return [pre, code];
});
globalThis.document = {
  readyState: "complete",
  currentScript: { src: "https://gradpad.example/gp/lesson.js", dataset: scriptData },
  createElement: (tag) => new El(tag),
  querySelectorAll: (sel) => pres.map(([pre, code]) => code),
};
globalThis.window = { crossOriginIsolated: false, addEventListener: (t, f) => { events[t] = f; } };
if (!globalThis.crypto) globalThis.crypto = require("crypto").webcrypto;
""" + SCRIPT.read_text() + r"""
// messages to the host page, once the script has made its frames: [from frame N, origin, data]
const deliver = setInterval(() => {
  if (!(messages || []).length) return clearInterval(deliver);
  if (made.length < Math.max(...messages.map(([n]) => n)) + 1) return; // start() still making them
  clearInterval(deliver);
  messages.forEach(([n, origin, data]) => events.message({ source: made[n].contentWindow, origin, data }));
}, 10);
process.on("exit", () => console.log(JSON.stringify([log, made.map((f) => f.style.height)])));  // once its promises are done
"""


def run_script(blocks, script_data=None, messages=None, heights=False) -> list[dict]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed (apt-get install nodejs; build.py's npm set-up needs it too)")
    out = subprocess.run([node, "-e", FAKE_DOM, json.dumps([blocks, script_data or {}, messages or []])],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    log, frame_heights = json.loads(out.stdout)
    return (log, frame_heights) if heights else log


def lesson_of(frame: dict, query=None) -> list:
    url = urlparse(frame["src"])
    assert f"{url.scheme}://{url.netloc}{url.path}" == "https://gradpad.example/gp/"
    assert parse_qs(url.query) == (query or {"embed": ["1"], "lesson": ["inline"]})
    return lesson.parse(lesson.read_source("inline", "#" + url.fragment, "https://gradpad.example/gp/"))


CODE3 = "s = '''\n```\nnot the fence's end\n```\n'''\nprint(s, \"it's `x`\")"
THREE_BLOCKS = [
    [{"title": "First \"quoted\" cell's title", "panes": "jaxpr,plot"}, {}, "import jax\nx = 1.0\n"],
    [{}, {"function": "g", "args": "2.0"}, "g = jax.grad(lambda v: v ** 2)\ng(2.0)"],
    [{"readonly": "", "fold": "", "autorun": "0"}, {}, CODE3],
]


def test_each_block_becomes_a_cell_frame_of_one_lesson_with_its_options():
    """A frame at each block, each with the whole lesson and its own cell number, all with one
    random lesson id (the frames talk only to frames carrying it); only the first keeps a spare
    Python (standby=off elsewhere)."""
    log = run_script(THREE_BLOCKS)
    assert [(e["replaced"], e["by"], e["cls"]) for e in log] == [(i, "IFRAME", "gradpad-lesson") for i in range(3)]
    queries = [parse_qs(urlparse(e["src"]).query) for e in log]
    lid = queries[0]["lid"][0]
    assert len(lid) == 32 and int(lid, 16) >= 0
    assert queries == [{"embed": ["1"], "lesson": ["inline"], "cell": [str(i)], "lid": [lid],
                        **({"standby": ["off"]} if i else {})} for i in range(3)]
    assert all(e["attrs"] == {"sandbox": share.EMBED_SANDBOX, "allow": share.EMBED_ALLOW} for e in log)
    for e, q in zip(log, queries, strict=True):
        cells = [p for p in lesson_of(e, q) if isinstance(p, lesson.CellSpec)]
        assert [c.code for c in cells] == ["import jax\nx = 1.0", "g = jax.grad(lambda v: v ** 2)\ng(2.0)", CODE3]
        assert cells[0].title == "First \"quoted\" cell's title" and cells[0].panes == ["jaxpr", "plot"]
        assert (cells[1].function, cells[1].args, cells[1].autorun) == ("g", "2.0", True)
        assert (cells[2].readonly, cells[2].fold, cells[2].autorun) == (True, True, False)
    assert [e["title"] for e in log] == ["gradpad cell 1 of 3: First \"quoted\" cell's title",
                                         "gradpad cell 2 of 3: Cell 2", "gradpad cell 3 of 3: Cell 3"]
    assert parse_qs(urlparse(run_script(THREE_BLOCKS)[0]["src"]).query)["lid"] != [lid]  # a new id per page view


def test_data_frames_one_keeps_the_whole_lesson_in_one_frame():
    code3 = CODE3
    log = run_script(THREE_BLOCKS, {"frames": "one"})
    frame, *notes = log
    assert frame["replaced"] == 0 and frame["by"] == "IFRAME" and frame["cls"] == "gradpad-lesson"
    assert frame["attrs"] == {"sandbox": share.EMBED_SANDBOX, "allow": share.EMBED_ALLOW}
    cells = [p for p in lesson_of(frame) if isinstance(p, lesson.CellSpec)]
    assert [c.code for c in cells] == ["import jax\nx = 1.0", "g = jax.grad(lambda v: v ** 2)\ng(2.0)", code3]
    assert cells[0].title == "First \"quoted\" cell's title" and cells[0].panes == ["jaxpr", "plot"]
    assert (cells[1].function, cells[1].args, cells[1].autorun) == ("g", "2.0", True)
    assert (cells[2].readonly, cells[2].fold, cells[2].autorun) == (True, True, False)
    # each later block: a note naming its cell, as text
    assert [(n["replaced"], n["by"], n["cls"]) for n in notes] == [(1, "P", "gradpad-cell-note"), (2, "P", "gradpad-cell-note")]
    assert notes[0]["text"].startswith("\u25b2 This code is cell 2 (\"Cell 2\")")


def test_a_block_marked_static_stays_and_a_page_without_blocks_is_left_alone():
    log = run_script([[{"static": ""}, {}, "print('shown, never run')"], [{}, {}, "y = 2"]])
    assert [e["replaced"] for e in log] == [1]  # the static block is untouched; one cell
    assert [c.code for c in lesson_of(log[0]) if isinstance(c, lesson.CellSpec)] == ["y = 2"]
    assert run_script([[{"static": ""}, {}, "print(1)"]]) == []


def test_lesson_frame_urls_name_their_cell():
    assert lesson.frame_cell("?embed=1&lesson=inline&cell=2&lid=ab12") == 2
    assert lesson.frame_cell("?embed=1&lesson=inline") is None  # the one-frame lesson: every cell
    assert lesson.frame_cell("?lesson=inline&cell=x&lid=ab12") is None


def test_cell_frames_size_themselves_and_fall_back_to_one_frame_when_they_cannot_share():
    """Each cell frame's height message sizes that frame only, from gradpad's origin only; a cell
    frame saying its browser cannot share one Python makes the one-frame lesson replace them all."""
    gp = "https://gradpad.example"
    log, heights = run_script(THREE_BLOCKS, messages=[
        [1, gp, {"gradpad": "height", "height": 321}],
        [2, "https://course.example", {"gradpad": "height", "height": 999}],  # not gradpad's origin
    ], heights=True)
    assert len(log) == 3 and heights == [None, "321px", None]  # (the others keep their first cssText)
    log = run_script(THREE_BLOCKS, messages=[[2, gp, {"gradpad": "lesson-unshared"}],
                                             [0, gp, {"gradpad": "lesson-unshared"}]])  # once only
    cells, fallback = log[:3], log[3:]
    assert [e["by"] for e in cells] == ["IFRAME"] * 3
    assert [(e["replaced"], e["by"]) for e in fallback] == [("frame 0", "IFRAME"), ("frame 1", "P"), ("frame 2", "P")]
    assert parse_qs(urlparse(fallback[0]["src"]).query) == {"embed": ["1"], "lesson": ["inline"], "unshared": ["1"]}
    assert fallback[1]["text"].startswith("\u25b2 This code is cell 2")
