"""Derivative and batching checks for EVERY primitive with a rule.

* jvp (forward mode) against central finite differences, in float64 (x64 on);
* vjp (reverse mode, i.e. linearize + the transpose rules) against the same numbers, through
  the identity <ct, J t> = <J^T ct, t>;
* vmap (the batching rules) against a Python loop over the examples, stacked.

`SPECS` names one small program per primitive (by the primitive's name). The tests iterate over
`core._engine.tracing.rules.jvp_rules` and `core._engine.tracing.rules.batch_rules`, so adding a primitive with a rule but no
spec here fails `test_every_primitive_has_a_spec`; each spec is also checked to really bind
its primitive. Kinds: "smooth" (finite-difference checks), "zero" (derivative is zero
everywhere it exists: tangents must be zero), "fwd" (forward mode only: reverse mode of
`while` is an error in JAX too), "rev" (reverse mode only: custom_vjp).
"""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
import core.debug  # noqa: F401  (these register primitives: load every one up front)
import core._engine.api.pmap_api  # noqa: F401
import core.experimental  # noqa: F401  (io_callback)
import core.ad_checkpoint  # noqa: F401  (checkpoint_name)
from core import lax
from core._engine.tracing.jaxpr import ClosedJaxpr, Jaxpr
from core._engine.primitives import elementwise as ew, reductions as red, structural as st
from core._engine.primitives.random_bits import threefry2x32_p
from core._engine.tracing.rules import batch_rules, jvp_rules
from core._engine.tracing.tracing import Primitive


def U(lo, hi, shape=(3,)):
    return lambda r: r.uniform(lo, hi, shape)


def I(lo, hi, shape=(3,)):
    return lambda r: r.integers(lo, hi, shape).astype(np.int64)


def distinct(shape=(3,)):
    return lambda r: r.permutation(int(np.prod(shape))).reshape(shape) * 0.37 + r.uniform(0, 0.1, shape)


def key():
    return lambda r: np.array([0, int(r.integers(0, 1000))], np.uint32)


_S = (2, 3)
x3 = U(-1.5, 1.5)
pos = U(0.5, 2.0)


def _gather(x):
    return x[jnp.array([2, 0, 2])]


@jax.custom_jvp
def _custom_sin(x):
    return jnp.sin(x)


@_custom_sin.defjvp
def _custom_sin_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _custom_sin(x), jnp.cos(x) * t


@jax.custom_vjp
def _custom_sin_vjp(x):
    return jnp.sin(x)


_custom_sin_vjp.defvjp(lambda x: (jnp.sin(x), jnp.cos(x)), lambda cos_x, g: (cos_x * g,))


@jax.custom_batching.custom_vmap
def _custom_vmapped_sin(x):
    return jnp.sin(x)


@_custom_vmapped_sin.def_vmap
def _custom_vmapped_sin_rule(axis_size, in_batched, x):
    return jnp.sin(x), in_batched[0]


def _vmap_named(collective):
    return lambda x: jax.vmap(lambda y: collective(y, "i"), axis_name="i")(x)


def spd(n=3):
    """A well-conditioned symmetric positive definite matrix (distinct eigenvalues)."""
    def make(r):
        m = r.uniform(-1, 1, (n, n))
        return m @ m.T + np.diag(np.arange(1.0, n + 1)) * 1.5
    return make


def lower_tri(n=3):
    return lambda r: np.tril(r.uniform(-1, 1, (n, n))) + np.eye(n) * 2.5


