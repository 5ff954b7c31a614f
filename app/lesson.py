"""A lesson page: a teacher's Markdown file whose Python code blocks become live gradpad cells,
all in ONE page, on ONE Python (one worker, one Pyodide) and one namespace, like a notebook.

    <page>?lesson=lessons/first-steps.md        a lesson file on gradpad's own site
    <page>?lesson=inline#lesson=TOKEN           the lesson carried in the link (`encode_lesson`,
                                                `python -m tools.lesson_link FILE.md URL`)
    ...&embed=1                                 inside an iframe: no page header
    ...&cell=K&lid=ID                           one frame per cell (static/lesson.js): this frame
                                                shows cell K only; cell 0's frame owns the Python
                                                and the other cells' frames show theirs on it
                                                (`Lesson.cell_frame_view`, static/lesson_share.js)

A fenced block whose info string starts with `python` (or `py`, `gradpad`) is a cell; its options
follow the language, with or without `data-`, e.g.

    ```python panes=jaxpr,plot readonly fold autorun=0 title="The loss"
    ...
    ```

  panes=a,b,c     the tabs it shows (jaxpr, plot, vmap, timing, console; default jaxpr,plot,console)
  readonly        the learner cannot edit the code (Reset is then hidden)
  fold            the code starts hidden behind "Show code"
  autorun=0       click-to-run: nothing runs until ▶ Run (default: runs when the page opens)
  function=NAME / args=...   the function the panes explain, and its input
  static          an ordinary code block, shown and never run

Every cell runs in the lesson's shared namespace, so a cell sees what the cells above it defined;
running a cell first runs the cells above it that have not run yet. The prose between blocks is
Markdown with raw HTML switched off (a lesson in a link is a stranger's text: it must not put
script or markup on the page)."""
from __future__ import annotations

import base64
import shlex
import zlib
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from app import env, share

LANGS = ("python", "py", "python3", "gradpad")
DEFAULT_PANES = ("jaxpr", "plot", "console")
CELL_PANE_PX = 340     # a cell's panes: a fixed height (an embed's panes fill the frame instead)
# on a phone a cell's pane is as tall as what it shows, and shows all of it (no scroll box: its
# children's last few px overflowed even an auto height): a 340 px box cut the Jaxpr pane's
# "f vs grad(f)" header at its bottom edge, and a scroll box inside the page traps the thumb.
# Wide content scrolls in its own box (a jaxpr, a WGSL listing), not the pane.
# a phone's cell pane is as tall as what it shows (no inner scroll box cutting a header); sideways,
# what is wider than the phone (Ace's text layer in Firefox/WebKit) is clipped at the pane, never
# widening the page: `clip` makes no scroll container (a sideways scrollbar would take height back)
# a pane keeps room for its scrollbar, as the app's do (app.main.PANE_GUTTER: a figure's toolbar stays clear of it)
# (app.panes.common.tv('auto', '#6b7280 #0d1117') written out: this module imports no Panel)
PANE_GUTTER = "scrollbar-gutter: stable; scrollbar-color: var(--gp-dark, auto) var(--gp-light, #6b7280 #0d1117);"
CELL_PANE_PHONE_CSS = (f":host {{ {PANE_GUTTER} }} "
                       "@media (max-width: 600px) { :host { height: auto !important; "
                       "overflow-x: clip !important; overflow-y: visible !important; } }")
LINE_PX, EDITOR_MIN_PX, EDITOR_MAX_PX = 18, 72, 420
MAX_LESSON_CHARS = 200_000


@dataclass
class CellSpec:
    code: str
    panes: list = field(default_factory=lambda: list(DEFAULT_PANES))
    readonly: bool = False
    fold: bool = False
    autorun: bool = True
    title: str = ""
    function: str | None = None
    args: str | None = None


@dataclass
class Prose:
    html: str


class LessonError(ValueError):
    """A lesson that cannot be read or parsed: the message names the problem and the fix."""


# ------------------------------------------------------------------ the lesson file
_TRUE = ("", "1", "true", "yes", "on")


def _options(info: str) -> dict | None:
    """A fence's info string -> its options, or None when the block is no cell."""
    info = info.strip().replace("{", " ").replace("}", " ")
    try:
        words = shlex.split(info)
    except ValueError:
        words = info.split()
    if not words or words[0].lower() not in LANGS:
        return None
    opts = {}
    for w in words[1:]:
        key, _, value = w.partition("=")
        key = key.lower().removeprefix("data-").lstrip(".")
        opts[key] = value
    if "static" in opts:
        return None
    return opts


