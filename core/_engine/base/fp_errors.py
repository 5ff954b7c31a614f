"""Calling numpy with its floating-point warnings off, cheaply (JAX never warns on inf or nan).

`np.errstate(all="ignore")` costs about a microsecond of Python per use, as much as a small
ufunc call; on numpy >= 2 the same state is one context variable, set and reset here directly.
"""
from __future__ import annotations

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as _ERR_VAR
    with np.errstate(all="ignore"):
        _IGNORE_ERRORS = _ERR_VAR.get()
except (ImportError, AttributeError):  # older numpy: the context manager
    _IGNORE_ERRORS = None
    _ERR_VAR = None


def quietly(fn, *args):
    """fn(*args) with numpy's floating-point error reporting off."""
    if _ERR_VAR is None:
        with np.errstate(all="ignore"):
            return fn(*args)
    token = _ERR_VAR.set(_IGNORE_ERRORS)
    try:
        return fn(*args)
    finally:
        _ERR_VAR.reset(token)
