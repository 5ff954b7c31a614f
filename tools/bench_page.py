"""What a user of the built page waits for, in headless Debian chromium.

    python build.py bench page [--edits N] [--only NAME] [--no-core] [--compare DIST] [--json PATH]

1. Latency. Each gallery example is loaded (`gradpad.load`, not timed), then its code is edited
   through the page's normal path: text changed in the editor (ace), which sends the change to
   the Python worker exactly as typing does. Two kinds of edit, each timed and printed apart:
   `print` appends a print line (f, the analysed function, stays the same: the hidden tabs'
   data can be reused), `f` changes f itself (a numeric literal in it nudged, 2.0 -> 1.998 or
   2 -> 3, checked in this CPython to leave the code running; without one a line `_edit = k`
   put first in its body): everything about f is computed again. Timed from the edit to the first frame painted
   after the panes in view show this code's results (`gradpad.panes`: the worker reports each
   run and the panes still to fill in), and to the frame after every pane did (hidden tabs and
   the slow timings too). Printed per example and as the median over the gallery, with where
   the time went (the worker's phases, the page's patch handling and paint).
2. Browser factor. The workloads of `python build.py bench core` (tests/bench_core.py, its
   STEADY and ONCE lists) run inside the page's Pyodide worker through `gradpad.runPython`,
   beside the same workloads timed the same way in this CPython (no JAX column here: see
   `bench core` for that).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402
from tools import serve, site  # noqa: E402
from app.main import BACKGROUND_PANES, SLOW_PANES, TIMING_PANES  # noqa: E402

GOAL_MS = 200

# The ace editor lives in a shadow root (Panel renders every widget in one).
FIND_EDITOR = """() => {
  const walk = (root) => { for (const el of root.querySelectorAll('*')) {
      if (el.classList && el.classList.contains('ace_editor') && el.env) return el.env.editor;
      if (el.shadowRoot) { const hit = walk(el.shadowRoot); if (hit) return hit; } } return null; };
  return walk(document);
}"""

# One edit, timed in the page: append `print("edit", k)` to the code (the code runs again and
# every pane is recomputed; the console shows a new line), or with `change` replace a range of
# the code (`f_edit`), then wait for the worker's report that the panes show it (falling back
# to the end of the app's run, on builds without `gradpad.panes`).
EDIT = """async ({k, findEditor, timings = [], later = [], change = null}) => {
  const editor = (new Function('return (' + findEditor + ')()'))();
  if (!editor) return {error: 'no editor on the page'};
  const gp = window.gradpad;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const tick = () => new Promise((r) => setTimeout(r, 1));
  const signal = gp.panes !== undefined;
  const before = signal ? (gp.panes ? gp.panes.run : 0) : null;
  const patches0 = gp.patches ? {...gp.patches} : null;
  let longtasks = 0;  // the page's main thread busy (tasks over 50 ms) between the edit and the panes
  let longest = 0;  // the longest of them: how long the page stayed frozen in one piece
  let observer = null;
  try {
    observer = new PerformanceObserver((l) => l.getEntries().forEach((e) => {
      longtasks += e.duration; longest = Math.max(longest, e.duration); }));
    observer.observe({type: 'longtask'});
  } catch (e) { observer = null; }
  const t0 = performance.now();
  if (change) editor.session.replace({start: {row: change.row, column: change.column},
                                      end: {row: change.end_row, column: change.end_column}}, change.text);
  else editor.session.insert({row: editor.session.getLength(), column: 0}, '\\nprint("edit", ' + k + ')');
  const deadline = t0 + 60000;
  let shown = null, all = null, pending = [], python = null, message = null, visible = null, first = null;
  let untimed = null, last = null;  // untimed: every pane but the timing measurements (`timings`)
  let nearly = null;  // every pane but those allowed to fill in later (`later`: WebGPU's timing)
  if (signal) {
    while (performance.now() < deadline) {
      const p = gp.panes;
      if (p && p.run > before) {
        if (first === null) { first = p; message = p.t; shown = await frame(); pending = p.pending.slice(); python = p.python_ms; }
        // the panes the learner sees: the status line, the console beside the code, the active tab
        if (visible === null && !(p.pending || []).includes(p.phases && p.phases.active)) visible = await frame();
        if (untimed === null && !p.pending.some((n) => !timings.includes(n))) untimed = await frame();
        if (nearly === null && !p.pending.some((n) => !later.includes(n))) nearly = await frame();
        last = p;
        if (!p.pending.length) { all = await frame(); break; }
      }
      await tick();
    }
  } else {
    while (!gp.running && performance.now() < deadline) await tick();
    while (gp.running && performance.now() < deadline) await tick();
    shown = all = visible = untimed = nearly = await frame();
  }
  if (observer) { await tick(); observer.disconnect(); }
  if (all === null) return {error: 'no result within 60 s', shown_ms: shown && shown - t0};
  const ph = (first && first.phases) || {};
  const page = (epoch) => (epoch ? epoch - performance.timeOrigin - t0 : null);  // worker epoch ms -> ms after the edit
  const breakdown = {
    to_worker: page(ph.edit_seen),                                   // the edit's patch reaches the app
    pause: ph.started && ph.edit_seen ? ph.started - ph.edit_seen : null,  // the autorun's pause for typing
    exec: ph.exec, jaxprs: ph.jaxprs, plot: ph.plot, vmap: ph.vmap,  // Python: the code, the panes' data
    render: ph.render, send: ph.send,                                // Panel/Bokeh models; patches out
    other: python === null ? null : python - ['exec', 'jaxprs', 'plot', 'vmap', 'render', 'send'].reduce((s, k) => s + (ph[k] || 0), 0),
    report: message !== null && ph.started ? message - page(ph.started) - t0 - python : null,  // to the page
    patch_apply: patches0 ? gp.patches.ms - patches0.ms : null,     // BokehJS applying them (main thread)
    paint: shown - message,
  };
  return {shown_ms: (visible === null ? shown : visible) - t0, first_ms: shown - t0, all_ms: all - t0, pending,
          untimed_ms: (untimed === null ? all : untimed) - t0, nearly_ms: (nearly === null ? all : nearly) - t0, panes: (last && last.phases && last.phases.panes) || {},
          pane_data: (last && last.phases && last.phases.pane_data) || {},
          signal, python_ms: python, message_ms: message && message - t0, breakdown, longtask_ms: longtasks, longest_ms: longest,
          active: ph.active || null};
}"""

CODE = "findEditor => (new Function('return (' + findEditor + ')()'))().getValue()"


def _body(tree, function: str):
    """The statements of `function` (a def, or a name bound to a lambda: its expression)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            return node.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) and any(
                isinstance(t, ast.Name) and t.id == function for t in node.targets):
            return [node.value.body]
    return None


