"""`jax.debug`: print and call back at run time, also inside jit/vmap/grad.

`jax.debug.print(fmt, *args, **kwargs)` stages a `debug_print` equation (shown in jaxprs with
JAX's params) that formats the *runtime* values: inside `jit` it prints on every call, not at
trace time; under `vmap` it prints once per example; under `grad` it prints the primal values.
"""
from __future__ import annotations

import builtins
import string

import numpy as np

from ..primitives import define
from ..tracing.rules import batch_rules, jvp_rules
from ..tracing.tracing import bind, get_aval
from ..base.tree_util import tree_flatten, tree_unflatten


def _no_outputs(*avals, **params):
    return []


# ---- debug_print ------------------------------------------------------------------------------

def _print_impl(*vals, fmt, has_placeholders, in_tree, logging_record, np_printoptions, ordered,
                partitioned, static_args):
    args, kwargs = tree_unflatten(in_tree, list(vals))
    with np.printoptions(**dict(np_printoptions)):
        # without placeholders JAX prints the format string and then the arguments
        msg = fmt.format(*args, **kwargs) if has_placeholders else " ".join((fmt, *(str(a) for a in args)))
    if logging_record is not None:  # jax.debug.log: a record of JAX's logger, at INFO
        import copy
        import logging
        record = copy.copy(logging_record)
        record.msg = msg
        logging.getLogger(_LOGGER).handle(record)
    else:
        builtins.print(msg)
    return []


debug_print_p = define("debug_print", abstract_eval=_no_outputs, impl=_print_impl, multiple_results=True)
debug_print_p.effectful = True  # never dead-code-eliminated or constant-folded


def _printoptions_param():
    opts = np.get_printoptions()
    return tuple((k, v) for k, v in opts.items())


def print(fmt: str, *args, ordered: bool = False, partitioned: bool = False,  # noqa: A001
          skip_format_check: bool = False, **kwargs) -> None:
    """Print `fmt.format(*args, **kwargs)` with the values the arrays have at run time."""
    _debug_print(fmt, args, kwargs, ordered, partitioned, None, skip_format_check)


class _UnusedArgsCheck(string.Formatter):
    """Formats nothing; complains, as JAX does, about arguments the format string never uses."""

    def format_field(self, value, format_spec):
        return ""

    def check_unused_args(self, used_args, args, kwargs):
        unused = [a for i, a in enumerate(args) if i not in used_args]
        unused_kw = [k for k in kwargs if k not in used_args]
        if unused:
            raise ValueError(f"Unused positional arguments to `jax.debug.print`: {unused}")
        if unused_kw:
            raise ValueError(f"Unused keyword arguments to `jax.debug.print`: {unused_kw}. You may be passing an "
                             "f-string (i.e, `f\"{x}\"`) into `jax.debug.print` and instead should pass in a regular "
                             "string.")


def _debug_print(fmt, args, kwargs, ordered, partitioned, logging_record, skip_format_check=False):
    if not isinstance(fmt, str):
        raise TypeError(f"jax.debug.print: fmt must be a str, got {type(fmt).__name__}")
    if not skip_format_check:
        _UnusedArgsCheck().format(fmt, *args, **kwargs)
    flat, in_tree = tree_flatten((args, kwargs))
    has_placeholders = any(field is not None for _, field, _, _ in string.Formatter().parse(fmt))
    bind(debug_print_p, *flat, fmt=fmt, has_placeholders=has_placeholders, in_tree=in_tree,
         logging_record=logging_record, np_printoptions=_printoptions_param(), ordered=ordered,
         partitioned=partitioned, static_args=())


# ---- transforms area (issue 11): jax.debug.log and the effect classes ------------------------

_LOGGER = "jax._src.debugging"  # the logger JAX's jax.debug.log writes to (configure it by this name)


def log(fmt: str, *args, ordered: bool = False, partitioned: bool = False, skip_format_check: bool = False,
        **kwargs) -> None:
    """jax.debug.print, but through Python's logging (logger 'jax._src.debugging', level INFO)."""
    import logging
    import sys as _sys
    f = _sys._getframe(1)
    record = logging.getLogger(_LOGGER).makeRecord(_LOGGER, logging.INFO, f.f_code.co_filename, f.f_lineno, "",
                                                   (), None)
    _debug_print(fmt, args, kwargs, ordered, partitioned, record, skip_format_check)


# ---- debug_callback ---------------------------------------------------------------------------

class _Effect:
    def __repr__(self):
        return "Debug"

    __str__ = __repr__


_DEBUG_EFFECT = _Effect()


class DebugEffect(_Effect):
    """The effect of jax.debug.callback / print (JAX's class; instances print as `Debug`)."""


class OrderedDebugEffect(_Effect):
    """The effect of an `ordered=True` debug callback."""

    def __repr__(self):
        return "OrderedDebug"

    __str__ = __repr__


