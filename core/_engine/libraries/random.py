"""`jax.random`: counter-based threefry2x32 PRNG, bit-exact with JAX.

Two key styles, as in JAX:
- `PRNGKey(0)` gives a legacy `uint32[2]` array; every function wraps it with `random_wrap`
  and unwraps keys it returns with `random_unwrap` (that is what JAX's jaxprs show).
- `key(0)` gives a typed key array of dtype `key<fry>`.
Samplers mirror JAX's structure (`jit`-ted `_uniform`, `_normal`, ...) so their jaxprs, and
above all their bits, match. `jax_threefry_partitionable` (default True) picks how counters
are laid out; set it to False for the values printed by older tutorials.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from functools import partial

import numpy as np

from ..base import dtypes
from ..lax import lax
from . import normal_table, random_eager
from . import numpy as jnp
from ..api.api import _eager_plain, jit  # INHERENT: up to the api
from ..base.config import config
from ..tracing.array import Array
from ..primitives.random_bits import (FRY, KEY_DTYPE, KEY_NAME, random_bits_p, random_fold_in_p,
                                     random_seed_p, random_split_p, random_unwrap_p, random_wrap_p,
                                     threefry2x32_p, threefry2x32_np, unwrap_words, wrap_words,
                                     _bits_words, _split_words)
from ..base.avals import ShapedArray
from ..primitives import define
from ..base.prng_dtype import KEY_DTYPE_FACE, key_repr
from ..tracing.rules import batch_rules
from ..tracing.tracing import Tracer, get_aval
from ..transforms import ad
from ..transforms.batching import moveaxis

__all__ = ["PRNGKey", "key", "key_data", "wrap_key_data", "key_impl", "split", "fold_in", "clone",
           "bits", "uniform", "normal", "randint", "bernoulli", "permutation", "choice", "categorical",
           "truncated_normal", "gumbel", "exponential", "laplace", "logistic", "rademacher", "cauchy",
           "lognormal", "pareto", "rayleigh", "weibull_min", "maxwell", "triangular", "threefry_2x32",
           "key_dtype", "gamma", "loggamma", "beta", "dirichlet", "chisquare", "t", "multivariate_normal", "poisson",
           "f", "geometric", "wald", "double_sided_maxwell", "generalized_normal", "ball", "orthogonal",
           "binomial", "multinomial"]

UINT_DTYPES = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32),
               64: np.dtype(np.uint64)}


# ---- typed key arrays -------------------------------------------------------------------------

class KeyDType:
    """`key.dtype` of a typed key array; prints as `key<fry>`."""
    name = KEY_NAME
    itemsize = 8
    kind = "V"
    type = dtypes.prng_key

    def __repr__(self):
        return KEY_NAME

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, KeyDType) or (isinstance(other, np.dtype) and other == KEY_DTYPE) or \
            other == KEY_NAME

    def __hash__(self):
        return hash(KEY_NAME)


KEY_DTYPE_FACE[0] = KeyDType()  # [libtests] every key array's .dtype, jit outputs included


def key_dtype(impl=None) -> KeyDType:
    return KeyDType()


class PRNGKeyArray(Array):
    """A concrete typed key array (what `jax.random.key` returns). Its value holds the key words
    in a structured numpy dtype; `key_data` shows them as `uint32[..., 2]`."""
    __slots__ = ()

    def __jax_array__(self):
        return Array(self._value, False)

    @property
    def dtype(self):
        return KeyDType()

    itemsize = 8

    def __getitem__(self, idx):
        return _rewrap(super().__getitem__(idx))

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d key array")
        return (self[i] for i in range(self.shape[0]))

    def reshape(self, *shape, order="C"):
        return _rewrap(super().reshape(*shape, order=order))

    @property
    def T(self):
        return _rewrap(super().T)

    def __repr__(self):
        return key_repr(self)

    __str__ = __repr__

    def __eq__(self, other):  # `key == new_key` compares the key words, as in JAX
        if not isinstance(other, Array) or other._value.dtype != KEY_DTYPE:
            return NotImplemented
        return Array(np.all(unwrap_words(self._value) == unwrap_words(other._value), axis=-1))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else Array(~eq._value)

    __hash__ = Array.__hash__

    def __reduce__(self):
        return (PRNGKeyArray, (self._value, False))


def _rewrap(x):
    """Give concrete key-dtype results the typed-key face (repr, dtype); leave tracers alone."""
    if type(x) is Array and x._value.dtype == KEY_DTYPE:
        return PRNGKeyArray(x._value, False)
    return x


def _is_typed_key(x) -> bool:
    try:
        return get_aval(x).dtype == KEY_DTYPE
    except TypeError:
        return False


def _check_prng_key(name, key, *, allow_batched=False):
    if isinstance(key, (Array, Tracer)) and _is_typed_key(key):
        typed, wrapped = key, False
    elif isinstance(key, (Array, Tracer, np.ndarray, np.generic)):
        typed, wrapped = random_wrap_p.bind(jnp.asarray(key), impl=FRY), True
    else:
        raise TypeError(f"unexpected PRNG key type {type(key)}")
    if not allow_batched and get_aval(typed).ndim:
        raise ValueError(f"{name} accepts a single key, but was given a key array of shape "
                         f"{np.shape(key)} != (). Use jax.vmap for batching.")
    return typed, wrapped


def _return_prng_keys(was_wrapped, keys):
    return random_unwrap_p.bind(keys) if was_wrapped else _rewrap(keys)


# ---- eager fast paths -------------------------------------------------------------------------
# A learner's loop calls split and normal on one concrete key every step; there the primitives'
# generic dispatch (wrap, bind, unwrap) costs more than the hash. Eagerly, on a single concrete
# key, these go straight to the numpy algorithms the primitives run; anything else (tracing,
# batches of keys, bad keys, an accelerator's hook, jax_disable_jit) takes the general path.
_LEGACY_KEY_SHAPE = (2,)


def _eager_key_words(key):
    """uint32[2] words of a single concrete key when the eager fast paths may run, else None."""
    tk = type(key)
    if tk is Array:
        words = key._value
        if words.dtype != np.uint32 or words.shape != _LEGACY_KEY_SHAPE:
            return None   # (the general path explains what is wrong with it)
    elif tk is PRNGKeyArray:
        if key._value.shape:
            return None
        words = key._value.reshape(1).view(np.uint32)   # (k0, k1)
    else:
        return None
    return words if _eager_plain() else None


def _keys_like(key, words):
    """New keys (uint32[..., 2] words) in the style of `key`: legacy words or a typed key array."""
    if type(key) is Array:
        return Array(words, False)
    return PRNGKeyArray(wrap_words(words), False)


def _random_bits(key, bit_width, shape):
    return random_bits_p.bind(key, bit_width=bit_width, shape=tuple(shape))


def _split(key, num=2):
    if get_aval(key).ndim:
        raise TypeError("split accepts a single key, but was given a key array of shape "
                        f"{get_aval(key).shape} != (). Use jax.vmap for batching.")
    return random_split_p.bind(key, shape=_split_shape(num))


def _split_shape(num):
    shape = tuple(num) if isinstance(num, Sequence) else (num,)
    return tuple(operator.index(d) for d in shape)


def _unstack(keys):
    """Iterate a traced array the way JAX does (slice with unit strides, then squeeze)."""
    aval = get_aval(keys)
    rest = aval.shape[1:]
    return [lax.squeeze(lax.slice(keys, (i,) + (0,) * len(rest), (i + 1,) + rest, (1,) * aval.ndim), (0,))
            for i in range(aval.shape[0])]


def _canonical_shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"Shapes must be 1D sequences of concrete values of integer type, got {shape}.") from None


def _check_shape(name, shape, *param_shapes):
    if param_shapes:
        out = np.broadcast_shapes(shape, *param_shapes)
        if out != tuple(shape):
            raise ValueError(f"{name} parameter shapes must be broadcast-compatible with shape argument, and "
                             "the result of broadcasting the shapes must equal the shape argument, but got "
                             f"result {out} for shape argument {shape}.")


def _user_dtype(dtype, default):
    return dtypes.canonicalize_dtype(default if dtype is None else dtype)


def _float_dtype_arg(name, dtype):
    dtype = _user_dtype(dtype, float)
    if dtypes.kind(dtype) != "f":
        raise ValueError(f"dtype argument to `{name}` must be a float dtype, got {dtype}")
    return dtype


# ---- keys -------------------------------------------------------------------------------------

def _seed(ctor_name, seed):
    if _is_typed_key(seed) if isinstance(seed, (Array, Tracer)) else False:
        raise TypeError(f"{ctor_name} accepts a scalar seed, but was given a PRNG key.")
    if np.ndim(seed):
        raise TypeError(f"{ctor_name} accepts a scalar seed, but was given an array of shape "
                        f"{np.shape(seed)} != (). Use jax.vmap for batching")
    # Python ints go through int64 so that big seeds (hashes) wrap instead of overflowing.
    arr = jnp.asarray(np.int64(seed)) if type(seed) is int else jnp.asarray(seed)
    if get_aval(arr).dtype.kind not in "iu":
        raise TypeError(f"PRNG key seed must be an integer; got {arr!r}")
    return random_seed_p.bind(arr, impl=FRY)


def key(seed, *, impl=None, dtype=None):
    """A typed PRNG key (dtype `key<fry>`) from an integer seed."""
    _check_impl(impl if dtype is None else dtype)
    return _rewrap(_seed("key", seed))


def PRNGKey(seed, *, impl=None):
    """A legacy PRNG key: a `uint32[2]` array (JAX's pre-typed-key style the tutorials use)."""
    _check_impl(impl)
    return random_unwrap_p.bind(_seed("PRNGKey", seed))


def _check_impl(impl):
    if impl is not None and str(impl) not in ("threefry2x32", "fry", KEY_NAME):
        raise ValueError(f"unrecognized PRNG implementation {impl!r}: gradpad implements only "
                         "'threefry2x32' (JAX's default)")


def key_data(keys):
    keys, _ = _check_prng_key("key_data", keys, allow_batched=True)
    return random_unwrap_p.bind(keys)


def wrap_key_data(key_bits_array, *, impl=None, dtype=None):
    _check_impl(impl if dtype is None else dtype)
    return _rewrap(random_wrap_p.bind(jnp.asarray(key_bits_array), impl=FRY))


def key_impl(keys):
    _check_prng_key("key_impl", keys, allow_batched=True)
    return "threefry2x32"


def clone(key):
    return key


def split(key, num=2):
    """`num` (an int or a shape) new keys from one key."""
    words = _eager_key_words(key)
    shape = None if words is None else _split_shape(num)
    if shape is not None and min(shape, default=0) >= 0:
        return _keys_like(key, _split_words(words[:1], words[1:], shape).reshape(shape + (2,)))
    typed, wrapped = _check_prng_key("split", key)
    return _return_prng_keys(wrapped, _split(typed, num))


_MASK32 = 0xFFFFFFFF


def fold_in(key, data):
    """A new key that deterministically mixes 32-bit integer `data` into `key`."""
    words = _eager_key_words(key)
    if words is not None and type(data) is int and 0 <= data <= _MASK32:
        # one concrete key and a Python int: the hash of the counter pair (0, data), directly
        y0, y1 = threefry2x32_np(words[0], words[1], np.uint32(0), np.uint32(data))
        return _keys_like(key, np.array([y0, y1], np.uint32))
    typed, wrapped = _check_prng_key("fold_in", key)
    if np.ndim(data):
        raise TypeError("fold_in accepts a scalar, but was given an array of"
                        f"shape {np.shape(data)} != (). Use jax.vmap for batching.")
    # python ints up to 2**32 - 1 are fine for uint32 data (numpy does the range check)
    data = jnp.asarray(np.asarray(data, np.uint32)) if type(data) is int else jnp.asarray(data, dtype="uint32")
    out = random_fold_in_p.bind(typed, data)
    return _return_prng_keys(wrapped, out)


def threefry_2x32(keypair, count):
    """Apply the threefry-2x32 hash to a uint32 counter array (`jax.random.threefry_2x32`)."""
    k1, k2 = keypair
    flat = jnp.ravel(count)
    odd = flat.shape[0] % 2
    if odd:
        flat = jnp.concatenate([flat, jnp.zeros((1,), np.uint32)])
    half = flat.shape[0] // 2
    y0, y1 = threefry2x32_p.bind(k1, k2, flat[:half], flat[half:])
    out = jnp.concatenate([y0, y1])
    return lax.reshape(out[:-1] if odd else out, tuple(np.shape(count)))


# ---- samplers ---------------------------------------------------------------------------------

def bits(key, shape=(), dtype=None):
    """Uniform random bits of an unsigned dtype (default uint32, or uint64 under x64)."""
    key, _ = _check_prng_key("bits", key)
    dtype = dtypes.default_uint_dtype() if dtype is None else dtypes.canonicalize_dtype(dtype)
    if dtype.kind != "u":
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {dtype}")
    return _random_bits(key, dtype.itemsize * 8, _canonical_shape(shape))


def uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0):
    """Uniform floats in [minval, maxval)."""
    if type(minval) is float and type(maxval) is float and (dtype is None or dtype == _F32):
        words = _eager_key_words(key)
        if words is not None and not config.read("jax_enable_x64"):
            return Array(random_eager.uniform_f32(words, _canonical_shape(shape), minval, maxval), False)
    key, _ = _check_prng_key("uniform", key)
    dtype = _float_dtype_arg("uniform", dtype)
    return _uniform(key, minval, maxval, _canonical_shape(shape), dtype)


