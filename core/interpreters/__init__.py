"""`jax.interpreters`: the rule tables of JAX's transformations, for libraries' own primitives."""
from . import ad, batching, mlir, partial_eval, xla  # noqa: F401