# name -> (kind, fn, [arg makers])
SPECS = {
    # decompositions (core/_engine/primitives/linalg.py)
    "lu": ("smooth", lambda a: lax.linalg.lu(a)[0], [spd()]),
    "triangular_solve": ("smooth", lambda a, b: lax.linalg.triangular_solve(a, b, left_side=True, lower=True),
                         [lower_tri(), U(-1, 1, (3, 2))]),
    "cholesky": ("smooth", jnp.linalg.cholesky, [spd()]),
    # a diagonally dominant tridiagonal system (core/_engine/primitives/tridiagonal.py): all four operands
    "tridiagonal_solve": ("smooth", lambda dl, d, du, b: lax.linalg.tridiagonal_solve(
        jnp.asarray(dl).at[0].set(0.0), d, jnp.asarray(du).at[-1].set(0.0), b), [U(-1, 1, (4,)), U(3, 4, (4,)), U(-1, 1, (4,)), U(-1, 1, (4, 2))]),
    "qr": ("smooth", lambda a: jnp.concatenate([jnp.linalg.qr(a)[0].ravel(), jnp.linalg.qr(a)[1].ravel()]),
           [lambda r: r.uniform(-1, 1, (3, 2)) + np.array([[3.0, 0], [0, 1.5], [0, 0]])]),
    # singular vectors (and eigenvectors) are defined up to sign: check their squares
    "svd": ("smooth", lambda a: jnp.concatenate([jnp.linalg.svd(a, compute_uv=False),
                                                 (jnp.linalg.svd(a, full_matrices=False)[0] ** 2).ravel(),
                                                 (jnp.linalg.svd(a, full_matrices=False)[2] ** 2).ravel()]),
            [lambda r: r.uniform(-1, 1, (3, 2)) + np.array([[3.0, 0], [0, 1.5], [0, 0]])]),
    "eigh": ("smooth", lambda a: jnp.concatenate([jnp.linalg.eigh(a)[0], (jnp.linalg.eigh(a)[1] ** 2).ravel()]),
             [spd()]),
    # eig (numpy area): eigenvalues of a matrix with distinct real ones (the eigenvectors' derivative refuses)
    "eig": ("smooth", lambda a: lax.convert_element_type(jnp.linalg.eigvals(a), np.float64), [lambda r: r.uniform(-0.3, 0.3, (3, 3)) + np.diag([1.0, 2.0, 3.5])]),
    # unary elementwise
    "neg": ("smooth", lax.neg, [x3]), "sin": ("smooth", lax.sin, [x3]), "cos": ("smooth", lax.cos, [x3]),
    "tan": ("smooth", lax.tan, [U(-1, 1)]), "asin": ("smooth", lax.asin, [U(-0.8, 0.8)]),
    "acos": ("smooth", lax.acos, [U(-0.8, 0.8)]), "atan": ("smooth", lax.atan, [x3]),
    "sinh": ("smooth", lax.sinh, [x3]), "cosh": ("smooth", lax.cosh, [x3]), "tanh": ("smooth", lax.tanh, [x3]),
    "asinh": ("smooth", lax.asinh, [x3]), "acosh": ("smooth", lax.acosh, [U(1.2, 3)]),
    "atanh": ("smooth", lax.atanh, [U(-0.8, 0.8)]), "exp": ("smooth", lax.exp, [x3]),
    "exp2": ("smooth", lax.exp2, [x3]), "expm1": ("smooth", lax.expm1, [x3]), "log": ("smooth", lax.log, [pos]),
    "log1p": ("smooth", lax.log1p, [U(-0.5, 2)]), "logistic": ("smooth", lax.logistic, [x3]),
    "sqrt": ("smooth", lax.sqrt, [pos]), "rsqrt": ("smooth", lax.rsqrt, [pos]), "cbrt": ("smooth", lax.cbrt, [pos]),
    "erf": ("smooth", lax.erf, [x3]), "erfc": ("smooth", lax.erfc, [x3]),
    "erf_inv": ("smooth", lax.erf_inv, [U(-0.8, 0.8)]), "lgamma": ("smooth", lax.lgamma, [U(0.5, 3)]),
    "abs": ("smooth", lax.abs, [U(0.3, 2)]), "square": ("smooth", jnp.square, [x3]),
    "integer_pow": ("smooth", lambda x: lax.integer_pow(x, 3), [x3]),
    "copy_p": ("smooth", lambda x: ew.copy_p.bind(x), [x3]),
    "convert_element_type": ("smooth", lambda x: ew.convert_element_type_p.bind(
        x, new_dtype=np.dtype(np.float64), weak_type=True, sharding=None), [x3]),
    "stop_gradient": ("zero", lax.stop_gradient, [x3]),
    "sign": ("zero", lax.sign, [x3]), "floor": ("zero", lax.floor, [U(0.1, 0.9)]),
    "ceil": ("zero", lax.ceil, [U(0.1, 0.9)]), "round": ("zero", lax.round, [U(0.1, 0.4)]),
    "is_finite": ("zero", lax.is_finite, [x3]),
    "bitcast_convert_type": ("zero", lambda x: lax.bitcast_convert_type(x, np.int64), [x3]),
    # binary elementwise
    "add": ("smooth", lax.add, [x3, x3]), "sub": ("smooth", lax.sub, [x3, x3]),
    "mul": ("smooth", lax.mul, [x3, x3]), "div": ("smooth", lax.div, [x3, pos]),
    "pow": ("smooth", lax.pow, [pos, x3]), "atan2": ("smooth", lax.atan2, [x3, pos]),
    "rem": ("smooth", lax.rem, [U(2.1, 2.9), U(1.0, 1.05)]),
    "max": ("smooth", lax.max, [U(0, 1), U(2, 3)]), "min": ("smooth", lax.min, [U(0, 1), U(2, 3)]),
    "add_any": ("smooth", lambda x, y: ew.add_any_p.bind(x, y), [x3, x3]),
    "clamp": ("smooth", lambda x: lax.clamp(-1.0, x, 1.0), [U(-0.9, 0.9)]),
    "select_n": ("smooth", lambda p, x, y: lax.select(p, x, y), [lambda r: r.uniform(size=3) > 0.5, x3, x3]),
    "eq": ("zero", lax.eq, [x3, x3]), "ne": ("zero", lax.ne, [x3, x3]), "lt": ("zero", lax.lt, [x3, x3]),
    "le": ("zero", lax.le, [x3, x3]), "gt": ("zero", lax.gt, [x3, x3]), "ge": ("zero", lax.ge, [x3, x3]),
    "and": ("zero", lax.bitwise_and, [I(0, 9), I(0, 9)]), "or": ("zero", lax.bitwise_or, [I(0, 9), I(0, 9)]),
    "xor": ("zero", lax.bitwise_xor, [I(0, 9), I(0, 9)]), "not": ("zero", lax.bitwise_not, [I(0, 9)]),
    "population_count": ("zero", lax.population_count, [I(0, 99)]),
    "shift_left": ("zero", lax.shift_left, [I(0, 9), I(0, 3)]),
    "shift_right_logical": ("zero", lax.shift_right_logical, [I(0, 99), I(0, 3)]),
    "shift_right_arithmetic": ("zero", lax.shift_right_arithmetic, [I(0, 99), I(0, 3)]),
    # structural
    "broadcast_in_dim": ("smooth", lambda x: lax.broadcast_in_dim(x, (2, 3), (1,)), [x3]),
    "reshape": ("smooth", lambda x: lax.reshape(x, (3, 2)), [U(-1, 1, _S)]),
    "transpose": ("smooth", lambda x: lax.transpose(x, (1, 0)), [U(-1, 1, _S)]),
    "squeeze": ("smooth", lambda x: lax.squeeze(x, (0,)), [U(-1, 1, (1, 3))]),
    "slice": ("smooth", lambda x: lax.slice(x, (0, 1), (2, 3)), [U(-1, 1, _S)]),
    "pad": ("smooth", lambda x, v: lax.pad(x, v, ((1, 2, 1),)), [x3, U(-1, 1, ())]),
    "concatenate": ("smooth", lambda x, y: lax.concatenate([x, y], 0), [x3, U(-1, 1, (2,))]),
    "rev": ("smooth", lambda x: lax.rev(x, (0,)), [x3]),
    "split": ("smooth", lambda x: lax.split(x, (1, 2), 0)[1], [x3]),
    "stack": ("smooth", lambda x, y: jnp.stack([x, y]), [x3, x3]),
    "unstack": ("smooth", lambda x: st.unstack_p.bind(x, axis=0)[1], [U(-1, 1, _S)]),
    "dynamic_slice": ("smooth", lambda x: lax.dynamic_slice(x, (jnp.array(1),), (2,)), [x3]),
    "dynamic_update_slice": ("smooth", lambda x, u: lax.dynamic_update_slice(x, u, (jnp.array(1),)),
                             [x3, U(-1, 1, (2,))]),
    "gather": ("smooth", _gather, [x3]),
    "scatter": ("smooth", lambda x, u: jnp.asarray(x).at[jnp.array([0, 2])].set(u), [x3, U(-1, 1, (2,))]),
    "scatter-add": ("smooth", lambda x, u: jnp.asarray(x).at[jnp.array([0, 2, 0])].add(u), [x3, x3]),
    "scatter-mul": ("smooth", lambda x, u: jnp.asarray(x).at[jnp.array([0, 2])].multiply(u), [x3, U(-1, 1, (2,))]),
    "scatter-min": ("smooth", lambda x, u: jnp.asarray(x).at[jnp.array([0, 2])].min(u), [U(0, 1), U(2, 3, (2,))]),
    "scatter-max": ("smooth", lambda x, u: jnp.asarray(x).at[jnp.array([0, 2])].max(u), [U(0, 1), U(2, 3, (2,))]),
    # reductions and scans
    "reduce_sum": ("smooth", lambda x: lax.reduce_sum(x, (1,)), [U(-1, 1, _S)]),
    "reduce_prod": ("smooth", lambda x: lax.reduce_prod(x, (1,)), [U(0.5, 1.5, _S)]),
    "reduce_max": ("smooth", lambda x: lax.reduce_max(x, (1,)), [distinct(_S)]),
    "reduce_min": ("smooth", lambda x: lax.reduce_min(x, (1,)), [distinct(_S)]),
    "reduce_and": ("zero", lambda x: lax.reduce_and(x > 0, (0,)), [x3]),
    "reduce_or": ("zero", lambda x: lax.reduce_or(x > 0, (0,)), [x3]),
    "reduce_xor": ("zero", lambda x: red.reduce_xor_p.bind(x, axes=(0,)), [I(0, 9)]),
    "argmax": ("zero", lambda x: lax.argmax(x, 0, np.int32), [distinct()]),
    "argmin": ("zero", lambda x: lax.argmin(x, 0, np.int32), [distinct()]),
    "cumsum": ("smooth", lambda x: lax.cumsum(x, 0), [x3]), "cumprod": ("smooth", lambda x: lax.cumprod(x, 0), [pos]),
    "cummax": ("smooth", lambda x: lax.cummax(x, 0), [distinct()]),
    "cummin": ("smooth", lambda x: lax.cummin(x, 0), [distinct()]),
    "sort": ("smooth", lambda x: lax.sort(x), [distinct()]),
    "top_k": ("smooth", lambda x: lax.top_k(x, 3)[0], [distinct()]),
    "dot_general": ("smooth", lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ()))),
                    [U(-1, 1, _S), U(-1, 1, (3, 2))]),
    # calls and control flow
    "jit": ("smooth", jax.jit(lambda x: jnp.sin(x) * x), [x3]),
    "cond": ("smooth", lambda p, x: lax.cond(p, jnp.sin, jnp.cos, x), [lambda r: np.bool_(r.uniform() > 0.5), x3]),
    "scan": ("smooth", lambda x: lax.scan(lambda c, a: (c * a + 1.0, c), x[0], x)[0], [x3]),
    "while": ("fwd", lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, jnp.sin(c[1])), (0, x))[1],
              [x3]),
    # collectives (under vmap with a named axis)
    "psum": ("smooth", _vmap_named(lax.psum), [x3]),
    "all_gather": ("smooth", _vmap_named(lax.all_gather), [x3]),
    "all_to_all": ("smooth", lambda x: jax.vmap(lambda y: lax.all_to_all(y, "i", 0, 0), axis_name="i")(x),
                   [U(-1, 1, (3, 3))]),
    # pmap's body (one virtual CPU device here)
    "shard_map": ("smooth", lambda x: jax.pmap(lambda y: jnp.sin(y) * y)(x[None])[0], [x3]),
    "custom_jvp_call": ("smooth", jax.jit(lambda x: _custom_sin(x) * x), [x3]),
    # complex numbers, through real-valued programs (finite differences run on real inputs)
    "complex": ("smooth", lambda x, y: lax.real(lax.complex(x, y) * lax.complex(y, x * x)), [x3, x3]),
    "real": ("smooth", lambda x: lax.real(jnp.exp(lax.complex(x, 0.5 * x))) + jnp.abs(lax.complex(x, 1.0)), [x3]),
    "imag": ("smooth", lambda x: lax.imag(jnp.exp(lax.complex(x, 0.5 * x))), [x3]),
    "conj": ("smooth", lambda x: lax.imag(lax.conj(lax.complex(x, x * x)) * lax.complex(x, 1.0)) + lax.real(lax.conj(x)),
             [x3]),
    # checkpointing: values unchanged, derivatives through recomputation (a policy saving dots)
    "remat2": ("smooth", jax.checkpoint(lambda x: jnp.sin(jnp.sin(x) @ jnp.ones((3, 3))) * x,
                                        policy=jax.checkpoint_policies.dots_saveable), [x3]),
    "name": ("smooth", jax.checkpoint(lambda x: jnp.sin(core.ad_checkpoint.checkpoint_name(jnp.cos(x), "c")),
                                      policy=jax.checkpoint_policies.save_only_these_names("c")), [x3]),
    "linear_call": ("smooth", lambda x: core.custom_derivatives.linear_call(
        lambda r, t: r * t, lambda r, ct: r * ct, jnp.array([0.5, -1.0, 2.0]), x), [x3]),
    "custom_vjp_call": ("rev", jax.jit(lambda x: _custom_sin_vjp(x) * x), [x3]),
    # jax.custom_batching: the function's own body differentiated; the rule maps it under vmap
    "custom_vmap_call": ("smooth", jax.jit(lambda x: _custom_vmapped_sin(x) * x), [x3]),
    # effects: no outputs of their own; the checks run through the value around them
    "debug_print": ("smooth", lambda x: (jax.debug.print("x={}", x), x * 2.0)[1], [x3]),
    "debug_callback": ("smooth", lambda x: (jax.debug.callback(lambda v: None, x), jnp.sin(x))[1], [x3]),
    # random bits: integer outputs, no derivative
    "threefry2x32": ("zero", lambda k, c: threefry2x32_p.bind(k[0], k[1], c[0], c[1])[0],
                     [key(), lambda r: r.integers(0, 99, (2, 3)).astype(np.uint32)]),
    "random_seed": ("zero", lambda s: jax.random.key_data(jax.random.key(s)), [lambda r: np.int64(r.integers(0, 9))]),
    "random_wrap": ("zero", lambda k: jax.random.key_data(jax.random.wrap_key_data(k)), [key()]),
    "random_unwrap": ("zero", lambda k: jax.random.key_data(jax.random.wrap_key_data(k)), [key()]),
    "random_split": ("zero", lambda k: jax.random.key_data(jax.random.split(jax.random.wrap_key_data(k))), [key()]),
    "random_fold_in": ("zero", lambda k: jax.random.key_data(jax.random.fold_in(jax.random.wrap_key_data(k), 3)),
                       [key()]),
    "random_bits": ("zero", lambda k: jax.random.bits(jax.random.wrap_key_data(k), (3,)), [key()]),
    # samples as a function of the key only (gradients with respect to `a` are not implemented;
    # test_random checks that they raise)
    "random_gamma": ("zero", lambda k: jax.random.gamma(jax.random.wrap_key_data(k), jnp.array([0.5, 2.0, 4.0])),
                     [key()]),
}

