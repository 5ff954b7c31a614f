"""Layer 7 of 8, api: jit, grad, vmap, custom derivatives, stages: what users call.

It imports its own layer and the ones below it (base, tracing, transforms, primitives, lax, libraries); tools/import_contract.py checks."""
