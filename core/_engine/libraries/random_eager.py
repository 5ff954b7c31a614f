"""numpy bodies of jax.random's eager fast paths: `uniform`, `normal` and `randint` on one key.

Each computes, in a few numpy calls on the key's words, exactly what the jitted sampler's
compiled code computes (same threefry bits, same float32 arithmetic including the fused
multiply-add the CPU backend emulates inside `_uniform`, same uint32 wrap-arounds), for the
common case the caller has checked: float32 / int32 samples and Python-number bounds.
(`normal` runs the erf_inv primitive's float32 arithmetic, written for the normal's inputs in
random_normal_exact.py; normal_table.py replaces it all by one lookup once that table exists.)
tests/test_random_eager_paths.py compares them with the general path.
"""
from __future__ import annotations

import numpy as np

from . import random_normal_exact
from ..primitives._special import erf_inv
from ..primitives.random_bits import _bits_words, _split_words

_F32_ONE_BITS = np.uint32(0x3F800000)   # 1.0f: a random mantissa under it is a float in [1, 2)
_F32_MANTISSA_SHIFT = np.uint32(32 - 23)
_MASK32 = 0xFFFFFFFF
_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1


def uniform_f32(words: np.ndarray, shape: tuple, minval: float, maxval: float) -> np.ndarray:
    """float32 uniform in [minval, maxval) (JAX's `_uniform` for float32, Python-float bounds)."""
    bits = _bits_words(words[:1], words[1:], 32, shape).reshape(-1)   # (1-d: in-place ops keep arrays)
    return uniform_f32_of_bits(bits, minval, maxval).reshape(shape)


def uniform_f32_of_bits(bits: np.ndarray, minval: float, maxval: float) -> np.ndarray:
    """The float32 uniforms for 1-d uint32 `bits` (consumed: updated in place)."""
    lo, hi = np.float32(minval), np.float32(maxval)
    bits >>= _F32_MANTISSA_SHIFT
    bits |= _F32_ONE_BITS
    floats = bits.view(np.float32)
    floats -= np.float32(1.0)
    # floats * (hi - lo) + lo as one fused multiply-add (the product is exact in float64)
    with np.errstate(all="ignore"):
        wide = floats.astype(np.float64)
        wide *= np.float64(hi - lo)
        wide += np.float64(lo)
        out = wide.astype(np.float32)
        return np.maximum(lo, out, out=out)


# normal's uniform is on (-1, 1): from the float after -1
_NORMAL_LO = float(np.nextafter(np.float32(-1.0), np.float32(0.0)))
_SQRT2_F32 = np.float32(np.sqrt(2))


def normal_f32(words: np.ndarray, shape: tuple) -> np.ndarray:
    """float32 standard normals, the exact path (JAX's `_normal_real` for float32)."""
    bits = _bits_words(words[:1], words[1:], 32, shape).reshape(-1)
    return normal_f32_of_bits(bits).reshape(shape)


def normal_f32_of_bits(bits: np.ndarray) -> np.ndarray:
    """sqrt(2) * erf_inv(uniform(-1, 1)) for 1-d uint32 `bits` (consumed), written for these
    inputs (random_normal_exact.py)."""
    return random_normal_exact.normal_f32_of_bits(bits)


def normal_f32_of_bits_general(bits: np.ndarray) -> np.ndarray:
    """The same through the general float32 uniform and erf_inv (what the tests hold it to)."""
    out = erf_inv(uniform_f32_of_bits(bits, _NORMAL_LO, 1.0))
    return np.multiply(_SQRT2_F32, out, out=out)


def int32_in_range(*values) -> bool:
    return all(type(v) is int and _INT32_MIN <= v <= _INT32_MAX for v in values)


def randint_i32(words: np.ndarray, shape: tuple, minval: int, maxval: int) -> np.ndarray:
    """int32 integers in [minval, maxval) (JAX's `_randint` for int32, int32-range Python-int
    bounds): two uint32 draws from the key's two halves, combined modulo the span."""
    halves = _split_words(words[:1], words[1:], (2,)).reshape(2, 2)
    higher, lower = _bits_words(halves[:, 0], halves[:, 1], 32, shape).reshape(2, -1)   # one hash, both keys
    # the span as uint32 after int32 arithmetic (which wraps); an empty range gives minval
    span = 1 if maxval <= minval else (maxval - minval) & _MASK32
    multiplier = (1 << 16) % span
    multiplier = ((multiplier * multiplier) & _MASK32) % span
    span_u, multiplier_u = np.uint32(span), np.uint32(multiplier)
    offset = np.remainder(higher, span_u)
    offset *= multiplier_u   # (wraps, as JAX's uint32 multiply does)
    offset += np.remainder(lower, span_u)
    offset %= span_u
    out = offset.view(np.int32)   # (a bit cast: int32 conversion of a uint32 wraps the same way)
    out += np.int32(minval)
    return out.reshape(shape)