# ---- lax area (issue 11): convolutions, windows, solvers and the rest of jax.lax -------------
_SCATTER_DN = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                          scatter_dims_to_operand_dims=(0,))


def _linear_solve(a, b):
    return lax.custom_linear_solve(lambda x: a @ x, b, lambda mv, v: jnp.linalg.solve(a, v),
                                   lambda vm, v: jnp.linalg.solve(a.T, v))


_W1 = dict(window_dimensions=(2,), window_strides=(1,), padding=((0, 0),))
SPECS.update({
    "conv_general_dilated": ("smooth", lambda x, k: lax.conv_general_dilated(x, k, (2,), [(1, 1)], (2,), (2,)),
                             [U(-1, 1, (1, 2, 5)), U(-1, 1, (3, 2, 2))]),
    "reduce_window_sum": ("smooth", lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "SAME"),
                          [U(-1, 1, (3, 4))]),
    "reduce_window_max": ("smooth", lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 2), "SAME"),
                          [distinct((3, 4))]),
    "reduce_window_min": ("smooth", lambda x: lax.reduce_window(x, jnp.inf, lax.min, (2, 1), (1, 1), "VALID"),
                          [distinct((3, 4))]),
    "reduce_window": ("fwd", lambda x: lax.reduce_window(x, 1.0, lax.mul, (2,), (1,), "VALID"), [U(0.5, 1.5, (4,))]),
    "select_and_gather_add": ("smooth", lambda t, x: lax.select_and_gather_add_p.bind(
        t, x, select_prim=lax.ge_p, base_dilation=(1,), window_dilation=(1,), **_W1), [x3, distinct()]),
    "select_and_scatter_add": ("smooth", lambda s, x: lax.select_and_scatter_add_p.bind(
        s, x, select_prim=lax.ge_p, **_W1), [U(-1, 1, (2,)), distinct()]),
    "reduce": ("smooth", lambda x: lax.reduce(x, 1.0, lambda a, b: a * b, (1,)), [U(0.5, 1.5, _S)]),
    "scatter-sub": ("smooth", lambda x, u: lax.scatter_sub(x, jnp.array([[0], [2], [0]]), u, _SCATTER_DN), [x3, x3]),
    "reduce_precision": ("smooth", lambda x: lax.reduce_precision(x, 11, 52), [x3]),  # (float64 itself)
    "custom_linear_solve": ("smooth", _linear_solve, [spd(), x3]),
    "clz": ("zero", lax.clz, [I(0, 99)]), "mulhi": ("zero", lax.mulhi, [I(0, 99), I(0, 99)]),
    "complex": ("fwd", lax.complex, [x3, x3]),  # (complex outputs: reverse mode needs lax.real's rules)
    "tile": ("smooth", lambda x: lax.tile(x, (2, 3)), [U(-1, 1, (2, 2))]),
    "fft": ("fwd", lambda x: lax.fft(x, "RFFT", (4,)), [U(-1, 1, (2, 4))]),
    "approx_top_k": ("smooth", lambda x: lax.approx_max_k(x, 2)[0], [distinct()]),
    "optimization_barrier": ("smooth", lambda x: lax.optimization_barrier(x) * 2.0, [x3]),
    "dce_sink": ("smooth", lambda x: (lax.dce_sink(x), jnp.sin(x))[1], [x3]),
    "stage": ("smooth", lambda x: lax.stage_p.bind(x) * 2.0, [x3]),
    "sharding_constraint": ("smooth", lambda x: lax.sharding_constraint_p.bind(x, sharding=None), [x3]),
    "device_put": ("smooth", lambda x: lax.device_put_p.bind(x, devices=(None,), srcs=(None,),
                                                             copy_semantics=(None,))[0], [x3]),
    "copy": ("smooth", lambda x: lax.copy_p.bind(x), [x3]),
    "eq_to": ("zero", lambda x, y: lax.eq_to_p.bind(x, y), [x3, x3]),
    "le_to": ("zero", lambda x, y: lax.le_to_p.bind(x, y), [x3, x3]),
    "lt_to": ("zero", lambda x, y: lax.lt_to_p.bind(x, y), [x3, x3]),
    "ppermute": ("smooth", lambda x: jax.vmap(lambda y: lax.ppermute(y, "i", [(0, 1), (1, 2), (2, 0)]),
                                              axis_name="i")(x), [x3]),
})


