"""`jax.scipy.integrate`: the trapezoidal rule (jnp.trapezoid)."""
from __future__ import annotations

from .. import numpy as jnp


def trapezoid(y, x=None, dx=1.0, axis=-1):
    return jnp.trapezoid(y, x=x, dx=dx, axis=axis)
