"""PRNG primitives: the threefry2x32 hash and JAX's typed-key primitives.

Keys are threefry2x32 keys (two uint32 words). A *typed* key array (`jax.random.key(0)`) has
JAX's dtype `key<fry>`; its concrete value here is a numpy array of the structured dtype
`KEY_DTYPE` (two uint32 fields), so every structural numpy op (reshape, slice, concatenate,
gather, where) moves whole keys for free. Legacy `PRNGKey` arrays are plain `uint32[..., 2]`;
the public API wraps them with `random_wrap` and unwraps results with `random_unwrap`, which
is exactly what JAX's jaxprs show.

The hash runs in numpy uint32 arithmetic (wrapping adds), bit-exact with XLA. Which counters
feed it depends on `jax_threefry_partitionable` (default True): partitionable mode hashes the
flat index of each output (as a 64-bit counter split into hi/lo words); the original mode
hashes `iota(n)` split into two halves.
"""
from __future__ import annotations

import math

import numpy as np

from ..base import dtypes
from ..base.avals import ShapedArray
from ..base.config import config
from ..tracing.rules import batch_rules
from ..tracing.tracing import bind, get_aval
from ..transforms import ad
from ..transforms.batching import bdim_at_front
from . import define, never_weak

# ---- the key dtype ----------------------------------------------------------------------------

from ..base.prng_dtype import KEY_DTYPE, KEY_NAME, is_key_dtype, unwrap_words, wrap_words  # noqa: E402,F401


def _is_partitionable() -> bool:
    return bool(config.read("jax_threefry_partitionable"))


# ---- the hash ---------------------------------------------------------------------------------

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def threefry2x32_np(k0, k1, x0, x1):
    """Threefry-2x32 with 20 rounds (Salmon et al. 2011), as XLA computes it, on uint32 arrays
    (broadcast together). Two bit-identical ways: numpy for big arrays, Python integers for
    small ones (a split, a fold_in, a few draws), where numpy's per-call cost dominates."""
    k0, k1, x0, x1 = (np.asarray(a, np.uint32) for a in (k0, k1, x0, x1))
    return _threefry(k0, k1, x0, x1, np.broadcast_shapes(k0.shape, k1.shape, x0.shape, x1.shape))


def _threefry(k0, k1, x0, x1, shape):
    """threefry2x32_np on uint32 arrays whose broadcast shape the caller knows."""
    if 0 < math.prod(shape) <= _SWAR_MAX:
        return _threefry_swar(k0, k1, x0, x1, shape)
    return _threefry_numpy(k0, k1, x0, x1, shape)


def _threefry_numpy(k0, k1, x0, x1, shape):
    """At the sizes a learner draws (a thousand numbers) numpy's cost is per call, so the state
    is one stacked array updated in place: the two words are views of it and each key injection
    is a single add over both. Ufuncs are called by name with their output (~10% less per call
    than the in-place operators)."""
    if k0.size == 1 and k1.size == 1:   # one key: its schedule in Python integers, one array
        inject = _one_key_injections(int(k0.reshape(-1)[0]), int(k1.reshape(-1)[0]), len(shape))
    else:
        inject = _key_injections(k0, k1, shape)
    state = np.empty((2,) + shape, np.uint32)
    x0_in, x1_in = x0, x1
    x0, x1 = state[0, ...], state[1, ...]   # (views, 0-d ones too)
    add, shl, shr, bor, bxor = np.add, np.left_shift, np.right_shift, np.bitwise_or, np.bitwise_xor
    add(x0_in, k0, x0)   # (`out` passed by position: ~10% less per call than by keyword)
    add(x1_in, k1, x1)
    tmp = np.empty_like(x1)
    for i in range(5):
        for left, right in _SHIFTS[i % 2]:
            add(x0, x1, x0)
            shl(x1, left, tmp)  # x1 = rotl(x1, r) ^ x0
            shr(x1, right, x1)
            bor(x1, tmp, x1)
            bxor(x1, x0, x1)
        add(state, inject[i], state)
    return x0, x1


