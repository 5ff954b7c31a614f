"""float32 `random.normal` as one table lookup: the table shipped packed, else built lazily.

JAX's float32 normal is sqrt(2) * erf_inv(u) with u uniform in (-1, 1) made from the top 23 bits
of a random uint32 (`bits >> 9`, the mantissa). So every float32 normal sample is a pure function
of those 23 bits, and a table of all 2**23 results (32 MiB) turns the uniform + erf_inv path
(about 100 numpy calls of bit-exact float32 emulation) into one `take`. The table is computed by
the exact path itself (fed every mantissa), so it holds the same bits; tests check it against
jax.random's jitted path and real JAX's normal on all 2**23 mantissas.

The package ships the table packed (normal_table_pack.py: 1.1 MiB, decoded in ~40 ms of CPython),
and in CPython the first eager float32 normal that takes the exact path decodes it: a fresh
session draws from the table from its second call on. That first call then costs ~40 ms more
(JAX's own first `random.normal` compiles for ~1 s). In Pyodide it is decoded once the exact path
has cost about what decoding does (SHIPPED_AFTER); the page's wheel does not hold the file, which
is fetched then (normal_table_pack.FETCH). GRADPAD_NORMAL_TABLE=off keeps to the exact path (no
32 MiB).

Without the shipped copy (a damaged, removed or unfetchable file), the table is built from the
exact path.
Building it costs what drawing 2**23 samples in one call costs (about a second in CPython, more in
Pyodide), so it is built only once a session has spent about that much on the exact path (a
ski-rental rule: at worst twice the cost of never building it), and in chunks, one per call, so
that no single call stalls for the whole build. A session that completes it saves a copy in the
user's cache directory (CPython only, normal_table_cache.py); later sessions read that back once
their exact-path work passes the cost of reading it (about LOAD_AFTER).
"""
from __future__ import annotations

import contextlib
import os
import sys

import numpy as np

from . import normal_table_cache, normal_table_pack

MANTISSA_BITS = 23
SIZE = 1 << MANTISSA_BITS
SHIFT = np.uint32(32 - MANTISSA_BITS)

# Exact-path work is counted in element-equivalents: a call costs its size plus about this many
# (numpy's per-call overhead over the ~150 numpy calls of the exact path; measured in CPython, a
# 10-sample call costs as much as ~2000 samples drawn in one big call, a 1000-sample one ~3700).
CALL_OVERHEAD = 2048
BUILD_AFTER = SIZE      # start building once the exact path has done the work of one build
# reading the saved copy (32 MiB and its CRC) costs ~16 ms of CPU (40-70 ms wall on a busy
# machine): about this much exact-path work, ~90 calls of 1000 samples
LOAD_AFTER = SIZE // 32
CHUNK = 1 << 16         # entries built per call once building: 128 calls, ~5-15 ms each in CPython


def _shipped_after(platform: str) -> int:
    """Exact-path work before the shipped table is decoded. CPython: none (decoding costs ~40 ms
    once, JAX's own first `random.normal` compiles for ~1 s, and every later call is ~3x
    cheaper). Pyodide: about the decoding's cost (~0.5 s there, where a page's first run is what
    a learner waits for; measured: ~85 exact calls of 1000 samples, 6.9 ms each against 0.4 ms
    from the table), a ski-rental rule as for building."""
    return SIZE // 32 if platform == "emscripten" else 0


SHIPPED_AFTER = _shipped_after(sys.platform)

# GRADPAD_NORMAL_TABLE: "auto" (the shipped table at the first eager float32 normal, else the rule
# above), "now" (that, else start building at the first: steady speed sooner, ~1 s spread over
# the first 128 calls) or "off" (never: saves the 32 MiB, e.g. in a memory-tight page).
_START = {"auto": BUILD_AFTER, "now": 0, "off": float("inf")}
_LOAD = {"auto": LOAD_AFTER, "now": 0, "off": float("inf")}


def _unpack_after(mode):
    return {"auto": SHIPPED_AFTER, "now": 0, "off": float("inf")}[mode]


class _State:
    def __init__(self):
        self.table = None       # float32[SIZE] once complete
        self.partial = None     # the table being filled
        self.filled = 0         # entries of `partial` done
        self.credit = 0         # exact-path work so far (element-equivalents)
        self.frozen = False     # count nothing, build nothing (exact_path_only)
        self.looked_on_disk = False
        self.looked_shipped = False
        self.source = None      # "shipped", "read" (from the user's cache) or "built" once it exists


