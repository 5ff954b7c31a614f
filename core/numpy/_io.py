"""jax.numpy's file input and output."""
from __future__ import annotations


def save(*a, **k):
    raise NotImplementedError("jnp.save is not available in the playground")
