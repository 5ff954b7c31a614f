"""jnp.pad: every padding mode JAX supports (numpy's, bar none), a callable mode included.
The widths, stat lengths and end values are static, as in JAX; each mode builds the padded
array axis by axis from slices, reductions and concatenations."""
from __future__ import annotations

import builtins

import numpy as _np

from ...lax import lax
from ...tracing.tracing import Tracer, get_aval
from ._util import _check_arraylike, _staged

# mode -> the keyword arguments it takes (JAX rejects any other)
_MODE_KWARGS = {
    "constant": ("constant_values",), "empty": (), "edge": (), "wrap": (),
    "linear_ramp": ("end_values",), "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
    "maximum": ("stat_length",), "minimum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",),
}


def _pairs(values, nd, name):
    """values given as numpy.pad accepts them -> one (before, after) pair per axis."""
    def concrete(v):
        return _concrete(v, f"{name} argument of jnp.pad") if isinstance(v, Tracer) else v
    try:
        vals = _np.asarray(_tree_map(concrete, values))
    except ValueError as e:
        if "inhomogeneous" in str(e):
            raise TypeError(f"`{name}` entries must be the same shape: {values}") from e
        raise
    if vals.dtype == object:
        raise TypeError(f"`{name}` entries must be the same shape: {vals}")
    if vals.shape == (nd, 2):
        return tuple((v[0], v[1]) for v in vals)
    if vals.shape in ((1, 2), (2,)):
        pair = tuple(vals.reshape(2))
        return (pair,) * nd
    if vals.shape in ((1,), ()):
        v = vals.reshape(())[()]
        return ((v, v),) * nd
    raise ValueError(f"jnp.pad: {name} with nd={nd} has unsupported shape {vals.shape}. "
                     f"Valid shapes are ({nd}, 2), (1, 2), (2,), (1,), or ().")


def _tree_map(f, x):
    return type(x)(_tree_map(f, v) for v in x) if isinstance(x, (list, tuple)) else f(x)


