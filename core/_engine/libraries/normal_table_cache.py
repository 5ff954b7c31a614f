"""A copy of the float32 normal table (normal_table.py) in the user's cache directory, CPython only.

The table is a constant (JAX's float32 normal of each of the 2**23 mantissas), so a session that
built it saves it, and later sessions on the machine read it back (~10-40 ms for 32 MiB) instead
of drawing thousands of samples on the slow exact path first. A file is used only if its CRC-32
is the table's known one (tests pin the table itself to real JAX's bits), so a truncated, stale
or foreign file is ignored, never drawn from. Never in Pyodide: there is no lasting disk there.

GRADPAD_NORMAL_TABLE_CACHE: a directory to keep it in, or "off"; default
$XDG_CACHE_HOME/gradpad, else ~/.cache/gradpad.
"""
from __future__ import annotations

import os
import sys
import zlib

import numpy as np

# zlib.crc32 of the complete table's bytes (float32, little-endian, mantissa order)
TABLE_CRC32 = 0x23E0F146
FILE_NAME = "normal_f32_table_v1.bin"


def path() -> str | None:
    """Where the table's copy lives, or None where there is none to keep (Pyodide, "off")."""
    if sys.platform == "emscripten":
        return None
    where = os.environ.get("GRADPAD_NORMAL_TABLE_CACHE")
    if where == "off":
        return None
    if not where:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        where = os.path.join(base, "gradpad")
    return os.path.join(where, FILE_NAME)


def is_the_table(table: np.ndarray) -> bool:
    return table.dtype == np.float32 and table.flags.c_contiguous and zlib.crc32(table) == TABLE_CRC32


def load(size: int) -> np.ndarray | None:
    """The saved table (read-only float32[size]), or None if there is no good copy."""
    file = path()
    if file is None or not os.path.isfile(file) or os.path.getsize(file) != 4 * size:
        return None
    try:
        table = np.fromfile(file, dtype="<f4")
    except OSError:
        return None
    if table.shape != (size,) or not is_the_table(table):
        return None
    table.flags.writeable = False
    return table


def save(table: np.ndarray) -> bool:
    """Keep a copy of the complete table (written to a temporary file, then renamed, so that a
    reader never sees half of one). Only the true table is saved; failures are silent (the cache
    is an optimisation: a read-only home just means the next session builds it again)."""
    file = path()
    if file is None or not is_the_table(table):
        return False
    import tempfile   # (here: never needed in the page, whose start-up imports stay few)
    try:
        os.makedirs(os.path.dirname(file), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(file), prefix=".normal_table.")
        try:
            with os.fdopen(fd, "wb") as out:
                table.astype("<f4", copy=False).tofile(out)
            os.replace(tmp, file)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True
