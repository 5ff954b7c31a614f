"""app.lesson: a teacher's Markdown lesson -> cells on one Python and one namespace (issue 27)."""
import pytest

from app import env, lesson, sandbox

LESSON = '''# A lesson

Some *prose* with <script>alert(1)</script> raw HTML.

```python title="first" panes=console autorun=0
a = 20
```

```python panes=console,jaxpr
import jax
b = a + 22
def f(x):
    return x * b
f(1.0)
```

```text
not a cell
```

```python static
also not a cell
```

```py data-panes="console" data-readonly data-fold
print("third", b)
```
'''


def test_parse_finds_cells_and_their_options():
    parts = lesson.parse(LESSON)
    cells = [p for p in parts if isinstance(p, lesson.CellSpec)]
    assert [c.code for c in cells] == ["a = 20", "import jax\nb = a + 22\ndef f(x):\n    return x * b\nf(1.0)",
                                       'print("third", b)']
    first, second, third = cells
    assert (first.title, first.panes, first.autorun, first.readonly, first.fold) == ("first", ["console"], False, False, False)
    assert (second.panes, second.autorun) == (["console", "jaxpr"], True)
    assert (third.panes, third.readonly, third.fold, third.autorun) == (["console"], True, True, True)
    prose = "".join(p.html for p in parts if isinstance(p, lesson.Prose))
    # the prose is Markdown with raw HTML off: text, never markup of the lesson's own
    assert "<em>prose</em>" in prose and "<script>" not in prose and "&lt;script&gt;" in prose
    assert "not a cell" in prose and "also not a cell" in prose


def test_bad_lessons_say_what_to_fix():
    with pytest.raises(lesson.LessonError, match="panes are jaxpr, plot, vmap, timing, console"):
        lesson.parse("```python panes=jaxpr,graphs\nx = 1\n```\n")
    with pytest.raises(lesson.LessonError, match="no Python code block"):
        lesson.parse("# only prose\n")
    with pytest.raises(lesson.LessonError, match="damaged"):
        lesson.decode_lesson(lesson.encode_lesson(LESSON)[:-6])
    with pytest.raises(lesson.LessonError, match="another site"):
        lesson.read_source("https://elsewhere.example/l.md", "", "http://127.0.0.1:8000/")


def test_the_lesson_in_a_link_round_trips():
    token = lesson.encode_lesson(LESSON)
    assert lesson.read_source("inline", "#lesson=" + token, "http://127.0.0.1:8000/") == LESSON
    assert lesson.requested("?embed=1&lesson=inline") == "inline" and lesson.requested("?embed=1") is None


@pytest.fixture()
def built():
    env._memory.clear()
    lsn = lesson.Lesson(lesson.parse(LESSON))
    yield lsn
    sandbox.shared_namespace = None


def test_cells_share_one_namespace_and_run_in_order(built):
    snap = built.snapshot()["cells"]
    # the autorun cell needs `a` from the click-to-run cell above it: that one ran first
    assert [c["ran"] for c in snap] == [True, True, True]
    assert snap[1]["error"] is None and snap[1]["function"] == "f"
    assert "third 42" in snap[2]["console"]
    assert built.namespace["b"] == 42
    assert snap[2]["code_shown"] is False and snap[2]["readonly"] is True
    assert snap[0]["panes"] == ["console"] and snap[1]["panes"] == ["console", "jaxpr"]
    # the visitor's own playground code is not touched by a lesson
    assert env.AUTOSAVE_KEY not in env._memory


def test_reset_brings_back_the_teachers_code(built):
    cell = built.cells[1]
    built.load(code="import jax\nb = a - 1\nprint('edited', b)\n", cell=1)
    assert "edited 19" in built.snapshot()["cells"][1]["console"]
    cell.cell_reset.clicks += 1
    snap = built.snapshot()["cells"][1]
    assert snap["code"] == snap["teacher_code"] and "edited" not in snap["console"]
    assert built.namespace["b"] == 42


def test_a_click_to_run_cell_waits_for_its_run():
    env._memory.clear()
    lsn = lesson.Lesson(lesson.parse("```python autorun=0\nx = 5\nx * 2\n```\n\n```python autorun=0\nx + 1\n```\n"))
    try:
        assert [c["ran"] for c in lsn.snapshot()["cells"]] == [False, False]
        assert not lsn.cells[1].tabs.visible
        lsn.cells[1].cell_run.clicks += 1  # runs the cell above it first
        snap = lsn.snapshot()["cells"]
        assert [c["ran"] for c in snap] == [True, True] and "6" in snap[1]["console"]
    finally:
        sandbox.shared_namespace = None


def test_a_cell_frame_shows_its_one_cell_and_keeps_code_typed_during_a_restart(built):
    """A course page's cell frame (static/lesson.js: a frame per block) shows one cell of the
    lesson; after a restart the code typed in that frame meanwhile comes back shown, not run, and
    the panes (of the teacher's code, run again by the new Python) are hidden until ▶ Run."""
    view = built.cell_frame_view(2)
    assert built.cells[2].editor in [o for o in view.select() if o is built.cells[2].editor]
    assert not any(o is built.cells[1].editor for o in view.select())
    typed = 'print("third", b)\nprint("typed while Python restarted")'
    built.cell_frame_view(2, typed, "stopped")
    cell = built.cells[2]
    assert cell.editor.value == typed and cell.editor.visible and not cell.tabs.visible
    assert "typed while" not in built.snapshot()["cells"][2]["console"]
    assert "kept, not run" in cell.status.object
    cell.cell_run.clicks += 1
    assert "typed while Python restarted" in built.snapshot()["cells"][2]["console"] and cell.tabs.visible
    # the first cell's frame: its editor text is the page's (app.bootstrap.render -> take_over)
    built.take_over("a = 21", "restarted")
    assert built.cells[0].editor.value == "a = 21"
    with pytest.raises(lesson.LessonError, match="no cell 9"):
        built.cell_frame_view(8)


def test_a_batch_of_changes_goes_to_each_documents_own_page():
    """One Python, several documents (a lesson's cell frames): a batch (app.batching) holding
    changes of two documents sends each its own."""
    from types import SimpleNamespace

    from app import bootstrap
    d1, d2, sent = object(), object(), []
    bootstrap._senders.update({id(d1): lambda evs: sent.append(("d1", evs)), id(d2): lambda evs: sent.append(("d2", evs))})
    try:
        e = [SimpleNamespace(document=d) for d in (d1, d2, d1)]
        bootstrap._send_batch(e)
        assert sent == [("d1", [e[0], e[2]]), ("d2", [e[1]])]
    finally:
        bootstrap._senders.pop(id(d1)), bootstrap._senders.pop(id(d2))