def _column(line: str, byte_offset: int) -> int:
    """ast's column (UTF-8 bytes) as the editor's (characters)."""
    return len(line.encode()[:byte_offset].decode(errors="ignore"))


def _literal_edits(body, lines, k: int):
    """Nudged numeric literals of f, in the order tried: floats (1.0 -> 0.999, by k+1
    thousandths; 0.0 -> 0.001), then ints that are an operand of arithmetic (2 -> 3; never a
    subscript, a shape or an axis)."""
    def ranges(node):
        row, end_row = node.lineno - 1, node.end_lineno - 1
        return {"row": row, "column": _column(lines[row], node.col_offset), "end_row": end_row,
                "end_column": _column(lines[end_row], node.end_col_offset)}
    nodes = [n for stmt in body for n in ast.walk(stmt)]
    order = lambda n: (n.lineno, n.col_offset)  # noqa: E731
    floats = sorted((n for n in nodes if isinstance(n, ast.Constant) and type(n.value) is float), key=order)
    for n in floats:
        value = n.value * (1 - 1e-3 * (k + 1)) if n.value else 1e-3 * (k + 1)
        yield {**ranges(n), "text": repr(value), "how": "literal"}
    in_subscripts = {id(m) for n in nodes if isinstance(n, ast.Subscript) for m in ast.walk(n.slice)}
    operands = sorted((side for n in nodes if isinstance(n, ast.BinOp) for side in (n.left, n.right)
                       if isinstance(side, ast.Constant) and type(side.value) is int and id(side) not in in_subscripts),
                      key=order)
    for n in operands:
        yield {**ranges(n), "text": repr(n.value + 1), "how": "int literal"}


