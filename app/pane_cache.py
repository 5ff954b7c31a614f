"""A hidden tab's data reused when the function it is computed from is the same.

Most edits leave the analysed function as it was (a print, a comment, another function, the
lines after it), yet each run executes the code again and gets a new function object, so the
Plots and vmap tabs were recomputed (sampling f hundreds of times) for identical results, and
the Timing pane measured the same program on the same input again (`timing_key`).

The key says what those results depend on, as data: f's jaxpr at the input (its text, its
constants' values, the avals in and out with weak types, the output's tree), the input's tree
and values (the Plots tab samples around them), the bytecode of f (and of the hand-batched version the vmap tab compares), its name and
parameters, the input's source text, the backend. What tracing cannot see does not get a key
(f that does not trace: Python control flow on values), so it is always recomputed: the worst
case is a needless recomputation, never another function's plot shown as this one's.
"""
from __future__ import annotations

import types

from app import pane_updates, sandbox

MAX_ENTRIES = 32  # per pane; oldest dropped first


def _code_parts(code: types.CodeType) -> tuple:
    """What a code object computes, without its line numbers (an edit above f moves them)."""
    consts = tuple(_code_parts(c) if isinstance(c, types.CodeType) else (type(c).__name__, repr(c))
                   for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars, code.co_argcount,
            code.co_kwonlyargcount, code.co_flags)


def _bytecode(fn) -> tuple | None:
    """The bytecode of `fn` and of what it wraps (jit, functools.wraps), None if it has none."""
    parts, seen = [], 0
    while fn is not None and seen < 8:
        code = getattr(fn, "__code__", None)
        if code is not None:
            parts.append(_code_parts(code))
            defaults = getattr(fn, "__defaults__", None)
            parts.append(repr(defaults))
        fn = getattr(fn, "__wrapped__", None) or getattr(fn, "fun", None)
        seen += 1
    return tuple(parts) or None


def _aval(v) -> tuple:
    aval = v.aval
    return tuple(aval.shape), str(aval.dtype), bool(getattr(aval, "weak_type", False))


def _key_of(closed, out_tree: str, args) -> tuple:
    """(jaxpr text, constants, avals in and out, trees) of a traced function."""
    import jax
    jaxpr = closed.jaxpr
    return (str(closed), [pane_updates.fingerprint(c) for c in closed.consts],
            [_aval(v) for v in jaxpr.invars], [_aval(v) for v in jaxpr.outvars],
            out_tree, str(jax.tree_util.tree_structure(tuple(args))))


def traced_key(fn, args) -> tuple | None:
    """`_key_of` fn traced at args; None when it does not trace."""
    sandbox.install_jax()
    import jax

    def trace():
        closed, shapes = jax.make_jaxpr(fn, return_shape=True)(*args)
        return _key_of(closed, str(jax.tree_util.tree_structure(shapes)), args)

    with sandbox.captured():  # a print in f runs while tracing: not the learner's output
        key, err = sandbox.guarded_call(trace, seconds=5.0)
    return None if err is not None else key


def f_view_key(a) -> tuple | None:
    """`traced_key` of the analysed function, from the Jaxpr pane's "f" view: f is traced once
    per run for both. Without that view yet (the Plots tab in view), it is made here and kept
    in the analysis, where the Jaxpr pane finds it."""
    from app import analysis  # app.analysis imports this module's neighbours, not this one: no cycle
    view = a.jaxprs.get("f")
    if view is None:
        with sandbox.captured():  # a print in f runs while tracing: not the learner's output
            view = a.jaxprs["f"] = analysis.jaxpr_view(a.function.fn, a.args, "f", a.has_aux)
    if view.error is not None:
        return None
    return _key_of(view.closed, view.out_tree, a.args)


def function_key(a) -> bytes | None:
    """The fingerprint of what the Plots tab shows for analysis `a`, None: not cacheable."""
    if a.function is None or a.args_error is not None:
        return None
    code = _bytecode(a.function.fn)
    traced = f_view_key(a)
    if code is None or traced is None:
        return None
    sandbox.install_jax()
    import jax
    return pane_updates.fingerprint(a.function.name, a.function.params, a.args_source, input_values(a.args),
                                    code, traced, jax.default_backend(), bool(jax.config.jax_enable_x64))


