"""gradpad's Panel UI: editor + examples on the left, five panes (Jaxpr, Plots, vmap, Timing,
Console) on the right, all refreshed together from one `analysis.analyse` run.

The page (static site) calls `create_app()`; `panel serve app/main.py` serves the same app.
"""
from __future__ import annotations

import ast
import asyncio
import functools
import inspect
import sys
import time
from pathlib import Path

if __name__.startswith("bokeh_app"):  # `panel serve app/main.py`: import core/ and app/ from this checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import panel as pn  # noqa: E402
import param  # noqa: E402

from app import analysis, batching, env, examples, export, held, pane_cache, pane_updates, sandbox, share  # noqa: E402
from app import fd_check  # noqa: E402
from app.panes import console as console_pane
from app.panes import jaxpr as jaxpr_pane
from app.panes import plots as plots_pane
from app.panes import timing as timing_pane
from app.panes import vmap as vmap_pane
from app.panes import common
from app.panes.common import CSS, guessed_input, html, readable, themed, tv
from app.panes.text_html import TextHTML

DEFAULT_EXAMPLE = "grad_value_and_grad_has_aux"
PANE_TITLES = {"jaxpr": "Jaxpr", "plot": "Plots", "vmap": "vmap", "timing": "Timing", "console": "Console"}
# An edit that parses runs at once (leading edge): the panes follow the typing with no pause.
# Python runs one thing at a time, so the edits typed while a run is in flight wait in the
# worker's queue; each bumps the autorun generation and only the newest one's run happens, right
# after (never a queue of stale runs). Code that does not parse (a statement half typed) waits
# AUTORUN_PAUSE_S, so that a SyntaxError does not flash at every key. The slow measurements
# (SLOW_PANES) and the hidden tabs fill in after the panes in view, and stop for a newer edit.
AUTORUN_PAUSE_S = 0.6
AUTORUN_QUICK_PAUSE_S = 0.0
# Panes filled in after every other pane shows, in this order (app.main.Playground._slow_steps).
# The page API's load()/snapshot() wait for all but the WebGPU timings (seconds on a software GPU).
# A hidden tab's pane (LAZY_PANES) is computed after the panes in view, the tab in view first.
LAZY_PANES = ("jaxpr", "plot", "vmap")
# The timing measurements (eager vs jit, the vmap methods' times, WebGPU): slow by nature (they
# repeat calls until the timer resolves them), they fill in last; the bench reports them apart.
TIMING_PANES = ("timing", "vmap timings", "webgpu timing")
SLOW_PANES = (*LAZY_PANES, *TIMING_PANES)
PENDING_NOTE = '<p class="gp-muted">computing this tab for the new code…</p>'  # over its hidden old content
# ...of which these measure in the background: the page does not show them as a run (Stop and
# the running indicator are for the learner's code; WebGPU's async readbacks never block)
BACKGROUND_PANES = {"webgpu timing"}
# the active tab stays readable in the dark (light: BokehJS's own values)
TABS_CSS = themed(f".bk-tab.bk-active {{ background-color: {tv('var(--background-color)', '#2b3035')}; "
                  f"color: {tv('var(--color)', '#e6edf3')}; border-color: {tv('var(--border-color)', '#444c56')}; }}")
PROBLEM_SIZES = (1, 10, 100, 1000)  # the timing pane's sizes: f, then jax.vmap(f) over N copies
EDITOR_THEMES = {"default": "chrome", "dark": "tomorrow_night"}  # Panel's theme -> the editor's
NARROW = "@media (max-width: 900px)"  # phones and narrow windows: the two columns stack
# The editor and the panes side by side, split by a bar (the left column's right border) that the
# page lets you drag (static/splitter.js); it starts wide enough for 88 columns of code at
# 1400 px. Bokeh sets sizes inline, hence !important.
ROW_CSS = f":host {{ flex-wrap: wrap; gap: 12px; min-width: 0 !important; max-width: 100%; }} {NARROW} {{ :host {{ flex-direction: column; }} }}"
WRAP_CSS = ":host { flex-wrap: wrap; min-width: 0 !important; }"  # a row of widgets wraps on a phone
LEFT_CSS = (":host { flex: 0 0 auto !important; width: var(--gp-split, clamp(520px, 56%, 960px)) !important; min-width: 320px; "
            "max-width: 100%; overflow: auto; padding-right: 8px; border-right: 4px solid rgba(100, 116, 139, 0.3); }"
            ":host(:hover) { border-right-color: rgba(100, 116, 139, 0.6); }"
            f"{NARROW} {{ :host {{ width: 100% !important; min-width: 0; overflow: visible; border-right: 0; padding-right: 0; }} }}")
RIGHT_CSS = (":host { flex: 1 1 380px !important; min-width: 0; width: auto !important; }"
             f"{NARROW} {{ :host {{ width: 100% !important; flex: 0 0 auto !important; }} }}")
# A read-only embed's panes fill its frame, whatever the iframe's height: a fixed 400 px left a
# blank band at the bottom of the snippet's 500 px frame. Above them: the status row and the tabs.
EMBED_CHROME_PX = 62
# A pane keeps room for its scrollbar whether it scrolls or not: a figure laid out before the
# pane's content grew taller kept its width, and the scrollbar that came then covered the figure's
# toolbar at its right edge (Firefox ESR at 1400x900; Chromium happened to lay it out again)
# (the gutter is the scrollbar's track: dark in the dark theme, else Firefox paints it white)
PANE_GUTTER = f"scrollbar-gutter: stable; scrollbar-color: {tv('auto', '#6b7280 #0d1117')};"
EMBED_PANE_CSS = f":host {{ height: max(160px, calc(100vh - {EMBED_CHROME_PX}px)) !important; {PANE_GUTTER} }}"
# the editor's own scrollbars (Ace's are scrolling divs): the panes' colours in the dark theme,
# where Firefox painted them white in every editor (app, embed, lesson cell)
EDITOR_SCROLLBAR_CSS = f".ace_scrollbar {{ scrollbar-color: {tv('auto', '#6b7280 #0d1117')}; }}"
# an embed that shows its code: the editor (EMBED_EDITOR_PX) sits above the tabs as well
EMBED_EDITOR_PX = 140
EMBED_EDIT_PANE_CSS = (f":host {{ height: max(160px, calc(100vh - {EMBED_CHROME_PX + EMBED_EDITOR_PX + 8}px)) !important; "
                       f"{PANE_GUTTER} }}")
# The page's panes use the window's height (a fixed 700 px pane left ~180 px blank under it at
# 1920x1080). Above a pane: the header, the status row and the tabs (121 px), and a margin.
PAGE_CHROME_PX = 135
PANE_CSS = f":host {{ height: max(400px, calc(100vh - {PAGE_CHROME_PX}px)) !important; {PANE_GUTTER} }}"
# The editor fills its column's height too, the console strip under it still in view: above it
# the header, the example/search/lesson rows (EDITOR_TOP_PX at 1400 px); under it the strip and a
# margin. Stacked (a phone: the rows above it wrap, ~300 px) code and console fit in the window.
# The rule sits on the editor's own stylesheets (a :host rule elsewhere names another element),
# and sets the flex basis too: in its column Bokeh sizes it by `flex: 0 0 440px`, not by height.
EDITOR_TOP_PX, CONSOLE_STRIP_PX = 236, 170
# --gp-editor-top is the editor's measured top (static/splitter.js): a note shown above the code
# moves it down, and the editor gives up that height (a fixed offset pushed the strip off-screen).
EDITOR_HEIGHT = f"max(300px, calc(100vh - var(--gp-editor-top, {EDITOR_TOP_PX}px) - {CONSOLE_STRIP_PX + 30}px))"
EDITOR_HEIGHT_STACKED = f"clamp(200px, calc(100vh - var(--gp-editor-top, 305px) - {CONSOLE_STRIP_PX + 8}px), 520px)"  # 364 px at 390x844
EDITOR_CSS = (f":host {{ flex: 0 0 auto !important; height: {EDITOR_HEIGHT} !important; }}"
              f"{NARROW} {{ :host {{ height: {EDITOR_HEIGHT_STACKED} !important; }} }}")
