"""A jitted optimizer step in optax's shape (a params dict, NamedTuple states, None and empty
states, a Python-scalar learning rate) takes the jit fast path and the compiler's ufunc and
specialised forms (core/_engine/backends/cpu_ufuncs.py, cpu_special.py), and gives, bit for bit, what the
general path and the interpreted first call give: values, dtypes, weak types, structure."""
from typing import NamedTuple

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core._engine.api import api
from core import lax
from core.tree_util import register_pytree_node, tree_flatten, tree_map, tree_structure


@pytest.fixture
def cpu_only(monkeypatch):
    """No accelerator hook (a WebGPU test earlier in the session may have left one installed)."""
    from core._engine.base.devices import dispatch_hooks
    monkeypatch.setattr(dispatch_hooks, "eager", None)
    monkeypatch.setattr(dispatch_hooks, "jit", None)


class ScaleByAdamState(NamedTuple):   # optax's adam state
    count: object
    mu: object
    nu: object


class EmptyState(NamedTuple):   # optax's state of a stateless transform
    pass


def _params():
    rng = np.random.default_rng(0)
    return {"layer0": {"w": jnp.asarray(rng.standard_normal((3, 8)).astype(np.float32)), "b": jnp.zeros(8)},
            "layer1": {"w": jnp.asarray(rng.standard_normal((8, 1)).astype(np.float32)), "b": jnp.zeros(1)}}


_X = np.random.default_rng(1).standard_normal((16, 3)).astype(np.float32)


def _loss(p):
    h = jnp.tanh(_X @ p["layer0"]["w"] + p["layer0"]["b"])
    out = h @ p["layer1"]["w"] + p["layer1"]["b"]
    # p[...][0]: a slice, a squeeze, and in the gradient a pad
    return jnp.mean((out - 1.0) ** 2) + 0.1 * p["layer0"]["b"][0] ** 2


def _init(params):
    zeros = tree_map(jnp.zeros_like, params)
    return (ScaleByAdamState(jnp.zeros((), jnp.int32), zeros, zeros), None, EmptyState())


def _step(params, state, lr):
    """optax.adam's update as optax writes it (moments with `g ** order`, a safe count increment,
    bias corrections by `decay ** count`), then apply_updates."""
    adam, nothing, empty = state
    loss, grads = jax.value_and_grad(_loss)(params)
    mu = tree_map(lambda g, m: 0.1 * g ** 1 + 0.9 * m, grads, adam.mu)
    nu = tree_map(lambda g, v: 0.001 * g ** 2 + 0.999 * v, grads, adam.nu)
    count = jnp.where(adam.count < np.iinfo(np.int32).max, adam.count + 1, np.iinfo(np.int32).max)
    mu_hat = tree_map(lambda m: m / (1 - 0.9 ** count), mu)
    nu_hat = tree_map(lambda v: v / (1 - 0.999 ** count), nu)
    updates = tree_map(lambda m, v: -lr * m / (jnp.sqrt(v + 0.0) + 1e-8), mu_hat, nu_hat)
    new = tree_map(lambda p, u: jnp.asarray(p + u).astype(jnp.asarray(p).dtype), params, updates)
    return new, (ScaleByAdamState(count, mu, nu), nothing, empty), loss


def _bits(tree):
    """Everything the results must agree on: structure, and per leaf dtype, weak type and bytes."""
    leaves, treedef = tree_flatten(tree)
    return treedef, [(x.dtype, x.weak_type, np.asarray(x).tobytes()) for x in leaves]


def _first_calls(steps=4, lr=1e-2):
    """Each step the first call of a new jitted function: the interpreted impls, no generated code."""
    params, state = _params(), _init(_params())
    out = []
    for _ in range(steps):
        params, state, loss = jax.jit(lambda p, s, r: _step(p, s, r))(params, state, lr)
        out.append(_bits((params, state, loss)))
    return out


