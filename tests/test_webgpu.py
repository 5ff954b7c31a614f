"""The WebGPU backend (wgpu-py on lavapipe in CI) against the numpy backend: every primitive
eagerly and under jit, fused jaxprs, reductions, matmuls, device placement and fallbacks.

Expected values come from the numpy backend (itself checked against JAX 0.10.2 by the golden
tests). Tolerance: WGSL's transcendental functions may differ by ~2e-4 absolute on software
adapters; integer and boolean results must match exactly.

Needs Vulkan (lavapipe): `python build.py test` installs it (tools/sysdeps.ensure_vulkan).
"""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax
from core._engine.backends.webgpu import WebGpuArray

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def gpu():
    from tools.sysdeps import ensure_vulkan
    ensure_vulkan()
    # jax.devices('webgpu') -> [WebGpuDevice(id=0)] with one adapter (fails here, naming why, without)
    devs = jax.devices("webgpu")
    assert len(devs) == 1 and devs[0].platform == "webgpu" and repr(devs[0]) == "WebGpuDevice(id=0)"
    return devs[0]


rng = np.random.RandomState(0)
F = rng.uniform(-2, 2, (3, 5)).astype(np.float32)
G = rng.uniform(-2, 2, (3, 5)).astype(np.float32)
P = rng.uniform(0.1, 3, (3, 5)).astype(np.float32)        # positive
U = rng.uniform(-0.9, 0.9, (3, 5)).astype(np.float32)     # in (-1, 1)
I = rng.randint(-50, 50, (3, 5)).astype(np.int32)
J = rng.randint(1, 7, (3, 5)).astype(np.int32)
S = rng.randint(0, 40, (3, 5)).astype(np.int32)           # shift amounts, some >= 32
W = rng.randint(0, 2**31, (3, 5)).astype(np.uint32)
B = rng.rand(3, 5) > 0.5
C = rng.rand(3, 5) > 0.5
FNAN = np.where(B, F, np.nan).astype(np.float32)

