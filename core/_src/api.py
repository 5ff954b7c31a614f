"""`jax._src.api`: JAX's own tutorial "How JAX primitives work" (docs/jax-primitives.md) imports
it (`from jax._src import api`) and calls `api.grad`, `api.jit`, `api.jvp`, `api.vmap`; these are
gradpad's public transformations, nothing private."""
from __future__ import annotations

from .._engine.api.api import grad, jacfwd, jacrev, jit, jvp, linearize, make_jaxpr, value_and_grad, vjp, vmap  # noqa: F401