_state = _State()


def lookup(bits: np.ndarray):
    """float32 normals for uint32 `bits` (consumed: shifted in place), or None while the table
    is not built."""
    table = _state.table
    if table is None:
        return None
    bits >>= SHIFT   # (the caller's own fresh bits)
    # as int32 (the same numbers, below 2**23): numpy indexes by intp, and on 32-bit platforms
    # (Pyodide's wasm32) a uint32 index does not cast to it safely
    index = bits.view(np.int32)
    if index.size <= TAKE_CHUNK:
        return table.take(index)
    # in chunks: Python answers Stop (the page's interrupt) between two C calls only, and one
    # gather of 1e6 random entries from this 32 MB table took seconds in a busy page
    flat, out = index.reshape(-1), np.empty(index.size, table.dtype)
    for start in range(0, flat.size, TAKE_CHUNK):
        table.take(flat[start:start + TAKE_CHUNK], out=out[start:start + TAKE_CHUNK])
    return out.reshape(index.shape)


TAKE_CHUNK = 1 << 16


def note_exact_call(size: int, exact_of_bits) -> None:
    """Count one eager float32 normal call that ran the exact path; past the threshold, build one
    more chunk of the table with `exact_of_bits` (uint32 bits -> float32 normals, the exact path)."""
    st = _state
    if st.table is not None or st.frozen:
        return
    st.credit += size + CALL_OVERHEAD
    mode = _mode()
    if not st.looked_shipped and st.credit >= _unpack_after(mode):
        st.looked_shipped = True
        shipped = _load_shipped()
        if shipped is not None:
            st.table, st.partial, st.source = shipped, None, "shipped"
            return
    if not st.looked_on_disk and st.credit >= _LOAD[mode]:
        st.looked_on_disk = True
        saved = normal_table_cache.load(SIZE)
        if saved is not None:
            st.table, st.partial, st.source = saved, None, "read"
            return
    if st.credit >= _START[mode]:
        build_chunk(exact_of_bits)


def _load_shipped():
    table = normal_table_pack.load(SIZE)
    if table is None or not normal_table_cache.is_the_table(table):
        return None
    table.flags.writeable = False
    return table


def _mode():
    mode = os.environ.get("GRADPAD_NORMAL_TABLE", "auto")
    if mode not in _START:
        raise ValueError(f"GRADPAD_NORMAL_TABLE={mode!r}: expected one of {', '.join(_START)}")
    return mode


def build_chunk(exact_of_bits) -> bool:
    """Fill the next CHUNK entries; True once the table is complete (then lookups use it)."""
    st = _state
    if st.table is not None:
        return True
    if st.partial is None:
        st.partial = np.empty(SIZE, np.float32)
        st.filled = 0
    lo = st.filled
    hi = min(SIZE, lo + CHUNK)
    mantissas = np.arange(lo, hi, dtype=np.uint32)
    st.partial[lo:hi] = exact_of_bits(mantissas << SHIFT)
    st.filled = hi
    if hi == SIZE:
        st.table, st.partial, st.source = st.partial, None, "built"
        st.table.flags.writeable = False
        if not st.frozen:
            normal_table_cache.save(st.table)
        return True
    return False


def build(exact_of_bits) -> np.ndarray:
    """Build the whole table now (tests; a user who wants it from the first call)."""
    while not build_chunk(exact_of_bits):
        pass
    return _state.table


@contextlib.contextmanager
def exact_path_only():
    """Within: every draw takes the exact path, and nothing is counted or built (tests compare
    the two paths; benchmarks time the exact one). The table and the count come back after."""
    global _state
    saved = _state
    _state = _State()
    _state.frozen = True
    try:
        yield
    finally:
        _state = saved


def reset() -> None:
    """Drop the table and the count (frees the 32 MiB)."""
    global _state
    _state = _State()


def source() -> str | None:
    """How this session got its table: "shipped" (decoded from the package's copy), "read" from
    the user's cache, "built", or None (none yet: draws take the exact path)."""
    return _state.source


def nbytes() -> int:
    st = _state
    arr = st.table if st.table is not None else st.partial
    return 0 if arr is None else arr.nbytes
