"""`jax.experimental.checkify`: runtime checks as values.

`checkify(f)` runs `f` collecting every `check(pred, msg, *args)` it makes; the failed-check flags
and their formatting arguments come back as an `Error` pytree next to `f`'s output, so they flow
through an outer jit, vmap or grad like any other value. Inside `checkify`, nested `jax.jit`s are
inlined (jit never changes values) so their checks are collected too.

Implemented: user checks (`check`, `check_error`, `debug_check`). Not implemented: the automatic
nan/index/division checks, and checks inside a `vmap` or a `lax` control-flow body nested in the
checkified function; both raise NotImplementedError instead of silently checking nothing.
"""
from __future__ import annotations


import numpy as np

from .. import numpy as jnp
from .._engine.tracing import tracing as _tracing
from .._engine.api.api import disable_jit
from .._engine.tracing.tracing import Tracer
from ..tree_util import register_pytree_node, tree_flatten, tree_unflatten


class JaxRuntimeError(ValueError):
    """Raised by `Error.throw()` (and by a failing `check` outside checkify)."""


class JaxException(Exception):
    pass


class FailedCheckError(JaxException):
    """A `checkify.check` whose predicate was False."""


class NaNError(JaxException):
    pass


class OOBError(JaxException):
    pass


class DivisionByZeroError(JaxException):
    pass


ErrorCategory = type[JaxException]
user_checks = frozenset({FailedCheckError})
nan_checks = frozenset({NaNError})
index_checks = frozenset({OOBError})
div_checks = frozenset({DivisionByZeroError})
float_checks = nan_checks | div_checks
automatic_checks = float_checks | index_checks
all_checks = automatic_checks | user_checks


def _format(msg, payload_tree, leaves) -> str:
    args, kwargs = tree_unflatten(payload_tree, leaves)
    return f"{msg.format(*args, **kwargs)} (`check` failed)"


class Error:
    """The outcome of the checks of one checkified call: per check, whether it failed (a bool
    array: batched under vmap) and the values its message formats."""

    def __init__(self, preds=(), payloads=(), metadata=()):
        self._preds = tuple(preds)
        self._payloads = tuple(payloads)
        self._metadata = tuple(metadata)  # (message, payload treedef) per check

    def _messages(self, index):
        """The message of the first failed check at batch position `index`, or None."""
        for pred, payload, (msg, tree) in zip(self._preds, self._payloads, self._metadata):
            p = np.asarray(pred)
            if bool(p[index] if p.ndim else p):
                # under vmap every output, payloads included, carries the batch axes in front
                leaves = [np.asarray(v)[index] if index else np.asarray(v) for v in payload]
                return _format(msg, tree, leaves)
        return None

    def get(self):
        """The failure message (one line per failing batch element under vmap), or None."""
        if not self._preds:
            return None
        shape = np.shape(self._preds[0])
        if not shape:
            return self._messages(())
        lines = []
        for index in np.ndindex(*shape):
            m = self._messages(index)
            if m is not None:
                lines.append(f"at mapped index {', '.join(map(str, index))}: {m}")
        return "\n".join(lines) or None

    def get_exception(self):
        m = self.get()
        return None if m is None else JaxRuntimeError(m)

    def throw(self):
        exc = self.get_exception()
        if exc is not None:
            raise exc

    def __repr__(self):
        return f"Error(_preds={self._preds!r}, _metadata={self._metadata!r})"


register_pytree_node(Error, lambda e: ((e._preds, e._payloads), e._metadata),
                     lambda meta, c: Error(c[0], c[1], meta))

init_error = Error()


class _Collector:
    def __init__(self, level):
        self.level = level
        self.preds, self.payloads, self.metadata = [], [], []


_collectors: list = []


def _innermost_level() -> int:
    dyn = _tracing.dynamic_trace
    level = len(_tracing.trace_stack) - 1
    return max(level, dyn.level) if dyn is not None else level


def _check_payload(fmt_args, fmt_kwargs):
    leaves, tree = tree_flatten((fmt_args, fmt_kwargs))
    for x in leaves:
        if not (isinstance(x, Tracer) or hasattr(x, "aval") or isinstance(x, (np.ndarray, np.generic))):
            raise TypeError("Formatting arguments to checkify.check need to be PyTrees of arrays, but got "
                            f"{x!r} of type {type(x)}.")
    return leaves, tree


def _record(collector, failed, leaves, tree, msg):
    if isinstance(failed, Tracer) and failed._trace.main.level > collector.level:
        raise NotImplementedError(
            "checkify: this check runs inside a transformation (vmap, or a lax control-flow body) nested in "
            "the checkified function; gradpad cannot carry it out. Apply checkify inside that transformation "
            "(e.g. vmap(checkify(f))) or move the check out of the loop or branch.")
    collector.preds.append(failed)
    collector.payloads.append(list(leaves))
    collector.metadata.append((msg, tree))


def check(pred, msg: str, *fmt_args, **fmt_kwargs) -> None:
    """Assert `pred` (a boolean scalar or array: all must hold) with a message formatted by
    `msg.format(*fmt_args, **fmt_kwargs)` from the values the arrays have at run time."""
    leaves, tree = _check_payload(fmt_args, fmt_kwargs)
    failed = jnp.logical_not(jnp.all(pred))
    if _collectors:
        _record(_collectors[-1], failed, leaves, tree, msg)
        return
    if isinstance(failed, Tracer) and failed.to_concrete_value() is None:
        raise ValueError("Cannot abstractly evaluate a checkify.check which was not functionalized. This probably "
                         "means you tried to stage (jit/scan/pmap/...) a `check` without functionalizing it "
                         "through `checkify.checkify`.")
    if bool(failed):
        raise JaxRuntimeError(_format(msg, tree, [np.asarray(v) for v in leaves]))


def debug_check(pred, msg: str, *fmt_args, **fmt_kwargs) -> None:
    """A check that is only carried out under checkify (elsewhere it does nothing)."""
    if _collectors:
        check(pred, msg, *fmt_args, **fmt_kwargs)


def check_error(error: Error) -> None:
    """Re-raise (outside checkify) or re-inject (inside) the checks of an Error value."""
    if not _collectors:
        error.throw()
        return
    for pred, payload, (msg, tree) in zip(error._preds, error._payloads, error._metadata):
        _record(_collectors[-1], pred, payload, tree, msg)


def checkify(f, errors=user_checks):
    """`checkify(f)(*args) -> (Error, f(*args))`."""
    unsupported = set(errors) - set(user_checks)
    if unsupported:
        names = sorted(e.__name__ for e in unsupported)
        raise NotImplementedError(f"checkify: the automatic checks {names} are not implemented in gradpad; "
                                  "use errors=checkify.user_checks (checks written with checkify.check).")

    def checked(*args, **kwargs):
        collector = _Collector(_innermost_level())
        _collectors.append(collector)
        try:
            with disable_jit():  # nested jits are traced inline, so their checks land here
                out = f(*args, **kwargs)
        finally:
            _collectors.pop()
        return Error(collector.preds, collector.payloads, collector.metadata), out
    return checked


__all__ = ["Error", "ErrorCategory", "JaxRuntimeError", "all_checks", "automatic_checks", "check", "check_error",
           "checkify", "debug_check", "div_checks", "float_checks", "index_checks", "init_error", "nan_checks",
           "user_checks"]
