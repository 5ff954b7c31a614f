"""The engine's implementation, one folder per layer, bottom up:
  1. base        values without programs: dtypes, abstract values, config, errors, pytrees, devices
  2. tracing     arrays, tracers, jaxprs, bind and the rule tables the layers above fill in
  3. transforms  the transformations' machinery: ad, batching, staging
  4. primitives  the primitives, each with its rules (impl, abstract eval, jvp, transpose, batch)
  5. lax         `jax.lax`: typed wrappers that bind the primitives
  6. libraries   jax.numpy, jax.nn, jax.random, jax.scipy and the other libraries built on lax
  7. api         jit, grad, vmap, custom derivatives, stages: what users call
  8. backends    what runs a jaxpr: the CPU (numpy) compiler and the WebGPU backend
A module imports its own layer and the layers below (tools/import_contract.py). JAX's public
module paths (core/lax.py, core/numpy/, ...) are faces that re-export from here."""
