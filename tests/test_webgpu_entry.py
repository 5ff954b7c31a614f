"""Every WGSL kernel numbers its invocations from `global_invocation_id` and a row length known
when the kernel is generated, never from `@builtin(num_workgroups)`: in Chromium (Dawn) reading
num_workgroups binds an extra uniform buffer for every dispatch, which measured ~2 ms more per
call of a tiny kernel on SwiftShader. A grid too long for one row (more than 65535 workgroups)
must still cover every element exactly once.

The planning checks need no GPU; the run needs Vulkan (lavapipe), as tests/test_webgpu.py."""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core._engine.backends.webgpu import kernels
from core._engine.backends.webgpu.compiler import Plan, TwoPassReduce

pytestmark = pytest.mark.timeout(300)

F32 = np.float32


def selu(x):
    return 1.0507 * jnp.where(x > 0, x, 1.6733 * jnp.exp(x) - 1.6733)


# one of each kernel generator: (function, example arguments)
PROGRAMS = {
    "elementwise_vec4": (selu, [np.zeros(1024, F32)]),
    "elementwise_scalar": (lambda x: x * 2 + 1, [np.zeros(1023, F32)]),
    "reduce_small": (jnp.sum, [np.zeros(16, F32)]),
    "reduce_two_pass_vec4": (jnp.sum, [np.zeros(1 << 16, F32)]),
    "reduce_two_pass_fused": (lambda x: jnp.sum(jnp.exp(x)), [np.zeros(1 << 16, F32)]),
    "reduce_rows_epilogue": (lambda x: jnp.max(x, axis=1) * 2, [np.zeros((8, 100), F32)]),
    "dot_splitk": (jnp.dot, [np.zeros(1 << 16, F32), np.zeros(1 << 16, F32)]),
    "matvec": (jnp.matmul, [np.zeros((64, 64), F32), np.zeros(64, F32)]),
    "vecmat_rows": (jnp.matmul, [np.zeros(64, F32), np.zeros((64, 64), F32)]),
    "matmul_block": (jnp.matmul, [np.zeros((128, 128), F32), np.zeros((128, 128), F32)]),
    "matvec_strided": (jnp.matmul, [np.zeros((64, 6), F32), np.zeros((6, 3), F32)]),
}


def wgsl_of(fn, args):
    out = []
    for s in Plan(jax.make_jaxpr(fn)(*args)).steps:
        out += [s.first.wgsl, s.second.wgsl] if isinstance(s, TwoPassReduce) else [s.wgsl]
    return out


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_no_kernel_reads_num_workgroups(name):
    fn, args = PROGRAMS[name]
    sources = wgsl_of(fn, args)
    assert sources
    for src in sources:
        assert "num_workgroups" not in src, src


def test_long_grid_row_length_is_a_constant():
    # 65535 workgroups of WG invocations fill the first row; the rest goes to gid.y
    n = 65535 * kernels.WG + 5
    entry, groups = kernels.linear_entry("i", n)
    assert groups == (65535, 2, 1)
    assert f"let i = gid.x + gid.y * {65535 * kernels.WG}u;" in entry
    assert f"if (i >= {n}u) {{ return; }}" in entry
    entry, groups = kernels.linear_entry("i", 1000)
    assert groups == (-(-1000 // kernels.WG), 1, 1) and "let i = gid.x;" in entry


@pytest.fixture(scope="module")
def gpu():
    from tools.sysdeps import ensure_vulkan
    ensure_vulkan()
    return jax.devices("webgpu")[0]


def test_two_row_grid_covers_every_element(gpu):
    # int32 and a length not divisible by 4: the scalar kernel, one invocation per element, so
    # 65535 * WG + 7 invocations need a second row of workgroups
    n = 65535 * kernels.WG + 7
    x = np.arange(n, dtype=np.int32)
    got = np.asarray(jax.jit(lambda v: v * 3 + 1)(jax.device_put(x, gpu)))
    # JAX: jax.jit(lambda v: v * 3 + 1)(jnp.arange(n, dtype=jnp.int32)) == arange * 3 + 1
    np.testing.assert_array_equal(got, x * 3 + 1)


def test_few_threads_get_a_small_workgroup():
    # a one-thread kernel (the last pass of a long sum) in a workgroup of one, not of 256 idle
    entry, groups = kernels.linear_entry("o", 1)
    assert "@workgroup_size(1)" in entry and groups == (1, 1, 1)
    entry, groups = kernels.linear_entry("w", 100)
    assert "@workgroup_size(128)" in entry and groups == (1, 1, 1)
    final = wgsl_of(jnp.sum, [np.zeros(1 << 16, F32)])[-1]
    assert "@workgroup_size(1)" in final
