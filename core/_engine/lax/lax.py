"""`jax.lax`: thin, typed wrappers that bind primitives. No implicit promotion here."""
from __future__ import annotations

import builtins

import numpy as np

from ..base import dtypes
from ..tracing.array import Array, to_numpy
from ..primitives import _load_all
from ..primitives import elementwise as ew
from ..primitives import reductions as red
from ..primitives import structural as st
from ..primitives.dot import DimensionNumbers, dot_general_p, make_dn
from ..tracing import tracing
from ..tracing.rules import transform_ops
from ..tracing.tracing import Tracer, get_aval

_load_all()

# ---- elementwise --------------------------------------------------------------------------
neg = ew.neg
sign = ew.sign
floor = ew.floor
def ceil(x): return ew.ceil_p.bind(x)
def round(x, rounding_method=0): return ew.round_p.bind(x, rounding_method=rounding_method)
def is_finite(x): return ew.is_finite_p.bind(x)
abs = ew.abs_
exp = ew.exp
def exp2(x): return ew.exp2_p.bind(x)
log = ew.log
def log1p(x): return ew.log1p_p.bind(x)
def expm1(x): return ew.expm1_p.bind(x)
def tanh(x): return ew.tanh_p.bind(x)
def logistic(x): return ew.logistic_p.bind(x)
sin = ew.sin
cos = ew.cos
def tan(x): return ew.tan_p.bind(x)
def asin(x): return ew.asin_p.bind(x)
def acos(x): return ew.acos_p.bind(x)
def atan(x): return ew.atan_p.bind(x)
def sinh(x): return ew.sinh_p.bind(x)
def cosh(x): return ew.cosh_p.bind(x)
def asinh(x): return ew.asinh_p.bind(x)
def acosh(x): return ew.acosh_p.bind(x)
def atanh(x): return ew.atanh_p.bind(x)
sqrt = ew.sqrt
rsqrt = ew.rsqrt
def cbrt(x): return ew.cbrt_p.bind(x)
square = ew.square
def erf(x): return ew.erf_p.bind(x)
def erfc(x): return ew.erfc_p.bind(x)
def erf_inv(x): return ew.erf_inv_p.bind(x)
def lgamma(x): return ew.lgamma_p.bind(x)
def digamma(x): return ew.digamma_p.bind(x)
def integer_pow(x, y): return ew.integer_pow_p.bind(x, y=int(y))
def reciprocal(x): return integer_pow(x, -1)
add = ew.add
sub = ew.sub
mul = ew.mul
div = ew.div
def rem(x, y): return ew.rem_p.bind(x, y)
pow = ew.pow
def max(x, y): return ew.max_p.bind(x, y)
def min(x, y): return ew.min_p.bind(x, y)
def atan2(x, y): return ew.atan2_p.bind(x, y)
def nextafter(x, y): return ew.nextafter_p.bind(x, y)
eq = ew.eq
def ne(x, y): return ew.ne_p.bind(x, y)
lt = ew.lt
def le(x, y): return ew.le_p.bind(x, y)
gt = ew.gt
ge = ew.ge
def bitwise_and(x, y): return ew.and_p.bind(x, y)
def bitwise_or(x, y): return ew.or_p.bind(x, y)
def bitwise_xor(x, y): return ew.xor_p.bind(x, y)
def bitwise_not(x): return ew.not_p.bind(x)
def population_count(x): return ew.population_count_p.bind(x)
def shift_left(x, y): return ew.shift_left_p.bind(x, y)
def shift_right_logical(x, y): return ew.shift_right_logical_p.bind(x, y)
def shift_right_arithmetic(x, y): return ew.shift_right_arithmetic_p.bind(x, y)
select_n = ew.select_n
select = ew.select
def clamp(min, x, max): return ew.clamp_p.bind(min, x, max)
def stop_gradient(x):
    from ..base.tree_util import tree_map
    return tree_map(lambda v: ew.stop_gradient_p.bind(v) if isinstance(v, Tracer) else v, x)
def real(x): return ew.real_p.bind(x)
def imag(x): return ew.imag_p.bind(x)
def conj(x):
    from ..primitives.complex_parts import conj as _conj
    return _conj(x)


