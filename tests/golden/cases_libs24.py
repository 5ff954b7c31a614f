"""Case definitions for libs24_cases.json: what the second ring of JAX libraries (numpyro, blackjax,
diffrax/equinox/optimistix/lineax, distrax, jaxopt, haiku) needs of the engine beyond imports:
array operators that give foreign types back to Python (NotImplemented), JAX's old five-argument
lax.cond, PyTreeDef.compose, ShapeDtypeStruct as a tracing argument, CustomVJPPrimal as a leaf."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


FOREIGN = """
class W:
    def __rpow__(self, o): return "rpow"
    def __radd__(self, o): return "radd"
    def __rmul__(self, o): return "rmul"
    def __rmatmul__(self, o): return "rmatmul"
    def __rsub__(self, o): return "rsub"
    def __rtruediv__(self, o): return "rtruediv"
    def __eq__(self, o): return "weq"
    def __gt__(self, o): return "wgt"
x = jnp.arange(3.0)
"""

C("libs24_binop_foreign_reflected", "array", FOREIGN + """
out = (x ** W(), x + W(), x * W(), x @ W(), x - W(), x / W(), x == W(), x < W())
""")
C("libs24_binop_foreign_under_jit", "array", FOREIGN + """
out = jax.jit(lambda a: (a * 2.0) ** 2 if (a ** W()) == "rpow" else a)(x)
""")
C("libs24_binop_eq_none", "array", "x = jnp.arange(3.0)\nout = (x == None, x != None)\n")
C("libs24_binop_add_none_raises", "array", "x = jnp.arange(3.0)\nout = x + None\n", raises=True, msg_prefix=36)
C("libs24_binop_lt_none_raises", "array", "x = jnp.arange(3.0)\nout = x < None\n", raises=True, msg_prefix=25)
C("libs24_binop_add_list_raises", "array", "x = jnp.arange(3.0)\nout = x + [1.0, 2.0, 3.0]\n", raises=True)
C("libs24_binop_radd_tuple_raises", "array", "x = jnp.arange(3.0)\nout = (1.0, 2.0, 3.0) * x\n", raises=True)
C("libs24_binop_add_dict_raises", "array", "x = jnp.arange(3.0)\nout = x - {}\n", raises=True, msg_prefix=36)
C("libs24_binop_numpy_and_scalars_still_work", "array", """
x = jnp.arange(3.0)
out = (x + np.float32(2), x * np.arange(3), 2 ** x, x + True, np.float64(1.5) - x)
""")

C("libs24_cond_five_arguments", "lax", """
out = (lax.cond(True, 1.0, lambda a: a + 1, 2.0, lambda b: b - 1),
       lax.cond(False, 1.0, lambda a: a + 1, 2.0, lambda b: b - 1))
""")
C("libs24_cond_five_arguments_jaxpr", "jaxpr", """
out = str(jax.make_jaxpr(lambda p, u, v: lax.cond(p, u, lambda a: a * 2.0, v, lambda b: jnp.sin(b)))(True, 1.0, 2.0))
""")
C("libs24_cond_five_arguments_grad", "grad", """
out = jax.grad(lambda u, v: lax.cond(u > 0, u, lambda a: a ** 3, v, lambda b: jnp.sin(b)), argnums=(0, 1))(2.0, 0.5)
""")
C("libs24_cond_noncallable_raises", "lax", "out = lax.cond(True, 1.0, 2.0)\n", raises=True)

C("libs24_treedef_compose", "tree", """
o = jax.tree_util.tree_structure((1, 2))
i = jax.tree_util.tree_structure([1, {"a": 1}])
c = o.compose(i)
out = (str(c), c.num_leaves, c.num_nodes, str(jax.tree_util.tree_structure(None).compose(i)),
       str(jax.tree_util.tree_structure(1).compose(i)), str(o.compose(jax.tree_util.tree_structure(None))),
       c == jax.tree_util.tree_structure(([1, {"a": 1}], [1, {"a": 1}])))
""")

C("libs24_shape_dtype_struct_sharding_and_make_jaxpr", "jaxpr", """
s = jax.ShapeDtypeStruct((2, 3), jnp.float32)
out = (s.sharding is None, str(jax.make_jaxpr(lambda a, b: jnp.sin(a) * b)(s, 2.0)),
       str(jax.make_jaxpr(lambda t: t["w"] @ t["v"])({"w": s, "v": jax.ShapeDtypeStruct((3,), jnp.float32)})))
""")

C("libs24_custom_vjp_primal_is_a_leaf", "tree", """
P = jax.custom_derivatives.CustomVJPPrimal
p = P(jnp.ones(2), True)
out = (len(jax.tree_util.tree_leaves(p)), str(jax.tree_util.tree_structure(p)), repr(P(1.0, False)),
       len(jax.tree_util.tree_leaves({"a": p, "b": [P(2.0, False)]})))
""")
