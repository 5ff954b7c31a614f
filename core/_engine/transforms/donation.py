"""jit's donate_argnums / donate_argnames, as JAX on CPU: after an eager call, each donated
input array whose buffer an output of the same size in bytes can take over is deleted (its
buffer now belongs to the output); the others stay, with JAX's warning naming them."""
from __future__ import annotations

import functools
import inspect
import warnings

from ..tracing.array import Array
from ..base.tree_util import tree_leaves, tree_map

_UNUSABLE = ("Some donated buffers were not usable: {}.\n"
             "See an explanation at https://docs.jax.dev/en/latest/faq.html#buffer-donation.")


def donated_positions(fun, donate_argnums, donate_argnames) -> tuple[tuple[int, ...], tuple[str, ...]]:
    nums = (donate_argnums,) if isinstance(donate_argnums, int) else tuple(donate_argnums or ())
    names = (donate_argnames,) if isinstance(donate_argnames, str) else tuple(donate_argnames or ())
    try:
        params = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        params = []
    nums += tuple(params.index(n) for n in names if n in params and params.index(n) not in nums)
    return nums, names


class DonatingJit:
    """A jitted function whose donated inputs are given up after each eager call."""

    def __init__(self, jitted, argnums, argnames):
        self._jitted, self._argnums, self._argnames = jitted, argnums, argnames
        functools.update_wrapper(self, jitted, updated=())

    def __getattr__(self, name):   # lower, trace, eval_shape, ... are the jitted function's
        return getattr(self._jitted, name)

    def __call__(self, *args, **kwargs):
        out = self._jitted(*args, **kwargs)
        donated = [a for i, a in enumerate(args) if i in self._argnums]
        donated += [v for k, v in kwargs.items() if k in self._argnames]
        leaves = [x for x in tree_leaves(donated) if type(x) is Array or isinstance(x, Array)]
        if not leaves:
            return out
        outs = [o for o in tree_leaves(out) if isinstance(o, Array)]
        taken = [False] * len(outs)
        unusable = []
        for x in leaves:
            if x.is_deleted():
                continue
            slot = next((j for j, o in enumerate(outs) if not taken[j] and o.nbytes == x.nbytes), None)
            if slot is None:   # (JAX stays quiet when an output has as many elements, of another width)
                if not any(not t and o.size == x.size for o, t in zip(outs, taken)):
                    unusable.append(x.aval.str_short(short_dtypes=False))
                continue
            taken[slot] = True
            if any(o is x for o in outs):   # the output is the input itself: it keeps a fresh handle
                out = tree_map(lambda o: Array(o._value, o.weak_type, o._device) if o is x else o, out)
                outs = [Array(o._value, o.weak_type, o._device) if o is x else o for o in outs]
            x.delete()
        if unusable:
            warnings.warn(_UNUSABLE.format(", ".join(unusable)), stacklevel=2)
        return out