# Batching-only primitives (no jvp rule), checked by the vmap test.
BATCH_ONLY = {
    "nextafter": ("zero", lax.nextafter, [x3, x3]),
    "cumlogsumexp": ("zero", lambda x: lax.cumlogsumexp(x, 0), [x3]),
    # not differentiable in JAX either (see test_pmax_is_not_differentiable)
    "pmax": ("zero", _vmap_named(lax.pmax), [distinct()]),
    "pmin": ("zero", _vmap_named(lax.pmin), [distinct()]),
}


# ---- issue 11, area "special": special-function primitives (core/_engine/primitives/special_functions.py,
# scipy_special.py). Arguments JAX refuses to differentiate (betainc's a and b, polygamma's m, expn's n)
# stay constants inside the function.
import core.scipy.special as _special  # noqa: E402  (registers the scipy-special primitives)


def _sp():
    return _special


SPECS.update({
    "igamma": ("smooth", lax.igamma, [U(0.5, 4), U(0.2, 5)]),
    "igammac": ("smooth", lax.igammac, [U(0.5, 4), U(0.2, 5)]),
    "regularized_incomplete_beta": ("smooth", lambda x: lax.betainc(jnp.float64(2.5), jnp.float64(1.5), x), [U(0.05, 0.95)]),
    "polygamma": ("smooth", lambda x: lax.polygamma(jnp.full(x.shape, 2.0, x.dtype), x), [U(0.5, 4)]),
    "digamma": ("smooth", lax.digamma, [U(0.5, 4)]),
    "bessel_i0e": ("smooth", lax.bessel_i0e, [x3]),
    "bessel_i1e": ("smooth", lax.bessel_i1e, [x3]),
    "dawsn": ("smooth", lambda x: _sp().dawsn(x), [U(-4, 4)]),
    "expi": ("smooth", lambda x: _sp().expi(x), [U(0.2, 5)]),
    "expn": ("smooth", lambda x: _sp().expn(3, x), [U(0.2, 5)]),
    "sici_si": ("smooth", lambda x: _sp().sici(x)[0], [U(0.2, 8)]),
    "sici_ci": ("smooth", lambda x: _sp().sici(x)[1], [U(0.2, 8)]),
    "spence": ("smooth", lambda x: _sp().spence(x), [U(0.1, 4)]),
    "owens_t": ("smooth", lambda h, a: _sp().owens_t(h, a), [U(-2, 2), U(-3, 3)]),
    "fresnel_s": ("smooth", lambda x: _sp().fresnel(x)[0], [U(-3, 3)]),
    "fresnel_c": ("smooth", lambda x: _sp().fresnel(x)[1], [U(-3, 3)]),
    # complex output: forward mode against complex finite differences
    "wofz": ("fwd", lambda x: _sp().wofz(x), [x3]),
})
BATCH_ONLY.update({
    "igamma_grad_a": ("zero", lax.igamma_grad_a, [U(0.5, 4), U(0.2, 5)]),
    "random_gamma_grad": ("zero", lax.random_gamma_grad, [U(0.5, 4), U(0.2, 5)]),
    "zeta": ("zero", lax.zeta, [U(1.5, 4), U(0.5, 3)]),
})
# ---- end of area "special" ------------------------------------------------------------------------


