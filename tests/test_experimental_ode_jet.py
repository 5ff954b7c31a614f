"""What the golden files cannot hold (JAX's text differs, or JAX has no answer): jet's error for a
primitive it has no rule for, custom_vmap's check of a rule's output shapes, grad through a
custom_vmap function (JAX 0.10.2 cannot linearize it), and odeint's derivative w.r.t. y0 against a
finite difference."""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core.custom_batching import custom_vmap
from core.experimental.jet import jet
from core.experimental.ode import odeint


def test_jet_names_the_primitive_it_has_no_rule_for():
    with pytest.raises(NotImplementedError, match="no Taylor rule for the primitive 'sort'"):
        jet(jnp.sort, (jnp.ones(2),), ([jnp.ones(2)],))


def test_jet_says_how_series_must_look():
    with pytest.raises(ValueError, match="1 primals but 2 series"):
        jet(jnp.sin, (1.,), ([1.], [2.]))
    with pytest.raises(TypeError, match=r"series\[0\] must be a list of Taylor terms"):
        jet(jnp.sin, (1.,), (1.,))


def test_jet_third_derivative_of_exp_sin():
    # d^3/dt^3 exp(sin(t)) at t = 0.7, along x(t) = t
    p, terms = jet(lambda v: jnp.exp(jnp.sin(v)), (0.7,), ([1., 0., 0.],))
    t = 0.7
    s, c = np.sin(t), np.cos(t)
    third = np.exp(s) * (c ** 3 - 3 * s * c - c)
    np.testing.assert_allclose(float(terms[2]), third, rtol=1e-5)


def test_custom_vmap_rule_with_a_wrong_output_shape_is_refused():
    @custom_vmap
    def f(x):
        return x * 2

    @f.def_vmap
    def rule(axis_size, in_batched, x):
        return x.sum(), True   # claims batched, but has no batch axis
    with pytest.raises(ValueError, match=r"returned an output of shape \(\) marked batched, but it should have shape \(3,\)"):
        jax.vmap(f)(jnp.ones(3))


def test_custom_vmap_closing_over_a_mapped_value_says_to_pass_it():
    # (JAX 0.10.2 fails here with a bare AssertionError)
    def outer(c):
        @custom_vmap
        def f(x):
            return x * c

        @f.def_vmap
        def rule(axis_size, in_batched, x):
            return x * c, in_batched[0]
        return f(1.0)
    with pytest.raises(NotImplementedError, match="closes over a value that an enclosing vmap maps"):
        jax.vmap(outer)(jnp.arange(3.))


def test_grad_through_custom_vmap_differentiates_the_body():
    @custom_vmap
    def f(x):
        return jnp.sin(x)

    @f.def_vmap
    def rule(axis_size, in_batched, x):
        return jnp.sin(x), in_batched[0]
    np.testing.assert_allclose(float(jax.grad(f)(0.4)), np.cos(0.4), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jax.grad(lambda x: jax.vmap(f)(x).sum())(jnp.array([0.1, 0.2]))),
                               np.cos([0.1, 0.2]), rtol=1e-6)


def test_odeint_gradient_matches_a_finite_difference_in_float64():
    jax.config.update("jax_enable_x64", True)
    try:
        t = jnp.linspace(0., 3., 4)

        def loss(y0, k):
            ys = odeint(lambda y, t, k: jnp.stack([y[1], -k * jnp.sin(y[0])]), y0, t, k)
            return (ys[:, 0] ** 2).sum()
        y0, k = jnp.array([1.0, 0.0]), 2.0
        g_y0, g_k = jax.grad(loss, (0, 1))(y0, k)
        eps = 1e-6
        fd_k = (loss(y0, k + eps) - loss(y0, k - eps)) / (2 * eps)
        fd_y = (loss(y0 + jnp.array([eps, 0.]), k) - loss(y0 - jnp.array([eps, 0.]), k)) / (2 * eps)
        np.testing.assert_allclose(float(g_k), float(fd_k), rtol=1e-5)
        np.testing.assert_allclose(float(g_y0[0]), float(fd_y), rtol=1e-5)
    finally:
        jax.config.update("jax_enable_x64", False)


def test_rnn_lstm_computes_lstm_ref_on_the_flat_weights():
    # JAX's lstm is cuDNN only (on CPU, JAX 0.10.2 fails); gradpad's runs the reference recurrence
    from core.experimental import rnn
    x = jnp.sin(jnp.arange(24.).reshape(2, 4, 3))
    h0 = c0 = jnp.zeros((2, 2, 5))
    lens = jnp.array([4, 2], jnp.int32)
    w = rnn.init_lstm_weight(jax.random.key(1), 3, 5, 1, True)
    y, h, c = rnn.lstm(x, h0, c0, w, lens, 3, 5, 1, 0.0, True)
    y2, h2, c2 = rnn.lstm_ref(x, h0, c0, *rnn.unpack_lstm_weights(w, 3, 5, 1, True), lens, 3, 5, 1, 0.0, True)
    assert y.shape == (2, 4, 10) and h.shape == (2, 2, 5)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(y2))
    assert float(jnp.abs(y[1, 2:]).max()) == 0.0  # past the second sequence's length
    with pytest.raises(NotImplementedError, match="dropout=0.5"):
        rnn.lstm(x, h0, c0, w, lens, 3, 5, 1, 0.5, True)


def test_experimental_random_says_why_it_is_missing():
    import importlib
    jax.install_as_jax()
    with pytest.raises(ModuleNotFoundError, match="does not implement it yet: its StatefulPRNG keeps its counter in a "
                                                  "mutable jax.Ref"):
        importlib.import_module("jax.experimental.random")