# a part whose size does not depend on what it holds (a pane of fixed height, a column of fixed
# width, a figure): the page lays out only that part when its content changes (static/layout_bounds.js)
LAYOUT_BOX = common.LAYOUT_BOX
RUNNING_NOTE = '<span class="gp-running-note">● running your code…</span>'  # shown while a run is on
INPUT_LABEL = "Input (arguments)"
INPUT_GUESSED_LABEL = "Input (guessed: type yours)"  # short: a label does not wrap on a phone
VIEW_LABELS = {"f": "f", "grad": "grad(f)", "jit": "jit(f)", "vmap": "vmap(f)", "jvp": "jvp(f)"}


def pane_builder(name: str):
    """A method that draws pane `name`: whatever it raises, the pane shows a message naming the
    error in place of its content (never the last run's output, nor a blank)."""
    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args, **kwargs):
            batching.part()  # a pane's changes are a part of the batch's patch of their own: the
            try:             # page applies each in a task of its own (static/patch_chunks.js)
                with guessed_input(self.analysis):  # its errors on a guessed input say so
                    return method(self, *args, **kwargs)
            except Exception as e:  # noqa: BLE001 - any builder bug, in any pane
                self._pane_failed(name, e)
            finally:
                batching.part()
        return guarded
    return wrap


class KeyBridge(pn.custom.JSComponent):
    """Ctrl/Cmd+Enter anywhere on the page (the editor included) bumps `runs`."""

    runs = param.Integer(default=0)

    _esm = """
    export function render({ model }) {
      const onKey = (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); model.runs = model.runs + 1; }
      };
      document.addEventListener("keydown", onKey, true);
      model.on("remove", () => document.removeEventListener("keydown", onKey, true));
      return document.createElement("span");
    }
    """