def _uniform_impl(key, minval, maxval, shape, dtype):
    _check_shape("uniform", shape)
    return _uniform_floats(lambda nbits: _random_bits(key, nbits, shape), minval, maxval, shape, dtype)


def _uniform_floats(draw_bits, minval, maxval, shape, dtype):
    """Uniform floats from `draw_bits(nbits)` (the random bits, drawn after the bounds are
    converted, as JAX orders the equations)."""
    minval = lax.convert_element_type(minval, dtype)
    maxval = lax.convert_element_type(maxval, dtype)
    minval = lax.broadcast_to_rank(minval, len(shape))
    maxval = lax.broadcast_to_rank(maxval, len(shape))
    finfo = dtypes.finfo(dtype)
    nbits, nmant = finfo.bits, finfo.nmant
    rng_bits = 8 if nmant < 8 else nbits
    uint_dtype = UINT_DTYPES[nbits]
    rbits = draw_bits(rng_bits)
    if rng_bits != nbits:
        rbits = lax.convert_element_type(rbits, uint_dtype)
    # Random mantissa under exponent 0 gives a float in [1, 2); shift it to [0, 1).
    float_bits = lax.shift_right_logical(rbits, jnp.array(rng_bits - nmant, uint_dtype))
    float_bits = lax.bitwise_or(float_bits, jnp.asarray(dtypes.float_bits(1.0, dtype), dtype=uint_dtype))
    floats = lax.bitcast_convert_type(float_bits, dtype) - jnp.array(1.0, dtype)
    return lax.max(minval, lax.reshape(floats * (maxval - minval) + minval, shape))


_uniform_impl.__name__ = "_uniform"
_uniform = jit(_uniform_impl, static_argnums=(3, 4))


def _uniform_of_bits_impl(rbits, minval, maxval, shape, dtype):
    return _uniform_floats(lambda nbits: rbits, minval, maxval, shape, dtype)


# (the same name: the CPU backend fuses multiply-adds inside `_uniform` bodies, as XLA does)
_uniform_of_bits_impl.__name__ = "_uniform"
_uniform_of_bits = jit(_uniform_of_bits_impl, static_argnums=(3, 4))


def _convert_and_clip_integer(val, dtype):
    vdt = get_aval(val).dtype
    lo = lax._const(val, max(np.iinfo(dtype).min, np.iinfo(vdt).min))
    hi = lax._const(val, min(np.iinfo(dtype).max, np.iinfo(vdt).max))
    return jnp.clip(val, lo, hi).astype(dtype)


def randint(key, shape, minval, maxval, dtype=None):
    """Integers uniformly in [minval, maxval) (sampled from 2x the dtype's bits, as JAX does)."""
    if (dtype is None or dtype == _I32) and random_eager.int32_in_range(minval, maxval):
        words = _eager_key_words(key)
        if words is not None and not config.read("jax_enable_x64"):
            return Array(random_eager.randint_i32(words, _canonical_shape(shape), minval, maxval), False)
    key, _ = _check_prng_key("randint", key)
    dtype = _user_dtype(dtype, int)
    if dtype.kind not in "iu":
        raise TypeError(f"randint only accepts integer dtypes, got {dtype}")
    shape = _canonical_shape(shape)
    info = np.iinfo(dtype)
    sample_dtype = dtype
    if info.bits < 32:  # sample in 32 bits to avoid biased results
        sample_dtype = np.dtype(np.int32)
        minval = jnp.asarray(minval).astype("int32").clip(int(info.min), int(info.max))
        maxval = jnp.asarray(maxval).astype("int32").clip(int(info.min), int(info.max) + 1)
    return _randint(key, minval, maxval, shape, sample_dtype).astype(dtype)


