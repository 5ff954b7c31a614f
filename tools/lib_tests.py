"""Run JAX libraries' own test suites with gradpad playing jax: those shipped inside their wheels
(optax, chex, dm-haiku, distrax) and those exported from the libraries' sources (numpyro, diffrax, ...).

    python tools/lib_tests.py                 # every *_test.py file of optax and chex, gradpad as jax
    python tools/lib_tests.py --oracle        # the same files under real JAX 0.10.2
    python tools/lib_tests.py -k alias numerics --timeout 300 --json out.json
    python tools/lib_tests.py --libraries haiku distrax    # the second ring's suites (issue 24)
    python tools/lib_tests.py --suite-dir diffrax=/tmp/diffrax/test -k test_vmap --select "not slow"

Suites not shipped in a wheel (numpyro 0.22, diffrax 0.7.2, optimistix 0.1.0, lineax 0.1.1, jaxopt
0.8.5: the installed versions, in `.ecosystem-ring2/`) run from their sources' test folder, exported
from a git clone (or the offline mirror's bare git dir) at the commit of the installed version:

    git --git-dir=REPO tag                                    # v0.7.2, jaxopt-v0.8.5, ...
    git --git-dir=REPO log --oneline -S'__version__ = "0.22.0"' -- numpyro/version.py   # no tag: the bump
    mkdir -p /tmp/diffrax && git --git-dir=REPO archive v0.7.2 test | tar -x -C /tmp/diffrax

then `--suite-dir diffrax=/tmp/diffrax/test` (LIBRARY=DIR, several allowed). Every `test_*.py` and
`*_test.py` under DIR is a file of the run, named `LIBRARY:path/in/DIR`; pytest's rootdir is DIR's
parent, so a suite whose folder is a package (diffrax's `from .helpers import ...`) imports as in
its own CI, and DIR's conftest.py (x64, strict promotion, fixtures) applies. The installed library,
not the exported source, is what the tests import: only the tests come from git.

Each file runs in a subprocess of its own (pytest; absltest/parameterized tests collect under it)
with a wall-clock timeout, so one hanging or crashing file cannot hide the others. Prints
passed/failed/errors/skipped per file and in total; `--json` keeps every test's outcome and the last
line of its failure for triage (docs/lib_tests.md).

Environments (all `pip install --no-deps --target`, never touching a venv's own packages):
- gradpad: the libraries from tests/ecosystem/install.py's `.ecosystem/`, the suites' test-only
  dependencies (TEST_DEPS) in `.lib-testdeps/`, run by this interpreter after `core.install_as_jax()`.
- oracle: the same pins plus TEST_DEPS in ORACLE_TARGET, in front of /work/jax-venv's real JAX.
- haiku and distrax (the second ring) come from tests/ecosystem/install.py's `.ecosystem-ring2/`, on
  the path of both sides (every wheel there but dm-tree is pure Python; both are CPython 3.11).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "ecosystem"))
from install import REQUIREMENTS, ensure_installed, ensure_ring2_installed  # noqa: E402

# what the suites import beyond the libraries' own dependencies (scipy.optimize/stats, sklearn
# datasets, cloudpickle round trips)
TEST_DEPS = ("cloudpickle==3.1.2", "scipy==1.17.1", "scikit-learn==1.9.1", "joblib==1.6.0", "threadpoolctl==3.8.0",
             "narwhals==2.28.0", "dill==0.4.1", "mock==5.2.0")  # dill: haiku's checkpoint test; mock: distrax's
TESTDEPS_TARGET = ROOT / ".lib-testdeps"
ORACLE_PYTHON = "/work/jax-venv/bin/python"
ORACLE_TARGET = Path("/work/eco-oracle")
# pytest itself for the oracle side (real JAX's venv holds only jax, jaxlib, numpy and scipy)
ORACLE_PYTEST = ("pytest==9.2.0", "pluggy==1.7.0", "iniconfig==2.3.1", "packaging==26.4")
LIBRARIES = ("optax", "chex")
RING2_LIBRARIES = ("haiku", "distrax")  # their wheels ship their tests too (61 and 68 files)
DEFAULT_TIMEOUT = 600  # alias_test and contrib/_common_test need 150-420 s on a loaded 2-core box

# Runs inside the per-file subprocess: pick the engine, then pytest with a recorder plugin that
# writes {nodeid: [outcome, last line of the failure]} to the JSON path given.
CHILD = """
import json, sys
if {gradpad!r}:
    import core; core.install_as_jax()
