"""The float32 normal table (normal_table.py) shipped packed: 1.1 MiB for 32 MiB (in the Python
package; the page fetches it apart, see FETCH).

The table is a constant (JAX's float32 normal of each of the 2**23 mantissas), smooth in the
mantissa, so its bit patterns' second differences are a few units (the float32 rounding noise of
XLA's arithmetic): one signed byte each, zlib-compressed, and the ~200 that do not fit a byte (the
ends and the sign change) listed apart. Decoding is two cumulative sums (~40 ms in CPython), far
less than building the table from the exact path (~0.5-1 s), so a fresh session gets the table
soon (normal_table.py decides when). The decoded table is used only if its CRC-32 is the table's
known one (normal_table_cache.TABLE_CRC32; tests pin the table's sha256 to real JAX's), so a
damaged file means the exact path, never a wrong sample.

File: b"GPNT", uint32 escape count E, E int32 positions, E int32 values (little-endian), then the
zlib stream of the 2**23 int8 second differences (-128 marks an escape). Written by
`python -m core._engine.libraries.normal_table_pack` from the exact path (tests/test_random_normal_table.py checks
the shipped file decodes to the table).
"""
from __future__ import annotations

import os
import struct
import sys
import zlib
from typing import Callable

import numpy as np

# the table ships at the package's root (core/normal_table_f32.bin: tools/site.py serves it apart)
FILE = os.path.join(os.path.dirname(os.path.abspath(sys.modules[__name__.partition(".")[0]].__file__)),
                    "normal_table_f32.bin")
_MAGIC = b"GPNT"
_ESCAPE = -128

# Where the file is not beside this module, the bytes come from this hook, if set. The page
# (Pyodide) ships the file apart from the wheel it loads at start (1.1 MB more before a first
# result, for a table decoded only after ~86 draws): the page's boot sets FETCH to a synchronous
# fetch that checks the build's sha256 (app/lazy_files.py). A hook, because core/ must stay
# importable without app/. It returns the bytes or None; whatever it raises counts as None
# (the exact path then, never a wrong draw: decode and the table's CRC-32 check the bytes too).
FETCH: Callable[[], bytes | None] | None = None


def encode(table: np.ndarray) -> bytes:
    bits = table.view(np.int32).astype(np.int64)
    d2 = np.diff(np.diff(bits, prepend=0), prepend=0)
    d2 = (d2 + (1 << 31)) % (1 << 32) - (1 << 31)   # (int32 wrap-around: decoding sums in int32)
    far = np.flatnonzero((d2 < -127) | (d2 > 127))
    small = d2.astype(np.int8)
    small[far] = _ESCAPE
    head = _MAGIC + struct.pack("<I", far.size)
    return (head + far.astype("<i4").tobytes() + d2[far].astype("<i4").tobytes()
            + zlib.compress(small.tobytes(), 9))


def decode(data: bytes, size: int) -> np.ndarray | None:
    """The float32 table from `data` (None if it is not a packed table of `size` entries)."""
    if data[:4] != _MAGIC or len(data) < 8:
        return None
    (n_far,) = struct.unpack_from("<I", data, 4)
    body = 8 + 8 * n_far
    try:
        small = zlib.decompress(data[body:])
    except zlib.error:
        return None
    if len(small) != size or len(data) < body:
        return None
    d = np.frombuffer(small, np.int8).astype(np.int32)
    far = np.frombuffer(data, "<i4", n_far, 8)
    if n_far and (far.min() < 0 or far.max() >= size):
        return None
    d[far] = np.frombuffer(data, "<i4", n_far, 8 + 4 * n_far)
    with np.errstate(over="ignore"):
        np.cumsum(d, out=d)   # (int32 sums wrap as the encoder's differences did)
        np.cumsum(d, out=d)
    return d.view(np.float32)


def load(size: int) -> np.ndarray | None:
    """The shipped table, decoded (None if the file is missing or does not decode)."""
    data = _read()
    return None if data is None else decode(data, size)


def _read() -> bytes | None:
    try:
        with open(FILE, "rb") as f:
            return f.read()
    except OSError:
        pass
    if FETCH is None:
        return None
    try:
        return FETCH()
    except Exception:   # (a failed fetch: the exact path stays)
        return None


if __name__ == "__main__":   # regenerate the shipped file from the exact path
    from . import normal_table, random_eager
    normal_table.reset()
    with normal_table.exact_path_only():
        table = normal_table.build(random_eager.normal_f32_of_bits)
    from . import normal_table_cache
    assert normal_table_cache.is_the_table(table), "the exact path's table is not JAX's (CRC-32)"
    packed = encode(table)
    assert np.array_equal(decode(packed, table.size).view(np.uint32), table.view(np.uint32))
    with open(FILE, "wb") as f:
        f.write(packed)
    print(f"{FILE}: {len(packed)} bytes")
