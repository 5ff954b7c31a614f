"""`jax._src.xla_bridge` (chex 0.1.92's fake.set_n_cpu_devices reads `_backends`: a backend listed
there has started, so its device count is fixed)."""
from .._engine.base.devices import started_backends as _backends  # noqa: F401
