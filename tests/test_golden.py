"""Golden tests: run every case recorded from real JAX against OUR engine (`core`).

Data: tests/golden/core_cases.json and tests/golden/lax_random_cases.json (see
tests/golden/README.md).  One pytest test per case, id = case name.

Env:
  GRADPAD_GOLDEN_ENGINE=jax   run the cases against real JAX instead (sanity check of the
                              runner and the data; needs jax importable, e.g. the
                              .cache/jax-venv interpreter).
  GRADPAD_LIVE_JAX=1          also run `generate.py --check` (needs real JAX, possibly via
                              GRADPAD_JAX_PYTHON=/path/to/python) to detect JAX version drift.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import signal
import subprocess
import sys
import threading

import pytest

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")


def _load_lib():
    spec = importlib.util.spec_from_file_location("gradpad_golden_lib",
                                                  os.path.join(GOLDEN_DIR, "golden_lib.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


G = _load_lib()
ENGINE = os.environ.get("GRADPAD_GOLDEN_ENGINE", "core").strip() or "core"
CASES = G.load_cases()

# Submodules imported eagerly (if present) so that `jax.nn`, `jax.tree_util`, ... resolve as
# attributes of the top-level module, as they do in real JAX.
_EAGER_SUBMODULES = ("numpy", "lax", "random", "nn", "tree_util", "tree", "errors", "dtypes",
                     "scipy", "scipy.special",
                     # libs24b cases (snippets cannot import): what real JAX loads on `import jax` or
                     # generate.py imports for them
                     "experimental.sparse", "_src.core", "interpreters.xla", "interpreters.ad", "extend.core",
                     # ode14 cases
                     "experimental.ode", "experimental.jet", "experimental.shard_alike", "experimental.control_deps",
                     "extend.random", "experimental.rnn",
                     "scipy.spatial.transform")  # mods14 cases (jax.scipy.spatial is not loaded by `import jax`)


def _import(name):
    try:
        return importlib.import_module(name), None
    except Exception as e:  # noqa: BLE001  (ImportError, or a bug inside the engine module)
        return None, e


def _build_engine():
    """Return (namespace, reset_config, top_module).  Never raises."""
    top, err = _import(ENGINE)
    if top is None:
        missing = G.MissingModule(ENGINE, err)
        return G.make_namespace(missing, missing, missing, missing), (lambda: None), None
    for sub in _EAGER_SUBMODULES:
        _import(f"{ENGINE}.{sub}")
    mods = {}
    for sub in ("numpy", "lax", "random"):
        m, e = _import(f"{ENGINE}.{sub}")
        if m is None:
            m = getattr(top, sub, None) or G.MissingModule(f"{ENGINE}.{sub}", e)
        mods[sub] = m
    ns = G.make_namespace(top, mods["numpy"], mods["lax"], mods["random"])

    def reset():
        cfg = getattr(top, "config", None)
        # recorded on real JAX with these defaults (1 CPU device); other tests may change them
        for k, v in (("jax_enable_x64", False), ("jax_threefry_partitionable", True), ("jax_num_cpu_devices", 1)):
            try:
                cfg.update(k, v)
            except Exception:  # noqa: BLE001
                pass
    return ns, reset, top


_ENGINE_STATE = None
CASE_TIMEOUT_S = int(os.environ.get("GRADPAD_GOLDEN_TIMEOUT", "60"))


class CaseTimeout(BaseException):
    """BaseException so that the snippet runner does not record it as the case's error."""


@contextlib.contextmanager
def _time_limit(seconds):
    """Per-case wall-clock limit (SIGALRM; no-op off the main thread or on Windows)."""
    usable = (seconds > 0 and hasattr(signal, "SIGALRM")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def _raise(signum, frame):
        raise CaseTimeout(f"case exceeded {seconds}s (GRADPAD_GOLDEN_TIMEOUT)")
    old = signal.signal(signal.SIGALRM, _raise)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _engine():
    global _ENGINE_STATE
    if _ENGINE_STATE is None:
        _ENGINE_STATE = _build_engine()
    return _ENGINE_STATE


def check_case(case, ns, reset, restore, where=""):
    """Run one case (config set by `reset` before and between its steps, `restore` after) and
    fail the test with the code and every mismatch against the recorded result."""
    reset()
    try:
        with _time_limit(CASE_TIMEOUT_S):
            got = G.run_case(case, ns, reset)
    except G.GoldenEngineMissing as e:
        pytest.fail(f"[{case['area']}] engine import problem: {e}", pytrace=False)
    except CaseTimeout as e:
        pytest.fail(f"[{case['area']}] {e}", pytrace=False)
    except G.UnflattenableOutput as e:
        pytest.fail(f"[{case['area']}] {e}", pytrace=False)
    finally:
        restore()
    errs = G.compare_result(case, got)
    if errs:
        pytest.fail(f"[{case['area']}] {case['name']} ({case['_file']}){where}\n--- code\n{case['code']}"
                    f"--- mismatches\n" + "\n".join(errs), pytrace=False)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    ns, reset, _top = _engine()
    check_case(case, ns, reset, reset)


def test_golden_case_names_unique():
    names = [c["name"] for c in CASES]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, f"duplicate golden case names: {sorted(dup)}"


if os.environ.get("GRADPAD_LIVE_JAX") == "1":
    # Opt-in drift check (needs real JAX, which CI does not install): regenerate every case
    # with live JAX and diff against the committed data.
    def test_golden_data_matches_live_jax():
        py = os.environ.get("GRADPAD_JAX_PYTHON", sys.executable)
        probe = subprocess.run([py, "-c", "import jax"], capture_output=True, text=True)
        assert probe.returncode == 0, f"GRADPAD_LIVE_JAX=1 but real jax is not importable with {py}"
        r = subprocess.run([py, os.path.join(GOLDEN_DIR, "generate.py"), "--check"],
                           capture_output=True, text=True, timeout=1800)
        assert r.returncode == 0, (r.stdout[-8000:] + r.stderr[-4000:])
