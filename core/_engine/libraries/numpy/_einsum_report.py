"""jnp.einsum_path's second result: the printable contraction report JAX gets from opt_einsum
(same fields, costs and layout), for a path already chosen. Pure Python (no opt_einsum in the page)."""
from __future__ import annotations

from decimal import Decimal
from math import prod


def _flops(indices, inner: bool, num_terms: int, sizes: dict) -> int:
    """opt_einsum's cost model: the loop volume times (terms - 1, at least 1, plus 1 for a sum)."""
    return prod(sizes[c] for c in indices) * (max(1, num_terms - 1) + int(inner))


def _blas_kind(inputs: list[str], result: str, removed: frozenset, shapes: list[tuple]):
    """Which BLAS call opt_einsum says a pairwise contraction maps to (False: none)."""
    if len(inputs) != 2:
        return False
    left, right = inputs
    for c in set(left + right):
        nl, nr = left.count(c), right.count(c)
        if nl > 1 or nr > 1 or nl + nr > 2 or nl + nr - 1 == int(c in result):
            return False
    if any(shapes[0][left.find(c)] != shapes[1][right.find(c)] for c in removed):
        return False   # a broadcast (size-1) index is no BLAS contraction
    if not removed:
        return "OUTER/EINSUM"
    kept_left, kept_right, n = set(left) - removed, set(right) - removed, len(removed)
    if left == right:
        return "DOT"
    if set(left) == set(right):
        return "DOT/EINSUM"
    if left[-n:] == right[:n] or left[:n] == right[-n:] or left[-n:] == right[-n:] or left[:n] == right[:n]:
        return "GEMM"
    return "GEMV/EINSUM" if not kept_left or not kept_right else "TDOT"


class PathInfo:
    """The report: print it (its repr is opt_einsum's table)."""

    def __init__(self, subscripts: str, shapes: list[tuple], path: list[tuple]):
        inputs_text, output = subscripts.replace(" ", "").split("->")
        terms = inputs_text.split(",")
        sizes: dict = {}
        for term, shape in zip(terms, shapes):
            for c, d in zip(term, shape):
                sizes[c] = int(d) if sizes.get(c, 1) == 1 else sizes[c]
        indices = frozenset(inputs_text.replace(",", ""))
        inner = sum(len(set(t)) for t in terms) > len(indices)
        self.eq = f"{inputs_text}->{output}"
        self.indices = indices
        self.path = path
        self.naive_cost = Decimal(_flops(indices, inner, len(terms), sizes))
        sets, out_set = [frozenset(t) for t in terms], frozenset(output)
        live, live_shapes = list(terms), [tuple(s) for s in shapes]
        self.contraction_list, self.scale_list, self.size_list, costs = [], [], [], []
        for step, picked in enumerate(path):
            picked = tuple(sorted(picked, reverse=True))
            contracted = frozenset().union(*(sets[i] for i in picked))
            rest = [s for i, s in enumerate(sets) if i not in picked]
            kept = contracted & out_set.union(*rest)
            removed = contracted - kept
            sets = rest + [kept]
            costs.append(_flops(contracted, bool(removed), len(picked), sizes))
            self.scale_list.append(len(contracted))
            self.size_list.append(prod(sizes[c] for c in kept))
            ins = [live.pop(i) for i in picked]
            in_shapes = [live_shapes.pop(i) for i in picked]
            blas = _blas_kind(ins, "".join(kept), removed, in_shapes)
            if step == len(path) - 1:
                result = output
            else:   # tensordot's order: indices as they first appear among the inputs
                joined = "".join(ins)
                result = "".join(sorted(kept, key=joined.find))
            live.append(result)
            live_shapes.append(tuple(sizes[c] for c in result))
            remaining = tuple(live) if len(live) <= 20 else None
            self.contraction_list.append((picked, removed, ",".join(ins) + "->" + result, remaining, blas))
        self.opt_cost = Decimal(sum(costs))
        self.speedup = self.naive_cost / max(self.opt_cost, Decimal(1))
        self.largest_intermediate = Decimal(max(self.size_list, default=1))
        self.output_subscript = output

    def __repr__(self) -> str:
        lines = [
            f"  Complete contraction:  {self.eq}\n",
            f"         Naive scaling:  {len(self.indices)}\n",
            f"     Optimized scaling:  {max(self.scale_list, default=0)}\n",
            f"      Naive FLOP count:  {self.naive_cost:.3e}\n",
            f"  Optimized FLOP count:  {self.opt_cost:.3e}\n",
            f"   Theoretical speedup:  {self.speedup:.3e}\n",
            f"  Largest intermediate:  {self.largest_intermediate:.3e} elements\n",
            "-" * 80 + "\n",
            "{:>6} {:>11} {:>22} {:>37}\n".format("scaling", "BLAS", "current", "remaining"),
            "-" * 80,
        ]
        for scale, (_, _, einsum_str, remaining, blas) in zip(self.scale_list, self.contraction_list):
            rest = ",".join(remaining) + "->" + self.output_subscript if remaining is not None else "..."
            width = max(0, 56 - max(22, len(einsum_str)))
            lines.append("\n{:>4} {:>14} {:>22}    {:>{}}".format(scale, blas, einsum_str, rest, width))
        return "".join(lines)