import pytest

class Recorder:
    def __init__(self):
        self.outcomes = {{}}
    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            outcome = "error" if report.when != "call" and report.outcome == "failed" else report.outcome
            if report.nodeid in self.outcomes and self.outcomes[report.nodeid][0] != "passed":
                return  # keep the first failure of a test (a teardown error after a failed call)
            text = str(report.longrepr or "").strip().splitlines()
            self.outcomes[report.nodeid] = [outcome, text[-1][:300] if text else ""]
            json.dump(self.outcomes, open(sys.argv[1], "w"))  # a timeout still leaves what ran
    def pytest_collectreport(self, report):
        if report.failed:
            text = str(report.longrepr or "").strip().splitlines()
            self.outcomes[report.nodeid or "<collect>"] = ["error", text[-1][:300] if text else ""]

recorder = Recorder()
code = pytest.main(sys.argv[2:], plugins=[recorder])
json.dump(recorder.outcomes, open(sys.argv[1], "w"))
"""


# The learner's loop behind alias_test.test_optimization's timeouts: a jitted optimizer step on
# the Rosenbrock function (params f32[2]), and the same step on a small MLP's params dict (4-16-16-1,
# 32 points; optax's NamedTuple states around it), steady state: the best of a few batches, us per call.
STEP_BENCH = """
import sys, time
if {gradpad!r}:
    import core; core.install_as_jax()
import jax, jax.numpy as jnp, numpy as np, optax
def objective(p):
    return (1.0 - p[0]) ** 2 + 100.0 * (p[1] - p[0] ** 2) ** 2
rng = np.random.default_rng(0)
sizes = (4, 16, 16, 1)
mlp = {{f"layer{{i}}": {{"w": jnp.asarray(rng.standard_normal((a, b)).astype(np.float32) * 0.3),
                       "b": jnp.zeros((b,), jnp.float32)}} for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:]))}}
X = jnp.asarray(rng.standard_normal((32, 4)).astype(np.float32)); Y = jnp.sum(X, axis=1, keepdims=True)
def mlp_loss(p):
    h = X
    for i in range(3):
        h = h @ p[f"layer{{i}}"]["w"] + p[f"layer{{i}}"]["b"]
        h = jnp.tanh(h) if i < 2 else h
    return jnp.mean((h - Y) ** 2)
OPTIMIZERS = {{"sgd": lambda: optax.sgd(1e-3), "adam": lambda: optax.adam(1e-3), "adamw": lambda: optax.adamw(1e-3),
               "lion": lambda: optax.lion(1e-3),
               "clip+adam": lambda: optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))}}
CASES = [("rosenbrock", n, objective, jnp.array([0.0, 0.0])) for n in ("sgd", "adam", "adamw", "lion")]
CASES += [("mlp", n, mlp_loss, mlp) for n in ("sgd", "adam", "adamw", "clip+adam")]
for where, name, loss, params in CASES:
    opt = OPTIMIZERS[name]()
    @jax.jit
    def step(params, state):
        updates = jax.grad(loss)(params)
        updates, state = opt.update(updates, state, params)
        return optax.apply_updates(params, updates), state
    state = opt.init(params)
    params, state = step(params, state)
    best = float("inf")
    for _ in range({batches}):
        start = time.perf_counter()
        for _ in range(200):
            params, state = step(params, state)
        best = min(best, (time.perf_counter() - start) / 200)
    print(f"{{where}} {{name}} {{best * 1e6:.1f}}", flush=True)
