"""jnp.einsum_path's second result: the printable contraction report JAX gets from opt_einsum
(same fields, costs and layout), for the steps _einsum_path.contract_path chose. Pure Python (no opt_einsum in the page)."""
from __future__ import annotations

from decimal import Decimal
from math import prod


def _flops(indices, inner: bool, num_terms: int, sizes: dict) -> int:
    """opt_einsum's cost model: the loop volume times (terms - 1, at least 1, plus 1 for a sum)."""
    return prod(sizes[c] for c in indices) * (max(1, num_terms - 1) + int(inner))


class PathInfo:
    """The report: print it (its repr is opt_einsum's table)."""

    def __init__(self, inputs: str, output: str, sizes: dict, path: list[tuple], steps: list[tuple]):
        terms = inputs.split(",")
        indices = frozenset(inputs.replace(",", ""))
        inner = sum(len(set(t)) for t in terms) > len(indices)
        self.eq = f"{inputs}->{output}"
        self.input_subscripts, self.output_subscript = inputs, output
        self.indices, self.path, self.size_dict = indices, path, sizes
        self.naive_cost = Decimal(_flops(indices, inner, len(terms), sizes))
        self.contraction_list, self.scale_list, self.size_list, costs = list(steps), [], [], []
        for picked, removed, text, _, _ in steps:
            step_ins, result = text.split("->")
            joined = frozenset(step_ins.replace(",", ""))
            costs.append(_flops(joined, bool(removed), len(picked), sizes))
            self.scale_list.append(len(joined))
            self.size_list.append(prod(sizes[c] for c in result))
        self.opt_cost = Decimal(sum(costs))
        self.speedup = self.naive_cost / max(self.opt_cost, Decimal(1))
        self.largest_intermediate = Decimal(max(self.size_list, default=1))

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
