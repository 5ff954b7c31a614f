"""jax.numpy's file input and output: NumPy's readers, with the result made a jax array."""
from __future__ import annotations

import numpy as _np


# as in JAX: numpy's own writers (jax arrays convert through __array__; in the page they write to
# Pyodide's in-memory file system)
save = _np.save
savez = _np.savez


def load(file, *args, **kwargs):
    """np.load, with an array result made a jax array (an .npz archive is returned as numpy's)."""
    from ._creation import asarray
    out = _np.load(file, *args, **kwargs)
    if isinstance(out, _np.ndarray):
        if out.dtype == "V2":  # np.save writes bfloat16 as 2-byte voids: view them back, as JAX's
            from ...base import dtypes as _dt
            out = out.view(_dt.bfloat16)
        try:
            out = asarray(out)
        except TypeError:  # a dtype jax has no counterpart for stays numpy's
            pass
    return out


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    from ._creation import asarray
    return asarray(_np.frombuffer(buffer=buffer, dtype=dtype, count=count, offset=offset))


def fromstring(string, dtype=float, count=-1, *, sep):
    from ._creation import asarray
    return asarray(_np.fromstring(string=string, dtype=dtype, count=count, sep=sep))


def _impure(name, what):
    def refuse(*args, **kwargs):
        raise NotImplementedError(
            f"jnp.{name}() is not implemented because it may be non-pure and thus unsafe for use with JIT and "
            f"other JAX transformations. Consider using jnp.asarray(np.{name}(...)) instead, although care should "
            f"be taken if np.{name} is used within a jax transformations because of its potential side-effect of "
            f"consuming the {what} object; for more information see "
            "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions")
    refuse.__name__ = name
    return refuse


fromfile = _impure("fromfile", "file")
fromiter = _impure("fromiter", "iterable")