def test_optimizer_step_on_the_fast_path_matches_the_interpreted_first_calls_bit_for_bit(cpu_only):
    # jax.jit(step)(params, (ScaleByAdamState(...), None, EmptyState()), 1e-2) -> same structure back
    want = _first_calls()
    jf = jax.jit(lambda p, s, r: _step(p, s, r))
    params, state = _params(), _init(_params())
    for i in range(4):
        params, state, loss = jf(params, state, 1e-2)
        assert _bits((params, state, loss)) == want[i]
        assert type(state[0]) is ScaleByAdamState and state[1] is None and type(state[2]) is EmptyState
    assert len(jf._fast) == 1   # NamedTuple states and None leaves: the argument key was built
    jf._get = None   # warm calls need neither signature building nor the trace cache
    params, state, loss = jf(params, state, 1e-2)
    assert type(state[0]) is ScaleByAdamState and state[0].count.dtype == np.int32 and int(state[0].count) == 5


def test_optimizer_step_on_the_general_path_matches_the_fast_path_bit_for_bit(cpu_only, monkeypatch):
    want = _first_calls()
    monkeypatch.setattr(api, "_fast_key", lambda args, key, values: False)   # every call: tree_flatten, signature
    jf = jax.jit(lambda p, s, r: _step(p, s, r))
    params, state = _params(), _init(_params())
    for i in range(4):
        params, state, loss = jf(params, state, 1e-2)
        assert _bits((params, state, loss)) == want[i]
    assert len(jf._fast) == 0


def test_optimizer_step_with_a_static_learning_rate_and_donated_state(cpu_only):
    # jax.jit(step, static_argnums=2, donate_argnums=(0, 1)): the donated inputs are deleted after
    # each call, the values are the plain path's
    want = _first_calls()
    jf = jax.jit(lambda p, s, r: _step(p, s, r), static_argnums=2, donate_argnums=(0, 1))
    params, state = _params(), _init(_params())
    for i in range(4):
        old = tree_flatten((params, state))[0]
        params, state, loss = jf(params, state, 1e-2)
        assert _bits((params, state, loss)) == want[i]
        assert all(x.is_deleted() for x in old)


def test_a_registered_namedtuple_flattens_by_its_registration_on_the_fast_path(cpu_only):
    # jax.tree_util.register_pytree_node(Swapped, lambda s: ((s.b, s.a), None), ...): the
    # registration, not the NamedTuple fields, orders the leaves
    class Swapped(NamedTuple):
        a: object
        b: object
    register_pytree_node(Swapped, lambda s: ((s.b, s.a), None), lambda _, c: Swapped(c[1], c[0]))
    jf = jax.jit(lambda s: Swapped(s.a * 2, s.b - s.a))
    arg = Swapped(jnp.array([1.0, 2.0]), jnp.array([10.0, 20.0]))
    for _ in range(3):
        out = jf(arg)
        assert type(out) is Swapped
        np.testing.assert_array_equal(np.asarray(out.a), [2.0, 4.0])
        np.testing.assert_array_equal(np.asarray(out.b), [9.0, 18.0])
    assert tree_structure(out) == tree_structure(arg)


def test_fast_path_rebuilds_namedtuples_dicts_and_nones_in_place(cpu_only):
    # jax.jit(f)(x) with f returning {"b": ScaleByAdamState(...), "a": (None, EmptyState())}: keys
    # in tree_unflatten's (sorted) order, NamedTuple classes and weak types kept on every call
    f = jax.jit(lambda x: {"b": ScaleByAdamState(x.sum().astype(jnp.int32), {"y": x * 2, "x": 1.0}, None),
                           "a": (None, EmptyState())})
    x = jnp.arange(3.0)
    first = f(x)
    for _ in range(3):
        out = f(x)
        assert list(out) == list(first) == ["a", "b"] and list(out["b"].mu) == ["x", "y"]
        assert type(out["b"]) is ScaleByAdamState and out["b"].nu is None
        assert out["a"] == (None, EmptyState())
        assert out["b"].mu["x"].weak_type and not out["b"].mu["y"].weak_type
        assert _bits(out) == _bits(first)


def _quiet(x):
    return np.asarray(x)


