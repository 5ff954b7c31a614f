"""`jax.experimental.key_reuse`: JAX's key-reuse checker lives in private modules; this public module
has no names in JAX 0.10.2 either (its config flag, `jax_debug_key_reuse`, is not implemented here:
gradpad does not track key reuse)."""
__all__: list[str] = []
