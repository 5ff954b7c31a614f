"""The functions jax.vjp and jax.linearize return are pytrees of their residuals, as in JAX:
they flatten, map and pass through jit, and calling the rebuilt function uses the new leaves.

`VJP` keeps JAX's split: the primal inputs the backward pass reuses (`args_res`, in argument
order; None where not needed) and the other residuals (`opaque_residuals`). A Python scalar
input stays out of the leaves (JAX inlines it as a literal)."""
from __future__ import annotations

from ..tracing.array import Array
from ..base.tree_util import Partial, register_pytree_node


class VJP:
    __slots__ = ("fun", "args_res", "opaque_residuals")

    def __init__(self, fun, args_res, opaque_residuals):
        self.fun = fun  # fun(residuals in linearize order, cotangent)
        self.args_res = list(args_res)
        self.opaque_residuals = list(opaque_residuals)

    def __call__(self, ct, *extra):
        if extra:
            name = getattr(self.fun, "primal_name", "the function")
            raise TypeError(f"\nThe function returned by `jax.vjp` applied to {name} was called with "
                            f"{len(extra) + 1} arguments,\nbut it takes exactly one: the cotangent of the single "
                            "value the differentiated function returned, even when that value is a tuple or "
                            "another container. For `f(x) = (x, x)`, call `f_vjp((2.0, 2.0))`, not "
                            "`f_vjp(2.0, 2.0)`.")
        return self.fun(self.args_res, self.opaque_residuals, ct)

    def __repr__(self):
        return f"VJP(args_res={self.args_res}, opaque_residuals={self.opaque_residuals})"


register_pytree_node(VJP, lambda v: ((v.args_res, v.opaque_residuals), v.fun),
                     lambda fun, kids: VJP(fun, *kids))


def make_vjp(call, primals, was_array, residuals, primal_name="the function"):
    """A VJP over `call(residuals, *cts)`: residuals that are array primal inputs become args_res."""
    position = {id(p): i for i, p in enumerate(primals) if was_array[i]}
    spec, opaque, static = [], [], []
    args_res = [None] * len(primals)
    for r in residuals:
        i = position.get(id(r))
        if i is not None:
            args_res[i] = r
            spec.append(("arg", i))
        elif any(r is p for p, w in zip(primals, was_array) if not w):
            spec.append(("static", len(static)))
            static.append(r)
        else:
            spec.append(("opaque", len(opaque)))
            opaque.append(r)

    def fun(args_res, opaque_res, *cts):
        source = {"arg": args_res, "opaque": opaque_res, "static": static}
        return call([source[kind][i] for kind, i in spec], *cts)
    fun.primal_name = primal_name
    return VJP(fun, args_res, opaque)


def make_linear_fn(call, residuals):
    """linearize's f_jvp: a Partial whose leaves are the residuals (in linearize order)."""
    return Partial(call, list(residuals))


def is_array_input(x) -> bool:
    return isinstance(x, Array) or hasattr(x, "_trace")
