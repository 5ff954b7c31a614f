"""jax.jit's cached call path for WebGPU arrays (core/_engine/backends/webgpu/dispatch.py `jit_call`): from
the second call of a signature on, a jitted function of WebGPU arrays runs its cached GPU plan
without flattening its arguments. Every answer must equal the general path's (the first call's,
and the numpy backend's), and anything the fast path does not cover must still take the general
path: Python scalars, CPU arrays, keyword and static arguments, jax.disable_jit, config flags
that change the trace.

Needs Vulkan (lavapipe), as tests/test_webgpu.py."""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core._engine.backends.webgpu import WebGpuArray

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def gpu():
    from tools.sysdeps import ensure_vulkan
    ensure_vulkan()
    return jax.devices("webgpu")[0]


rng = np.random.RandomState(0)
X = rng.randn(3, 5).astype(np.float32)
Y = rng.randn(3, 5).astype(np.float32)


def fast_entries(jitted):
    return [k for k in jitted._fast if k and k[0] == "webgpu"]


def test_second_call_runs_the_cached_plan(gpu):
    traces = []

    def f(a, b):
        traces.append(1)
        return jnp.sin(a) * b + 1.0

    jf = jax.jit(f)
    a, b = jax.device_put(X, gpu), jax.device_put(Y, gpu)
    first = jf(a, b)
    assert len(fast_entries(jf)) == 1          # the first call recorded the signature
    second = jf(a, b)
    third = jf(b, a)                           # same avals: same entry, other buffers
    assert len(traces) == 1 and len(fast_entries(jf)) == 1
    for got in (first, second, third):
        assert type(got) is WebGpuArray and got.dtype == np.float32 and got.shape == (3, 5)
        assert not got.weak_type
    # JAX: jax.jit(f)(a, b) = sin(a) * b + 1.0 (the numpy backend gives the reference)
    want = np.sin(X) * Y + np.float32(1.0)
    np.testing.assert_allclose(np.asarray(second), want, rtol=1e-5, atol=2e-4)
    np.testing.assert_array_equal(np.asarray(second), np.asarray(first))
    np.testing.assert_allclose(np.asarray(third), np.sin(Y) * X + np.float32(1.0), rtol=1e-5, atol=2e-4)


def test_pytree_outputs_and_weak_types(gpu):
    # JAX: jax.jit(lambda a: (a.sum(), {"n": a * 2, "w": 3.0}))(a): a tuple of f32[] and a dict
    # whose "w" leaf is a weakly typed f32[]
    jf = jax.jit(lambda a: (a.sum(), {"n": a * 2, "w": 3.0}))
    a = jax.device_put(X, gpu)
    jf(a)
    s, d = jf(a)
    assert sorted(d) == ["n", "w"]
    assert s.shape == () and not s.weak_type
    assert d["w"].weak_type and d["w"].dtype == np.float32 and float(d["w"]) == 3.0
    np.testing.assert_allclose(float(s), X.astype(np.float64).sum(), rtol=1e-5)
    np.testing.assert_array_equal(np.asarray(d["n"]), X * 2)


def test_new_shape_or_dtype_is_a_new_entry(gpu):
    jf = jax.jit(lambda a: a * 2)
    for v in (X, X[:2], X.astype(np.int32), X):
        d = jax.device_put(v, gpu)
        jf(d)
        got = jf(d)
        assert got.dtype == v.dtype and got.shape == v.shape
        np.testing.assert_array_equal(np.asarray(got), v * v.dtype.type(2))
    assert len(fast_entries(jf)) == 3


def test_other_arguments_take_the_general_path(gpu):
    a = jax.device_put(X, gpu)
    jf = jax.jit(lambda a, s: a * s)
    for _ in range(2):
        # a Python scalar argument: weakly typed, the result stays f32 (JAX: jit(f)(a, 2.0))
        got = jf(a, 2.0)
        np.testing.assert_array_equal(np.asarray(got), X * 2)
        # a CPU array beside a GPU one
        np.testing.assert_array_equal(np.asarray(jf(a, jnp.asarray(Y))), X * Y)
        # keyword argument
        np.testing.assert_array_equal(np.asarray(jf(a, s=a)), X * X)
    assert fast_entries(jf) == []
    js = jax.jit(lambda a, n: a * n, static_argnums=1)
    for n in (2, 3, 3):
        np.testing.assert_array_equal(np.asarray(js(a, n)), X * np.float32(n))
    assert fast_entries(js) == []


def test_disable_jit_runs_the_python_function(gpu):
    calls = []

    def f(a):
        calls.append(type(a))
        return a + 1

    jf = jax.jit(f)
    a = jax.device_put(X, gpu)
    jf(a)
    jf(a)
    assert len(calls) == 1
    with jax.disable_jit():
        got = jf(a)
    # JAX: under disable_jit the function runs op by op on the concrete array
    assert len(calls) == 2 and calls[1] is WebGpuArray
    np.testing.assert_array_equal(np.asarray(got), X + 1)


def test_trace_context_flags_retrace(gpu):
    # jax_numpy_rank_promotion is part of the trace context: 'raise' makes the same call an error
    jf = jax.jit(lambda a, b: a + b)
    a, row = jax.device_put(X, gpu), jax.device_put(Y[0], gpu)
    jf(a, row)
    np.testing.assert_array_equal(np.asarray(jf(a, row)), X + Y[0])
    with jax.numpy_rank_promotion("raise"):
        # JAX: ValueError "Operands could not be broadcast together with shapes (3, 5) (5,) and
        # with the config option jax_numpy_rank_promotion='raise'..."
        with pytest.raises(ValueError, match="jax_numpy_rank_promotion"):
            jf(a, row)


def test_a_second_concurrent_start_keeps_the_first_device(gpu):
    # In the page, the timing pane and the user's code can both await init_async() before either
    # start has finished: two devices. The runtime must stay the first one, or arrays already on
    # it are copied by another device's queue (dropped) and read back as zeros.
    import sys
    R = sys.modules["core._engine.backends.webgpu.runtime"]

    def finish(co):
        try:
            co.send(None)   # wgpu-py's calls block: one step finishes a start
        except StopIteration:
            pass
    saved = R._runtime
    try:
        R._runtime = None
        first, second = R._start(sync=False), R._start(sync=False)   # both begun before either ends
        finish(first)
        rt = R._runtime
        x = np.arange(4096, dtype=np.float32)
        buf = rt.upload(x)       # an array on the first device
        finish(second)
        assert R._runtime is rt
        np.testing.assert_array_equal(R._runtime.read(buf, np.float32, (4096,)), x)
    finally:
        R._runtime = saved
