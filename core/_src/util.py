"""`jax._src.util`: only `safe_map` and `safe_zip`, which JAX's own tutorial "Writing custom
Jaxpr interpreters" imports (`from jax._src.util import safe_map`) for its jaxpr evaluator."""
from __future__ import annotations


def safe_map(f, *args):
    """map() that insists its arguments have one length; a list."""
    args = [list(a) for a in args]
    n = len(args[0])
    for i, a in enumerate(args[1:], 2):
        if len(a) != n:
            raise ValueError(f"safe_map() argument {i} is {'shorter' if len(a) < n else 'longer'} than argument 1")
    return list(map(f, *args))


def safe_zip(*args):
    """zip() that insists its arguments have one length; a list of tuples."""
    args = [list(a) for a in args]
    lengths = tuple(len(a) for a in args)
    for i, n in enumerate(lengths[1:], 1):
        if n != lengths[0]:
            raise ValueError(f"safe_zip() argument {i} has length {n} but argument 0 has length {lengths[0]}. "
                             f"All lengths: {lengths}")
    return list(zip(*args))
