"""`jax.experimental.hijax`: JAX's experimental "high-level types" (mutable, structured values
carried through transformations). flax.nnx builds its optional hijax Variables on it at import
time; gradpad does not implement high-level types, so these classes can be defined and
subclassed, but binding a HiPrimitive raises NotImplementedError (flax uses them only when
`flax_hijax_variable` is switched on; its default Variables do not touch them)."""
from __future__ import annotations

from .._engine.base.avals import ShapedArray  # noqa: F401
from ..core import AbstractValue  # noqa: F401
from ..extend.core import Primitive
from ..interpreters.ad import Zero, instantiate_zeros, is_undefined_primal  # noqa: F401


class HiPrimitive(Primitive):
    """A primitive on high-level types; subclasses define impl/abstract_eval as methods."""

    def __init__(self, name: str):
        super().__init__(name)
        self.multiple_results = False

    def bind(self, *args, **params):
        raise NotImplementedError(f"hijax primitive '{self.name}': gradpad does not implement JAX's experimental "
                                  "high-level types (jax.experimental.hijax)")


class VJPHiPrimitive(HiPrimitive):
    pass


class HiType:
    """Base of a high-level abstract value."""
    mutable = False


class MutableHiType(HiType):
    mutable = True


class HiPspec:
    pass


class AvalQDD:
    """An abstract value with its quasi-dynamic data."""

    def __init__(self, aval, qdd):
        self.aval, self.qdd = aval, qdd


class AvalMutableQDD(AvalQDD):
    pass


class aval_method:
    """Marks a method of a high-level value's class as available on its abstract value."""

    def __init__(self, fun):
        self.fun = fun

    def __get__(self, obj, objtype=None):
        return self.fun.__get__(obj, objtype) if obj is not None else self.fun


class aval_property(property):
    """Like aval_method, for a property."""


_hitypes: dict = {}


def register_hitype(val_cls, typeof_fn) -> None:
    _hitypes[val_cls] = typeof_fn


class _EffectTypeSet(set):
    def add_type(self, effect_type) -> None:
        self.add(effect_type)


control_flow_allowed_effects = _EffectTypeSet()


class AbstractRef:
    pass


class TransformedRef:
    pass
