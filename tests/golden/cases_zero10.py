"""Case definitions for zero10_cases.json (issue 24, stop 38): lineax 0.1.1's test_vmap_jvp and
test_solve's test_grad_vmap_symbolic_cotangent failed on gradpad with "Zero(void[]) ... is not a valid
JAX type". equinox's vprim (the primitive lineax's linear_solve binds) runs its jvp rule under
`jax.vmap` with the rule's symbolic-zero tangents (`ad.Zero`) among the inputs and outputs, and passes
the batch dims it was given on as vmap's `out_axes`. In JAX a `Zero` is a pytree node with no leaves,
so it goes through vmap/jit as structure; and rules get `primals`, `tangents`, `vals`, `dims` as tuples."""
from casebook import recorder

CASES, C, E = recorder()

# a symbolic zero is a leafless pytree node whose data is its aval: vmap/jit may return one unbatched
C("zero10_symbolic_zero_through_vmap_and_jit", "transforms", """
ad = jax.interpreters.ad
zf = ad.Zero(jax.typeof(jnp.float32(1.0)).to_tangent_aval())
zi = ad.Zero(jax.typeof(jnp.int32(1)).to_tangent_aval())
leaves, tree = jax.tree_util.tree_flatten((zf, jnp.ones(2), zi))
back = jax.tree_util.tree_unflatten(tree, leaves)
f = lambda x: (2 * x, zf, zi)
v = jax.vmap(f)(jnp.arange(3.0))
jv = jax.jit(jax.vmap(f))(jnp.arange(3.0))
vj = jax.vmap(jax.jit(f))(jnp.arange(3.0))
g = jax.vmap(lambda x, z: x + 1.0, in_axes=(0, None))(jnp.arange(2.0), zi)
out = (len(leaves), repr(zf), repr(zi), repr(back[0]), repr(back[2]), back[0].aval == zf.aval,
       v[0], repr(v[1]), repr(v[2]), jv[0], repr(jv[1]), repr(jv[2]), vj[0], repr(vj[2]), g,
       str(jax.make_jaxpr(jax.vmap(f))(jnp.ones(3))),
       jax.tree_util.tree_leaves({"a": zf, "b": [zi, 1.0]}), jax.tree_util.tree_map(lambda x: x + 1, [zf, 2.0])[1])
""")

# a primitive in the style of equinox's vprim: its jvp rule is vmapped with the symbolic zeros passed
# unbatched (in_axes None) and returns a Zero for the integer output; its batch rule passes `dims` to
# vmap as out_axes of a tuple of outputs. Under jit, vmap and grad (lineax's failing composition).
C("zero10_vprim_style_rules_under_jit_vmap_grad", "extend", """
ad = jax.interpreters.ad
seen = []
p = jax.extend.core.Primitive('scale_count')
p.multiple_results = True
p.def_impl(lambda x, n: [3.0 * x, n + 1])
p.def_abstract_eval(lambda x, n: [x, n])
def impl_fn(x, n):
    return (3.0 * x, n + 1)
def jvp(primals, tangents):
    seen.append(("jvp", type(primals).__name__, type(tangents).__name__))
    axes_t = [None if type(t) is ad.Zero else 0 for t in tangents]
    def rule(ps, ts):
        x, n = ps
        tx, tn = ts
        tx = tx * 3.0 if type(tx) is not ad.Zero else ad.Zero(tx.aval)
        return p.bind(x, n), (tx, ad.Zero(jax.typeof(n).to_tangent_aval()))
    ps = jax.tree_util.tree_map(lambda x: jnp.expand_dims(x, 0), primals)   # (keeps primals' tuple)
    ts = [t if type(t) is ad.Zero else jnp.expand_dims(t, 0) for t in tangents]
    outs, touts = jax.vmap(rule, in_axes=((0, 0), axes_t), out_axes=0)(ps, ts)
    return [o[0] for o in outs], [t if type(t) is ad.Zero else t[0] for t in touts]
def batch(size, name, trace_type, vals, dims):
    seen.append(("batch", type(vals).__name__, type(dims).__name__))
    outs = jax.vmap(impl_fn, in_axes=dims, out_axes=dims, axis_size=size)(*vals)
    return list(outs), list(dims)
def transpose(cts, x, n):
    ct = cts[0]
    return [None if type(ct) is ad.Zero else 3.0 * ct, None]
ad.primitive_jvps[p] = jvp
ad.primitive_transposes[p] = transpose
jax.interpreters.batching.axis_primitive_batchers[p] = batch
jax.interpreters.mlir.register_lowering(p, jax.interpreters.mlir.lower_fun(impl_fn, multiple_results=True))
n = jnp.arange(4, dtype=jnp.int32)
def loss(x):
    y, m = jax.vmap(jax.jit(lambda a, k: p.bind(a, k)))(x, n)
    return jnp.sum(y * y), m
g, m = jax.grad(loss, has_aux=True)(jnp.arange(4.0))
y, ty = jax.jvp(lambda x: jax.vmap(lambda a, k: p.bind(a, k)[0])(x, n), (jnp.arange(4.0),), (jnp.ones(4),))
sq = lambda a, k: p.bind(a, k)[0] ** 2
# the jvp rule itself runs (its vmap inside) under an outer vmap and jit
g2 = jax.vmap(jax.grad(sq))(jnp.arange(4.0), n)
g3 = jax.jit(jax.vmap(jax.grad(lambda a, k: jax.jit(sq)(a, k))))(jnp.arange(4.0), n)
y4, t4 = jax.vmap(lambda a, k, t: jax.jvp(lambda b: p.bind(b, k), (a,), (t,)))(jnp.arange(4.0), n, jnp.ones(4))
out = (g, m, y, ty, g2, g3, y4, t4[0], t4[1].shape, sorted(set(seen)))   # (t4[1]: float0 in JAX)
""")
