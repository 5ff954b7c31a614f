"""jax.numpy's statistics: mean, average, var, std, cov, corrcoef, median, quantile,
percentile, the nan-ignoring reductions, bincount, histogram and interp."""
from __future__ import annotations

import builtins
import operator

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer, eager_fast_path_ok, get_aval
from ...primitives.reductions import eager_mean, eager_var, var_plan   # [speed]
from ._util import _check_arraylike, _promote_args_inexact, _promote_dtypes_inexact, _staged
from ._dtypes import _dtype_arg


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    if type(a) is Array and dtype is None and where is None and a._value.dtype.kind in "fc" \
            and a._value.dtype.itemsize > 2 and a._value.dtype.isnative:  # [dtypes] (16-bit floats: upcast below)
        # eager fast path: the general path below with dt = a.dtype
        if eager_fast_path_ok():   # [speed] its primitives' numpy, without binding each
            return Array(eager_mean(a._value, _canon_axis(axis, a._value.ndim), keepdims), False)
        total = sum(a, axis, keepdims=keepdims)   # (JAX's jitted mean: times the count's reciprocal, XLA's rewrite)
        dt = a._value.dtype.type
        return lax.mul(total, Array(_np.array(dt(1) / dt(_axis_size(a, axis))), False))
    _check_arraylike("mean", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    aval = get_aval(a)
    if dtype is None:
        dt = aval.dtype if _dt.kind(aval.dtype) in "fc" else _dt.default_float_dtype()
    else:
        dt = _dt.canonicalize_dtype(_dtype_arg(dtype))
    if _dt.reduction_computation_dtype(dt) != dt:  # [dtypes] f16/bf16: averaged in float32, rounded once
        return lax._convert_element_type(mean(a, axis, _np.float32, keepdims=keepdims, where=where), dt, False)
    if where is None:
        normalizer = _axis_size(aval, axis)
        total = sum(a, axis, dtype=dt, keepdims=keepdims)
        if not isinstance(total, Tracer) and _dt.kind(dt) == "f":  # eager: as JAX's jitted mean (above)
            return lax.mul(total, Array(_np.array(_np.dtype(dt).type(1) / _np.dtype(dt).type(normalizer)), False))
        return lax.div(total, lax._convert_element_type(normalizer, dt, False))
    normalizer = sum(broadcast_to(where, aval.shape), axis, dtype=dt, keepdims=keepdims)
    return lax.div(sum(a, axis, dtype=dt, keepdims=keepdims, where=where), normalizer)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if returned:
            return avg, full_like(avg, _axis_size(get_aval(asarray(a)), axis))
        return avg
    a, weights = _promote_dtypes_inexact(a, weights)
    if get_aval(weights).shape != get_aval(a).shape:
        weights = lax.broadcast_in_dim(weights, get_aval(a).shape, (_canon_one(axis, get_aval(a).ndim),))
    wsum = sum(weights, axis, keepdims=keepdims)
    avg = lax.div(sum(lax.mul(a, weights), axis, keepdims=keepdims), wsum)
    return (avg, wsum) if returned else avg


@_staged(static_argnames=("rowvar", "bias", "ddof"))
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None):
    """Covariance matrix of the variables in m's rows (columns when rowvar=False), as numpy."""
    if y is not None:
        m, y = _promote_args_inexact("cov", m, y)
        if get_aval(y).ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    else:
        (m,) = _promote_args_inexact("cov", m)
    if get_aval(m).ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    X = atleast_2d(m)
    if not rowvar and get_aval(m).ndim != 1:
        X = X.T
    if get_aval(X).shape[0] == 0:
        return array([]).reshape(0, 0)
    if y is not None:
        y2 = atleast_2d(y)
        if not rowvar and get_aval(y2).shape[0] != 1:
            y2 = y2.T
        X = concatenate((X, y2), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        w = asarray(fweights)
    if aweights is not None:
        w = asarray(aweights) if w is None else w * asarray(aweights)
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        f = get_aval(X).shape[1] - ddof
    elif ddof == 0:
        f = w_sum
    elif aweights is None:
        f = w_sum - ddof
    else:
        f = w_sum - ddof * sum(w * asarray(aweights)) / w_sum
    X = X - avg[:, None]
    X_T = X.T if w is None else (X * w).T
    return true_divide(dot(X, X_T.conj()), f).squeeze()


@_staged(static_argnames=("rowvar",))
def corrcoef(x, y=None, rowvar=True):
    """Pearson correlation coefficients (cov normalised by the standard deviations)."""
    c = cov(x, y, rowvar)
    if len(_np.shape(c)) == 0:
        return true_divide(c, c)
    d = diag(c)
    stddev = sqrt(real(d)).astype(get_aval(c).dtype)
    c = c / stddev[:, None] / stddev[None, :]
    real_part = clip(real(c), -1, 1)
    if get_aval(c).dtype.kind == "c":
        return lax.complex(real_part, clip(imag(c), -1, 1))
    return real_part


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None,
        mean=None):
    correction = ddof if correction is None else _correction(ddof, correction)
    if type(a) is Array and dtype is None and where is None and mean is None and eager_fast_path_ok():   # [speed]
        plan = _var_fast_plan(a._value, axis, correction, keepdims)
        if plan is not None:
            return Array(eager_var(a._value, plan), False)
    _check_arraylike("var", a)
    return _var(asarray(a), axis=_axis_arg(axis), dtype=_dtype_arg(dtype), correction=correction,
                keepdims=keepdims, where=where, a_mean=mean)


