"""`jax.monitoring`: event listeners. gradpad reports no compile events of its own, but a
library's `record_event*` calls reach the listeners registered here, as in JAX."""
from __future__ import annotations

_listeners: dict = {"event": [], "duration": [], "time_span": [], "scalar": []}


def record_event(event: str, **kwargs) -> None:
    for fn in list(_listeners["event"]):
        fn(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs) -> None:
    for fn in list(_listeners["duration"]):
        fn(event, duration, **kwargs)


def record_event_time_span(event: str, start_time: float, end_time: float, **kwargs) -> None:
    for fn in list(_listeners["time_span"]):
        fn(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value, **kwargs) -> None:
    for fn in list(_listeners["scalar"]):
        fn(event, value, **kwargs)


def register_event_listener(callback) -> None:
    _listeners["event"].append(callback)


def register_event_duration_secs_listener(callback) -> None:
    _listeners["duration"].append(callback)


def register_event_time_span_listener(callback) -> None:
    _listeners["time_span"].append(callback)


def register_scalar_listener(callback) -> None:
    _listeners["scalar"].append(callback)


def _unregister(kind: str, callback) -> None:
    if callback not in _listeners[kind]:
        raise AssertionError(f"Callback {callback} was not registered")
    _listeners[kind].remove(callback)


def unregister_event_listener(callback) -> None:
    _unregister("event", callback)


def unregister_event_duration_listener(callback) -> None:
    _unregister("duration", callback)


def unregister_event_time_span_listener(callback) -> None:
    _unregister("time_span", callback)


def unregister_scalar_listener(callback) -> None:
    _unregister("scalar", callback)


def clear_event_listeners() -> None:
    for v in _listeners.values():
        v.clear()
