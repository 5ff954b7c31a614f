"""jnp.einsum as JAX runs it: the contraction order JAX gets from opt_einsum (_einsum_path.py), then
each step as JAX's einsum lowers it: sums of labels only one side has, diagonals through a delta
mask, and one dot_general per pair (rhs first when that needs no transpose), in the input dtypes
with the result type as preferred_element_type."""
from __future__ import annotations

import collections

import numpy as np

from ...base import dtypes
from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer, get_aval
from . import _einsum_path

def _shape(x):
    if isinstance(x, (bool, int, float, complex, str, bytes)):
        return ()
    if isinstance(x, (Array, Tracer)):
        return get_aval(x).shape
    return np.shape(x)


def _path_type(optimize):
    if optimize is True:
        return "optimal"
    if optimize is False:
        return _einsum_path.UNOPTIMIZED
    return optimize


def einsum(subscripts, *operands, optimize="auto", precision=None, preferred_element_type=None,
           _dot_general=None):
    from ._util import _check_arraylike
    from ._creation import asarray
    args = tuple(a.__jax_array__() if hasattr(a, "__jax_array__") else a for a in (subscripts,) + operands)
    operands, _, steps, _ = _einsum_path.contract_path(args[0], args[1:], _path_type(optimize), _shape)
    _check_arraylike("einsum", *operands)
    operands = [asarray(o) for o in operands]
    steps = tuple((picked, frozenset(removed), text) for picked, removed, text, *_ in steps)
    return _contract(operands, steps, precision, preferred_element_type, _dot_general or lax.dot_general)


def _strip(names, chars):
    return "".join(c for c in names if c not in chars)


def _delta_mask(shape, axes):
    """True where the labels at `axes` agree (uint32 iotas compared pairwise, and-ed, broadcast)."""
    base = tuple(shape[a] for a in axes)
    iotas = [lax.broadcasted_iota(np.uint32, base, i) for i in range(len(base))]
    eyes = [lax.eq(a, b) for a, b in zip(iotas[:-1], iotas[1:])]
    mask = eyes[0]
    for e in eyes[1:]:
        mask = lax.bitwise_and(mask, e)
    return lax.broadcast_in_dim(mask, shape, tuple(axes))


def _contract(operands, steps, precision, preferred, dot_general):
    if preferred is None:
        preferred, out_weak = dtypes.result_type(*operands, return_weak_type_flag=True)
    else:
        preferred, out_weak = dtypes.canonicalize_dtype(dtypes.as_dtype(preferred, "einsum")), False

    def total(x, axes):
        if dtypes.result_type(x, preferred) != get_aval(x).dtype:
            x = lax._convert_element_type(x, preferred, False)
        axes = tuple(axes)
        return lax.reduce_or(x, axes) if get_aval(x).dtype == np.bool_ else lax.reduce_sum(x, axes)

    def sum_uniques(x, names, uniques):
        if uniques:
            x = total(x, [names.index(n) for n in uniques])
            names = _strip(names, uniques)
        return x, names

    def sum_repeats(x, names, counts, keep):
        for name, count in counts.items():
            if count > 1:
                axes = [i for i, n in enumerate(names) if n == name]
                x = lax.select(_delta_mask(get_aval(x).shape, axes), x, lax.full_like(x, 0))
                if name not in keep:
                    x, names = total(x, axes), names.replace(name, "")
                else:
                    x, names = total(x, axes[:-1]), names.replace(name, "", count - 1)
        return x, names

    def drop_singletons(x, names, other_shape, other_names):
        """Squeeze size-1 axes whose label has a longer counterpart on the other side."""
        shape = get_aval(x).shape
        squeeze = [i for i, n in enumerate(names)
                   if shape[i] == 1 and other_names.find(n) != -1 and other_shape[other_names.find(n)] != 1]
        if squeeze:
            x = lax.squeeze(x, squeeze)
        return x, "".join(n for i, n in enumerate(names) if i not in squeeze)

    operands = list(operands)
    for picked, removed, text in steps:
        contracted = sorted(removed)
        ins, result = text.split("->")
        in_names = ins.split(",")
        if len(picked) == 1:
            x, names = operands.pop(picked[0]), in_names[0]
            counts = collections.Counter(names)
            x, names = sum_uniques(x, names, [n for n in contracted if counts[n] == 1])
            x, names = sum_repeats(x, names, counts, result)
        elif len(picked) == 2:
            lhs, rhs = map(operands.pop, picked)
            ln, rn = in_names
            lhs, ln = drop_singletons(lhs, ln, get_aval(rhs).shape, rn)
            rhs, rn = drop_singletons(rhs, rn, get_aval(lhs).shape, ln)
            lc, rc = collections.Counter(ln), collections.Counter(rn)
            lhs, ln = sum_uniques(lhs, ln, [n for n in contracted if lc[n] == 1 and rc[n] == 0])
            rhs, rn = sum_uniques(rhs, rn, [n for n in contracted if rc[n] == 1 and lc[n] == 0])
            lhs, ln = sum_repeats(lhs, ln, lc, result + rn)
            rhs, rn = sum_repeats(rhs, rn, rc, result + ln)
            contracted = [n for n in contracted if n in set(ln) | set(rn)]
            batch = [n for n in result if n in set(ln) & set(rn)]
            lb, rb = tuple(ln.find(n) for n in batch), tuple(rn.find(n) for n in batch)
            lcont, rcont = tuple(ln.index(n) for n in contracted), tuple(rn.index(n) for n in contracted)
            gone = "".join(batch) + "".join(contracted)
            names = "".join(batch) + _strip(rn, gone) + _strip(ln, gone)
            if names == result:   # rhs first: opt_einsum's steps tend to read right to left
                x = dot_general(rhs, lhs, ((rcont, lcont), (rb, lb)), precision, preferred_element_type=preferred)
            else:
                names = "".join(batch) + _strip(ln, gone) + _strip(rn, gone)
                x = dot_general(lhs, rhs, ((lcont, rcont), (lb, rb)), precision, preferred_element_type=preferred)
        else:
            raise NotImplementedError(
                "jax.numpy.einsum does not support simultaneous contraction of 3 or more operands. Typically "
                "this means you've passed an unsupported path to the einsum optimize parameter.")
        if names != result:
            x = lax.transpose(x, tuple(names.index(n) for n in result))
        operands.append(x)
    return lax._convert_element_type(operands[0], preferred, out_weak)
