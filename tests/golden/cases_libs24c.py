"""Case definitions for libs24c_cases.json (issue 24): engine behaviour that dm-haiku's and distrax's own
test suites (tools/lib_tests.py --libraries haiku distrax) showed gradpad doing differently from real
JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()

# lax.Precision is JAX's enum (gradpad's was a plain class whose DEFAULT was None: haiku's conv tests
# named two parameterized cases 'None' and stopped at collection); dot_general holds a pair.
C("libs24c_precision_enum", "lax", """
P = lax.Precision
out = (str(P.HIGH), repr(P.HIGHEST), P("highest") is P.HIGHEST, P("tensorfloat32") is P.HIGH,
       P("fastest") is P.DEFAULT, P(0) is P.DEFAULT, [p.name for p in P], P.DEFAULT is None)
""")
C("libs24c_precision_in_the_jaxpr", "lax", """
P = lax.Precision
x = jnp.ones((2, 2))
out = (str(jax.make_jaxpr(lambda a: jnp.dot(a, a, precision=P.HIGH))(x)),
       str(jax.make_jaxpr(lambda a: lax.dot(a, a, precision="highest"))(x)),
       str(jax.make_jaxpr(lambda a: jnp.matmul(a, a, precision=(P.HIGH, P.DEFAULT)))(x)),
       jnp.dot(x, x, precision="highest"))
""")
E("libs24c_precision_bad_name", "lax", """
out = lax.dot(jnp.ones((2, 2)), jnp.ones((2, 2)), precision="fast")
""")

# tree transpose counts leaves, as JAX's does: a node that flattens to all its leaves at once (haiku's
# FlatMap) transposes; gradpad matched the structure node by node and refused.
C("libs24c_tree_transpose_flat_node", "pytree", """
class Flat:
    def __init__(self, d):
        self.d = d
def flatten(f):
    leaves, tree = jax.tree.flatten(f.d)
    return leaves, tree
jax.tree_util.register_pytree_node(Flat, flatten, lambda tree, leaves: Flat(jax.tree.unflatten(tree, leaves)))
outer = jax.tree.structure(Flat({"a": 1, "b": 2}))
got = jax.tree.transpose(outer, jax.tree.structure([1, 2]), Flat({"a": [3, 4], "b": [5, 6]}))
out = [g.d for g in got]
""")
E("libs24c_tree_transpose_count_mismatch", "pytree", """
out = jax.tree.transpose(jax.tree.structure([0, 0]), jax.tree.structure((0, 0)), [(1, 2, 3), (4, 5, 6)])
""")

# A trace defined outside the engine with JAX's stackless API, as haiku's to_dot builds one: a
# jax.core.Trace subclass that records each primitive and binds it on the trace it took
# (take_current_trace / set_current_trace / bind_with_trace; Tracer(trace, aval)). gradpad refused
# `Trace()` without a main and set_current_trace of such a trace.
RECORDER = """
c = jax.extend.core
class RecTracer(jax.core.Tracer):
    def __init__(self, trace, val):
        super().__init__(trace, jax.typeof(val))
        self.val = val
    def full_lower(self):
        return self
class RecTrace(jax.core.Trace):
    def __init__(self, parent, tag, log):
        super().__init__()
        self.parent, self.tag, self.log = parent, tag, log
    def to_val(self, v):
        return v.val if isinstance(v, RecTracer) and v._trace.tag is self.tag else v
    def process_primitive(self, prim, tracers, params):
        vals = [self.to_val(t) for t in tracers]
        out = prim.bind_with_trace(self.parent, vals, [jax.typeof(t) for t in tracers], params)
        self.log.append(str(prim))
        return jax.tree.map(lambda v: RecTracer(self, v), out)
def record(f, *args):
    log = []
    with c.take_current_trace() as parent:
        trace = RecTrace(parent, c.TraceTag(), log)
        with c.set_current_trace(trace):
            outs = f(*[RecTracer(trace, a) for a in args])
    return jax.tree.map(trace.to_val, outs), log
f = lambda x, y: (lax.add(lax.mul(lax.sin(x), y), np.float32(1.0)), lax.exp(lax.neg(y)))
"""
C("libs24c_stackless_trace_eager", "core", RECORDER + """
x, y = jnp.arange(3.0), jnp.arange(3.0) + 2.0
outs, log = record(f, x, y)
out = (outs, log)
""")
C("libs24c_stackless_trace_under_jit_and_grad", "core", RECORDER + """
logs = []
def g(x):
    (a, b), log = record(f, x, x)
    logs.append(log)
    return a.sum() + b.sum()
