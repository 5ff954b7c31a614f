"""`jax.extend.source_info_util`: where in user code each traced operation came from (the
engine keeps it in `core/_engine/base/source_info.py`, which staging imports without this package)."""
from .._engine.base.source_info import (Frame, NameStack, SourceInfo, _current, _excluded, capture,  # noqa: F401
                           current, current_name_stack, extend_name_stack, new_name_stack,
                           new_source_info, register_exclusion, reset_name_stack, set_name_stack,
                           summarize, transform_name_stack, user_context, user_frame)