CASES = {
    # unary float
    "neg": (lax.neg, F), "sign": (lax.sign, F), "floor": (lax.floor, F), "ceil": (lax.ceil, F),
    "round_away": (lambda x: lax.round(x, 0), F * 2.5), "round_even": (lambda x: lax.round(x, 1), F * 2.5),
    "is_finite": (lax.is_finite, F / np.float32(0) * F), "abs": (lax.abs, F), "exp": (lax.exp, F),
    "exp2": (lax.exp2, F), "log": (lax.log, P), "log1p": (lax.log1p, P), "expm1": (lax.expm1, F * 1e-3),
    "tanh": (lax.tanh, F), "logistic": (lax.logistic, F), "sin": (lax.sin, F), "cos": (lax.cos, F),
    "tan": (lax.tan, U), "asin": (lax.asin, U), "acos": (lax.acos, U), "atan": (lax.atan, F),
    "sinh": (lax.sinh, F), "cosh": (lax.cosh, F), "asinh": (lax.asinh, F), "acosh": (lax.acosh, P + 1),
    "atanh": (lax.atanh, U), "sqrt": (lax.sqrt, P), "rsqrt": (lax.rsqrt, P), "cbrt": (lax.cbrt, F),
    "square": (lax.square, F), "erf": (lax.erf, F), "erf_inv": (lax.erf_inv, U),
    "bitcast_f32_u32": (lambda x: lax.bitcast_convert_type(x, np.uint32), F), "integer_pow3": (lambda x: lax.integer_pow(x, 3), F),
    "integer_pow-2": (lambda x: lax.integer_pow(x, -2), P),
    # binary float
    "add": (lax.add, F, G), "sub": (lax.sub, F, G), "mul": (lax.mul, F, G), "div": (lax.div, F, P),
    "rem": (lax.rem, F * 3, P), "pow": (lax.pow, P, G), "max": (lax.max, F, G), "min": (lax.min, F, G),
    "atan2": (lax.atan2, F, G), "nextafter": (lax.nextafter, F, G),
    # XLA's semantics where WGSL differs: x / 0 = -1 and x % 0 = x for integers; NaN tests
    # from the bits (compilers may fold x != x), NaN propagating through max/min
    "div_by_zero_i32": (lambda a, b: lax.div(a, b * 0), I, J), "rem_by_zero_i32": (lambda a, b: lax.rem(a, b * 0), I, J),
    "div_by_zero_u32": (lambda a: lax.div(a, a * 0), W),
    "ne_nan": (lambda x: x != x, FNAN), "eq_nan": (lambda x: x == x, FNAN),
    "max_nan": (lambda x: lax.max(x, jnp.float32(0)), FNAN), "min_nan": (lambda x: lax.min(x, jnp.float32(1)), FNAN),
    # lax's binary ops broadcast size-1 dimensions (jnp's x[:, None] * y[None, :] stages to this)
    "outer_mul": (lambda x, y: lax.mul(x[:, :1], y[:1, :]), F, G),
    "outer_add_i32": (lambda x, y: lax.add(x[:1, :], y[:, 2:3]), I, J),
    "outer_jnp": (lambda x, y: x[:, 0][:, None] * y[0][None, :] + 1.0, F, G),
    "eq": (lax.eq, F, np.where(B, F, G)), "ne": (lax.ne, F, G), "lt": (lax.lt, F, G), "le": (lax.le, F, G),
    "gt": (lax.gt, F, G), "ge": (lax.ge, F, G),
    # integers and bits (exact)
    "add_i32": (lax.add, I, J), "mul_i32": (lax.mul, I, J), "div_i32": (lax.div, I, J),
    "rem_i32": (lax.rem, I, J), "max_i32": (lax.max, I, J), "neg_i32": (lax.neg, I), "abs_i32": (lax.abs, I),
    "sign_i32": (lax.sign, I), "integer_pow_i32": (lambda x: lax.integer_pow(x, 2), I),
    "and_i32": (lax.bitwise_and, I, J), "or_i32": (lax.bitwise_or, I, J), "xor_i32": (lax.bitwise_xor, I, J),
    "not_i32": (lax.bitwise_not, I), "popcount": (lax.population_count, I),
    "shift_left": (lax.shift_left, I, S), "shift_right_logical": (lax.shift_right_logical, I, S),
    "shift_right_arithmetic": (lax.shift_right_arithmetic, I, S),
    "add_u32": (lax.add, W, W), "shift_right_u32": (lax.shift_right_logical, W, S.astype(np.uint32)),
    "and_bool": (lax.bitwise_and, B, C), "or_bool": (lax.bitwise_or, B, C), "xor_bool": (lax.bitwise_xor, B, C),
    "not_bool": (lax.bitwise_not, B),
    "select_n": (lax.select_n, B, F, G), "select_n_i32": (lambda w, a, b, c: lax.select_n(w, a, b, c), I % 3 * np.sign(I) ** 2, F, G, F * 2),
    "clamp": (lax.clamp, np.float32(-0.5), F, np.float32(0.7)),
    "f32_to_i32": (lambda x: lax.convert_element_type(x, np.int32), F * 10),
    "i32_to_f32": (lambda x: lax.convert_element_type(x, np.float32), I),
    "bool_to_f32": (lambda x: lax.convert_element_type(x, np.float32), B),
    "f32_to_bool": (lambda x: lax.convert_element_type(x, np.bool_), np.round(F)),
    "u32_to_i32": (lambda x: lax.convert_element_type(x, np.int32), W),
    # structural (index math)
    "broadcast_in_dim": (lambda x: lax.broadcast_in_dim(x, (2, 3, 5), (1, 2)), F),
    "broadcast_col": (lambda x: lax.broadcast_in_dim(x[:, :1], (3, 4), (0, 1)), F),
    "reshape": (lambda x: lax.reshape(x, (5, 3)), F), "transpose": (lambda x: lax.transpose(x, (1, 0)), F),
    "slice": (lambda x: lax.slice(x, (1, 0), (3, 5), (1, 2)), F), "rev": (lambda x: lax.rev(x, (1,)), F),
    "pad": (lambda x: lax.pad(x, np.float32(9), ((1, 2, 0), (0, 1, 1))), F),
    "concatenate": (lambda x, y: lax.concatenate([x, y, x], 1), F, G),
    "squeeze": (lambda x: lax.squeeze(x[:1], (0,)), F), "expand_dims": (lambda x: lax.expand_dims(x, (1,)), F),
    "iota": (lambda x: x + lax.broadcasted_iota(np.float32, (3, 5), 1), F),
    "dynamic_slice": (lambda x: lax.dynamic_slice(x, (1, 2), (2, 2)), F),
    "dynamic_slice_traced": (lambda x, i: lax.dynamic_slice(x, (i, i + 2), (2, 3)), F, np.int32(2)),
    "dynamic_update_slice": (lambda x, u, i: lax.dynamic_update_slice(x, u, (i, np.int32(1))), F, G[:2, :3], np.int32(-1)),
    # reductions
    "reduce_sum": (lambda x: lax.reduce_sum(x, (1,)), F), "reduce_sum_all": (lambda x: lax.reduce_sum(x, (0, 1)), F),
    "reduce_max": (lambda x: lax.reduce_max(x, (0,)), F), "reduce_min": (lambda x: lax.reduce_min(x, (1,)), F),
    "reduce_prod": (lambda x: lax.reduce_prod(x, (1,)), P), "reduce_sum_i32": (lambda x: lax.reduce_sum(x, (0,)), I),
    "reduce_max_i32": (lambda x: lax.reduce_max(x, (0, 1)), I),
    "reduce_and": (lambda x: lax.reduce_and(x, (1,)), B), "reduce_or": (lambda x: lax.reduce_or(x, (0,)), B),
    "argmax": (lambda x: lax.argmax(x, 1, np.int32), F), "cumsum": (lambda x: lax.cumsum(x, 1), F),
    "sort": (lambda x: lax.sort(x, 1), F),
    # matmul
    "dot": (lambda x, y: lax.dot_general(x, y, (((1,), (1,)), ((), ()))), F, G),
    "matmul_4x": (jnp.matmul, rng.rand(6, 8).astype(np.float32), rng.rand(8, 12).astype(np.float32)),
    "matmul_odd": (jnp.matmul, rng.rand(5, 7).astype(np.float32), rng.rand(7, 3).astype(np.float32)),
    "matmul_batch": (lambda x, y: jnp.einsum("bij,bjk->bik", x, y), rng.rand(2, 5, 4).astype(np.float32),
                     rng.rand(2, 4, 8).astype(np.float32)),
    "matmul_i32": (jnp.matmul, I, J.T), "matvec": (jnp.matmul, F, G[0]),
}