# ---- issue 11, area "special2": schur has no jvp in JAX either (batched: one kernel per matrix);
# rng_bit_generator batches by JAX's own rule (the batch's first key draws for all), which is not a
# loop over examples: the golden case lax_rng_bit_generator_transforms holds JAX's values for it.
import core.lax_linalg as _lax_linalg  # noqa: E402
BATCH_ONLY.update({
    "schur": ("zero", lambda a: _lax_linalg.schur(a)[0], [U(-1, 1, (3, 3))]),
})
# custom_lin (a custom_vjp function's linear part) has a batch rule only to raise JAX's "can't apply
# forward-mode autodiff (jvp) to a custom_vjp function" under jacfwd; golden suites10_jacfwd_of_*
BATCHED_AS_JAX_DOES = {"rng_bit_generator", "custom_lin"}
# issue 24: qr(mode='raw')'s geqrf has no derivative in JAX either; its batching is checked here
BATCH_ONLY.update({
    "geqrf": ("zero", lambda a: jnp.linalg.qr(a, mode="raw")[0], [U(-1, 1, (4, 3))]),
    # lineax's QR: Q of geqrf's reflectors applied to c (no derivative in JAX either)
    "ormqr": ("zero", lambda a, tau, c: _lax_linalg.ormqr(a, tau, c, transpose=True),
              [U(-1, 1, (4, 3)), U(0.5, 1.5, (3,)), U(-1, 1, (4, 2))]),
})
# ---- end of area "special2" -----------------------------------------------------------------------


