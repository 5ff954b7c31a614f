"""`jax._src.state` (flax.nnx imports AbstractRef for isinstance checks; gradpad has no refs)."""