def _check(got, want, name):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (name, got.shape, got.dtype, want.shape, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-4, err_msg=name, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_primitive_eager_and_jit(gpu, name):
    fn, *args = CASES[name]
    want = fn(*[jnp.asarray(a) for a in args])           # numpy backend
    dargs = [jax.device_put(a, gpu) for a in args]
    eager = fn(*dargs)
    assert eager.device == gpu, name                     # results stay on the device
    _check(eager, want, name + " (eager)")
    jitted = jax.jit(fn)(*dargs)
    assert jitted.device == gpu
    _check(jitted, want, name + " (jit)")


# The same elementwise cases on 20 elements: a multiple of 4, so the kernels take the vec4 form
# (four elements per thread; 15 elements above exercise the scalar form).
VEC4_CASES = [n for n in CASES if list(CASES).index(n) < list(CASES).index("broadcast_in_dim")
              and n not in ("where_iota", "cond", "while", "fori_loop", "scan", "scan_reverse_consts")]


def _four_rows(a):
    a = np.asarray(a)
    return np.concatenate([a, a[:1]]) if a.shape == (3, 5) else a


@pytest.mark.parametrize("name", VEC4_CASES)
def test_primitive_vec4_kernels(gpu, name):
    fn, *args = CASES[name]
    args = [_four_rows(a) for a in args]
    want = fn(*[jnp.asarray(a) for a in args])
    dargs = [jax.device_put(a, gpu) for a in args]
    _check(fn(*dargs), want, name + " (eager, vec4)")
    _check(jax.jit(fn)(*dargs), want, name + " (jit, vec4)")


def test_vec4_form_only_for_aligned_reads(gpu):
    from core._engine.backends.webgpu.dispatch import _plan_for
    x = rng.randn(8, 8).astype(np.float32)
    y = rng.randn(8, 8).astype(np.float32)
    for fn, vec4 in ((lambda a, b: jnp.where(a > 0, a * b, -b) + 1.0, True),
                     (lambda a, b: jnp.where(a > 0, a * b.T, -b) + 1.0, False),   # b.T: strided reads
                     (lambda a, b: a[:, :6] * b[:, :6], False)):
        f = jax.jit(fn)
        dargs = [jax.device_put(v, gpu) for v in (x, y)]
        _check(f(*dargs), fn(jnp.asarray(x), jnp.asarray(y)), "vec4 form")
        (cj, _, _), _ = f._get(tuple(dargs), {})
        wgsl = _plan_for(cj).steps[0].wgsl
        assert ("array<vec4<f32>>" in wgsl) == vec4, wgsl


def _selu(x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


FUSED = {
    # jax.jit(selu): one kernel for the whole elementwise chain
    "selu": (_selu, rng.randn(1000).astype(np.float32)),
    "softmax": (lambda x: jnp.exp(x - x.max(axis=-1, keepdims=True)) / jnp.exp(x - x.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True), F),
    "mlp": (lambda x, w, b: jnp.tanh(x @ w + b).T.reshape(-1)[::2], rng.randn(4, 8).astype(np.float32),
            rng.randn(8, 12).astype(np.float32), rng.randn(12).astype(np.float32)),
    "logsumexp_rows": (lambda x: jnp.log(jnp.sum(jnp.exp(x), axis=1)), F),
    "mean_var": (lambda x: (x.mean(0), x.var(0)), F),
    "big_sum": (lambda x: jnp.sum(x * x), rng.randn(70000).astype(np.float32)),
    "many_inputs": (lambda *xs: sum(jnp.sin(x) for x in xs), *[rng.randn(7).astype(np.float32) for _ in range(11)]),
    "int_bits": (lambda a, b: ((a << 3) ^ b) & 0xFF, I, J),
    "where_iota": (lambda x: jnp.where(jnp.arange(15).reshape(3, 5) % 2 == 0, x, -x), F),
    "inf_literals": (lambda x: (jnp.where(x > 0, x, -jnp.inf), jnp.max(x, axis=1, initial=-jnp.inf)), F),
    # control flow: the predicate is read back, the bodies run as GPU plans
    "cond": (lambda x, i: lax.cond(i > 0, jnp.sin, lambda v: jnp.cos(v) * 2, x), F, np.int32(-1)),
    "while": (lambda x: lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 1.5 + 1), (0, x))[1], F),
    "fori_loop": (lambda x: lax.fori_loop(0, 4, lambda i, v: v * 2 + i, x), I),
    "scan": (lambda x, xs: lax.scan(lambda c, a: (c + a, c * a), x, xs), F[0], F),
    "scan_reverse_consts": (lambda x, xs: lax.scan(lambda c, a: (c * 0.5 + jnp.sin(a) * x, (c, a.sum())), x, xs,
                                                   reverse=True), F[0], F),
    # threefry on the GPU, bit-identical to the CPU backend (partitionable layout, JAX's default)
    "random_bits": (lambda k: (jax.random.bits(k, (3, 7)), jax.random.key_data(jax.random.split(k, 4)),
                               jax.random.key_data(jax.random.fold_in(k, 9))), jax.random.key(42)),
    "random_uniform_normal": (lambda k: (jax.random.uniform(k, (50,)), jax.random.normal(k, (50,))),
                              jax.random.PRNGKey(7)),
    "grad_tanh": (jax.grad(lambda x: jnp.sum(jnp.tanh(x) ** 2)), F),
    # each step's y is copied into ys[i] in place: vectors, bools, ints, reversed
    "scan_ys_in_place": (lambda c, xs: lax.scan(lambda c, a: (c * 0.9 + a, (c > 0, jnp.floor(c * 10).astype(np.int32), a[::-1])),
                                                c, xs, reverse=True), F[0], rng.randn(40, 5).astype(np.float32)),
}