class Playground:
    """One user's playground: widgets, the latest analysis, and the panes built from it."""

    autosave = True  # keep the code in the visitor's storage (a lesson's cells do not: app.lesson)

    def __init__(self, code: str | None = None, example: str | None = None, embed: share.EmbedOptions | None = None,
                 autorun: bool = True):
        self.embed = embed or share.EmbedOptions()
        self.autorun = autorun           # False: the opening code is shown, not run (a standby worker)
        self.analysis: analysis.Analysis | None = None
        self.example_name: str | None = None
        self.loaded_code = ""            # the code as last loaded (example or link): edits differ from it
        self._autorun_generation = 0
        self._busy = False
        self._quiet = 0                  # >0 while the app itself sets widget values
        self._user_args = None           # the input typed (or loaded) for the selected function
        self._link_notice = False        # the notice says a link named no example
        self.run_id = 0                  # one per run: slow panes of an older run stop filling in
        self.remeasure_run = None        # the run (Run, Ctrl+Enter) that measures afresh, reuse aside
        self.pending: list[str] = []     # panes of this run still measuring (SLOW_PANES)
        self.run_seconds = 0.0           # the last run's Python time, up to every pane but the slow ones
        self.run_phases: dict = {}       # where that time went (ms) and when it started (epoch ms)
        self._edit_seen = None           # epoch ms of the edit that the next autorun runs
        self._edit_waiting = False       # an edit that parses waits to run: the slow panes stop for it

        self.editor = pn.widgets.CodeEditor(value="", language="python", theme=EDITOR_THEMES[pn.config.theme],
                                            sizing_mode="stretch_width",
                                            height=440, readonly=self.embed.readonly, on_keyup=True,
                                            soft_tabs=True, indent=4,
                                            stylesheets=[EDITOR_SCROLLBAR_CSS] if self.embed.embed
                                            else [EDITOR_CSS, EDITOR_SCROLLBAR_CSS])
        self.example_select = pn.widgets.Select(
            name="Example", options={"(your code)": ""} | {examples.load(n).title: n for n in examples.names()},
            sizing_mode="stretch_width")
        # the gallery as a lesson path: previous/next along examples.ORDER, a note, a search box
        self.search_input = pn.widgets.TextInput(name="Search examples", placeholder="e.g. scan, pytree, in_axes",
                                                 sizing_mode="stretch_width")
        self.search_hits = list(examples.names())
        self.prev_button = pn.widgets.Button(name="◀ previous", button_type="light", width=100)
        self.next_button = pn.widgets.Button(name="next ▶", button_type="light", width=100)
        self.lesson_note = TextHTML("", stylesheets=[CSS], sizing_mode="stretch_width", min_width=260,
                                    css_classes=["gp-lesson"])  # below the buttons on a phone
        self.function_select = pn.widgets.Select(name="Function", options=[], sizing_mode="stretch_width")
        self.args_input = pn.widgets.TextInput(name=INPUT_LABEL, placeholder="e.g. 2.0  or  x, y",
                                               sizing_mode="stretch_width")
        self.view_select = pn.widgets.RadioButtonGroup(options={label: v for v, label in VIEW_LABELS.items()},
                                                       value="f", button_type="light",
                                                       styles=dict(pane_updates.SHOWN_OVER_HIDDEN))
        self.in_axes_input = pn.widgets.TextInput(name="in_axes (one per argument; None = not batched)",
                                                  value="", placeholder="0", width=260,
                                                  styles=dict(pane_updates.SHOWN_OVER_HIDDEN))
        self.size_select = pn.widgets.RadioButtonGroup(options={f"×{n}": n for n in PROBLEM_SIZES}, value=1,
                                                       button_type="light", name="problem size",
                                                       styles=dict(pane_updates.SHOWN_OVER_HIDDEN))
        self.backend_select = pn.widgets.Select(name="Backend", options=available_backends(), width=110)
        self.run_button = pn.widgets.Button(name="▶ Run", button_type="primary", width=90)
        self.share_link = pn.widgets.TextInput(name="Share link", sizing_mode="stretch_width")
        self.share_button = pn.widgets.Button(name="Share", width=80)
        self.embed_button = pn.widgets.Button(name="Embed", width=80)
        self.embed_snippet = pn.widgets.TextAreaInput(name="Embed snippet", height=90, sizing_mode="stretch_width",
                                                      visible=False)
        self.download_py = pn.widgets.FileDownload(callback=self._export_py, filename="gradpad.py",
                                                   label="⬇ .py", button_type="light", width=80, embed=False)
        self.download_nb = pn.widgets.FileDownload(callback=self._export_ipynb, filename="gradpad.ipynb",
                                                   label="⬇ .ipynb", button_type="light", width=90, embed=False)
        self.status = TextHTML(RUNNING_NOTE, stylesheets=[CSS], sizing_mode="stretch_width", css_classes=["gp-status"])
        # (a note keeps room for its words: beside buttons on a phone it wraps them below it instead)
        self.notice = TextHTML("", stylesheets=[CSS, ":host { flex: 1 1 280px !important; min-width: min(100%, 280px) !important; }"],
                               sizing_mode="stretch_width", visible=False)
        self.restore_button = pn.widgets.Button(name="Back to my code", button_type="warning", visible=False, width=150)
        # which stored code the button brings back: the edits an example replaced (PREVIOUS_KEY) or,
        # under a link's code, the visitor's own saved code (AUTOSAVE_KEY, which a link never writes)
        self._restore_key = env.PREVIOUS_KEY
        self._own_code = False  # the editor holds the visitor's own code (typed, or their saved code)
        # beside the notice when the code is held, not run (app.held): after a restart, or code that never finished
        self.held_run = pn.widgets.Button(name="▶ Run it", button_type="primary", visible=False, width=100)
        self._held_row = None  # the embed's row for the notice and ▶ Run it (_embed_view)
        # Ctrl/Cmd+Enter: in the page, static/loader.js listens on the document (app.page_api)
        self.keys = pn.Spacer(width=0, height=0, margin=0) if env.IN_BROWSER else \
            KeyBridge(width=0, height=0, margin=0)

        # the console beside the code (under the editor), not only behind its tab
        self.console_strip = pn.Column(sizing_mode="stretch_width", height=CONSOLE_STRIP_PX, scroll=True,
                                       css_classes=["gp-console-strip", LAYOUT_BOX])
        pane_height = 400 if self.embed.embed else 700
        fill = [EMBED_PANE_CSS if self.embed.readonly else EMBED_EDIT_PANE_CSS] if self.embed.embed else [PANE_CSS]
        self.panes = {name: pn.Column(sizing_mode="stretch_width", height=pane_height, scroll=True, name=title,
                                      stylesheets=fill, css_classes=[f"gp-pane-{name}", LAYOUT_BOX])  # (tests read each pane)
                      for name, title in PANE_TITLES.items()}
        self.shown = pane_updates.PaneUpdates()  # what each pane shows, to skip rebuilding it unchanged
        self.cache = pane_cache.PaneCache()       # the Plots and vmap tabs' data, for a function unchanged
        self.vmap_times = html("")               # the vmap pane's methods table, updated in place
        self.jaxpr_kept = jaxpr_pane.Kept()      # the jaxpr pane's graph and diff card, updated in place
        self.previous_analysis = None            # the last run of other code (the Jaxpr pane diffs against it)
        self.plots_kept = plots_pane.Kept()      # the Plots tab's figures, drawn again with new data
        self.vmap_kept = vmap_pane.Kept()        # the vmap tab's outputs figure, the same
        self.timing_kept = timing_pane.Kept()    # the timing charts, the same
        # "measuring…" over the timing pane's hidden old numbers; PENDING_NOTE while a hidden tab waits
        self.timing_note = html("", styles=dict(pane_updates.SHOWN_OVER_HIDDEN))
        self.pane_notes = {name: html("", styles=dict(pane_updates.SHOWN_OVER_HIDDEN)) for name in LAZY_PANES}
        self.tabs = pn.Tabs(*[(PANE_TITLES[n], self.panes[n]) for n in self.embed.panes],
                            sizing_mode="stretch_width", dynamic=False, stylesheets=[TABS_CSS])

        self.run_button.on_click(lambda e: self.run(remeasure=True))
        if isinstance(self.keys, KeyBridge):
            self.keys.param.watch(lambda e: self.run(remeasure=True), "runs")
        self.share_button.js_on_click(args={"link": self.share_link},
                                      code="navigator.clipboard && navigator.clipboard.writeText(link.value)")
        self.share_button.on_click(lambda e: self._show_share())
        self.embed_button.on_click(lambda e: self._show_embed())
        self._watch(self.example_select, self._on_example)
        self.search_input.param.watch(lambda e: self._on_search(e.new), "value_input")
        self.prev_button.on_click(lambda e: self._step_lesson(-1))
        self.next_button.on_click(lambda e: self._step_lesson(+1))
        self._watch(self.function_select, self._on_function)
        self._watch(self.args_input, self._on_args)
        self._watch(self.view_select, lambda e: self._render_jaxpr())
        self._watch(self.backend_select, lambda e: self._rerun_panes())  # a new backend: measure it now
        self._watch(self.size_select, lambda e: self._retime())
        self._watch(self.in_axes_input, lambda e: self._rerun_panes())
        self._watch(self.editor, self._on_edit)
        self.restore_button.on_click(lambda e: self._restore_previous())
        self.held_run.on_click(lambda e: self._run_held())

        self._initial(code, example)

    def _watch(self, widget, callback):
        widget.param.watch(lambda e: None if self._quiet else callback(e), "value")

    # ------------------------------------------------------------------ state in and out
    def _initial(self, code, example, held_reason: str | None = None):
        state = None
        try:
            state = share.parse_hash(env.location_hash())
        except ValueError as e:
            self._notify(str(e))
        if code is not None or example is not None:
            state = share.ShareState(code=code or "", example=example)
        linked = state is not None and code is None and example is None
        if state is None:
            saved = env.storage_get(env.AUTOSAVE_KEY)
            state = share.ShareState(code=saved) if saved else share.ShareState(example=DEFAULT_EXAMPLE)
        self.apply_state(state, run=self.autorun and held_reason is None and (self.embed.autorun or not self.embed.embed),
                         ask_if_unfinished=True)
        if held_reason is not None:
            self.hold(held_reason)
        if linked:
            self.offer_own_code()

    def offer_own_code(self):
        """A link's code is shown as its own document: the visitor's saved code stays as it was
        (it is saved only when they edit) and "Back to my code" brings it back in one click."""
        saved = env.storage_get(env.AUTOSAVE_KEY)
        if self.embed.embed or not saved or saved == self.editor.value:
            return
        self._restore_key = env.AUTOSAVE_KEY
        self.restore_button.visible = True

    def take_over(self, code: str | None, held_reason: str | None) -> None:
        """This Python replaced an ended one (app.bootstrap.render): open `code` (None: the link
        or autosave, as a visit does) and, with a reason, show it without running it."""
        self.autorun = True
        self._initial(code, None, held_reason)

    def hold(self, reason: str) -> None:
        """The editor's code is shown but not run: say why, and offer to run it (app.held)."""
        self._notify(held.message(reason))
        self.held_run.visible = True
        if self._held_row is not None:
            self._held_row.visible = True
        self.status.object = '<span class="gp-muted">Not run: see the note above the code (▶ Run it, or Ctrl+Enter)</span>'

    def _run_held(self):
        self.held_run.visible = False
        self.notice.visible = False
        if self._held_row is not None:
            self._held_row.visible = False
        self.run(remeasure=True)

    def apply_state(self, state: share.ShareState, run: bool = True, new_entry: bool = False,
                    ask_if_unfinished: bool = False):
        """Show `state` (an example, a link, loaded code) and run it. The address bar says so at
        once, before the run (a URL copied during it shares what the editor shows); `new_entry`:
        a program the learner chose (an example, the page API's load) is a browser history entry
        of its own, so Back returns to the one before (a link applied, Back itself: replaced)."""
        if self._link_notice:  # the last link's problem is no longer what the page shows
            self.notice.visible = self._link_notice = False
        if state.example and not state.code and state.example not in examples.names():
            self._notify(unknown_example_html(state.example), escape=False)
            self._link_notice = True
            saved = env.storage_get(env.AUTOSAVE_KEY)
            state = share.ShareState(code=saved) if saved else share.ShareState(example=DEFAULT_EXAMPLE)
        if state.example and not state.code:
            ex = examples.load(state.example)
            code, function, args = ex.code, state.function or ex.function, state.args or ex.args
            self.example_name = ex.name
        else:
            code, function, args = state.code, state.function, state.args
            self.example_name = state.example
        self.loaded_code = code
        self._own_code = bool(code) and code == env.storage_get(env.AUTOSAVE_KEY)
        self._update_lesson()
        self._set_quietly(self.editor, "value", code)
        self._set_quietly(self.example_select, "value", self.example_name or "")
        self._set_quietly(self.view_select, "value", state.view if state.view in VIEW_LABELS else "f")
        self._set_quietly(self.function_select, "value", None)  # new code: its own default function
        # the example's (or the link's) input stays the input of its function through the edits
        # that follow, as a typed one does: without it an edit fell back to a guessed input (1.0
        # for an f the code never calls), changing every pane and recomputing them all
        self._user_args = args or None
        if state.backend in self.backend_select.options:
            self._set_quietly(self.backend_select, "value", state.backend)
        self._set_quietly(self.args_input, "value", args or "")  # not the last program's input
        self._publish_hash(new_entry=new_entry)
        if run and ask_if_unfinished and held.unfinished(code):
            self.hold("unfinished")  # it froze or crashed the page last time: ask first
        elif run:
            self.run(function=function, args=args)

    # ------------------------------------------------------------------ lessons
    def lesson(self) -> dict:
        """Where the loaded example sits on the lesson path (plain data: snapshot and tests)."""
        order = examples.names()
        prev, nxt = examples.neighbours(self.example_name)
        if self.example_name not in order:
            return {"index": None, "of": len(order), "chapter": None, "notice": "", "prev": prev, "next": nxt}
        return {"index": order.index(self.example_name) + 1, "of": len(order),
                "chapter": examples.CHAPTER.get(self.example_name), "notice": examples.NOTICE.get(self.example_name, ""),
                "prev": prev, "next": nxt}

    def _update_lesson(self):
        from app.panes.common import esc
        les = self.lesson()
        self.prev_button.disabled = les["prev"] is None
        self.next_button.disabled = les["next"] is None
        if les["index"] is None:
            self.lesson_note.object = '<span class="gp-muted">Your own code · “next ▶” starts the lessons.</span>'
        else:
            self.lesson_note.object = (f'<b>Lesson {les["index"]} of {les["of"]} · {esc(les["chapter"] or "")}</b> — '
                                       f'what to notice: {esc(les["notice"])}')

    def _step_lesson(self, step: int):
        target = self.lesson()["prev" if step < 0 else "next"]
        if target:
            self._stash_unsaved()
            self.apply_state(share.ShareState(example=target), run=True, new_entry=True)

    def _on_search(self, query: str):
        """Filter the Example list; the loaded example stays in it (the list shows what is loaded)."""
        self.search_hits = examples.search(query or "")
        keep = set(self.search_hits) | ({self.example_name} if self.example_name in examples.names() else set())
        options = {"(your code)": ""} | {examples.load(n).title: n for n in examples.names() if n in keep}
        self._set_quietly(self.example_select, "options", options)
        self._set_quietly(self.example_select, "value", self.example_name if self.example_name in keep else "")
        n = len(self.search_hits)
        self.search_input.name = f"Search examples ({n} match{'es' if n != 1 else ''})" if query else "Search examples"

    def current_state(self) -> share.ShareState:
        return share.ShareState(code=self.editor.value, function=self.function_select.value or None,
                                args=self.args_input.value or None, panes=list(self.embed.panes),
                                backend=self.backend_select.value, view=self.view_select.value,
                                example=self.example_name if self.editor.value == self.loaded_code else None)

    def share_url(self) -> str:
        return env.page_base() + share.state_hash(self.current_state())

    def load(self, code: str | None = None, example: str | None = None, panes=None) -> dict:
        """Page API: load code or an example, run it, and return the snapshot."""
        if panes:
            wanted = [p for p in panes if p in self.panes]
            if wanted:
                self.tabs.active = list(self.embed.panes).index(wanted[0]) if wanted[0] in self.embed.panes else 0
        if example and not code:
            self._stash_unsaved()
        self.apply_state(share.ShareState(code=code or "", example=example), run=True, new_entry=True)
        return self.snapshot()

    def snapshot(self) -> dict:
        """What the panes show now, as plain JSON-able data (page API and tests)."""
        if env.IN_BROWSER and self.analysis is not None and not self._busy \
                and self.editor.value != self.analysis.code:
            # an edit whose autorun has not fired yet (the page asked in between): run it now, so
            # the snapshot never pairs the new code with the panes of the code before it
            self.run(function=self.function_select.value or None)
        a = self.analysis
        if a is None:
            return {"code": self.editor.value, "function": None, "jaxpr": "", "console": "", "error": None,
                    "plots": {}, "timing": {}, "timings": {}, "run": self.run_id, "pending": [], "failed_panes": [],
                    "notice": self.notice.object if self.notice.visible else ""}  # e.g. why the code is held
        analysis.complete(a, views=(self.view_select.value,), with_stages=True)
        jv = a.jaxprs.get(self.view_select.value)
        err = a.run.error or a.args_error
        t = a.timing if a.timing and "eager" in a.timing else {}  # not measured (yet), or failed
        return {
            "code": self.editor.value,
            "run": self.run_id,                 # which run the panes show (gradpad.panes reports it too)
            "pending": list(self.pending),      # panes still measuring (SLOW_PANES)
            "failed_panes": self.failed_panes(),  # panes whose builder raised: they show its error
            "function": a.function.name if a.function else None,
            "args_guessed": a.args_guessed,     # no call of the function in the code: its input is a guess
            "view": self.view_select.value,
            "jaxpr": jv.text if jv and jv.error is None else "",
            "eqn_count": jv.eqn_count if jv and jv.error is None else 0,
            "source_map": source_map_summary(jv),
            "console": console_pane.console_text(a.run, a),
            "error": {"type": err.type, "message": readable(err.message), "hint": err.hint, "line": err.line}
            if err else None,
            "annotations": list(self.editor.annotations),
            "plots": plots_pane.point_counts(a.plot_kind, a.plot),
            "fd_check": fd_check.summary(a.plot),
            "gradient_fd": plots_pane.fd_bar_counts(a.plot_kind, a.plot),
            "notice": self.notice.object if self.notice.visible else "",
            "example": self.example_select.value or None,
            "lesson": self.lesson(),
            "search": list(self.search_hits),
            "grad_stages": {s.name: s.eqn_count for s in a.stages or ()},
            "jaxpr_diff": self.jaxpr_kept.views_diff.summary() if self.jaxpr_kept.views_diff else None,
            "vmap": vmap_summary(a.vmap),
            "timing": timing_summary(a.timing),
            "timings": {"eager_s": t["eager"]["median"], "jit_first_s": t["jit_first"]["total"],
                        "jit_steady_s": t["jit_steady"]["median"], "retraces": t["retraces"],
                        "backend": t["backend"]} if t else {},
        }

    def failed_panes(self) -> list[str]:
        """The panes showing a builder's error (pane_builder) instead of their content."""
        def failed(column) -> bool:
            return any(pane_updates.FAILED_CLASS in o.css_classes for o in column.objects)
        return [name for name, column in self.panes.items() if failed(column)]

    # ------------------------------------------------------------------ running
    def run(self, function: str | None = None, args: str | None = None, remeasure: bool = False):
        """Run the editor's code and rebuild every pane. Every way to run (Run, Ctrl+Enter, an
        edit, a link) keeps the user's function and input until they change them; without one,
        `analysis.default_function` picks. `remeasure`: time f again even where an earlier run
        timed the same f on the same input (the learner asked for a run: Run, Ctrl+Enter)."""
        if self._busy:
            return
        function = function or self.function_select.value or None
        if args is None and self._user_args is not None and function == self.function_select.value:
            args = self._user_args
        self._busy = True
        started = time.perf_counter()
        phases = {"edit_seen": self._edit_seen, "started": time.time() * 1e3, "active": self.active_pane()}
        self._edit_seen = None
        self._edit_waiting = False
        self._autorun_generation += 1    # an autorun still pending for these edits is this run: one key press, one run
        # no "running…" patch of its own: the page shows a run in flight from its run-start
        # message (loader.js), and the status line changes once, in the panes' patch
        env.run_state(True)
        held.started(self.editor.value)  # cleared below; still there on reopen if this run never ends
        if self.held_run.visible:  # the note about held code (hold) is no longer true once code runs
            self.held_run.visible = False
            self.notice.visible = False
            if self._held_row is not None:
                self._held_row.visible = False
        try:
            self._select_backend()
            code = self.editor.value
            self.run_id += 1
            self.remeasure_run = self.run_id if remeasure else None
            view = self.view_select.value  # the jaxpr pane needs this view, f and grad (its diff card)
            active = phases["active"]      # only the tab in view now; the others after (LAZY_PANES)
            if self.analysis is not None and self.analysis.code != code:
                self.previous_analysis = self.analysis
            self.analysis = analysis.analyse(code, function=function, args_source=args, in_axes=self._in_axes(),
                                             views=tuple(dict.fromkeys(("f", "grad", view))) if active == "jaxpr" else (),
                                             with_stages=active == "jaxpr" and view in jaxpr_pane.STAGE_VIEWS,
                                             with_plot=False, with_vmap=False, with_timing=False, vmap_timed=False)
            a = self.analysis
            tab_data_error = None
            if active in self._TAB_DATA:
                try:
                    self._TAB_DATA[active](self, a)
                except Exception as e:  # noqa: BLE001 - its pane shows the error (below), the others fill
                    tab_data_error = e
            traced = a.function is not None and a.args_error is None
            if traced:
                a.timing = {"pending": True, "scale": self.size_select.value}
            self.pending = [name for name in LAZY_PANES if traced and name != active]
            self.pending += [name for name, ready in (("timing", a.timing.get("pending")),
                                                      ("vmap timings", analysis.vmap_pending(a.vmap))) if ready]
            rendering = time.perf_counter()
            # the inputs, the status line, the panes and the share link leave as ONE patch (each
            # patch of its own costs a walk of the whole document in the page)
            with batching.one_update():
                self._sync_inputs()
                self._render_panes()
                if tab_data_error is not None:
                    self._pane_failed(active, tab_data_error)
                self.share_link.value = self.share_url()
            phases.update({k: v * 1e3 for k, v in a.phases.items()})
            phases["render"] = (time.perf_counter() - rendering - batching.flush_seconds) * 1e3
            phases["send"] = batching.flush_seconds * 1e3
            if self.autosave and self._own_code:  # a link's or an example's code is not the visitor's saved code
                env.storage_set(env.AUTOSAVE_KEY, code)
            self._publish_hash()
        finally:
            held.ended()
            env.run_state(False)
            self._busy = False
        self.run_seconds = time.perf_counter() - started
        self.run_phases = phases
        self._report()
        self._fill_slow_panes(self.run_id)

    def active_pane(self) -> str | None:
        """The pane of the tab in view (the others are hidden behind their tabs)."""
        names = list(self.embed.panes)
        return names[self.tabs.active] if 0 <= self.tabs.active < len(names) else None

    # ------------------------------------------------------------------ slow panes, after the others
    def _report(self):
        """Tell the page what the panes show: this run, and which panes are still measuring."""
        env.panes_state(self.run_id, list(self.pending), self.run_seconds, self.run_phases)

    def _plot_data(self, a):
        """The Plots tab's data: reused when f is the same function as in an earlier run
        (app.pane_cache says when), else sampled."""
        t0 = time.perf_counter()
        key = self.cache.function_key(a)
        hit = self.cache.get("plot", key)
        if hit is not None:
            a.plot_kind, a.plot = hit
            a.phases["plot"] = time.perf_counter() - t0
            return
        analysis.add_plot(a)
        a.phases["plot"] = time.perf_counter() - t0  # the key (f's trace, shared) included
        if not pane_cache.has_error(a.plot):
            self.cache.put("plot", key, (a.plot_kind, a.plot))

    def _vmap_data(self, a):
        """The vmap tab's values (its times fill in afterwards), reused like the plots'. A reused
        comparison keeps the times measured for it, or measures them if that was cut short."""
        if a.function is None or a.args_error is not None or not a.args:
            return
        t0 = time.perf_counter()
        in_axes = self._in_axes()
        manual = a.run.namespace.get(analysis.manual_versions(a.code).get(a.function.name, ""))
        key = pane_cache.vmap_key(self.cache.function_key(a), a, in_axes, manual if callable(manual) else None)
        hit = self.cache.get("vmap", key)
        if hit is not None:
            a.vmap = hit
            a.phases["vmap"] = time.perf_counter() - t0
            return
        analysis.add_vmap(a, in_axes)
        a.phases["vmap"] = time.perf_counter() - t0  # the keys included
        if not pane_cache.has_error(a.vmap):
            self.cache.put("vmap", key, a.vmap)  # the same dict: time_vmap fills its times in

    _TAB_DATA = {"plot": _plot_data, "vmap": _vmap_data}  # a tab in view: its data in the first run

    def _slow_steps(self, a, run_id: int, sync: bool):
        """(pane, step) in SLOW_PANES order; a step returns None or an awaitable (not `sync` only)."""
        def superseded() -> bool:  # newer code waits (or runs): these numbers are stale
            return run_id != self.run_id or self._edit_waiting

        def cpu_timing():
            if self._reuse_timing(a, run_id):
                return cpu_timed()
            if not sync:  # an edit typed while timing stops it between two samples
                return cpu_timing_yielding()
            with sandbox.captured():
                a.timing = analysis.timings(a.function.fn, a.args, scale=a.timing.get("scale", 1))
            self._keep_timing(a, run_id)
            cpu_timed()

        async def cpu_timing_yielding():
            try:
                with sandbox.quiet_task():  # held across awaits: not `captured` (see quiet_task)
                    a.timing = await analysis.timings_yielding(a.function.fn, a.args, superseded,
                                                               scale=a.timing.get("scale", 1))
            except analysis.Superseded:
                return  # the newer run owns the panes (and its timings start afresh)
            self._keep_timing(a, run_id)
            with batching.one_update():
                cpu_timed()

        def cpu_timed():
            per = a.timing.get("backends") or {}
            if any(r.get("pending") for r in per.values()):  # the browser's WebGPU: async readback
                self.pending.append("webgpu timing")
            self._render_timing()

        def vmap_times():
            with sandbox.captured():
                analysis.time_vmap(a.vmap)
            self._render_vmap()

        async def webgpu_timing():
            per = a.timing.get("backends") or {}
            for b in [b for b, r in per.items() if r.get("pending")]:
                per[b] = await analysis.timings_async(a.function.fn, a.args, b, scale=a.timing.get("scale", 1))
            self._keep_timing(a, run_id)
            self._render_timing()

        def plot():
            self._plot_data(a)
            self._data_ms("plot", a.phases.get("plot"))
            self._render_plot()

        def vmap():
            self._vmap_data(a)
            self._data_ms("vmap", a.phases.get("vmap"))
            if analysis.vmap_pending(a.vmap) and "vmap timings" not in self.pending:
                self.pending.append("vmap timings")
            self._render_vmap()

        def jaxpr():
            t0 = time.perf_counter()
            self._complete_jaxprs()
            self._data_ms("jaxpr", time.perf_counter() - t0)
            self._render_jaxpr()

        return {"jaxpr": jaxpr, "plot": plot, "vmap": vmap,  # LAZY_PANES: complete() traces
                "timing": cpu_timing, "vmap timings": vmap_times, "webgpu timing": webgpu_timing}

    def _fill_slow_panes(self, run_id: int):
        """Measure what the pending panes need, one pane at a time, newest run only. In the page
        this yields to the event loop between panes, so an edit or a click in between is handled
        at once (and makes these numbers stale: they are dropped). Without a running event loop
        (CPython tests) it finishes before returning."""
        if not self.pending:
            return
        loop = event_loop()
        if loop is None:
            for _ in self._slow_panes(run_id, sync=True):
                pass
            return
        async def fill():
            steps = self._slow_panes(run_id, sync=False)
            try:
                for awaitable in steps:
                    if awaitable is not None:
                        try:
                            await awaitable
                        except BaseException as e:  # noqa: BLE001 - Stop (KeyboardInterrupt) while measuring
                            self._notify(f"measuring stopped: {type(e).__name__}")
                    await asyncio.sleep(0)
            finally:
                steps.close()  # its run_state(False) runs whatever happened
        env.when_linked(lambda: loop.create_task(fill()))

    def _slow_panes(self, run_id: int, sync: bool):
        """Generator: one slow pane per step; yields an awaitable a step needs awaited (or None)."""
        steps = self._slow_steps(self.analysis, run_id, sync)
        done = set()
        while run_id == self.run_id and not self._edit_waiting:  # else newer code owns the panes now
            name = self._next_slow_pane(done)
            if name is None:
                return
            done.add(name)
            running = name not in BACKGROUND_PANES
            if running:
                env.run_state(True, measuring=True)
            step_started = time.perf_counter()
            try:
                with batching.one_update():
                    result = steps[name]()
                if inspect.isawaitable(result):
                    if sync:
                        result.close()
                    else:
                        yield result
                # where the time after the panes in view goes (awaited parts included): the bench
                # prints it per pane
                self.run_phases.setdefault("panes", {})[name] = round((time.perf_counter() - step_started) * 1e3, 1)
            except GeneratorExit:  # closed (fill() ends): only run_state(False) below
                raise
            except BaseException as e:  # noqa: BLE001 - a failed (or stopped) measurement must not
                # take the other panes down, nor leave load()/snapshot() waiting for it
                self._notify(f"measuring the {name} pane failed: {type(e).__name__}: {e}")
                if isinstance(e, Exception):  # its pane says so too (not "computing…" forever)
                    self._pane_failed(name, e)
            finally:
                if running:
                    env.run_state(False)
            if run_id != self.run_id or self._edit_waiting:
                return
            if name in self.pending:
                self.pending.remove(name)
            self._report()
            if not sync:
                yield None

    def _next_slow_pane(self, done) -> str | None:
        """The next pane to fill in: the tab in view if it waits (the learner switched to it),
        else the first in SLOW_PANES order."""
        waiting = [n for n in SLOW_PANES if n in self.pending and n not in done]
        active = self.active_pane()
        return active if active in waiting else (waiting[0] if waiting else None)

    def _timing_key(self, a):
        return pane_cache.timing_key(self.cache.function_key(a), a.timing.get("scale", 1), a.run.namespace)

    def _reuse_timing(self, a, run_id: int) -> bool:
        """An edit that left f, its input and the backend as they were (a print, a comment, code
        after f) gets the timings measured for them in an earlier run instead of measuring the
        same program again (~50 ms of the page's Python per edit); the pane says which run
        measured them, and Run measures afresh. A backend still measuring is measured now."""
        if self.remeasure_run == run_id:
            return False
        hit = self.cache.get("timing", self._timing_key(a))
        if hit is None:
            return False
        a.timing = {**hit, "backends": {b: dict(t) for b, t in hit["backends"].items()}}
        a.timing["reused_from"] = hit["measured_in"]
        return True

    def _keep_timing(self, a, run_id: int):
        """Keep `a.timing` (once measured: no backend failed) for `_reuse_timing`; a copy, as the
        pane shows it, WebGPU's numbers added when they arrive."""
        t = a.timing or {}
        if not t.get("backends") or pane_cache.has_error(t):
            return
        kept = {k: v for k, v in t.items() if k != "reused_from"}
        kept["measured_in"] = t.get("reused_from") or run_id
        kept["backends"] = {b: dict(r) for b, r in t["backends"].items()}
        self.cache.put("timing", self._timing_key(a), kept)

    def _retime(self):
        """The problem size changed: measure again (the other panes stay as they are)."""
        a = self.analysis
        if a is None or a.function is None or a.args_error is not None:
            return
        self.run_id += 1  # the measurements under way are for the old size
        a.timing = {"pending": True, "scale": self.size_select.value}
        self.pending = [n for n in self.pending if n not in ("timing", "webgpu timing")] + ["timing"]
        self._render_timing()
        self._report()
        self._fill_slow_panes(self.run_id)

    @pane_builder("timing")
    def _render_timing(self):
        a = self.analysis
        self._offer_measured_backends()
        measuring = bool(a.timing.get("pending")) and not a.timing.get("backends")
        self.timing_note.object = '<p class="gp-muted">measuring eager vs jit…</p>' if measuring else ""
        head = self.panes["timing"].objects[:2]
        if measuring and len(head) == 2 and head[0] is self.size_select and head[1] is self.timing_note:
            self.shown.hide(self.panes["timing"], keep=(self.size_select, self.timing_note))
            return
        self.shown.update(self.panes["timing"], ("timing", a.timing, pn.config.theme),
                          lambda: timing_pane.render(a, measuring_note_shown=True, kept=self.timing_kept),
                          head=[self.size_select, self.timing_note], reuse=True)

    def _offer_measured_backends(self):
        """A backend the timings ran on can be picked in Backend: in the page WebGPU's adapter is
        found asynchronously (by the first WebGPU timing), after the list was built with CPU only."""
        per = (self.analysis.timing or {}).get("backends") or {}
        found = [b for b, t in per.items() if "eager" in t and b not in self.backend_select.options]
        if found:
            self._set_quietly(self.backend_select, "options", list(self.backend_select.options) + found)

    def _on_function(self, event):
        self._user_args = None  # another function: its own default input (its call in the code, or a
        if self._busy or self.analysis is None:  # guess the panes say is one), not the last one's box
            return
        self.run(function=event.new or None)

    def _on_args(self, event):
        self._user_args = event.new
        self._rerun_panes()

    def _rerun_panes(self, function=None):
        """The function, its input or in_axes changed: recompute the panes for the same code."""
        if self._busy or self.analysis is None:
            return
        self.run(function=function or self.function_select.value or None, args=self.args_input.value)

    def _in_axes(self):
        text = self.in_axes_input.value.strip()
        if not text:
            return None
        try:
            value = eval(f"({text},)", {"__builtins__": {}}, {"None": None})
            return tuple(value)
        except Exception:  # noqa: BLE001 - a typo in the box: batch everything along 0
            return None

    def _select_backend(self):
        backend = self.backend_select.value
        sandbox.install_jax()
        import jax
        try:
            jax.config.update("jax_platforms", backend)
        except Exception:  # noqa: BLE001
            pass

    def _sync_inputs(self):
        a = self.analysis
        names = [f.name for f in a.functions]
        self._set_quietly(self.function_select, "options", names)
        self._set_quietly(self.function_select, "value", a.function.name if a.function else None)
        self._set_quietly(self.args_input, "value", a.args_source)
        label = INPUT_GUESSED_LABEL if a.function is not None and a.args_guessed else INPUT_LABEL
        if self.args_input.name != label:  # the box says when its value is the panes' guess
            self.args_input.name = label

    # ------------------------------------------------------------------ rendering
    def _render_panes(self):
        a = self.analysis
        err = a.run.error or a.args_error
        fn = f" · function <code>{a.function.name}({a.args_source})</code>" if a.function else " · no function found"
        if a.function and a.args_guessed:  # the panes' errors may be the guess's, not the code's
            fn += (f' <span class="gp-guess-note">· guessed input: your code never calls {a.function.name} '
                   f'itself; type its arguments under Input, or write a call {a.function.name}(…) in the code</span>')
        state = f'<span class="gp-err">{err.type}</span>' if err else "✓ ran"
        # both states in the line: the page shows the second while a run is in flight (it marks the
        # line "gp-running" at run-start, static/loader.js), with no patch of its own from here
        self.status.object = (f'<span class="gp-ran">{state} in {a.run.took()}{fn}</span>'
                              f'{RUNNING_NOTE}')
        self.editor.annotations = error_annotations(a.run.error)
        renders = {"jaxpr": self._render_jaxpr, "plot": self._render_plot, "vmap": self._render_vmap}
        for name in LAZY_PANES:
            if name in self.pending:
                self._show_pending(name)
            else:
                renders[name]()
        self._render_timing()
        self._render_console()
        if err is not None and "console" in self.embed.panes and a.function is None:
            self.tabs.active = list(self.embed.panes).index("console")

    @pane_builder("console")
    def _render_console(self):
        a = self.analysis
        run = (a.run.stdout, a.run.stderr, a.run.warnings, a.run.error, a.run.result, a.run.seconds, a.input_error)
        link = lambda n: f"#example={n}"  # noqa: E731
        self.shown.update(self.panes["console"], ("console", run, a.code),
                          lambda: console_pane.render(a, example_link=link), reuse=True)
        self.shown.update(self.console_strip, ("strip", run), lambda: console_pane.render(a, example_link=link,
                                                                                           compact=True), reuse=True)

    KEPT = {"jaxpr": ("jaxpr_kept", jaxpr_pane.Kept), "plot": ("plots_kept", plots_pane.Kept),
            "vmap": ("vmap_kept", vmap_pane.Kept), "timing": ("timing_kept", timing_pane.Kept)}
    # a slow step (SLOW_PANES) -> the pane it fills
    STEP_PANE = {"vmap timings": "vmap", "webgpu timing": "timing"}

    def _pane_failed(self, name: str, error: BaseException):
        """Pane `name` could not be built (see pane_builder): it shows the error, and the parts it
        keeps between runs start afresh (a half-updated figure or card is not reused)."""
        name = self.STEP_PANE.get(name, name)
        if name in self.KEPT:
            attr, kind = self.KEPT[name]
            setattr(self, attr, kind())
        if name == "timing":
            self.timing_note.object = ""
            head = [self.size_select, self.timing_note]
        elif name in LAZY_PANES:
            self.pane_notes[name].object = ""
            head = self._pane_head(name)
        else:
            head = []
        if name == "console":
            self.shown.fail(self.console_strip, error)
        if name in self.panes:
            self.shown.fail(self.panes[name], error, head)

    def _pane_head(self, name: str) -> list:
        """The widgets and note on top of a pane, kept when its content is rebuilt or hidden."""
        widgets = {"jaxpr": [self.view_select], "vmap": [self.in_axes_input]}.get(name, [])
        return [*widgets, self.pane_notes[name]]

    def _show_pending(self, name: str):
        """A hidden tab's pane waits for its turn: it says so, and its old content (another
        code's) is hidden until the new one replaces it."""
        self.pane_notes[name].object = PENDING_NOTE
        self.shown.hide(self.panes[name], keep=self._pane_head(name))

    def _complete_jaxprs(self):
        """The jaxpr views the Jaxpr pane shows (this view, f and grad: its diff card), and the stages."""
        view = self.view_select.value
        analysis.complete(self.analysis, views=tuple(dict.fromkeys(("f", "grad", view))),
                          with_stages=view in jaxpr_pane.STAGE_VIEWS)

    def _data_ms(self, pane: str, seconds) -> None:
        """A slow pane's data time (tracing, sampling), apart from its models: the bench prints both."""
        if seconds is not None:
            self.run_phases.setdefault("pane_data", {})[pane] = round(seconds * 1e3, 1)

    @pane_builder("jaxpr")
    def _render_jaxpr(self):
        if self.analysis is None:
            return
        a, view = self.analysis, self.view_select.value
        self._complete_jaxprs()
        self.shown.update(self.panes["jaxpr"], ("jaxpr", view, a.jaxprs, a.args_source,
                                                    a.stages if view in jaxpr_pane.STAGE_VIEWS else None, pn.config.theme),
                          lambda: jaxpr_pane.render(a, view, editor=not self.embed.readonly or not self.embed.embed,
                                                    kept=self.jaxpr_kept),
                          head=self._pane_head("jaxpr"), reuse=True)
        if self.jaxpr_kept.views_diff is not None:  # its diff follows every run, even one whose jaxprs are unchanged
            self.jaxpr_kept.views_diff.show(a, self.previous_analysis)
        self.pane_notes["jaxpr"].object = ""

    @pane_builder("plot")
    def _render_plot(self):
        a = self.analysis
        fn = (a.function.name, a.function.params) if a.function else None
        self.shown.update(self.panes["plot"], ("plot", fn, a.plot_kind, a.plot, a.args_source, pn.config.theme),
                          lambda: plots_pane.render(a, kept=self.plots_kept), head=self._pane_head("plot"), reuse=True)
        self.pane_notes["plot"].object = ""

    @pane_builder("vmap")
    def _render_vmap(self):
        """The outputs and methods only when they changed; the times table in place."""
        a = self.analysis
        self.vmap_times.object = vmap_pane.times_html(a.vmap) if a.vmap else ""
        fn = (a.function.name, a.function.params) if a.function else None  # its messages name f
        self.shown.update(self.panes["vmap"], ("vmap", fn, vmap_pane.values_key(a.vmap), pn.config.theme),
                          lambda: vmap_pane.render(a, times=self.vmap_times, kept=self.vmap_kept), head=self._pane_head("vmap"),
                          reuse=True)
        self.pane_notes["vmap"].object = ""

    # ------------------------------------------------------------------ editing, examples, sharing
    def _publish_hash(self, new_entry: bool = False):
        """The address bar holds the newest state (so a reload never brings back older code);
        `new_entry`: as a new browser history entry (see apply_state)."""
        if env.IN_BROWSER and not self.embed.embed:
            env.set_hash(share.state_hash(self.current_state()), new_entry=new_entry)

    def _on_edit(self, event):
        self._edit_seen = time.time() * 1e3
        self._own_code = True  # edited: from now on the visitor's (the page keeps their typed text)
        if self.autosave:
            env.storage_set(env.AUTOSAVE_KEY, event.new)
        if event.new != self.loaded_code:  # no longer the example: the dropdown says so
            self._set_quietly(self.example_select, "value", "")
        self._publish_hash()  # at once, not after the autorun: a reload within the pause keeps the edit
        self._autorun_generation += 1
        generation = self._autorun_generation

        def fire():
            if generation == self._autorun_generation:  # else a newer edit (or a run) took over
                self.run(function=self.function_select.value or None)
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:  # no event loop (plain CPython tests): run on explicit request only
            return
        pause = autorun_pause(event.new)
        if pause:
            loop.call_later(pause, fire)
            return
        # at once, but as a task of its own: the edits already queued behind this one (typed
        # while a run was in flight) are applied first, and only the newest one's fire runs
        self._edit_waiting = True
        loop.call_soon(fire)

    def _on_example(self, event):
        if not event.new:
            return
        self._stash_unsaved()
        self.apply_state(share.ShareState(example=event.new), run=True, new_entry=True)

    def _stash_unsaved(self):
        """Loading an example never silently discards edits: keep them one click away."""
        if self.editor.value.strip() and self.editor.value != self.loaded_code:
            env.storage_set(env.PREVIOUS_KEY, self.editor.value)
            self._restore_key = env.PREVIOUS_KEY
            self.restore_button.visible = True
            self._notify("Your edited code was kept: “Back to my code” brings it back.")

    def _restore_previous(self):
        previous = env.storage_get(self._restore_key)
        if previous:
            self.apply_state(share.ShareState(code=previous), run=True, new_entry=True)
            self._own_code = True
        self.restore_button.visible = False
        self.notice.visible = False

    def _notify(self, text: str, escape: bool = True):
        from app.panes.common import esc
        self.notice.object = f'<div class="gp-hint">{esc(text) if escape else text}</div>'
        self.notice.visible = True

    def _show_share(self):
        self.share_link.value = self.share_url()

    def _show_embed(self):
        self.embed_snippet.value = share.iframe_snippet(env.page_base(), self.current_state())
        self.embed_snippet.visible = True

    def _export_py(self):
        import io
        return io.StringIO(export.to_py(self.editor.value))

    def _export_ipynb(self):
        import io
        return io.StringIO(export.to_ipynb(self.editor.value, title=self.example_name or "gradpad"))

    def _set_quietly(self, widget, name, value):
        """Set a widget value without our own watchers rerunning the code."""
        self._quiet += 1
        try:
            setattr(widget, name, value)
        finally:
            self._quiet -= 1

    # ------------------------------------------------------------------ layout
    def view(self):
        if self.embed.embed:
            return self._embed_view()
        toolbar = pn.Row(self.example_select, self.backend_select, self.run_button, sizing_mode="stretch_width",
                         align="end", stylesheets=[WRAP_CSS])
        inputs = pn.Row(self.function_select, self.args_input, sizing_mode="stretch_width", stylesheets=[WRAP_CSS])
        sharing = pn.Row(self.share_button, self.embed_button, self.download_py, self.download_nb,
                         sizing_mode="stretch_width", stylesheets=[WRAP_CSS])
        lessons = pn.Row(self.prev_button, self.next_button, self.lesson_note, sizing_mode="stretch_width",
                         stylesheets=[WRAP_CSS])
        left = pn.Column(toolbar, self.search_input, lessons,
                         pn.Row(self.notice, self.restore_button, self.held_run, sizing_mode="stretch_width",
                                stylesheets=[WRAP_CSS]),  # on a phone the buttons go under the note
                         self.editor, self.console_strip, inputs, sharing, self.share_link, self.embed_snippet,
                         self.keys, sizing_mode="stretch_width", css_classes=["gp-left", LAYOUT_BOX], stylesheets=[LEFT_CSS])
        right = pn.Column(self.status, self.tabs, sizing_mode="stretch_width", css_classes=["gp-right", LAYOUT_BOX],
                          stylesheets=[RIGHT_CSS])
        return pn.Row(left, right, sizing_mode="stretch_width", css_classes=["gp-app"], stylesheets=[ROW_CSS])

    def _embed_view(self):
        open_link = TextHTML(
            f'<a href="{env.page_base()}{share.state_hash(self.current_state())}" target="_blank" '
            'rel="noopener">open in gradpad ↗</a>', stylesheets=[CSS], align="end")
        top = pn.Row(self.status, open_link, sizing_mode="stretch_width")
        # the notice only while the code is held (hold): an embed has no room for the others
        self._held_row = pn.Row(self.notice, self.held_run, sizing_mode="stretch_width", visible=False,
                                stylesheets=[WRAP_CSS])  # in a narrow frame ▶ Run it goes under the note
        parts = [top, self._held_row]
        if not self.embed.readonly:
            self.editor.height = EMBED_EDITOR_PX
            parts.append(self.editor)
        parts.append(self.tabs)
        return pn.Column(*parts, self.keys, sizing_mode="stretch_width", css_classes=["gp-embed"])