# Primitives whose jvp rule refuses, with JAX's message (name -> (fn, message start)).
REFUSES_DIFFERENTIATION = {
    "pure_callback": (lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct((), np.float32), x),
                      "Pure callbacks do not support JVP."),
    "io_callback": (lambda x: jax.experimental.io_callback(np.sin, jax.ShapeDtypeStruct((), np.float32), x),
                    "IO callbacks do not support JVP."),
    # lax area (issue 11)
    "composite": (lax.composite(lambda x: x * 2.0, name="my.double"), "JVP rule for composite not implemented."),
}


def test_callbacks_refuse_differentiation():
    # JAX 0.10.2: jax.grad(lambda x: jax.pure_callback(np.sin, ShapeDtypeStruct((), f32), x))(1.)
    #   -> ValueError: Pure callbacks do not support JVP. Please use `jax.custom_jvp` ...
    for name, (f, message) in REFUSES_DIFFERENTIATION.items():
        with pytest.raises(ValueError, match=f"^{message}"):
            jax.grad(f)(np.float32(1.0))


def test_pmax_is_not_differentiable():
    # JAX 0.10.2: NotImplementedError: Differentiation rule for 'pmax' not implemented
    for name, f in (("pmax", lax.pmax), ("pmin", lax.pmin)):
        with pytest.raises(NotImplementedError, match=f"^Differentiation rule for '{name}' not implemented$"):
            jax.vmap(jax.grad(lambda x: f(x, "i")), axis_name="i")(jnp.arange(3.0))


