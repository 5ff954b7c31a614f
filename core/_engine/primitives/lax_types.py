"""jax.lax's enums and small option types (no primitives here): rounding and RNG algorithms, dot
algorithm presets and tolerances, ragged-dot dimension numbers, PrecisionLike. gradpad's numpy
backend computes dots in the operands' own precision whatever is asked; these names exist so
that code passing them runs and gets JAX's values."""
from __future__ import annotations

import enum
from typing import NamedTuple, Union


class RoundingMethod(enum.IntEnum):
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


class RandomAlgorithm(enum.IntEnum):
    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2


class AccuracyMode(enum.Enum):
    HIGHEST = 1
    DEFAULT = 2


class DotAlgorithm(NamedTuple):
    """An explicit dot algorithm: operand storage types, accumulation type and passes."""
    lhs_precision_type: object
    rhs_precision_type: object
    accumulation_type: object
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


class DotAlgorithmPreset(enum.Enum):
    DEFAULT = 1
    ANY_F8_ANY_F8_F32 = 2
    ANY_F8_ANY_F8_F32_FAST_ACCUM = 3
    ANY_F8_ANY_F8_ANY = 4
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = 5
    F16_F16_F16 = 6
    F16_F16_F32 = 7
    BF16_BF16_BF16 = 8
    BF16_BF16_F32 = 9
    BF16_BF16_F32_X3 = 10
    BF16_BF16_F32_X6 = 11
    BF16_BF16_F32_X9 = 12
    TF32_TF32_F32 = 13
    TF32_TF32_F32_X3 = 14
    F32_F32_F32 = 15
    F64_F64_F64 = 16

    def __repr__(self):
        return f"{type(self).__name__}.{self.name}"

    def __str__(self):
        return self.name


class Tolerance:
    """Error tolerances of an approximate transcendental (JAX's accuracy= argument)."""

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0):
        if atol < 0.0 or rtol < 0.0 or ulps < 0:
            raise ValueError("Tolerances must be non-negative.")
        if atol == 0.0 and rtol == 0.0 and ulps == 0:
            raise ValueError("At least one of atol, rtol, or ulps must be set.")
        self.atol, self.rtol, self.ulps = float(atol), float(rtol), int(ulps)


class RaggedDotDimensionNumbers:
    """Dimension numbers of ragged_dot_general: a dot_general's numbers plus which lhs
    dimension is ragged and which rhs dimension indexes the groups."""

    def __init__(self, dot_dimension_numbers, lhs_ragged_dimensions, rhs_group_dimensions):
        (lc, rc), (lb, rb) = dot_dimension_numbers
        self.dot_dimension_numbers = ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))
        self.lhs_ragged_dimensions = tuple(lhs_ragged_dimensions)
        self.rhs_group_dimensions = tuple(rhs_group_dimensions)

    def __repr__(self):
        return (f"RaggedDotDimensionNumbers(dot_dimension_numbers={self.dot_dimension_numbers}, "
                f"lhs_ragged_dimensions={self.lhs_ragged_dimensions}, "
                f"rhs_group_dimensions={self.rhs_group_dimensions})")

    def __eq__(self, other):
        return isinstance(other, RaggedDotDimensionNumbers) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))


class Precision(enum.Enum):
    """lax.Precision, JAX's enum (haiku's tests name parameterized cases by `str(p)`; a plain class whose
    DEFAULT was None named two cases alike). No effect on gradpad's CPU arithmetic, as on XLA's CPU."""
    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value):
        return _PRECISION_STRINGS.get(value)

    def __repr__(self):
        return f"{type(self).__name__}.{self.name}"

    def __str__(self):
        return self.name


_PRECISION_STRINGS = {"highest": Precision.HIGHEST, "float32": Precision.HIGHEST, "high": Precision.HIGH,
                      "bfloat16_3x": Precision.HIGH, "tensorfloat32": Precision.HIGH, "default": Precision.DEFAULT,
                      "bfloat16": Precision.DEFAULT, "fastest": Precision.DEFAULT}


def canonicalize_precision(precision):
    """JAX's: None stays None (or the jax_default_matmul_precision setting); a name or a Precision becomes
    a pair of Precisions, as dot_general's `precision` parameter holds (and the jaxpr prints) it."""
    if precision is None:
        from ..base.config import config
        default = config.jax_default_matmul_precision
        return None if default is None else canonicalize_precision(default)
    if isinstance(precision, str):
        if precision in _PRECISION_STRINGS:
            return Precision(precision), Precision(precision)
        if precision in DotAlgorithmPreset.__members__:
            return DotAlgorithmPreset[precision]
    elif isinstance(precision, Precision):
        return precision, precision
    elif isinstance(precision, (DotAlgorithm, DotAlgorithmPreset)):
        return precision
    elif isinstance(precision, (list, tuple)) and len(precision) == 2:
        if all(isinstance(p, Precision) for p in precision):
            return tuple(precision)
        if all(isinstance(p, str) for p in precision):
            return tuple(canonicalize_precision(p)[0] for p in precision)
    raise ValueError("Precision argument must be one of:\n- None,\n"
                     f"- a string in {list(_PRECISION_STRINGS) + [None]},\n- a lax.Precision value,\n"
                     "- a tuple of two lax.Precision values or strings,\n"
                     "- a lax.DotAlgorithmPreset or the name of one of these presets, or\n"
                     f"- a lax.DotAlgorithm value;\nbut got {precision}.")


PrecisionLike = Union[None, str, Precision, tuple[str, str], tuple[Precision, Precision], DotAlgorithm,
                      DotAlgorithmPreset]


LAX_EXPORTS = {
    "RoundingMethod": RoundingMethod, "RandomAlgorithm": RandomAlgorithm, "AccuracyMode": AccuracyMode,
    "DotAlgorithm": DotAlgorithm, "DotAlgorithmPreset": DotAlgorithmPreset, "Tolerance": Tolerance,
    "RaggedDotDimensionNumbers": RaggedDotDimensionNumbers, "PrecisionLike": PrecisionLike,
}