def autorun_pause(code: str) -> float:
    """Seconds to wait after an edit before running it (see AUTORUN_PAUSE_S)."""
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):  # ValueError: a NUL byte in the code
        return AUTORUN_PAUSE_S
    return AUTORUN_QUICK_PAUSE_S


def event_loop():
    """The loop that runs the slow panes after the others: the running one (`panel serve`), or
    in the page Pyodide's WebLoop (its callbacks run without it counting as running); None in
    plain CPython (tests), where they are measured at once."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if env.IN_BROWSER:
        try:
            return asyncio.get_event_loop()
        except RuntimeError:
            return None
    return None


def system_prefers_dark() -> bool:
    """The visitor's system theme (CSS prefers-color-scheme), read once when the app is built;
    the page's own CSS follows the same media query."""
    if not env.IN_BROWSER:
        return False
    if env.theme() is not None:  # the page says (the worker sees no media queries)
        return env.theme() == "dark"
    try:
        import js
        return bool(js.window.matchMedia("(prefers-color-scheme: dark)").matches)
    except Exception:  # noqa: BLE001 - no window (a Web Worker): the light theme
        return False


def error_annotations(err) -> list:
    """The editor's gutter mark (an ace annotation) at the line an error points to, if any."""
    if err is None or not err.line:
        return []
    return [{"row": err.line - 1, "column": 0, "type": "error", "text": readable(err.headline())}]


