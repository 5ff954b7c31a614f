"""`jax._src.ad_util` (diffrax, equinox and lineax import it): the engine's own AD helpers."""
from __future__ import annotations

from ..custom_derivatives import SymbolicZero, zero_from_primal  # noqa: F401
from .._engine.primitives.elementwise import add_any_p as add_jaxvals_p, stop_gradient_p  # noqa: F401
from .._engine.transforms.ad import Zero, instantiate, zeros_like_aval  # noqa: F401
from .._engine.transforms.ad import add_tangents as add_jaxvals  # noqa: F401

add_any_p = add_jaxvals_p


def zeros_like_jaxval(val):
    """Zeros of `val`'s shape and dtype."""
    from .._engine.tracing.tracing import get_aval
    return zeros_like_aval(get_aval(val))
