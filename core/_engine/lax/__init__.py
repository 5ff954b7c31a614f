"""Layer 5 of 8, lax: `jax.lax`: typed wrappers that bind the primitives.

It imports its own layer and the ones below it (base, tracing, transforms, primitives); tools/import_contract.py checks."""
