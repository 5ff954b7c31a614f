"""einsum via pairwise dot_general contractions (left to right)."""
from __future__ import annotations

import string

import numpy as np

from ...lax import lax
from ...tracing.tracing import get_aval


def _parse(subscripts, operands):
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        ins, out = subscripts.split("->")
    else:
        ins, out = subscripts, None
    in_specs = ins.split(",")
    if len(in_specs) != len(operands):
        raise ValueError(f"einsum: {len(in_specs)} subscripts for {len(operands)} operands")
    # expand ellipses
    used = set("".join(in_specs).replace(".", ""))
    free_letters = [c for c in string.ascii_letters if c not in used]
    max_ell = 0
    for s, op in zip(in_specs, operands):
        if "..." in s:
            max_ell = max(max_ell, get_aval(op).ndim - (len(s) - 3))
    ell = "".join(free_letters[:max_ell])
    new_specs = []
    for s, op in zip(in_specs, operands):
        if "..." in s:
            k = get_aval(op).ndim - (len(s) - 3)
            s = s.replace("...", ell[max_ell - k:])
        new_specs.append(s)
    if out is None:
        counts = {}
        for s in new_specs:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    return new_specs, out


def _take_diagonal(op, spec):
    """Collapse the first repeated letter of `spec` (e.g. 'ii' -> 'i'): zero the off-diagonal
    entries, then sum out the second occurrence."""
    c = next(ch for ch in spec if spec.count(ch) > 1)
    i = spec.index(c)
    j = spec.index(c, i + 1)
    aval = get_aval(op)
    eye = lax.eq(lax.broadcasted_iota(np.int32, aval.shape, i), lax.broadcasted_iota(np.int32, aval.shape, j))
    op = lax.select(eye, op, lax.full(aval.shape, 0, aval.dtype))
    return lax.reduce_sum(op, (j,)), spec[:j] + spec[j + 1:]


_SUBLIST_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _sublist_letters(sublist):
    """A sublist of ints (0..51) and Ellipsis -> its subscript letters, as numpy maps them."""
    out = []
    for s in sublist:
        if s is Ellipsis:
            out.append("...")
        elif isinstance(s, (int, np.integer)) and 0 <= s < len(_SUBLIST_LETTERS):
            out.append(_SUBLIST_LETTERS[s])
        else:
            raise TypeError(f"For this input type lists must contain either int or Ellipsis; got {s!r}")
    return "".join(out)


def _from_sublists(args):
    """einsum(x, [0, 1], y, [1, 2], [0, 2]) -> ("ab,bc->ac", [x, y]); without the output sublist
    the output is implicit."""
    ops, subs = list(args[0:len(args) - len(args) % 2:2]), args[1::2][:len(args) // 2]
    spec = ",".join(_sublist_letters(s) for s in subs)
    if len(args) % 2:
        spec += "->" + _sublist_letters(args[-1])
    return spec, ops


def einsum(subscripts, *operands, precision=None, preferred_element_type=None):
    from ._creation import asarray
    from ._util import _promote_dtypes
    if not isinstance(subscripts, str):  # the sublist form: operand, sublist, operand, sublist, ...
        subscripts, operands = _from_sublists((subscripts,) + operands)
    operands = _promote_dtypes(*[asarray(o) for o in operands])
    specs, out = _parse(subscripts, operands)
    ops = list(operands)
    # reduce repeated letters within one operand (diagonals) and letters used only once
    for k, (s, op) in enumerate(zip(specs, ops)):
        while len(set(s)) != len(s):
            op, s = _take_diagonal(op, s)
        ops[k], specs[k] = op, s
        others = "".join(sp for j, sp in enumerate(specs) if j != k) + out
        drop = [i for i, c in enumerate(s) if c not in others]
        if drop:
            ops[k] = lax.reduce_sum(op, tuple(drop))
            specs[k] = "".join(c for i, c in enumerate(s) if i not in drop)
    cur, cur_spec = ops[0], specs[0]
    for op, spec in zip(ops[1:], specs[1:]):
        remaining = "".join(specs[specs.index(spec) + 1:])
        keep = set(out) | set(remaining)
        batch = [c for c in cur_spec if c in spec and c in keep]
        contract = [c for c in cur_spec if c in spec and c not in keep]
        dn = ((tuple(cur_spec.index(c) for c in contract), tuple(spec.index(c) for c in contract)),
              (tuple(cur_spec.index(c) for c in batch), tuple(spec.index(c) for c in batch)))
        cur = lax.dot_general(cur, op, dn, precision=precision, preferred_element_type=preferred_element_type or get_aval(cur).dtype)
        lfree = [c for c in cur_spec if c not in batch and c not in contract]
        rfree = [c for c in spec if c not in batch and c not in contract]
        cur_spec = "".join(batch + lfree + rfree)
    # sum out anything not in the output, then permute
    drop = tuple(i for i, c in enumerate(cur_spec) if c not in out)
    if drop:
        cur = lax.reduce_sum(cur, drop)
        cur_spec = "".join(c for c in cur_spec if c in out)
    perm = tuple(cur_spec.index(c) for c in out)
    if perm != tuple(range(len(perm))):
        cur = lax.transpose(cur, perm)
    return cur
