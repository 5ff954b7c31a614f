"""Where in user code each traced operation came from (`jax.extend.source_info_util` re-exports it).

Staging records, for every equation, the innermost frame of the user's code that was running
when the operation was traced (`JaxprEqn.source_info`): JAX's `summarize` text
`file:line:column (function)`, with the column where the expression starts. Frames inside the
engine (and under paths libraries register) are skipped, as JAX skips its own. Transposition
re-enters the primal equation's source info (`user_context`), so each cotangent equation
points at the line whose primal made it, as in JAX.
"""
from __future__ import annotations

import contextlib
import os
import sys
from typing import NamedTuple

_excluded: set = set()
# core/ (the package's root, however deep this module sits under it)
_ENGINE_DIR = os.path.dirname(os.path.abspath(sys.modules[__name__.partition(".")[0]].__file__)) + os.sep


class Frame(NamedTuple):
    """One frame of user code (JAX's `source_info_util.Frame`)."""
    file_name: str
    function_name: str
    start_line: int
    start_column: int
    end_line: int
    end_column: int


class Scope(NamedTuple):
    """A `jax.named_scope` entry of a name stack."""
    name: str

    def wrap(self, parts: list) -> None:
        parts.append(self.name)


class Transform(NamedTuple):
    """A transformation entry (jvp, vmap, transpose): it wraps the scopes entered inside it."""
    name: str

    def wrap(self, parts: list) -> None:
        if parts:
            parts[-1] = f"{self.name}({parts[-1]})"
        else:
            parts.append(f"{self.name}()")


class NameStack(NamedTuple):
    """JAX's name stack: scopes and transformations, printed `transpose(jvp(layer))/dense`."""
    stack: tuple = ()

    def extend(self, name):
        names = tuple(name) if isinstance(name, (tuple, list)) else (name,)
        return NameStack(self.stack + tuple(n if isinstance(n, (Scope, Transform)) else Scope(n) for n in names))

    def transform(self, name: str):
        return NameStack(self.stack + (Transform(name),))

    def __add__(self, other):
        return NameStack(self.stack + other.stack)

    def __len__(self):
        return len(self.stack)

    def __str__(self):
        parts: list = []
        for entry in reversed(self.stack):
            entry.wrap(parts)
        return "/".join(reversed(parts))


class SourceInfo(NamedTuple):
    traceback: object = None          # a tuple of user Frames, innermost first (None: not recorded)
    name_stack: NameStack = NameStack()


_current = [SourceInfo()]


def register_exclusion(path: str) -> None:
    """Frames from files under `path` are left out of user-facing tracebacks."""
    _excluded.add(path)
    _engine_code.clear()


def current() -> SourceInfo:
    return _current[-1]


def current_name_stack() -> NameStack:
    return _current[-1].name_stack


def new_source_info() -> SourceInfo:
    return SourceInfo()


_NO_FRAMES = SourceInfo(())


def _is_engine_file(name: str) -> bool:
    return name.startswith(_ENGINE_DIR) or any(name.startswith(p) for p in _excluded)


# per code object: is it the engine's (skipped)? per (code, instruction): its Frame. Tracing asks
# for every equation, so both are looked up, not recomputed; cleared when they grow large
# (a playground re-runs new code objects all the time). Keyed by id and checked by identity:
# equal code objects from two files compare equal.
_engine_code: dict = {}
_frames: dict = {}
_positions: dict = {}   # id(code) -> (code, its co_positions() as a list)
_CACHE_LIMIT = 20_000


def _frame_of(f) -> Frame:
    return _frame_entry(f)[1]


def _frame_entry(f) -> tuple:
    """(code, Frame, SourceInfo of that frame alone with no name stack) for f's current line."""
    code, lasti = f.f_code, f.f_lasti
    hit = _frames.get((id(code), lasti))
    if hit is not None and hit[0] is code:
        return hit
    if len(_frames) > _CACHE_LIMIT:
        _frames.clear()
        _positions.clear()
    pos = _positions.get(id(code))
    if pos is None or pos[0] is not code:
        # once per code object: listing a function's positions costs as much as it has
        # instructions, and new code (every edit in the playground) misses once per line
        pos = _positions[id(code)] = (code, list(code.co_positions()))
    pos = pos[1]
    i = lasti // 2
    line, end_line, col, end_col = pos[i] if 0 <= i < len(pos) else (f.f_lineno, f.f_lineno, 0, 0)
    line = f.f_lineno if line is None else line
    # co_qualname (Python 3.11+): JAX names a nested function `outer.<locals>.f`
    frame = Frame(code.co_filename, code.co_qualname, line, col or 0, end_line or line, end_col or 0)
    hit = _frames[(id(code), lasti)] = (code, frame, SourceInfo((frame,), _EMPTY_NAME_STACK))
    return hit


