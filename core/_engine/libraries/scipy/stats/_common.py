"""Shared helpers of the distributions: promotion to inexact, and loc/scale standardisation."""
from __future__ import annotations

from ... import numpy as jnp


def args(name, *xs):
    return jnp._promote_args_inexact(name, *xs)


def standardize(x, loc, scale):
    return (x - loc) / scale