"""


def step_bench(rounds: int = 3) -> None:
    """Both sides, alternating (gradpad, JAX, gradpad, ...) so that load from other processes
    falls on both; each side's best batch over all rounds, and the ratio."""
    best: dict = {}
    sides = [(oracle, *environment(oracle, test_deps=False)[:2]) for oracle in (False, True)]
    for _ in range(rounds):
        for oracle, python, env in sides:
            out = subprocess.run([python, "-c", STEP_BENCH.format(gradpad=not oracle, batches=5)], env=env,
                                 check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                where, name, us = line.split()
                key = (where, name, oracle)
                best[key] = min(best.get(key, float("inf")), float(us))
    print(f"{'step':22} {'gradpad us':>10} {'JAX us':>8} {'ratio':>6}   (best of {rounds} alternating rounds)")
    for where, name in dict.fromkeys(k[:2] for k in best):
        ours, theirs = best[where, name, False], best[where, name, True]
        print(f"{where + ' ' + name:22} {ours:10.1f} {theirs:8.1f} {ours / theirs:6.2f}")


def _pip_target(python: str, target: Path, requirements: list[str]) -> None:
    stamp = target / ".lib-tests-requirements"
    wanted = "\n".join(requirements)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                    "--target", str(target), *requirements], check=True)
    stamp.write_text(wanted)


def pinned_requirements() -> list[str]:
    lines = (line.split("#")[0].strip() for line in REQUIREMENTS.read_text().splitlines())
    return [line for line in lines if line]