out = (str(jax.make_jaxpr(g)(1.5)), jax.grad(g)(1.5), jax.jit(g)(0.5), logs[0])
""")

# jax.named_call puts the call's equations under its name (gradpad returned the function unchanged:
# haiku's jaxpr_info lost every module's name); a ClosedJaxpr forwards its jaxpr's variables.
C("libs24c_named_call_name_stack", "core", """
f = jax.named_call(lambda x: jnp.sin(x) * 2, name="foo")
def g(x):
    return jax.named_call(lambda y: f(y) + 1.0, name="outer")(x)
def sq(x):
    return x * x
jg = jax.make_jaxpr(g)(1.0)
out = ([str(e.source_info.name_stack) for e in jg.eqns],
       [str(e.source_info.name_stack) for e in jax.make_jaxpr(jax.named_call(sq))(2.0).eqns],
       jax.jit(g)(0.5), jax.grad(g)(0.5), str(jg))
""")
C("libs24c_closed_jaxpr_forwards_variables", "core", """
cj = jax.make_jaxpr(jax.nn.relu)(1.0).eqns[0].params["call_jaxpr"]
out = (len(cj.constvars), [str(v.aval) for v in cj.invars], [str(v.aval) for v in cj.outvars], len(cj.eqns),
       sorted(map(str, cj.effects)))
""")

# has_aux: only traced leaves go through the transformation; any other leaf comes back as it went in
# (gradpad turned each into an array, and refused an object that is no JAX type: haiku's
# stateful.grad returns one).
C("libs24c_aux_leaves_pass_through", "transforms", """
class Thing:
    pass
o = Thing()
r1 = jax.grad(lambda x: (x**2, o), has_aux=True)(3.0)
r2 = jax.value_and_grad(lambda x: (x**2, (o, 'a', 2, x * 2, jnp.ones(2))), has_aux=True)(3.0)
r3 = jax.jvp(lambda x: (x**2, (o, 2, x * 3)), (3.0,), (1.0,), has_aux=True)
r4 = jax.linearize(lambda x: (x**2, (o, 2)), 3.0, has_aux=True)[2]
r5 = jax.jit(jax.grad(lambda x: (x**2, (2, x)), has_aux=True))(3.0)
out = ((r1[1] is o, r2[0][1][0] is o, r3[2][0] is o, r4[0] is o), r1[0], r2[0][0], r2[0][1][1:], r2[1], r3[:2],
       r3[2][1:], r4[1], r5, [type(v).__name__ for v in r2[0][1][1:]])
""")

# cond/switch trace a function given for several branches once (haiku's stateful tests count the traces
# and compare with JAX's count). JAX also reuses a trace across calls (a cache gradpad does not keep).
C("libs24c_same_branch_function_traced_once", "control_flow", """
w = []
def f(x):
    w.append(1)
    return x ** 2
def g(x):
    w.append(2)
    return x ** 3
counts = []
r = [lax.switch(1, [f, g, f, g], 2.0)]
counts.append(list(w)); w.clear()
r.append(lax.cond(True, f, f, 3.0))
counts.append(list(w)); w.clear()
r.append(jax.grad(lambda x: lax.switch(2, [f, g, f], x))(1.5))
r.append(jax.vmap(lambda i, x: lax.switch(i, [g, f, g], x))(jnp.array([0, 1, 2]), jnp.arange(3.0)))
out = (counts, r)
""")

# jax.jit's callable carries the function's own attributes, as functools.wraps copies them (haiku's
# summarise finds a transformed function's original as `jax.jit(f.init)._original_fn`).
C("libs24c_jit_keeps_function_attributes", "jit", """
def f(x):
    return x * 2
f._original_fn = "orig"
f.count = 3
j = jax.jit(f)
out = (getattr(j, "_original_fn", None), getattr(j, "count", None), j.__name__, j(2.0))
""")

# slogdet/det of a batch of matrices, and the gradients of batched slogdet (LU) and cholesky: gradpad
# compared the pivots with an unbatched arange and added an unbatched identity (distrax's
# DiagPlusLowRankLinear with batched parameters: "ne: arrays must have the same number of dimensions").
C("libs24c_batched_slogdet_and_grads", "linalg", """
a = jnp.asarray(np.cos(np.arange(2 * 3 * 3) * 0.7).reshape(2, 3, 3).astype(np.float32) + 2 * np.eye(3, dtype=np.float32))
a = a.at[1].set(a[1][::-1])
spd = jnp.einsum("bij,bkj->bik", a, a) + jnp.eye(3)
out = (jnp.linalg.slogdet(a), jnp.linalg.det(a), jax.jit(jnp.linalg.slogdet)(a), jax.vmap(jnp.linalg.slogdet)(a),
       jnp.linalg.slogdet(a[None]), jax.grad(lambda m: jnp.linalg.slogdet(m)[1].sum())(a),
       jax.grad(lambda m: jnp.linalg.cholesky(m).sum())(spd))
""", rtol=2e-5, atol=1e-6)
