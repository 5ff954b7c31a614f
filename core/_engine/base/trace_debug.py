"""What JAX's errors raised while tracing say about the traced function: "The error occurred while
tracing the function f at file.py:3 for jit. This concrete value was not available in Python
because it depends on the value of the argument x." (JAX 0.10.2's words, for a
ConcretizationTypeError and its subclasses inside jit and make_jaxpr.)

The trace (core._engine.transforms.staging.JaxprBuilder) carries a TraceDebug; the arguments a tracer
depends on are found by walking the equations recorded so far back from it."""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable


@dataclass
class TraceDebug:
    name: str                        # the function's __name__
    where: str                       # "file:line" of its definition (co_firstlineno)
    what: str                        # the transformation tracing it: "jit"
    arg_names: Callable[[], list]    # one name per flat argument (x, d['a'], args[1]), computed on demand

    @staticmethod
    def of(fun, what: str, arg_names: Callable[[], list]) -> "TraceDebug | None":
        try:
            f = inspect.unwrap(fun)
            code = f.__code__
        except (AttributeError, ValueError):  # a builtin, a callable object: JAX's line needs a def
            return None
        return TraceDebug(getattr(f, "__name__", "<unnamed function>"), f"{code.co_filename}:{code.co_firstlineno}",
                          what, arg_names)


def _and(names: list) -> str:
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return ", ".join(names[:-1]) + f", and {names[-1]}"


def depends_on(builder, tracer) -> list[int]:
    """Indices of the builder's argument tracers that `tracer`'s value depends on."""
    needed = {id(tracer)}
    for _prim, ins, _params, outs, _src in reversed(builder.eqns):
        if any(id(o) in needed for o in outs):
            needed.update(id(t) for t in ins)
    return [i for i, t in enumerate(builder.in_tracers) if id(t) in needed]


def tracing_line(tracer) -> str:
    """JAX's line naming the function being traced and the arguments the value depends on, with
    its newline; '' where not known (not inside jit, or no argument reaches the value)."""
    try:
        builder = tracer._trace.main.global_data
        debug = getattr(builder, "debug", None)
        if debug is None:
            return ""
        args = depends_on(builder, tracer)
        if not args:
            return ""
        names = debug.arg_names()
        if len(names) != len(builder.in_tracers):
            return ""
    except Exception:  # noqa: BLE001 - an error message must not fail while being written
        return ""
    picked = [names[i] for i in args]
    which = (f"the value of the argument {picked[0]}" if len(picked) == 1
             else f"the values of the arguments {_and(picked)}")
    return (f"The error occurred while tracing the function {debug.name} at {debug.where} for {debug.what}. "
            f"This concrete value was not available in Python because it depends on {which}.\n")
