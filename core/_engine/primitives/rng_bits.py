"""lax.rng_bit_generator and lax.rng_uniform: XLA's RngBitGenerator as JAX 0.10.2 runs it on
the CPU, and XLA's stateful RngUniform.

rng_bit_generator's key is uint32[4], read as XLA's u64[2] state (key = words 0-1, counter =
words 2-3, little-endian). RNG_DEFAULT on the CPU is Philox-4x32-10: block i is
philox(counter + i, key) with the key as the counter's high 64 bits, its four words laid out one
block after another; the counter advances by the number of blocks. RNG_THREE_FRY is Threefry-2x32-20 over counter + iota(n/2),
the two words of each draw side by side along one dimension; the counter advances by n/2.
uint8/uint16 take the low bits of uint32 draws and uint64 joins two words (low first), as XLA does.
"""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules
from ..tracing.tracing import get_aval
from ..transforms.batching import moveaxis
from . import define
from .lax_types import RandomAlgorithm
from .random_bits import threefry2x32_np

_U32, _U64 = np.uint32, np.uint64
_MASK32 = (1 << 32) - 1
_PHILOX_ROUNDS = 10
_PHILOX_MUL = (0xD2511F53, 0xCD9E8D57)
_PHILOX_WEYL = (0x9E3779B9, 0xBB67AE85)
_BIT_DTYPES = {np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)}


def _philox4x32(counters, key):
    """Philox-4x32-10 on uint32 word arrays c0..c3 with key (k0, k1)."""
    c0, c1, c2, c3 = (np.asarray(c, _U64) for c in counters)
    k0, k1 = int(key[0]), int(key[1])
    m0, m1 = _PHILOX_MUL
    for _ in range(_PHILOX_ROUNDS):
        p0, p1 = c0 * _U64(m0), c2 * _U64(m1)
        c0, c1, c2, c3 = ((p1 >> _U64(32)) ^ c1 ^ _U64(k0), p1 & _U64(_MASK32),
                          (p0 >> _U64(32)) ^ c3 ^ _U64(k1), p0 & _U64(_MASK32))
        k0, k1 = (k0 + _PHILOX_WEYL[0]) & _MASK32, (k1 + _PHILOX_WEYL[1]) & _MASK32
    return [c.astype(_U32) for c in (c0, c1, c2, c3)]


def _counter_key(words):
    return int(words[2]) | int(words[3]) << 32, int(words[0]) | int(words[1]) << 32