def _line_edit(body, lines, k: int):
    """A line `_edit = k` before f's first statement (f's bytecode changes, its jaxpr does not)."""
    first = body[0]
    if isinstance(first, ast.expr):  # a lambda's expression: no room for a statement
        return
    row = first.lineno - 1
    column = _column(lines[row], first.col_offset)
    if lines[row][:column].strip():  # `def f(x): return x` on one line
        return
    yield {"row": row, "column": column, "end_row": row, "end_column": column,
           "text": f"_edit = {k}\n" + lines[row][:column], "how": "line"}


def apply_change(code: str, change: dict) -> str:
    """`code` with `change` made (what the editor's replace does)."""
    lines = code.split("\n")
    head = "\n".join(lines[:change["row"]] + [lines[change["row"]][:change["column"]]])
    tail = "\n".join([lines[change["end_row"]][change["end_column"]:]] + lines[change["end_row"] + 1:])
    return head + change["text"] + tail


def f_edit(code: str, function: str | None, k: int, runs=lambda code: True) -> dict | None:
    """An edit to the analysed function itself, as a learner makes one, after which `runs(code)`
    (the code still runs, f still traces; unless it did not before): a numeric literal in f
    nudged (`_literal_edits`), else a line put first in its body. None: no such edit (f not found, a lambda without literals).
    {row, column, end_row, end_column, text, how}, rows and columns as the editor counts them."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    body = _body(tree, function) if function else None
    if not body:
        return None
    lines = code.split("\n")
    if not runs(code):  # not here either (a package only the page has): the first edit is taken
        runs = lambda code: True  # noqa: E731
    for change in (*_literal_edits(body, lines, k), *_line_edit(body, lines, k)):
        if runs(apply_change(code, change)):
            return change
    return None


def still_runs(function: str):
    """`runs` for f_edit, in this CPython (the same engine): the code runs without an error and
    `function`, found again, traces at its default input."""
    from app import analysis

    def runs(code: str) -> bool:
        a = analysis.analyse(code, function=function, views=("f",), with_vmap=False, with_timing=False,
                             with_stages=False, with_plot=False)
        view = a.jaxprs.get("f")
        return (a.run.error is None and a.function is not None and a.function.name == function
                and a.args_error is None and view is not None and view.error is None)
    return runs


QUIET = """async () => {  // the previous load's slow panes finish before an edit is timed
  const gp = window.gradpad;
  for (let i = 0; i < 600 && (gp.running || (gp.panes && gp.panes.pending.length)); i++)
    await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
}"""

# ---------------------------------------------------------------- section 2: bench core's workloads
CORE_DRIVER = r'''
import json, statistics, sys, time, types
def _gp_core_bench(source, quick=True):
    mod = types.ModuleType("gp_bench_core")
    mod.__file__ = "<bench_core>"
    exec(compile(source, "tests/bench_core.py", "exec"), mod.__dict__)
    import core
    ours = mod.Engine("gradpad", core)
    rounds = 5 if quick else 15
    out = {}
    for row, build, _tol in mod.STEADY:
        try:
            f = build(ours)
            out[row] = mod.paired(lambda f=f: ours.block(f()), None, rounds)[0]
        except Exception as e:  # noqa: BLE001 - reported in the table, the other rows still run
            out[row] = f"{type(e).__name__}: {e}"[:80]
    for row, call, reps, slow in mod.ONCE:
        if quick and slow:
            continue
        try:
            out[row] = mod.paired_once(call, ours, None, reps)[0]
        except Exception as e:  # noqa: BLE001
            out[row] = f"{type(e).__name__}: {e}"[:80]
    return json.dumps(out)
'''


def core_in_cpython(quick: bool) -> dict:
    """The same driver in a fresh CPython (one BLAS thread, as `bench core` pins it)."""
    code = CORE_DRIVER + "\nimport pathlib\nprint(_gp_core_bench(pathlib.Path('tests/bench_core.py').read_text(), %r))" % quick
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the CPython side of the core workloads failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def core_in_page(page, quick: bool) -> dict:
    source = (ROOT / "tests" / "bench_core.py").read_text()
    page.set_default_timeout(600_000)
    r = page.evaluate("code => window.gradpad.runPython(code)",
                      CORE_DRIVER + f"\n_gp_core_bench({source!r}, {quick!r})")
    if r.get("error"):
        raise SystemExit(f"the core workloads failed in the page: {r['error']}")
    return json.loads(eval(r["result"]))  # the repr of the JSON string


def fmt(t) -> str:
    if isinstance(t, str):
        return t
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.1f} us"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


# ---------------------------------------------------------------- the page
def open_page(ctx, url: str):
    """The site's page, reloaded once its service worker controls it (cross-origin isolated:
    fine timers and no run time budget, as every visit after the first)."""
    page = ctx.new_page()
    page.set_default_timeout(600_000)
    page.goto(url, wait_until="domcontentloaded")
    page.evaluate("() => window.gradpad.ready")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.reload(wait_until="domcontentloaded")
    page.evaluate("() => window.gradpad.ready")
    ui = page.evaluate("() => window.gradpad.uiReady.then(g => g.ui, e => 'error: ' + e)")
    if ui != "app":
        raise SystemExit(f"the page's UI did not load: {ui}")
    page.set_viewport_size({"width": 1400, "height": 900})
    return page


PHASES = ("to_worker", "pause", "exec", "jaxprs", "plot", "vmap", "render", "send", "other", "report", "patch_apply",
          "paint")
PHASE_NOTES = """  to_worker: the edit's patch reaches the app in the worker; pause: the autorun's wait for typing
  to stop; exec: the learner's code runs; jaxprs/plot/vmap: the panes' data (tracing, sampling);
  render: Panel/Bokeh models built or updated; send: the held patches serialised and posted; other:
  the rest of the run's Python (finding f and its input, the share link, the address bar);
  report: from the end of Python to the page reading the worker's report (the page's main thread
  applying the patches before it); patch_apply: of that, BokehJS applying them; paint: to the next frame;
  longtasks: the page's main thread busy in tasks over 50 ms, edit to all panes; longest: the longest one."""


