"""Private JAX module paths (`jax._src.*`) that the pinned ecosystem libraries (optax 0.2.8,
chex 0.1.92, equinox 0.13.8, flax 0.12.8) import unconditionally at import time.

These are NOT JAX's private API reimplemented: each module holds only the few names those
libraries touch, as aliases of gradpad's public implementations (or inert hooks where the
feature does not exist here, such as XLA compilation). Keep it that way: add a name only when
an unmodified library needs it, and say which one.
"""

# libtests area: chex reads `jax._src.xla_bridge._backends` as an attribute, without importing it
from . import xla_bridge  # noqa: E402,F401
