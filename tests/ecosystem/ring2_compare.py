"""Run the second ring's workloads on gradpad (one subprocess per library) and compare them with the
golden outputs real JAX gave (ring2_golden.json): prints a library x workload table of
match / mismatch / error (first failure).

    .venv/bin/python tests/ecosystem/ring2_compare.py [library ...] [--json out.json] [--engine DIR]

tests/test_ecosystem_ring2.py uses `run_on_gradpad`, `compare`, `DIVERGENT` and `BFGS_STEPS_GRADPAD_JIT` from
here; tests/browser/test_ecosystem_page.py uses `judge` (the CPython test's verdict on one workload)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from install import ensure_installed, ensure_ring2_installed  # noqa: E402

GOLDEN_PATH = HERE / "ring2_golden.json"
LIBRARIES = ("jaxopt", "optimistix", "lineax", "diffrax", "numpyro", "blackjax", "haiku", "distrax")
RTOL, ATOL = 1e-3, 1e-5

# float32 exp, log, log1p and tanh are XLA's own algorithms now (core/_engine/primitives/_xla_f32.py), which
# made numpyro's seeded Dirichlet draw match, and short float32 dots are XLA's fma chains (_xla_dot.py).
# Divisions by a broadcast divisor and sums of 8..32 terms are XLA's too (golden xladiv): numpyro's NUTS
# now starts and takes its first warmup transition bit for bit as JAX (numpyro_nuts_first_transition).
# What still differs (docs/compatibility.md): XLA's algebraic simplifier and fused multiply-adds under
# jit, which depend on the whole program and the fusions it forms.
DIVERGENT = {
    "numpyro_readme_eight_schools_nuts": "the NUTS chain parts from JAX's at its second warmup transition "
                                         "(XLA's fused multiply-add in the dual averaging, under jit)",
    "numpyro_readme_noncentered_and_predictive": "the NUTS chain drifts from real JAX's (XLA's rewrites and "
                                                 "fused multiply-adds under jit)",
    "optimistix_minimise_bfgs": "same minimum, 54 steps where jitted JAX takes 53 (XLA's fusion-dependent "
                                "multiply-adds; JAX op by op takes 55)",
}

# optimistix's BFGS, jitted: real JAX 0.10.2 takes 53 steps, op by op (`jax.disable_jit()`) 55. gradpad took
# 56 until its short float32 dots summed as XLA's (the 2x2 inverse Hessian times the gradient: 55, JAX's
# op-by-op count), and 54 since its jit divides as XLA's (a true quotient where the divisor has other
# uses, core/_engine/backends/cpu_ufuncs.py); the last step is XLA's fused multiply-adds (not emulated).
BFGS_STEPS_GRADPAD_JIT = 54

RUNNER = """
import json, sys, warnings
warnings.simplefilter("ignore")
import core; core.install_as_jax()
import jax
assert 'gradpad' in jax.__version__, jax.__version__
sys.path.insert(0, {here!r})
from ring2_workloads import run
print(json.dumps(run({names!r})))
"""


def run_on_gradpad(library: str, timeout: float = 900, engine: Path = ROOT) -> dict:
    """{workload: encoded result or {'error': ...}} for one library's workloads, in a fresh process
    (`engine`: a folder holding the `core` package to run, e.g. an older commit's for a before/after)."""
    targets = [str(ensure_ring2_installed()), str(ensure_installed())]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(engine), *targets, os.environ.get("PYTHONPATH", "")]))
    names = [n for n in json.loads(GOLDEN_PATH.read_text())["results"] if n.split("_")[0] == library]
    try:
        proc = subprocess.run([sys.executable, "-c", RUNNER.format(here=str(HERE), names=names)], capture_output=True,
                              text=True, env=env, timeout=timeout, cwd=engine)
    except subprocess.TimeoutExpired:
        return {n: {"error": f"timeout after {timeout} s (whole library)"} for n in names}
    if proc.returncode != 0:
        err = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {n: {"error": f"process failed: {err}"} for n in names}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compare(got: dict, want: dict) -> str | None:
    """None when `got` matches the golden `want`, else the first difference in words."""
    if "error" in got:
        return got["error"]
    if sorted(got) != sorted(want):
        return f"keys {sorted(got)} != {sorted(want)}"
    for key, w in want.items():
        g = got[key]
        if g["shape"] != w["shape"]:
            return f"{key}: shape {g['shape']} != {w['shape']}"
        gv, wv = np.asarray(g["value"], dtype=np.float64), np.asarray(w["value"], dtype=np.float64)
        if key.startswith("draw"):  # seeded draws: bit for bit
            if g["dtype"] != w["dtype"] or not np.array_equal(gv, wv, equal_nan=True):
                return f"{key}: seeded draw differs ({g['dtype']} {gv.ravel()[:4]} vs {w['dtype']} {wv.ravel()[:4]})"
        elif not np.allclose(gv, wv, rtol=RTOL, atol=ATOL, equal_nan=True):
            bad = np.argmax(np.abs(gv - wv) - RTOL * np.abs(wv)) if gv.size else 0
            return f"{key}: {gv.ravel()[bad]!r} != {wv.ravel()[bad]!r} (max rel err " \
                   f"{np.max(np.abs(gv - wv) / np.maximum(np.abs(wv), 1e-30)):.2e})"
    return None


def judge(name: str, got: dict, want: dict) -> str | None:
    """What tests/test_ecosystem_ring2.py asks of one workload, as one function (the page's check uses
    it): a DIVERGENT workload runs without error and gives the golden keys (optimistix's BFGS in
    BFGS_STEPS_GRADPAD_JIT steps, at JAX's minimum); every other one matches `compare`."""
    if name not in DIVERGENT:
        return compare(got, want)
    if "error" in got:
        return got["error"]
    if sorted(got) != sorted(want):
        return f"keys {sorted(got)} != {sorted(want)}"
    if name == "optimistix_minimise_bfgs":
        if got["steps"]["value"] != BFGS_STEPS_GRADPAD_JIT:
            return f"steps: {got['steps']['value']} != gradpad's {BFGS_STEPS_GRADPAD_JIT} (JAX: {want['steps']['value']})"
        return compare({"y": got["y"]}, {"y": want["y"]})
    return None


def main(argv):
    out_json, engine = None, ROOT
    if "--json" in argv:
        i = argv.index("--json")
        out_json = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if "--engine" in argv:  # e.g. `git archive <commit> core | tar -x -C /tmp/base` then --engine /tmp/base
        i = argv.index("--engine")
        engine = Path(argv[i + 1]).resolve()
        argv = argv[:i] + argv[i + 2:]
    golden = json.loads(GOLDEN_PATH.read_text())["results"]
    rows = {}
    for lib in argv or LIBRARIES:
        for name, got in run_on_gradpad(lib, engine=engine).items():
            diff = compare(got, golden[name])
            status = "match" if diff is None else ("error" if "error" in got else "mismatch")
            rows[name] = [status, (diff or "")[:200]]
            print(f"{name:48s} {status:8s} {(diff or '')[:150]}", flush=True)
    counts = {s: sum(r[0] == s for r in rows.values()) for s in ("match", "mismatch", "error")}
    print(counts)
    if out_json:
        Path(out_json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
