"""`jax.version`: the JAX release whose public behaviour gradpad reproduces."""
_version = "0.10.2"
__version__ = _version
__version_info__ = tuple(int(p) for p in _version.split("."))
_minimum_jaxlib_version = _version
