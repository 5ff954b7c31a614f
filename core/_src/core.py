"""`jax._src.core` (flax.linen.fp8_ops imports it; it reads the public core names)."""
from ..core import *  # noqa: F401,F403
from ..extend.core import *  # noqa: F401,F403
from .._engine.tracing.tracing import Trace, Tracer, get_aval  # noqa: F401
from ..extend.core import set_current_trace, take_current_trace, trace_state_clean  # noqa: F401,E402