@pytest.mark.parametrize("name", sorted(FUSED))
def test_fused_jaxprs(gpu, name):
    fn, *args = FUSED[name]
    want = jax.jit(fn)(*[jnp.asarray(a) for a in args])
    got = jax.jit(fn)(*[jax.device_put(a, gpu) for a in args])
    jax.tree_util.tree_map(lambda g, w: _check(g, w, name), got, want)


def test_selu_is_one_kernel(gpu):
    from core._engine.backends.webgpu.dispatch import _plan_for
    x = jax.device_put(rng.randn(64).astype(np.float32), gpu)
    f = jax.jit(_selu)
    f(x)
    (cj, _, _), _ = f._get((x,), {})
    plan = _plan_for(cj)
    assert len(plan.steps) == 1 and "exp" in plan.steps[0].wgsl, plan.describe()


def test_default_device_config(gpu):
    # jax.config.update('jax_platforms', 'webgpu'): new computations run on the GPU
    try:
        jax.config.update("jax_platforms", "webgpu")
        y = jnp.sin(jnp.arange(4.0)) + 1
        assert y.device == gpu and isinstance(y, WebGpuArray)
        _check(y, np.sin(np.arange(4, dtype=np.float32)) + 1, "default device")
    finally:
        jax.config.update("jax_platforms", "cpu")
    z = jnp.sin(jnp.arange(4.0))
    assert not isinstance(z, WebGpuArray) and z.device.platform == "cpu"


