# face: re-exports core._engine.base.monitoring (written by tools/move_to_layers.py; no logic here)
"""`jax.monitoring`: event listeners. gradpad reports no compile events of its own, but a
library's `record_event*` calls reach the listeners registered here, as in JAX.

`jax.monitoring`'s public face: the implementation is core/_engine/base/monitoring.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.monitoring import (clear_event_listeners as clear_event_listeners,
    record_event as record_event, record_event_duration_secs as record_event_duration_secs,
    record_event_time_span as record_event_time_span, record_scalar as record_scalar,
    register_event_duration_secs_listener as register_event_duration_secs_listener,
    register_event_listener as register_event_listener,
    register_event_time_span_listener as register_event_time_span_listener,
    register_scalar_listener as register_scalar_listener,
    unregister_event_duration_listener as unregister_event_duration_listener,
    unregister_event_listener as unregister_event_listener,
    unregister_event_time_span_listener as unregister_event_time_span_listener,
    unregister_scalar_listener as unregister_scalar_listener)