def environment(oracle: bool, test_deps: bool = True, ring2: bool = False) -> tuple[str, dict, Path]:
    """(python, env, libraries' directory) for one side; installs what is missing. Without
    `test_deps` only the libraries' pins (what tests/test_lib_suites.py's curated files need);
    `ring2` puts the second ring's target (haiku, distrax, tfp) on the path after the first's."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", JAX_PLATFORMS="cpu",
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("GRADPAD_DEVICES", None)
    ring2 = [str(ensure_ring2_installed())] if ring2 else []
    if oracle:
        _pip_target(ORACLE_PYTHON, ORACLE_TARGET, pinned_requirements() + list(TEST_DEPS) + list(ORACLE_PYTEST))
        env["PYTHONPATH"] = os.pathsep.join([str(ORACLE_TARGET), *ring2])
        return ORACLE_PYTHON, env, ORACLE_TARGET
    libs = ensure_installed()
    # this checkout's engine first: the child runs in a temporary directory, where the shared venv's
    # editable install would otherwise map `core` to another checkout
    paths = [str(ROOT), str(libs), *ring2]
    if test_deps:
        _pip_target(sys.executable, TESTDEPS_TARGET, list(TEST_DEPS))
        paths.append(str(TESTDEPS_TARGET))
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return sys.executable, env, libs


def test_files(libs: Path, only: list[str], libraries=LIBRARIES) -> list[tuple[Path, Path]]:
    """(directory the library is installed in, test file) for each `*_test.py` of `libraries`."""
    files = []
    for lib in libraries:
        where = ensure_ring2_installed() if lib in RING2_LIBRARIES else libs
        files += [(where, p) for p in sorted((where / lib).rglob("*_test.py"))]
    if only:
        files = [(where, p) for where, p in files if any(word in str(p.relative_to(where)) for word in only)]
    return files


def suite_files(specs: list[str], only: list[str]) -> list[tuple[Path, Path, str]]:
    """(rootdir, test file, name) for each test file of each exported suite `LIBRARY=DIR`."""
    files = []
    for spec in specs:
        lib, sep, folder = spec.partition("=")
        folder = Path(folder).resolve()
        if not sep or not folder.is_dir():
            raise SystemExit(f"--suite-dir wants LIBRARY=DIR with DIR an exported test folder, got {spec!r} "
                             "(see this tool's docstring for the git archive command)")
        found = sorted({*folder.rglob("test_*.py"), *folder.rglob("*_test.py")})
        for p in found:
            name = f"{lib}:{p.relative_to(folder)}"
            if not only or any(word in name for word in only):
                files.append((folder.parent, p, name))
    return files


def run_file(python: str, env: dict, libs: Path, path, timeout: float, oracle: bool, select: str = "") -> dict:
    """One file's (or a list of files') outcomes: {"tests": {nodeid: [outcome, message]}, "seconds", "status"}."""
    with tempfile.TemporaryDirectory() as tmp:
        out, ini = Path(tmp) / "out.json", Path(tmp) / "pytest.ini"
        ini.write_text("[pytest]\n")  # keep gradpad's own pytest settings (testpaths, timeout) out
        args = [python, "-c", CHILD.format(gradpad=not oracle), str(out), "-q", "-p", "no:cacheprovider",
                "-c", str(ini), "--rootdir", str(libs), *(["-k", select] if select else []), *map(str, path if isinstance(path, list) else [path])]
        start = time.perf_counter()
        try:
            proc = subprocess.run(args, cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout)
            status = "ok" if proc.returncode in (0, 1, 5) else f"crashed (rc {proc.returncode}): {proc.stderr.strip()[-300:]}"
        except subprocess.TimeoutExpired:
            status = f"timeout after {timeout:.0f} s"
        seconds = time.perf_counter() - start
        tests = json.loads(out.read_text()) if out.exists() else {}
    return {"tests": tests, "seconds": round(seconds, 1), "status": status}


def counts(tests: dict) -> dict:
    tally = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    for outcome, _ in tests.values():
        tally[outcome] = tally.get(outcome, 0) + 1
    return tally


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", "--only", nargs="*", default=[], help="run only files whose path contains one of these")
    parser.add_argument("--libraries", nargs="*", default=None, choices=LIBRARIES + RING2_LIBRARIES,
                        help="whose shipped suites to run (default: optax chex, none with --suite-dir)")
    parser.add_argument("--suite-dir", nargs="*", default=[], metavar="LIBRARY=DIR",
                        help="also run the test files of a suite exported from the library's sources into DIR")
    parser.add_argument("--select", default="", help="pytest -k expression applied inside every file")
    parser.add_argument("--oracle", action="store_true", help="run under real JAX 0.10.2 instead of gradpad")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per file")
    parser.add_argument("--json", type=Path, help="write every test's outcome here")
    parser.add_argument("--failures", action="store_true", help="print each failing test and its message")
    parser.add_argument("--step-bench", action="store_true", help="time a jitted optimizer step, gradpad and real JAX")
    parser.add_argument("--rounds", type=int, default=3, help="--step-bench: alternating rounds per side")
    args = parser.parse_args(argv)
    if args.step_bench:
        step_bench(args.rounds)
        return 0

    if args.libraries is None:
        args.libraries = [] if args.suite_dir else list(LIBRARIES)
    ring2 = bool(args.suite_dir) or any(lib in RING2_LIBRARIES for lib in args.libraries)
    python, env, libs = environment(args.oracle, ring2=ring2)
    files = [(where, path, str(path.relative_to(where))) for where, path in test_files(libs, args.only, args.libraries)]
    files += suite_files(args.suite_dir, args.only)
    results, total = {}, {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    print(f"{'file':58} {'pass':>5} {'fail':>5} {'err':>4} {'skip':>5} {'s':>6}  ({'real JAX' if args.oracle else 'gradpad'})")
    for where, path, name in files:
        result = run_file(python, env, where, path, args.timeout, args.oracle, args.select)
        results[name] = result
        tally = counts(result["tests"])
        if result["status"] != "ok":
            tally["error"] += 1  # the file itself: a crash or a timeout counts once
        for key in total:
            total[key] += tally[key]
        note = "" if result["status"] == "ok" else f"  {result['status']}"
        print(f"{name:58} {tally['passed']:5} {tally['failed']:5} {tally['error']:4} {tally['skipped']:5} "
              f"{result['seconds']:6.1f}{note}", flush=True)
        if args.failures:
            for nodeid, (outcome, message) in result["tests"].items():
                if outcome in ("failed", "error"):
                    print(f"    {outcome}: {nodeid.split('::', 1)[-1]}: {message}")
    print(f"{'total':58} {total['passed']:5} {total['failed']:5} {total['error']:4} {total['skipped']:5}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, sort_keys=True))
    return 0 if total["failed"] == total["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