def test_device_put_get_roundtrip(gpu):
    x = jax.device_put(np.arange(12, dtype=np.int32).reshape(3, 4), gpu)
    assert x.device == gpu and x.shape == (3, 4) and x.dtype == np.int32
    back = jax.device_get(x)
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(back, np.arange(12).reshape(3, 4))
    cpu = jax.device_put(x, jax.devices("cpu")[0])
    assert cpu.device.platform == "cpu"
    assert x.block_until_ready() is x


def test_async_readback(gpu):
    from tests.asyncio_helper import run_coroutine
    x = jax.device_put(np.arange(5, dtype=np.float32), gpu) * 2
    assert run_coroutine(x.block_until_ready_async) is x
    got = run_coroutine(lambda: jax.device_get_async({"a": x, "b": 3}))
    np.testing.assert_array_equal(got["a"], np.arange(5) * 2.0)
    assert got["b"] == 3


def test_buffers_are_pooled(gpu):
    from core._engine.backends.webgpu.runtime import runtime
    rt = runtime()
    x = jax.device_put(np.ones(1000, np.float32), gpu)
    for _ in range(3):
        x = x + 1          # the previous x dies: its buffer returns to the pool
    before = rt.stats["allocs"]
    for _ in range(20):
        x = x * 1
    assert rt.stats["allocs"] == before
    np.testing.assert_array_equal(np.asarray(x), np.full(1000, 4.0, np.float32))


def test_float64_stays_on_cpu_with_message(gpu):
    import warnings
    try:
        jax.config.update("jax_enable_x64", True)
        with pytest.raises(TypeError, match="WGSL has no f64"):
            jax.device_put(np.ones(3), gpu)
        jax.config.update("jax_platforms", "webgpu")
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            y = jnp.sin(jnp.ones(3, dtype=np.float64))
        assert y.dtype == np.float64 and not isinstance(y, WebGpuArray)
        np.testing.assert_allclose(np.asarray(y), np.sin(np.ones(3)))
    finally:
        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_enable_x64", False)


def test_debug_prints_wgsl_and_equations(gpu, capsys, monkeypatch):
    monkeypatch.setenv("GRADPAD_DEBUG", "2")
    x = jax.device_put(np.ones(8, np.float32), gpu)
    jax.jit(lambda a: jnp.cos(a) * 3 + 1)(x)
    err = capsys.readouterr().err
    assert "@compute" in err and "cos" in err and "covers" in err and "launch fused[" in err


def test_random_runs_entirely_on_gpu(gpu):
    from core._engine.backends.webgpu.compiler import HostStep
    from core._engine.backends.webgpu.dispatch import _plan_for
    k = jax.device_put(jax.random.key(0), gpu)
    f = jax.jit(lambda k: jax.random.normal(k, (16,)))
    f(k)
    (cj, _, _), _ = f._get((k,), {})
    plan = _plan_for(cj)
    assert not any(isinstance(s, HostStep) for s in plan.steps), plan.describe()
    assert "gp_threefry" in plan.describe() and "gp_erf_inv" in plan.describe()


def test_float16_when_adapter_has_shader_f16(gpu):
    from core._engine.backends.webgpu.runtime import runtime
    x = np.linspace(-2, 2, 7).astype(np.float16)
    # the scan's y (3 halves = 6 bytes) is no whole number of words: ys is rewritten per step
    f = jax.jit(lambda a: (jnp.sin(a) * 2 + 1, a.sum(), a.astype(jnp.float32) * 3,
                           lax.scan(lambda c, v: (c + v, c * v), a[:3], a.reshape(7, 1) * a[None, 4:])[1]))
    want = f(jnp.asarray(x))
    if runtime().f16:  # lavapipe has shader-f16
        got = f(jax.device_put(x, gpu))
        assert all(isinstance(g, WebGpuArray) for g in got)
    else:  # no shader-f16: float16 stays on the CPU with a TypeError naming the supported dtypes
        with pytest.raises(TypeError, match="not supported on WebGPU"):
            jax.device_put(x, gpu)
        return
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(np.asarray(g, np.float32), np.asarray(w, np.float32), atol=2e-2)