def unknown_example_html(name: str) -> str:
    """The message for a link to an example that does not exist, with the gallery to pick from."""
    from app.panes.common import esc
    links = " · ".join(f'<a href="#example={n}">{esc(examples.load(n).title)}</a>' for n in examples.names())
    return f"There is no example named “{esc(name)}”. The gallery: {links}"


def source_map_summary(jv) -> dict:
    """line of code -> how many equations of the shown jaxpr it produced (JSON keys: strings)."""
    from app import sourcemap
    if jv is None or jv.error is not None or jv.closed is None:
        return {}
    return {str(k): n for k, n in sourcemap.equations_per_line(sourcemap.mapped_lines(jv.closed.jaxpr)).items()}


def vmap_summary(result: dict) -> dict:
    """What the vmap pane's table shows: method -> {ms, matches_vmap} or {error}, and the note
    that replaces the manual row when batching by hand is not right for this f."""
    rows = {}
    for method in vmap_pane.METHODS:
        e = (result or {}).get(method)
        if not e or (method == "manual" and not e.get("shown")):
            continue
        t = e.get("time")
        rows[method] = {"error": e["error"].headline()} if e.get("error") is not None else \
            {"ms": t["median"] * 1e3 if t else None, "matches_vmap": e.get("matches_vmap")}
    manual = (result or {}).get("manual") or {}
    return {"rows": rows, "manual_note": "" if manual.get("shown", True) else manual["why"],
            "skipped": (result or {}).get("skipped", ""), "bounded": (result or {}).get("bounded", "")}


