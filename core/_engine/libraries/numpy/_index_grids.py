"""jnp.mgrid, jnp.ogrid, jnp.r_ and jnp.c_: index expressions that build arrays from slices
(`start:stop:step`, or `start:stop:numj` for `num` evenly spaced points) and concatenations."""
from __future__ import annotations

import numpy as _np

from ...tracing.tracing import Tracer


def _static(v, what):
    if isinstance(v, Tracer):
        from ...base.errors import ConcretizationTypeError
        raise ConcretizationTypeError(v, f"The problem arose with the slice {what}.")
    return v


def _grid_1d(s: slice, op_name: str):
    """One axis of a grid: arange for a real step, linspace (endpoint included) for `numj`."""
    from ._creation import arange, linspace
    start = _static(s.start, f"start of jnp.{op_name}") or 0
    stop = _static(s.stop, f"stop of jnp.{op_name}")
    step = _static(s.step, f"step of jnp.{op_name}") or 1
    if _np.iscomplex(step):
        return linspace(start, stop, int(abs(step)))
    return arange(start, stop, step)


def _grids(key, op_name):
    from ._util import _promote_dtypes
    return _promote_dtypes(*[_grid_1d(k, op_name) for k in key])


class _MGrid:
    """jnp.mgrid[0:3, 0:2]: the dense grid, axes stacked first."""

    def __getitem__(self, key):
        from ._creation import arange, meshgrid
        from ._shapes import stack
        if isinstance(key, slice):
            return _grid_1d(key, "mgrid")
        grids = meshgrid(*_grids(key, "mgrid"), indexing="ij", sparse=False)
        return stack(grids, 0) if grids else arange(0)


class _OGrid:
    """jnp.ogrid[0:3, 0:2]: the open grid, a list of arrays that broadcast together."""

    def __getitem__(self, key):
        from ._creation import meshgrid
        if isinstance(key, slice):
            return _grid_1d(key, "ogrid")
        return meshgrid(*_grids(key, "ogrid"), indexing="ij", sparse=True)


class _Concatenator:
    """r_ and c_: concatenate the items along `axis` after raising them to `ndmin` dimensions; a
    leading string directive ('0,2,-1', 'r', 'c') overrides axis, ndmin and where 1-d items go."""

    def __init__(self, op_name, axis, ndmin, trans1d):
        self.op_name, self.defaults = op_name, (axis, ndmin, trans1d, -1)

    def __len__(self):
        return 0

    def _params(self, directive):
        params = list(self.defaults)
        if directive in ("r", "c"):
            params[3] = "rc".index(directive)
            return params
        parts = directive.split(",")
        parts = parts + params[len(parts):] if len(parts) < 4 else parts[:3] + [params[3]]
        try:
            return [int(p) for p in parts]
        except ValueError as err:
            raise ValueError(f"could not understand directive {directive!r}") from err

    def __getitem__(self, key):
        from ._creation import array
        from ._shapes import concatenate, expand_dims, transpose
        items = key if isinstance(key, tuple) else (key,)
        params = list(self.defaults)
        if items and isinstance(items[0], str):
            params, items = self._params(items[0]), items[1:]
        axis, ndmin, trans1d, matrix = params
        parts = []
        for item in items:
            if isinstance(item, str):
                raise ValueError("string directive must be placed at the beginning")
            if isinstance(item, slice):
                new, item_ndim = _grid_1d(item, self.op_name), 0
            else:
                new = array(item, copy=False)
                item_ndim = new.ndim
            new = array(new, copy=False, ndmin=ndmin)
            if trans1d != -1 and ndmin - item_ndim > 0:
                # the item's own axes move to position trans1d among the ndmin axes (numpy's rule)
                order = tuple(range(ndmin))
                shift = ndmin - abs(ndmin + trans1d + 1) % ndmin
                new = transpose(new, order[shift:] + order[:shift])
            parts.append(new)
        out = concatenate(tuple(parts), axis=axis)
        if matrix != -1 and out.ndim == 1:
            out = expand_dims(out, matrix)
        return out


mgrid = _MGrid()
ogrid = _OGrid()
r_ = _Concatenator("r_", 0, 1, -1)
c_ = _Concatenator("c_", -1, 2, 0)