def test_gpu_failure_falls_back_to_cpu_with_warning(gpu, monkeypatch):
    # a device error (here: a simulated lost device at launch) never gives a wrong answer
    import wgpu
    from core._engine.backends.webgpu.runtime import runtime

    def lost(*a, **k):
        raise wgpu.GPUError("device lost (simulated)")
    monkeypatch.setattr(runtime(), "launch", lost)
    x = jax.device_put(np.arange(4, dtype=np.float32), gpu)
    with pytest.warns(RuntimeWarning, match="failed on the GPU.*device lost"):
        y = jax.jit(lambda a: jnp.cos(a) + 7)(x)
    np.testing.assert_allclose(np.asarray(y), np.cos(np.arange(4)) + 7, rtol=1e-6)


def test_reduction_fuses_prologue_and_epilogue(gpu):
    # jnp.log(jnp.sum(jnp.exp(x), axis=1)): exp is read inside the reduction loop, log applied to
    # the accumulator: one kernel
    from core._engine.backends.webgpu.dispatch import _plan_for
    x = jax.device_put(F, gpu)
    f = jax.jit(lambda a: jnp.log(jnp.sum(jnp.exp(a), axis=1)))
    _check(f(x), np.log(np.exp(F).sum(1)), "logsumexp")
    (cj, _, _), _ = f._get((x,), {})
    plan = _plan_for(cj)
    assert len(plan.steps) == 1 and "epilogue[log]" in plan.steps[0].label and "exp" in plan.steps[0].label


def test_default_device_context_manager(gpu):
    # with jax.default_device(dev): computations on fresh inputs run on dev
    with jax.default_device(gpu):
        y = jnp.arange(6.0).reshape(2, 3) * 2
        assert isinstance(y, WebGpuArray) and y.device == gpu
    z = jnp.arange(6.0)
    assert not isinstance(z, WebGpuArray)
    _check(y, np.arange(6, dtype=np.float32).reshape(2, 3) * 2, "default_device")


LONG_REDUCTIONS = {
    # (shape, axes): lengths that leave a tail after the unrolled loop, one- and two-pass plans
    "sum_all_two_pass": (lambda x: jnp.sum(x), (100003,)),
    "sum_rows_two_pass": (lambda x: jnp.sum(x, axis=1), (3, 40001)),
    "sum_cols_one_pass": (lambda x: jnp.sum(x, axis=0), (37, 300)),
    "max_two_pass": (lambda x: jnp.max(x), (50021,)),
    "min_rows": (lambda x: jnp.min(x, axis=1), (5, 999)),
    "sum_prologue_two_pass": (lambda x: jnp.sum(x * x + 1), (70001,)),
    # a plain buffer with a multiple of 4 elements per row: the first pass reads vec4s
    "sum_all_vec4": (lambda x: jnp.sum(x), (100004,)),
    "max_rows_vec4": (lambda x: jnp.max(x, axis=1), (3, 40000)),
    "min_3d_vec4": (lambda x: jnp.min(x, axis=(1, 2)), (2, 64, 100)),
    "prod_vec4": (lambda x: jnp.prod(x), (4096,)),
}


@pytest.mark.parametrize("name", sorted(LONG_REDUCTIONS))
@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_long_reductions_match_numpy(gpu, name, dtype):
    # jax.jit(jnp.sum)(jnp.arange(100003) % 19 - 9) == the numpy backend's exact integer sum; floats
    # are summed in another order (here every partial sum is exact in f32 anyway)
    fn, shape = LONG_REDUCTIONS[name]
    x = (np.arange(np.prod(shape)).reshape(shape) % 19 - 9).astype(dtype)
    if name.startswith("prod"):  # exact products: mostly ones, a few -1s and 2s
        x = np.where(np.arange(x.size).reshape(shape) % 997 == 0, -1, np.where(x == 5, 2, 1)).astype(dtype)
    want = np.asarray(fn(x))
    got = np.asarray(jax.jit(fn)(jax.device_put(x, gpu)))
    assert got.dtype == want.dtype and got.shape == want.shape
    if dtype == np.int32:
        np.testing.assert_array_equal(got, want, err_msg=name)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3, err_msg=name)


