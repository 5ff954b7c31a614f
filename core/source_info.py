"""Where in the user's code an equation came from ("file:line:col (function)", JAX's summary), for
`jax.ad_checkpoint.print_saved_residuals`. Recorded only while that asks (a frame walk per staged
equation would slow every trace)."""
from __future__ import annotations

import contextlib
import os
import sys

recording = [False]
_override: list = []  # the source of an equation being re-emitted (a checkpoint's known half)
_ENGINE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_SKIP = (_ENGINE_DIR, os.path.dirname(contextlib.__file__) + os.sep + "contextlib.py",
         os.path.dirname(contextlib.__file__) + os.sep + "functools.py")


def current() -> str | None:
    """The innermost frame outside the engine (and outside contextlib/functools), summarized."""
    if _override:
        return _override[-1]
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_SKIP):
        f = f.f_back
    if f is None:
        return None
    line, col = f.f_lineno, None
    try:
        pos = list(f.f_code.co_positions())[f.f_lasti // 2]
        line, col = pos[0] or line, pos[2]
    except (AttributeError, IndexError):
        pass
    where = f"{f.f_code.co_filename}:{line}" + (f":{col}" if col is not None else "")
    return f"{where} ({f.f_code.co_name})"


@contextlib.contextmanager
def record():
    old = recording[0]
    recording[0] = True
    try:
        yield
    finally:
        recording[0] = old


@contextlib.contextmanager
def reemitting(source):
    """Equations bound inside keep `source` (where the original equation came from)."""
    _override.append(source)
    try:
        yield
    finally:
        _override.pop()