def _median(values):
    values = [v for v in values if isinstance(v, (int, float))]
    return statistics.median(values) if values else None


EDIT_KINDS = ("print", "f")  # see the module's docstring


def _summary(t: list, load_ms: float) -> dict:
    """One example's edits of one kind: medians (ms), and the edits themselves."""
    return {"shown_ms": statistics.median(x["shown_ms"] for x in t),
            "all_ms": statistics.median(x["all_ms"] for x in t),
            "untimed_ms": statistics.median(x["untimed_ms"] for x in t),
            "timings_ms": statistics.median(x["all_ms"] - x["untimed_ms"] for x in t),
            "nearly_ms": statistics.median(x.get("nearly_ms", x["all_ms"]) for x in t),
            "panes": {pane: _median(x["panes"].get(pane) for x in t) for pane in SLOW_PANES},
            "pane_data": {pane: _median((x.get("pane_data") or {}).get(pane) for x in t) for pane in SLOW_PANES},
            "pending": t[-1]["pending"], "signal": t[-1]["signal"], "edits": t,
            "load_ms": load_ms, "active": t[-1].get("active"), "how": t[-1].get("how"),
            "python_ms": _median(x.get("python_ms") for x in t),
            "longtask_ms": _median(x.get("longtask_ms") for x in t),
            "longest_ms": _median(x.get("longest_ms") for x in t),
            "breakdown": {ph: _median((x.get("breakdown") or {}).get(ph) for x in t) for ph in PHASES}}


def _cells(r: dict | None) -> str:
    if r is None:  # no edit of this kind for this example (see f_edit)
        return f" {'-':>10} {'-':>10} {'-':>8} {'-':>9} {'-':>12} {'-':>11}"
    return (f" {r['shown_ms']:10.0f} {r['untimed_ms']:10.0f} {r['timings_ms']:8.0f} {r['nearly_ms']:9.0f} {r['all_ms']:12.0f}"
            f" {r['load_ms']:11.0f}")


