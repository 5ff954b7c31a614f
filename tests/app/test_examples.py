"""Every gallery example runs without edits and shows something in every pane that applies."""
import time
from pathlib import Path

import numpy as np
import pytest

from app import analysis, examples

ROOT = Path(__file__).resolve().parents[2]

EXPECTED = {
    "jnp_basics_and_immutability", "grad_value_and_grad_has_aux", "jvp_and_vjp", "jacobians_and_hessian",
    "jit_selu_timing", "static_args_and_control_flow", "jaxpr_inspection", "vmap_in_axes",
    "vmap_batching_comparison", "random_keys_and_split", "pytrees", "lax_control_flow",
    "linear_regression_pytree", "mlp_sin", "pmap_data_parallel", "custom_jvp_check",
}
# flax/optax/equinox, unmodified (tests/ecosystem/install.py; the page loads them on first import)
ECOSYSTEM = {"flax_nnx_mlp_sin", "equinox_fit"}


def test_gallery_covers_the_seed_tutorials():
    assert set(examples.names()) == EXPECTED | ECOSYSTEM
    for ex in examples.all_examples():
        assert ex.title and ex.about and ex.function, ex.name
    with pytest.raises(KeyError):
        examples.load("../secrets")


@pytest.mark.parametrize("name", sorted(ECOSYSTEM))
def test_ecosystem_example_trains_and_plots_its_loss_curve(ecosystem_importable, name):
    test_example_runs_cleanly_and_fills_the_panes(name)
    a = analysis.analyse(examples.load(name).code, "loss_curve", "steps", with_timing=False)
    assert a.plot_kind == "elementwise" and len(a.plot["f"]) == 200
    losses = np.asarray(a.plot["f"])
    assert losses[-1] < 0.01 * losses[0], losses[::50]  # adam on sin data: the loss falls by 100x


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_runs_cleanly_and_fills_the_panes(name):
    ex = examples.load(name)
    t0 = time.perf_counter()
    a = analysis.analyse(ex.code, ex.function, ex.args, with_timing=False)
    elapsed = time.perf_counter() - t0
    assert a.run.error is None, f"{name}: {a.run.error.headline()}\n{a.run.error.traceback}"
    assert a.run.stdout.strip(), name
    assert a.function is not None and a.function.name == ex.function
    assert a.args_error is None, a.args_error
    assert a.jaxprs["f"].error is None, a.jaxprs["f"].error
    # JAX hoists a sub-jaxpr used twice (e.g. jax.nn.relu's jit) as `let relu = {...} in`
    assert a.jaxprs["f"].text.startswith(("{ lambda", "let "))
    assert a.jaxprs["jit"].error is None, a.jaxprs["jit"].error
    assert a.vmap and a.vmap.get("error") is None
    assert elapsed < 60, f"{name} took {elapsed:.1f}s"
