"""Windowed reductions, as jax.lax has them: reduce_window_{sum,max,min} (the monoid ones), the
generic reduce_window (any computation, as a jaxpr), and the two primitives their derivatives
use: select_and_gather_add (jvp of max/min pooling: the tangent at each window's chosen
element) and select_and_scatter_add (its transpose: cotangents scattered back to the chosen
elements). select_and_scatter (generic select/scatter jaxprs) completes the family.

Every window is read through one numpy view (`_windows`): base dilation and padding fill the
operand with the reduction's identity, then a strided sliding window gives (out..., window...).
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, transpose_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from . import define
from . import elementwise as ew


def _lax():
    from ..lax import lax  # INHERENT: up to lax; lax wraps these primitives (a layer above)
    return lax


# ---- shapes -------------------------------------------------------------------------------

def _dilate(d, k):
    return 0 if d == 0 else 1 + k * (d - 1)


def reduce_window_shape_tuple(operand_shape, window_dimensions, window_strides, padding, base_dilation=None,
                              window_dilation=None):
    if base_dilation is not None:
        operand_shape = tuple(_dilate(d, k) for d, k in zip(operand_shape, base_dilation))
    if window_dilation is not None:
        window_dimensions = tuple(_dilate(d, k) for d, k in zip(window_dimensions, window_dilation))
    padded = [d + lo + hi for d, (lo, hi) in zip(operand_shape, padding)]
    return tuple(max(0, (p - w) // s + 1) for p, w, s in zip(padded, window_dimensions, window_strides))


def _check_shapelike(what, name, values, nonzero=False):
    if any(int(v) < 0 for v in values):
        raise TypeError(f"{what} {name} must have every element be nonnegative, got {tuple(values)}.")
    if nonzero and any(int(v) == 0 for v in values):
        raise TypeError(f"{what} {name} must have every element be positive, got {tuple(values)}.")


def _window_shape(operand, window_dimensions, window_strides, padding, base_dilation, window_dilation):
    """The output shape, with JAX's errors for inconsistent window parameters."""
    _check_shapelike("reduce_window", "window_dimensions", window_dimensions, nonzero=True)
    _check_shapelike("reduce_window", "window_strides", window_strides, nonzero=True)
    if operand.ndim != len(window_dimensions):
        raise TypeError("reduce_window got the wrong number of window_dimensions for operand: got operand shape "
                        f"{operand.shape} with window_dimensions {window_dimensions}.")
    for name, v in (("window_strides", window_strides), ("base_dilation", base_dilation),
                    ("window_dilation", window_dilation)):
        if len(v) != len(window_dimensions):
            raise TypeError(f"reduce_window got inconsistent {name} and window_dimensions: got {name} {v} and "
                            f"window_dimensions {window_dimensions}.")
    return reduce_window_shape_tuple(operand.shape, window_dimensions, window_strides, padding, base_dilation,
                                     window_dilation)


# ---- numpy windows ------------------------------------------------------------------------

def _fill_dilate_pad(x, fill, padding, base_dilation):
    """x with `fill` between elements (base dilation) and around it (padding; negative crops)."""
    if any(k != 1 for k in base_dilation):
        shape = tuple(_dilate(d, k) for d, k in zip(x.shape, base_dilation))
        out = np.full(shape, fill, x.dtype)
        out[tuple(slice(None, None, k) for k in base_dilation)] = x
        x = out
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    if any(g != (0, 0) for g in grow):
        x = np.pad(x, grow, constant_values=np.asarray(fill, x.dtype))
    return x[tuple(slice(-min(lo, 0), x.shape[i] + min(hi, 0)) for i, (lo, hi) in enumerate(padding))]


def _windows(x, out_shape, window_dimensions, window_strides, window_dilation):
    """View of x (already filled) as (out..., window...)."""
    nd = x.ndim
    eff = tuple(_dilate(w, d) for w, d in zip(window_dimensions, window_dilation))
    if 0 in out_shape or not nd:
        return np.zeros(tuple(out_shape) + tuple(window_dimensions), x.dtype)
    view = sliding_window_view(x, eff)
    pick = tuple(slice(None, None, s) for s in window_strides) + tuple(slice(None, None, d) for d in window_dilation)
    view = view[pick]
    return view[tuple(slice(0, n) for n in out_shape)]


