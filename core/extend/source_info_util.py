"""`jax.extend.source_info_util`: where in user code each traced operation came from.

gradpad's jaxprs carry no source locations, so these keep the names and scopes JAX's API
offers (libraries register their own files as excluded from tracebacks) without recording them.
"""
from __future__ import annotations

import contextlib
from typing import NamedTuple

_excluded: set = set()


class NameStack(NamedTuple):
    stack: tuple = ()

    def extend(self, name):
        return NameStack(self.stack + (tuple(name) if isinstance(name, (tuple, list)) else (name,)))

    def __str__(self):
        return "/".join(map(str, self.stack))


class SourceInfo(NamedTuple):
    traceback: object = None
    name_stack: NameStack = NameStack()


_current = [SourceInfo()]


def register_exclusion(path: str) -> None:
    """Frames from files under `path` are left out of user-facing tracebacks."""
    _excluded.add(path)


def current() -> SourceInfo:
    return _current[-1]


def current_name_stack() -> NameStack:
    return _current[-1].name_stack


def new_source_info() -> SourceInfo:
    return SourceInfo()


def new_name_stack(name: str = "") -> NameStack:
    return NameStack((name,) if name else ())


def summarize(source_info, num_frames: int = 1) -> str:
    return "unknown"


@contextlib.contextmanager
def _with_name_stack(stack):
    _current.append(SourceInfo(_current[-1].traceback, stack))
    try:
        yield
    finally:
        _current.pop()


def extend_name_stack(name: str):
    return _with_name_stack(current_name_stack().extend(name))


def set_name_stack(name_stack):
    return _with_name_stack(name_stack)


def reset_name_stack():
    return _with_name_stack(NameStack())


def transform_name_stack(name: str):
    return _with_name_stack(current_name_stack().extend(name))


@contextlib.contextmanager
def user_context(traceback, *, name_stack=None):
    _current.append(SourceInfo(traceback, name_stack or current_name_stack()))
    try:
        yield
    finally:
        _current.pop()
