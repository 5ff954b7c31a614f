"""`jax.scipy.interpolate`: RegularGridInterpolator, linear or nearest-point interpolation of values
given on a rectilinear grid (one sorted array of points per axis), like scipy's."""
from __future__ import annotations

import itertools

import numpy as np

from ... import numpy as jnp
from ...numpy import _util
from ....base.tree_util import register_pytree_node

_METHODS = ("linear", "nearest")


def _points_array(xi, ndim):
    """The query points as one array (..., ndim): from an array (a 1-d one is a list of points of
    `ndim` coordinates) or from a tuple of coordinate arrays (broadcast together)."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        parts = jnp.broadcast_arrays(*xi)
        for other in parts[1:]:
            if other.shape != parts[0].shape:
                raise ValueError("coordinate arrays do not have the same shape")
        out = jnp.empty(parts[0].shape + (len(xi),), dtype=float)
        for j, part in enumerate(parts):
            out = out.at[..., j].set(part)
        return out
    _util._check_arraylike("_ndim_coords_from_arrays", xi)
    xi = jnp.asarray(xi)
    if xi.ndim == 1:
        xi = xi.reshape(-1, 1) if ndim is None else xi.reshape(-1, ndim)
    return xi


class RegularGridInterpolator:
    """Interpolates `values` (shape (len(points[0]), ..., len(points[-1]), *trailing)) given at the grid
    `points` (one increasing 1-d array per axis). Calling it with points xi (..., ndim) gives
    (..., *trailing). method: 'linear' or 'nearest'. Outside the grid the result is `fill_value` (nan
    by default), or, with fill_value=None, extrapolated from the edge cells. bounds_error=True is not
    supported (under jit a value cannot raise). A pytree: it can be passed through jit and grad."""

    def __init__(self, points, values, method="linear", bounds_error=False, fill_value=np.nan):
        if method not in _METHODS:
            raise ValueError(f"method {method!r} is not defined")
        self.method = method
        self.bounds_error = bounds_error
        if self.bounds_error:
            raise NotImplementedError("`bounds_error` takes no effect under JIT")
        _util._check_arraylike("RegularGridInterpolator", values)
        if len(points) > values.ndim:
            raise ValueError(f"there are {len(points)} point arrays, but values has {values.ndim} dimensions")
        values, = _util._promote_dtypes_inexact(values)
        if fill_value is not None:
            _util._check_arraylike("RegularGridInterpolator", fill_value)
            fill_value = jnp.asarray(fill_value)
            if not jnp.can_cast(fill_value.dtype, values.dtype, casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible with values")
        self.fill_value = fill_value
        _util._check_arraylike("RegularGridInterpolator", *points)
        self.grid = tuple(jnp.asarray(p) for p in points)
        self.values = values

    def __call__(self, xi, method=None):
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"method {method!r} is not defined")
        ndim = len(self.grid)
        xi = _points_array(xi, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(f"the requested sample points xi have dimension {xi.shape[1]}, but this "
                             f"RegularGridInterpolator has dimension {ndim}")
        lead = xi.shape[:-1]
        xi = xi.reshape(-1, xi.shape[-1])
        cells, fractions, outside = self._locate(xi.T)
        if method == "linear":
            result = self._linear(cells, fractions)
        else:
            result = self._nearest(cells, fractions)
        if not self.bounds_error and self.fill_value is not None:
            result = jnp.where(outside.reshape(result.shape[:1] + (1,) * (result.ndim - 1)), self.fill_value, result)
        return result.reshape(lead + self.values.shape[ndim:])

    def _locate(self, xi):
        """Per axis: the cell each point falls in (its lower grid index, clamped to the edge cells),
        the fraction of the way across it, and whether any coordinate is outside the grid."""
        cells, fractions = [], []
        outside = jnp.zeros((xi.shape[1],), dtype=bool)
        for x, g in zip(xi, self.grid):
            i = jnp.searchsorted(g, x) - 1
            i = jnp.where(i < 0, 0, i)
            i = jnp.where(i > g.size - 2, g.size - 2, i)
            cells.append(i)
            fractions.append((x - g[i]) / (g[i + 1] - g[i]))
            if not self.bounds_error:
                outside += x < g[0]
                outside += x > g[-1]
        return cells, fractions, outside

    def _linear(self, cells, fractions):
        trailing = (slice(None),) + (None,) * (self.values.ndim - len(cells))
        total = jnp.asarray(0.0)
        for corner in itertools.product(*[[i, i + 1] for i in cells]):
            weight = jnp.asarray(1.0)
            for index, lower, frac in zip(corner, cells, fractions):
                weight *= jnp.where(index == lower, 1 - frac, frac)
            total += self.values[corner] * weight[trailing]
        return total

    def _nearest(self, cells, fractions):
        return self.values[tuple(jnp.where(frac <= 0.5, i, i + 1) for i, frac in zip(cells, fractions))]


register_pytree_node(
    RegularGridInterpolator,
    lambda r: ((r.grid, r.values, r.fill_value), (r.method, r.bounds_error)),
    lambda aux, children: RegularGridInterpolator(*children[:2], *aux, *children[2:]))
