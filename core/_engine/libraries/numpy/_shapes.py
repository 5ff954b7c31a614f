"""jax.numpy's shape manipulation: reshape, ravel, transpose, axes moves, expand/squeeze,
broadcasting, atleast_nd, concatenate/stack/split, tile, repeat, flip, roll (pad: _pad.py)."""
from __future__ import annotations

import builtins
import math

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array, to_numpy as _to_numpy
from ...base.avals import ShapedArray
from ...tracing.tracing import Tracer, get_aval
from ._util import _broadcast_shapes, _check_arraylike, _promote_dtypes, _staged
from ._dtypes import _dtype_arg


# ---- shapes -------------------------------------------------------------------------------

def shape(a):
    if not hasattr(a, "shape") and hasattr(a, "__jax_array__"):   # JAX reads the protocol here
        a = a.__jax_array__()
    return _np.shape(a)


def ndim(a):
    if not hasattr(a, "ndim") and hasattr(a, "__jax_array__"):
        a = a.__jax_array__()
    return _np.ndim(a)


def size(a, axis=None):
    s = _np.shape(a)
    if axis is None:
        return int(_np.prod(s))
    from ._reductions import _canon_one
    axes = tuple(_canon_one(i, len(s)) for i in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis: {axes}")
    return math.prod(s[i] for i in axes)  # JAX's: a tuple axis multiplies


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    _check_arraylike("reshape", a)
    if shape is None:
        shape = newshape
    if isinstance(a, (_np.ndarray, _np.generic)) and not isinstance(a, (Array, Tracer)):
        # JAX forwards to the argument's own reshape method: a numpy array stays numpy (under jit too,
        # so numpyro's support checks of numpy samples stay concrete and warn)
        return a.reshape(shape, order=order)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    aval = get_aval(a)
    shape = _compute_newshape(aval, shape)
    if order == "F":
        return lax.transpose(lax.reshape(lax.transpose(a, tuple(reversed(range(aval.ndim)))), tuple(reversed(shape))),
                             tuple(reversed(range(len(shape)))))
    return lax.reshape(a, shape)


def _compute_newshape(aval, newshape):
    """The shape with its one -1 resolved; errors quote `newshape` as the user wrote it (JAX's)."""
    try:
        iter(newshape)
        listed = newshape
    except TypeError:   # one size (a traced one too): JAX makes it a list, which the shape error quotes
        listed = [newshape]
    shape = _shape_arg(listed)
    if shape.count(-1) > 1:
        raise TypeError(f"can only specify one unknown axis size with a `-1` value, got {newshape}")
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if aval.size % known:  # (a 0 among the known sizes is JAX's ZeroDivisionError too)
            raise TypeError(f"cannot reshape array of shape {aval.shape} (size {aval.size}) into shape {newshape} "
                            f"because the product of specified axis sizes ({known}) does not evenly divide "
                            f"{aval.size}")
        return tuple(aval.size // known if d == -1 else d for d in shape)
    if math.prod(shape) != aval.size:
        raise TypeError(f"cannot reshape array of shape {aval.shape} (size {aval.size}) into shape {newshape} "
                        f"(size {math.prod(shape)})")
    return shape


def ravel(a, order="C"):
    _check_arraylike("ravel", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    return reshape(a, (get_aval(a).size,), order)


def transpose(a, axes=None):
    _check_arraylike("transpose", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    nd = get_aval(a).ndim
    axes = tuple(range(nd))[::-1] if axes is None else tuple(_canon_one(i, nd) for i in axes)
    return lax.transpose(a, axes)


def permute_dims(a, axes):
    return transpose(a, axes)


def matrix_transpose(x):
    return swapaxes(x, -1, -2)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    nd = a.ndim
    perm = list(range(nd))
    i, j = _canon_one(axis1, nd), _canon_one(axis2, nd)
    perm[i], perm[j] = perm[j], perm[i]
    return lax.transpose(a, tuple(perm))


def moveaxis(a, source, destination):
    a = asarray(a)
    nd = a.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_canon_one(s, nd) for s in src]
    dst = [_canon_one(d, nd) for d in dst]
    perm = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return lax.transpose(a, tuple(perm))


def rollaxis(a, axis, start=0):
    a = asarray(a)
    axis = _canon_one(axis, a.ndim)
    if start > axis:
        start -= 1
    return moveaxis(a, axis, start)


def _index_tuple(axis) -> tuple:
    """One axis or a sequence of them as a tuple of ints: any integer (a numpy scalar, a concrete 0-d
    array) counts as one axis, as JAX's _ensure_index_tuple (TFP's JAX substrate passes np.int32)."""
    import operator
    try:
        return (operator.index(axis),)
    except TypeError:
        return tuple(map(operator.index, axis))


def expand_dims(a, axis):
    _check_arraylike("expand_dims", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    axes = _index_tuple(axis)
    return lax.expand_dims(a, axes)  # (lax checks and canonicalizes, as JAX's)


def squeeze(a, axis=None):
    _check_arraylike("squeeze", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    aval = get_aval(a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(aval.shape) if d == 1)
    else:
        axes = _canon_axis(axis, aval.ndim)
        for ax in axes:
            if aval.shape[ax] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one, "
                                 f"got shape={aval.shape} and dimensions={axes}")
    return lax.squeeze(a, axes) if axes else a


def broadcast_to(array, shape):
    _check_arraylike("broadcast_to", array)
    a = asarray(array) if not isinstance(array, (Array, Tracer)) else array
    shape = _shape_arg(shape)
    aval = get_aval(a)
    if aval.shape == shape:
        return a
    nlead = len(shape) - aval.ndim
    if nlead < 0:
        raise ValueError(f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}")
    if builtins.any(d != 1 and d != s for d, s in zip(aval.shape, shape[nlead:])):
        from ...base.errors import _type_str
        raise ValueError(f"Incompatible types for broadcasting: input type={_type_str(aval)} and requested "
                         f"type={_type_str(ShapedArray(shape, aval.dtype))}")
    diff = [i for i, (d, s) in enumerate(zip(aval.shape, shape[nlead:])) if d != s]
    if diff:
        kept = [i for i in range(aval.ndim) if i not in diff]
        a = lax.reshape(a, tuple(aval.shape[i] for i in kept))
        return lax.broadcast_in_dim(a, shape, tuple(nlead + i for i in kept))
    return lax.broadcast_in_dim(a, shape, tuple(range(nlead, len(shape))))


def broadcast_arrays(*args):
    shp = _broadcast_shapes(*[_np.shape(a) for a in args])
    return [broadcast_to(a, shp) for a in args]


def broadcast_shapes(*shapes):
    return _broadcast_shapes(*shapes)


@_staged
def atleast_1d(*arys):
    outs = [asarray(a) if asarray(a).ndim >= 1 else reshape(a, (1,)) for a in arys]
    return outs[0] if len(outs) == 1 else outs


@_staged
def atleast_2d(*arys):
    outs = []
    for a in arys:
        a = asarray(a)
        outs.append(a if a.ndim >= 2 else lax.broadcast_to_rank(a, 2))
    return outs[0] if len(outs) == 1 else outs


@_staged
def atleast_3d(*arys):
    outs = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = expand_dims(a, -1)
        outs.append(a)
    return outs[0] if len(outs) == 1 else outs


def concatenate(arrays, axis=0, dtype=None):
    if isinstance(arrays, (Array, Tracer)):
        return _concat_array(arrays, axis)
    if not len(arrays):
        raise ValueError("Need at least one array to concatenate.")
    _check_arraylike("concatenate", *arrays)
    arrays = _promote_dtypes(*[asarray(a) if not isinstance(a, (Array, Tracer)) else a for a in arrays])
    if dtype is not None:
        arrays = [lax.convert_element_type(a, _dtype_arg(dtype)) for a in arrays]
    if axis is None:  # (0-d arrays included, as JAX's)
        return concatenate([ravel(a) for a in arrays], 0)
    nd = get_aval(arrays[0]).ndim
    if nd == 0:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    axis = _canon_one(axis, nd)
    if len(arrays) == 1:
        return arrays[0]
    return lax.concatenate(arrays, axis)


def _concat_array(a, axis):
    return concatenate([a[i] for i in range(get_aval(a).shape[0])], axis)


concat = concatenate


def stack(arrays, axis=0, out=None, dtype=None):
    if not len(arrays):
        raise ValueError("Need at least one array to stack.")
    arrays = [asarray(a) if not isinstance(a, (Array, Tracer)) else a for a in arrays]
    shapes = {get_aval(a).shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError("All input arrays must have the same shape.")
    nd = get_aval(arrays[0]).ndim + 1
    axis = _canon_one(axis, nd)
    if dtype is not None:
        arrays = [asarray(a, dtype=dtype) for a in arrays]
    else:
        arrays = _promote_dtypes(*arrays)
    from ...primitives.structural import stack_p
    return stack_p.bind(*arrays, axis=axis)


def vstack(tup, dtype=None):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype)


def hstack(tup, dtype=None):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype=dtype)


def dstack(tup, dtype=None):
    return concatenate([atleast_3d(a) for a in tup], 2, dtype=dtype)


def column_stack(tup):
    arrs = [asarray(a) for a in tup]
    arrs = [a.reshape(-1, 1) if a.ndim < 2 else a for a in arrs]
    return concatenate(arrs, 1)


row_stack = vstack


def split(ary, indices_or_sections, axis=0):
    return _split("split", ary, indices_or_sections, axis)


def array_split(ary, indices_or_sections, axis=0):
    return _split("array_split", ary, indices_or_sections, axis)


def _split(name, ary, indices_or_sections, axis):
    ary = asarray(ary)
    axis = _canon_one(axis, ary.ndim)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (int, _np.integer)):
        k = int(indices_or_sections)
        if name == "split" and n % k:
            raise ValueError(f"array split does not result in an equal division: rest is {n % k}")
        q, r = builtins.divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
    else:
        idx = [int(_concrete(i, name)) for i in indices_or_sections]
        bounds = [0] + [builtins.min(builtins.max(i if i >= 0 else i + n, 0), n) for i in idx] + [n]
        sizes = [builtins.max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])]
    from ...primitives.structural import split_p
    # numpy ints, as JAX computes them with np.diff (its jaxprs print `sizes=(np.int64(1), ...)`)
    return list(split_p.bind(ary, sizes=tuple(_np.int64(z) for z in sizes), axis=axis))


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if asarray(ary).ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def tile(A, reps):
    A = asarray(A)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    nd = builtins.max(A.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    A = reshape(A, (1,) * (nd - A.ndim) + A.shape)
    expanded = []
    for r, d in zip(reps, A.shape):
        expanded += [r, d]
    bshape = tuple(expanded)
    out = lax.broadcast_in_dim(A, bshape, tuple(range(1, 2 * nd, 2)))
    return reshape(out, tuple(r * d for r, d in zip(reps, A.shape)))


def repeat(a, repeats, axis=None, *, total_repeat_length=None):
    a = asarray(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _canon_one(axis, a.ndim)
    if total_repeat_length is not None:
        return _repeat_to_length(a, repeats, axis, total_repeat_length)
    if isinstance(repeats, int):
        shape = list(a.shape)
        b = lax.broadcast_in_dim(a, tuple(shape[:axis + 1] + [repeats] + shape[axis + 1:]),
                                 tuple(i if i <= axis else i + 1 for i in range(a.ndim)))
        shape[axis] *= repeats
        return reshape(b, tuple(shape))
    reps = _np.asarray(_to_numpy(repeats) if not isinstance(repeats, Tracer) else _concrete(repeats, "repeat"))
    idx = _np.repeat(_np.arange(a.shape[axis]), reps)
    return take(a, Array(idx.astype(_np.int32)), axis=axis)


def _repeat_to_length(a, repeats, axis, total):
    """jnp.repeat with total_repeat_length (repeats may be traced), as JAX computes it: cut at
    `total`, or padded with the last element; the gather indices come from a cumsum of block starts."""
    repeats = broadcast_to(ravel(asarray(repeats)), (a.shape[axis],))
    if total == 0:
        shape = list(a.shape)
        shape[axis] = 0
        return zeros(tuple(shape), a.dtype)
    if a.shape[axis] == 0:
        return a
    exclusive = roll(repeats, 1).at[0].set(0)
    starts = zeros((total,), _dt.int32).at[cumsum(exclusive)].add(1)
    return take(a, cumsum(starts) - 1, axis=axis)


def flip(m, axis=None):
    _check_arraylike("flip", m)
    return _flip(asarray(m), None if axis is None else _index_tuple(axis))


@_staged(static_argnames=("axis",))
def _flip(m, axis=None):
    axes = tuple(range(m.ndim)) if axis is None else _canon_axis(axis, m.ndim)
    return lax.rev(m, axes)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    axes = tuple(_canon_one(ax, a.ndim) for ax in axes)
    shifts = (shift,) if _np.ndim(shift) == 0 and not isinstance(shift, (list, tuple)) else tuple(shift)
    shifts = tuple(int(_concrete(sh, "roll")) for sh in shifts)
    return _roll_static(a, shifts, axes)


@_staged(static_argnames=("shift", "axis"))
def _roll_static(a, shift, axis):
    for ax, sh in zip(*_np.broadcast_arrays(axis, shift)):
        ax, sh = int(ax), int(sh)
        n = a.shape[ax]
        if n == 0:
            continue
        i = (-sh) % n
        a = lax.concatenate([_slice_in_dim(a, i, n, ax), _slice_in_dim(a, 0, i, ax)], ax)
    return a


def _slice_in_dim(a, start, limit, axis):
    """lax.slice_in_dim as JAX writes it (explicit unit strides show in the jaxpr)."""
    starts = [0] * a.ndim
    limits = list(a.shape)
    starts[axis], limits[axis] = start, limit
    return lax.slice(a, starts, limits, (1,) * a.ndim)


@_staged(static_argnames=("pad_width",))
def _pad(a, pad_width, constant_values):
    cv = lax._convert_element_type(asarray(constant_values), a.dtype, get_aval(a).weak_type)
    if _np.ndim(cv) != 0:
        raise NotImplementedError("jnp.pad: only scalar constant_values are supported")
    return st_pad(a, cv, tuple((lo, hi, 0) for lo, hi in pad_width))


def st_pad(a, cv, config):
    from ...primitives.structural import pad_p
    return pad_p.bind(a, cv, padding_config=config)


def _block(xs):
    """(the block assembled from nested lists, its list depth)."""
    if isinstance(xs, tuple):
        raise ValueError(f"jax.numpy.block does not allow tuples, got {xs}")
    if not isinstance(xs, list):
        return asarray(xs), 1
    if not xs:
        raise ValueError("jax.numpy.block does not allow empty list arguments")
    parts, depths = zip(*[_block(x) for x in xs])
    if builtins.any(d != depths[0] for d in depths[1:]):
        raise ValueError("Mismatched list depths in jax.numpy.block")
    rank = builtins.max(depths[0], builtins.max(p.ndim for p in parts))
    # the innermost lists join along the last axis, the next ones along the one before, ...
    return concatenate([lax.broadcast_to_rank(p, rank) for p in parts], axis=-depths[0]), depths[0] + 1


@_staged
def block(arrays):
    return _block(arrays)[0]

# jax.numpy's modules call one another: imported after this module's definitions, so that the
# import order of the package does not matter (these names are only used at call time)
from ._creation import asarray, _concrete, _shape_arg, zeros  # noqa: E402
from ._reductions import _canon_axis, _canon_one, cumsum  # noqa: E402
from ._take import take  # noqa: E402