@pytest.fixture(autouse=True)
def x64():
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", False)


def _names(table):
    """The engine's own primitives in a rule table (not ones user code defined with
    jax.extend.core.Primitive, which golden cases in the same process may have registered)."""
    return {p.name for p in table if type(p) is Primitive}


def test_every_primitive_has_a_spec():
    assert _names(jvp_rules) - set(SPECS) - set(REFUSES_DIFFERENTIATION) == set(), \
        "add a SPECS entry for these primitives"
    assert _names(batch_rules) - set(SPECS) - set(BATCH_ONLY) - set(REFUSES_DIFFERENTIATION) \
        - BATCHED_AS_JAX_DOES == set(), \
        "add a spec for these primitives"


def _args(spec, seed):
    r = np.random.default_rng(seed)
    return [m(r) for m in spec[2]]


def _prims_in(jaxpr, acc):
    for e in jaxpr.eqns:
        acc.add(e.primitive.name)
        for p in e.params.values():
            for j in (p if isinstance(p, tuple) else (p,)):
                if isinstance(j, (Jaxpr, ClosedJaxpr)):
                    _prims_in(j.jaxpr if isinstance(j, ClosedJaxpr) else j, acc)
    return acc


def _float_mask(args):
    return [np.asarray(a).dtype.kind == "f" for a in args]


def _restrict(fn, args, mask):
    """fn as a function of its float arguments only (the others stay fixed)."""
    def g(*fs):
        it = iter(fs)
        return fn(*[next(it) if m else a for a, m in zip(args, mask)])
    return g