def _key_injections(k0, k1, shape):
    """uint32[5, 2, ...]: injection i adds (ks[i+1], ks[i+2] + i + 1) to the two words, with
    ks = (k0, k1, k0 ^ k1 ^ parity); summed on the key words (usually far fewer than the
    counters), key axes last."""
    kshape = k0.shape if k0.shape == k1.shape else np.broadcast_shapes(k0.shape, k1.shape)
    ks = np.empty((3,) + kshape, np.uint32)   # the key schedule: k0, k1 and their parity word
    ks[0], ks[1] = k0, k1
    np.bitwise_xor(k0, k1, out=ks[2, ...])
    ks[2, ...] ^= np.uint32(0x1BD11BDA)
    inject = ks[_INJECT_WORDS]
    inject[:, 1] += _ROUND.reshape((5,) + (1,) * len(kshape))
    return inject.reshape((5, 2) + (1,) * (len(shape) - len(kshape)) + kshape)


def _one_key_injections(k0: int, k1: int, ndim: int):
    """_key_injections for a single key, computed on Python integers (a dozen numpy calls on
    one-element arrays cost more than the arithmetic)."""
    ks = (k0, k1, k0 ^ k1 ^ 0x1BD11BDA)
    words = [[ks[(i + 1) % 3], (ks[(i + 2) % 3] + i + 1) & _MASK32] for i in range(5)]
    return np.array(words, np.uint32).reshape((5, 2) + (1,) * ndim)


# Up to this many hashes, Python integers beat numpy (measured: a split 26 us against 50 us; even
# at 64 lanes, 40 against 49 us; at 128 numpy wins).
_SWAR_MAX = 64
_MASK32 = 0xFFFFFFFF


def _threefry_swar(k0, k1, x0, x1, shape):
    """The hash on all lanes at once in one Python integer per word ("SIMD within a register"):
    lane i holds its uint32 in bits [64 i, 64 i + 32); the 32 bits above it catch the carries
    of additions (masked off) and the bits a rotation pushes out, so lanes never mix."""
    n = math.prod(shape)
    one = _LANES_ONE.get(n)
    if one is None:
        one = _LANES_ONE[n] = int.from_bytes(np.ones(n, np.uint64).tobytes(), "little")
    k0, k1, x0, x1 = (_pack(a, shape, one) for a in (k0, k1, x0, x1))
    mask = one * _MASK32
    ks = (k0, k1, k0 ^ k1 ^ (one * 0x1BD11BDA))
    inject1 = [ks[(i + 2) % 3] + one * (i + 1) for i in range(5)]
    # x0 may keep carries above its lanes (it is only ever added to; at most 25 of them); x1 is
    # masked before every rotation, whose right shift would otherwise pull them into the lane
    x0 = x0 + k0
    x1 = (x1 + k1) & mask
    for i in range(5):
        for left, right in _ROTATIONS_INT[i % 2]:
            x0 += x1
            x1 = (((x1 << left) | (x1 >> right)) ^ x0) & mask
        x0 += ks[(i + 1) % 3]
        x1 = (x1 + inject1[i]) & mask
    return _unpack(x0 & mask, n, shape), _unpack(x1, n, shape)


def _pack(a, shape, one):
    if a.size == 1:   # (a key word: the same in every lane)
        return int(a.reshape(-1)[0]) * one
    if a.shape == shape:
        wide = a.astype(np.uint64)
    else:
        wide = np.empty(shape, np.uint64)
        wide[...] = a
    return int.from_bytes(wide.tobytes(), "little")


def _unpack(v, n, shape):
    return np.frombuffer(v.to_bytes(8 * n, "little"), np.uint64).astype(np.uint32).reshape(shape)


_ROTATIONS_INT = tuple(tuple((r, 32 - r) for r in rots) for rots in _ROTATIONS)
_LANES_ONE: dict = {}   # n -> the integer with 1 in each of n lanes


