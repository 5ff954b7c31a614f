"""The rule tables. A primitive's file fills in every table for that primitive, in one block.

    abstract_eval_rules[p](*avals, **params) -> aval | [avals]
    impl_rules[p](*ndarrays, **params)        -> ndarray | [ndarrays]     (numpy backend)
    jvp_rules[p](primals, tangents, **params) -> (primal_out, tangent_out)
    transpose_rules[p](ct, *args, **params)   -> [ct or None per arg]     (args: UndefinedPrimal = linear)
    batch_rules[p](axis_size, vals, dims, **params) -> (out, out_dim)
    wgsl_rules[p]                             -> WGSL expression template ("sin({0})")
    linearize_rules[p]                        -> for call/control-flow primitives (split known/unknown)
    specialize_rules[p](in_avals, **params)   -> fn(*ndarrays) for these avals, or None (the CPU
                                                 compiler's shape-specialised impl: work that
                                                 depends only on shapes is done once, at compile time)
"""
class _RuleTable(dict):
    """A rule table whose missing entry is JAX's NotImplementedError naming the rule and the
    primitive (a user's `jax.extend.core.Primitive` bound before `def_impl`/`def_abstract_eval`)."""

    def __init__(self, what: str):
        super().__init__()
        self.what = what

    def __missing__(self, prim):
        raise NotImplementedError(f"{self.what} for '{getattr(prim, 'name', prim)}' not implemented")


abstract_eval_rules: dict = _RuleTable("Abstract evaluation")
impl_rules: dict = _RuleTable("Evaluation rule")
jvp_rules: dict = {}
transpose_rules: dict = {}
batch_rules: dict = {}
wgsl_rules: dict = {}
linearize_rules: dict = {}
specialize_rules: dict = {}
partial_eval_jaxpr_rules: dict = {}

# The jaxpr compiler: core/_engine/backends/cpu.py puts itself here when it is imported (core/__init__
# imports it). Eager calls, control flow and jit bodies run their sub-jaxprs through
# `jaxpr_compiler[0].compiled(closed_jaxpr, fma)`: the backends sit above the primitives and the
# api, so those reach the compiler through this slot, not by importing upward.
jaxpr_compiler: list = [None]

# The few operations the transforms emit themselves (ad: zeros, tangent sums; batching: moving and
# broadcasting batch axes). lax and the primitives, which sit above the transforms, fill them in:
# "full", "transpose", "expand_dims" (core/_engine/lax/lax.py), "add_any_p" (primitives/elementwise.py),
# "broadcast_in_dim_p" (primitives/structural.py).
transform_ops: dict = {}
