"""Where an edit's Python goes, in this CPython (the page's worker runs the same app):

    python -m tools.profile_edit [EXAMPLE,...] [--kind f|print] [--top N]

Each gallery example is loaded headless, edited as `python build.py bench page` edits it (`f`:
a literal in the analysed function nudged; `print`: a print appended), and run: the panes in
view (the Jaxpr tab), then each hidden tab and measurement, as the page fills them in. Printed
per example: the run's phases and each slow pane's total/data ms (data: tracing and sampling;
the rest its Panel/Bokeh models); with --top N, cProfile's N heaviest functions (own time) of
the whole edit. The page's own numbers: `python build.py bench page`.
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


def edited_code(code: str, function: str | None, kind: str) -> str:
    from tools.bench_page import apply_change, f_edit, still_runs
    if kind == "print":
        return code + '\nprint("edit", 0)'
    change = f_edit(code, function, 0, still_runs(function)) if function else None
    return apply_change(code, change) if change else code


def profile_edit(name: str, kind: str = "f", top: int = 0) -> dict:
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
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(top)
        out["profile"] = text.getvalue()
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("examples", nargs="?", help="comma-separated example names (default: the whole gallery)")
    p.add_argument("--kind", choices=("f", "print"), default="f")
    p.add_argument("--top", type=int, default=0, help="print cProfile's N heaviest functions per example")
    a = p.parse_args(argv)
    from app import examples
    names = a.examples.split(",") if a.examples else list(examples.names())
    for name in names:
        r = profile_edit(name, a.kind, a.top)
        phases = " ".join(f"{k} {v:.0f}" for k, v in r["phases"].items())
        panes = " ".join(f"{k} {v:.0f}" + (f"/{r['pane_data'][k]:.0f}" if k in r["pane_data"] else "")
                         for k, v in r["panes"].items())
        print(f"{name:30} {a.kind} edit: {r['run_ms']:.0f} ms | {phases} | panes total/data: {panes}", flush=True)
        if r["profile"]:
            print(r["profile"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