MATMUL_SHAPES = {
    # (a shape, b shape) -> the kernel variant the compiler picks for it
    "vector_dot": ((5000,), (5000,), "splitk"),
    "vector_dot_vec4": ((6000,), (6000,), "splitk"),
    "batched_matrix_vector_vec4": ((3, 2, 4096), (3, 4096, 1), "splitk"),
    "skinny_batched": ((2, 4, 5000), (2, 5000, 3), "splitk"),
    "vector_matrix": ((1, 300), (300, 64), "rows"),
    "three_rows": ((3, 40), (40, 12), "rows"),
    "square": ((40, 36), (36, 44), "vec4x4"),
    "big_square": ((128, 132), (132, 136), "block"),                # 8 columns a thread (136 % 16 == 8)
    "big_square_wide": ((130, 132), (132, 144), "block"),           # 16 columns a thread, ragged rows
    "batched_ragged_rows": ((2, 130, 64), (2, 64, 128), "block"),
    "odd_n": ((7, 9), (9, 5), "narrow"),
    "matrix_vector": ((300, 37), (37,), "narrow"),
    "matrix_vector_vec4": ((2, 100, 36), (2, 36, 1), "narrow"),
    "long_matrix_vector": ((1024, 64), (64,), "matvec"),             # 4 rows a thread, mat4x4 loads
    "batched_ragged_matvec": ((2, 301, 36), (2, 36, 1), "matvec"),   # vec4 loads, last rows clamped
}


@pytest.mark.parametrize("name", sorted(MATMUL_SHAPES))
@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_matmul_variants_by_shape(gpu, name, dtype):
    # jax.jit(jnp.matmul)(a, b) == a @ b (exact for int32) whichever kernel the shape selects
    from core._engine.backends.webgpu.dispatch import _plan_for
    sa, sb, variant = MATMUL_SHAPES[name]
    r = np.random.RandomState(1)
    a, b = r.randint(-4, 5, sa).astype(dtype), r.randint(-4, 5, sb).astype(dtype)
    f = jax.jit(jnp.matmul)
    _check(f(jax.device_put(a, gpu), jax.device_put(b, gpu)), np.asarray(jnp.matmul(a, b)), name)
    (cj, _, _), _ = f._get((jax.device_put(a, gpu), jax.device_put(b, gpu)), {})
    labels = [s.label for s in _plan_for(cj).steps]
    assert any(f",{variant}" in lab for lab in labels), labels


@pytest.mark.parametrize("n, cols", [(144, 16), (136, 8)])
def test_block_matmul_columns_per_thread(gpu, n, cols):
    # jax.jit(jnp.matmul)(a, b) == a @ b; 16 columns a thread where N % 16 == 0, else 8
    from core._engine.backends.webgpu.dispatch import _plan_for
    r = np.random.RandomState(2)
    a, b = r.randn(130, 132).astype(np.float32), r.randn(132, n).astype(np.float32)
    f = jax.jit(jnp.matmul)
    args = (jax.device_put(a, gpu), jax.device_put(b, gpu))
    _check(f(*args), np.asarray(jnp.matmul(a, b)), f"block {n}")
    (cj, _, _), _ = f._get(args, {})
    src = _plan_for(cj).steps[0].wgsl
    assert f"acc7_{cols // 4 - 1} " in src and f"acc7_{cols // 4} " not in src


def test_typed_keys_and_seed_era_device_call_on_gpu(gpu):
    with jax.default_device(gpu):
        key = jax.random.key(42)
        ks = jax.random.split(key, 3)
        same = key == jax.random.wrap_key_data(jax.random.key_data(key))
        differ = ks != ks
    assert isinstance(ks, WebGpuArray) and str(ks.dtype) == "key<fry>"
    assert type(ks).__name__ == "ArrayImpl"  # as JAX names arrays on every device
    assert repr(same) == "Array(True, dtype=bool)"
    assert np.asarray(differ).tolist() == [False, False, False]
    assert ks.device == gpu
    with pytest.raises(TypeError, match="'Device' object is not callable"):
        ks.device()  # the seed-era call spelling fails as in JAX 0.10.2, as on the CPU