def _flat_windows(x, out_shape, p):
    w = _windows(x, out_shape, p["window_dimensions"], p["window_strides"], p["window_dilation"])
    return w.reshape(tuple(out_shape) + (-1,))


def _max_identity(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return -np.inf
    if dtype.kind in "iu":
        return np.iinfo(dtype).min
    if dtype.kind == "b":
        return False
    raise TypeError(f"no max identity for {dtype}")


def _min_identity(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.inf
    if dtype.kind in "iu":
        return np.iinfo(dtype).max
    if dtype.kind == "b":
        return True
    raise TypeError(f"no min identity for {dtype}")


_WINDOW_KEYS = ("window_dimensions", "window_strides", "padding", "base_dilation", "window_dilation")


# ---- reduce_window_sum / max / min --------------------------------------------------------

def _monoid_abstract(name, needs_number):
    def rule(x, **p):
        if needs_number and x.dtype.kind not in "iufc":
            raise TypeError(f"operand to {name} must have a number dtype, got {x.dtype.name}")
        return ShapedArray(_window_shape(x, **p), x.dtype, x.weak_type)
    return rule


def _monoid_impl(reducer, identity):
    def impl(x, **p):
        x = np.asarray(x)
        out_shape = _window_shape(x, **p)
        filled = _fill_dilate_pad(x, identity(x.dtype), p["padding"], p["base_dilation"])
        w = _flat_windows(filled, out_shape, p)
        if w.shape[-1] == 0:
            return np.full(out_shape, identity(x.dtype), x.dtype)
        return reducer(w, axis=-1).astype(x.dtype, copy=False)
    return impl


reduce_window_sum_p = define("reduce_window_sum", abstract_eval=_monoid_abstract("reduce_window_sum", True),
                             impl=_monoid_impl(lambda w, axis: np.sum(w, axis=axis, dtype=w.dtype),
                                               lambda dt: 0))
reduce_window_max_p = define("reduce_window_max", abstract_eval=_monoid_abstract("reduce_window_max", False),
                             impl=_monoid_impl(np.max, _max_identity))
reduce_window_min_p = define("reduce_window_min", abstract_eval=_monoid_abstract("reduce_window_min", False),
                             impl=_monoid_impl(np.min, _min_identity))


def _bind_window(prim, x, window_dimensions, window_strides, padding, base_dilation=None, window_dilation=None):
    n = len(window_dimensions)
    return prim.bind(x, window_dimensions=tuple(window_dimensions), window_strides=tuple(window_strides),
                     padding=tuple(tuple(p) for p in padding),
                     base_dilation=tuple(base_dilation) if base_dilation is not None else (1,) * n,
                     window_dilation=tuple(window_dilation) if window_dilation is not None else (1,) * n)


def _lhs_vjp_padding(in_shape, window, strides, out_shape, padding, base_dilation, window_dilation):
    """Padding that makes a stride-1 window pass over the (interior-padded) cotangent land
    back on the input's positions (the same arithmetic as a convolution's lhs transpose)."""
    pads = []
    for n, w, s, o, (lo, _), bd, wd in zip(in_shape, window, strides, out_shape, padding, base_dilation,
                                           window_dilation):
        weff, neff, oeff = _dilate(w, wd), _dilate(n, bd), _dilate(o, s)
        before = weff - lo - 1
        pads.append((before, neff + weff - 1 - oeff - before))
    return pads


def _window_sum_transpose(ct, x, *, window_dimensions, window_strides, padding, base_dilation, window_dilation):
    if type(ct) is ad.Zero:
        return [None]
    lax = _lax()
    in_shape = x.aval.shape
    pads = _lhs_vjp_padding(in_shape, window_dimensions, window_strides, get_aval(ct).shape, padding,
                            base_dilation, window_dilation)
    config = [(lo, hi, s - 1) for (lo, hi), s in zip(pads, window_strides)]
    padded = lax.pad(ct, lax._zero(ct), config)
    out = _bind_window(reduce_window_sum_p, padded, window_dimensions, base_dilation, [(0, 0)] * len(in_shape),
                       None, window_dilation)
    return [out]


ad.deflinear(reduce_window_sum_p, _window_sum_transpose)


def _window_batch(prim):
    """vmap: the batch axis gets a window of 1 (and no stride, padding or dilation)."""
    def rule(axis_data, vals, dims, **p):
        x, d = vals[0], dims[0]
        q = {k: tuple(v[:d]) + (((0, 0),) if k == "padding" else (1,)) + tuple(v[d:]) for k, v in p.items()
             if k in _WINDOW_KEYS}
        q.update({k: v for k, v in p.items() if k not in _WINDOW_KEYS})
        return prim.bind(x, **q), d
    return rule


for _p in (reduce_window_sum_p, reduce_window_max_p, reduce_window_min_p):
    batch_rules[_p] = _window_batch(_p)


def _chooser_jvp(select_prim):
    def jvp(g, x, **p):
        return select_and_gather_add_p.bind(ad.instantiate(g), x, select_prim=select_prim, **p)
    return jvp


# ---- select_and_gather_add: the tangent at each window's max (ge) / min (le) ---------------

_SELECTS = {"ge": (np.argmax, _max_identity), "le": (np.argmin, _min_identity)}


def _chosen(operand, out_shape, select_prim, p):
    """Flat position, inside each window, of the element select_prim keeps (the first one on
    ties, as XLA's pairwise select keeps the earlier element when `ge`/`le` holds)."""
    arg, identity = _SELECTS[select_prim.name]
    ones = (1,) * operand.ndim
    filled = _fill_dilate_pad(operand, identity(operand.dtype), p["padding"], p.get("base_dilation", ones))
    w = _flat_windows(filled, out_shape, dict(p, window_dilation=p.get("window_dilation", ones)))
    return arg(w, axis=-1), filled.shape


def _sga_abstract(t, x, *, select_prim, **p):
    if t.shape != x.shape:
        raise TypeError(f"select_and_gather_add tangents and operand shapes must match, got {t.shape} and {x.shape}.")
    return ShapedArray(_window_shape(x, **p), t.dtype, t.weak_type)


def _sga_impl(t, x, *, select_prim, **p):
    t, x = np.asarray(t), np.asarray(x)
    out_shape = _window_shape(x, **p)
    which, _ = _chosen(x, out_shape, select_prim, p)
    tw = _flat_windows(_fill_dilate_pad(t, 0, p["padding"], p["base_dilation"]), out_shape, p)
    if tw.shape[-1] == 0:
        return np.zeros(out_shape, t.dtype)
    return np.take_along_axis(tw, which[..., None], axis=-1)[..., 0]


select_and_gather_add_p = define("select_and_gather_add", abstract_eval=_sga_abstract, impl=_sga_impl,
                                 weak_type_rule=lambda w, **p: w[0])


def _sga_jvp(primals, tangents, **p):
    t, x = primals
    out = select_and_gather_add_p.bind(t, x, **p)
    dt = tangents[0]
    if type(dt) is ad.Zero:
        return out, ad.Zero(get_aval(out))
    return out, select_and_gather_add_p.bind(dt, x, **p)


def _sga_transpose(ct, t, x, *, select_prim, window_dimensions, window_strides, padding, base_dilation,
                   window_dilation):
    if any(d != 1 for d in window_dilation):
        raise NotImplementedError("VJP not implemented for select_and_gather (MaxPool) with window dilation, got "
                                  f"window_dilation={window_dilation}.")
    if type(ct) is ad.Zero:
        return [None, None]
    lax = _lax()
    dilated = any(d != 1 for d in base_dilation)
    if dilated:
        identity = _SELECTS[select_prim.name][1](get_aval(x).dtype)
        x = lax.pad(x, lax._const(x, identity), [(0, 0, d - 1) for d in base_dilation])
    out = select_and_scatter_add_p.bind(ct, x, select_prim=select_prim, window_dimensions=window_dimensions,
                                        window_strides=window_strides, padding=padding)
    if dilated:
        out = lax.slice(out, (0,) * len(base_dilation), get_aval(out).shape, base_dilation)
    return [out, None]


def _front_batch(prim, keys):
    """vmap of a two-operand window primitive: both operands get the batch axis in front and
    the window a leading 1."""
    def rule(axis_data, vals, dims, **p):
        from ..transforms.batching import bdim_at_front
        size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        vals = [bdim_at_front(v, d, size) for v, d in zip(vals, dims)]
        q = dict(p)
        for k in keys:
            q[k] = (((0, 0),) if k == "padding" else (1,)) + tuple(p[k])
        return prim.bind(*vals, **q), 0
    return rule


ad.jvp_rules[select_and_gather_add_p] = _sga_jvp
transpose_rules[select_and_gather_add_p] = _sga_transpose
batch_rules[select_and_gather_add_p] = _front_batch(select_and_gather_add_p, _WINDOW_KEYS)

ad.defjvp(reduce_window_max_p, _chooser_jvp(ew.ge_p))
ad.defjvp(reduce_window_min_p, _chooser_jvp(ew.le_p))


# ---- select_and_scatter_add: each window's source value added at its chosen element -------

_SCATTER_KEYS = ("window_dimensions", "window_strides", "padding")


def _ssa_abstract(source, operand, *, select_prim, window_dimensions, window_strides, padding):
    if len(window_dimensions) != len(window_strides):
        raise TypeError("select_and_scatter got inconsistent window_strides and window_dimensions: got "
                        f"window_strides {window_strides} and window_dimensions {window_dimensions}.")
    return ShapedArray(operand.shape, source.dtype, source.weak_type)


def _scatter_to_chosen(source, operand, select_prim, p, combine):
    """Scatter each window's source value onto the operand position select_prim chose, with
    `combine` (np.add / any ufunc), over an operand padded with the select identity."""
    nd = operand.ndim
    q = dict(p, base_dilation=(1,) * nd, window_dilation=(1,) * nd)
    out_shape = source.shape
    which, padded_shape = _chosen(operand, out_shape, select_prim, q)
    # window-relative offsets -> padded coordinates
    offs = np.unravel_index(which, tuple(p["window_dimensions"])) if nd else ()
    grid = np.indices(out_shape) if nd else ()
    coords = tuple(g * s + o for g, s, o in zip(grid, p["window_strides"], offs))
    out = np.zeros(padded_shape, source.dtype)
    combine.at(out, coords, source)
    lows = [max(lo, 0) for lo, _ in p["padding"]]
    return out[tuple(slice(lo, lo + n) for lo, n in zip(lows, operand.shape))] if nd else out


def _ssa_impl(source, operand, *, select_prim, window_dimensions, window_strides, padding):
    source, operand = np.asarray(source), np.asarray(operand)
    if any(lo < 0 or hi < 0 for lo, hi in padding):
        raise NotImplementedError("select_and_scatter_add with negative padding is not supported here")
    p = dict(window_dimensions=window_dimensions, window_strides=window_strides, padding=padding)
    if source.size == 0:
        return np.zeros(operand.shape, source.dtype)
    return _scatter_to_chosen(source, operand, select_prim, p, np.logical_or if source.dtype == bool else np.add)


select_and_scatter_add_p = define("select_and_scatter_add", abstract_eval=_ssa_abstract, impl=_ssa_impl,
                                  weak_type_rule=lambda w, **p: w[0])


def _ssa_jvp(primals, tangents, **p):
    s, x = primals
    out = select_and_scatter_add_p.bind(s, x, **p)
    ds = tangents[0]
    if type(ds) is ad.Zero:
        return out, ad.Zero(get_aval(out))
    return out, select_and_scatter_add_p.bind(ds, x, **p)


def _ssa_transpose(ct, s, x, *, select_prim, window_dimensions, window_strides, padding):
    if type(ct) is ad.Zero:
        return [None, None]
    ones = (1,) * len(window_dimensions)
    return [select_and_gather_add_p.bind(ct, x, select_prim=select_prim, window_dimensions=window_dimensions,
                                         window_strides=window_strides, padding=padding, base_dilation=ones,
                                         window_dilation=ones), None]


ad.jvp_rules[select_and_scatter_add_p] = _ssa_jvp
transpose_rules[select_and_scatter_add_p] = _ssa_transpose
batch_rules[select_and_scatter_add_p] = _front_batch(select_and_scatter_add_p, _SCATTER_KEYS)


# ---- generic reduce_window and select_and_scatter (computations as jaxprs) -----------------

def _eval_scalar_jaxpr(jaxpr, consts, *args):
    """Run a jaxpr of scalar ops over whole numpy arrays (its ops are elementwise)."""
    from ..tracing.array import to_numpy
    from .generic_reduce import eval_jaxpr_numpy
    return eval_jaxpr_numpy(jaxpr, [to_numpy(c) for c in consts], *[np.asarray(a) for a in args])


def _rw_abstract(*avals, jaxpr, consts, **p):
    n = len(avals) // 2
    ops, inits = avals[:n], avals[n:]
    if any(o.dtype != i.dtype for o, i in zip(ops, inits)):
        raise TypeError("reduce_window got inconsistent dtypes for operands and init_values: got operand dtypes "
                        f"{[o.dtype for o in ops]} and init_value dtypes {[i.dtype for i in inits]}.")
    if any(i.shape for i in inits):
        raise TypeError("reduce_window expected init_values to be scalars but init_values have shapes "
                        f"{[i.shape for i in inits]}.")
    shape = _window_shape(ops[0], **p)
    return [ShapedArray(shape, o.dtype, o.weak_type) for o in ops]


def _rw_impl(*args, jaxpr, consts, **p):
    n = len(args) // 2
    ops, inits = [np.asarray(a) for a in args[:n]], [np.asarray(a) for a in args[n:]]
    out_shape = _window_shape(ops[0], **p)
    wins = [_flat_windows(_fill_dilate_pad(o, i, p["padding"], p["base_dilation"]), out_shape, p)
            for o, i in zip(ops, inits)]
    acc = [np.broadcast_to(i, out_shape).astype(i.dtype) for i in inits]
    for k in range(wins[0].shape[-1] if wins else 0):
        acc = _eval_scalar_jaxpr(jaxpr, consts, *acc, *[w[..., k] for w in wins])
        acc = [np.broadcast_to(a, out_shape).astype(o.dtype, copy=False) for a, o in zip(acc, ops)]
    return [np.array(a) for a in acc]


reduce_window_p = define("reduce_window", abstract_eval=_rw_abstract, impl=_rw_impl, multiple_results=True,
                         weak_type_rule=lambda w, **p: w[:len(w) // 2])


def _rw_jvp(primals, tangents, *, jaxpr, consts, **p):
    """The reduction's own jvp, reduced over windows of (primal, tangent) pairs."""
    n = len(primals) // 2
    if not all(type(t) is ad.Zero for t in tangents[n:]):
        raise TypeError("reduce_window jvp does not support non-zero init_value_tangent.")
    from ..transforms.staging import eval_jaxpr
    ops, inits = list(primals[:n]), list(primals[n:])
    op_ts = [ad.instantiate(t) for t in tangents[:n]]
    init_ts = [_lax().full_like(i, 0) for i in inits]

    def pair(*args):
        acc, acc_t, y, y_t = args[:n], args[n:2 * n], args[2 * n:3 * n], args[3 * n:]
        outs, outs_t = ad.jvp_flat(lambda *a: eval_jaxpr(jaxpr, consts, *a), list(acc) + list(y),
                                   list(acc_t) + list(y_t))
        return list(outs) + [ad.instantiate(t) for t in outs_t]
    res = _generic_reduce_window(ops + op_ts, inits + init_ts, pair, p)
    return res[:n], res[n:]


def _rw_batch(axis_data, vals, dims, *, jaxpr, consts, **p):
    from ..transforms.batching import bdim_at_front
    n = len(vals) // 2
    if any(d is not None for d in dims[n:]):
        raise NotImplementedError("reduce_window batching is not implemented for initial values")
    size = next(get_aval(v).shape[d] for v, d in zip(vals[:n], dims[:n]) if d is not None)
    ops = [bdim_at_front(v, d, size) for v, d in zip(vals[:n], dims[:n])]
    q = {k: (((0, 0),) if k == "padding" else (1,)) + tuple(v) for k, v in p.items()}
    return reduce_window_p.bind(*ops, *vals[n:], jaxpr=jaxpr, consts=consts, **q), [0] * n


def _rw_transpose(cts, *args, **params):
    # its jvp reduces (primal, tangent) pairs together: not linear in the tangents alone
    raise ValueError("Linearization failed to produce known values for all output primals. This is typically "
                     "caused by attempting to differentiate a function uses an operation that does not support "
                     "reverse-mode autodiff.")


ad.jvp_rules[reduce_window_p] = _rw_jvp
transpose_rules[reduce_window_p] = _rw_transpose
batch_rules[reduce_window_p] = _rw_batch


def _generic_reduce_window(flat_ops, flat_inits, fun, p):
    """Trace fun over scalar (acc..., x...) and bind reduce_window_p with it."""
    from ..transforms.staging import trace_to_jaxpr
    scalar_avals = [ShapedArray((), get_aval(i).dtype, False) for i in flat_inits]
    jaxpr, consts = trace_to_jaxpr(fun, scalar_avals * 2)
    return reduce_window_p.bind(*flat_ops, *flat_inits, jaxpr=jaxpr, consts=tuple(consts), **p)


def _ss_abstract(operand, source, init_value, *, select_jaxpr, select_consts, scatter_jaxpr, scatter_consts,
                 window_dimensions, window_strides, padding):
    _ssa_abstract(source, operand, select_prim=None, window_dimensions=window_dimensions,
                  window_strides=window_strides, padding=padding)
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _ss_impl(operand, source, init_value, *, select_jaxpr, select_consts, scatter_jaxpr, scatter_consts,
             window_dimensions, window_strides, padding):
    """XLA's SelectAndScatter: in each window keep the element `select(kept, other)` prefers,
    then fold the window's source value into the output there with `scatter`."""
    operand, source = np.asarray(operand), np.asarray(source)
    nd = operand.ndim
    padded = np.pad(operand, [(lo, hi) for lo, hi in padding]) if nd else operand
    out_shape = source.shape
    p = dict(window_dimensions=window_dimensions, window_strides=window_strides, window_dilation=(1,) * nd)
    w = _flat_windows(padded, out_shape, p)
    best = w[..., 0]
    which = np.zeros(out_shape, np.intp)
    for k in range(1, w.shape[-1]):
        keep = _eval_scalar_jaxpr(select_jaxpr, select_consts, best, w[..., k])[0]
        keep = np.broadcast_to(keep, out_shape)
        best = np.where(keep, best, w[..., k])
        which = np.where(keep, which, k)
    out = np.full(padded.shape, np.asarray(init_value), operand.dtype)
    offs = np.unravel_index(which, tuple(window_dimensions)) if nd else ()
    grid = np.indices(out_shape) if nd else ()
    coords = [tuple(int(c[idx]) for c in [g * s + o for g, s, o in zip(grid, window_strides, offs)])
              for idx in np.ndindex(*out_shape)]
    for idx, pos in zip(np.ndindex(*out_shape), coords):  # sequential: scatter may be any computation
        out[pos] = _eval_scalar_jaxpr(scatter_jaxpr, scatter_consts, out[pos], source[idx])[0]
    return out[tuple(slice(lo, lo + n) for (lo, _), n in zip(padding, operand.shape))] if nd else out


select_and_scatter_p = define("select_and_scatter", abstract_eval=_ss_abstract, impl=_ss_impl,
                              weak_type_rule=lambda w, **p: w[0])


# ---- the public function ------------------------------------------------------------------

def _monoid_reducer(computation, init):
    """reduce_window_{sum,max,min} when the computation is lax.add/max/min and the init value is
    a concrete scalar equal to its identity (JAX's test, so other inits stay generic)."""
    from ..tracing.array import to_numpy
    from ..tracing.tracing import Tracer
    lax = _lax()
    table = {lax.add: (reduce_window_sum_p, lambda dt: 0), lax.max: (reduce_window_max_p, _max_identity),
             lax.min: (reduce_window_min_p, _min_identity)}
    if computation not in table or isinstance(init, Tracer):
        return None
    prim, identity = table[computation]
    v = np.asarray(to_numpy(init))
    if v.shape:
        return None
    try:
        return prim if v == identity(v.dtype) else None
    except TypeError:
        return None


def reduce_window(operand, init_value, computation, window_dimensions, window_strides=None, padding="VALID",
                  base_dilation=None, window_dilation=None):
    """Reduce every window of `operand` (a pytree of arrays) with `computation`."""
    from ..tracing.array import Array
    from ..tracing.tracing import Tracer
    from ..base.tree_util import tree_flatten, tree_unflatten
    from .convolution import padtype_to_pads
    flat_ops, op_tree = tree_flatten(operand)
    flat_inits, init_tree = tree_flatten(init_value)
    as_arr = lambda v: v if isinstance(v, (Array, Tracer)) else _lax().full((), v)  # Python scalars: weak
    flat_ops = [as_arr(o) for o in flat_ops]
    window_dimensions = tuple(int(w) for w in window_dimensions)
    n = len(window_dimensions)
    window_strides = (1,) * n if window_strides is None else tuple(int(s) for s in window_strides)
    base_dilation = (1,) * n if base_dilation is None else tuple(int(d) for d in base_dilation)
    window_dilation = (1,) * n if window_dilation is None else tuple(int(d) for d in window_dilation)
    if isinstance(padding, str):
        shape = get_aval(flat_ops[0]).shape
        dilated = tuple(_dilate(d, k) for d, k in zip(shape, base_dilation))
        eff = tuple(_dilate(w, k) for w, k in zip(window_dimensions, window_dilation))
        padding = tuple(tuple(p) for p in padtype_to_pads(dilated, eff, window_strides, padding))
    else:
        padding = tuple((int(lo), int(hi)) for lo, hi in padding)
    p = dict(window_dimensions=window_dimensions, window_strides=window_strides, padding=padding,
             base_dilation=base_dilation, window_dilation=window_dilation)
    if len(flat_ops) == 1 and len(flat_inits) == 1:
        prim = _monoid_reducer(computation, flat_inits[0])
        if prim is not None:
            return tree_unflatten(op_tree, [prim.bind(flat_ops[0], **p)])
    inits = [as_arr(i) for i in flat_inits]

    def fun(*args):
        acc = tree_unflatten(init_tree, list(args[:len(inits)]))
        x = tree_unflatten(init_tree, list(args[len(inits):]))
        out, out_tree = tree_flatten(computation(acc, x))
        if out_tree != op_tree:
            raise ValueError("reduce_window output must have the same tree structure as the operands "
                             f"{op_tree} vs. {out_tree}")
        return out
    outs = _generic_reduce_window(flat_ops, inits, fun, p)
    return tree_unflatten(op_tree, outs)


LAX_EXPORTS = {
    "reduce_window": reduce_window,
    "reduce_window_shape_tuple": reduce_window_shape_tuple,
    "reduce_window_p": reduce_window_p,
    "reduce_window_sum_p": reduce_window_sum_p,
    "reduce_window_max_p": reduce_window_max_p,
    "reduce_window_min_p": reduce_window_min_p,
    "select_and_gather_add_p": select_and_gather_add_p,
    "select_and_scatter_add_p": select_and_scatter_add_p,
    "select_and_scatter_p": select_and_scatter_p,
}
