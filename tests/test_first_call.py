"""The first call of a jitted function (issue 15): work a first call does not need is not done,
and what it skips still behaves as JAX's."""
import inspect

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import api


def test_jit_reads_the_signature_only_when_static_arguments_or_an_error_need_it(monkeypatch):
    calls = []
    real = inspect.signature
    monkeypatch.setattr(api.inspect, "signature", lambda f: calls.append(f) or real(f))

    def f(x, name):
        return x * 2

    # jax.jit(f)(jnp.ones(2), 3.0) -> [6., 6.]: no static arguments, no signature read
    np.testing.assert_array_equal(jax.jit(f)(jnp.ones(2), 3.0), [2.0, 2.0])
    assert calls == []
    # JAX 0.10.2: jax.jit(f, static_argnames="name")(x, name=1) makes `name` (position 1) static
    g = jax.jit(f, static_argnames="name")
    assert g.static_argnums == (1,) and calls == [f]
    # JAX 0.10.2: jax.jit(f)(jnp.ones(2), "a") raises TypeError "... passed to the function at
    # path name." (the parameter's name, from the signature)
    with pytest.raises(TypeError, match="at path name\\."):
        jax.jit(f)(jnp.ones(2), "a")


def test_bad_argument_under_varargs_is_named_as_jax_names_it():
    def g(x, *rest):
        return x
    # JAX 0.10.2: jax.jit(g)(jnp.ones(2), 1.0, "b") -> "... at path rest[1]."
    with pytest.raises(TypeError, match="at path rest\\[1\\]\\."):
        jax.jit(g)(jnp.ones(2), 1.0, "b")