def _edit_once(page, kind: str, k: int, function) -> dict | None:
    change = None
    if kind == "f":
        change = f_edit(page.evaluate(CODE, FIND_EDITOR), function, k, still_runs(function))
        if change is None:
            return None
    page.evaluate(QUIET)
    r = page.evaluate(EDIT, {"k": k, "findEditor": FIND_EDITOR, "timings": list(TIMING_PANES),
                             "later": sorted(BACKGROUND_PANES), "change": change})
    r["how"] = change["how"] if change else "print"
    return r


def latency(pages: dict, names, edits: int) -> dict:
    """label -> example -> edit kind -> times; with several pages (--compare) their edits
    alternate, so load from other processes hits both alike."""
    out: dict = {label: {} for label in pages}
    head = f"  {'example':32} {'edit':5}" + "".join(f" {'->visible':>10} {'->untimed':>10} {'timings':>8} {'->!webgpu':>9} {'->all panes':>12}"
                                                  f" {'load (new)':>11}" for _ in pages)
    if len(pages) > 1:
        print(f"  {'':38}" + "".join(f" {label:>65}" for label in pages))
    print(head, flush=True)
    for name in names:
        times: dict = {label: {kind: [] for kind in EDIT_KINDS} for label in pages}
        load_ms, function = {}, {}
        for label, page in pages.items():
            page.bring_to_front()
            t0 = time.perf_counter()
            snap = page.evaluate("opts => window.gradpad.load(opts)", {"example": name})
            load_ms[label] = (time.perf_counter() - t0) * 1e3  # every pane new (timings included)
            function[label] = snap.get("function")
        for kind in EDIT_KINDS:
            for k in range(edits):
                for label, page in pages.items():
                    page.bring_to_front()  # a background tab's timers and frames are throttled
                    r = _edit_once(page, kind, k, function[label])
                    if r is not None and r.get("error"):
                        raise SystemExit(f"{label} {name} ({kind} edit): {r['error']}")
                    if r is not None:
                        times[label][kind].append(r)
        for kind in EDIT_KINDS:
            row = f"  {name:32} {kind:5}"
            for label, page in pages.items():
                t = times[label][kind]
                r = out[label].setdefault(name, {})[kind] = _summary(t, load_ms[label]) if t else None
                row += _cells(r)
            if len(pages) == 1 and r is not None:
                row += f"   (tab {r['active'] or '?'}, Python {r['python_ms'] or 0:.0f}, {r['how']})"
            print(row, flush=True)
        for page in pages.values():
            page.evaluate(QUIET)
    return out


def medians(lat: dict, kind: str) -> dict:
    """The medians over the examples of one edit kind (those that had such an edit)."""
    rows = [r[kind] for r in lat.values() if r.get(kind)]
    return {key: statistics.median(r[key] for r in rows)
            for key in ("shown_ms", "untimed_ms", "timings_ms", "nearly_ms", "all_ms", "load_ms")} | {"examples": len(rows)}


def _rows(lat: dict, kind: str) -> dict:
    return {name: r[kind] for name, r in lat.items() if r.get(kind)}


def print_breakdown(lat: dict, kind: str) -> None:
    """Where an edit's time went (ms, medians of the edits): the next place to look."""
    rows = _rows(lat, kind)
    print(f"\n  where the time to the first report went ({kind} edits; ms)\n  {'example':32}"
          + "".join(f" {ph[:9]:>9}" for ph in PHASES) + f" {'longtasks':>9} {'longest':>9}")
    def cells(values):
        return "".join(f" {v:9.0f}" if isinstance(v, (int, float)) else f" {'-':>9}" for v in values)
    for name, r in rows.items():
        print(f"  {name:32}" + cells([r["breakdown"].get(ph) for ph in PHASES]) + cells([r.get("longtask_ms"), r.get("longest_ms")]))
    print(f"  {'median':32}" + cells([_median(r["breakdown"].get(ph) for r in rows.values()) for ph in PHASES])
          + cells([_median(r.get("longtask_ms") for r in rows.values()),
                   _median(r.get("longest_ms") for r in rows.values())]))