def timing_summary(timing: dict) -> dict:
    """backend -> {eager_ms, jit_first_ms, jit_steady_ms, speedup, calls, scale, reused_from} for each
    measured backend (a backend still measuring or failed is left out); reused_from: the run that
    measured these numbers for the same f and input, None when this run did."""
    per = (timing or {}).get("backends") or {}
    return {b: {"scale": timing.get("scale", 1), "reused_from": timing.get("reused_from"),
                "eager_ms": r["eager"]["median"] * 1e3, "jit_first_ms": r["jit_first"]["total"] * 1e3,
                "jit_steady_ms": r["jit_steady"]["median"] * 1e3, "speedup": timing_pane.speedup(r),
                "calls": {"eager": r["eager"].get("calls", 1), "jit": r["jit_steady"].get("calls", 1)}}
            for b, r in per.items() if "eager" in r}


def available_backends() -> list[str]:
    sandbox.install_jax()
    import jax
    found = ["cpu"]
    for name in ("webgpu",):
        try:
            if jax.devices(name):
                found.append(name)
        except Exception:  # noqa: BLE001 - backend not built or no adapter
            pass
    return found


def load_panel_extension() -> None:
    """Panel's extension for the app (its code editor). Panel sets its classes' signatures (for
    help()) at every call, up to a second of a build on a loaded machine: once per interpreter is
    enough. The post-import snapshot's maker calls this (static/worker.js), so a Python restored
    from the snapshot (a warm visit, a standby, a restart) builds its app without it."""
    pn.extension("codeeditor", notifications=False, apply_signatures=not pn.extension._loaded)


def create_app(code: str | None = None, example: str | None = None, autorun: bool = True):
    """The Panel object the page writes into <div id="app"> (and `panel serve` serves).
    `autorun` False: the opening code is shown, not run (a standby worker, app.bootstrap.prebuild)."""
    load_panel_extension()
    pn.config.theme = "dark" if system_prefers_dark() else "default"
    from app import lesson
    where = lesson.requested(env.location_search())
    if where is not None:  # a lesson page: the teacher's cells on this one Python (app.lesson)
        return lesson.create_app(where, code)
    opts = share.parse_query(env.location_search())
    playground = Playground(code=code, example=example, embed=opts, autorun=autorun)
    if env.IN_BROWSER:
        from app import page_api
        page_api.install(playground)
    root = playground.view()
    root.playground = playground  # reachable for tests and the page API
    return root


if __name__.startswith("bokeh_app"):  # `panel serve app/main.py`
    create_app().servable(title="gradpad")
