"""Check engine results against JAX results encoded as JSON (recorded from real JAX 0.10.2).

Used by the hand-written JAX-comparison tests (control flow, pmap): each case is a snippet that
sets `out`, and an expected value as `{"dtype", "weak", "shape", "v"}`, a list of those, an int,
a jaxpr string, or `{"error": "<builtin exception class>"}`."""
import builtins
import json

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax


def check(got, exp, path="out"):
    """Compare our result with the encoded JAX result: containers, dtype, weak type, shape,
    values (rtol 1e-5), jaxpr text exactly."""
    if isinstance(exp, str):
        assert str(got) == exp, f"{path}: jaxpr text differs\n--- ours\n{got}\n--- JAX\n{exp}"
    elif isinstance(exp, list):
        assert isinstance(got, (tuple, list)) and len(got) == len(exp), f"{path}: {got!r}"
        for i, (g, e) in enumerate(zip(got, exp)):
            check(g, e, f"{path}[{i}]")
    elif isinstance(exp, int):
        assert got == exp, f"{path}: {got} != {exp}"
    else:
        a = np.asarray(got)
        assert str(a.dtype) == exp["dtype"], f"{path}: dtype {a.dtype} != {exp['dtype']}"
        assert list(a.shape) == exp["shape"], f"{path}: shape {a.shape} != {exp['shape']}"
        assert bool(getattr(got, "weak_type", False)) == exp["weak"], f"{path}: weak_type differs"
        np.testing.assert_allclose(a, np.asarray(exp["v"], a.dtype), rtol=1e-5, atol=1e-6, err_msg=path)


def run(code):
    env = {"jax": jax, "jnp": jnp, "lax": lax, "np": np}
    exec(code, env)
    return env["out"]


def run_case(code, expected):
    exp = json.loads(expected)
    if isinstance(exp, dict) and "error" in exp:
        with pytest.raises(getattr(builtins, exp["error"])):
            run(code)
        return
    check(run(code), exp)
