"""`jnp.vectorize`: a function on core dimensions (a gufunc signature such as `(n),(n)->()`)
mapped over the broadcast leading dimensions of its arguments with vmap."""
from __future__ import annotations

import functools
import re

import numpy as np

from ...api.api import vmap  # INHERENT: up to the api
from ...tracing.tracing import get_aval

_DIMS = r"\w+"
_CORE = rf"\((?:{_DIMS}(?:,{_DIMS})*)?\)"
_ARGS = rf"{_CORE}(?:,{_CORE})*"
_SIGNATURE = re.compile(rf"^{_ARGS}->{_ARGS}$")


def _parse_signature(signature: str):
    """'(n),(n)->()' -> ([('n',), ('n',)], [()])."""
    sig = signature.replace(" ", "")
    if not _SIGNATURE.match(sig):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = sig.split("->")
    parse = lambda part: [tuple(re.findall(_DIMS, arg)) for arg in re.findall(_CORE, part)]  # noqa: E731
    return parse(ins), parse(outs)


def vectorize(pyfunc, *, excluded=frozenset(), signature=None):
    """Like numpy.vectorize, but the function is mapped with vmap (so it may use jax operations)."""
    excluded = frozenset(excluded)

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        fixed = {i: a for i, a in enumerate(args) if i in excluded}
        fixed_kw = {k: v for k, v in kwargs.items() if k in excluded}
        kwargs = {k: v for k, v in kwargs.items() if k not in excluded}
        names = list(kwargs)
        dyn = [a for i, a in enumerate(args) if i not in excluded] + [kwargs[k] for k in names]

        def call(*xs):
            pos, kw = list(xs[:len(xs) - len(names)]), dict(zip(names, xs[len(xs) - len(names):]))
            for i in sorted(fixed):
                pos.insert(i, fixed[i])
            return pyfunc(*pos, **kw, **fixed_kw)

        in_core = [()] * len(dyn) if signature is None else _parse_signature(signature)[0]
        if len(in_core) != len(dyn):
            raise TypeError(f"wrong number of positional arguments: expected {len(in_core)}, got {len(dyn)}")
        shapes = [get_aval(x).shape if hasattr(x, "shape") or not isinstance(x, (list, tuple))
                  else np.shape(x) for x in dyn]
        sizes: dict = {}
        for shape, core in zip(shapes, in_core):
            if len(shape) < len(core):
                raise ValueError(f"input with shape {shape!r} does not have enough dimensions for all core "
                                 f"dimensions {core!r} on vectorized function with excluded={excluded!r} and "
                                 f"signature={signature!r}")
            for name, size in zip(core, shape[len(shape) - len(core):]):
                if sizes.setdefault(name, size) != size:
                    raise ValueError(f"inconsistent size for core dimension {name!r}: {size} vs {sizes[name]} on "
                                     f"vectorized function with excluded={excluded!r} and signature={signature!r}")
        loop_shapes = [shape[:len(shape) - len(core)] for shape, core in zip(shapes, in_core)]
        loop = np.broadcast_shapes(*loop_shapes) if loop_shapes else ()
        from ._shapes import broadcast_to  # the jnp face (this module is one of its parts)
        dyn = [broadcast_to(x, loop + tuple(shape[len(shape) - len(core):]))
               for x, shape, core in zip(dyn, shapes, in_core)]
        fun = call
        for _ in loop:
            fun = vmap(fun)
        return fun(*dyn)
    return wrapped