_VAR_PLANS: dict = {}   # (shape, dtype, axis, correction's type and value, keepdims) -> plan or None


def _var_fast_plan(x, axis, correction, keepdims):
    """var/std's eager fast path for this call (cached per call signature), or None: it takes a
    native float array (16-bit floats are computed in float32, the emulated bfloat16 is not
    native), a plain axis and a Python number as the correction (one that fits the int the
    general path converts it to)."""
    try:
        key = (x.shape, x.dtype, axis, type(correction), correction, keepdims)
        return _VAR_PLANS[key]
    except KeyError:
        pass
    except TypeError:   # an unhashable axis (a list) or correction: the general path
        return None
    ok = (x.dtype.kind == "f" and x.dtype.itemsize > 2 and x.dtype.isnative
          and (type(correction) is float or (type(correction) is int and -2**31 <= correction < 2**31))
          and (axis is None or type(axis) in (int, tuple)))
    plan = var_plan(x, _canon_axis(axis, x.ndim), correction, keepdims) if ok else None   # (raises for a bad axis)
    if len(_VAR_PLANS) > 256:
        _VAR_PLANS.clear()
    _VAR_PLANS[key] = plan
    return plan


def _correction(ddof, correction):
    """var's and std's degrees-of-freedom correction, given as ddof or (array API) correction."""
    if correction is None:
        return ddof
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def _axis_arg(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _var_promote_types(a_dtype, dtype):
    if dtype is not None:
        dtype = _dt.canonicalize_dtype(dtype)
        if _dt.kind(dtype) not in "fc":
            raise ValueError(f"dtype argument to jnp.var must be inexact; got {dtype}")
        return _dt.float_dtype_for(a_dtype) if a_dtype.kind != "c" else a_dtype, dtype
    computation = _dt.float_dtype_for(a_dtype)
    # a complex array's variance is real (complex64 -> float32), as JAX's
    out = _np.dtype(computation.char.lower()) if computation.kind == "c" else computation
    return _dt.reduction_computation_dtype(computation), out  # [dtypes] f16/bf16 computed in float32


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def _var(a, *, axis=None, dtype=None, correction=0, keepdims=False, where=None, a_mean=None):
    computation_dtype, dtype = _var_promote_types(get_aval(a).dtype, dtype)
    a = astype(a, computation_dtype)
    if a_mean is None:
        a_mean = mean(a, axis, dtype=computation_dtype, keepdims=True, where=where)
    else:
        a_mean = astype(asarray(a_mean), computation_dtype)
    centered = lax.sub(a, a_mean)
    if computation_dtype.kind == "c":
        centered = lax.real(lax.mul(centered, lax.conj(centered)))
        computation_dtype = get_aval(centered).dtype
    else:
        centered = lax.square(centered)
    if where is None:
        normalizer = lax._convert_element_type(_axis_size(get_aval(a), axis), computation_dtype, False)
    else:
        normalizer = sum(broadcast_to(where, get_aval(a).shape), axis, dtype=computation_dtype, keepdims=keepdims)
    normalizer = lax.sub(normalizer, lax.convert_element_type(correction, computation_dtype))
    result = sum(centered, axis, dtype=computation_dtype, keepdims=keepdims, where=where)
    result = astype(lax.div(result, normalizer), dtype)
    return _where(greater(normalizer, 0), result, _np.nan)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None, mean=None):
    correction = ddof if correction is None else _correction(ddof, correction)
    if type(a) is Array and dtype is None and where is None and mean is None and eager_fast_path_ok():   # [speed]
        plan = _var_fast_plan(a._value, axis, correction, keepdims)
        if plan is not None:
            return Array(_np.asarray(_np.sqrt(eager_var(a._value, plan))), False)
    _check_arraylike("std", a)
    return _std(asarray(a), axis=_axis_arg(axis), dtype=_dtype_arg(dtype), correction=correction,
                keepdims=keepdims, where=where, mean=mean)


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def _std(a, *, axis=None, dtype=None, correction=0, keepdims=False, where=None, mean=None):
    return lax.sqrt(var(a, axis=axis, dtype=dtype, correction=correction, keepdims=keepdims, where=where,
                        mean=mean))


