"""Layer 6 of 8, libraries: jax.numpy, jax.nn, jax.random, jax.scipy and the other libraries built on lax.

It imports its own layer and the ones below it (base, tracing, transforms, primitives, lax); tools/import_contract.py checks."""