def _randint_impl(key, minval, maxval, shape, dtype):
    _check_shape("randint", shape, np.shape(minval), np.shape(maxval))
    minval = jnp.asarray(minval)
    maxval = jnp.asarray(maxval)
    if get_aval(minval).dtype.kind not in "iu":
        minval = minval.astype(int)
    if get_aval(maxval).dtype.kind not in "iu":
        maxval = maxval.astype(int)
    maxval_out_of_range = lax.gt(
        maxval, _convert_and_clip_integer(jnp.array(np.iinfo(dtype).max, dtype), get_aval(maxval).dtype))
    minval = _convert_and_clip_integer(minval, dtype)
    maxval = _convert_and_clip_integer(maxval, dtype)
    minval = lax.broadcast_to_rank(minval, len(shape))
    maxval = lax.broadcast_to_rank(maxval, len(shape))
    nbits = np.iinfo(dtype).bits
    k1, k2 = _unstack(_split(key))
    higher_bits, lower_bits = _random_bits(k1, nbits, shape), _random_bits(k2, nbits, shape)
    unsigned = UINT_DTYPES[nbits]
    span = lax.convert_element_type(maxval - minval, unsigned)
    span = lax.select(maxval <= minval, lax.full_like(span, 1), span)  # empty range -> minval
    span = lax.select(maxval_out_of_range & (maxval > minval), lax.add(span, lax._const(span, 1)), span)
    # offset = (hi * 2**nbits + lo) % span, without overflow: (a*b) % n = ((a%n) * (b%n)) % n
    multiplier = lax.rem(lax._const(span, 2 ** (nbits // 2)), span)
    multiplier = lax.rem(lax.mul(multiplier, multiplier), span)
    offset = lax.add(lax.mul(lax.rem(higher_bits, span), multiplier), lax.rem(lower_bits, span))
    offset = lax.rem(offset, span)
    return lax.add(minval, lax.convert_element_type(offset, dtype))


_randint_impl.__name__ = "_randint"
_randint = jit(_randint_impl, static_argnums=(3, 4))


def normal(key, shape=(), dtype=None):
    """Standard normal samples: sqrt(2) * erf_inv(uniform(-1, 1))."""
    words = _eager_key_words(key)
    if words is not None and (dtype is None or dtype == _F32) and not config.read("jax_enable_x64"):
        return Array(_normal_f32_eager(words, _canonical_shape(shape)), False)
    key, _ = _check_prng_key("normal", key)
    shape = _canonical_shape(shape)
    dtype = _user_dtype(dtype, float)
    if dtypes.kind(dtype) not in "fc":
        raise ValueError(f"dtype argument to `normal` must be a float or complex dtype, got {dtype}")
    return _normal(key, shape, dtype)


def _normal_impl(key, shape, dtype):
    if dtypes.kind(dtype) == "c":
        sqrt2 = np.array(np.sqrt(2), dtype)
        key_re, key_im = _unstack(_split(key))
        real_dtype = np.array(0, dtype).real.dtype
        re = _normal_real(key_re, shape, real_dtype).astype(dtype)
        im = _normal_real(key_im, shape, real_dtype).astype(dtype)
        return (re + 1j * im) / sqrt2
    return _normal_real(key, shape, dtype)


def _normal_real_impl(key, shape, dtype):
    _check_shape("normal", shape)
    return _normal_of_uniform(lambda lo, hi: _uniform(key, lo, hi, shape, dtype), dtype)


def _normal_of_uniform(uniform_between, dtype):
    lo = dtypes.host_array(-1.0 + float(dtypes.finfo(dtype).epsneg), dtype)  # the float after -1
    hi = np.array(1.0, dtype)
    u = uniform_between(lo, hi)
    return lax.mul(dtypes.host_array(np.sqrt(2), dtype), lax.erf_inv(u))


# ---- eager float32 normal: numpy, then a table lookup (random_eager.py, normal_table.py) --------
# Eager float32 normals are a function of each sample's 23 mantissa bits; once the table exists,
# a concrete key's samples are threefry bits and one `take`. Traced calls keep the jaxpr.
_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)


@jit
def _normal_f32_of_bits(rbits):
    """The jitted float32 path from random bits (what `_normal_real` computes after drawing them);
    tests hold the table and the eager path to it."""
    shape = get_aval(rbits).shape
    return _normal_of_uniform(lambda lo, hi: _uniform_of_bits(rbits, lo, hi, shape, _F32), _F32)


def _normal_f32_eager(words, shape):
    """Eager float32 normals of one key: threefry bits, then the table (normal_table.py) once it
    exists, else the exact path in numpy (which counts toward building the table)."""
    bits = _bits_words(words[:1], words[1:], 32, shape).reshape(-1)
    out = normal_table.lookup(bits)
    if out is None:
        out = random_eager.normal_f32_of_bits(bits)
        normal_table.note_exact_call(out.size, random_eager.normal_f32_of_bits)
    return out.reshape(shape)


_normal_impl.__name__ = "_normal"
_normal_real_impl.__name__ = "_normal_real"
_normal = jit(_normal_impl, static_argnums=(1, 2))
_normal_real = jit(_normal_real_impl, static_argnums=(1, 2))


def truncated_normal(key, lower, upper, shape=None, dtype=None):
    """Normal samples truncated to (lower, upper)."""
    shape = None if shape is None else _canonical_shape(shape)
    key, _ = _check_prng_key("truncated_normal", key)
    dtype = _float_dtype_arg("truncated_normal", dtype)
    return _truncated_normal(key, lower, upper, shape, dtype)


def _truncated_normal_impl(key, lower, upper, shape, dtype):
    if shape is None:
        shape = np.broadcast_shapes(np.shape(lower), np.shape(upper))
    else:
        _check_shape("truncated_normal", shape, np.shape(lower), np.shape(upper))
    sqrt2 = np.array(np.sqrt(2), dtype)
    lower = lax.convert_element_type(lower, dtype)
    upper = lax.convert_element_type(upper, dtype)
    a = lax.erf(lower / sqrt2)
    b = lax.erf(upper / sqrt2)
    u = _uniform(key, a, b, shape, dtype)
    out = sqrt2 * lax.erf_inv(u)
    return jnp.clip(out, lax.nextafter(lax.stop_gradient(lower), np.array(np.inf, dtype)),
                    lax.nextafter(lax.stop_gradient(upper), np.array(-np.inf, dtype)))


_truncated_normal_impl.__name__ = "_truncated_normal"
_truncated_normal = jit(_truncated_normal_impl, static_argnums=(3, 4))


def bernoulli(key, p=0.5, shape=None, mode="low"):
    """Booleans that are True with probability p."""
    shape = None if shape is None else _canonical_shape(shape)
    if mode not in ("high", "low"):
        raise ValueError(f"got mode={mode!r}, expected 'high' or 'low'")
    if type(p) is float and mode == "low":   # (dropout's call) uniform(0, 1) < p, in numpy
        words = _eager_key_words(key)
        if words is not None and not config.read("jax_enable_x64"):
            u = random_eager.uniform_f32(words, () if shape is None else shape, 0.0, 1.0)
            return Array(np.asarray(u < np.float32(p)), False)
    key, _ = _check_prng_key("bernoulli", key)
    dtype = dtypes.dtype_and_weak(p)[0] if not isinstance(p, (list, tuple)) else jnp.asarray(p).dtype
    if dtypes.kind(dtype) != "f":
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got {dtype}.")
    p = lax.convert_element_type(p, dtype)
    return _bernoulli(key, p, shape=shape, mode=mode)


def _bernoulli_impl(key, p, shape, mode):
    if shape is None:
        shape = np.shape(p)
    else:
        _check_shape("bernoulli", shape, np.shape(p))
    dtype = get_aval(p).dtype
    if mode == "high":
        u1, u2 = _unstack(_uniform(key, 0.0, 1.0, (2, *shape), dtype))
        u2 = u2 * 2 ** -dtypes.finfo(dtype).nmant
        return u2 < p - u1
    return _uniform(key, 0.0, 1.0, shape, dtype) < p


_bernoulli_impl.__name__ = "_bernoulli"
_bernoulli = jit(_bernoulli_impl, static_argnames=("shape", "mode"))


def _shuffle_impl(key, x, axis):
    # Sort by fresh random 32-bit keys, enough rounds that collisions are negligible (as JAX).
    size = int(np.prod(np.shape(x)))
    num_rounds = int(np.ceil(3 * np.log(max(1, size)) / np.log(np.iinfo(np.uint32).max)))
    for _ in range(num_rounds):
        key, subkey = _unstack(_split(key))
        sort_keys = _random_bits(subkey, 32, np.shape(x))
        _, x = lax.sort_key_val(sort_keys, x, axis)
    return x


_shuffle_impl.__name__ = "_shuffle"
_shuffle = jit(_shuffle_impl, static_argnums=(2,))


def permutation(key, x, axis=0, independent=False):
    """A random permutation of `range(x)` (int x) or of x along `axis`."""
    key, _ = _check_prng_key("permutation", key)
    nd = np.ndim(x)
    axis = axis % (nd or 1)
    if not nd:
        if np.dtype(dtypes.dtype_and_weak(x)[0]).kind not in "iu":
            raise TypeError("x must be an integer or at least 1-dimensional")
        return _shuffle(key, jnp.arange(int(x)), axis)
    x = jnp.asarray(x)
    if independent or nd == 1:
        return _shuffle(key, x, axis)
    ind = _shuffle(key, jnp.arange(x.shape[axis]), 0)
    return jnp.take(x, ind, axis, unique_indices=True)


def choice(key, a, shape=(), replace=True, p=None, axis=0, mode=None):
    """Samples from `a` (an int n means arange(n)), with or without replacement, optionally
    weighted by p."""
    key, _ = _check_prng_key("choice", key)
    if not isinstance(shape, Sequence):
        raise TypeError(f"shape argument of jax.random.choice must be a sequence, got {shape}")
    arr = jnp.asarray(a)
    if arr.ndim == 0:
        n_inputs = int(a)
    else:
        axis = axis % arr.ndim
        n_inputs = arr.shape[axis]
    n_draws = math.prod(shape)
    if n_draws == 0:
        return jnp.zeros(shape, dtype=arr.dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(f"Cannot take a larger sample (size {n_draws}) than population (size {n_inputs}) "
                         "when 'replace=False'")
    if p is None:
        if replace:
            ind = randint(key, shape, 0, n_inputs)
            result = ind if arr.ndim == 0 else jnp.take(arr, ind, axis)
        else:
            slices = (slice(None),) * axis + (slice(n_draws),)
            result = permutation(key, n_inputs if arr.ndim == 0 else arr, axis)[slices]
    else:
        p_arr = jnp.asarray(p)
        if p_arr.dtype.kind not in "fc":
            p_arr = p_arr.astype(dtypes.default_float_dtype())
        if p_arr.shape != (n_inputs,):
            raise ValueError("p must be None or a 1D vector with the same size as a.shape[axis]. "
                             f"p has shape {p_arr.shape} and a.shape[axis] is {n_inputs}.")
        if replace:
            p_cuml = jnp.cumsum(p_arr)
            r = p_cuml[-1] * (1 - uniform(key, shape, dtype=p_cuml.dtype))
            ind = jnp.searchsorted(p_cuml, r).astype(int)
        else:  # Gumbel top-k
            g = gumbel(key, (n_inputs,), dtype=p_arr.dtype, mode=mode) + jnp.log(p_arr)
            ind = jnp.argsort(-g, stable=True)[:n_draws].astype(int)
        result = ind if arr.ndim == 0 else jnp.take(arr, ind, axis)
    return result.reshape(tuple(shape) if arr.ndim == 0 else
                          arr.shape[0:axis] + tuple(shape) + arr.shape[axis + 1:])


def gumbel(key, shape=(), dtype=None, mode=None):
    """Standard Gumbel samples: -log(-log(uniform(tiny, 1)))."""
    key, _ = _check_prng_key("gumbel", key)
    dtype = _float_dtype_arg("gumbel", dtype)
    mode = "low" if mode is None else mode
    if mode not in ("highest", "high", "low"):
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    if mode == "highest":
        raise NotImplementedError("gumbel(mode='highest') is not implemented in gradpad; use 'high'")
    return _gumbel(key, _canonical_shape(shape), dtype, mode)


def _gumbel_impl(key, shape, dtype, mode):
    info = dtypes.finfo(dtype)
    if mode == "high":
        high, low = _unstack(_uniform(key, 0.0, 1.0, (2,) + shape, dtype))
        x = jnp.where(high >= 0.5, high, high + 2 ** -int(info.nmant) * low + info.tiny)
        return -jnp.log(-jnp.log1p(-x))
    return -jnp.log(-jnp.log(_uniform(key, info.tiny, 1.0, shape, dtype)))


_gumbel_impl.__name__ = "_gumbel"
_gumbel = jit(_gumbel_impl, static_argnums=(1, 2, 3))


def categorical(key, logits, axis=-1, shape=None, replace=True, mode=None):
    """Samples of category indices from unnormalized log-probabilities (Gumbel-max)."""
    key, _ = _check_prng_key("categorical", key)
    logits_arr = jnp.asarray(logits)
    batch_shape = tuple(np.delete(logits_arr.shape, axis))
    if shape is None:
        shape = batch_shape
    else:
        shape = _canonical_shape(shape)
        _check_shape("categorical", shape, batch_shape)
    shape_prefix = shape[:len(shape) - len(batch_shape)]
    if replace:
        if axis >= 0:
            axis -= logits_arr.ndim
        logits_shape = list(shape[len(shape) - len(batch_shape):])
        logits_shape.insert(axis % logits_arr.ndim, logits_arr.shape[axis])
        g = gumbel(key, (*shape_prefix, *logits_shape), logits_arr.dtype, mode=mode)
        return jnp.argmax(g + lax.expand_dims(logits_arr, tuple(range(len(shape_prefix)))), axis=axis)
    logits_arr = logits_arr + gumbel(key, logits_arr.shape, logits_arr.dtype, mode=mode)
    k = math.prod(shape_prefix)
    if k > logits_arr.shape[axis]:
        raise ValueError(f"Number of samples without replacement ({k}) cannot exceed number of "
                         f"categories ({logits_arr.shape[axis]}).")
    moved = jnp.moveaxis(logits_arr, axis, -1)
    indices = jnp.argsort(-moved, axis=-1, stable=True)[..., :k]
    return lax.reshape(indices, shape, (indices.ndim - 1, *range(indices.ndim - 1)))


def _float_sampler(name, key, shape, dtype):
    key, _ = _check_prng_key(name, key)
    return key, _canonical_shape(shape), _float_dtype_arg(name, dtype)


def exponential(key, shape=(), dtype=None):
    """Standard exponential samples: -log1p(-uniform)."""
    return _exponential(*_float_sampler("exponential", key, shape, dtype))


@partial(jit, static_argnums=(1, 2))
def _exponential(key, shape, dtype):
    u = _uniform(key, 0.0, 1.0, shape, dtype)
    return lax.neg(lax.log1p(lax.neg(u)))


def laplace(key, shape=(), dtype=None):
    return _laplace(*_float_sampler("laplace", key, shape, dtype))


@partial(jit, static_argnums=(1, 2))
def _laplace(key, shape, dtype):
    u = _uniform(key, -1.0 + dtypes.finfo(dtype).epsneg, 1.0, shape, dtype)
    return lax.mul(lax.sign(u), lax.log1p(lax.neg(lax.abs(u))))


def logistic(key, shape=(), dtype=None):
    return _logistic(*_float_sampler("logistic", key, shape, dtype))


@partial(jit, static_argnums=(1, 2))
def _logistic(key, shape, dtype):
    x = _uniform(key, dtypes.finfo(dtype).tiny, 1.0, shape, dtype)
    return lax.sub(lax.log(x), lax.log1p(lax.neg(x)))


def cauchy(key, shape=(), dtype=None):
    return _cauchy(*_float_sampler("cauchy", key, shape, dtype))


@partial(jit, static_argnums=(1, 2))
def _cauchy(key, shape, dtype):
    u = _uniform(key, dtypes.finfo(dtype).eps, 1.0, shape, dtype)
    return lax.tan(lax.mul(lax._const(u, np.pi), lax.sub(u, lax._const(u, 0.5))))


def rademacher(key, shape=(), dtype=None):
    """Random -1/+1 integers."""
    key, _ = _check_prng_key("rademacher", key)
    return _rademacher(key, _canonical_shape(shape), _user_dtype(dtype, int))


@partial(jit, static_argnums=(1, 2))
def _rademacher(key, shape, dtype):
    samples = _bernoulli(key, lax.convert_element_type(0.5, dtypes.default_float_dtype()), shape=shape,
                         mode="low").astype(dtype)
    return (2 * samples - 1).astype(dtype)


def lognormal(key, sigma=1.0, shape=None, dtype=None):
    """exp(sigma * standard normal)."""
    key, _ = _check_prng_key("lognormal", key)
    dtype = _user_dtype(dtype, float)
    shape = np.shape(sigma) if shape is None else _canonical_shape(shape)
    return _lognormal(key, sigma, shape, dtype)


@partial(jit, static_argnums=(2, 3))
def _lognormal(key, sigma, shape, dtype):
    sigma = lax.convert_element_type(sigma, dtype)
    return lax.exp(_normal(key, shape, dtype) * sigma)


def pareto(key, b, shape=None, dtype=None):
    key, _ = _check_prng_key("pareto", key)
    dtype = _user_dtype(dtype, float)
    shape = np.shape(b) if shape is None else _canonical_shape(shape)
    return _pareto(key, b, shape, dtype)


@partial(jit, static_argnums=(2, 3))
def _pareto(key, b, shape, dtype):
    b = lax.convert_element_type(b, dtype)
    return lax.exp(_exponential(key, shape, dtype) / b)


def rayleigh(key, scale=1.0, shape=None, dtype=None):
    key, _ = _check_prng_key("rayleigh", key)
    dtype = _user_dtype(dtype, float)
    shape = np.shape(scale) if shape is None else _canonical_shape(shape)
    return _rayleigh(key, jnp.asarray(scale), shape, dtype)


@partial(jit, static_argnums=(2, 3))
def _rayleigh(key, scale, shape, dtype):
    u = _uniform(key, 0.0, 1.0, shape, dtype)
    scale = jnp.broadcast_to(scale.astype(dtype), shape)
    sqrt_u = lax.sqrt(lax.mul(lax.log(u), lax._const(scale, -2)))
    return lax.mul(scale, sqrt_u)


def weibull_min(key, scale, concentration, shape=(), dtype=None):
    key, _ = _check_prng_key("weibull_min", key)
    return _weibull_min(key, scale, concentration, _canonical_shape(shape), _user_dtype(dtype, float))


@partial(jit, static_argnums=(3, 4))
def _weibull_min(key, scale, concentration, shape, dtype):
    u = _uniform(key, 0, 1, shape, dtype)
    return jnp.power(-jnp.log1p(-u), 1.0 / concentration) * scale  # inverse Weibull CDF


def maxwell(key, shape=(), dtype=None):
    key, shape, dtype = _float_sampler("maxwell", key, shape, dtype)
    return _maxwell(key, shape, dtype)


@partial(jit, static_argnums=(1, 2))
def _maxwell(key, shape, dtype):
    return jnp.linalg.norm(_normal(key, shape + (3,), dtype), axis=-1)


def triangular(key, left, mode, right, shape=None, dtype=None):
    key, _ = _check_prng_key("triangular", key)
    dtype = _user_dtype(dtype, float)
    if shape is None:
        shape = np.broadcast_shapes(np.shape(left), np.shape(mode), np.shape(right))
    return _triangular(key, left, mode, right, _canonical_shape(shape), dtype)


@partial(jit, static_argnums=(4, 5))
def _triangular(key, left, mode, right, shape, dtype):
    left = jnp.broadcast_to(lax.convert_element_type(left, dtype), shape)
    right = jnp.broadcast_to(lax.convert_element_type(right, dtype), shape)
    mode = jnp.broadcast_to(lax.convert_element_type(mode, dtype), shape)
    fc = (mode - left) / (right - left)
    u = _uniform(key, 0.0, 1.0, shape, dtype)
    out1 = left + lax.sqrt(u * (right - left) * (mode - left))
    out2 = right - lax.sqrt((1 - u) * (right - left) * (right - mode))
    return lax.select(u < fc, out1, out2)


# ---- gamma, and the samplers built on it ---------------------------------------------------
# Marsaglia and Tsang's rejection method, one alpha at a time with its own key (JAX's algorithm,
# step for step, so that samples match JAX's). `random_gamma` is a primitive, as in JAX; its
# impl runs the per-element sampler vmapped under jit.

def _gamma_one(key, alpha, log_space):
    zero, one, two = lax._const(alpha, 0), lax._const(alpha, 1), lax._const(alpha, 2)
    minus_one, half = lax._const(alpha, -1), lax._const(alpha, 0.5)
    third, squeeze = lax._const(alpha, 1.0 / 3.0), lax._const(alpha, 0.0331)
    dtype = get_aval(alpha).dtype
    # alpha < 1: sample Gamma(alpha + 1) and scale by Uniform^(1 / alpha) (in log space if asked)
    boost_mask = lax.ge(alpha, one)
    alpha_orig = alpha
    alpha = lax.select(boost_mask, alpha, lax.add(alpha, one))
    d = lax.sub(alpha, third)
    c = lax.div(third, lax.sqrt(d))

    def accept_not_yet(state):
        _, X, V, U = state
        return lax.bitwise_and(lax.ge(U, lax.sub(one, lax.mul(squeeze, lax.mul(X, X)))),
                               lax.ge(lax.log(U), lax.add(lax.mul(X, half),
                                                          lax.mul(d, lax.add(lax.sub(one, V), lax.log(V))))))

    def propose(state):
        def next_xv(kxv):
            k, sub = _unstack(_split(kxv[0]))
            x = _normal(sub, (), dtype)
            return k, x, lax.add(one, lax.mul(x, c))
        k, x_key, u_key = _unstack(_split(state[0], 3))
        _, x, v = lax.while_loop(lambda kxv: lax.le(kxv[2], zero), next_xv, (x_key, zero, minus_one))
        return k, lax.mul(x, x), lax.mul(lax.mul(v, v), v), _uniform(u_key, 0.0, 1.0, (), dtype)

    key, subkey = _unstack(_split(key))
    _, _, V, _ = lax.while_loop(accept_not_yet, propose, (key, zero, one, two))  # starts rejected
    if log_space:
        log_samples = lax.neg(_exponential(subkey, (), dtype))
        log_boost = lax.select(boost_mask | (log_samples == 0), zero, lax.mul(log_samples, lax.div(one, alpha_orig)))
        return lax.add(lax.add(lax.log(d), lax.log(V)), log_boost)
    samples = 1 - _uniform(subkey, 0.0, 1.0, (), dtype)
    boost = lax.select(boost_mask, one, lax.pow(samples, lax.div(one, alpha_orig)))
    return lax.mul(lax.mul(d, V), boost)


def _gamma_all(keys, alphas, log_space):
    """keys: typed keys of shape a.shape[:k]; each is split over the remaining axes."""
    from ..api.api import vmap  # INHERENT: up to the api
    shape = get_aval(alphas).shape
    nk = get_aval(keys).ndim
    count = math.prod(shape[nk:])
    keys = vmap(lambda k: _split(k, count))(jnp.ravel(keys)) if nk else _split(keys, count)
    samples = vmap(partial(_gamma_one, log_space=log_space))(jnp.ravel(keys), jnp.ravel(alphas))
    return jnp.reshape(samples, shape)


_gamma_all_jit = jit(_gamma_all, static_argnums=(2,))


def _random_gamma_impl(key, a, *, log_space):
    return np.asarray(_gamma_all_jit(PRNGKeyArray(np.asarray(key), False), Array(np.asarray(a)), bool(log_space)))


def _random_gamma_abstract(key, a, *, log_space):
    if key.dtype != KEY_DTYPE:
        raise TypeError(f"random_gamma expects a typed PRNG key, got {key.dtype}")
    return ShapedArray(a.shape, a.dtype)


random_gamma_p = define("random_gamma", abstract_eval=_random_gamma_abstract, impl=_random_gamma_impl)


def _random_gamma_jvp(primals, tangents, log_space):
    """Implicit reparameterization (as JAX): a sample moves with `a` along d sample / d a =
    -(dCDF/da) / pdf at the sample, which lax.random_gamma_grad computes; in log space the
    derivative of log(sample) is that over the sample (a sample that rounded to 0 counts as the
    smallest normal float, so the quotient stays finite)."""
    key, a = primals
    out = random_gamma_p.bind(key, a, log_space=log_space)
    a_dot = tangents[1]
    if type(a_dot) is ad.Zero:
        return out, ad.Zero(get_aval(out))
    from ..primitives.special_functions import random_gamma_grad_p
    if log_space:
        sample = lax.exp(out)
        tiny = lax.full_like(sample, np.finfo(get_aval(sample).dtype).tiny)
        sample = lax.select(lax.eq(sample, lax.full_like(sample, 0)), tiny, sample)
        slope = lax.div(random_gamma_grad_p.bind(a, sample), sample)
    else:
        slope = random_gamma_grad_p.bind(a, out)
    return out, lax.mul(a_dot, slope)


def _random_gamma_batch(axis_data, vals, dims, log_space):
    key, a = vals
    dk, da = dims
    n = axis_data.size
    key = moveaxis(key, dk, 0) if dk is not None else lax.broadcast_in_dim(key, (n, *get_aval(key).shape),
                                                                            tuple(range(1, get_aval(key).ndim + 1)))
    a = moveaxis(a, da, 0) if da is not None else lax.broadcast_in_dim(a, (n, *get_aval(a).shape),
                                                                      tuple(range(1, get_aval(a).ndim + 1)))
    return random_gamma_p.bind(key, a, log_space=log_space), 0


ad.jvp_rules[random_gamma_p] = _random_gamma_jvp
batch_rules[random_gamma_p] = _random_gamma_batch


def gamma(key, a, shape=None, dtype=None):
    """Standard gamma samples with shape parameter `a` (unit rate)."""
    key, _ = _check_prng_key("gamma", key)
    dtype = _float_dtype_arg("gamma", dtype)
    return _gamma(key, a, None if shape is None else _canonical_shape(shape), dtype)


def loggamma(key, a, shape=None, dtype=None):
    """log of gamma samples, computed in log space (accurate for small `a`)."""
    key, _ = _check_prng_key("loggamma", key)
    dtype = _float_dtype_arg("gamma", dtype)
    return _gamma(key, a, None if shape is None else _canonical_shape(shape), dtype, log_space=True)


@partial(jit, static_argnames=("shape", "dtype", "log_space"))
def _gamma(key, a, shape, dtype, log_space=False):
    if shape is None:
        shape = np.shape(a)
    else:
        _check_shape("gamma", shape, np.shape(a))
    a = lax.convert_element_type(a, dtype)
    if np.shape(a) != shape:
        a = jnp.broadcast_to(a, shape)
    return random_gamma_p.bind(key, a, log_space=log_space)


def beta(key, a, b, shape=None, dtype=None):
    """Beta(a, b) samples, from two log-gamma samples."""
    key, _ = _check_prng_key("beta", key)
    dtype = _float_dtype_arg("beta", dtype)
    return _beta(key, a, b, None if shape is None else _canonical_shape(shape), dtype)


@partial(jit, static_argnums=(3, 4))
def _beta(key, a, b, shape, dtype):
    if shape is None:
        shape = tuple(np.broadcast_shapes(np.shape(a), np.shape(b)))
    else:
        _check_shape("beta", shape, np.shape(a), np.shape(b))
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    key_a, key_b = _unstack(_split(key))
    a = jnp.broadcast_to(a, shape)
    b = jnp.broadcast_to(b, shape)
    log_gamma_a = loggamma(key_a, a, shape, dtype)
    log_gamma_b = loggamma(key_b, b, shape, dtype)
    # gamma_a / (gamma_a + gamma_b) without overflow or underflow
    log_max = lax.max(log_gamma_a, log_gamma_b)
    gamma_a_scaled = jnp.exp(log_gamma_a - log_max)
    gamma_b_scaled = jnp.exp(log_gamma_b - log_max)
    return gamma_a_scaled / (gamma_a_scaled + gamma_b_scaled)


def dirichlet(key, alpha, shape=None, dtype=None):
    """Dirichlet samples over alpha's last axis (softmax of log-gamma samples)."""
    key, _ = _check_prng_key("dirichlet", key)
    dtype = _float_dtype_arg("dirichlet", dtype)
    return _dirichlet(key, alpha, None if shape is None else _canonical_shape(shape), dtype)


@partial(jit, static_argnums=(2, 3))
def _dirichlet(key, alpha, shape, dtype):
    from .nn import softmax
    if not np.ndim(alpha) >= 1:
        raise ValueError(f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == {np.ndim(alpha)}")
    if shape is None:
        shape = np.shape(alpha)[:-1]
    else:
        _check_shape("dirichlet", shape, np.shape(alpha)[:-1])
    alpha = lax.convert_element_type(alpha, dtype)
    log_gamma_samples = loggamma(key, alpha, tuple(shape) + np.shape(alpha)[-1:], dtype)
    return softmax(log_gamma_samples, -1)


def chisquare(key, df, shape=None, dtype=None):
    """Chi-square samples with `df` degrees of freedom: 2 * Gamma(df / 2)."""
    key, _ = _check_prng_key("chisquare", key)
    dtype = _float_dtype_arg("chisquare", dtype)
    shape = None if shape is None else _canonical_shape(shape)
    if shape is None:
        shape = np.shape(df)
    else:
        _check_shape("chisquare", shape, np.shape(df))
    return _chisquare(key, df, shape, dtype)


@partial(jit, static_argnums=(2, 3))
def _chisquare(key, df, shape, dtype):
    df = lax.convert_element_type(df, dtype)
    two = lax._const(df, 2)
    half_df = lax.div(df, two)
    log_g = loggamma(key, half_df, shape, dtype)
    return lax.mul(jnp.exp(log_g), two)


def t(key, df, shape=(), dtype=None):
    """Student's t samples with `df` degrees of freedom."""
    key, _ = _check_prng_key("t", key)
    dtype = _float_dtype_arg("t", dtype)
    return _t(key, df, None if shape is None else _canonical_shape(shape), dtype)


@partial(jit, static_argnums=(2, 3))
def _t(key, df, shape, dtype):
    if shape is None:
        shape = np.shape(df)
    else:
        _check_shape("t", shape, np.shape(df))
    df = lax.convert_element_type(df, dtype)
    key_n, key_g = _unstack(_split(key))
    n = normal(key_n, shape, dtype)
    two = lax._const(n, 2)
    half_df = lax.div(df, two)
    g = gamma(key_g, half_df, shape, dtype)
    return n * jnp.sqrt(half_df / g)


def multivariate_normal(key, mean, cov, shape=None, dtype=None, method="cholesky"):
    """Samples of N(mean, cov); cov factored by cholesky (default), eigh or svd."""
    key, _ = _check_prng_key("multivariate_normal", key)
    mean, cov = jnp._promote_dtypes_inexact(jnp.asarray(mean), jnp.asarray(cov))
    if method not in {"svd", "eigh", "cholesky"}:
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    dtype = _float_dtype_arg("multivariate_normal", get_aval(mean).dtype if dtype is None else dtype)
    return _multivariate_normal(key, mean, cov, None if shape is None else _canonical_shape(shape), dtype, method)


@partial(jit, static_argnums=(3, 4, 5))
def _multivariate_normal(key, mean, cov, shape, dtype, method):
    if not np.ndim(mean) >= 1:
        raise ValueError(f"multivariate_normal requires mean.ndim >= 1, got mean.ndim == {np.ndim(mean)}")
    if not np.ndim(cov) >= 2:
        raise ValueError(f"multivariate_normal requires cov.ndim >= 2, got cov.ndim == {np.ndim(cov)}")
    n = np.shape(mean)[-1]
    if np.shape(cov)[-2:] != (n, n):
        raise ValueError(f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, "
                         f"but got cov.shape == {np.shape(cov)}.")
    if shape is None:
        shape = tuple(np.broadcast_shapes(np.shape(mean)[:-1], np.shape(cov)[:-2]))
    else:
        _check_shape("normal", shape, np.shape(mean)[:-1], np.shape(cov)[:-2])
    if method == "svd":
        u, s, _ = jnp.linalg.svd(cov)
        factor = u * jnp.sqrt(s[..., None, :])
    elif method == "eigh":
        w, v = jnp.linalg.eigh(cov)
        factor = v * jnp.sqrt(w[..., None, :])
    else:
        factor = jnp.linalg.cholesky(cov)
    samples = normal(key, tuple(shape) + np.shape(mean)[-1:], dtype)
    return mean + jnp.einsum("...ij,...j->...i", factor, samples)


def poisson(key, lam, shape=None, dtype=None):
    """Poisson samples: Knuth's method for lam < 10, Hormann's transformed rejection above
    (JAX's algorithm, which matches TensorFlow's and numpy's)."""
    key, _ = _check_prng_key("poisson", key)
    dtype = _user_dtype(dtype, int)
    shape = np.shape(lam) if shape is None else _canonical_shape(shape)
    lam = jnp.broadcast_to(lam, shape)
    lam = lax.convert_element_type(lam, np.float32)
    return _poisson(key, lam, tuple(shape), dtype)


@partial(jit, static_argnums=(2, 3, 4))
def _poisson_knuth(key, lam, shape, dtype, max_iters):
    def body_fn(carry):
        i, k, rng, log_prod = carry
        rng, subkey = _unstack(_split(rng))
        k = lax.select(log_prod > -lam, k + 1, k)
        u = uniform(subkey, shape, np.float32)
        return i + 1, k, rng, log_prod + jnp.log(u)

    def cond_fn(carry):
        i, log_prod = carry[0], carry[3]
        return (log_prod > -lam).any() & (i < max_iters)

    k_init = lax.full_like(lam, 0, dtype, shape)
    log_rate_init = lax.full_like(lam, 0, np.float32, shape)
    k = lax.while_loop(cond_fn, body_fn, (0, k_init, key, log_rate_init))[1]
    return (k - 1).astype(dtype)


@partial(jit, static_argnums=(2, 3, 4))
def _poisson_rejection(key, lam, shape, dtype, max_iters):
    log_lam = lax.log(lam)
    b = 0.931 + 2.53 * lax.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def body_fn(carry):
        i, k_out, accepted, key = carry
        key, subkey_0, subkey_1 = _unstack(_split(key, 3))
        u = uniform(subkey_0, shape, get_aval(lam).dtype) - 0.5
        v = uniform(subkey_1, shape, get_aval(lam).dtype)
        u_shifted = 0.5 - abs(u)
        k = lax.floor((2 * a / u_shifted + b) * u + lam + 0.43)
        s = lax.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -lam + k * log_lam - lax.lgamma(k + 1)
        accept1 = (u_shifted >= 0.07) & (v <= v_r)
        reject = (k < 0) | ((u_shifted < 0.013) & (v > u_shifted))
        accept2 = s <= t
        accept = accept1 | (~reject & accept2)
        k_out = lax.select(accept, k, k_out)
        accepted = accepted | accept
        return i + 1, k_out, accepted, key

    def cond_fn(carry):
        i, _, accepted, _ = carry
        return (~accepted).any() & (i < max_iters)

    k_init = lax.full_like(lam, -1, get_aval(lam).dtype, shape)
    accepted = lax.full_like(lam, False, np.dtype("bool"), shape)
    k = lax.while_loop(cond_fn, body_fn, (0, k_init, accepted, key))[1]
    return k.astype(dtype)


@partial(jit, static_argnums=(2, 3))
def _poisson(key, lam, shape, dtype):
    use_knuth = jnp.isnan(lam) | (lam < 10)
    lam_knuth = lax.select(use_knuth, lam, lax.full_like(lam, 0.0))
    # rejection's acceptance rate tops out near 89% as lam grows: any large value does here
    lam_rejection = lax.select(use_knuth, lax.full_like(lam, 1e5), lam)
    max_iters = dtype.type(np.iinfo(dtype).max)
    result = lax.select(use_knuth, _poisson_knuth(key, lam_knuth, shape, dtype, max_iters),
                        _poisson_rejection(key, lam_rejection, shape, dtype, max_iters))
    return lax.select(lam == 0, jnp.zeros_like(result), result)


def _broadcast_shape_arg(name, shape, *params):
    if shape is None:
        return tuple(np.broadcast_shapes(*(np.shape(p) for p in params)))
    shape = _canonical_shape(shape)
    _check_shape(name, shape, *(np.shape(p) for p in params))
    return shape


def f(key, dfnum, dfden, shape=None, dtype=None):
    """F-distribution samples: the ratio of two chi-square samples over their dfs."""
    key, _ = _check_prng_key("f", key)
    dtype = _float_dtype_arg("f", dtype)
    return _f(key, dfnum, dfden, _broadcast_shape_arg("f", shape, dfnum, dfden), dtype)


@partial(jit, static_argnums=(3, 4))
def _f(key, dfnum, dfden, shape, dtype):
    dfden = lax.convert_element_type(dfden, dtype)
    dfnum = lax.convert_element_type(dfnum, dtype)
    key_dfd, key_dfn = _unstack(_split(key))
    chi2_dfn = chisquare(key_dfn, dfnum, shape, dtype)
    chi2_dfd = chisquare(key_dfd, dfden, shape, dtype)
    return lax.div(lax.div(chi2_dfn, dfnum), lax.div(chi2_dfd, dfden))


def geometric(key, p, shape=None, dtype=None):
    """Geometric samples: trials until the first success, each with probability p."""
    key, _ = _check_prng_key("geometric", key)
    dtype = _user_dtype(dtype, int)
    if dtype.kind not in "iu":
        raise ValueError(f"dtype argument to `geometric` must be an int dtype, got {dtype}")
    return _geometric(key, p, _broadcast_shape_arg("geometric", shape, p), dtype)


@partial(jit, static_argnums=(2, 3))
def _geometric(key, p, shape, dtype):
    (p,) = jnp._promote_dtypes_inexact(p)
    u = uniform(key, shape, get_aval(p).dtype)
    u = jnp.where(u == 0, 1, u)  # as JAX: keeps log(u) finite without changing other samples
    log_u = lax.log(u)
    log_one_minus_p = jnp.broadcast_to(lax.log1p(-p), shape)
    g = lax.floor(lax.div(log_u, log_one_minus_p)) + 1
    return g.astype(dtype)


def wald(key, mean, shape=None, dtype=None):
    """Wald (inverse Gaussian) samples with the given mean."""
    key, _ = _check_prng_key("wald", key)
    dtype = _float_dtype_arg("wald", dtype)
    return _wald(key, jnp.asarray(mean), _broadcast_shape_arg("wald", shape, mean), dtype)


@partial(jit, static_argnums=(2, 3))
def _wald(key, mean, shape, dtype):
    k1, k2 = _unstack(_split(key, 2))
    mean = jnp.broadcast_to(mean.astype(dtype), shape)
    v = normal(k1, shape, dtype)
    z = uniform(k2, shape, dtype)
    y = lax.integer_pow(v, 2)
    y_sq = lax.integer_pow(y, 2)
    mean_sq = lax.integer_pow(mean, 2)
    sqrt_term = lax.sqrt(4 * mean * y + mean_sq * y_sq)
    x = mean + mean_sq * y / 2 - mean / 2 * sqrt_term
    return lax.select(lax.le(z, mean / (mean + x)), x, mean_sq / x)


def double_sided_maxwell(key, loc, scale, shape=(), dtype=None):
    """Symmetric Maxwell samples: a Maxwell sample with a random sign, scaled and shifted."""
    key, _ = _check_prng_key("double_sided_maxwell", key)
    dtype = _float_dtype_arg("double_sided_maxwell", dtype)
    return _double_sided_maxwell(key, loc, scale, _canonical_shape(shape), dtype)


@partial(jit, static_argnums=(3, 4))
def _double_sided_maxwell(key, loc, scale, shape, dtype):
    params_shape = tuple(np.broadcast_shapes(np.shape(loc), np.shape(scale)))
    shape = (shape or params_shape) + params_shape
    maxwell_key, rademacher_key = _unstack(_split(key))
    maxwell_rvs = maxwell(maxwell_key, shape=shape, dtype=dtype)
    random_sign = rademacher(rademacher_key, shape=shape, dtype=dtype)
    return random_sign * maxwell_rvs * scale + loc


def generalized_normal(key, p, shape=(), dtype=None):
    """Generalized normal samples with shape parameter p (p=2: normal up to scale)."""
    shape = _canonical_shape(shape)
    key, _ = _check_prng_key("generalized_normal", key)
    return _generalized_normal(key, p, shape, _user_dtype(dtype, float))


@partial(jit, static_argnums=(2, 3))
def _generalized_normal(key, p, shape, dtype):
    keys = split(key)
    g = gamma(keys[0], 1 / p, shape, dtype)
    r = rademacher(keys[1], shape, dtype)
    return r * g ** (1 / p)


def ball(key, d, p=2, shape=(), dtype=None):
    """Points uniform in the d-dimensional unit Lp ball."""
    shape = _canonical_shape(shape)
    key, _ = _check_prng_key("ball", key)
    return _ball(key, p, operator.index(d), shape, _user_dtype(dtype, float))


@partial(jit, static_argnums=(2, 3, 4))
def _ball(key, p, d, shape, dtype):
    k1, k2 = split(key)
    g = generalized_normal(k1, p, (*shape, d), dtype)
    e = exponential(k2, shape, dtype)
    return g / (((jnp.abs(g) ** p).sum(-1) + e) ** (1 / p))[..., None]


def orthogonal(key, n, shape=(), dtype=None, m=None):
    """Haar-random matrices with orthonormal columns (or rows), from a QR of normal samples."""
    _m = n if m is None else m
    shape = _canonical_shape(shape)
    key, _ = _check_prng_key("orthogonal", key)
    return _orthogonal(key, operator.index(n), operator.index(_m), shape, _user_dtype(dtype, float))


@partial(jit, static_argnums=(1, 2, 3, 4))
def _orthogonal(key, n, _m, shape, dtype):
    z = normal(key, (*shape, max(n, _m), min(n, _m)), dtype)
    q, r = jnp.linalg.qr(z)
    d = jnp.diagonal(r, axis1=-2, axis2=-1)
    x = q * jnp.expand_dims(jnp.sign(d), -2)
    return jnp.swapaxes(x, -1, -2) if n < _m else x


def _stirling_approx_tail(k):
    tail_vals = jnp.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                           0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.010411265261972,
                           0.00925546218271273, 0.00833056343336287], dtype=get_aval(k).dtype)
    use_tail_values = k <= 9
    k = lax.clamp(lax._const(k, 0.0), k, lax._const(k, 9.0))
    kp1sq = (k + 1) * (k + 1)
    approx = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    k = jnp.floor(k)
    return lax.select(use_tail_values, tail_vals[jnp.asarray(k, dtype="int32")], approx)


def _binomial_inversion(key, count, prob, shape, dtype, max_iters):
    log1minusprob = jnp.log1p(-prob)

    def body_fn(carry):
        i, num_geom, geom_sum, key = carry
        subkey, key = _unstack(_split(key))
        num_geom_out = lax.select(geom_sum <= count, num_geom + 1, num_geom)
        u = uniform(subkey, shape, get_aval(prob).dtype)
        geom = jnp.ceil(jnp.log(u) / log1minusprob)
        geom_sum = geom_sum + geom
        return i + 1, num_geom_out, geom_sum, key

    def cond_fn(carry):
        i, geom_sum = carry[0], carry[2]
        return (geom_sum <= count).any() & (i < max_iters)

    num_geom_init = lax.full_like(prob, 0, get_aval(prob).dtype, shape)
    geom_sum_init = lax.full_like(prob, 0, get_aval(prob).dtype, shape)
    k = lax.while_loop(cond_fn, body_fn, (0, num_geom_init, geom_sum_init, key))[1]
    return (k - 1).astype(dtype)


def _btrs(key, count, prob, shape, dtype, max_iters):
    # Hormann's BTRS transformed rejection for large count * prob
    stddev = jnp.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = jnp.floor((count + 1) * prob)

    def body_fn(carry):
        i, k_out, accepted, key = carry
        key, subkey_0, subkey_1 = _unstack(_split(key, 3))
        u = uniform(subkey_0, shape, get_aval(prob).dtype)
        v = uniform(subkey_1, shape, get_aval(prob).dtype)
        u = u - 0.5
        us = 0.5 - jnp.abs(u)
        accept1 = (us >= 0.07) & (v <= v_r)
        k = jnp.floor((2 * a / us + b) * u + c)
        reject = (k < 0) | (k > count)
        v = jnp.log(v * alpha / (a / (us * us) + b))
        ub = ((m + 0.5) * jnp.log((m + 1) / (r * (count - m + 1))) + (count + 1) * jnp.log((count - m + 1) / (count - k + 1))
              + (k + 0.5) * jnp.log(r * (count - k + 1) / (k + 1)) + _stirling_approx_tail(m)
              + _stirling_approx_tail(count - m) - _stirling_approx_tail(k) - _stirling_approx_tail(count - k))
        accept2 = v <= ub
        accept = accept1 | ~reject & accept2
        k_out = lax.select(accept, k, k_out)
        accepted = accepted | accept
        return i + 1, k_out, accepted, key

    def cond_fn(carry):
        i, accepted = carry[0], carry[2]
        return (~accepted).any() & (i < max_iters)

    k_init = lax.full_like(prob, -1, get_aval(prob).dtype, shape)
    carry = (0, k_init, jnp.full(shape, False, bool), key)
    return lax.while_loop(cond_fn, body_fn, carry)[1].astype(dtype)


def binomial(key, n, p, shape=None, dtype=None):
    """Binomial(n, p) samples (as floats, like JAX): inversion for small n * p, BTRS above."""
    key, _ = _check_prng_key("binomial", key)
    jnp._check_arraylike("binomial", n, p)
    dtype = _float_dtype_arg("binomial", dtype)
    return _binomial(key, n, p, None if shape is None else _canonical_shape(shape), dtype)


def _binomial(key, count, prob, shape, dtype):
    if shape is None:
        shape = tuple(np.broadcast_shapes(np.shape(count), np.shape(prob)))
    else:
        _check_shape("binomial", shape, np.shape(count), np.shape(prob))
    (prob,) = jnp._promote_dtypes_inexact(prob)
    count = lax.convert_element_type(count, get_aval(prob).dtype)
    count = jnp.broadcast_to(count, shape)
    prob = jnp.broadcast_to(prob, shape)
    p_lt_half = prob < 0.5
    q = lax.select(p_lt_half, prob, 1.0 - prob)
    count_nan_or_neg = jnp.isnan(count) | (count < 0.0)
    count_inf = jnp.isinf(count)
    q_is_nan = jnp.isnan(q)
    q_l_0 = q < 0.0
    q = lax.select(q_is_nan | q_l_0, lax.full_like(q, 0.01), q)
    # q = -0.0 (p = -0.0, e.g. from jnp.clip(-0.0, 0, 1): our max keeps numpy's signed zero where
    # XLA's gives +0.0) would make the inversion's log1p(-q) +0.0 and its loop never end: use +0.0
    q = lax.select(q == 0, lax.full_like(q, 0.0), q)
    use_inversion = count_nan_or_neg | (count * q <= 10.0)
    count = jnp.floor(count)
    count_inv = lax.select(use_inversion, count, lax.full_like(count, 0.0))
    count_btrs = lax.select(use_inversion, lax.full_like(count, 10000.0), count)
    q_btrs = lax.select(use_inversion, lax.full_like(q, 0.5), q)
    max_iters = dtype.type(dtypes.finfo(dtype).max)
    samples = lax.select(use_inversion, _binomial_inversion(key, count_inv, q, shape, dtype, max_iters),
                         _btrs(key, count_btrs, q_btrs, shape, dtype, max_iters))
    invalid = q_l_0 | q_is_nan | count_nan_or_neg
    samples = lax.select(invalid, jnp.full_like(samples, np.nan, dtype), samples)
    samples = lax.select(count_inf & ~invalid, jnp.full_like(samples, np.inf, dtype), samples)
    return lax.select(p_lt_half | count_nan_or_neg | q_is_nan | count_inf, samples, count.astype(dtype) - samples)


def multinomial(key, n, p, *, shape=None, dtype=None, unroll=1):
    """Multinomial counts: a binomial per category on what the earlier ones left (a scan)."""
    key, _ = _check_prng_key("multinomial", key)
    jnp._check_arraylike("multinomial", n, p)
    n, p = jnp._promote_dtypes_inexact(jnp.asarray(n), jnp.asarray(p))
    shape = get_aval(p).shape if shape is None else _canonical_shape(shape)
    dtype = _user_dtype(dtype, float)
    n = jnp.broadcast_to(n, shape[:-1])
    p = jnp.broadcast_to(p, shape)

    def f(remainder, ratio_key):
        ratio, k = ratio_key
        count = binomial(k, remainder, ratio.clip(0, 1), dtype=get_aval(remainder).dtype)
        return remainder - count, count
    p = jnp.moveaxis(p, -1, 0)
    remaining_probs = lax.cumsum(p, 0, reverse=True)
    ratios = p / jnp.where(remaining_probs == 0, 1, remaining_probs)
    keys = split(key, get_aval(ratios).shape[0])
    _, counts = lax.scan(f, n, (ratios, keys), unroll=unroll)
    return jnp.moveaxis(counts, 0, -1).astype(dtype)


# ---- conform (issue 11): JAX's `out_sharding=` keyword; traced keys' dtype ------------------------
# Every sampler takes `out_sharding=` in JAX 0.10.2 (flax.nnx's Dropout passes it). One device
# here: any sharding places the result where it already is, so the keyword is accepted and unused.
_TAKES_OUT_SHARDING = (
    "ball", "bernoulli", "beta", "bits", "categorical", "cauchy", "chisquare", "dirichlet", "exponential", "f",
    "gamma", "generalized_normal", "geometric", "gumbel", "laplace", "loggamma", "logistic", "lognormal",
    "maxwell", "multivariate_normal", "normal", "orthogonal", "pareto", "permutation", "poisson", "rademacher",
    "randint", "rayleigh", "t", "triangular", "truncated_normal", "uniform", "wald")


def _accepting_out_sharding(fn):
    def sampler(*args, out_sharding=None, **kwargs):
        return fn(*args, **kwargs)
    sampler.__name__, sampler.__qualname__, sampler.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    sampler.__module__, sampler.__wrapped__ = fn.__module__, fn
    return sampler


# a traced key's `.dtype` is `key<fry>` too (flax.nnx checks it under nnx.vmap)
from ..tracing import tracing as _tracing  # noqa: E402
_tracing.key_dtype_view[:] = [KEY_DTYPE, KeyDType()]

for _name in _TAKES_OUT_SHARDING:
    globals()[_name] = _accepting_out_sharding(globals()[_name])
del _name


def __getattr__(name):
    raise AttributeError(f"module 'jax.random' has no attribute '{name}'")