def convert_element_type(x, new_dtype):
    if not isinstance(new_dtype, np.dtype):  # a user's request: refused as JAX refuses it (object, ...)
        new_dtype = dtypes.as_dtype(new_dtype, "convert_element_type")
    return _convert_element_type(x, new_dtype, weak_type=False)


def _staged_constant(x) -> bool:
    """Whether x is a jax Array from before the trace now being staged (a closed-over array):
    JAX stages its conversions (`convert_element_type` of a constvar) rather than folding them."""
    dyn = tracing.dynamic_trace
    return (dyn is not None and type(x) is Array
            and getattr(x, "_epoch", 0) < getattr(dyn.global_data, "epoch", 0))


def _convert_element_type(x, new_dtype=None, weak_type=False):
    """Convert x; concrete inputs are converted on the spot (they become literals/consts, as
    JAX's constant folding of convert_element_type does)."""
    if new_dtype is None:
        new_dtype = get_aval(x).dtype
    new_dtype = dtypes.canonicalize_dtype(new_dtype)
    t = type(x)
    if t is int:  # straight to the target, as JAX: lax.full(2, 2998342421, uint32) fits, 300 -> uint8 wraps
        return Array(np.asarray(x).astype(new_dtype), weak_type)
    if t is float:  # a Python scalar (jnp promotion's usual constant): the path below, shortened
        v = to_numpy(x)
        return Array(v if v.dtype == new_dtype else ew._convert_impl(v, new_dtype, weak_type), weak_type)
    on_accelerator = isinstance(x, Array) and type(x) is not Array  # e.g. a WebGPU array: convert there
    if not isinstance(x, Tracer) and not on_accelerator and not _staged_constant(x):
        v = to_numpy(x)
        if v.dtype != new_dtype:
            v = ew._convert_impl(v, new_dtype, weak_type)
        if type(x) is Array and x.dtype == new_dtype and x.weak_type == weak_type:
            return x
        return Array(np.asarray(v), weak_type)
    aval = x.aval
    if aval.dtype == new_dtype and aval.weak_type == weak_type:
        return x
    if not aval.shape and isinstance(x, Tracer):
        # a staged scalar constant (jnp.array(3) inside jit is a tracer, as in JAX): converted on
        # the spot, as JAX folds the conversion of a literal (`add a 3.0:f32[]`, no convert)
        consts = getattr(x._trace.main.global_data, "consts", None)
        val = consts.get(id(x)) if type(consts) is dict else None
        if val is not None:
            return x._trace.full_raise(_convert_element_type(val, new_dtype, weak_type))
    return ew.convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type, sharding=None)


def bitcast_convert_type(x, new_dtype):
    requested = np.dtype(new_dtype)
    new_dtype = dtypes.canonicalize_dtype(requested)
    if new_dtype != requested:   # x64 off: JAX's warning, and the 32-bit dtype (a 64-bit one changes widths)
        import warnings
        warnings.warn(f"Explicitly requested dtype {requested.name} requested in bitcast_convert_type is not "
                      f"available, and will be truncated to dtype {new_dtype.name}. To enable more dtypes, set the "
                      "jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment variable. "
                      "See https://github.com/jax-ml/jax#current-gotchas for more.", UserWarning, stacklevel=2)
    return ew.bitcast_convert_type_p.bind(x, new_dtype=new_dtype)


# ---- shapes -------------------------------------------------------------------------------

def broadcast_in_dim(x, shape, broadcast_dimensions, out_sharding=None):
    shape = tuple(int(d) for d in shape)
    bd = tuple(int(d) for d in broadcast_dimensions)
    if get_aval(x).shape == shape and bd == tuple(range(len(shape))) and isinstance(x, Tracer):
        return x
    return st.broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=bd, sharding=out_sharding)


def broadcast(x, sizes):
    aval = get_aval(x)
    dims = tuple(range(len(sizes), len(sizes) + aval.ndim))
    return broadcast_in_dim(x, tuple(sizes) + aval.shape, dims)


def broadcast_to_rank(x, rank):
    nd = get_aval(x).ndim
    if nd == rank:
        return x
    return broadcast(x, (1,) * (rank - nd))