def _one_lane_source() -> str:
    """Python source of `_threefry_lane(k0, k1, x0, x1)`: the hash of one counter pair under one
    key, on Python integers, its 20 rounds written out (a loop over them costs ~1.5x more)."""
    # x0 is only ever added to: it keeps its carries (under 2**38 after the 25 additions) and is
    # masked where it mixes into x1 and at the end, which saves a mask per round. x1 rotates as
    # one shift of itself doubled (x1 * 0x100000001 holds it twice, side by side): a bit of the
    # high copy shifted down is the bit the rotation brings round (one operation less per round)
    lines = ["def _threefry_lane(k0, k1, x0, x1):", "    k2 = k0 ^ k1 ^ 0x1BD11BDA",
             "    x0 = x0 + k0", "    x1 = (x1 + k1) & 0xFFFFFFFF"]
    ks = ("k0", "k1", "k2")
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            lines.append("    x0 += x1")
            lines.append(f"    x1 = ((x1 * 0x100000001 >> {32 - r}) ^ x0) & 0xFFFFFFFF")
        lines.append(f"    x0 += {ks[(i + 1) % 3]}")
        lines.append(f"    x1 = (x1 + {ks[(i + 2) % 3]} + {i + 1}) & 0xFFFFFFFF")
    lines.append("    return x0 & 0xFFFFFFFF, x1")
    return "\n".join(lines)


_LANE_NAMESPACE: dict = {}
exec(compile(_one_lane_source(), "<threefry lane>", "exec"), _LANE_NAMESPACE)
_threefry_lane = _LANE_NAMESPACE["_threefry_lane"]

# One key hashing at most this many counters goes lane by lane in Python integers: an MCMC
# kernel folds one key and draws one number per leapfrog step, where even the packed-lane
# (SWAR) path's numpy conversions cost several times the arithmetic.
_LANES_MAX = 8


def _one_key(keys):
    """(k0, k1) as Python integers when `keys` holds a single key, else None."""
    if keys.size != 1 or keys.dtype != KEY_DTYPE:
        return None
    return keys.reshape(()).item() if keys.ndim else keys.item()


# rotation amounts as 0-d arrays: numpy takes them ~40% faster than numpy scalars
_SHIFTS = tuple(tuple((np.array(r, np.uint32), np.array(32 - r, np.uint32)) for r in rots) for rots in _ROTATIONS)
_ROUND = np.arange(1, 6, dtype=np.uint32)
_INJECT_WORDS = np.array([[(i + 1) % 3, (i + 2) % 3] for i in range(5)])


def _threefry_abstract_eval(*avals):
    if any(a.dtype != np.uint32 for a in avals):
        raise TypeError(f"Arguments to threefry2x32 must have uint32 type, got {list(avals)}")
    shape = np.broadcast_shapes(*(a.shape for a in avals))
    return [ShapedArray(shape, np.uint32)] * 2


threefry2x32_p = define("threefry2x32", abstract_eval=_threefry_abstract_eval,
                        impl=lambda *a: list(threefry2x32_np(*a)), multiple_results=True,
                        weak_type_rule=lambda w: [False, False])
ad.defjvp_zero(threefry2x32_p)


def _threefry_batch(axis_data, vals, dims):
    vals = [bdim_at_front(v, d, axis_data.size) for v, d in zip(vals, dims)]
    # lower-rank (e.g. per-example scalar) operands get unit axes after the batch axis, so
    # numpy broadcasting lines the batch axes up instead of the trailing ones
    rank = max(get_aval(v).ndim for v in vals)
    from ..lax.lax import expand_dims  # INHERENT: up to lax
    vals = [v if get_aval(v).ndim == rank else expand_dims(v, tuple(range(1, 1 + rank - get_aval(v).ndim)))
            for v in vals]
    return bind(threefry2x32_p, *vals), [0, 0]


