"""The CPU kernels' BLAS routes (np.dot for small float matmuls, a product with ones for column
sums) are taken only where numpy has a BLAS: Pyodide's numpy has none, and there np.dot is
numpy's own loop, slower than the matmul and add.reduce it would replace."""
import importlib

import numpy as np

from core._engine.base import blas
from core._engine.base.avals import ShapedArray
from core._engine.primitives import dot, reductions


def _specialized_fns(monkeypatch, has_blas):
    monkeypatch.setattr(dot, "HAS_BLAS", has_blas)
    monkeypatch.setattr(reductions, "HAS_BLAS", has_blas)
    f32 = np.dtype(np.float32)
    mm = dot._dot_specialize([ShapedArray((8,), f32), ShapedArray((8, 8), f32)], (((0,), (0,)), ((), ())))
    col = reductions._reduce_sum_specialize([ShapedArray((256, 64), f32)], (0,))
    return mm, col


def test_with_blas_small_matmuls_call_np_dot_and_column_sums_use_blas(monkeypatch):
    mm, col = _specialized_fns(monkeypatch, True)
    assert mm is np.dot
    x = np.arange(256 * 64, dtype=np.float32).reshape(256, 64) % 7 - 3
    np.testing.assert_array_equal(col(x), x.sum(0))   # small integers: every order sums exactly
    assert np.signbit(col(-np.zeros((256, 64), np.float32))).sum() == 0   # from 0.0, as XLA


def test_without_blas_the_numpy_loops_stay(monkeypatch):
    mm, col = _specialized_fns(monkeypatch, False)
    assert mm is np.matmul
    x = np.ones((256, 64), np.float32)
    np.testing.assert_array_equal(col(x), np.add.reduce(x, (0,)))


def test_blas_is_read_from_numpys_build_record(monkeypatch):
    import numpy.__config__ as cfg
    monkeypatch.setitem(cfg.CONFIG["Build Dependencies"]["blas"], "found", False)   # Pyodide's record
    assert importlib.reload(blas).HAS_BLAS is False
    monkeypatch.undo()
    assert importlib.reload(blas).HAS_BLAS is bool(cfg.CONFIG["Build Dependencies"]["blas"]["found"])


def _outer_fn(monkeypatch, has_blas, m=256, n=64):
    monkeypatch.setattr(dot, "HAS_BLAS", has_blas)
    f32 = np.dtype(np.float32)   # x @ w with a one-column x: the first layer of a 1-input MLP
    return dot._dot_specialize([ShapedArray((m, 1), f32), ShapedArray((1, n), f32)], (((1,), (0,)), ((), ())))


def test_with_blas_big_outer_products_use_np_dot_and_keep_negative_zeros(monkeypatch):
    outer = _outer_fn(monkeypatch, True)
    assert outer is dot._blas_outer
    rng = np.random.default_rng(0)
    x = rng.standard_normal((256, 1)).astype(np.float32)
    y = rng.standard_normal((1, 64)).astype(np.float32)
    np.testing.assert_array_equal(outer(x, y), x * y)   # one rounding per product, as the multiply
    x[3, 0] = -0.0   # jnp.dot(x, y) with a -0.0 in x: -0.0 * y keeps the product's sign, as XLA
    np.testing.assert_array_equal(np.signbit(outer(x, y)), np.signbit(x * y))


def test_without_blas_or_for_small_outer_products_the_multiply_stays(monkeypatch):
    assert _outer_fn(monkeypatch, False) is dot._outer
    assert _outer_fn(monkeypatch, True, 8, 8) is dot._outer
