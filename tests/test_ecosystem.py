"""optax, chex, equinox and flax, installed unmodified from PyPI without jax/jaxlib, run on
gradpad's engine; their workloads (tests/ecosystem/workloads.py) must give the values real JAX
0.10.2 gave (tests/ecosystem/ecosystem_golden.json, written by tests/ecosystem/record.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent / "ecosystem"
sys.path.insert(0, str(HERE))
from install import FORBIDDEN, ensure_installed, installed_distributions  # noqa: E402

GOLDEN = json.loads((HERE / "ecosystem_golden.json").read_text())
RTOL, ATOL = 2e-5, 1e-6

RUNNER = """
import json, sys
import core; core.install_as_jax()
import jax
assert 'gradpad' in jax.__version__, jax.__version__
sys.path.insert(0, {here!r})
from workloads import run_all
print(json.dumps(run_all()))
"""


@pytest.fixture(scope="module")
def target():
    return ensure_installed()


@pytest.fixture(scope="module")
def results(target):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", RUNNER.format(here=str(HERE))], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_no_real_jax_installed(target):
    assert not (installed_distributions(target) & set(FORBIDDEN))
    assert not (target / "jax").exists() and not (target / "jaxlib").exists()
    assert {"optax", "chex", "equinox", "flax"} <= installed_distributions(target)


@pytest.mark.parametrize("name", sorted(GOLDEN["results"]))
def test_workload_matches_real_jax(results, name):
    got, want = results[name], GOLDEN["results"][name]
    assert "error" not in got, got.get("error")
    assert sorted(got) == sorted(want)
    for key, w in want.items():
        g = got[key]
        assert (g["shape"], g["dtype"]) == (w["shape"], w["dtype"]), key
        np.testing.assert_allclose(np.asarray(g["value"], dtype=np.float64), np.asarray(w["value"], dtype=np.float64),
                                   rtol=RTOL, atol=ATOL, err_msg=f"{name}[{key!r}]")