batch_rules[threefry2x32_p] = _threefry_batch


# ---- the key algorithms, vectorized over K keys (k0, k1: uint32[K]) -------------------------

def _hash_counts(k0, k1, counts: np.ndarray) -> np.ndarray:
    """JAX's `threefry_2x32(key, count)` for every key: the flat counter array is split in two
    halves that form the hash's two input words. Returns uint32[K, counts.size]."""
    flat = counts.ravel()
    odd = flat.size % 2
    if odd:
        flat = np.concatenate([flat, np.zeros(1, np.uint32)])
    half = flat.size // 2
    y0, y1 = threefry2x32_np(k0[:, None], k1[:, None], flat[None, :half], flat[None, half:])
    out = np.concatenate([y0, y1], axis=1)
    return out[:, :-1] if odd else out


def _iota_2x32(shape):
    """Flat index of every element of `shape` as (hi, lo) uint32 words (read-only, cached per
    size: a sampling loop asks for the same shape every step)."""
    n = math.prod(shape)
    words = _IOTA_CACHE.get(n)
    if words is None:
        idx = np.arange(n, dtype=np.uint64)
        words = (idx >> np.uint64(32)).astype(np.uint32), (idx & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        for w in words:
            w.flags.writeable = False
        if n <= _IOTA_CACHE_MAX_SIZE:
            if len(_IOTA_CACHE) >= 16:
                _IOTA_CACHE.clear()
            _IOTA_CACHE[n] = words
    return words


_IOTA_CACHE: dict = {}
_IOTA_CACHE_MAX_SIZE = 1 << 20   # (bigger ones cost more to keep than to make)


def _hash_iota(k0, k1, shape):
    """Partitionable layout: hash each element's 64-bit flat index. Two uint32[K, n] words."""
    hi, lo = _iota_2x32(shape)
    return _threefry(k0[:, None], k1[:, None], hi[None], lo[None], (len(k0), len(hi)))


def _split_words(k0, k1, shape) -> np.ndarray:
    """uint32[K, *shape, 2]: the new keys."""
    n = math.prod(shape)
    if _is_partitionable():
        b0, b1 = _hash_iota(k0, k1, shape)
        out = np.stack([b0, b1], axis=-1)
    else:
        out = _hash_counts(k0, k1, np.arange(2 * n, dtype=np.uint32))
    return out.reshape(len(k0), *shape, 2)


_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def _bits_words(k0, k1, bit_width, shape) -> np.ndarray:
    """uint{bit_width}[K, *shape]: random bits."""
    dtype = _UINT[bit_width]
    nkeys = len(k0)
    if _is_partitionable():
        b0, b1 = _hash_iota(k0, k1, shape)
        if bit_width == 64:
            bits = (b0.astype(np.uint64) << np.uint64(32)) | b1.astype(np.uint64)
        else:
            bits = b0 ^ b1   # (a new array: b0 and b1 are views of one state that can now go)
            if bit_width != 32:
                bits = bits.astype(dtype)
        return bits.reshape(nkeys, *shape)
    size = math.prod(shape)
    n_words = -(-bit_width * size // 32)
    n_blocks, rem = divmod(n_words, 0xFFFFFFFF)
    if n_blocks:
        raise NotImplementedError("random bits of more than 2**32 words")
    words = _hash_counts(k0, k1, np.arange(rem, dtype=np.uint32))
    if bit_width == 64:
        a, b = np.split(words, 2, axis=1)
        bits = (a.astype(np.uint64) << np.uint64(32)) | b.astype(np.uint64)
    elif bit_width in (8, 16):
        # the little pieces of each word, low bits first (bits.view(dtype)[:size])
        per = 32 // bit_width
        shifts = np.arange(per, dtype=np.uint32) * np.uint32(bit_width)
        pieces = (words[:, :, None] >> shifts) & np.uint32((1 << bit_width) - 1)
        bits = pieces.reshape(nkeys, -1).astype(dtype)[:, :size]
    else:
        bits = words
    return bits.reshape(nkeys, *shape)


def _key_words(keys: np.ndarray):
    """(k0, k1) uint32[K] for a key array of any shape (K = its size)."""
    words = unwrap_words(keys).reshape(-1, 2)
    return words[:, 0], words[:, 1]


# ---- seed -------------------------------------------------------------------------------------

def _seed_impl(seeds, *, impl):
    seeds = np.asarray(seeds)
    u = seeds.astype(np.uint64)  # two's complement wrap, like a bitcast
    hi = (u >> np.uint64(32)) if seeds.dtype.itemsize == 8 else np.zeros_like(u)
    words = np.stack([hi.astype(np.uint32), (u & np.uint64(0xFFFFFFFF)).astype(np.uint32)], axis=-1)
    return wrap_words(words)


def _seed_abstract_eval(seeds, *, impl):
    if seeds.dtype.kind not in "iu":
        raise TypeError(f"PRNG key seed must be an integer; got {seeds.str_long()}")
    return ShapedArray(seeds.shape, KEY_DTYPE)


class KeyImpl:
    """The `impl=fry` parameter of the key primitives (threefry2x32 is the only impl here)."""
    name = "threefry2x32"
    tag = "fry"
    key_shape = (2,)

    def __repr__(self):
        return self.tag  # jaxpr text: random_wrap[impl=fry]

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, KeyImpl)

    def __hash__(self):
        return hash(KeyImpl)


FRY = KeyImpl()

random_seed_p = define("random_seed", abstract_eval=_seed_abstract_eval, impl=_seed_impl,
                       weak_type_rule=never_weak)
ad.defjvp_zero(random_seed_p)


# ---- wrap / unwrap ----------------------------------------------------------------------------

def _check_key_data(dtype, shape):
    if np.dtype(dtype) != np.uint32:
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; "
                        f"got dtype={np.dtype(dtype).name}")
    if tuple(shape[-1:]) != (2,):
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.shape to end with (2,); "
                        f"got shape={tuple(shape)} for impl=PRNGImpl(key_shape=(2,), name='threefry2x32', "
                        "tag='fry')")


