"""`jax._src.lax`: the same tutorial imports `from jax._src.lax import lax` (the module behind
`jax.lax`); here that is gradpad's `jax.lax`."""
