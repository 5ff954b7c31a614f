"""dot_general: contractions with batch dimensions (matmul, dot, einsum all lower to it)."""
from __future__ import annotations

import math

import numpy as np

from ..base import dtypes
from ..base.avals import ShapedArray
from ..base.blas import HAS_BLAS
from ..base.fp_errors import _ERR_VAR, _IGNORE_ERRORS, quietly
from ..tracing.rules import batch_rules, specialize_rules, transpose_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from . import define
from ._xla_dot import small_dot


def _dims_str(dn):
    (lc, rc), (lb, rb) = dn
    f = lambda t: "[" + ", ".join(map(str, t)) + "]"
    return f"(({f(lc)}, {f(rc)}), ({f(lb)}, {f(rb)}))"


class DimensionNumbers(tuple):
    """((lhs_contract, rhs_contract), (lhs_batch, rhs_batch)): str() as jaxpr text prints it (lists),
    repr() the plain tuple, as `eqn.params` shows it in JAX"""
    def __str__(self):
        return _dims_str(self)


def make_dn(dn) -> DimensionNumbers:
    (lc, rc), (lb, rb) = dn
    return DimensionNumbers(((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb))))


def _free(nd, contract, batch):
    return [i for i in range(nd) if i not in contract and i not in batch]


def _dot_abstract(x, y, dimension_numbers, precision=None, preferred_element_type=None, out_sharding=None):
    (lc, rc), (lb, rb) = _check_dot_shapes(x, y, dimension_numbers)
    shape = ([x.shape[i] for i in lb] + [x.shape[i] for i in _free(x.ndim, lc, lb)]
             + [y.shape[i] for i in _free(y.ndim, rc, rb)])
    _check_preferred(x.dtype, preferred_element_type)
    dtype = preferred_element_type if preferred_element_type is not None else x.dtype
    return ShapedArray(shape, dtype, x.weak_type and y.weak_type)


def _check_dot_shapes(x, y, dimension_numbers):
    """JAX's shape errors (shared by the shape rule and the eager numpy impl)."""
    (lc, rc), (lb, rb) = dimension_numbers
    for a, b in zip(lc, rc):
        if x.shape[a] != y.shape[b]:
            raise TypeError(f"dot_general requires contracting dimensions to have the same shape, got "
                            f"{tuple(x.shape[i] for i in lc)} and {tuple(y.shape[i] for i in rc)}.")
    for a, b in zip(lb, rb):
        if x.shape[a] != y.shape[b]:
            raise TypeError(f"dot_general requires lhs batch dimensions and rhs batch dimensions to have "
                            f"the same shape, got {tuple(x.shape[i] for i in lb)} and "
                            f"{tuple(y.shape[i] for i in rb)}.")
    return (lc, rc), (lb, rb)


def _accumulation_dtype(in_dtype, preferred_element_type):
    """The dtype the products are summed in: a preferred_element_type wider than the inputs (or an
    integer -> float one) is XLA's accumulator (int8 @ int8 -> int32 does not wrap at 127), else
    float32 for float16/bfloat16, else the input dtype."""
    acc = dtypes.reduction_computation_dtype(in_dtype)
    if preferred_element_type is None:
        return acc
    pet = np.dtype(preferred_element_type)
    widens = pet.itemsize > np.dtype(acc).itemsize or (dtypes.kind(in_dtype) in "iub" and dtypes.kind(pet) in "fc")
    return pet if widens else acc


def _check_preferred(result_dtype, preferred_element_type):
    """JAX's MaybeUpcast rule: a non-float result may not be narrowed by preferred_element_type."""
    if preferred_element_type is None or np.dtype(preferred_element_type) == result_dtype:
        return
    if dtypes.kind(result_dtype) != "f" and _bit_width(preferred_element_type) < _bit_width(result_dtype):
        raise TypeError("`preferred_element_type` must not be narrower than the original type, got "
                        f"preferred_element_type of {np.dtype(preferred_element_type).name} for result type of "
                        f"{np.dtype(result_dtype).name}.")


def _bit_width(dtype):
    dt = np.dtype(dtype)
    return 1 if dt == np.bool_ else 8 * dt.itemsize