def print_panes(lat: dict, kind: str) -> None:
    """After the panes in view: the worker's Python time per pane filled in later (ms, medians)."""
    rows = _rows(lat, kind)
    print(f"\n  after the first report ({kind} edits): Python time per pane filled in afterwards (ms; - = not"
          f" recomputed)\n  {'example':32}" + "".join(f" {pane[:13]:>13}" for pane in SLOW_PANES))
    def cell(total, data) -> str:
        if not isinstance(total, (int, float)):
            return f" {'-':>13}"
        return f" {f'{total:.0f}/{data:.0f}' if isinstance(data, (int, float)) else f'{total:.0f}':>13}"

    def cells(totals, data):
        return "".join(cell(t, d) for t, d in zip(totals, data))
    for name, r in rows.items():
        data = r.get("pane_data") or {}
        print(f"  {name:32}" + cells([r["panes"].get(pane) for pane in SLOW_PANES], [data.get(pane) for pane in SLOW_PANES]))
    print(f"  {'median':32}" + cells([_median(r["panes"].get(pane) for r in rows.values()) for pane in SLOW_PANES],
                                     [_median((r.get("pane_data") or {}).get(pane) for r in rows.values())
                                      for pane in SLOW_PANES]))


PANES_NOTE = """  jaxpr/plot/vmap: a hidden tab's data and models, as total/data: the data (tracing, sampling, the
  cache key) and the rest its Panel/Bokeh models; timing: eager vs
  jit on the CPU; vmap timings: the vmap methods' times; webgpu timing: to its last readback
  (timing and webgpu timing include the event loop's turns they give an edit typed meanwhile)."""


# [longrun] --long-session: the examples timed in a page that first went through a long session
# (every gallery example loaded, each timing f on the CPU and WebGPU; the Backend switched to
# WebGPU and back) beside a fresh page of the same build: a long session must stay as fast.
LONG_SESSION_LABELS = ("fresh page", "this build")   # "this build": the long session's page
BACKEND_SELECT = """(backend) => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const sel = all(document).find((el) => el.tagName === 'SELECT' && [...el.options].some((o) => o.value === 'cpu'));
  if (!sel || ![...sel.options].some((o) => o.value === backend)) return false;
  sel.value = backend;
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"""


