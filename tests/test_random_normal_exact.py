"""core/_engine/libraries/random_normal_exact.py: the eager float32 normal's own arithmetic gives the general
float32 path's bits (random_eager.normal_f32_of_bits_general: the erf_inv primitive's float32
emulation, pinned to real JAX on all 2**23 mantissas by tests/test_random_normal_table.py, which
also runs this path on every mantissa in draws of 1000 and 4096).

Real JAX values: `jax.random.normal(jax.random.PRNGKey(0), (3,))` -> [1.6226422, 2.0252647,
-0.43359444]; the normal of mantissa 0 is -5.419983 and of mantissa 2**23 - 1 is 5.220113 (JAX's
normal fed those bits, tests/test_random_normal_table.py).
"""
import numpy as np
import pytest

import core as jax
from core._engine.libraries import normal_table, random_eager, random_normal_exact
from core._engine.primitives import _special


def _bits(x):
    return np.asarray(x).view(np.uint32)


def _both(bits):
    return (random_normal_exact.normal_f32_of_bits(bits.copy()),
            random_eager.normal_f32_of_bits_general(bits.copy()))


# sizes on both sides of the per-element-coefficients limit, and of numpy's own small-array paths
@pytest.mark.parametrize("n", [0, 1, 2, 7, 100, 1000, 4096, 4097, 70_000])
def test_random_bits_give_the_general_paths_bits(n):
    rng = np.random.default_rng(n)
    for _ in range(3 if n > 5000 else 20):
        fast, general = _both(rng.integers(0, 2 ** 32, n, dtype=np.uint32))
        assert fast.dtype == np.float32 and fast.shape == (n,)
        assert np.array_equal(_bits(fast), _bits(general))


def _mantissas_near(values, width=64):
    """uint32 bits whose uniforms are the `width` floats on either side of each u in `values`."""
    m = np.round((np.asarray(values, np.float64) * 2 ** 24 + 2 ** 24 - 1) / 4).astype(np.int64)
    m = (m[:, None] + np.arange(-width, width)).reshape(-1)
    m = m[(m >= 0) & (m < 2 ** 23)]
    return m.astype(np.uint32) << np.uint32(9)


def test_branch_edges_give_the_general_paths_bits():
    # log1p's branch at |x| = sqrt(2) - 1, plog's at a mantissa of sqrt(1/2), erf_inv's at w = 5,
    # u = 0, and the ends of the uniform's range (|u| up to 1 - 2**-24)
    sqrt_branch = np.sqrt(float(np.float32(0.41421356237309504880)))
    plog_edge = np.sqrt(1 - np.array([0.5 * np.sqrt(0.5), 0.25 * np.sqrt(0.5), 0.125 * np.sqrt(0.5)]))
    w5 = np.sqrt(1 - np.exp(-5.0))
    edges = np.array([0.0, sqrt_branch, *plog_edge, w5, 1.0])
    bits = _mantissas_near(np.concatenate([edges, -edges]))
    fast, general = _both(bits)
    assert np.array_equal(_bits(fast), _bits(general))
    for draw in (1000, 4097):   # per-element coefficients and the separate far polynomial
        for lo in range(0, bits.size, draw):
            fast, general = _both(bits[lo:lo + draw])
            assert np.array_equal(_bits(fast), _bits(general))


def test_ends_of_the_range_are_jaxs():
    ends = np.array([0, 2 ** 23 - 1], np.uint32) << np.uint32(9)
    assert random_normal_exact.normal_f32_of_bits(ends).tolist() == [np.float32(-5.419983), np.float32(5.220113)]


def test_eager_normal_is_jaxs():
    # jax.random.normal(jax.random.PRNGKey(0), (3,)) -> [1.6226422, 2.0252647, -0.43359444]
    with normal_table.exact_path_only():
        got = jax.random.normal(jax.random.PRNGKey(0), (3,))
    assert np.asarray(got).tolist() == [np.float32(v) for v in (1.6226422, 2.0252647, -0.43359444)]


def test_same_arithmetic_as_the_erf_inv_primitive():
    # the constants are the primitive's own (one definition of XLA's polynomials)
    assert random_normal_exact._LOG1P_SMALL is _special._LOG1P_SMALL
    assert np.array_equal(random_normal_exact._ERFINV_COEFFS, _special._ERFINV_TABLE)
