"""conv_general_dilated: the whole story of XLA's convolution as jax.lax has it.

One primitive (strides, explicit padding, lhs dilation = transposed convolution, rhs dilation =
atrous, feature and batch groups, any dimension numbers) with a numpy impl, JAX's shape and
dtype errors, jvp (it is bilinear), transposes for both operands (themselves convolutions, so
grad of grad works) and a vmap rule that folds the batch axis into a batch/feature dimension.
Around it, the helpers jax.lax exports: dimension numbers, padding and shape utilities,
conv_transpose and the patch/local convolutions built from the primitive.
"""
from __future__ import annotations

import enum
import math
import operator
from typing import NamedTuple, Sequence, Union

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, transpose_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from . import define


def _lax():
    from ..lax import lax  # INHERENT: up to lax; lax wraps the primitives defined here (a layer above)
    return lax


# ---- dimension numbers --------------------------------------------------------------------

class ConvDimensionNumbers(NamedTuple):
    """Where the batch, feature and spatial dimensions sit: lhs_spec = (batch, feature,
    spatial...), rhs_spec = (out feature, in feature, spatial...), out_spec like lhs_spec."""
    lhs_spec: Sequence[int]
    rhs_spec: Sequence[int]
    out_spec: Sequence[int]


ConvGeneralDilatedDimensionNumbers = Union[tuple[str, str, str], ConvDimensionNumbers, None]


def conv_general_permutations(dimension_numbers):
    """Layout strings such as ('NHWC', 'HWIO', 'NHWC') -> the three permutations that put each
    operand in (N, C, spatial...) / (O, I, spatial...) order; spatial order follows the rhs."""
    specs = tuple(dimension_numbers)
    lhs_s, rhs_s, out_s = specs
    pairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, ((a, b), spec) in enumerate(zip(pairs, specs)):
        if not spec.count(a) == spec.count(b) == 1:
            raise TypeError(f"convolution dimension_numbers[{i}] must contain the characters '{a}' and '{b}' "
                            f"exactly once, got {spec}.")
        if len(set(spec)) != len(spec):
            raise TypeError(f"convolution dimension_numbers[{i}] cannot have duplicate characters, got {spec}.")
    spatial = [set(s) - set(p) for s, p in zip(specs, pairs)]
    if not spatial[0] == spatial[1] == spatial[2]:
        raise TypeError("convolution dimension_numbers elements must each have the same set of spatial "
                        f"characters, got {specs}.")
    rhs_order = [c for c in rhs_s if c not in "OI"]

    def perm(spec, pair):
        return (spec.index(pair[0]), spec.index(pair[1])) + tuple(spec.index(c) for c in rhs_order)
    return tuple(perm(s, p) for s, p in zip(specs, pairs))


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """None, layout strings or a ConvDimensionNumbers -> a ConvDimensionNumbers."""
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    if len(lhs_shape) != len(rhs_shape):
        raise TypeError(f"convolution requires lhs and rhs ndim to be equal, got {len(lhs_shape)} and "
                        f"{len(rhs_shape)}.")
    if dimension_numbers is None:
        ident = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(ident, ident, ident)
    if not isinstance(dimension_numbers, (list, tuple)):
        raise TypeError(f"convolution dimension_numbers must be tuple/list or None, got {type(dimension_numbers)}.")
    if len(dimension_numbers) != 3:
        raise TypeError(f"convolution dimension_numbers list/tuple must be length 3, got {len(dimension_numbers)}.")
    if not all(isinstance(s, str) for s in dimension_numbers):
        raise TypeError("convolution dimension_numbers elements must be strings, got "
                        f"{tuple(map(type, dimension_numbers))}.")
    for i, s in enumerate(dimension_numbers):
        if len(s) != len(lhs_shape):
            raise TypeError(f"convolution dimension_numbers[{i}] must have len equal to the ndim of lhs and rhs, "
                            f"got {len(s)} for lhs and rhs shapes {tuple(lhs_shape)} and {tuple(rhs_shape)}.")
    return ConvDimensionNumbers(*conv_general_permutations(dimension_numbers))


# ---- padding and shapes -------------------------------------------------------------------

class PaddingType(enum.Enum):
    VALID = 1
    SAME = 2
    SAME_LOWER = 3