def _wrap_abstract_eval(words, *, impl):
    _check_key_data(words.dtype, words.shape)
    return ShapedArray(words.shape[:-1], KEY_DTYPE)


def _wrap_impl(words, *, impl):
    _check_key_data(words.dtype, words.shape)
    return wrap_words(words)


random_wrap_p = define("random_wrap", abstract_eval=_wrap_abstract_eval,
                       impl=_wrap_impl, weak_type_rule=never_weak)
ad.defjvp_zero(random_wrap_p)

random_unwrap_p = define("random_unwrap", abstract_eval=lambda k: ShapedArray(k.shape + (2,), np.uint32),
                         impl=unwrap_words, weak_type_rule=never_weak)
ad.defjvp_zero(random_unwrap_p)


# ---- split / fold_in / bits -----------------------------------------------------------------

def _split_impl(keys, *, shape):
    n = math.prod(shape)
    one = _one_key(keys) if n <= _LANES_MAX and _is_partitionable() else None
    if one is not None:   # the partitionable layout: new key i is the hash of counter (0, i)
        return np.array([_threefry_lane(*one, 0, i) for i in range(n)], KEY_DTYPE).reshape(
            keys.shape + tuple(shape))
    words = _split_words(*_key_words(keys), tuple(shape))
    return wrap_words(words.reshape(keys.shape + tuple(shape) + (2,)))


random_split_p = define("random_split", abstract_eval=lambda k, *, shape: ShapedArray(k.shape + tuple(shape),
                                                                                     KEY_DTYPE),
                        impl=_split_impl, weak_type_rule=never_weak)
ad.defjvp_zero(random_split_p)


