"""`jax._src.traceback_util` (equinox, flax register their files as excluded from tracebacks)."""
from __future__ import annotations

import functools

from ..extend.source_info_util import _excluded

_exclude_paths: list = []  # flax appends to and removes from this list directly


def register_exclusion(path: str) -> None:
    _exclude_paths.append(path)
    _excluded.add(path)


def include_frame(frame) -> bool:
    """Whether a traceback frame is user code (not from an excluded file)."""
    filename = getattr(getattr(frame, "f_code", frame), "co_filename", "")
    return not any(filename.startswith(p) for p in _exclude_paths)


def api_boundary(fun=None, *, repro_api_name=None, repro_user_func=False):
    """Marks a public entry point (JAX filters its frames from tracebacks); gradpad keeps them."""
    if fun is None:
        return functools.partial(api_boundary, repro_api_name=repro_api_name, repro_user_func=repro_user_func)
    return fun
