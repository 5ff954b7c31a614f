"""grad / vjp / linearize of a jit that calls a jit whose body holds a cond or a scan (diffrax's
diffeqsolve is such a nest: eqx.filter_jit around cond and custom_vjp): the outer jit's split into
a primal call and a linear call must look into the inner jit's body (core/_engine/primitives/call.py
`splits_statically`). It did not: value_and_grad(jit(f)) returned a leaked tracer as the value
(cond), or grad raised "Transpose rule for 'sin' not implemented" (scan). Values from real JAX 0.10.2."""
import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax


def inner_cond(y):
    return lax.cond(y > 0, jnp.sin, jnp.cos, y) * 2.0


def inner_scan(y):
    return lax.scan(lambda c, _: (jnp.sin(c) * y, None), y, None, length=3)[0]


# JAX 0.10.2: (value, gradient) of jit(lambda x: jit(inner)(x) + 1.0) at 0.5
EXPECTED = {inner_cond: (1.9588511, 1.7551651), inner_scan: (1.0592166, 0.45773047)}


@pytest.mark.parametrize("inner", [inner_cond, inner_scan], ids=["cond", "scan"])
def test_value_and_grad_through_nested_jits(inner):
    f = jax.jit(lambda x: jax.jit(inner)(x) + 1.0)
    value, grad = EXPECTED[inner]
    v, g = jax.value_and_grad(f)(0.5)
    assert isinstance(v, jax.Array) and isinstance(g, jax.Array), (type(v), type(g))  # no tracer leaks out
    np.testing.assert_allclose([float(v), float(g)], [value, grad], rtol=1e-6)
    out, f_vjp = jax.vjp(f, 0.5)
    np.testing.assert_allclose([float(out), float(f_vjp(1.0)[0])], [value, grad], rtol=1e-6)
    out, f_lin = jax.linearize(f, 0.5)
    np.testing.assert_allclose([float(out), float(f_lin(1.0))], [value, grad], rtol=1e-6)