def _callback_impl(*vals, callback, effect, partitioned):
    callback(*vals)
    return []


debug_callback_p = define("debug_callback", abstract_eval=_no_outputs, impl=_callback_impl,
                          multiple_results=True)
debug_callback_p.effectful = True


class _FlatCallback:
    """The `callback` param: unflattens the runtime values and calls the user's function."""

    def __init__(self, fn, in_tree):
        self.fn = fn
        self.in_tree = in_tree

    def __call__(self, *vals):
        from ..tracing.array import Array
        args, kwargs = tree_unflatten(self.in_tree, [Array(np.asarray(v)) for v in vals])
        self.fn(*args, **kwargs)

    def __repr__(self):
        return f"<function debug_callback.<locals>._flat_callback at 0x{id(self):012x}>"

    __str__ = __repr__


def callback(fn, *args, ordered: bool = False, partitioned: bool = False, **kwargs) -> None:
    """Call `fn(*args, **kwargs)` with runtime values (arrays); its result is ignored."""
    flat, in_tree = tree_flatten((args, kwargs))
    bind(debug_callback_p, *flat, callback=_FlatCallback(fn, in_tree), effect=_DEBUG_EFFECT,
         partitioned=partitioned)


# ---- transformation rules shared by both ------------------------------------------------------

def _jvp(prim):
    def rule(primals, tangents, **params):  # print/call with the primal values; no tangents
        bind(prim, *primals, **params)
        return [], []
    jvp_rules[prim] = rule


def _batch(prim):
    def rule(axis_data, vals, dims, **params):  # one print/call per example, like JAX
        for i in range(axis_data.size):
            bind(prim, *[v if d is None else _index(v, d, i) for v, d in zip(vals, dims)], **params)
        return [], []
    batch_rules[prim] = rule


def _index(x, dim, i):
    from ..lax import lax
    return lax.index_in_dim(x, i, dim, keepdims=False)


for _p in (debug_print_p, debug_callback_p):
    _jvp(_p)
    _batch(_p)


# ---- the rest of jax.debug ---------------------------------------------------------------------

def breakpoint(*, backend=None, filter_frames=True, num_frames=None, ordered=False, token=None,  # noqa: A001
               **kwargs):
    """Staged like JAX's: it stops (here: raises) only where execution reaches it, so a breakpoint
    in a `lax.cond` branch that is not taken does nothing."""
    callback(_no_debugger)


def _no_debugger():
    raise NotImplementedError("jax.debug.breakpoint needs an interactive debugger, which the playground "
                              "does not have; use jax.debug.print to look at values instead.")


def visualize_array_sharding(arr, **kwargs) -> None:
    visualize_sharding(get_aval(arr).shape, getattr(arr, "sharding", None) or _default_sharding(), **kwargs)


def visualize_sharding(shape, sharding, *, use_color=True, scale=1.0, min_width=9, max_width=80,
                       color_map=None) -> None:
    """Draw which device holds which block of a 1-D or 2-D array, as a grid of boxes (JAX draws it
    with `rich`; this is plain text). Colour and sizing options are accepted and ignored."""
    if len(shape) not in (1, 2):
        raise ValueError(f"visualize_sharding draws 1-D and 2-D arrays only; got shape {tuple(shape)}")
    shape2 = (1, shape[0]) if len(shape) == 1 else tuple(shape)
    holders = {}
    for device, index in sharding.devices_indices_map(tuple(shape)).items():
        rows, cols = (slice(None), index[0]) if len(shape) == 1 else index
        key = (rows.indices(shape2[0])[:2], cols.indices(shape2[1])[:2])
        holders.setdefault(key, []).append(device)
    row_keys = sorted({r for r, _ in holders})
    col_keys = sorted({c for _, c in holders})
    label = {k: _device_label(v) for k, v in holders.items()}
    width = max(min_width, max(len(t) for t in label.values()) + 2)
    rule = lambda left, mid, right: left + mid.join("─" * width for _ in col_keys) + right
    lines = [rule("┌", "┬", "┐")]
    for i, r in enumerate(row_keys):
        lines.append("│" + "│".join(label[(r, c)].center(width) for c in col_keys) + "│")
        lines.append(rule("├", "┼", "┤") if i < len(row_keys) - 1 else rule("└", "┴", "┘"))
    builtins.print("\n".join(lines))


def _device_label(devices) -> str:
    platform = str(getattr(devices[0], "platform", "cpu")).upper()
    return f"{platform} {','.join(str(d.id) for d in sorted(devices, key=lambda d: d.id))}"


def _default_sharding():
    from ..tracing.array import SingleDeviceSharding
    from ..base.devices import default_device
    return SingleDeviceSharding(default_device())


def inspect_array_sharding(value, *, callback) -> None:
    from ..tracing.array import SingleDeviceSharding
    from ..base.devices import default_device
    callback(SingleDeviceSharding(default_device()))


from ..base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