_QUANTILE_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")


def _quantile(a, q, axis, method, keepdims, squash_nans, weights=None):
    """Quantiles along `axis` (an int, a tuple or None), q's axis first: the values sorted, then
    read at q * (n - 1) by `method`. squash_nans (the nan* functions): n counts the non-NaN values,
    which sort first; otherwise a slice holding a NaN gives NaN. `weights` (inverted_cdf only)
    weigh each value, as JAX's."""
    from ._reductions import cumsum
    from ._ufuncs import floor, isnan
    from ._shapes import moveaxis
    from ._take import take_along_axis
    if method not in _QUANTILE_METHODS:
        raise ValueError("method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or 'inverted_cdf'")
    if weights is not None:
        a, weights = _quantile_weights(a, weights, axis, method)
    else:
        a, = _promote_dtypes_inexact(a)
    if a.dtype.kind == "c":
        raise ValueError("quantile does not support complex input, as the operation is poorly defined.")
    q = asarray(q, a.dtype)
    if q.ndim > 1:
        raise ValueError(f"q must be have rank <= 1, got shape {q.shape}")
    if axis is None:
        axes = tuple(range(a.ndim))
    else:
        axes = tuple(_canon_one(x, a.ndim) for x in (axis if isinstance(axis, tuple) else (axis,)))
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
    kept_shape = tuple(1 if d in axes else n for d, n in enumerate(a.shape))
    reduced_last = tuple(range(a.ndim - len(axes), a.ndim))
    a = moveaxis(a, axes, reduced_last)
    batch = a.shape[:a.ndim - len(axes)]
    a = a.reshape(batch + (-1,))
    n = a.shape[-1]
    nan = isnan(a)
    if weights is None:
        values = sort(a, axis=-1)
    else:
        weights = moveaxis(weights, axes, reduced_last).reshape(batch + (-1,))
        values, weights = lax.sort_key_val(a, weights, dimension=a.ndim - 1)
    count = sum(lax.bitwise_not(nan), axis=-1) if squash_nans else full_like(values[..., 0], n, _np.int32)
    count = count.astype(a.dtype).reshape((1,) * q.ndim + batch)
    last = lax.max(count - 1, lax._const(count, 0))
    qb = q.reshape(q.shape + (1,) * len(batch))

    def at(i):
        i = clip(i, 0, last).astype(_np.int32)
        return take_along_axis(broadcast_to(values, i.shape + (n,)), i[..., None], axis=-1)[..., 0]
    pos = qb * (count - 1)
    low, high = floor(pos), lax.ceil(pos)
    high_weight = pos - low
    if method == "linear":
        out = at(low) * (1 - high_weight) + at(high) * high_weight
    elif method == "lower":
        out = at(low)
    elif method == "higher":
        out = at(high)
    elif method == "midpoint":
        out = (at(low) + at(high)) * 0.5
    elif method == "nearest":
        out = where(high_weight <= 0.5, at(low), at(high))
    elif weights is None:  # inverted_cdf: the first value whose share of the count reaches q
        out = at(lax.ceil(qb * count) - 1)
    else:  # weighted inverted_cdf: the first value whose cumulative weight reaches q of the total
        bad = lax.bitwise_or(lax.lt(weights, lax._const(weights, 0)), isnan(weights))
        clean = where(lax.bitwise_or(bad, isnan(values)), lax._const(weights, 0), weights)
        cum = cumsum(clean, axis=-1)
        below = cum < (qb * cum[..., -1])[..., None]  # (q's axis first, broadcast)
        out = at(sum(below, axis=-1, dtype=_dt.default_int_dtype()).astype(a.dtype))
        out = where(bad.any(axis=-1), _np.nan, out)
        if squash_nans:
            out = where(count == 0, _np.nan, out)
    if not squash_nans:
        out = where(nan.any(axis=-1), _np.nan, out)
    if keepdims:
        out = out.reshape(q.shape + kept_shape)
    return out