def cell_spec(code: str, opts: dict) -> CellSpec:
    spec = CellSpec(code=code.rstrip("\n"))
    if opts.get("panes"):
        wanted = [p.strip() for p in opts["panes"].split(",")]
        unknown = [p for p in wanted if p not in share.PANES]
        if unknown:
            raise LessonError(f"a cell asks for pane(s) {', '.join(unknown)}: the panes are "
                              f"{', '.join(share.PANES)} (e.g. panes=jaxpr,plot)")
        spec.panes = wanted
    spec.readonly = "readonly" in opts and opts["readonly"].lower() in _TRUE
    spec.fold = "fold" in opts and opts["fold"].lower() in _TRUE
    if "autorun" in opts:
        spec.autorun = opts["autorun"].lower() in _TRUE
    if "click-to-run" in opts or "clicktorun" in opts:
        spec.autorun = False
    spec.title = opts.get("title", "")
    spec.function = opts.get("function") or None
    spec.args = opts.get("args") or None
    return spec


def _markdown():
    from markdown_it import MarkdownIt
    # raw HTML off: a lesson's prose is text and links, never markup or script of its own
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def parse(text: str) -> list:
    """Markdown -> [Prose | CellSpec, ...] in page order."""
    if len(text) > MAX_LESSON_CHARS:
        raise LessonError(f"the lesson is {len(text):,} characters long; at most {MAX_LESSON_CHARS:,} are read")
    md = _markdown()
    lines = text.splitlines(keepends=True)
    parts, prose_from = [], 0

    def flush(upto: int):
        chunk = "".join(lines[prose_from:upto])
        if chunk.strip():
            parts.append(Prose(md.render(chunk)))

    for tok in md.parse(text):
        if tok.type != "fence" or tok.map is None:
            continue
        opts = _options(tok.info)
        if opts is None:
            continue
        start, end = tok.map
        flush(start)
        parts.append(cell_spec(tok.content, opts))
        prose_from = end
    flush(len(lines))
    if not any(isinstance(p, CellSpec) for p in parts):
        raise LessonError("the lesson has no Python code block: write one as ```python ... ``` "
                          "(see docs/teachers.md)")
    return parts