# Primitives JAX gives no batching rule: vmap raises (JAX 0.10.2: jax.vmap of a linear_call ->
# NotImplementedError: Batching rule for 'linear_call' not implemented); test_no_batching_rule checks it.
NOT_BATCHED = {"linear_call"}
ALL = sorted((set(SPECS) | set(BATCH_ONLY)) - NOT_BATCHED)


@pytest.mark.parametrize("name", sorted(NOT_BATCHED))
def test_no_batching_rule(name):
    _, fn, makers = SPECS[name]
    batched = [np.stack([m(np.random.default_rng(s)) for s in range(2)]) for m in makers]
    with pytest.raises(NotImplementedError, match=f"^Batching rule for '{name}' not implemented$"):
        jax.vmap(fn)(*batched)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_spec_binds_its_primitive(name, monkeypatch):
    from core._engine.tracing.tracing import Primitive
    spec = SPECS[name]
    args = _args(spec, 0)
    bound = set()
    orig = Primitive.bind

    def spy(self, *a, **kw):
        bound.add(self.name)
        return orig(self, *a, **kw)
    monkeypatch.setattr(Primitive, "bind", spy)
    staged = _prims_in(jax.make_jaxpr(spec[1])(*args).jaxpr, set())
    assert name in staged | bound  # (collectives are bound to the batch trace, not staged)


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize("seed", [0, 1])
def test_jvp_and_vjp_match_finite_differences(name, seed):
    kind, fn, _ = SPECS[name]
    args = _args(SPECS[name], seed)
    mask = _float_mask(args)
    fargs = [np.asarray(a, np.float64) for a, m in zip(args, mask) if m]
    g = _restrict(fn, args, mask)
    r = np.random.default_rng(100 + seed)
    tans = [r.standard_normal(np.shape(a)) for a in fargs]
    if kind == "rev":  # a custom_vjp: reverse mode only (its jvp is a TypeError in JAX too)
        y, t_out = np.asarray(g(*fargs)), None
    else:
        y, t_out = jax.jvp(g, tuple(fargs), tuple(tans))
        y, t_out = np.asarray(y), np.asarray(t_out)
    if kind == "zero":
        assert not np.any(t_out.astype(np.float64) if t_out.dtype.kind != "V" else 0), name
        return
    eps = 1e-6
    plus = np.asarray(g(*[a + eps * t for a, t in zip(fargs, tans)]))
    minus = np.asarray(g(*[a - eps * t for a, t in zip(fargs, tans)]))
    fd = (plus - minus) / (2 * eps)
    if t_out is not None:
        np.testing.assert_allclose(t_out, fd, rtol=1e-5, atol=1e-6, err_msg=f"{name}: jvp vs finite differences")
    if kind == "fwd":
        return
    ct = r.standard_normal(y.shape)
    _, pullback = jax.vjp(g, *fargs)
    cts_in = pullback(jnp.asarray(ct))
    lhs = float(np.sum(ct * fd))
    rhs = float(sum(np.sum(np.asarray(c) * t) for c, t in zip(cts_in, tans)))
    np.testing.assert_allclose(rhs, lhs, rtol=1e-5, atol=1e-6, err_msg=f"{name}: vjp vs finite differences")


@pytest.mark.parametrize("name", ALL)
def test_vmap_matches_a_loop(name):
    kind, fn, makers = (SPECS.get(name) or BATCH_ONLY[name])
    examples = [_args((None, None, makers), s) for s in range(3)]
    expected = np.stack([np.asarray(fn(*ex)) for ex in examples])
    batched = [np.stack([np.asarray(ex[i]) for ex in examples]) for i in range(len(makers))]
    got = jax.vmap(fn)(*batched)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, atol=0, err_msg=f"{name}: vmap, all batched")
    if len(makers) > 1:  # only the first argument batched, the rest shared
        expected1 = np.stack([np.asarray(fn(ex[0], *examples[0][1:])) for ex in examples])
        got1 = jax.vmap(fn, in_axes=(0,) + (None,) * (len(makers) - 1))(batched[0], *examples[0][1:])
        np.testing.assert_allclose(np.asarray(got1), expected1, rtol=1e-12, atol=0,
                                   err_msg=f"{name}: vmap, first batched")
    if np.ndim(batched[0]) >= 2:  # batch axis last
        moved = [np.moveaxis(b, 0, -1) for b in batched]
        got2 = jax.vmap(fn, in_axes=-1)(*moved)
        np.testing.assert_allclose(np.asarray(got2), expected, rtol=1e-12, atol=0,
                                   err_msg=f"{name}: vmap, in_axes=-1")