def _quantile_weights(a, weights, axis, method):
    """a and weights promoted together, weights spread to a's shape (JAX accepts either a's shape
    or the reduced axes' shape), with JAX's errors."""
    if _np.dtype(get_aval(weights).dtype).kind == "c":
        raise ValueError("Weights cannot be complex types.")
    if method != "inverted_cdf":
        raise NotImplementedError(f"{method} doesn't support weights. Only method 'inverted_cdf' supports weights.")
    a, weights = _promote_dtypes_inexact(a, weights)
    if weights.shape != a.shape:
        if axis is None:
            raise ValueError("Weights shape must match 'a' shape when axis is None.")
        axes = tuple(_canon_one(x, a.ndim) for x in (axis if isinstance(axis, tuple) else (axis,)))
        reduced = tuple(a.shape[ax] for ax in axes)
        if weights.shape != reduced:
            raise ValueError(f"Weights shape {weights.shape} must match reduction axes {reduced}")
        weights = lax.broadcast_in_dim(weights, a.shape, axes)
    return a, weights


_QUANTILE = _staged(_quantile, static_argnames=("axis", "method", "keepdims", "squash_nans"), name="quantile")


def _quantile_args(name, a, q, axis, out, overwrite_input, weights):
    _check_arraylike(name, a, q)
    if weights is not None:
        _check_arraylike(name, weights)
    if overwrite_input or out is not None:
        raise ValueError(f"jax.numpy.{name} does not support overwrite_input=True or out != None")
    return tuple(axis) if isinstance(axis, list) else axis


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    axis = _quantile_args("quantile", a, q, axis, out, overwrite_input, weights)
    return _QUANTILE(a, q, axis, method, keepdims, False, weights)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None):
    axis = _quantile_args("nanquantile", a, q, axis, out, overwrite_input, weights)
    return _QUANTILE(a, q, axis, method, keepdims, True, weights)


def _percent(name, a, q):
    _check_arraylike(name, a, q)
    q, = _promote_dtypes_inexact(q)
    return true_divide(q, 100.0)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return quantile(a, _percent("percentile", a, q), axis, out, overwrite_input, method, keepdims, weights=weights)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None):
    return nanquantile(a, _percent("nanpercentile", a, q), axis, out, overwrite_input, method, keepdims,
                       weights=weights)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return quantile(a, 0.5, axis, out, overwrite_input, "midpoint", keepdims)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return nanquantile(a, 0.5, axis, out, overwrite_input, "midpoint", keepdims)


def _nan_reduction(a, name, reduction, init, nan_if_all_nan, axis, keepdims, **kw):
    """A reduction that skips NaNs (they count as `init`), staged as JAX stages it; with
    nan_if_all_nan an all-NaN slice gives NaN. `where`/`initial` (in kw) go to the reduction."""
    _check_arraylike(name, a)
    a = asarray(a)
    aval = get_aval(a)
    if aval.dtype.kind not in "fc":
        return reduction(a, axis=axis, keepdims=keepdims, **kw)
    out = reduction(_where(lax.ne(a, a), _np.array(init, aval.dtype), a), axis=axis, keepdims=keepdims, **kw)
    if nan_if_all_nan:
        return _where(all(lax.ne(a, a), axis=axis, keepdims=keepdims), _np.array(_np.nan, aval.dtype), out)
    return out


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_reduction(a, "nansum", sum, 0, False, axis, keepdims, dtype=dtype, out=out,
                          initial=initial, where=where)


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_reduction(a, "nanprod", prod, 1, False, axis, keepdims, dtype=dtype, out=out,
                          initial=initial, where=where)


# As JAX: with an `initial`, an all-NaN slice gives `initial` rather than NaN.
@_staged(static_argnames=("axis", "keepdims"))
def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_reduction(a, "nanmax", max, -_np.inf, initial is None, axis, keepdims, out=out,
                          initial=initial, where=where)