def age_page(page, names) -> None:
    """A long session in `page`: every example in `names` loaded, then a Backend switch to WebGPU
    (its timings measured) and back."""
    t0 = time.perf_counter()
    for name in names:
        page.evaluate("opts => window.gradpad.load(opts)", {"example": name})
    switched = page.evaluate(BACKEND_SELECT, "webgpu")
    if switched:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and "webgpu" not in page.evaluate("() => window.gradpad.snapshot()")["timing"]:
            time.sleep(1)
        page.evaluate(BACKEND_SELECT, "cpu")
        page.evaluate("() => window.gradpad.snapshot()")
    print(f"  long session: {len(names)} examples loaded, Backend switched to WebGPU and back: "
          f"{'done' if switched else 'no WebGPU in the menu'} in {time.perf_counter() - t0:.0f} s", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--edits", type=int, default=3, help="timed edits per example (the median is shown)")
    p.add_argument("--only", help="only examples whose name contains this (or one of these, comma-separated)")
    p.add_argument("--no-core", action="store_true", help="skip section 2 (bench core's workloads)")
    p.add_argument("--no-latency", action="store_true", help="skip section 1")
    p.add_argument("--full", action="store_true", help="section 2 with bench core's full rounds")
    p.add_argument("--json", help="also write the results here")
    p.add_argument("--compare", metavar="DIST", help="another built site (dist/ directory) to time beside this one, "
                                                     "edits alternating (e.g. an older commit's build)")
    p.add_argument("--long-session", action="store_true", help="time the examples in a page that first loaded every "
                   "gallery example and switched Backend to WebGPU and back ('this build', and --compare's), "
                   "beside a fresh page of this build")
    a = p.parse_args(argv)
    problem = chromium.problem()
    if problem:
        raise SystemExit(problem)
    from app import examples
    from playwright.sync_api import sync_playwright

    names = [n for n in examples.names() if not a.only or any(o in n for o in a.only.split(","))]
    root = site.snapshot(Path(tempfile.mkdtemp(prefix="gradpad-bench-page-")) / "dist")
    srv, url = serve.start(root)
    if a.compare:  # another build of the site (e.g. an older commit's dist/), edits alternating
        other_srv, other_url = serve.start(Path(a.compare))
    results: dict = {"url": url}
    try:
        with sync_playwright() as pw:
            ctx, udd = chromium.launch(pw)
            try:
                page = open_page(ctx, url)
                pages = {"this build": page}
                if a.compare:
                    pages = {"--compare": open_page(ctx, other_url), **pages}
                if a.long_session:   # [longrun] (with --compare, both builds' pages go through it)
                    for aged in pages.values():
                        age_page(aged, examples.names())
                    pages = {LONG_SESSION_LABELS[0]: open_page(ctx, url), **pages}
                if not a.no_latency:
                    print(f"\n1. edit -> panes updated, in the page (median of {a.edits} edits each; ms)", flush=True)
                    results["latency"] = per_page = latency(pages, names, a.edits)
                    for kind in EDIT_KINDS:
                        row = f"  {'median (' + kind + ' edits)':32} {kind:5}"
                        for label, lat in per_page.items():
                            m = medians(lat, kind)
                            row += _cells(m)
                            results.setdefault("medians", {}).setdefault(label, {})[kind] = m
                        print(row)
                    ours = results["medians"]["this build"]
                    verdict = lambda ms: "ok" if ms <= GOAL_MS else "MISS"  # noqa: E731
                    print(f"  goal <= {GOAL_MS} ms: " + "; ".join(
                        f"{kind} edits ->visible {verdict(ours[kind]['shown_ms'])}, ->untimed"
                        f" {verdict(ours[kind]['untimed_ms'])}, ->all but webgpu {verdict(ours[kind]['nearly_ms'])}"
                        for kind in EDIT_KINDS)
                        + f"; load average {os.getloadavg()[0]:.1f}")
                    print("  edit: print = a print line appended (f unchanged); f = f itself changed (a numeric\n"
                          "  literal in it nudged, or a line `_edit = k` put first in its body: see the last column).\n"
                          "  ->visible: to the first frame after the panes in view (status, console, the active tab)\n"
                          "  show the edited code's results; ->untimed: every pane but the timing measurements\n"
                          f"  ({', '.join(TIMING_PANES)}) did, hidden tabs included; timings: the time those\n"
                          f"  took after that; ->!webgpu: every pane but {', '.join(sorted(BACKGROUND_PANES))} (the\n"
                          "  issue's goal: it may fill in later); ->all panes: until every pane did; load (new): gradpad.load of the\n"
                          "  example, every pane new.")
                    for kind in EDIT_KINDS:
                        print_breakdown(per_page["this build"], kind)
                    print(PHASE_NOTES)
                    for kind in EDIT_KINDS:
                        print_panes(per_page["this build"], kind)
                    print(PANES_NOTE)
                if not a.no_core:
                    print("\n2. bench core's workloads: the page's Pyodide worker beside CPython (per call)", flush=True)
                    in_page = core_in_page(page, quick=not a.full)
                    in_cpython = core_in_cpython(quick=not a.full)
                    results["core"] = {"page": in_page, "cpython": in_cpython}
                    rows = [("workload", "page (Pyodide)", "CPython", "page/CPython")]
                    for row, t in in_page.items():
                        c = in_cpython.get(row)
                        ratio = f"{t / c:.1f}x" if isinstance(t, float) and isinstance(c, float) and c > 0 else "-"
                        rows.append((row, fmt(t), fmt(c), ratio))
                    widths = [max(len(r[i]) for r in rows) for i in range(4)]
                    for i, r in enumerate(rows):
                        print("  " + "  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths))))
                        if i == 0:
                            print("  " + "-" * (sum(widths) + 6))
                    ratios = [in_page[r] / in_cpython[r] for r in in_page
                              if isinstance(in_page[r], float) and isinstance(in_cpython.get(r), float)]
                    if ratios:
                        print(f"  browser factor (median page/CPython): {statistics.median(ratios):.1f}x")
            finally:
                ctx.close()
                shutil.rmtree(udd, ignore_errors=True)
    finally:
        srv.shutdown()
        if a.compare:
            other_srv.shutdown()
        shutil.rmtree(root.parent, ignore_errors=True)
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