def encode_lesson(text: str) -> str:
    """Lesson text -> URL-safe token for `#lesson=` (zlib + base64, as share links)."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


def decode_lesson(token: str) -> str:
    try:
        return zlib.decompress(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)),
                               bufsize=MAX_LESSON_CHARS).decode()
    except Exception as e:  # noqa: BLE001 - any damage reads the same
        raise LessonError(f"the lesson in this link is damaged or truncated ({type(e).__name__})") from None


def requested(search: str) -> str | None:
    """The `lesson=` query value, or None when the page is no lesson page."""
    params = parse_qs(search.lstrip("?"), keep_blank_values=True)
    return params["lesson"][0] if "lesson" in params else None


def read_source(where: str, hash_: str, base: str) -> str:
    """The lesson's text: from the link's `#lesson=TOKEN`, or the file `where` on this site."""
    params = parse_qs(hash_.lstrip("#"), keep_blank_values=True)
    if "lesson" in params:
        return decode_lesson(params["lesson"][0])
    if where in ("", "inline"):
        raise LessonError("this lesson link carries no lesson: it needs #lesson=... (made by "
                          "`python -m tools.lesson_link`) or ?lesson=PATH to a lesson file")
    from urllib.parse import urljoin, urlparse
    url = urljoin(base, where)
    if urlparse(url).netloc != urlparse(base).netloc or urlparse(url).scheme != urlparse(base).scheme:
        raise LessonError(f"the lesson file {where} is on another site: gradpad reads lesson files "
                          "from its own site only (copy it next to gradpad, or put the lesson in "
                          "the link with `python -m tools.lesson_link`)")
    if not env.IN_BROWSER:
        raise LessonError("lesson files are read in the browser page only")
    import js
    xhr = js.XMLHttpRequest.new()  # a worker may read synchronously: the app is built in one call
    xhr.open("GET", url, False)
    try:
        xhr.send(None)
    except Exception as e:  # noqa: BLE001
        raise LessonError(f"the lesson file {where} could not be read ({e})") from None
    if xhr.status != 200:
        raise LessonError(f"the lesson file {where} could not be read (HTTP {xhr.status}): check the path")
    return str(xhr.responseText)


# ------------------------------------------------------------------ the cells
def _cell_class():
    """LessonCell: a Playground (app.main) shown as one cell of a lesson."""
    import panel as pn

    from app import main
    from app.panes.common import CSS
    from app.panes.text_html import TextHTML

    class LessonCell(main.Playground):
        autosave = False  # the visitor's own playground code stays theirs

        def __init__(self, lesson, index: int, spec: CellSpec):
            self.owner, self.index, self.spec = lesson, index, spec
            self.has_run = False
            opts = share.EmbedOptions(embed=True, panes=list(spec.panes), autorun=False, readonly=spec.readonly)
            super().__init__(code=spec.code, embed=opts)
            for pane in self.panes.values():  # not the frame-filling height of an embed
                pane.stylesheets, pane.height = [CELL_PANE_PHONE_CSS], CELL_PANE_PX
            lines = spec.code.count("\n") + 1
            self.editor.height = max(EDITOR_MIN_PX, min(EDITOR_MAX_PX, lines * LINE_PX + 12))
            self.editor.visible = not spec.fold
            self.tabs.visible = spec.autorun  # a click-to-run cell shows its panes once it ran
            if not spec.autorun:
                self.status.object = ('<span class="gp-muted">Not run yet: ▶ Run runs this cell '
                                      '(and the cells above it that have not run).</span>')
            self.cell_run = pn.widgets.Button(label="▶ Run", button_type="primary", width=80)
            self.cell_reset = pn.widgets.Button(label="↺ Reset", button_type="light", width=90,
                                                visible=not spec.readonly,
                                                description="Back to the teacher's code")
            self.cell_fold = pn.widgets.Button(label="Hide code" if not spec.fold else "Show code",
                                               button_type="light", width=100)
            self.cell_run.on_click(lambda e: self.run(remeasure=True))
            self.cell_reset.on_click(lambda e: self.reset())
            self.cell_fold.on_click(lambda e: self.toggle_code())
            title = spec.title or f"Cell {index + 1}"
            from app.panes.common import esc
            self.cell_title = TextHTML(f'<b class="gp-cell-title">{esc(title)}</b>', stylesheets=[CSS, TITLE_CSS],
                                       sizing_mode="stretch_width", min_width=80)

        def run(self, function=None, args=None, remeasure=False):
            self.owner.run_above(self)
            self.owner.last_cell = self
            if function is None and args is None and not self.has_run:
                function, args = self.spec.function, self.spec.args
            self.tabs.visible = True
            super().run(function=function, args=args, remeasure=remeasure)
            self.has_run = True

        def _on_edit(self, event):
            self.owner.last_cell = self
            super()._on_edit(event)

        def _fill_slow_panes(self, run_id: int):
            # only the panes this cell shows: three cells measuring hidden vmap/timing panes
            # would keep the one Python busy for seconds after the lesson shows
            base = {"vmap timings": "vmap", "webgpu timing": "timing"}
            self.pending = [p for p in self.pending if base.get(p, p) in self.embed.panes]
            super()._fill_slow_panes(run_id)

        def reset(self):
            """Back to the teacher's code (the learner's edits are dropped), run again."""
            self.editor.visible = True
            self.cell_fold.label = "Hide code"
            self.apply_state(share.ShareState(code=self.spec.code, function=self.spec.function,
                                              args=self.spec.args), run=True)

        def toggle_code(self):
            self.editor.visible = not self.editor.visible
            self.cell_fold.label = "Hide code" if self.editor.visible else "Show code"

        def keep_typed(self, code: str | None, held_reason: str | None) -> None:
            """This Python replaced an ended one: the code typed in this cell's frame meanwhile is
            shown, not run; the panes (the teacher's code's) are hidden until ▶ Run."""
            if code is None or code == self.editor.value:
                return
            from app import held
            self._set_quietly(self.editor, "value", code)
            self.editor.visible = True
            self.tabs.visible = False
            why = held.message(held_reason or "restarted")
            from app.panes.common import esc
            self.status.object = (f'<span class="gp-muted">{esc(why)} Your edit is kept, not run: '
                                  '▶ Run runs it.</span>')

        def cell_snapshot(self) -> dict:
            snap = self.snapshot()
            snap.update({"index": self.index, "ran": self.has_run, "teacher_code": self.spec.code,
                         "code_shown": bool(self.editor.visible), "readonly": self.spec.readonly,
                         "panes": list(self.embed.panes), "autorun": self.spec.autorun,
                         "title": self.spec.title, "status": self.status.object})
            return snap

        def view(self):
            head = pn.Row(self.cell_title, self.cell_run, self.cell_reset, self.cell_fold,
                          sizing_mode="stretch_width", stylesheets=[main.WRAP_CSS])
            return pn.Column(head, self.editor, self.status, self.tabs, sizing_mode="stretch_width",
                             css_classes=["gp-cell"], stylesheets=[CELL_CSS])

    return LessonCell


TITLE_CSS = ".gp-cell-title { font-size: 15px; }"
# min-width 0: Panel gives a stretch_width column the widths of its widest fixed row as min-width
# (the head row's title and buttons: 350 px), so a cell frame narrower than 374 px (a 390 px window
# with the course page's scrollbar and margins: 359 px) stuck out sideways; the head row wraps
# (main.WRAP_CSS) and the rest follows the width
NARROW_OK = "min-width: 0 !important;"
CELL_CSS = (":host { border: 1px solid rgba(100, 116, 139, 0.35); border-radius: 8px; padding: 8px 10px; "
            f"margin: 10px 0 18px 0; {NARROW_OK} }}")
PROSE_CSS = (":host { font-size: 16px; line-height: 1.55; } "
             "pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 14px; } "
             "pre { background: rgba(127, 127, 127, 0.1); padding: 8px 10px; border-radius: 6px; overflow: auto; }")
PAGE_CSS = f":host {{ max-width: 1100px; margin: 0 auto !important; padding: 0 12px; {NARROW_OK} }}"


class Lesson:
    """The lesson page's app: prose and cells on one Python, and its side of the page API."""

    def __init__(self, parts: list, embed: bool = False):
        from app import sandbox

        self.embed = share.EmbedOptions(embed=embed)
        self.namespace: dict = sandbox.fresh_namespace()
        sandbox.shared_namespace = self.namespace  # every cell runs here (app.sandbox.run)
        self.parts = parts
        self.last_cell = None
        cls = _cell_class()
        self.cells = []
        for p in parts:
            if isinstance(p, CellSpec):
                self.cells.append(cls(self, len(self.cells), p))
        # autorun cells run in page order (a click-to-run cell above one of them runs with it)
        for cell in self.cells:
            if cell.spec.autorun and not cell.has_run:
                cell.run()

    def run_above(self, cell) -> None:
        for other in self.cells[:cell.index]:
            if not other.has_run:
                other.run()

    # the page API (app.page_api): load / snapshot / Ctrl+Enter
    def snapshot(self) -> dict:
        return {"lesson": True, "cells": [c.cell_snapshot() for c in self.cells],
                "pending": [p for c in self.cells for p in c.pending]}

    def load(self, code=None, example=None, panes=None, cell: int = 0) -> dict:
        """Put `code` into cell `cell` (a host's or a test's call) and run it."""
        target = self.cells[int(cell)]
        target.apply_state(share.ShareState(code=code or target.spec.code), run=True)
        return self.snapshot()

    def key_run(self):
        (self.last_cell or self.cells[0]).run(remeasure=True)

    def take_over(self, code: str | None, held_reason: str | None) -> None:
        """A restart (app.bootstrap.render): the page's editor text is its first cell's."""
        self.cells[0].keep_typed(code, held_reason)

    def cell_frame_view(self, index: int, code: str | None = None, held_reason: str | None = None):
        """One cell alone, for its own frame on a course page (static/lesson.js)."""
        import panel as pn
        if not 0 <= index < len(self.cells):
            raise LessonError(f"this lesson has {len(self.cells)} cells; there is no cell {index + 1}")
        cell = self.cells[index]
        cell.keep_typed(code, held_reason)
        return pn.Column(cell.view(), sizing_mode="stretch_width", css_classes=["gp-lesson-page", "gp-cell-frame"],
                         stylesheets=[PAGE_CSS])

    def view(self):
        import panel as pn

        from app.panes.common import CSS
        from app.panes.text_html import TextHTML
        items, cells = [], iter(self.cells)
        for p in self.parts:
            if isinstance(p, Prose):
                items.append(TextHTML(p.html, stylesheets=[CSS, PROSE_CSS], sizing_mode="stretch_width",
                                      css_classes=["gp-prose"]))
            else:
                items.append(next(cells).view())
        return pn.Column(*items, sizing_mode="stretch_width", css_classes=["gp-lesson-page"], stylesheets=[PAGE_CSS])