@_staged(static_argnames=("axis", "keepdims"))
def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_reduction(a, "nanmin", min, _np.inf, initial is None, axis, keepdims, out=out,
                          initial=initial, where=where)


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    _check_arraylike("nanmean", a)
    a = asarray(a)
    aval = get_aval(a)
    if aval.dtype.kind not in "fc":
        return mean(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    dtype = dtype or aval.dtype
    normalizer = sum(lax.bitwise_not(lax.ne(a, a)), axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    return lax.div(nansum(a, axis, dtype=dtype, keepdims=keepdims, where=where), normalizer)


def bincount(x, weights=None, minlength=0, *, length=None):
    _check_arraylike("bincount", x)
    x = asarray(x)
    if x.dtype == _np.bool_:
        x = x.astype("int32")
    if x.dtype.kind not in "iu":
        raise TypeError(f"x argument to bincount must have an integer type; got {x.dtype}")
    if x.ndim != 1:
        raise ValueError("only 1-dimensional input supported.")
    minlength = operator.index(minlength)
    if length is None:  # as JAX's: negative values count in bin 0, so they never shorten the output
        length = builtins.max(minlength, x.size and builtins.max(0, int(_concrete(max(x), "bincount"))) + 1)
    # JAX's default weight is an int32 one, whatever x's integer type
    w = asarray(1, dtype=_dt.canonicalize_dtype("int64")) if weights is None else asarray(weights)
    # negative values clip into bin 0 and values past `length` are dropped (JAX's rule)
    return zeros(length, get_aval(w).dtype).at[clip(x, 0)].add(w, mode="drop")


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    if isinstance(bins, str):
        raise NotImplementedError("string values for `bins` not implemented.")
    _check_arraylike("histogram_bin_edges", a, bins)
    arr = asarray(a)
    dtype = _dt.canonicalize_dtype(arr.dtype if arr.dtype.kind in "fc" else _dt.default_float_dtype())
    if _np.ndim(bins) == 1:
        return asarray(bins, dtype=dtype)
    n = operator.index(_concrete(bins, "histogram_bin_edges") if isinstance(bins, (Array, Tracer)) else bins)
    rng = asarray([arr.min(), arr.max()] if range is None else range, dtype=dtype)
    if rng.shape != (2,):
        raise ValueError(f"`range` must be either None or a sequence of scalars, got {rng}")
    flat = ptp(rng) == 0  # one value: a unit-wide range around it, as JAX's
    return linspace(where(flat, rng[0] - 0.5, rng[0]), where(flat, rng[1] + 0.5, rng[1]), n + 1, dtype=dtype)


def histogram(a, bins=10, range=None, weights=None, density=None):
    """JAX's histogram: float counts (weighted, or densities), traceable for a static bin count."""
    if weights is None:
        _check_arraylike("histogram", a, bins)
        (a,) = _promote_dtypes_inexact(asarray(a))
        weights = ones_like(a)
    else:
        _check_arraylike("histogram", a, bins, weights)
        if _np.shape(a) != _np.shape(weights):
            raise ValueError("weights should have the same shape as a.")
        a, weights = _promote_dtypes_inexact(asarray(a), asarray(weights))
    edges = histogram_bin_edges(a, bins, range, weights)
    n = get_aval(edges).shape[0]
    idx = searchsorted(edges, a, side="right")
    idx = where(a == edges[-1], n - 1, idx)  # the last edge belongs to the last bin
    counts = zeros(n, get_aval(weights).dtype).at[idx].add(weights)[1:]
    if density:
        counts = counts / diff(edges) / counts.sum()
    return counts, edges


def interp(x, xp, fp, left=None, right=None, period=None):
    _check_arraylike("interp", x, xp, fp)
    if _np.shape(xp) != _np.shape(fp) or _np.ndim(xp) != 1:
        raise ValueError("xp and fp must be one-dimensional arrays of equal size")
    x, xp = _promote_dtypes_inexact(asarray(x), asarray(xp))
    (fp,) = _promote_dtypes_inexact(asarray(fp))
    for name, side in (("left", left), ("right", right)):
        if isinstance(side, str) and side != "extrapolate":
            raise ValueError(f"the only valid string value of `{name}` is 'extrapolate', but got: {side!r}")
    if get_aval(x).dtype.kind == "c":
        raise ValueError("jnp.interp: complex x values not supported.")
    if period is not None:
        # as JAX's: fold x and xp into [0, period), sort, and wrap one point around each end
        if _np.ndim(period) != 0:
            raise ValueError(f"period must be a scalar; got {period}")
        period = lax.abs(asarray(period)) if isinstance(period, (Array, Tracer)) else builtins.abs(period)
        x, xp = x % period, xp % period
        xp, fp = lax.sort_key_val(xp, fp)
        xp = concatenate([xp[-1:] - period, xp, xp[:1] + period])
        fp = concatenate([fp[-1:], fp, fp[:1]])
    i = clip(searchsorted(xp, x, side="right"), 1, get_aval(xp).shape[0] - 1)
    x0, y0, y1 = take(xp, i - 1), take(fp, i - 1), take(fp, i)
    dx = take(xp, i) - x0
    # a zero-width interval takes its left value (no NaN value or gradient), as JAX's
    dx0 = lax.abs(dx) <= _np.spacing(_np.finfo(get_aval(xp).dtype).eps)
    out = where(dx0, y0, y0 + ((x - x0) / where(dx0, 1, dx)) * (y1 - y0))
    if period is None and not isinstance(left, str):
        out = where(x < xp[0], fp[0] if left is None else left, out)
    if period is None and not isinstance(right, str):
        out = where(x > xp[-1], fp[-1] if right is None else right, out)
    return out


def histogramdd(sample, bins=10, range=None, weights=None, density=None):
    """Counts of the (N, D) sample's rows in a D-dimensional grid of bins; each value lands in
    the bin whose edges hold it (the last bin includes its right edge), values outside go nowhere."""
    from ._util import _promote_dtypes_inexact
    from ._index_tricks import ix_, ravel_multi_index
    from ._shapes import reshape
    if weights is None:
        _check_arraylike("histogramdd", sample)
        sample, = _promote_dtypes_inexact(sample)
    else:
        _check_arraylike("histogramdd", sample, weights)
        if _np.shape(weights) != _np.shape(sample)[:1]:
            raise ValueError("should have one weight for each sample.")
        sample, weights = _promote_dtypes_inexact(sample, weights)
    n, d = sample.shape
    if range is not None and (len(range) != d or builtins.any(r is not None and _np.shape(r)[0] != 2
                                                             for r in range)):
        raise ValueError(f"For sample.shape={(n, d)}, range must be a sequence of {d} pairs or Nones; got "
                         f"range={range}")
    try:
        bins_per_dim = list(bins)
    except TypeError:
        bins_per_dim = [bins] * d
    else:
        if len(bins_per_dim) != d:
            raise ValueError("should be a bin for each dimension.")
    indices, edges = [], []
    for i in builtins.range(d):
        column = sample[:, i]
        e = histogram_bin_edges(column, bins_per_dim[i], None if range is None else range[i], weights)
        at = searchsorted(e, column, side="right")
        indices.append(where(column == e[-1], at - 1, at))
        edges.append(e)
    # one extra bin on each side for the values outside the edges, dropped at the end
    shape = tuple(e.shape[0] + 1 for e in edges)
    flat = ravel_multi_index(tuple(indices), shape, mode="clip")
    hist = reshape(bincount(flat, weights, length=int(_np.prod(shape))), shape)[(slice(1, -1),) * d]
    if density:
        hist = hist.astype(sample.dtype)
        hist = hist / hist.sum()
        for width in ix_(*[diff(e) for e in edges]):
            hist = hist / width
    return hist, edges


def histogram2d(x, y, bins=10, range=None, weights=None, density=None):
    from ._shapes import transpose
    _check_arraylike("histogram2d", x, y)
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):  # one array of edges, shared by both axes
        bins = [asarray(bins), asarray(bins)]
    hist, edges = histogramdd(transpose(asarray([x, y])), bins, range, weights, density)
    return hist, edges[0], edges[1]

# jax.numpy's modules call one another: imported after this module's definitions, so that the
# import order of the package does not matter (these names are only used at call time)
from ._ufuncs import clip, greater, imag, real, sqrt, true_divide  # noqa: E402
from ._creation import (array, asarray, astype, _concrete, diag, full_like, linspace, ones_like, zeros)  # noqa: E402
from ._shapes import atleast_2d, broadcast_to, concatenate  # noqa: E402
from ._reductions import all, _axis_size, _canon_axis, _canon_one, diff, max, min, prod, ptp, sum  # noqa: E402
from ._searching import searchsorted, sort, _where, where  # noqa: E402
from ._products import dot  # noqa: E402
from ._take import take  # noqa: E402