def reshape(x, new_sizes, dimensions=None, out_sharding=None):
    new_sizes = tuple(int(d) for d in new_sizes)
    aval = get_aval(x)
    if aval.shape and aval.shape == new_sizes and dimensions is None and isinstance(x, Tracer):  # JAX keeps 0-d reshapes
        return x
    return st.reshape_p.bind(x, new_sizes=new_sizes, dimensions=None if dimensions is None else tuple(dimensions),
                             sharding=out_sharding)


def transpose(x, permutation):
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(len(permutation))) and isinstance(x, Tracer):
        return x
    return st.transpose_p.bind(x, permutation=permutation)


def squeeze(x, dimensions):
    nd = get_aval(x).ndim
    dims = tuple(sorted(int(d) % nd for d in dimensions)) if nd else ()
    if not dims and isinstance(x, Tracer):
        return x
    return st.squeeze_p.bind(x, dimensions=dims)


def expand_dims(x, dimensions):
    aval = get_aval(x)
    dimensions = tuple(dimensions)
    if len(set(dimensions)) != len(dimensions):
        raise ValueError(f"repeated axis in lax.expand_dims: {dimensions}")
    nd = aval.ndim + len(dimensions)
    for d in dimensions:
        if not -nd <= int(d) < nd:
            raise ValueError(f"axis {d} is out of bounds for array of dimension {nd}")
    dims = [int(d) % nd for d in dimensions]
    if len(set(dims)) != len(dims):  # again after canonicalizing, as JAX's
        raise ValueError(f"repeated axis in lax.expand_dims: {dims}")
    dims = sorted(dims)
    shape = list(aval.shape)
    for d in dims:
        shape.insert(d, 1)
    bdims = tuple(i for i in range(nd) if i not in dims)
    return broadcast_in_dim(x, tuple(shape), bdims)


def iota(dtype, size):
    return broadcasted_iota(dtype, (size,), 0)


def broadcasted_iota(dtype, shape, dimension):
    dtype = np.dtype(dtypes.canonicalize_dtype(dtype))
    if dtypes.kind(dtype) not in "iufc":  # (a bool iota would count 0, 1, 1, ...: no such thing in JAX)
        raise TypeError(f"iota does not accept dtype {dtype.name}. Accepted dtypes are subtypes of integer, "
                        "floating, complexfloating.")
    return st.iota_p.bind(dtype=dtype, shape=tuple(int(s) for s in shape), dimension=int(dimension), sharding=None)


def slice(x, start_indices, limit_indices, strides=None):
    return st.slice_p.bind(x, start_indices=tuple(int(i) for i in start_indices),
                           limit_indices=tuple(int(i) for i in limit_indices),
                           strides=None if strides is None else tuple(int(s) for s in strides))


def slice_in_dim(x, start_index, limit_index, stride=1, axis=0):
    aval = get_aval(x)
    start = [0] * aval.ndim
    limit = list(aval.shape)
    strides = [1] * aval.ndim
    n = aval.shape[axis]
    start_index = 0 if start_index is None else start_index
    limit_index = n if limit_index is None else limit_index
    start[axis] = start_index + n if start_index < 0 else start_index
    limit[axis] = limit_index + n if limit_index < 0 else limit_index
    strides[axis] = stride
    return slice(x, start, limit, strides)   # (JAX passes the strides, ones included: `strides=(1,)`)