def _philox_words(words, n):
    """n uint32 draws and the new counter for state words (k0, k1, c0, c1). XLA's 128-bit
    Philox counter is the state's u64 pair with the counter word low and the key word high, so
    block i is philox((c + i) + (k << 64), k); the state keeps k and advances c mod 2^64."""
    counter, key = _counter_key(words)
    blocks = -(-n // 4)
    idx = [counter + i + (key << 64) for i in range(blocks)]
    c = [np.array([(v >> (32 * j)) & _MASK32 for v in idx], _U32) for j in range(4)]
    out = np.stack(_philox4x32(c, words[:2]), axis=1).reshape(-1)[:n]
    return out, counter + blocks


def _philox(words, shape, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.uint64:     # two consecutive words per draw, low first
        w, counter = _philox_words(words, 2 * n)
        w = w.reshape(-1, 2).astype(_U64)
        return (w[:, 0] | (w[:, 1] << _U64(32))).reshape(shape), counter
    w, counter = _philox_words(words, n)
    return w.astype(dtype).reshape(shape), counter     # uint8/16: the low bits


def _threefry_pairs(words, shape):
    """Threefry-2x32 over counter + (row-major index in `shape`): the two output word arrays."""
    counter, key = _counter_key(words)
    n = int(np.prod(shape, dtype=np.int64))
    idx = (np.arange(n, dtype=_U64) + _U64(counter)).reshape(shape)     # wraps mod 2^64
    x0, x1 = threefry2x32_np(_U32(key & _MASK32), _U32(key >> 32),
                             (idx & _U64(_MASK32)).astype(_U32), (idx >> _U64(32)).astype(_U32))
    return x0.reshape(shape), x1.reshape(shape), counter + n


def _threefry(words, shape, dtype):
    """XLA's layout: uint64 draws join the pair (x0 low); narrower draws split the first even
    dimension (else the largest) in halves of pairs, x0 and x1 side by side along it."""
    if dtype == np.uint64:
        x0, x1, counter = _threefry_pairs(words, shape)
        return x0.astype(_U64) | (x1.astype(_U64) << _U64(32)), counter
    if not shape:
        x0, _, counter = _threefry_pairs(words, (1,))
        return x0.reshape(()).astype(dtype), counter
    even = [i for i, d in enumerate(shape) if d % 2 == 0]
    split = even[0] if even else int(np.argmax(shape))
    half = list(shape)
    half[split] = -(-shape[split] // 2)
    x0, x1, counter = _threefry_pairs(words, tuple(half))
    both = np.stack([x0, x1], axis=split + 1)
    full = list(shape)
    full[split] = 2 * half[split]
    bits = both.reshape(full)[tuple(slice(0, d) for d in shape)]
    return bits.astype(dtype), counter


_GENERATORS = {RandomAlgorithm.RNG_DEFAULT: _philox,      # XLA's CPU default
               RandomAlgorithm.RNG_PHILOX: _philox,
               RandomAlgorithm.RNG_THREE_FRY: _threefry}


def _check_key(key):
    if not (key.shape == (4,) and key.dtype == np.uint32):
        # JAX 0.10.2 fails an assertion in its lowering here; say what the key must be.
        raise TypeError(f"rng_bit_generator expects a uint32[4] key (the state XLA reads as u64[2]), "
                        f"got {key.dtype.name}{list(key.shape)}")


def _rbg_abstract(key, *, shape, dtype, algorithm, out_sharding):
    _check_key(key)
    return [ShapedArray(key.shape, key.dtype), ShapedArray(tuple(shape), dtype)]


def _rbg_impl(key, *, shape, dtype, algorithm, out_sharding):
    key = np.asarray(key)
    _check_key(key)
    bits, counter = _GENERATORS[RandomAlgorithm(algorithm)](key, tuple(shape), np.dtype(dtype))
    counter &= (1 << 64) - 1
    new_key = np.array([key[0], key[1], counter & _MASK32, counter >> 32], _U32)
    return [new_key, np.asarray(bits, dtype)]


def _rbg_pp(params):
    return sorted((k, (RandomAlgorithm(v).name if k == "algorithm" else v)) for k, v in params.items())


rng_bit_generator_p = define("rng_bit_generator", abstract_eval=_rbg_abstract, impl=_rbg_impl,
                             multiple_results=True, weak_type_rule=lambda w, **p: [w[0], False],
                             pp_params=_rbg_pp)


def _rbg_batch(axis_data, vals, dims, *, shape, **p):
    """JAX's rule: the first key of the batch draws (batch, *shape) bits and alone advances."""
    from ..lax import lax  # INHERENT: up to lax
    keys = moveaxis(vals[0], dims[0], 0)
    size = get_aval(keys).shape[0]
    new_key, bits = rng_bit_generator_p.bind(keys[0], shape=(size, *shape), **p)
    new_keys = lax.dynamic_update_index_in_dim(keys, new_key, 0, axis=0)
    return [new_keys, bits], [0, 0]


batch_rules[rng_bit_generator_p] = _rbg_batch


def rng_bit_generator(key, shape, dtype=np.uint32, algorithm=RandomAlgorithm.RNG_DEFAULT, *, out_sharding=None):
    """Stateless random bits of `shape` and an unsigned `dtype` from a uint32[4] key: (new_key, bits)."""
    shape = tuple(int(d) for d in shape)
    requested = np.dtype(dtype)
    dtype = dtypes.canonicalize_dtype(requested)
    if dtype != requested:
        import warnings
        warnings.warn(f"Explicitly requested dtype {requested.name} requested in rng_bit_generator is not available, "
                      f"and will be truncated to dtype {dtype.name}. To enable more dtypes, set the jax_enable_x64 "
                      "configuration option or the JAX_ENABLE_X64 shell environment variable. See "
                      "https://github.com/jax-ml/jax#current-gotchas for more.", UserWarning, stacklevel=2)
    if np.dtype(dtype) not in _BIT_DTYPES:
        raise TypeError(f"rng_bit_generator: unsupported dtype {np.dtype(dtype).name}")
    return tuple(rng_bit_generator_p.bind(key, shape=shape, dtype=np.dtype(dtype),
                                          algorithm=RandomAlgorithm(algorithm), out_sharding=out_sharding))


# ---- rng_uniform: XLA's stateful generator ------------------------------------------------------

_uniform_state = np.random.default_rng(0)   # one process-wide stream, as XLA's per-process state


def _uniform_abstract(a, b, *, shape):
    if a.dtype != b.dtype:
        raise ValueError(f"Arguments to rng_uniform must have identical dtypes, got {a.dtype.name} and {b.dtype.name}.")
    if a.shape != () or b.shape != ():
        raise ValueError(f"Arguments to rng_uniform must be scalars; got shapes {a.shape} and {b.shape}.")
    return ShapedArray(tuple(shape), a.dtype, a.weak_type and b.weak_type)


def _uniform_impl(a, b, *, shape):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "iu":
        return _uniform_state.integers(a, b, size=shape, endpoint=False).astype(a.dtype)
    u = _uniform_state.random(size=shape)
    return np.asarray(a + (b - a) * u, a.dtype)


rng_uniform_p = define("rng_uniform", abstract_eval=_uniform_abstract, impl=_uniform_impl,
                       weak_type_rule=lambda w, **p: w[0] and w[1])


def rng_uniform(a, b, shape):
    """Stateful uniform draws in [a, b) (XLA's RngUniform; use jax.random instead). The stream is
    gradpad's own: the values are not JAX's (XLA's are an implementation detail of its CPU runtime)."""
    from .control_flow import _as_operand
    a, b = _as_operand(a), _as_operand(b)
    _uniform_abstract(get_aval(a), get_aval(b), shape=())   # also eagerly, where the shape rule is not asked
    return rng_uniform_p.bind(a, b, shape=tuple(int(d) for d in shape))
