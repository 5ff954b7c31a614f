"""`jax.experimental`: the public names JAX still keeps here (io_callback, layouts)."""