def padtype_to_pads(in_shape, window_shape, window_strides, padding):
    """'SAME' / 'SAME_LOWER' / 'VALID' -> explicit (low, high) pairs; SAME puts an odd pad's
    extra element at the end, SAME_LOWER at the start."""
    if isinstance(padding, str):
        try:
            padding = PaddingType[padding.upper()]
        except KeyError as err:
            raise RuntimeError("Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', "
                               f"got {padding}.") from err
    if padding is PaddingType.VALID:
        return [(0, 0)] * len(in_shape)
    if padding not in (PaddingType.SAME, PaddingType.SAME_LOWER):
        raise TypeError(f"Unknown padding type: {padding}.")
    pads = []
    for n, w, s in zip(in_shape, window_shape, window_strides):
        n, w, s = int(n), int(w), int(s)
        total = max((-(-n // s) - 1) * s + w - n, 0)
        small, large = total // 2, total - total // 2
        pads.append((small, large) if padding is PaddingType.SAME else (large, small))
    return pads




def _dilate_dim(d, dilation):
    return 0 if d == 0 else 1 + dilation * (d - 1)


def _stride_dim(d, window, stride):
    return max(0, (d - window) // stride + 1)


def conv_shape_tuple(lhs_shape, rhs_shape, strides, pads, batch_group_count=1):
    """Output shape of a convolution whose operands are in (N, C, sp...) / (O, I, sp...) order."""
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    if len(pads) != len(lhs_shape) - 2:
        raise TypeError(f"Wrong number of explicit pads for convolution: expected {len(lhs_shape) - 2}, "
                        f"got {len(pads)}.")
    padded = [int(n) + int(lo) + int(hi) for n, (lo, hi) in zip(lhs_shape[2:], pads)]
    if any(p < 0 for p in padded):
        raise ValueError("Negative padding is larger than the size of the corresponding dimension: "
                         f"got padding={pads} for lhs_shape[2:]={tuple(lhs_shape[2:])}")
    # (numpy ints for the spatial sizes, as JAX's, which computes them with numpy)
    space = tuple(np.int64(_stride_dim(p, int(k), int(s))) for p, k, s in zip(padded, rhs_shape[2:], strides))
    batch = lhs_shape[0] // batch_group_count if batch_group_count > 1 else lhs_shape[0]
    return (batch, rhs_shape[0]) + space


def _permuted(shape, perm):
    return tuple(int(shape[i]) for i in perm)


def _unpermuted(shape, perm):
    out = [0] * len(perm)
    for size, i in zip(shape, perm):
        out[i] = size
    return tuple(out)


def conv_general_shape_tuple(lhs_shape, rhs_shape, window_strides, padding, dimension_numbers):
    lhs_p, rhs_p, out_p = conv_general_permutations(dimension_numbers)
    out = conv_shape_tuple(_permuted(lhs_shape, lhs_p), _permuted(rhs_shape, rhs_p), window_strides, padding)
    return tuple(np.int64(d) for d in _unpermuted(out, out_p))


def _conv_transpose_padding(k, s, padding):
    """(before, after) padding of one dimension of a transposed convolution, given the padding of
    the forward convolution it undoes."""
    if padding == "SAME":
        total = k + s - 2
        before = k - 1 if s > k - 1 else -(-total // 2)
    elif padding == "VALID":
        total = k + s - 2 + max(k - s, 0)
        before = k - 1
    elif isinstance(padding, tuple):
        before, after = (k - p - 1 for p in padding)
        return before, after
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return before, total - before


def conv_transpose_shape_tuple(lhs_shape, rhs_shape, window_strides, padding, dimension_numbers):
    lhs_p, rhs_p, out_p = conv_general_permutations(dimension_numbers)
    lhs_t, rhs_t = _permuted(lhs_shape, lhs_p), _permuted(rhs_shape, rhs_p)
    if isinstance(padding, str):
        padding = [_conv_transpose_padding(k, s, padding) for k, s in zip(rhs_t[2:], window_strides)]
    space = [(i - 1) * s - k + 2 + int(sum(p)) for i, k, s, p in zip(lhs_t[2:], rhs_t[2:], window_strides, padding)]
    return tuple(np.int64(d) for d in _unpermuted((lhs_t[0], rhs_t[0]) + tuple(space), out_p))


# ---- the primitive ------------------------------------------------------------------------

def _conv_abstract(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
                   feature_group_count, batch_group_count, precision=None, preferred_element_type=None,
                   out_sharding=None):
    dn = dimension_numbers
    if lhs.ndim != rhs.ndim:
        raise ValueError("conv_general_dilated lhs and rhs must have the same number of dimensions, but got "
                         f"{lhs.shape} and {rhs.shape}.")
    if lhs.dtype != rhs.dtype:
        raise TypeError("lax.conv_general_dilated requires arguments to have the same dtypes, got "
                        f"{lhs.dtype.name}, {rhs.dtype.name}.")
    if feature_group_count <= 0:
        raise ValueError("conv_general_dilated feature_group_count must be a positive integer, got "
                         f"{feature_group_count}.")
    c_in = lhs.shape[dn.lhs_spec[1]]
    quot, rem = divmod(c_in, feature_group_count)
    if rem:
        raise ValueError("conv_general_dilated feature_group_count must divide lhs feature dimension size, "
                         f"but {feature_group_count} does not divide {c_in}.")
    if quot != rhs.shape[dn.rhs_spec[1]]:
        raise ValueError("conv_general_dilated lhs feature dimension size divided by feature_group_count must "
                         "equal the rhs input feature dimension size, but "
                         f"{c_in} // {feature_group_count} != {rhs.shape[dn.rhs_spec[1]]}.")
    c_out = rhs.shape[dn.rhs_spec[0]]
    if c_out % feature_group_count:
        raise ValueError("conv_general_dilated rhs output feature dimension size must be a multiple of "
                         f"feature_group_count, but {c_out} is not a multiple of {feature_group_count}.")
    if batch_group_count <= 0:
        raise ValueError("conv_general_dilated batch_group_count must be a positive integer, got "
                         f"{batch_group_count}.")
    n = lhs.shape[dn.lhs_spec[0]]
    if batch_group_count > 1 and n % batch_group_count:
        raise ValueError("conv_general_dilated batch_group_count must divide lhs batch dimension size, but "
                         f"{batch_group_count} does not divide {n}.")
    if c_out % batch_group_count:
        raise ValueError("conv_general_dilated rhs output feature dimension size must be a multiple of "
                         f"batch_group_count, but {c_out} is not a multiple of {batch_group_count}.")
    if batch_group_count > 1 and feature_group_count > 1:
        raise ValueError("At most one of batch_group_count and feature_group_count may be > 1, got "
                         f"batch_group_count={batch_group_count} and feature_group_count={feature_group_count}")
    if len(dn.rhs_spec) - 2 != len(window_strides):
        raise ValueError("conv_general_dilated window and window_strides must have the same number of "
                         f"dimensions, but got {len(dn.rhs_spec) - 2} and {len(window_strides)}")
    lhs_t = _permuted(lhs.shape, dn.lhs_spec)
    rhs_t = _permuted(rhs.shape, dn.rhs_spec)
    lhs_t = lhs_t[:2] + tuple(_dilate_dim(d, k) for d, k in zip(lhs_t[2:], lhs_dilation))
    rhs_t = rhs_t[:2] + tuple(_dilate_dim(d, k) for d, k in zip(rhs_t[2:], rhs_dilation))
    out_t = conv_shape_tuple(lhs_t, rhs_t, window_strides, padding, batch_group_count)
    dtype = np.dtype(preferred_element_type) if preferred_element_type is not None else lhs.dtype
    return ShapedArray(tuple(int(d) for d in _unpermuted(out_t, dn.out_spec)), dtype, lhs.weak_type and rhs.weak_type)


def _dilate_and_pad(x, lhs_dilation, padding):
    """x in (N, C, sp...): zeros between elements (lhs dilation), then the (possibly negative)
    padding: positive pads add zeros, negative pads crop."""
    nd = x.ndim - 2
    if any(d != 1 for d in lhs_dilation):
        shape = x.shape[:2] + tuple(_dilate_dim(n, d) for n, d in zip(x.shape[2:], lhs_dilation))
        dilated = np.zeros(shape, x.dtype)
        dilated[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in lhs_dilation)] = x
        x = dilated
    grow = [(0, 0), (0, 0)] + [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    if any(g != (0, 0) for g in grow):
        x = np.pad(x, grow)
    crop = tuple(slice(-min(lo, 0), x.shape[2 + i] + min(hi, 0))
                 for i, (lo, hi) in enumerate(padding))
    return x[(slice(None), slice(None)) + crop] if nd else x




def _conv_canonical(x, w, strides, rhs_dilation):
    """Ungrouped convolution of x (N, C, sp...) with w (O, C, k...), padding already applied:
    one contraction over (C, k...) of the strided windows of x."""
    nd = x.ndim - 2
    eff = tuple(_dilate_dim(k, d) for k, d in zip(w.shape[2:], rhs_dilation))
    out_space = tuple(_stride_dim(n, e, s) for n, e, s in zip(x.shape[2:], eff, strides))
    out_shape = (x.shape[0], w.shape[0]) + out_space
    if 0 in out_shape or 0 in x.shape or 0 in w.shape:
        return np.zeros(out_shape, np.result_type(x, w))
    spatial = tuple(range(2, 2 + nd))
    win = sliding_window_view(x, eff, axis=spatial) if nd else x
    pick = ((slice(None), slice(None)) + tuple(slice(None, None, s) for s in strides)
            + tuple(slice(None, None, d) for d in rhs_dilation))
    win = win[pick][(slice(None), slice(None)) + tuple(slice(0, n) for n in out_space)]
    # win: (N, C, out..., k...) . w: (O, C, k...) -> (N, out..., O)
    out = np.tensordot(win, w, axes=([1] + [2 + nd + i for i in range(nd)], [1] + [2 + i for i in range(nd)]))
    return np.moveaxis(out, -1, 1)


def _conv_impl(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
               feature_group_count, batch_group_count, precision=None, preferred_element_type=None,
               out_sharding=None):
    aval = _conv_abstract(get_aval(lhs), get_aval(rhs), window_strides=window_strides, padding=padding,
                          lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                          dimension_numbers=dimension_numbers, feature_group_count=feature_group_count,
                          batch_group_count=batch_group_count, preferred_element_type=preferred_element_type)
    dn = dimension_numbers
    x = np.transpose(np.asarray(lhs), dn.lhs_spec)
    w = np.transpose(np.asarray(rhs), dn.rhs_spec)
    if preferred_element_type is not None:  # accumulate in the type asked for (int8 -> int32, ...)
        x, w = x.astype(aval.dtype), w.astype(aval.dtype)
    x = _dilate_and_pad(x, lhs_dilation, padding)
    groups = max(feature_group_count, batch_group_count)
    # feature groups split lhs channels, batch groups split lhs batch; both split rhs outputs
    split_axis = 1 if feature_group_count > 1 else 0
    xs = np.split(x, groups, axis=split_axis)
    ws = np.split(w, groups, axis=0)
    out = np.concatenate([_conv_canonical(xg, wg, window_strides, rhs_dilation) for xg, wg in zip(xs, ws)], axis=1)
    out = out.astype(aval.dtype, copy=False)
    return np.transpose(out, np.argsort(dn.out_spec))


def _conv_pp(params):
    shown = dict(params)
    shown["dimension_numbers"] = repr(ConvDimensionNumbers(*params["dimension_numbers"]))
    return [(k, shown[k]) for k in sorted(shown)]


conv_general_dilated_p = define("conv_general_dilated", abstract_eval=_conv_abstract, impl=_conv_impl,
                                pp_params=_conv_pp)


# ---- jvp and transposes -------------------------------------------------------------------

def _bind(lhs, rhs, **params):
    return conv_general_dilated_p.bind(lhs, rhs, **params)


ad.defjvp(conv_general_dilated_p,
          lambda g, lhs, rhs, **p: _bind(g, rhs, **p),
          lambda g, lhs, rhs, **p: _bind(lhs, g, **p))


def _swap01(spec):
    return (spec[1], spec[0]) + tuple(spec[2:])


def _fold_axis_into(src, dst, x):
    """Merge axis `src` of x into axis `dst` (numbered without src), src the major part."""
    lax = _lax()
    shape = get_aval(x).shape
    perm = [i for i in range(len(shape)) if i != src]
    perm.insert(dst, src)
    rest = [shape[i] for i in range(len(shape)) if i != src]
    rest[dst] *= shape[src]
    return lax.reshape(lax.transpose(x, perm), rest)


def _split_axis(src, major, x):
    """Split axis `src` of x into (major, size // major)."""
    shape = list(get_aval(x).shape)
    shape[src:src + 1] = [major, shape[src] // major]
    return _lax().reshape(x, shape)


def _transpose_lhs(ct, lhs_aval, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, precision,
                   preferred_element_type, out_sharding=None):
    """Cotangent of lhs: ct convolved with the spatially reversed kernel, whose in/out feature
    roles swap; strides and lhs dilation trade places."""
    lax = _lax()
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    rhs_shape = get_aval(rhs).shape
    groups = feature_group_count
    if feature_group_count > 1 or batch_group_count > 1:
        g = max(feature_group_count, batch_group_count)
        rhs = _fold_axis_into(rhs_spec[0], rhs_spec[1], _split_axis(rhs_spec[0], g, rhs))
        groups = g
    sd = lambda spec: spec[2:]
    ct_shape = get_aval(ct).shape
    pads = []
    for n, k, o, s, (lo, _), ld, rd in zip([lhs_aval.shape[i] for i in sd(lhs_spec)],
                                           [rhs_shape[i] for i in sd(rhs_spec)],
                                           [ct_shape[i] for i in sd(out_spec)],
                                           window_strides, padding, lhs_dilation, rhs_dilation):
        keff, neff, oeff = _dilate_dim(k, rd), _dilate_dim(n, ld), _dilate_dim(o, s)
        before = keff - lo - 1
        pads.append((before, neff + keff - 1 - oeff - before))
    kernel = lax.rev(rhs, tuple(sd(rhs_spec)))
    if get_aval(kernel).dtype != get_aval(ct).dtype:
        kernel = lax.convert_element_type(kernel, get_aval(ct).dtype)
    out = conv_general_dilated(ct, kernel, window_strides=lhs_dilation, padding=pads, lhs_dilation=window_strides,
                               rhs_dilation=rhs_dilation,
                               dimension_numbers=ConvDimensionNumbers(out_spec, _swap01(rhs_spec), lhs_spec),
                               feature_group_count=groups, batch_group_count=1, precision=precision,
                               preferred_element_type=preferred_element_type)
    if get_aval(out).dtype != lhs_aval.dtype:
        out = lax.convert_element_type(out, lhs_aval.dtype)
    if batch_group_count > 1:
        out = _fold_axis_into(lhs_spec[1], lhs_spec[0], _split_axis(lhs_spec[1], batch_group_count, out))
    return out


def _transpose_rhs(ct, lhs, rhs_aval, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, precision,
                   preferred_element_type, out_sharding=None):
    """Cotangent of rhs: lhs convolved with ct, batch and feature roles swapped (so feature
    groups become batch groups and back); strides and rhs dilation trade places."""
    lax = _lax()
    if 0 in get_aval(ct).shape:
        return ad.Zero(rhs_aval)
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    lhs_shape, ct_shape = get_aval(lhs).shape, get_aval(ct).shape
    sd = lambda spec: spec[2:]
    pads = []
    for n, k, o, s, (lo, _), ld, rd in zip([lhs_shape[i] for i in sd(lhs_spec)],
                                           [rhs_aval.shape[i] for i in sd(rhs_spec)],
                                           [ct_shape[i] for i in sd(out_spec)],
                                           window_strides, padding, lhs_dilation, rhs_dilation):
        keff, neff, oeff = _dilate_dim(k, rd), _dilate_dim(n, ld), _dilate_dim(o, s)
        pads.append((lo, (oeff - neff) + (keff - lo - 1)))
    if get_aval(lhs).dtype != get_aval(ct).dtype:
        lhs = lax.convert_element_type(lhs, get_aval(ct).dtype)
    out = conv_general_dilated(lhs, ct, window_strides=rhs_dilation, padding=pads, lhs_dilation=lhs_dilation,
                               rhs_dilation=window_strides,
                               dimension_numbers=ConvDimensionNumbers(_swap01(lhs_spec), _swap01(out_spec),
                                                                      _swap01(rhs_spec)),
                               feature_group_count=batch_group_count, batch_group_count=feature_group_count,
                               precision=precision, preferred_element_type=preferred_element_type)
    if get_aval(out).dtype != rhs_aval.dtype:
        out = lax.convert_element_type(out, rhs_aval.dtype)
    return out


def _conv_transpose_rule(ct, lhs, rhs, **params):
    if type(ct) is ad.Zero:
        return [None, None]
    if ad.is_undefined(lhs):
        return [_transpose_lhs(ct, lhs.aval, rhs, **params), None]
    return [None, _transpose_rhs(ct, lhs, rhs.aval, **params)]


transpose_rules[conv_general_dilated_p] = _conv_transpose_rule


# ---- vmap ---------------------------------------------------------------------------------

def _conv_batch(axis_data, vals, dims, **params):
    """Fold the vmapped axis into the convolution: into the batch dimension when only lhs is
    batched, into output features when only rhs is, into feature groups when both are."""
    lhs, rhs = vals
    ld, rd = dims
    lhs_spec, rhs_spec, out_spec = params["dimension_numbers"]
    fgc, bgc = params["feature_group_count"], params["batch_group_count"]
    size = get_aval(lhs).shape[ld] if ld is not None else get_aval(rhs).shape[rd]
    if size == 0:
        raise NotImplementedError("vmap of conv_general_dilated over an axis of size 0 is not supported")
    p = dict(params)
    if ld is not None and rd is not None:
        if bgc > 1:
            lhs = _fold_axis_into(ld, lhs_spec[0], lhs)
            p["batch_group_count"] = bgc * size
        else:
            lhs = _fold_axis_into(ld, lhs_spec[1], lhs)
            p["feature_group_count"] = fgc * size
        rhs = _fold_axis_into(rd, rhs_spec[0], rhs)
        out = _bind(lhs, rhs, **p)
        return _split_axis(out_spec[1], size, out), out_spec[1]
    if ld is not None:
        if bgc == 1:
            out = _bind(_fold_axis_into(ld, lhs_spec[0], lhs), rhs, **p)
            return _split_axis(out_spec[0], size, out), out_spec[0]
        # keep each batch group whole: (groups, per-group batch) with the vmapped axis in between
        lhs = _split_axis(lhs_spec[0] + int(ld <= lhs_spec[0]), bgc, lhs)
        lhs = _fold_axis_into(ld + int(lhs_spec[0] < ld), lhs_spec[0] + 1, lhs)
        lhs = _fold_axis_into(lhs_spec[0], lhs_spec[0], lhs)
        out = _bind(lhs, rhs, **p)
        return _split_axis(out_spec[0], size, out), out_spec[0]
    if fgc == 1 and bgc == 1:
        out = _bind(lhs, _fold_axis_into(rd, rhs_spec[0], rhs), **p)
        return _split_axis(out_spec[1], size, out), out_spec[1]
    # grouped: groups stay outermost in the rhs output features, the vmapped axis inside them
    g = max(fgc, bgc)
    rhs = _split_axis(rhs_spec[0] + int(rd <= rhs_spec[0]), g, rhs)
    rhs = _fold_axis_into(rd + int(rhs_spec[0] < rd), rhs_spec[0] + 1, rhs)
    rhs = _fold_axis_into(rhs_spec[0], rhs_spec[0], rhs)
    out = _bind(lhs, rhs, **p)
    out = _split_axis(out_spec[1], g, out)
    out = _split_axis(out_spec[1] + 1, size, out)
    return _fold_axis_into(out_spec[1], out_spec[1] + 1, out), out_spec[1]


batch_rules[conv_general_dilated_p] = _conv_batch


# ---- the public functions -----------------------------------------------------------------

def _ints(seq, what):
    try:
        return tuple(operator.index(v) for v in seq)
    except TypeError as e:
        raise TypeError(f"{what} must be a sequence of integers, got {seq!r}") from e


def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None, rhs_dilation=None,
                         dimension_numbers=None, feature_group_count=1, batch_group_count=1,
                         precision=None, preferred_element_type=None, out_sharding=None):
    """General N-d convolution (XLA's ConvGeneralDilated); see jax.lax.conv_general_dilated."""
    from ..base import dtypes
    from ..tracing.array import Array, to_numpy
    from ..tracing.tracing import Tracer
    lhs = lhs if isinstance(lhs, (Array, Tracer)) else Array(to_numpy(lhs))
    rhs = rhs if isinstance(rhs, (Array, Tracer)) else Array(to_numpy(rhs))
    la, ra = get_aval(lhs), get_aval(rhs)
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    nd = la.ndim - 2
    if lhs_dilation is None:
        lhs_dilation = (1,) * nd
    elif isinstance(padding, str) and any(d != 1 for d in lhs_dilation):
        raise ValueError("String padding is not implemented for transposed convolution using this op. Please "
                         "either exactly specify the required padding or use conv_transpose.")
    rhs_dilation = (1,) * nd if rhs_dilation is None else rhs_dilation
    window_strides = _ints(window_strides, "window_strides")
    if isinstance(padding, str):
        window = [_dilate_dim(ra.shape[i], d) for i, d in zip(dn.rhs_spec[2:], rhs_dilation)]
        padding = padtype_to_pads([la.shape[i] for i in dn.lhs_spec[2:]], window, window_strides, padding)
    try:
        padding = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    except (ValueError, TypeError) as e:
        raise ValueError("padding argument to conv_general_dilated should be a string or a sequence of "
                         f"(low, high) pairs, got {padding}") from e
    if preferred_element_type is not None:
        preferred_element_type = np.dtype(dtypes.canonicalize_dtype(preferred_element_type))
    dn = ConvDimensionNumbers(*(tuple(int(i) for i in s) for s in dn))
    return conv_general_dilated_p.bind(
        lhs, rhs, window_strides=window_strides, padding=padding,
        lhs_dilation=_ints(lhs_dilation, "lhs_dilation"), rhs_dilation=_ints(rhs_dilation, "rhs_dilation"),
        dimension_numbers=dn, feature_group_count=int(feature_group_count),
        batch_group_count=int(batch_group_count), precision=precision,
        preferred_element_type=preferred_element_type, out_sharding=out_sharding)


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    """conv_general_dilated in (N, C, sp...) / (O, I, sp...) layout, without dilation."""
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, precision=None,
                              preferred_element_type=None):
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=lhs_dilation,
                                rhs_dilation=rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)


_TRANSPOSE_DEFAULT_LAYOUTS = {2: ("NC", "IO", "NC"), 3: ("NHC", "HIO", "NHC"), 4: ("NHWC", "HWIO", "NHWC"),
                              5: ("NHWDC", "HWDIO", "NHWDC")}


def conv_transpose(lhs, rhs, strides, padding, rhs_dilation=None, dimension_numbers=None,
                   transpose_kernel=False, precision=None, preferred_element_type=None,
                   use_consistent_padding=False):
    """A fractionally strided convolution (lhs dilated by `strides`), sized as the transpose of
    a forward convolution with `padding`; TensorFlow's layouts by default."""
    lax = _lax()
    la, ra = get_aval(lhs), get_aval(rhs)
    if la.ndim != ra.ndim or la.ndim < 2:
        raise ValueError(f"conv_transpose needs lhs and rhs of the same rank >= 2, got shapes {la.shape} and "
                         f"{ra.shape}")
    if dimension_numbers is None:
        if la.ndim not in _TRANSPOSE_DEFAULT_LAYOUTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _TRANSPOSE_DEFAULT_LAYOUTS[la.ndim]
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    kernel_space = [ra.shape[i] for i in dn.rhs_spec[2:]]
    rhs_dilation = (1,) * (ra.ndim - 2) if rhs_dilation is None else tuple(rhs_dilation)
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        each = [padding] * len(strides) if isinstance(padding, str) else [tuple(p) for p in padding]
        pads = tuple(_conv_transpose_padding(_dilate_dim(k, d), s, p)
                     for k, d, s, p in zip(kernel_space, rhs_dilation, strides, each))
    else:
        pads = padding
    if transpose_kernel:  # flip space and swap in/out features, as the gradient of a conv would
        rhs = lax.rev(rhs, tuple(dn.rhs_spec[2:]))
        perm = list(range(ra.ndim))
        perm[dn.rhs_spec[0]], perm[dn.rhs_spec[1]] = perm[dn.rhs_spec[1]], perm[dn.rhs_spec[0]]
        rhs = lax.transpose(rhs, perm)
    return conv_general_dilated(lhs, rhs, (1,) * (la.ndim - 2), pads, strides, rhs_dilation, dn,
                                precision=precision, preferred_element_type=preferred_element_type)


def conv_general_dilated_patches(lhs, filter_shape, window_strides, padding, lhs_dilation=None,
                                 rhs_dilation=None, dimension_numbers=None, precision=None,
                                 preferred_element_type=None):
    """The patches a convolution with `filter_shape` would see, stacked along the output's
    feature dimension (input channel major), by convolving with one-hot kernels."""
    from ..base import dtypes
    lax = _lax()
    la = get_aval(lhs)
    filter_shape = tuple(int(k) for k in filter_shape)
    dn = conv_dimension_numbers(la.shape, (1, 1) + filter_shape, dimension_numbers)
    lhs_spec, rhs_spec, out_spec = dn
    c = la.shape[lhs_spec[1]]
    positions = math.prod(filter_shape)
    one_hot = np.eye(positions, dtype=la.dtype).reshape((positions, 1) + filter_shape)
    one_hot = np.tile(one_hot, (c,) + (1,) * (one_hot.ndim - 1))  # (c * positions, 1, filter...)
    kernel = np.transpose(one_hot, np.argsort(rhs_spec))
    if preferred_element_type is not None:
        preferred_element_type = dtypes.canonicalize_dtype(preferred_element_type)
    return conv_general_dilated(lhs, lax._convert_element_type(kernel, la.dtype), window_strides, padding,
                                lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation, dimension_numbers=dn,
                                feature_group_count=c, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_local(lhs, rhs, window_strides, padding, filter_shape, lhs_dilation=None,
                               rhs_dilation=None, dimension_numbers=None, precision=None):
    """A locally connected ("unshared") convolution: a different kernel at every output
    position. rhs holds them as (in features * prod(filter_shape), out features, out space...)
    in rhs_spec's layout; the patches of lhs are contracted with them position by position."""
    lax = _lax()
    la, ra = get_aval(lhs), get_aval(rhs)
    patches = conv_general_dilated_patches(lhs, filter_shape, window_strides, padding, lhs_dilation,
                                           rhs_dilation, dimension_numbers, precision)
    lhs_spec, rhs_spec, out_spec = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    nd = la.ndim - 2
    p_sp = [out_spec[2 + i] for i in range(nd)]
    r_sp = [rhs_spec[2 + i] for i in range(nd)]
    # patches: (N at out_spec[0], C*K at out_spec[1], space); rhs: (C*K at rhs_spec[1], O at rhs_spec[0], space)
    out = lax.dot_general(patches, rhs, (((out_spec[1],), (rhs_spec[1],)), (tuple(p_sp), tuple(r_sp))),
                          precision=precision)
    # out: (space..., N, O) -> out_spec layout
    order = [None] * (nd + 2)
    order[out_spec[0]] = nd
    order[out_spec[1]] = nd + 1
    for i, d in enumerate(p_sp):
        order[d] = i
    return lax.transpose(out, order)


LAX_EXPORTS = {
    "ConvDimensionNumbers": ConvDimensionNumbers,
    "ConvGeneralDilatedDimensionNumbers": ConvGeneralDilatedDimensionNumbers,
    "conv_general_dilated_p": conv_general_dilated_p,
    "conv_general_dilated": conv_general_dilated,
    "conv": conv,
    "conv_with_general_padding": conv_with_general_padding,
    "conv_transpose": conv_transpose,
    "conv_dimension_numbers": conv_dimension_numbers,
    "conv_general_permutations": conv_general_permutations,
    "conv_shape_tuple": conv_shape_tuple,
    "conv_general_shape_tuple": conv_general_shape_tuple,
    "conv_transpose_shape_tuple": conv_transpose_shape_tuple,
    "conv_general_dilated_patches": conv_general_dilated_patches,
    "conv_general_dilated_local": conv_general_dilated_local,
    "padtype_to_pads": padtype_to_pads,
}