_EMPTY_NAME_STACK = NameStack()


# ids of the engine's code objects seen, each kept alive in `_engine_live` so that no other
# object can reuse its id: a bare set membership test per engine frame walked (most frames are)
_engine_ids: set = set()
_engine_live: list = []


def _is_engine_code(code) -> bool:
    if len(_engine_code) > _CACHE_LIMIT:
        _engine_code.clear()
        _engine_ids.clear()
        _engine_live.clear()
    is_engine = _is_engine_file(code.co_filename)
    _engine_code[id(code)] = (code, is_engine)
    if is_engine:
        _engine_ids.add(id(code))
        _engine_live.append(code)
    return is_engine


def capture(boundary: int | None = None) -> SourceInfo:
    """The source info of an operation traced now: a transposition's primal (entered with
    `user_context`) if one is current, else the innermost frame of user code on the stack above
    the frame whose id is `boundary` (where the enclosing trace began: as in JAX, a jaxpr traced
    inside jnp.where or a cond branch of jnp.sin has no user frame of its own). Runs for every
    traced equation: one cached lookup per frame walked, one shared result per user line."""
    cur = _current[-1]
    if cur.traceback is not None:
        return cur
    engine = _engine_ids
    lookup = _engine_code.get
    f = sys._getframe(2)   # (1: the staging trace's process_primitive, 2: its caller, bind: the engine's own)
    while f is not None and id(f) != boundary:
        code = f.f_code
        if id(code) not in engine:   # user code, or engine code not seen yet
            hit = lookup(id(code))
            if not (hit[1] if hit is not None and hit[0] is code else _is_engine_code(code)):
                entry = _frame_entry(f)
                return entry[2] if not cur.name_stack.stack else SourceInfo((entry[1],), cur.name_stack)
        f = f.f_back
    return _NO_FRAMES if not cur.name_stack.stack else SourceInfo((), cur.name_stack)


def user_frame(source_info) -> Frame | None:
    """The innermost user frame of an equation's source info (None when none was recorded)."""
    frames = getattr(source_info, "traceback", None)
    return frames[0] if frames else None


def new_name_stack(name: str = "") -> NameStack:
    return NameStack((Scope(name),) if name else ())


def summarize(source_info, num_frames: int = 1) -> str:
    """`file:line:column (function)` of the innermost user frames ('' when the operation came
    from inside the engine, 'unknown' when nothing was recorded), as JAX's."""
    frames = getattr(source_info, "traceback", None)
    if frames is None:
        return "unknown"
    return "\n".join(f"{f.file_name}:{f.start_line}:{f.start_column} ({f.function_name})"
                     for f in frames[:num_frames])


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
    return _with_name_stack(current_name_stack().transform(name))


def reentered(source: SourceInfo) -> SourceInfo:
    """The source info under which an equation is bound again (evaluated under a transformation,
    transposed): its own line (else the current one), and its name stack inside the current one,
    as JAX's eval_jaxpr and backward pass do."""
    cur = _current[-1]
    traceback = source.traceback if source.traceback is not None else cur.traceback
    if not cur.name_stack.stack:
        return source if traceback is source.traceback else SourceInfo(traceback, source.name_stack)
    return SourceInfo(traceback, cur.name_stack + source.name_stack)


@contextlib.contextmanager
def user_context(traceback, *, name_stack=None):
    _current.append(SourceInfo(traceback, name_stack or current_name_stack()))
    try:
        yield
    finally:
        _current.pop()


@contextlib.contextmanager
def reemitting(source):
    """Equations bound inside keep `source`, the source info of an equation being re-emitted (a
    checkpoint's recomputed half keeps the line its primal came from)."""
    keep = source is not None and getattr(source, "traceback", None) is not None
    _current.append(reentered(source) if keep else _current[-1])
    try:
        yield
    finally:
        _current.pop()
