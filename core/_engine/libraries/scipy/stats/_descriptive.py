"""jax.scipy.stats' descriptive statistics: mode, rankdata, sem (issue 11, area "special").

Written with jnp ops over pairwise comparisons (n^2 work, fine at playground sizes) so that
jit, vmap and grad compose and shapes stay static."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ....base import dtypes
from ... import numpy as jnp

_POLICIES = ("propagate", "omit", "raise")


class ModeResult(NamedTuple):
    mode: object
    count: object


def _check_nan_policy(nan_policy, fn):
    if nan_policy not in _POLICIES:
        raise ValueError(f"Illegal nan_policy value {nan_policy!r}; expected one of "
                         "{'propagate', 'omit', 'raise'}")
    if nan_policy == "omit":
        raise NotImplementedError(f"Logic for `nan_policy` of {nan_policy} is not implemented")
    if nan_policy == "raise":
        raise NotImplementedError(f"In order to best JIT compile `{fn}`, we cannot know whether `x` contains nans. "
                                  f"Please check if nans exist in `x` outside of the `{fn}` function.")


def _default_float():
    return dtypes.canonicalize_dtype(np.float64)


def mode(a, axis=0, nan_policy="propagate", keepdims=False):
    """The most common value along axis (the smallest one on ties) and its count."""
    x = jnp.atleast_1d(jnp.asarray(a))
    _check_nan_policy(nan_policy, "mode")
    if axis is None:
        out_shape = tuple(1 for _ in x.shape) if keepdims else ()
        x = jnp.ravel(x)
        axis = 0
    else:
        axis = axis + x.ndim if axis < 0 else axis
        out_shape = tuple(1 if i == axis else s for i, s in enumerate(x.shape)) if keepdims else \
            tuple(s for i, s in enumerate(x.shape) if i != axis)
    x = jnp.moveaxis(x, axis, 0)
    x = x.reshape(x.shape[0], -1)
    if x.shape[0] == 0:
        nan = jnp.full((x.shape[1],), np.nan, _default_float())
        return ModeResult(nan.reshape(out_shape), jnp.zeros_like(nan).reshape(out_shape))
    column_sorted = jnp.sort(x, axis=0)
    counts = jnp.sum(column_sorted[:, None, :] == column_sorted[None, :, :], axis=0, dtype=dtypes.canonicalize_dtype(np.int64))
    first_best = jnp.argmax(counts, axis=0)   # sorted, so ties go to the smallest value
    values = jnp.take_along_axis(column_sorted, first_best[None, :], axis=0)[0]
    return ModeResult(values.reshape(out_shape), jnp.max(counts, axis=0).reshape(out_shape))


_RANK_METHODS = ("average", "min", "max", "dense", "ordinal")


def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """Ranks from 1 (ties by method: average, min, max, dense or ordinal); all nan if any is nan."""
    a = jnp.asarray(a)
    _check_nan_policy(nan_policy, "rankdata")
    if method not in _RANK_METHODS:
        raise ValueError(f"unknown method '{method}'")
    if axis is not None:
        return jnp.apply_along_axis(rankdata, axis, a, method)
    a = jnp.ravel(a)
    out_dtype = _default_float()
    less = a[None, :] < a[:, None]              # less[i, j]: a_j < a_i
    n_less = jnp.sum(less, axis=1)
    n_less_equal = jnp.sum(a[None, :] <= a[:, None], axis=1)
    if method == "ordinal":
        order = jnp.argsort(a, stable=True)
        ranks = jnp.zeros_like(order).at[order].set(jnp.arange(a.size, dtype=order.dtype)) + 1
    elif method == "min":
        ranks = n_less + 1
    elif method == "max":
        ranks = n_less_equal
    elif method == "average":
        ranks = 0.5 * (n_less + 1 + n_less_equal)
    else:   # dense: distinct values below, each group of equal values counted once
        multiplicity = jnp.sum(a[None, :] == a[:, None], axis=1)
        ranks = jnp.round(jnp.sum(jnp.where(less, 1.0 / multiplicity[None, :], 0.0), axis=1)) + 1
    ranks = jnp.asarray(ranks).astype(out_dtype)
    return jnp.where(jnp.any(jnp.isnan(a)) if a.dtype.kind in "fc" else False, jnp.nan, ranks).astype(out_dtype)


def sem(a, axis=0, ddof=1, nan_policy="propagate", *, keepdims=False):
    """Standard error of the mean: std(ddof) / sqrt(n) (nan_policy='omit' counts the non-nan)."""
    (b,) = jnp._promote_args_inexact("sem", a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return b.std(axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(size).astype(b.dtype)
    if nan_policy == "omit":
        count = (~jnp.isnan(b)).sum(axis, keepdims=keepdims)
        return jnp.nanstd(b, axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(count).astype(b.dtype)
    raise ValueError(f"{nan_policy} is not supported")