def test_jax_platforms_environment_variable(gpu):
    import os
    import subprocess
    import sys
    # (WebGpuArray prints as JAX's `jaxlib._jax.ArrayImpl`: ask for the class itself)
    code = ("import core.numpy as jnp; from core._engine.backends.webgpu.device import WebGpuArray; "
            "y = jnp.arange(4.0) * 2; print('WebGpuArray' if type(y) is WebGpuArray else type(y), y.device)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "JAX_PLATFORMS": "webgpu"},
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert r.stdout.strip() == "WebGpuArray WebGpuDevice(id=0)", r.stdout + r.stderr[-2000:]


def test_kernels_of_different_shapes_run_after_the_values_they_read(gpu):
    # grad of corrcoef, run eagerly: its linearized call materializes a [1,3] value that a
    # [3,3] kernel reads; the [3,3] kernel was launched first (KeyError)
    x = np.array([[0.0, 1.0, 2.0, 4.0], [2.0, 1.5, 0.5, -1.0], [1.0, 1.0, 2.0, 3.0]], np.float32)
    f = jax.grad(lambda v: jnp.corrcoef(v)[0, 1])
    _check(f(jax.device_put(x, gpu)), f(jnp.asarray(x)), "grad corrcoef")


@pytest.mark.parametrize("n", [3, 8, 4096, 100003])  # one pass, vec4 partials, long scalar partials
@pytest.mark.parametrize("reducer", ["max", "min"])
def test_max_min_propagate_nan(gpu, n, reducer):
    # JAX: jnp.max(jnp.array([1., nan, 2.])) -> nan (XLA's max propagates NaN; WGSL's may not)
    fn = getattr(jnp, reducer)
    x = np.arange(n, dtype=np.float32)
    x[n // 2] = np.nan
    xd = jax.device_put(x, gpu)
    assert np.isnan(np.asarray(fn(xd))) and np.isnan(np.asarray(jax.jit(fn)(xd)))
    x[n // 2] = 0.5  # without NaN: the ordinary answer
    assert float(jax.jit(fn)(jax.device_put(x, gpu))) == float(getattr(np, reducer)(x))


# special values for pow: NaN, signed zeros, +-1, +-inf, tiny and huge, integral and not
POW_SPECIALS = np.array([np.nan, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, np.inf, -np.inf,
                         1e-30, 1e30], np.float32)


def test_pow_on_special_values_is_xlas(gpu):
    # XLA's pow is C's: 0 ** -0.5 is inf (pareto's ppf at q = 1), (-0.) ** -1 is -inf, NaN ** 1 is
    # NaN, 1 ** NaN and (-1) ** inf are 1, (-0.) ** 3 is -0., (-inf) ** 0.5 is inf; WGSL's pow left
    # each of these to the driver (lavapipe gave 0, 0, 0, NaN, NaN, 0 and NaN)
    x = np.repeat(POW_SPECIALS, len(POW_SPECIALS))
    y = np.tile(POW_SPECIALS, len(POW_SPECIALS))
    want = np.asarray(jax.jit(lax.pow)(jnp.asarray(x), jnp.asarray(y)))
    got = np.asarray(jax.jit(lax.pow)(jax.device_put(x, gpu), jax.device_put(y, gpu)))
    same = np.isclose(got, want, rtol=1e-5, equal_nan=True) & ((np.signbit(got) == np.signbit(want)) | np.isnan(want))
    assert same.all(), [(a, b, w, g) for a, b, w, g, s in zip(x, y, want, got, same) if not s]
    n = jnp.array([3, -3, 0, 2, -1], jnp.int32)[:, None]  # integer exponents (jnp.power(x, n))
    f = jax.jit(lambda a, k: jnp.power(a[None, :], k))
    np.testing.assert_allclose(np.asarray(f(jax.device_put(POW_SPECIALS, gpu), jax.device_put(n, gpu))),
                               np.asarray(f(jnp.asarray(POW_SPECIALS), n)), rtol=2e-6)  # (WGSL's rounding)


def test_a_broadcast_zero_times_inf_is_nan(gpu):
    # jnp.polyval starts from zeros: 0 * inf must stay NaN (JAX: polyval(p, inf) is nan; odeint's
    # dense output at times that do not increase), where the driver folded a let-bound zero's product
    x = np.array([np.nan, 1.0, np.inf, -np.inf, 0.0], np.float32)
    f = jax.jit(lambda a: jnp.polyval(jnp.array([1.0, 2.0, 3.0]), a))
    np.testing.assert_array_equal(np.asarray(f(jax.device_put(x, gpu))), np.asarray(f(jnp.asarray(x))))
    np.testing.assert_array_equal(np.asarray(f(jnp.asarray(x))), [np.nan, 6.0, np.nan, np.nan, 3.0])