def _dot_impl(x, y, dimension_numbers, precision=None, preferred_element_type=None, out_sharding=None):
    (lc, rc), (lb, rb) = _check_dot_shapes(x, y, dimension_numbers)
    _check_preferred(x.dtype, preferred_element_type)  # eager dispatch skips the shape rule
    xla = small_dot(x.shape, y.shape, x.dtype, y.dtype, dimension_numbers, preferred_element_type)
    if xla is not None:   # a short float32 contraction: XLA's fma chain (_xla_dot)
        return xla(x, y)
    lf, rf = _free(x.ndim, lc, lb), _free(y.ndim, rc, rb)
    xt = np.transpose(x, list(lb) + lf + list(lc))
    yt = np.transpose(y, list(rb) + list(rc) + rf)
    bshape = [x.shape[i] for i in lb]
    m = math.prod(x.shape[i] for i in lf)   # (Python ints: np.prod costs microseconds per call)
    k = math.prod(x.shape[i] for i in lc)
    n = math.prod(y.shape[i] for i in rf)
    b = math.prod(bshape)
    acc = _accumulation_dtype(x.dtype, preferred_element_type)
    if acc != x.dtype:  # float16/bfloat16 or a wider preferred type: XLA multiplies and sums in it
        xt, yt = xt.astype(acc), yt.astype(acc)
    if k == 1:  # a one-term contraction is a product (XLA's too: -1 * 0 stays -0.0, no 0 + ... sum)
        out = np.multiply(xt.reshape(b, m, 1), yt.reshape(b, 1, n))
    else:
        out = np.matmul(xt.reshape(b, m, k), yt.reshape(b, k, n))
    out = out.reshape(bshape + [x.shape[i] for i in lf] + [y.shape[i] for i in rf])
    dt = preferred_element_type if preferred_element_type is not None else x.dtype
    return out.astype(dt, copy=False)


def _dot_impl_quietly(x, y, **params):
    # XLA's float32 products overflow to inf (and inf * 0 is nan) without a word: numpy's matmul
    # would print a RuntimeWarning for each (compiled code already runs with its warnings off)
    if _ERR_VAR is None:
        return quietly(lambda a, b: _dot_impl(a, b, **params), x, y)
    token = _ERR_VAR.set(_IGNORE_ERRORS)   # (quietly's own two lines: no closure per call)
    try:
        return _dot_impl(x, y, **params)
    finally:
        _ERR_VAR.reset(token)


dot_general_p = define("dot_general", abstract_eval=_dot_abstract, impl=_dot_impl_quietly)