# jitted functions whose generated code takes cpu_ufuncs' and cpu_special's forms; the first
# call interprets the impls, later calls run the generated code: the same bits
_FORMS = {
    "div by a scalar var f32": (lambda x, s: x / s, (np.float32, (5,)), (np.float32, ())),
    "div by a scalar var f64": (lambda x, s: x / s, (np.float64, (5,)), (np.float64, ())),
    "div by a scalar c64": (lambda x, s: x / s, (np.complex64, (4,)), (np.complex64, ())),
    "div by a row": (lambda x, s: x / s, (np.float32, (3, 4)), (np.float32, (1, 4))),
    "div by a literal": (lambda x, s: x / 3.0 + s, (np.float32, (5,)), (np.float32, ())),
    "two divs share a reciprocal": (lambda x, s: (x / s, (x + 1) / s), (np.float32, (5,)), (np.float32, ())),
    "div of one shape": (lambda x, s: x / (x + s), (np.float32, (5,)), (np.float32, (5,))),
    "div f16 by a scalar": (lambda x, s: x / s, (np.float16, (5,)), (np.float16, ())),
    "div int": (lambda x, s: x // s + lax.div(x, s), (np.int32, (5,)), (np.int32, ())),
    "scalar div": (lambda x, s: x.sum() / s, (np.float32, (5,)), (np.float32, ())),
    "x ** 1, x ** 2, x ** 3": (lambda x, s: (x ** 1 + s, x ** 2, x ** 3, s ** 2), (np.float32, (5,)), (np.float32, ())),
    "int x ** 2": (lambda x, s: x ** 2 + s ** 2, (np.int32, (5,)), (np.int32, ())),
    "pow by an int count": (lambda x, s: (0.9 ** s, x ** s), (np.float32, (5,)), (np.int32, ())),
    "pow f32": (lambda x, s: (jnp.abs(x) ** s, s ** 0.5), (np.float32, (5,)), (np.float32, ())),
    "pow f64": (lambda x, s: jnp.abs(x) ** s, (np.float64, (5,)), (np.float64, ())),
    "slice, squeeze, pad": (lambda x, s: jax.grad(lambda v: v[2] * s + v[1:4:2].sum() ** 2)(x),
                            (np.float32, (6,)), (np.float32, ())),
    "pad 2-d": (lambda x, s: lax.pad(x, s, ((1, 2, 0), (0, 1, 0))), (np.float32, (2, 3)), (np.float32, ())),
    "pad negative and interior": (lambda x, s: lax.pad(x, s, ((-1, 2, 1), (1, -1, 0))), (np.float32, (3, 3)),
                                  (np.float32, ())),
    "scalar select": (lambda x, s: jnp.where(s < 3, s + 1, s) * 2, (np.int32, (2,)), (np.int32, ())),
    "scalar select of arrays": (lambda x, s: jnp.where(s < 0, x, -x), (np.float32, (4,)), (np.float32, ())),
    "array select": (lambda x, s: jnp.where(x < s, x, s), (np.float32, (4,)), (np.float32, ())),
    "scalar input read by scalar operators only": (lambda x, s: x * (s / 3.0 - s), (np.float32, (3,)),
                                                    (np.float32, ())),
    "int scalar input wraps": (lambda x, s: (s * 1000003 * 1000003, -s, x + s), (np.int32, (2,)), (np.int32, ())),
    "uint scalar negation": (lambda x, s: (lax.neg(s), x - s), (np.uint32, (2,)), (np.uint32, ())),
    "scalar negation and a folded 0-d constant": (lambda x, s: -(jnp.asarray(3.0) * 2 * s) + x,
                                                   (np.float32, (3,)), (np.float32, ())),
    "scalar input returned as it is": (lambda x, s: (s, s + 1), (np.float32, (3,)), (np.float32, ())),
    # small broadcasts of constants fold (optax's global norm squares a real array's zero
    # imaginary part); large ones stay runtime ops
    "global norm of a real array": (lambda x, s: jnp.sqrt(jnp.sum(jnp.real(x) ** 2 + jnp.imag(x) ** 2)) * s,
                                    (np.float32, (4, 3)), (np.float32, ())),
    "sums of broadcast constants": (lambda x, s: (jnp.sum(jnp.full((7, 3), 0.1)) + s, jnp.full(5000, 0.1).sum() * s,
                                                  jnp.mean(jnp.full((3, 3), 0.7), axis=0) * s), (np.float32, (2,)),
                                    (np.float32, ())),
    "broadcasts read by selects and returned": (
        lambda x, s: (jnp.where(x > 0, jnp.broadcast_to(s, x.shape), x), jnp.broadcast_to(x[0], (2, 3, 4)),
                      lax.broadcast_in_dim(x[:, 1], (3, 5), (0,)), jnp.broadcast_to(s, (70, 70)) + 0 * s,
                      jnp.where(x[0] > 0, jnp.broadcast_to(s, (1, 4)), x[:1])),
        (np.float32, (3, 4)), (np.float32, ())),
    # cpu_special's one-expression forms (a leapfrog step's scalar ops), random operands
    "scalar int conversions and bit ops": (
        lambda x, s: (lax.convert_element_type(s, jnp.uint32), lax.convert_element_type(s * 70001, jnp.int8),
                      lax.convert_element_type(s, jnp.float32), lax.convert_element_type(s > 0, jnp.float32),
                      lax.shift_right_logical(s, 3), lax.shift_right_arithmetic(s, 2), lax.population_count(s),
                      x + s), (np.int32, (2,)), (np.int32, ())),
    "scalar logistic, stack, squeeze and sum": (
        lambda x, s: (jax.nn.sigmoid(s), jnp.stack([s, s * 2.0]), x.reshape(1, 3)[0] * s, jnp.sum(x * s),
                      jnp.exp(s), jnp.log(jnp.abs(s)), jnp.log1p(jnp.abs(s))), (np.float32, (3,)), (np.float32, ())),
    "returned broadcast constants": (lambda x, s: (jnp.zeros(3), jnp.zeros_like(x) + s, jnp.ones((2, 2)) * 2),
                                     (np.float32, (3,)), (np.float32, ())),
}


def _operand(rng, dtype, shape):
    v = rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind in "iu":
        v = np.where(v == 0, 1, np.round(np.abs(v) if np.dtype(dtype).kind == "u" else v))
    return jnp.asarray(np.asarray(v).astype(dtype))


@pytest.mark.parametrize("name", sorted(_FORMS))
def test_generated_forms_give_the_impls_bits(name, cpu_only):
    f, (dx, sx), (ds, ss) = _FORMS[name]
    rng = np.random.default_rng(3)
    for trial in range(3):
        x, s = _operand(rng, dx, sx), _operand(rng, ds, ss)
        jf = jax.jit(lambda a, b: f(a, b))
        first = _bits(jf(x, s))   # interpreted
        assert _bits(jf(x, s)) == first == _bits(jf(x, s))   # generated code


def test_folded_broadcast_outputs_are_arrays_of_their_own(cpu_only):
    # jax.jit(lambda x: (jnp.zeros(3), jnp.full((2, 2), 0.5) * 2, x))(x): folded small broadcasts
    # come back with their values, dtypes and weak types on every call (JAX: f32 strong, f32 weak)
    jf = jax.jit(lambda x: (jnp.zeros(3), jnp.full((2, 2), 0.5) * 2, x))
    x = jnp.arange(2.0)
    for _ in range(3):
        z, h, _ = jf(x)
        assert np.asarray(z).tolist() == [0.0] * 3 and np.asarray(h).tolist() == [[1.0, 1.0], [1.0, 1.0]]
        assert (z.dtype, h.dtype) == (np.float32, np.float32)
        assert not z.weak_type and h.weak_type


def test_generated_code_calls_no_division_or_power_impl(cpu_only, monkeypatch):
    # the step's divisions and powers run as ufuncs in the generated code: their impls (errstate,
    # dtype checks, temporaries per call) are never called after the first call
    from core._engine.primitives.elementwise import div_p, integer_pow_p, pow_p
    from core._engine.tracing.rules import impl_rules
    calls = []
    for p in (div_p, integer_pow_p, pow_p):
        impl = impl_rules[p]
        monkeypatch.setitem(impl_rules, p, lambda *a, _impl=impl, _p=p, **k: calls.append(_p) or _impl(*a, **k))
    jf = jax.jit(lambda p, s, r: _step(p, s, r))
    params, state = _params(), _init(_params())
    params, state, _ = jf(params, state, 1e-2)   # first call: the impls
    assert calls
    calls.clear()
    for _ in range(2):
        params, state, _ = jf(params, state, 1e-2)
    assert calls == []