def input_values(args) -> list:
    """The input's leaves, fingerprinted by value: `x0 = ...` changed above `f(x0)` leaves the
    input's text and f's jaxpr as they were, but the plot is drawn around the new values."""
    import jax
    return jax.tree_util.tree_leaves(tuple(args))


def timing_key(base, scale: int, namespace: dict) -> bytes | None:
    """The Timing pane's key: f's (`base`, from `function_key`: the same program, input values
    and backend) at one problem size, and `user_code` of the run's namespace: eager calls run
    f's Python, which can read what tracing never sees (a helper's branch taken only outside
    tracing, a global number only that branch reads)."""
    return None if base is None else pane_updates.fingerprint(base, "timing", scale, user_code(namespace))


SCALARS = (bool, int, float, complex, str, bytes, type(None))


def user_code(namespace: dict) -> list:
    """(name, what it is) for each function and class the learner's code defined (their
    bytecode), and each plain number or string they read as a global: any of them edited is a
    new key (a number the code binds but no function reads, a time measured, is not)."""
    out, read = [], set()
    for name, value in namespace.items():
        if isinstance(value, type) and value.__module__ == "__main__":
            methods = [(k, v) for k, v in vars(value).items() if _is_user(v)]
            out.append((name, "class", [(k, _bytecode(v)) for k, v in methods]))
            for _, v in methods:
                read |= _names_read(v)
        elif _is_user(value):
            out.append((name, "function", _bytecode(value)))
            read |= _names_read(value)
    out += [(name, type(namespace[name]).__name__, repr(namespace[name])) for name in sorted(read)
            if name in namespace and isinstance(namespace[name], SCALARS)]
    return out


def _names_read(fn) -> set:
    """The global names a function's code (and the code nested in it) reads."""
    names, todo = set(), [getattr(fn, "__code__", None)]
    while todo:
        code = todo.pop()
        if code is not None:
            names.update(code.co_names)
            todo += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return names


def _is_user(fn) -> bool:
    """A function of the learner's code (or a wrapper of one: jit, functools.wraps)."""
    from app.sandbox import USER_FILE
    for _ in range(8):
        code = getattr(fn, "__code__", None)
        if code is not None and code.co_filename == USER_FILE:
            return True
        fn = getattr(fn, "__wrapped__", None) or getattr(fn, "fun", None)
        if fn is None:
            return False
    return False


class PaneCache:
    """pane name -> {key: data}, small and most-recent-last."""

    def __init__(self):
        self.entries: dict = {}
        self.hits = 0
        self._memo = (None, None)  # (analysis, its function_key): one trace per run for both tabs

    def function_key(self, a) -> bytes | None:
        if self._memo[0] is not a:
            self._memo = (a, function_key(a))
        return self._memo[1]

    def get(self, pane: str, key):
        if key is None:
            return None
        found = self.entries.get(pane, {}).get(key)
        if found is not None and has_error(found):  # an error came in later (a vmap time): recompute
            del self.entries[pane][key]
            return None
        if found is not None:
            self.hits += 1
        return found

    def put(self, pane: str, key, data) -> None:
        if key is None:
            return
        per = self.entries.setdefault(pane, {})
        per.pop(key, None)
        per[key] = data
        while len(per) > MAX_ENTRIES:
            per.pop(next(iter(per)))


def has_error(data) -> bool:
    """Whether `data` holds an error: not cached (its line numbers and its cause, a time budget
    run out under load, belong to one run)."""
    if isinstance(data, sandbox.ErrorInfo):
        return True
    if isinstance(data, dict):
        return any(has_error(v) for v in data.values())
    if isinstance(data, (list, tuple)):
        return any(has_error(v) for v in data)
    return False


def vmap_key(base, a, in_axes, manual) -> bytes | None:
    """The vmap tab's key: f's (`base`, from `function_key`), the in_axes, and the hand-batched
    version's own (traced on the batch the tab feeds it)."""
    if base is None:
        return None
    manual_part = None
    if manual is not None:
        from app import analysis
        axes = tuple(in_axes) if in_axes is not None else (0,) * len(a.args)
        batched, err = sandbox.guarded_call(analysis.batch_inputs, a.args, axes)
        traced = None if err is not None else traced_key(manual, batched)
        if traced is None or _bytecode(manual) is None:
            return None
        manual_part = (getattr(manual, "__name__", ""), _bytecode(manual), traced)
    return pane_updates.fingerprint(base, None if in_axes is None else tuple(in_axes), manual_part)