def pad(array, pad_width, mode="constant", **kwargs):
    _check_arraylike("pad", array)
    a = asarray(array)
    widths = _pairs(pad_width, a.ndim, "pad_width")
    if not builtins.all(_np.issubdtype(type(v), _np.integer) for pair in widths for v in pair):
        raise TypeError("`pad_width` must be of integral type.")
    widths = tuple((_np.int64(lo), _np.int64(hi)) for lo, hi in widths)  # as JAX's jaxprs show them
    if callable(mode):
        return _pad_func(a, widths, mode, **kwargs)
    if mode not in _MODE_KWARGS:
        raise NotImplementedError(f"Unimplemented padding mode '{mode}' for np.pad.")
    unsupported = set(kwargs) - set(_MODE_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    if a.ndim and builtins.any(v < 0 for pair in widths for v in pair):
        raise ValueError("index can't contain negative values")
    if mode == "constant":
        return _pad_const_staged(a, widths, kwargs.get("constant_values", 0))
    stat_length = kwargs.get("stat_length")
    if stat_length is not None and a.ndim:
        stat_length = _pairs(stat_length, a.ndim, "stat_length")
    end_values = _pairs(kwargs.get("end_values", 0), a.ndim, "end_values") if mode == "linear_ramp" else 0
    return _pad_modes(a, widths, mode, 0, stat_length, end_values, kwargs.get("reflect_type", "even"))


def _pad_constant(a, widths, constant_values):
    """constant_values: a scalar, or one (before, after) per axis (shape (nd, 2), (1, 2), (2,), (1,))."""
    if a.ndim == 0:
        return a
    cv = lax._convert_element_type(asarray(constant_values), a.dtype, get_aval(a).weak_type)
    if cv.ndim == 0 or cv.shape == (1,):  # (pad_p bound directly: JAX's jaxprs keep numpy ints)
        return st_pad(a, cv if cv.ndim == 0 else squeeze(cv), tuple((lo, hi, 0) for lo, hi in widths))
    if cv.ndim == 1 and cv.shape[0] != 2:
        raise ValueError(f"jnp.pad: constant_values has unsupported shape {cv.shape}. If the shape is "
                         "1D or 2D, the last dimension must be of size 1 or 2.")
    cv = broadcast_to(cv, (a.ndim, 2))
    for i, (lo, hi) in enumerate(widths):  # each side of each axis its own value
        for side, n in ((0, lo), (1, hi)):
            if n:
                config = [(0, 0, 0)] * a.ndim
                config[i] = (n, 0, 0) if side == 0 else (0, n, 0)
                a = st_pad(a, cv[i, side], tuple(config))
    return a


_pad_const_staged = _staged(_pad_constant, static_argnames=("widths",), name="_pad")


def _no_padding_of_empty_axis(pair, mode):
    if pair[0] > 0 or pair[1] > 0:
        raise ValueError(f"Cannot apply '{mode}' padding to empty axis")


def _piece(a, start, stop, axis):
    """a[start:stop] along axis (negative and None bounds as Python slices take them)."""
    start, stop, _ = slice(start, stop).indices(a.shape[axis])
    return _slice_in_dim(a, start, stop, axis)


def _spread(x, k, axis):
    """x (length 1 along axis) repeated k times along it, as JAX's repeat stages a static count."""
    grown = x.shape[:axis + 1] + (int(k),) + x.shape[axis + 1:]
    dims = tuple(d if d <= axis else d + 1 for d in range(x.ndim))
    return lax.reshape(lax.broadcast_in_dim(x, grown, dims), x.shape[:axis] + (int(k),) + x.shape[axis + 1:])


def _pad_wrap(a, widths, **_):
    for i, (lo, hi) in enumerate(widths):
        n = a.shape[i]
        if n == 0:
            _no_padding_of_empty_axis((lo, hi), "wrap")
            continue
        # whole copies of the axis, and the partial copies at either end
        parts = [_piece(a, n - lo % n, n, i)] if lo % n else []
        parts += [a] * (lo // n + hi // n + 1)
        parts += [_piece(a, 0, hi % n, i)] if hi % n else []
        a = lax.concatenate(parts, i)
    return a


def _mirror(a, count, axis, n, before, mode, odd):
    """`count` values mirrored out of one end of a (reflect skips the edge value, symmetric repeats
    it); wider pads mirror the growing array again in chunks of the axis's original length n, as
    numpy does."""
    skip = 1 if mode == "reflect" and n > 1 else 0
    edge = _piece(a, 0, 1, axis) if before else _piece(a, -1, None, axis)
    while count > 0:
        take = builtins.min(count, n - skip)
        count -= take
        if before:
            part = _piece(a, skip, skip + take, axis)
        else:
            part = _piece(a, -(take + skip), None if (mode == "symmetric" or n == 1) else -1, axis)
        part = flip(part, axis)
        if odd:  # reflect_type='odd': mirrored through the edge value
            part = 2 * edge - part
            if n > 1:
                edge = _piece(part, 0, 1, axis) if before else _piece(part, -1, None, axis)
        a = lax.concatenate([part, a] if before else [a, part], axis)
    return a


def _pad_mirror(a, widths, mode, reflect_type, **_):
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    for i, (lo, hi) in enumerate(widths):
        if a.shape[i] == 0:
            _no_padding_of_empty_axis((lo, hi), mode)
            continue
        n = a.shape[i]
        a = _mirror(a, lo, i, n, True, mode, reflect_type == "odd")
        a = _mirror(a, hi, i, n, False, mode, reflect_type == "odd")
    return a


def _pad_edge(a, widths, **_):
    for i, (lo, hi) in enumerate(widths):
        n = a.shape[i]
        if n == 0:
            _no_padding_of_empty_axis((lo, hi), "edge")
            continue
        a = lax.concatenate([_spread(_piece(a, 0, 1, i), lo, i), a, _spread(_piece(a, n - 1, n, i), hi, i)], i)
    return a


def _pad_linear_ramp(a, widths, end_values, **_):
    weak = get_aval(a).weak_type
    for i, (lo, hi) in enumerate(widths):
        def ramp(end, edge, num):
            r = linspace(end, edge.squeeze(i), num, endpoint=False, dtype=a.dtype, axis=i)
            return lax._convert_element_type(r, a.dtype, weak)
        before = ramp(end_values[i][0], _piece(a, 0, 1, i), lo)
        after = flip(ramp(end_values[i][1], _piece(a, -1, None, i), hi), i)
        a = lax.concatenate([before, a, after], i)
    return a


def _pad_stat(a, widths, mode, stat_length, **_):
    stat = {"maximum": amax, "minimum": amin, "mean": mean, "median": median}[mode]
    weak = get_aval(a).weak_type
    for i, (lo, hi) in enumerate(widths):
        if stat_length is None:
            s_lo = s_hi = stat(a, axis=i, keepdims=True)
        else:
            len_lo, len_hi = stat_length[i]
            if len_lo == 0 or len_hi == 0:
                raise ValueError("stat_length of 0 yields no value for padding")
            n = a.shape[i]
            s_lo = stat(_piece(a, 0, builtins.min(len_lo, n), i), axis=i, keepdims=True)
            s_hi = stat(_piece(a, -builtins.min(len_hi, n), None, i), axis=i, keepdims=True)
        if _np.issubdtype(a.dtype, _np.integer):  # integer means/medians round to nearest
            s_lo, s_hi = round(s_lo), round(s_hi)
        s_lo = lax._convert_element_type(s_lo, a.dtype, weak)
        s_hi = lax._convert_element_type(s_hi, a.dtype, weak)
        a = lax.concatenate([_spread(s_lo, lo, i), a, _spread(s_hi, hi, i)], i)
    return a


def _pad_empty(a, widths, **_):
    # jnp.empty is jnp.zeros: the padding is zeros
    for i, (lo, hi) in enumerate(widths):
        shape = lambda k: a.shape[:i] + (k,) + a.shape[i + 1:]  # noqa: E731
        a = lax.concatenate([zeros(shape(lo), a.dtype), a, zeros(shape(hi), a.dtype)], i)
    return a


_MODES = {"wrap": _pad_wrap, "reflect": _pad_mirror, "symmetric": _pad_mirror, "edge": _pad_edge,
          "linear_ramp": _pad_linear_ramp, "maximum": _pad_stat, "minimum": _pad_stat,
          "mean": _pad_stat, "median": _pad_stat, "empty": _pad_empty}


# constant_values rides along unused, as in JAX's jaxprs (one staged function serves every mode)
@_staged(static_argnames=("widths", "mode", "stat_length", "end_values", "reflect_type"), name="_pad")
def _pad_modes(a, widths, mode, constant_values, stat_length, end_values, reflect_type):
    if a.ndim == 0:
        return a
    return _MODES[mode](a, widths, mode=mode, stat_length=stat_length, end_values=end_values,
                        reflect_type=reflect_type)


def _pad_func(a, widths, func, **kwargs):
    """A callable mode: func(row, (before, after), axis, kwargs) fills each zero-padded row in place."""
    padded = _pad_constant(a, widths, 0)
    for axis in range(padded.ndim):
        padded = apply_along_axis(func, axis, padded, widths[axis], axis, kwargs)
    return padded


# jax.numpy's modules call one another: imported after the definitions (used at call time only)
from ._aliases import apply_along_axis  # noqa: E402
from ._creation import _concrete, asarray, linspace, zeros  # noqa: E402
from ._reductions import amax, amin  # noqa: E402
from ._shapes import _slice_in_dim, broadcast_to, flip, squeeze, st_pad  # noqa: E402
from ._statistics import mean, median  # noqa: E402
from ._ufuncs import round  # noqa: E402
