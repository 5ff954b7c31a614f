"""Vector dots and matrix @ vector products read their float32 operands as mat4x4<f32> (16
floats a load) where the length allows (kernels._wide): the answers must stay those of the numpy
backend (within float32 summation-order tolerance; exact where every partial sum is exact), and
other dtypes and lengths keep the vec4 kernels.

Needs Vulkan (lavapipe), as tests/test_webgpu.py."""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core._engine.backends.webgpu.dispatch import _plan_for

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def gpu():
    from tools.sysdeps import ensure_vulkan
    ensure_vulkan()
    return jax.devices("webgpu")[0]


def kernels_of(jitted, *args):
    (cj, _, _), _ = jitted._get(args, {})
    out = []
    for s in _plan_for(cj).steps:
        out += [s.first, s.second] if hasattr(s, "first") else [s]
    return out


CASES = {
    # name: (function, shapes, whether the first kernel reads mat4x4s)
    "dot_mat4": (jnp.dot, [(16 * 5001,), (16 * 5001,)], True),      # a tail after the unrolled loop
    "dot_mat4_long": (jnp.dot, [(1 << 16,), (1 << 16,)], True),
    "dot_vec4": (jnp.dot, [(4 * 5001,), (4 * 5001,)], False),       # % 16 != 0: vec4s
    "matvec_mat4": (jnp.matmul, [(300, 64), (64,)], True),
    "matvec_vec4": (jnp.matmul, [(300, 68), (68,)], False),
    "batched_matvec_mat4": (jnp.matmul, [(3, 2, 4096), (3, 4096, 1)], True),
    "matvec_rows_mat4": (jnp.matmul, [(1030, 64), (64,)], True),    # 4 rows a thread, M % 4 != 0
    "matvec_rows_vec4": (jnp.matmul, [(2, 301, 68), (2, 68, 1)], False),
    "sum_keeps_vec4": (jnp.sum, [(16 * 4097,)], False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_wide_loads_match_numpy(gpu, name):
    fn, shapes, wide = CASES[name]
    r = np.random.RandomState(3)
    # small integers: every partial sum is exact in float32, whatever the order
    xs = [r.randint(-9, 10, s).astype(np.float32) for s in shapes]
    # JAX: jax.jit(fn)(*xs) in float32, here the numpy backend's answer
    want = np.asarray(jax.jit(fn)(*[jnp.asarray(x) for x in xs]))
    jf = jax.jit(fn)
    dev = [jax.device_put(x, gpu) for x in xs]
    got = np.asarray(jf(*dev))
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    first = kernels_of(jf, *dev)[0].wgsl
    assert ("mat4x4<f32>" in first) == wide, first


def test_float_dot_within_tolerance(gpu):
    # random floats: another summation order than numpy's pairwise one, so a relative tolerance
    x = np.random.RandomState(4).randn(1 << 20).astype(np.float32)
    dot = float(jax.jit(jnp.dot)(jax.device_put(x, gpu), jax.device_put(x[::-1].copy(), gpu)))
    np.testing.assert_allclose(dot, (x.astype(np.float64) * x[::-1]).sum(), rtol=1e-4, atol=1e-2)


def test_int32_keeps_vec4_loads(gpu):
    # matrices hold floats only: an int32 dot reads vec4<i32> and stays exact
    x = (np.arange(16 * 4097) % 23 - 11).astype(np.int32)
    jf = jax.jit(jnp.dot)
    d = jax.device_put(x, gpu)
    assert int(jf(d, d)) == int((x.astype(np.int64) ** 2).sum())   # JAX: int32 dot -> int32, exact here
    assert "mat4x4" not in kernels_of(jf, d, d)[0].wgsl
