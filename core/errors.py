# face: re-exports core._engine.base.errors (written by tools/move_to_layers.py; no logic here)
"""Every error the engine raises on purpose, with JAX's class names, hierarchy and messages.

`jax.errors`'s public face: the implementation is core/_engine/base/errors.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.errors import (ConcretizationTypeError as ConcretizationTypeError,
    InconclusiveDimensionOperation as InconclusiveDimensionOperation, JAXIndexError as JAXIndexError,
    JAXTypeError as JAXTypeError, JaxRuntimeError as JaxRuntimeError, JaxprTypeError as JaxprTypeError,
    KeyReuseError as KeyReuseError, NonConcreteBooleanIndexError as NonConcreteBooleanIndexError,
    TracerArrayConversionError as TracerArrayConversionError,
    TracerBoolConversionError as TracerBoolConversionError,
    TracerIntegerConversionError as TracerIntegerConversionError,
    UnexpectedTracerError as UnexpectedTracerError)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
