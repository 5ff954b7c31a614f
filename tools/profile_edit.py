"""Where an edit's Python goes, in this CPython (the page's worker runs the same app):

    python -m tools.profile_edit [EXAMPLE,...] [--kind f|print] [--top N]

Each gallery example is loaded headless, edited as `python build.py bench page` edits it (`f`:
a literal in the analysed function nudged; `print`: a print appended), and run: the panes in
view (the Jaxpr tab), then each hidden tab and measurement, as the page fills them in. Printed
per example: the run's phases and each slow pane's total/data ms (data: tracing and sampling;
the rest its Panel/Bokeh models); with --top N, cProfile's N heaviest functions (own time) of
the whole edit. The page's own numbers: `python build.py bench page`.

`--page` does the same inside the built site's Pyodide worker (headless chromium, `dist/` as
`python build.py site` left it): the same edit and run, the slow panes filled in at once (no
event loop turns between them), so the numbers are the worker's Python alone, as the page runs
it. `--sort cumulative` lists the heaviest calls with what they call.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def edited_code(code: str, function: str | None, kind: str, k: int = 0) -> str:
    """The `k`th edit of `kind` (each differs from the one before: the panes' caches miss)."""
    from tools.bench_page import apply_change, f_edit, still_runs
    if kind == "print":
        return code + f'\nprint("edit", {k})'
    change = f_edit(code, function, k, still_runs(function)) if function else None
    return apply_change(code, change) if change else code


def profile_edit(name: str, kind: str = "f", top: int = 0, sort: str = "tottime") -> dict:
    """{"run_ms", "phases", "panes" (name -> total ms), "pane_data", "profile" (text)} of one edit."""
    from app import main
    pg = main.create_app(example=name).playground
    function = pg.analysis.function.name if pg.analysis.function else None
    pg.editor.value = edited_code(pg.editor.value, function, kind)
    prof = cProfile.Profile() if top else None
    started = time.perf_counter()
    if prof:
        prof.enable()
    pg.run()  # no event loop: the slow panes fill in before run() returns
    if prof:
        prof.disable()
    out = {"run_ms": (time.perf_counter() - started) * 1e3,
           "phases": {k: v for k, v in pg.run_phases.items() if k in ("exec", "jaxprs", "plot", "vmap", "render", "send")},
           "panes": dict(pg.run_phases.get("panes", {})), "pane_data": dict(pg.run_phases.get("pane_data", {})),
           "profile": ""}
    if prof:
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats(sort).print_stats(top)
        out["profile"] = text.getvalue()
    return out


PAGE_PROFILE = """
import cProfile, gc, io, json, pstats, time
from app import main as _m, page_api
pg = page_api._playground
pg.editor.value = CODE   # the autorun it schedules is this run's (run() bumps its generation)
loop_of, _m.event_loop = _m.event_loop, lambda: None  # the slow panes at once, as in CPython
prof = cProfile.Profile() if TOP else None
collections, started = [], {}

def on_gc(phase, info):  # the cyclic collector's pauses inside the run (generation, ms)
    if phase == "start":
        started["t"] = time.perf_counter()
    elif "t" in started:
        collections.append((info["generation"], (time.perf_counter() - started.pop("t")) * 1e3))
gc.callbacks.append(on_gc)
try:
    t0 = time.perf_counter()
    if prof:
        prof.enable()
    pg.run()
    if prof:
        prof.disable()
    ms = (time.perf_counter() - t0) * 1e3
finally:
    _m.event_loop = loop_of
    gc.callbacks.remove(on_gc)
text = io.StringIO()
if prof:
    pstats.Stats(prof, stream=text).sort_stats(SORT).print_stats(TOP)
json.dumps({"run_ms": ms, "phases": {k: v for k, v in pg.run_phases.items()
            if k in ("exec", "jaxprs", "plot", "vmap", "render", "send")},
            "panes": dict(pg.run_phases.get("panes", {})), "pane_data": dict(pg.run_phases.get("pane_data", {})),
            "profile": text.getvalue(), "gc": collections, "tracked": len(gc.get_objects())})
"""


def _in_worker(page, source: str):
    """The value of `source`'s last expression (a str) run in the page's worker."""
    import ast
    r = page.evaluate("c => window.gradpad.runPython(c)", source)
    if r.get("error"):
        raise SystemExit(r["error"].get("traceback") or r["error"])
    return ast.literal_eval(r["result"])


def page_edits(names, kind: str, top: int, sort: str, edits: int = 1, dist: str | None = None):
    """profile_edit's answers for `names`, from the built site's worker (yields name, result);
    `dist`: another built site (an older commit's) instead of this checkout's."""
    import json
    import tempfile

    from playwright.sync_api import sync_playwright

    from tests.browser import chromium
    from tools import serve, site
    from tools.bench_page import open_page
    problem = chromium.problem()
    if problem:
        raise SystemExit(problem)
    root = Path(dist) if dist else site.snapshot(Path(tempfile.mkdtemp(prefix="gradpad-profile-edit-")) / "dist")
    srv, url = serve.start(root)
    try:
        with sync_playwright() as pw:
            ctx, _udd = chromium.launch(pw)
            page = open_page(ctx, url)
            for name in names:
                snap = page.evaluate("opts => window.gradpad.load(opts)", {"example": name})
                code = _in_worker(page, "from app import page_api\npage_api._playground.editor.value")
                for k in range(edits):
                    code = edited = edited_code(code, snap.get("function"), kind, k)  # as the bench: one on another
                    source = f"CODE = {edited!r}\nTOP = {top}\nSORT = {sort!r}\n" + PAGE_PROFILE
                    yield name, json.loads(_in_worker(page, source))
            ctx.close()
    finally:
        srv.shutdown()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("examples", nargs="?", help="comma-separated example names (default: the whole gallery)")
    p.add_argument("--kind", choices=("f", "print"), default="f")
    p.add_argument("--top", type=int, default=0, help="print cProfile's N heaviest functions per example")
    p.add_argument("--sort", choices=("tottime", "cumulative"), default="tottime", help="cProfile's order")
    p.add_argument("--page", action="store_true", help="in the built site's Pyodide worker (headless chromium)")
    p.add_argument("--edits", type=int, default=1, help="edits per example (--page: each its own line)")
    p.add_argument("--dist", help="--page: this built site (e.g. an older commit's dist/) instead of this checkout's")
    a = p.parse_args(argv)
    from app import examples
    names = a.examples.split(",") if a.examples else list(examples.names())
    results = page_edits(names, a.kind, a.top, a.sort, a.edits, a.dist) if a.page else (
        (name, profile_edit(name, a.kind, a.top, a.sort)) for name in names)
    for name, r in results:
        phases = " ".join(f"{k} {v:.0f}" for k, v in r["phases"].items())
        panes = " ".join(f"{k} {v:.0f}" + (f"/{r['pane_data'][k]:.0f}" if k in r["pane_data"] else "")
                         for k, v in r["panes"].items())
        gcs = "".join(f" | gc: {len(r['gc'])} collections, {sum(ms for _g, ms in r['gc']):.0f} ms"
                      f" (gen 2: {sum(g == 2 for g, _ms in r['gc'])}, {sum(ms for g, ms in r['gc'] if g == 2):.0f} ms;"
                      f" {r['tracked']:,} objects tracked)" for _ in [0] if "gc" in r)
        print(f"{name:30} {a.kind} edit: {r['run_ms']:.0f} ms | {phases} | panes total/data: {panes}{gcs}", flush=True)
        if r["profile"]:
            print(r["profile"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