def _dot_specialize(avals, dimension_numbers, precision=None, preferred_element_type=None, out_sharding=None):
    """_dot_impl with every shape computation done once: the transposes and reshapes it would
    make, minus those that change nothing. The same matmul runs on the same operands (a batch
    of one is the plain 2-d product), so results are unchanged."""
    x, y = avals
    xla = small_dot(x.shape, y.shape, x.dtype, y.dtype, dimension_numbers, preferred_element_type)
    if xla is not None:
        return xla
    if _accumulation_dtype(x.dtype, preferred_element_type) != x.dtype:
        return None  # float16/bfloat16, or a wider preferred type, accumulate in it: _dot_impl's general path
    (lc, rc), (lb, rb) = dimension_numbers
    lf, rf = _free(x.ndim, lc, lb), _free(y.ndim, rc, rb)
    px, py = tuple(lb) + tuple(lf) + tuple(lc), tuple(rb) + tuple(rc) + tuple(rf)
    px = None if px == tuple(range(x.ndim)) else px
    py = None if py == tuple(range(y.ndim)) else py
    size = lambda dims, shape: math.prod(shape[i] for i in dims)
    b, m, k, n = size(lb, x.shape), size(lf, x.shape), size(lc, x.shape), size(rf, y.shape)
    xs, ys = ((m, k), (k, n)) if not lb else ((b, m, k), (b, k, n))
    out_shape = tuple(x.shape[i] for i in lb) + tuple(x.shape[i] for i in lf) + tuple(y.shape[i] for i in rf)
    dt = np.dtype(preferred_element_type if preferred_element_type is not None else x.dtype)
    mm_shape = xs[:-1] + ys[-1:]
    cast = dt != np.result_type(x.dtype, y.dtype)
    reshape_out = mm_shape != out_shape
    if not lb and not lc and px is None and py is None and not cast:
        if x.ndim == 0 or y.ndim == 0:   # a scalar times an array: the broadcast product (outer's ~2x cost)
            return np.multiply
        return np.multiply.outer   # no contraction at all: out[i.., j..] = x[i..] * y[j..]
    if not lb and x.ndim <= 2 and y.ndim <= 2 and k > 1 and not cast:
        # at most matrices, no batch: numpy's matmul takes them as they are (a vector operand
        # is the same one-row/one-column product), so the call is all that remains; for BLAS's
        # dtypes np.dot is the same product through the same BLAS call, at half matmul's
        # per-call cost (a loop body's (8,) @ (8, 8): ~1 us instead of ~2); not in Pyodide, whose
        # numpy has no BLAS
        table = _DOTS if HAS_BLAS and x.dtype == y.dtype and x.dtype in _BLAS_DTYPES else _MATMULS
        return table[px is not None, py is not None]
    # one-term contractions (outer products) are plain broadcast products: the same single
    # rounding per element, without matmul's slow path for k == 1
    matmul = _outer if k == 1 else np.matmul
    if k == 1 and not lb and not cast and m * n >= _BLAS_OUTER_MIN and HAS_BLAS \
            and x.dtype == y.dtype and x.dtype in _BLAS_DTYPES:
        matmul = _blas_outer
    if px is None and py is None and x.shape == xs and y.shape == ys and not reshape_out and not cast:
        return matmul   # nothing to rearrange: the product itself

    def dot(x, y):
        if px is not None:
            x = x.transpose(px)
        if py is not None:
            y = y.transpose(py)
        if x.shape != xs:
            x = x.reshape(xs)
        if y.shape != ys:
            y = y.reshape(ys)
        out = matmul(x, y)
        if reshape_out:
            out = out.reshape(out_shape)
        return out.astype(dt, copy=False) if cast else out
    return dot


specialize_rules[dot_general_p] = _dot_specialize


_MATMULS = {(False, False): np.matmul,
            (True, False): lambda x, y: np.matmul(x.T, y),
            (False, True): lambda x, y: np.matmul(x, y.T),
            (True, True): lambda x, y: np.matmul(x.T, y.T)}
_DOTS = {(False, False): np.dot,
         (True, False): lambda x, y: np.dot(x.T, y),
         (False, True): lambda x, y: np.dot(x, y.T),
         (True, True): lambda x, y: np.dot(x.T, y.T)}
_BLAS_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


def _outer(x, y):
    return np.multiply(x, y)   # (.., m, 1) * (.., 1, n)


# From this many products on, a BLAS outer product beats numpy's broadcast multiply (which runs
# its inner loop once per row: (256, 1) x (1, 64) costs ~2.5x np.dot's time).
_BLAS_OUTER_MIN = 1024


def _blas_outer(x, y):
    """(m, 1) x (1, n) through BLAS: each product is rounded once, as in the multiply, but a
    BLAS adds it to +0.0, which turns a -0.0 product into +0.0. A product is zero only when a
    factor is, so operands without zeros (nan counts as nonzero) take BLAS, the rest numpy."""
    if np.count_nonzero(x) == x.size and np.count_nonzero(y) == y.size:   # (= x.all(), in half the time)
        return np.dot(x, y)
    return np.multiply(x, y)


def _dot_pp(params):
    # JAX hides None params and out_sharding, and prints dimension_numbers as lists
    shown = {k: v for k, v in params.items() if v is not None and k != "out_sharding"}
    (lc, rc), (lb, rb) = params["dimension_numbers"]
    shown["dimension_numbers"] = ((list(lc), list(rc)), (list(lb), list(rb)))
    return [(k, shown[k]) for k in sorted(shown)]


dot_general_p.pp_params = _dot_pp


