"""The array API standard's inspection and interchange names, as JAX 0.10.2 has them:
`jnp.__array_namespace_info__()`, `jnp.from_dlpack`, and the Array methods `__array_namespace__`,
`to_device`, `__dlpack__` and `__dlpack_device__` (arrays live in host memory: DLPack is numpy's)."""
from __future__ import annotations

import numpy as _np

from ...base.config import config as _config

__array_api_version__ = "2024.12"  # the newest revision JAX 0.10.2 announces

_KINDS = {  # the standard's dtype kinds -> numpy kind letters
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}


def _all_dtypes():
    x64 = _config.read("jax_enable_x64")
    names = ["bool", "int8", "int16", "int32"] + (["int64"] if x64 else []) + \
            ["uint8", "uint16", "uint32"] + (["uint64"] if x64 else []) + \
            ["float32"] + (["float64"] if x64 else []) + ["complex64"] + (["complex128"] if x64 else [])
    return {n: _np.dtype(n) for n in names}


class ArrayNamespaceInfo:
    """What `jnp.__array_namespace_info__()` returns: the namespace's capabilities and dtypes."""

    def capabilities(self):
        # shapes never depend on values under jit, so neither boolean-mask indexing nor unique()
        # produce data-dependent shapes in JAX's sense
        return {"boolean indexing": False, "data-dependent shapes": False, "max dimensions": 64}

    def default_device(self):
        return None  # as JAX: "the current default", resolved when an array is made

    def devices(self):
        from ...base.devices import default_device
        return [None, default_device()]

    def default_dtypes(self, *, device=None):
        wide = _config.read("jax_enable_x64")
        i, f, c = ("int64", "float64", "complex128") if wide else ("int32", "float32", "complex64")
        return {"real floating": _np.dtype(f), "complex floating": _np.dtype(c),
                "integral": _np.dtype(i), "indexing": _np.dtype(i)}

    def dtypes(self, *, device=None, kind=None):
        every = _all_dtypes()
        if kind is None:
            return every
        kinds = (kind,) if isinstance(kind, str) else tuple(kind)
        letters = ""
        for k in kinds:
            if k not in _KINDS:
                raise ValueError(f"kind must be one of {list(_KINDS)} or a tuple of them; got {k!r}")
            letters += _KINDS[k]
        return {n: d for n, d in every.items() if d.kind in letters}


def __array_namespace_info__():
    return ArrayNamespaceInfo()


def from_dlpack(x, /, *, device=None, copy=None):
    """An array from any object with `__dlpack__` (numpy arrays, other libraries' CPU tensors)."""
    from ._creation import asarray
    return asarray(_np.from_dlpack(x))



def array_namespace(api_version=None):
    """`x.__array_namespace__()`: jax.numpy, for the revision it implements."""
    if api_version is not None and api_version != __array_api_version__:
        raise ValueError(f"{api_version=!r} is not available; available versions are: "
                         f"[{__array_api_version__!r}]")
    # JAX's answer is the public module jax.numpy (the face), not this implementation package;
    # looked up by the package's own root name (it is `core`, installed as `jax` in the page)
    import importlib
    return importlib.import_module(__name__.split(".")[0] + ".numpy")