def error_view(message: str):
    import panel as pn

    from app.panes.common import CSS, esc
    return pn.Column(pn.pane.HTML(f'<div class="gp-hint"><b>This lesson could not be opened.</b> {esc(message)}</div>',
                                  stylesheets=[CSS], sizing_mode="stretch_width"), sizing_mode="stretch_width")


def frame_cell(search: str) -> int | None:
    """`cell=K` of a lesson's cell frame (static/lesson.js puts one at each code block), else None."""
    params = parse_qs(search.lstrip("?"))
    if "lid" not in params or "cell" not in params:
        return None
    try:
        return max(0, int(params["cell"][0]))
    except ValueError:
        return None


def create_app(where: str, code: str | None = None):
    """The lesson page's Panel object (app.main.create_app calls this for `?lesson=`). `code`:
    the first cell's editor text after a restart (shown, not run)."""
    from app import page_api
    query = share.parse_query(env.location_search())
    try:
        text = read_source(where, env.location_hash(), env.page_base())
        lesson = Lesson(parse(text), embed=query.embed)
        cell = frame_cell(env.location_search())
        root = lesson.view() if cell is None else lesson.cell_frame_view(cell)
    except LessonError as e:
        return error_view(str(e))
    lesson.take_over(code, None if code is None else "restarted")
    if env.IN_BROWSER:
        page_api.install(lesson)
    root.lesson = root.playground = lesson  # app.bootstrap.render: a standby's prebuilt app takes over
    return root