from .lax_types import canonicalize_precision  # noqa: E402


def dot_general(x, y, dimension_numbers, precision=None, preferred_element_type=None, out_sharding=None):
    return dot_general_p.bind(x, y, dimension_numbers=make_dn(dimension_numbers),
                              precision=canonicalize_precision(precision),
                              preferred_element_type=preferred_element_type, out_sharding=out_sharding)


def _ranges_like(*xs):
    start = 0
    for x in xs:
        n = len(x)
        yield range(start, start + n)
        start += n


def _transpose_lhs(g, x_aval, y, dimension_numbers, preferred_element_type, swap_ans=False):
    from ..lax import lax  # INHERENT: up to lax
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_ndim = x_aval.ndim
    y_ndim = get_aval(y).ndim
    x_kept = [i for i in range(x_ndim) if i not in x_contract and i not in x_batch]
    y_kept = [i for i in range(y_ndim) if i not in y_contract and i not in y_batch]
    if swap_ans:
        ans_batch, ans_y, _ = _ranges_like(x_batch, y_kept, x_kept)
    else:
        ans_batch, _, ans_y = _ranges_like(x_batch, x_kept, y_kept)
    dims = ((tuple(ans_y), tuple(y_kept)), (tuple(ans_batch), tuple(y_batch)))
    x_contract_sorted_by_y = [x for _, x in sorted(zip(y_contract, x_contract))]
    out_axes = np.argsort(list(x_batch) + x_kept + x_contract_sorted_by_y)
    out = dot_general(g, y, dims, preferred_element_type=x_aval.dtype)
    return lax.transpose(out, tuple(int(a) for a in out_axes))


def _transpose_rhs(g, x, y_aval, dimension_numbers, preferred_element_type):
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    swapped = (((y_contract, x_contract), (y_batch, x_batch)))
    return _transpose_lhs(g, y_aval, x, swapped, preferred_element_type, swap_ans=True)


def _dot_t(ct, x, y, dimension_numbers, precision=None, preferred_element_type=None, out_sharding=None):
    if type(ct) is ad.Zero:
        return [None, None]
    if ad.is_undefined(x):
        return [_transpose_lhs(ct, x.aval, y, dimension_numbers, preferred_element_type), None]
    return [None, _transpose_rhs(ct, x, y.aval, dimension_numbers, preferred_element_type)]


ad.defjvp(dot_general_p,
          lambda g, x, y, **p: dot_general_p.bind(g, y, **p),
          lambda g, x, y, **p: dot_general_p.bind(x, g, **p))
transpose_rules[dot_general_p] = _dot_t


def _dot_batch(axis_data, vals, dims, dimension_numbers, precision=None, preferred_element_type=None,
               out_sharding=None):
    """The mapped axes stay where they are (no transposes), as JAX's rule leaves them: both mapped ->
    one more batch dimension, in front; one mapped -> a free dimension of that side, and the result's
    mapped axis is where that free dimension lands."""
    x, y = vals
    dx, dy = dims
    (lc, rc), (lb, rb) = dimension_numbers
    params = dict(precision=precision, preferred_element_type=preferred_element_type, out_sharding=out_sharding)
    bump = lambda t, b: tuple(int(d) + (int(d) >= b) for d in t)
    if dx is not None and dy is not None:
        dn = ((bump(lc, dx), bump(rc, dy)), ((dx,) + bump(lb, dx), (dy,) + bump(rb, dy)))
        return dot_general(x, y, dn, **params), 0
    if dx is not None:
        x_free = [d for d in range(get_aval(x).ndim) if d not in lb and d not in lc]
        out_dim = len(lb) + sum(d < dx for d in x_free)
        return dot_general(x, y, ((bump(lc, dx), rc), (bump(lb, dx), rb)), **params), out_dim
    y_free = [d for d in range(get_aval(y).ndim) if d not in rb and d not in rc]
    out_dim = get_aval(x).ndim - len(lc) + sum(d < dy for d in y_free)
    return dot_general(x, y, ((lc, bump(rc, dy)), (lb, bump(rb, dy))), **params), out_dim


batch_rules[dot_general_p] = _dot_batch
