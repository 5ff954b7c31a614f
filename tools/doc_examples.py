"""JAX's docstring examples as an acceptance test: every `>>>` example in the docstrings of JAX's
public functions, run under real JAX (the oracle) and under gradpad, cell by cell.

    python tools/doc_examples.py                          # every module with examples
    python tools/doc_examples.py --module jax.numpy -v    # one module, each differing cell shown
    python tools/doc_examples.py --name jax.numpy.cumsum -v
    python tools/doc_examples.py --json out.json          # the per-cell results
    python tools/doc_examples.py --strict                 # errors' messages too, numbers to 1e-6

The docstrings are read from the oracle's JAX (the examples of JAX 0.10.2, not our own). Each
function's examples run in a fresh namespace holding what JAX's doctests get (`jax`, `jnp`, `np`,
`lax`), one interpreter per module and side. A cell is a run of `>>>`/`...` lines; its output is
its printed text, the repr of a last bare expression, or the class of its error, compared as
tools/doc_cells.py compares tutorial cells (numbers to a relative 1e-4).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `tools` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools import doc_cells  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# The list of JAX's public names sits in ../shared/ beside the checkout (a worktree's may be further up)
DEFAULT_API = next((d / "shared" / "reference" / "jax_0.10.2_public_api.json" for d in ROOT.parents
                    if (d / "shared" / "reference" / "jax_0.10.2_public_api.json").exists()),
                   ROOT.parent / "shared" / "reference" / "jax_0.10.2_public_api.json")
PREAMBLE = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom jax import lax\n"
MODULE_TIMEOUT_S = 900

# Run inside the oracle: public name -> its docstring's example cells.
_COLLECT = r"""
import importlib, json, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
from tools.doc_cells import doctest_cells
api = json.load(open(sys.argv[2]))["modules"]
wanted = set(json.loads(sys.argv[3]))
out = {}
for mod_name, names in api.items():
    if wanted and mod_name not in wanted:
        continue
    try:
        mod = importlib.import_module(mod_name)
    except Exception:
        continue
    for name in names:
        doc = getattr(getattr(mod, name, None), "__doc__", None) or ""
        if ">>>" in doc:
            out[f"{mod_name}.{name}"] = doctest_cells(doc)
sys.stdout.write("@@DOC_EXAMPLES@@" + json.dumps(out))
"""


def collect(oracle: str, modules: list[str], api: str) -> dict[str, list[str]]:
    proc = subprocess.run([oracle, "-c", _COLLECT, str(ROOT), api, json.dumps(modules)],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ, JAX_PLATFORMS="cpu"))
    if "@@DOC_EXAMPLES@@" not in proc.stdout:
        raise SystemExit(f"could not read JAX's docstrings with {oracle}:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.split("@@DOC_EXAMPLES@@", 1)[1])


def run_groups_main(engine_root: str | None) -> None:
    """Read {name: cells} on stdin; run each name's cells in a fresh namespace; print the results."""
    groups = json.load(sys.stdin)
    doc_cells.prepare_interpreter(engine_root)
    import numpy
    results = {}
    for name, cells in groups.items():
        numpy.random.seed(0)
        ns: dict = {"__name__": "__main__"}
        exec(PREAMBLE, ns)
        results[name] = [doc_cells.run_cell(c, ns) for c in cells]
    sys.stdout.write("\n@@DOC_EXAMPLES@@" + json.dumps(results))


def run_side(python: str, groups: dict, engine_root: str | None, timeout: int) -> dict:
    cmd = [python, str(Path(__file__).resolve()), "--run-groups"]
    if engine_root:
        cmd += ["--engine-root", engine_root]
    env = dict(os.environ, JAX_PLATFORMS="cpu", OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    crashed = None
    try:
        proc = subprocess.run(cmd, input=json.dumps(groups), capture_output=True, text=True, timeout=timeout,
                              env=env, cwd=str(ROOT))
        if "@@DOC_EXAMPLES@@" in proc.stdout:
            return json.loads(proc.stdout.split("@@DOC_EXAMPLES@@", 1)[1])
        crashed = {"type": "RunnerCrashed", "message": proc.stderr[-300:]}
    except subprocess.TimeoutExpired:
        crashed = {"type": "ModuleTimeout", "message": ""}
    if len(groups) > 1:  # find the one that takes the interpreter down: run each alone
        out = {}
        for name, cells in groups.items():
            out.update(run_side(python, {name: cells}, engine_root, timeout))
        return out
    return {name: [{"stdout": "", "display": None, "error": crashed}] * len(cells) for name, cells in groups.items()}


def compare(groups: dict, args) -> list[dict]:
    by_module: dict[str, dict] = {}
    for name, cells in groups.items():
        by_module.setdefault(name.rsplit(".", 1)[0], {})[name] = cells
    report = []
    for mod, mod_groups in by_module.items():
        jax_out = run_side(args.oracle, mod_groups, None, args.timeout)
        ours = run_side(args.engine, mod_groups, str(ROOT), args.timeout)
        bad_names = 0
        cells_total = 0
        for name, cells in mod_groups.items():
            differing = [i for i, (j, o) in enumerate(zip(jax_out[name], ours[name]))
                         if not doc_cells.outputs_match(j, o, args.strict)]
            cells_total += len(cells)
            if differing:
                bad_names += 1
                report.append({"name": name, "cells": len(cells), "differing": differing,
                               "details": [{"cell": i, "code": cells[i], "jax": jax_out[name][i],
                                            "gradpad": ours[name][i]} for i in differing]})
        print(f"{mod:28s} {bad_names:3d} of {len(mod_groups):3d} functions differ "
              f"({cells_total} cells)", flush=True)
    return report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--oracle", default=doc_cells.DEFAULT_ORACLE, help="Python with real JAX installed")
    p.add_argument("--engine", default=sys.executable, help="Python that runs gradpad (this one)")
    p.add_argument("--api", default=str(DEFAULT_API), help="the list of JAX's public names (shared/reference)")
    p.add_argument("--module", action="append", default=[], help="a JAX module (repeatable), e.g. jax.lax")
    p.add_argument("--name", action="append", default=[], help="one public name (repeatable), e.g. jax.numpy.cumsum")
    p.add_argument("--strict", action="store_true", help="errors' messages must match too, and numbers to a "
                   "relative 1e-6 (as tools/doc_cells.py --strict)")
    p.add_argument("--timeout", type=int, default=MODULE_TIMEOUT_S, help="seconds per module and side")
    p.add_argument("--json", help="write the differing cells here")
    p.add_argument("-v", "--verbose", action="store_true", help="show each differing cell")
    p.add_argument("--run-groups", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--engine-root", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.run_groups:
        run_groups_main(args.engine_root)
        return 0
    modules = sorted(set(args.module) | {n.rsplit(".", 1)[0] for n in args.name})
    groups = collect(args.oracle, modules, args.api)
    if args.name:
        groups = {n: c for n, c in groups.items() if n in args.name}
    report = compare(groups, args)
    total = len(groups)
    print(f"total: {len(report)} of {total} functions' examples differ "
          f"({sum(len(r['differing']) for r in report)} of {sum(map(len, groups.values()))} cells)")
    if args.verbose:
        for r in report:
            for d in r["details"]:
                print(f"--- {r['name']} cell {d['cell']}\n{d['code'][:600]}\n  [jax]\n{doc_cells._show(d['jax'])}\n"
                      f"  [gradpad]\n{doc_cells._show(d['gradpad'])}\n")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
