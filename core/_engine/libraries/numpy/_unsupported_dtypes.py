"""The narrow float and int dtypes JAX takes from ml_dtypes (float8_*, float4/6, int4, ...).

ml_dtypes has no build for Pyodide, so gradpad cannot compute in them. The names exist so that
libraries which mention them at import time (flax.linen's fp8 ops) import; any use, as a scalar
type or as a dtype, raises NotImplementedError naming the dtype.
"""
from __future__ import annotations

_NAMES = ("float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
          "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn",
          "int1", "int2", "int4", "uint1", "uint2", "uint4")


def _unsupported(name: str) -> NotImplementedError:
    return NotImplementedError(f"jax.numpy.{name} is not supported in gradpad: these narrow dtypes come from "
                               "ml_dtypes, which has no build for the browser (Pyodide)")


class _UnsupportedDTypeMeta(type):
    @property
    def dtype(cls):  # numpy asks for `.dtype` when a class is used as a dtype: fail loudly, not as object
        raise _unsupported(cls.__name__)

    def __repr__(cls):
        return f"<class 'jax.numpy.{cls.__name__}'>"


def _make(name):
    def __new__(cls, *args, **kwargs):
        raise _unsupported(name)
    return _UnsupportedDTypeMeta(name, (), {"__new__": __new__, "__module__": "jax.numpy"})


UNSUPPORTED_DTYPES = {name: _make(name) for name in _NAMES}