def index_in_dim(x, index, axis=0, keepdims=True):
    n = get_aval(x).shape[axis]
    index = index + n if index < 0 else index
    out = slice_in_dim(x, index, index + 1, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


def pad(x, padding_value, padding_config):
    return st.pad_p.bind(x, padding_value, padding_config=tuple(tuple(int(i) for i in c) for c in padding_config))


def unstack(x, axis=0):
    """The slices of x along `axis`, as a tuple (one `unstack` equation, as JAX's)."""
    x = x if isinstance(x, (Array, Tracer)) else Array(to_numpy(x))
    nd = get_aval(x).ndim
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    return tuple(st.unstack_p.bind(x, axis=axis % nd))


def concatenate(operands, dimension):
    if len(operands) == 1 and isinstance(operands[0], Tracer):
        return operands[0]
    return st.concatenate_p.bind(*operands, dimension=int(dimension))


def rev(x, dimensions):
    return st.rev_p.bind(x, dimensions=tuple(dimensions))


def split(x, sizes, axis=0):
    return st.split_p.bind(x, sizes=tuple(int(s) for s in sizes), axis=int(axis))


def _index_dtype():
    return dtypes.default_int_dtype()


def _zero_index(like):
    return Array(np.asarray(0, np.int32))


def dynamic_slice(x, start_indices, slice_sizes):
    starts = _normalize_starts(x, start_indices)
    return st.dynamic_slice_p.bind(x, *starts, slice_sizes=tuple(int(s) for s in slice_sizes))


def dynamic_update_slice(x, update, start_indices):
    starts = _normalize_starts(x, start_indices)
    return st.dynamic_update_slice_p.bind(x, update, *starts)


def _normalize_starts(x, start_indices):
    """Negative start indices count from the end (JAX's _dynamic_slice_indices): concrete ones
    are fixed now, traced ones get `select(i < 0, i + dim, i)`."""
    out = []
    for i, d in zip(start_indices, get_aval(x).shape):
        i = _as_index(i)
        if not isinstance(i, Tracer):
            v = to_numpy(i)
            out.append(Array(np.asarray(v + d, v.dtype)) if v < 0 else i)
            continue
        dt = i.aval.dtype
        negative = lt(i, Array(np.zeros((), dt)))
        wrapped = add(_convert_element_type(i, dt, False), Array(np.asarray(d, dt)))
        out.append(select_n(negative, i, wrapped))
    return out


def dynamic_slice_in_dim(x, start_index, slice_size, axis=0):
    aval = get_aval(x)
    starts = [0] * aval.ndim
    starts[axis] = start_index
    sizes = list(aval.shape)
    sizes[axis] = slice_size
    return dynamic_slice(x, starts, sizes)


def dynamic_index_in_dim(x, index, axis=0, keepdims=True):
    out = dynamic_slice_in_dim(x, index, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


def dynamic_update_slice_in_dim(x, update, start_index, axis):
    starts = [0] * get_aval(x).ndim
    starts[axis] = start_index
    return dynamic_update_slice(x, update, starts)


def dynamic_update_index_in_dim(x, update, index, axis):
    if get_aval(update).ndim < get_aval(x).ndim:
        update = expand_dims(update, (axis,))
    return dynamic_update_slice_in_dim(x, update, index, axis)


def _as_index(i):
    if isinstance(i, Tracer):
        if i.aval.dtype.kind not in "iu":
            raise TypeError(f"index arguments to dynamic_slice must be integers of the same type, got: {i.aval.dtype}")
        return i
    v = np.asarray(to_numpy(i))
    return Array(v.astype(dtypes.canonicalize_dtype(v.dtype) if v.dtype.kind in "iu" else np.int32))


def _batched_dynamic_slice(size, x, dx, starts, dstarts, slice_sizes):
    """vmap of dynamic_slice with batched start indices: one slice per example, stacked."""
    from ..transforms.batching import bdim_at_front
    x = bdim_at_front(x, dx, size)
    starts = [bdim_at_front(s, d, size) for s, d in zip(starts, dstarts)]
    outs = [dynamic_slice(index_in_dim(x, b, 0, False), [index_in_dim(s, b, 0, False) for s in starts], slice_sizes)
            for b in range(size)]
    return concatenate([expand_dims(o, (0,)) for o in outs], 0)


def _batched_dynamic_update_slice(size, x, dx, upd, du, starts, dstarts):
    from ..transforms.batching import bdim_at_front
    x = bdim_at_front(x, dx, size)
    upd = bdim_at_front(upd, du, size)
    starts = [bdim_at_front(s, d, size) for s, d in zip(starts, dstarts)]
    outs = [dynamic_update_slice(index_in_dim(x, b, 0, False), index_in_dim(upd, b, 0, False),
                                 [index_in_dim(s, b, 0, False) for s in starts]) for b in range(size)]
    return concatenate([expand_dims(o, (0,)) for o in outs], 0)


# ---- reductions ---------------------------------------------------------------------------

def reduce_sum(x, axes):
    return red.reduce_sum_p.bind(x, axes=tuple(map(int, axes)), out_sharding=None)


def reduce_max(x, axes):
    return red.reduce_max_p.bind(x, axes=tuple(map(int, axes)), out_sharding=None)


def reduce_min(x, axes):
    return red.reduce_min_p.bind(x, axes=tuple(map(int, axes)), out_sharding=None)


def reduce_prod(x, axes):
    return red.reduce_prod_p.bind(x, axes=tuple(map(int, axes)), out_sharding=None)


def reduce_and(x, axes):
    return red.reduce_and_p.bind(x, axes=tuple(map(int, axes)), out_sharding=None)


def reduce_or(x, axes):
    return red.reduce_or_p.bind(x, axes=tuple(map(int, axes)), out_sharding=None)


def argmax(x, axis, index_dtype):
    return red.argmax_p.bind(x, axes=(int(axis),), index_dtype=np.dtype(dtypes.canonicalize_dtype(index_dtype)))


def argmin(x, axis, index_dtype):
    return red.argmin_p.bind(x, axes=(int(axis),), index_dtype=np.dtype(dtypes.canonicalize_dtype(index_dtype)))


def cumsum(x, axis=0, reverse=False): return red.cumsum_p.bind(x, axis=int(axis), reverse=bool(reverse))
def cumprod(x, axis=0, reverse=False): return red.cumprod_p.bind(x, axis=int(axis), reverse=bool(reverse))
def cummax(x, axis=0, reverse=False): return red.cummax_p.bind(x, axis=int(axis), reverse=bool(reverse))
def cummin(x, axis=0, reverse=False): return red.cummin_p.bind(x, axis=int(axis), reverse=bool(reverse))
def cumlogsumexp(x, axis=0, reverse=False): return red.cumlogsumexp_p.bind(x, axis=int(axis), reverse=bool(reverse))


def sort(operand, dimension=-1, is_stable=True, num_keys=1):
    single = not isinstance(operand, (list, tuple))
    ops = [operand] if single else list(operand)
    nd = get_aval(ops[0]).ndim
    outs = red.sort_p.bind(*ops, dimension=int(dimension) % builtins.max(nd, 1), is_stable=bool(is_stable),
                           num_keys=int(num_keys))
    return outs[0] if single else tuple(outs)


def sort_key_val(keys, values, dimension=-1, is_stable=True):
    return sort((keys, values), dimension, is_stable, 1)


# ---- dot ----------------------------------------------------------------------------------

def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None, out_sharding=None):
    if preferred_element_type is not None:
        preferred_element_type = np.dtype(dtypes.canonicalize_dtype(preferred_element_type))
    return dot_general_p.bind(lhs, rhs, dimension_numbers=make_dn(dimension_numbers),
                              precision=canonicalize_precision(precision),
                              preferred_element_type=preferred_element_type, out_sharding=out_sharding)


def dot(lhs, rhs, precision=None, preferred_element_type=None):
    la, ra = get_aval(lhs), get_aval(rhs)
    if la.ndim in (1, 2) and ra.ndim in (1, 2):
        dn = (((la.ndim - 1,), (0,)), ((), ()))
        return dot_general(lhs, rhs, dn, precision, preferred_element_type)
    raise TypeError(f"Incompatible shapes for dot: got {la.shape} and {ra.shape}.")


# ---- creation -----------------------------------------------------------------------------

def full(shape, fill_value, dtype=None, weak_type=None, sharding=None):
    shape = tuple(int(d) for d in (shape if isinstance(shape, (tuple, list)) else (shape,)))
    if dtype is None:
        dt, weak = dtypes.dtype_and_weak(fill_value)
    else:
        dt, weak = dtypes.canonicalize_dtype(dtype), False
    if weak_type is not None:
        weak = weak_type
    val = _convert_element_type(fill_value, dt, weak)
    if not shape:
        return val
    return broadcast_in_dim(val, shape, ())


# the transforms emit zeros and move batch axes with these (core/_engine/tracing/rules.py: transform_ops)
transform_ops.update(full=full, transpose=transpose, expand_dims=expand_dims)


def full_like(x, fill_value, dtype=None, shape=None, sharding=None):
    x_shape, x_dtype, x_weak = _like(x)
    weak = dtype is None and x_weak
    return full(x_shape if shape is None else shape, fill_value, dtype or x_dtype, weak_type=weak)


def _like(x):
    """(shape, dtype, weak_type) of an array, or of any object with .shape and .dtype (a
    ShapeDtypeStruct, a duck-typed array): JAX's *_like functions accept both."""
    if isinstance(x, (Array, Tracer, np.ndarray, np.generic)) or not (hasattr(x, "shape") and hasattr(x, "dtype")):
        aval = get_aval(x)
        return aval.shape, aval.dtype, aval.weak_type
    return tuple(x.shape), dtypes.canonicalize_dtype(x.dtype), False  # JAX reads no weak_type off a duck


def zeros_like_array(x):
    return full_like(x, 0)


def _zero(x):
    a = get_aval(x)
    return Array(np.zeros((), a.dtype), a.weak_type)


def _one(x):
    a = get_aval(x)
    return Array(np.ones((), a.dtype), a.weak_type)


def _const(x, v):
    a = get_aval(x)
    return Array(np.asarray(v, a.dtype), a.weak_type)


from ..primitives.lax_types import Precision, canonicalize_precision  # noqa: E402,F401  (JAX's enum)


DotDimensionNumbers = DimensionNumbers


# ---- special functions (issue 11, area "special": core/_engine/primitives/special_functions.py) ------
from ..primitives import special_functions as _sf  # noqa: E402
igamma_p, igammac_p, igamma_grad_a_p = _sf.igamma_p, _sf.igammac_p, _sf.igamma_grad_a_p
regularized_incomplete_beta_p, polygamma_p, zeta_p = _sf.regularized_incomplete_beta_p, _sf.polygamma_p, _sf.zeta_p
bessel_i0e_p, bessel_i1e_p = _sf.bessel_i0e_p, _sf.bessel_i1e_p
def igamma(a, x): return _sf.igamma_p.bind(a, x)
def igammac(a, x): return _sf.igammac_p.bind(a, x)
def igamma_grad_a(a, x): return _sf.igamma_grad_a_p.bind(a, x)
def random_gamma_grad(a, x): return _sf.random_gamma_grad_p.bind(a, x)
def betainc(a, b, x): return _sf.regularized_incomplete_beta_p.bind(a, b, x)
def polygamma(m, x): return _sf.polygamma_p.bind(m, x)
def zeta(x, q): return _sf.zeta_p.bind(x, q)
def bessel_i0e(x): return _sf.bessel_i0e_p.bind(x)
def bessel_i1e(x): return _sf.bessel_i1e_p.bind(x)
# ---- end of special functions ------------------------------------------------------------------


def __getattr__(name):
    # control flow, random bits and collectives live in their own modules (issue-by-issue)
    import importlib
    for mod in ("control_flow", "collectives", "indexing", "misc",
                # lax area (issue 11)
                "convolution", "windowed", "generic_reduce", "solves", "elementwise_extra", "shaping", "fft",
                "staging_ops", "lax_types", "ragged"):
        try:
            m = importlib.import_module(f"{ew.__package__}.{mod}")  # the primitives' package
        except ModuleNotFoundError:
            continue
        public = getattr(m, "LAX_EXPORTS", {})
        if name in public:
            return public[name]
    if name.endswith("_p"):  # jax.lax.sin_p, ...: the primitive objects, for libraries' rule tables
        from ..tracing.rules import abstract_eval_rules
        for prim in list(abstract_eval_rules):
            if getattr(prim, "name", None) == name[:-2]:
                return prim
    from ..base._public import no_attribute
    raise no_attribute("jax.lax", name)

from . import lax_linalg as linalg  # noqa: E402,F401  (jax.lax.linalg)

# `import jax.lax.linalg`: JAX's lax is a package; see core/jax_names.py SUBMODULE_FILES
__path__: list = []

# ---- transforms area: complex numbers (issue 11) ---------------------------------------------
def complex(x, y):
    """x + i*y from two real arrays of one dtype (float32 -> complex64, float64 -> complex128)."""
    from ..primitives.complex_parts import complex_
    return complex_(x, y)

# ---- special2 area (issue 11): XLA's random-bit generators, the last shard_map collectives--------------------------------
from ..primitives.rng_bits import (rng_bit_generator, rng_bit_generator_p, rng_uniform,  # noqa: E402,F401
                                  rng_uniform_p)
from ..primitives.collectives_more import (pbroadcast, pcast, precv, psend, ragged_all_to_all,  # noqa: E402,F401
                                          ragged_all_to_all_p)
