"""jax.linear_transpose: the transpose of a function promised to be linear, as a pytree (a
Partial over the traced function's constants), through the same transpose rules as grad."""
from __future__ import annotations

from ..tracing.tracing import get_aval
from ..base.tree_util import Partial, tree_flatten, tree_unflatten


def linear_transpose(fun, *primals, reduce_axes=()):
    """`fun` traced at the shapes/dtypes of `primals`; the result maps output cotangents to a tuple
    of input cotangents. A nonlinear primitive has no transpose rule (NotImplementedError)."""
    from .api import ShapeDtypeStruct, _as_array
    from ..transforms import ad
    from ..transforms.staging import trace_to_jaxpr
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to transpose is deprecated")
    flat, in_tree = tree_flatten(primals)
    # primals only give shapes and dtypes: a ShapeDtypeStruct is as good as an array (as in JAX)
    in_avals = [x.aval if isinstance(x, ShapeDtypeStruct) else get_aval(_as_array(x)) for x in flat]
    out_box = []

    def flat_fun(*xs):
        leaves, tree = tree_flatten(fun(*tree_unflatten(in_tree, xs)))
        out_box.append(tree)
        return leaves
    jaxpr, consts = trace_to_jaxpr(flat_fun, in_avals)
    out_tree = out_box[0]
    out_avals = [v.aval for v in jaxpr.outvars]
    in_dtypes, out_dtypes = [a.dtype for a in in_avals], [a.dtype for a in out_avals]
    kinds = {d.kind for d in in_dtypes + out_dtypes}
    if not (kinds <= set("fc") or kinds <= set("iu")):
        raise TypeError("linear_transpose only supports [float or complex] -> [float or complex], and integer -> "
                        f"integer functions, but got {in_dtypes} -> {out_dtypes}.")

    def transposed_fun(consts, out_cotangent):
        cts, ct_tree = tree_flatten(out_cotangent)
        if ct_tree != out_tree:
            raise TypeError(f"cotangent tree does not match function output, expected {out_tree} but got {ct_tree}")
        if not all(get_aval(c).shape == a.shape and get_aval(c).dtype == a.dtype for c, a in zip(cts, out_avals)):
            raise TypeError(f"cotangent type does not match function output, expected {tuple(out_avals)} but got "
                            f"{[_as_array(c) for c in cts]}")
        in_cts = ad.backward_pass(jaxpr, consts, [_as_array(c) for c in cts])
        # (integer -> integer functions keep integer cotangents here, not float0)
        return tree_unflatten(in_tree, [ad.zeros_like_aval(a) if type(c) is ad.Zero else c
                                        for c, a in zip(in_cts, in_avals)])
    return Partial(transposed_fun, consts)