def _fold_in_impl(keys, msgs):
    # JAX: threefry_2x32(key, threefry_seed(data)) = hash of the counter pair (0, data)
    if np.ndim(msgs) == 0:
        one = _one_key(keys)
        if one is not None:
            return np.array(_threefry_lane(*one, 0, int(msgs) & _MASK32), KEY_DTYPE).reshape(keys.shape)
    keys, msgs = np.broadcast_arrays(keys, np.asarray(msgs, np.uint32))
    k0, k1 = _key_words(keys)
    y0, y1 = threefry2x32_np(k0, k1, np.zeros_like(k0), msgs.ravel())
    return wrap_words(np.stack([y0, y1], axis=-1).reshape(keys.shape + (2,)))


def _fold_in_abstract_eval(keys, msgs):
    if msgs.dtype != np.uint32:
        raise TypeError(f"random_fold_in requires uint32 data, got {msgs.dtype.name}")
    return ShapedArray(np.broadcast_shapes(keys.shape, msgs.shape), KEY_DTYPE)


random_fold_in_p = define("random_fold_in", abstract_eval=_fold_in_abstract_eval, impl=_fold_in_impl,
                          weak_type_rule=never_weak)
ad.defjvp_zero(random_fold_in_p)


def _bits_impl(keys, *, bit_width, shape):
    n = math.prod(shape)
    one = _one_key(keys) if n <= _LANES_MAX and _is_partitionable() else None
    if one is not None:   # the partitionable layout: element i hashes its flat index (0, i)
        lanes = [_threefry_lane(*one, 0, i) for i in range(n)]
        if bit_width == 64:
            vals = [(y0 << 32) | y1 for y0, y1 in lanes]
        else:
            vals = [(y0 ^ y1) & ((1 << bit_width) - 1) for y0, y1 in lanes]
        return np.array(vals, _UINT[bit_width]).reshape(keys.shape + tuple(shape))
    bits = _bits_words(*_key_words(keys), bit_width, tuple(shape))
    return bits.reshape(keys.shape + tuple(shape))


def fold_in_one(key, msg):
    """random_fold_in of one key (0-d) by one 0-d message: what the generated code of a sampling
    loop calls (a key folded per step), without the impl's shape and size checks. A key folded
    by consecutive messages (a loop's step counter) gets the next ones a block at a time."""
    # (the block is found by the key's words, never by the key object: a jit argument can be
    # the caller's numpy array, written in place between calls)
    return _fold_in_one(key, int(msg) & _MASK32)


def _fold_in_one(key, m):
    kw = key.item()
    blk = _fold_block
    if blk is not None and blk[4] == kw:
        i = (m - blk[1]) & _MASK32
        if i < blk[5]:
            return blk[2][i]
        if i == blk[5]:   # the step after the block: the next (larger) block
            return _new_fold_block(key, kw, m, min(4 * blk[5], _FOLD_BLOCK))
    st = _fold_streak
    if st[0] == kw and m == ((st[1] + 1) & _MASK32):
        st[2] += 1
        if st[2] >= _FOLD_STREAK:
            return _new_fold_block(key, kw, m, _FOLD_FIRST)
    else:
        st[0], st[2] = kw, 0
    st[1] = m
    return np.array(_threefry_lane(kw[0], kw[1], 0, m), KEY_DTYPE)


# ---- a key folded by a counter: the next messages' keys (and each one's 32-bit draw) a block at
# a time. A loop that folds one key by its step counter (fold_in(key, i): a sampler's per-step key)
# otherwise hashes one lane per step in Python integers (~2.5 us, and as much again for a draw
# from the folded key). After _FOLD_STREAK consecutive messages under one key, the next
# ones are hashed at once (16, then 64 in packed Python integers, then 256 at a time in numpy), with
# the bits each folded key draws: ~0.5 us a lane. The same hash, so the same bits; a loop that
# stops early leaves part of a block unread (a tree builder's subtrees of 2**d steps: the growing
# sizes keep that small). The block holds its folded keys as 0-d arrays, and `bits32_one` finds a draw by the
# key object it was handed (`id`: the block keeps those objects alive, so no other object has
# their ids while it stands); keys are never written in place.

