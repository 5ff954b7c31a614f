"""The page's document changes on their way to the worker (static/outbox.js): the changes of one
task leave as one patch with each property's newest value; layout measurements stay on the page;
a call made right after an edit still reaches Python after the edit."""
from __future__ import annotations

import pytest

from tools.bench_page import FIND_EDITOR, QUIET

pytestmark = pytest.mark.timeout(600)

CODE = "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.cos(x) * 3.25\nf(0.5)\n"


COALESCE = """async () => {
  const { coalesce } = await import(new URL('outbox.js', document.baseURI).href);
  const a = {id: 'a'}, b = {id: 'b'}, p = {id: 'p'};
  const events = [
    {model: a, attr: 'code', value: 'x = 1'}, {model: a, attr: 'code_input', value: 'x = 1'},
    {model: b, attr: 'data', data: {y: [1]}, cols: null},      // column data: never merged
    {model: a, attr: 'code', value: 'x = 12'}, {model: a, attr: 'code_input', value: 'x = 12'},
    {model: p, attr: 'inner_width', value: 640},                // the page's layout: not sent
    {model: b, attr: 'data', data: {y: [2]}, cols: null},
  ];
  return coalesce(events).map((e) => [e.model.id, e.attr, e.value === undefined ? e.data.y[0] : e.value]);
}"""


def test_coalesce_keeps_each_propertys_newest_value_in_order(app_page):
    # no browser-free JS runner in this project: the module is imported by the page itself
    assert app_page.page.evaluate(COALESCE) == [
        ["b", "data", 1], ["a", "code", "x = 12"], ["a", "code_input", "x = 12"], ["b", "data", 2]]


# a replace (what typing over a selection or a paste does): ace removes, then inserts; each of
# the two sets the editor's `code` and `code_input`. Then, in the same task, a snapshot.
REPLACE_THEN_SNAPSHOT = """async ({findEditor}) => {
  const editor = (new Function('return (' + findEditor + ')()'))();
  const before = {...window.gradpad.outbox};
  const row = editor.session.getLine(3);
  const col = row.indexOf('3.25');
  editor.session.replace({start: {row: 3, column: col}, end: {row: 3, column: col + 4}}, '4.5');
  const snap = await window.gradpad.snapshot();
  return {before, after: {...window.gradpad.outbox}, snap, editorCode: editor.getValue()};
}"""


def test_a_replace_leaves_as_one_patch_and_a_call_after_it_sees_it(app_page):
    page = app_page.page
    page.set_default_timeout(180_000)
    page.evaluate("opts => window.gradpad.load(opts)", {"code": CODE})
    page.evaluate(QUIET)
    r = page.evaluate(REPLACE_THEN_SNAPSHOT, {"findEditor": FIND_EDITOR})
    before, after = r["before"], r["after"]
    # four changes (code, code_input; twice), one patch with the newest two
    assert after["events"] - before["events"] == 4, r
    assert after["merged"] - before["merged"] == 2, r
    assert after["sent"] - before["sent"] == 1, r
    # the snapshot was asked after the edit: Python had it first
    assert "jnp.cos(x) * 4.5" in r["editorCode"]
    assert r["snap"]["code"] == r["editorCode"], (r["snap"]["code"], r["editorCode"])
    page.evaluate(QUIET)
    snap = page.evaluate("() => window.gradpad.snapshot()")
    assert snap["code"] == r["editorCode"] and snap["error"] is None


# the address bar (loader.js PAGE_ENV.set_hash): the app's state written once, not again unchanged
SET_HASH_TWICE = "from app import env\nenv.set_hash({h!r})\nenv.set_hash({h!r})\n"


def test_the_same_hash_twice_is_written_once(app_page):
    page = app_page.page
    page.set_default_timeout(180_000)
    page.evaluate("opts => window.gradpad.load(opts)", {"code": CODE})
    page.evaluate(QUIET)
    before = page.evaluate("() => ({...window.gradpad.hashWrites, hash: location.hash})")
    hashes = ["#example=jvp_and_vjp", before["hash"]]  # a new one, then back to the one there was
    for h in hashes:
        r = app_page.run(SET_HASH_TWICE.format(h=h))
        assert r["error"] is None, r
        page.wait_for_function("h => location.hash === h", arg=h)
    # both calls of each pair reach writeHash through the page's hash chain (asynchronous): the
    # hash equals the second fragment after its first write, while its repeat may still be on the way
    page.wait_for_function("n => window.gradpad.hashWrites.written + window.gradpad.hashWrites.unchanged >= n",
                           arg=before["written"] + before["unchanged"] + 4)
    after = page.evaluate("() => ({...window.gradpad.hashWrites, hash: location.hash})")
    assert after["hash"] == before["hash"]
    assert after["written"] - before["written"] == 2, (before, after)
    assert after["unchanged"] - before["unchanged"] == 2, (before, after)
