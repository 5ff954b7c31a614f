"""jax.example_libraries on gradpad against results recorded from real JAX 0.10.2
(tests/golden/example_libraries.json, written by tools/record_example_libraries.py): optimizers'
trajectories (six jitted steps of each optimizer and schedule on a small quadratic, four eager sm3
steps) and stax networks' output shapes and outputs from seeded initialisations (an MLP, a CNN with
batch norm and pooling, a residual fan-out/fan-in, dropout, transposed convolutions)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "example_libraries.json").read_text())


@pytest.fixture(scope="module")
def ours():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "record_example_libraries.py"), "g"],
                       capture_output=True, text=True, check=True, cwd=str(ROOT))
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(GOLDEN["results"]["optimizers"]))
def test_optimizer_trajectory_matches_jax(ours, name):
    want, got = GOLDEN["results"]["optimizers"][name], ours["optimizers"][name]
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(GOLDEN["results"]["stax"]))
def test_stax_network_matches_jax(ours, name):
    want, got = GOLDEN["results"]["stax"][name], ours["stax"][name]
    assert got[0] == want[0]  # output shape from init_fun
    np.testing.assert_allclose(np.asarray(got[1]), np.asarray(want[1]), rtol=1e-5, atol=1e-6)


def test_state_is_a_pytree_and_round_trips():
    import core
    core.install_as_jax()
    from core.example_libraries import optimizers as O
    import core.numpy as jnp
    init, update, get = O.adam(0.1)
    st = init({"w": jnp.ones(2), "b": jnp.zeros(())})
    assert len(core.tree_util.tree_leaves(st)) == 6  # (x, m, v) per parameter leaf
    packed = O.pack_optimizer_state(O.unpack_optimizer_state(st))
    assert core.tree_util.tree_structure(packed) == core.tree_util.tree_structure(st)
    with pytest.raises(TypeError, match="did not match the parameter tree structure"):
        update(0, {"w": jnp.ones(2)}, st)