_FOLD_FIRST, _FOLD_BLOCK = 16, 256
_FOLD_STREAK = 3
_fold_streak = [None, 0, 0]   # the last key's words, its last message, how many consecutive ones
# (key object, first message, [folded keys, 0-d], {id(folded key): its bits}, key words, size)
_fold_block = None


def _new_fold_block(key, kw, m, n):
    global _fold_block
    msgs = (np.arange(n, dtype=np.uint64) + m).astype(np.uint32)   # (wraps as uint32 adds)
    zeros = np.zeros(n, np.uint32)
    y0, y1 = _threefry(np.array(kw[0], np.uint32), np.array(kw[1], np.uint32), zeros, msgs, (n,))
    y0, y1 = np.array(y0, np.uint32), np.array(y1, np.uint32)
    keys = wrap_words(np.stack([y0, y1], axis=-1))
    folded = [keys[i, ...] for i in range(n)]
    b0, b1 = _threefry(y0, y1, zeros, zeros, (n,))
    bits = dict(zip(map(id, folded), np.bitwise_xor(b0, b1)))
    _fold_block = (key, m, folded, bits, kw, n)
    return folded[0]


# jax_threefry_partitionable, kept current by the config's listener (bits32_one runs per step)
_PARTITIONABLE = [bool(config.read("jax_threefry_partitionable"))]


def _on_config_change(name, value):
    if name == "jax_threefry_partitionable":
        _PARTITIONABLE[0] = bool(value)


config.on_change(_on_config_change)


def bits32_one(key):
    """random_bits of one key (0-d) for one uint32 (a uniform draw per step), as `_bits_impl`
    computes it: a numpy uint32 scalar."""
    if not _PARTITIONABLE[0]:
        return _bits_impl(key, bit_width=32, shape=())
    blk = _fold_block
    if blk is not None:
        b = blk[3].get(id(key))
        if b is not None:
            return b
    y0, y1 = _threefry_lane(*key.item(), 0, 0)
    return _U32(y0 ^ y1)


# numpy >= 2 keeps a numpy scalar's dtype with a Python int: `0 | n` makes np.uint32(n) in a
# fraction of the constructor's time (numpy 1.x would widen it: the constructor there)
_U32 = np.uint32(0).__or__ if type(np.uint32(0) | 1) is np.uint32 else np.uint32


def _bits_abstract_eval(keys, *, bit_width, shape):
    if bit_width not in _UINT:
        raise TypeError("requires 8-, 16-, 32- or 64-bit field width.")
    return ShapedArray(keys.shape + tuple(shape), dtypes.canonicalize_dtype(_UINT[bit_width]))


random_bits_p = define("random_bits", abstract_eval=_bits_abstract_eval, impl=_bits_impl,
                       weak_type_rule=never_weak)
ad.defjvp_zero(random_bits_p)


# ---- batching: every key primitive maps over leading key dimensions ------------------------

def _leading_batch(prim):
    def rule(axis_data, vals, dims, **params):
        vals = [bdim_at_front(v, d, axis_data.size) for v, d in zip(vals, dims)]
        if len(vals) == 2:  # fold_in: the message may be a scalar per example
            from ..lax import lax  # INHERENT: up to lax
            k, m = vals
            shape = np.broadcast_shapes(k.shape, m.shape)
            vals = [lax.broadcast_in_dim(v, shape, tuple(range(len(shape) - v.ndim, len(shape))))
                    if v.shape != shape else v for v in vals]
        return bind(prim, *vals, **params), 0
    batch_rules[prim] = rule


for _p in (random_seed_p, random_wrap_p, random_unwrap_p, random_split_p, random_fold_in_p, random_bits_p):
    _leading_batch(_p)

LAX_EXPORTS = {"threefry2x32_p": threefry2x32_p}
