"""Case definitions for surfaces_cases.json: the public surfaces JAX libraries (optax, chex,
equinox, flax) import: jax.typing, jax.Device, jax.sharding, jax.stages, jax.custom_derivatives,
jax.dtypes extensions, flag context managers, jax.experimental.layout, jax.nn.initializers,
jax.core / jax.extend / jax.interpreters, tree_util's keyed API and the callbacks."""
import importlib
from casebook import recorder

# Snippets cannot import, and real JAX does not import these submodules with `import jax`: the
# generator (which runs this file with real JAX) imports them here, as user code would.
for _sub in ("jax.extend", "jax.extend.core", "jax.experimental", "jax.experimental.checkify", "jax.flatten_util",
             "jax.test_util"):
    try:
        importlib.import_module(_sub)
    except ImportError:  # loaded without jax (e.g. by a linter): nothing to prepare
        pass

CASES, C, E = recorder()


# ---------------------------------------------------------------- jax.typing, jax.Device, version
C("typing_arraylike_isinstance", "surfaces",
  "out = [isinstance(v, jax.typing.ArrayLike) for v in (jnp.ones(2), np.ones(2), 1, 2.0, True, np.float32(1), 'a', [1.0])]")
E("typing_dtypelike_isinstance", "surfaces",
  "out = [isinstance(v, jax.typing.DTypeLike) for v in ('float32', np.dtype('int32'), jnp.float32, 3)]")
C("device_isinstance", "surfaces", "out = (isinstance(jax.devices()[0], jax.Device), isinstance(jnp.ones(2).device, jax.Device))")
C("version_info", "surfaces", "out = (jax.__version_info__, jax.version.__version__, jax.version.__version_info__)")
C("float0_dtype", "surfaces", "out = (str(jax.float0), jax.dtypes.float0 == jax.float0)")

# ---------------------------------------------------------------- jax.sharding (one device)
# (the device is named explicitly: every golden case also runs with WebGPU as the default device)
C("sharding_single_device_repr", "surfaces", """
cpu = jax.devices('cpu')[0]
out = (repr(jax.sharding.SingleDeviceSharding(cpu)), repr(jax.device_put(jnp.ones(3), cpu).sharding),
       jnp.ones(3).sharding == jax.sharding.SingleDeviceSharding(jnp.ones(3).device))
""")
C("sharding_single_device_props", "surfaces", """
s = jnp.ones(3).sharding
out = (s.is_fully_replicated, s.is_fully_addressable, s.num_devices, s.memory_kind, s.shard_shape((4, 3)),
       s == jax.sharding.SingleDeviceSharding(jax.devices()[0]), isinstance(s, jax.sharding.Sharding))
""")
C("sharding_partition_spec", "surfaces",
  "out = (repr(jax.P('a', None)), repr(jax.P()), repr(jax.P(('a', 'b'), None)), jax.P('a') == ('a',), "
  "len(jax.P('a', None)), jax.P('a', None) == jax.sharding.PartitionSpec('a', None), "
  "jax.sharding.PartitionSpec is jax.P, tuple(jax.P('x', None)))")
C("sharding_mesh_repr", "surfaces", """
m = jax.sharding.Mesh(np.array(jax.devices()), ('x',))
out = (repr(m), dict(m.shape), m.axis_names, m.size, m.axis_types == (jax.sharding.AxisType.Auto,))
""")
C("sharding_make_mesh_explicit", "surfaces", "out = repr(jax.make_mesh((1,), ('x',)))")
C("sharding_named_repr", "surfaces", """
m = jax.make_mesh((1,), ('x',))
ns = jax.NamedSharding(m, jax.P('x'))
out = (repr(ns), ns.spec == jax.P('x'), ns.is_fully_replicated, ns.num_devices, ns.shard_shape((4,)))
""")
C("sharding_abstract_mesh", "surfaces",
  "out = (repr(jax.sharding.AbstractMesh((2, 3), ('x', 'y'))), repr(jax.sharding.get_abstract_mesh()), "
  "dict(jax.sharding.AbstractMesh((2,), ('x',)).shape))")
C("sharding_axis_type", "surfaces", "out = [repr(t) for t in jax.sharding.AxisType]")
C("sharding_device_put_named", "surfaces", """
m = jax.sharding.Mesh(np.array(jax.devices()), ('x',))
y = jax.device_put(jnp.arange(3.0), jax.NamedSharding(m, jax.P()))
out = (y, jax.jit(lambda v: v * 2)(y))
""")
E("sharding_named_bad_axis", "surfaces",
  "out = jax.NamedSharding(jax.sharding.Mesh(np.array(jax.devices()), ('x',)), jax.P('y'))")
E("sharding_named_spec_not_pspec", "surfaces",
  "out = jax.NamedSharding(jax.sharding.Mesh(np.array(jax.devices()), ('x',)), ('x',))", msg_prefix=44)

# ---------------------------------------------------------------- jax.stages
C("stages_trace_lower_compile", "surfaces", """
f = jax.jit(lambda x: x * 2.0)
t = f.trace(jnp.ones(2))
c = f.lower(jnp.ones(2)).compile()
out = (str(t.jaxpr), isinstance(t, jax.stages.Traced), isinstance(f.lower(jnp.ones(2)), jax.stages.Lowered),
       isinstance(c, jax.stages.Compiled), c(jnp.arange(2.0)), str(c.in_tree), str(c.out_tree),
       c.args_info[0][0].shape, str(c.args_info[0][0].dtype))
""")

# ---------------------------------------------------------------- jax.custom_derivatives
C("custom_derivatives_names", "surfaces",
  "out = (jax.custom_derivatives.custom_jvp is jax.custom_jvp, jax.custom_derivatives.custom_vjp is jax.custom_vjp, "
  "str(jax.custom_derivatives.custom_jvp_call_p))")
C("custom_derivatives_zero_from_primal", "surfaces", """
z = jax.custom_derivatives.zero_from_primal({'a': jnp.ones(2), 'b': 3})
s = jax.custom_derivatives.zero_from_primal(jnp.ones(2), symbolic_zeros=True)
out = (z['a'], str(z['b'].dtype), repr(s), s.shape, str(s.dtype))
""")
C("custom_derivatives_vjp_primal", "surfaces", """
P = jax.custom_derivatives.CustomVJPPrimal
t = {'a': P(jnp.ones(2), True), 'b': P(2.0, False)}
out = (jax.custom_derivatives.custom_vjp_primal_tree_values(t), repr(P(1.0, False)))
""")
C("custom_derivatives_closure_convert", "surfaces", """
c = jnp.arange(3.0)
g, consts = jax.custom_derivatives.closure_convert(lambda x: jnp.sin(x) * c, jnp.ones(3))
out = (g(jnp.full(3, 0.5), *consts), len(consts))
""")
C("custom_derivatives_closure_convert_tracer", "surfaces", """
def outer(c):
    g, consts = jax.custom_derivatives.closure_convert(lambda x: jnp.sin(x) * c, jnp.ones(3))
    return g(jnp.full(3, 0.5), *consts).sum() + len(consts)
out = jax.grad(outer)(jnp.arange(3.0))
""")

# ---------------------------------------------------------------- jax.dtypes extensions, flags
C("dtypes_prng_key_subdtype", "surfaces", """
k = jax.random.key(0)
out = (jax.dtypes.issubdtype(k.dtype, jax.dtypes.prng_key), jax.dtypes.issubdtype(k.dtype, jax.dtypes.extended),
       jax.dtypes.issubdtype(k.dtype, jnp.floating), jax.dtypes.issubdtype(jnp.float32, jax.dtypes.extended),
       jax.dtypes.issubdtype(jnp.float32, jnp.floating), jax.dtypes.issubdtype(jax.dtypes.prng_key, jax.dtypes.extended))
""")
C("dtypes_itemsize_scalar_type", "surfaces",
  "out = (jax.dtypes.itemsize_bits(jnp.float32), jax.dtypes.itemsize_bits(jnp.int8), "
  "str(jax.dtypes.scalar_type_of(1.0)), str(jax.dtypes.scalar_type_of(jnp.ones(2, jnp.int32))))")
# JAX lists the dtypes in set order (it varies between runs): compare the start only
E("dtype_promotion_strict", "surfaces", """
with jax.numpy_dtype_promotion('strict'):
    out = jnp.ones(2, jnp.int32) + jnp.ones(2)
""", msg_prefix=13)
C("dtype_promotion_strict_weak_ok", "surfaces", """
with jax.numpy_dtype_promotion('strict'):
    a = jnp.ones(2) + 1.0
out = (a, jnp.ones(2, jnp.int32) + jnp.ones(2), jax.config.jax_numpy_dtype_promotion)
""")
E("dtype_promotion_bad_value", "surfaces", """
with jax.numpy_dtype_promotion('bad'):
    out = 1
""")
C("enable_x64_context", "surfaces", """
with jax.enable_x64(True):
    a = jnp.ones(2)
out = (a, jnp.ones(2), jax.numpy_rank_promotion('raise') is not None)
""")

# ---------------------------------------------------------------- jax.nn.initializers (bit-exact)
INIT = "jax.nn.initializers"
for _name in ("glorot_uniform", "glorot_normal", "lecun_uniform", "lecun_normal", "he_uniform", "he_normal",
              "xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal", "orthogonal"):
    # bit-exact on the CPU (tests/test_surfaces.py asserts it from this data); the tolerance is for
    # the WebGPU run of every case (its erf_inv differs in the last ulps) and for orthogonal's QR
    # (numpy's LAPACK here, XLA's in JAX)
    C(f"init_{_name}", "surfaces", f"out = {INIT}.{_name}()(jax.random.key(42), (3, 4), jnp.float32)",
      **(dict(rtol=1e-5, atol=1e-6) if _name == "orthogonal" else dict(rtol=1e-6, atol=1e-7)))
C("init_variance_scaling_modes", "surfaces", f"""
k = jax.random.key(1)
out = [{INIT}.variance_scaling(0.5, m, d)(k, (2, 3, 4)) for m in ('fan_in', 'fan_out', 'fan_avg', 'fan_geo_avg')
       for d in ('truncated_normal', 'normal', 'uniform')]
""", rtol=1e-6, atol=1e-7)
C("init_variance_scaling_axes", "surfaces", f"""
k = jax.random.key(3)
out = ({INIT}.variance_scaling(1.0, 'fan_in', 'normal', in_axis=(0, 1), out_axis=-1, batch_axis=2)(k, (2, 3, 2, 4)),
       {INIT}.lecun_normal(in_axis=0, out_axis=0)(k, (5,)))
""", rtol=1e-6, atol=1e-7)
C("init_variance_scaling_complex", "surfaces", f"""
k = jax.random.key(7)
out = ({INIT}.glorot_uniform()(k, (2, 3), jnp.complex64), {INIT}.glorot_normal()(k, (2, 3), jnp.complex64))
""", rtol=1e-6, atol=1e-7)
C("init_simple", "surfaces", f"""
k = jax.random.key(0)
out = ({INIT}.normal()(k, (3,)), {INIT}.normal(2.0)(k, (2, 2)), {INIT}.uniform()(k, (3,)), {INIT}.uniform(5.0)(k, (2,)),
       {INIT}.truncated_normal()(k, (4,)), {INIT}.truncated_normal(1.0, lower=-1.0, upper=0.5)(k, (4,)),
       {INIT}.constant(3)(k, (2,)), {INIT}.constant(-1.5, jnp.int32)(k, (2,)), {INIT}.zeros(k, (2,)),
       {INIT}.ones(k, (2,), jnp.int32), {INIT}.normal(dtype=jnp.float16)(k, (2,)))
""", rtol=1e-6, atol=1e-7)
C("init_orthogonal_shapes", "surfaces", f"""
k = jax.random.key(5)
out = ({INIT}.orthogonal()(k, (4, 2)), {INIT}.orthogonal(2.0, column_axis=0)(k, (2, 3, 2)), {INIT}.orthogonal()(k, (0, 3)))
""", rtol=1e-6, atol=1e-6)
C("init_delta_orthogonal", "surfaces", f"out = {INIT}.delta_orthogonal()(jax.random.key(5), (3, 3, 2, 2))",
  rtol=1e-6, atol=1e-6)
E("init_fans_1d", "surfaces", f"out = {INIT}.glorot_uniform()(jax.random.key(0), (3,))")
E("init_bad_mode", "surfaces", f"out = {INIT}.variance_scaling(1.0, 'fan', 'normal')(jax.random.key(0), (3, 2))")
E("init_bad_distribution", "surfaces", f"out = {INIT}.variance_scaling(1.0, 'fan_in', 'cauchy')(jax.random.key(0), (3, 2))")
E("init_orthogonal_1d", "surfaces", f"out = {INIT}.orthogonal()(jax.random.key(0), (3,))")
E("init_delta_orthogonal_2d", "surfaces", f"out = {INIT}.delta_orthogonal()(jax.random.key(0), (3, 3))")
C("init_under_jit", "surfaces", f"out = jax.jit(lambda k: {INIT}.he_uniform()(k, (2, 3)))(jax.random.key(9))",
  rtol=1e-6, atol=1e-7)
C("init_legacy_key", "surfaces", f"out = {INIT}.lecun_normal()(jax.random.PRNGKey(0), (2, 2))", rtol=1e-6, atol=1e-7)

# ---------------------------------------------------------------- jax.core
C("core_tracer_isinstance", "surfaces", """
seen = []
jax.jit(lambda x: seen.append((isinstance(x, jax.core.Tracer), isinstance(x, jax.core.Trace))) or x)(1.0)
out = (seen[0], isinstance(jnp.ones(2), jax.core.Tracer))
""")
C("core_shaped_array", "surfaces", """
a = jax.core.ShapedArray((2, 3), jnp.float32)
out = (str(a), a.shape, str(a.dtype), a.ndim, a.size, isinstance(a, jax.core.AbstractValue), a.weak_type,
       a == jax.core.ShapedArray((2, 3), jnp.float32), str(a.update(shape=(4,))))
""")
C("core_eval_jaxpr", "surfaces", """
cj = jax.make_jaxpr(lambda x, y: jnp.sin(x) * y + 1.0)(1.0, jnp.arange(3.0))
out = jax.core.eval_jaxpr(cj.jaxpr, cj.consts, 0.5, jnp.arange(3.0))
""")
C("core_eval_jaxpr_under_grad", "surfaces", """
cj = jax.make_jaxpr(lambda x: x ** 3)(1.0)
out = jax.grad(lambda x: jax.core.eval_jaxpr(cj.jaxpr, cj.consts, x)[0])(2.0)
""")
C("core_misc_names", "surfaces", """
with jax.core.eval_context():
    a = jnp.ones(2) * 2
out = (jax.core.min_dim(3, 5), jax.core.max_dim(3, 5), a)
""")

# ---------------------------------------------------------------- a library's own primitive
# jax.extend is imported by this module in the generator (snippets cannot import), as user code would.
PRIM_CUBE = """
p = jax.extend.core.Primitive('cube')
p.def_impl(lambda x: x ** 3)
p.def_abstract_eval(lambda a: jax.core.ShapedArray(a.shape, a.dtype))
ad = jax.interpreters.ad
jax.interpreters.ad.primitive_jvps[p] = lambda primals, tangents: (
    p.bind(primals[0]), 3 * primals[0] ** 2 * ad.instantiate_zeros(tangents[0]))
jax.interpreters.batching.primitive_batchers[p] = lambda vals, dims: (p.bind(vals[0]), dims[0])
jax.interpreters.mlir.register_lowering(p, jax.interpreters.mlir.lower_fun(lambda x: x ** 3, multiple_results=False))
f = lambda x: p.bind(x)
"""
C("prim_eager_jit_vmap_grad", "surfaces", PRIM_CUBE + """
out = (f(2.0), f(jnp.arange(3.0)), jax.jit(f)(jnp.arange(3.0)), jax.vmap(f)(jnp.arange(3.0)), jax.grad(f)(2.0),
       jax.jit(jax.grad(f))(3.0), jax.vmap(jax.grad(f))(jnp.arange(3.0)), jax.grad(lambda x: jax.jit(f)(x))(2.0),
       jax.jacfwd(f)(1.5), jax.vmap(jax.vmap(f))(jnp.arange(4.0).reshape(2, 2)))
""")
C("prim_jaxpr_text", "surfaces", PRIM_CUBE + """
out = (str(jax.make_jaxpr(f)(1.0)), str(jax.make_jaxpr(jax.vmap(f))(jnp.ones(3))),
       str(jax.make_jaxpr(lambda x: f(x) + 1.0)(jnp.ones(2))))
""")
C("prim_linear_transpose", "surfaces", """
p = jax.extend.core.Primitive('scale2')
p.def_impl(lambda x: 2 * x)
p.def_abstract_eval(lambda a: a)
jax.interpreters.ad.deflinear2(p, lambda ct, x: [2 * ct])
jax.interpreters.batching.defvectorized(p)
jax.interpreters.mlir.register_lowering(p, jax.interpreters.mlir.lower_fun(lambda x: 2 * x, multiple_results=False))
g = lambda x: jnp.sum(p.bind(jnp.sin(x)))
out = (jax.grad(g)(jnp.arange(3.0)), jax.jit(jax.grad(g))(jnp.arange(3.0)), jax.jvp(g, (1.0,), (1.0,)),
       jax.vmap(jax.grad(g))(jnp.arange(4.0).reshape(2, 2)))
""")
C("prim_multiple_results", "surfaces", """
p = jax.extend.core.Primitive('sincos')
p.multiple_results = True
p.def_impl(lambda x: [jnp.sin(x), jnp.cos(x)])
p.def_abstract_eval(lambda a: [a, a])
def jvp(primals, tangents):
    x, = primals
    t = jax.interpreters.ad.instantiate_zeros(tangents[0])
    s, c = p.bind(x)
    return [s, c], [c * t, -s * t]
jax.interpreters.ad.primitive_jvps[p] = jvp
jax.interpreters.batching.primitive_batchers[p] = lambda vals, dims: (p.bind(*vals), [dims[0], dims[0]])
jax.interpreters.mlir.register_lowering(p, jax.interpreters.mlir.lower_fun(lambda x: [jnp.sin(x), jnp.cos(x)]))
h = lambda x: p.bind(x)[0] * p.bind(x)[1]
out = (p.bind(1.0), jax.jit(h)(0.3), jax.grad(h)(0.3), jax.vmap(h)(jnp.arange(3.0)), str(jax.make_jaxpr(h)(1.0)))
""")
C("prim_axis_batcher", "surfaces", """
p = jax.extend.core.Primitive('addsize')
p.def_impl(lambda x, n: x + n)
p.def_abstract_eval(lambda a, n: a)
def rule(size, name, trace_type, vals, dims, n):
    return p.bind(vals[0], n=n + size), dims[0]
jax.interpreters.batching.axis_primitive_batchers[p] = rule
jax.interpreters.mlir.register_lowering(p, jax.interpreters.mlir.lower_fun(lambda x, n: x + n, multiple_results=False))
out = (jax.vmap(lambda x: p.bind(x, n=1))(jnp.arange(3.0)), jax.jit(lambda x: p.bind(x, n=1))(1.0))
""")
E("prim_no_jvp_rule", "surfaces", """
p = jax.extend.core.Primitive('nojvp')
p.def_impl(lambda x: x)
p.def_abstract_eval(lambda a: a)
out = jax.grad(lambda x: p.bind(x))(1.0)
""")
E("prim_no_batch_rule", "surfaces", """
p = jax.extend.core.Primitive('nobatch')
p.def_impl(lambda x: x)
p.def_abstract_eval(lambda a: a)
out = jax.vmap(lambda x: p.bind(x))(jnp.ones(2))
""")
C("ad_helpers", "surfaces", """
ad = jax.interpreters.ad
z = ad.Zero(jax.core.ShapedArray((2,), jnp.float32))
u = ad.UndefinedPrimal(jax.core.ShapedArray((), jnp.float32))
out = (ad.is_undefined_primal(u), ad.is_undefined_primal(1.0), ad.instantiate_zeros(z), ad.instantiate_zeros(jnp.ones(2)),
       str(z.aval))
""")

# ---------------------------------------------------------------- jax.extend.core helpers
C("extend_jaxpr_objects", "surfaces", """
ec = jax.extend.core
cj = jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(1.0)
eq = cj.jaxpr.eqns[1]
out = (isinstance(cj, ec.ClosedJaxpr), isinstance(cj.jaxpr, ec.Jaxpr), isinstance(cj.jaxpr.invars[0], ec.Var),
       isinstance(eq.invars[1], ec.Literal), float(eq.invars[1].val), isinstance(eq, ec.JaxprEqn), str(eq.primitive),
       isinstance(eq.primitive, ec.Primitive), [str(a) for a in cj.in_avals], [str(a) for a in cj.out_avals],
       ec.jaxpr_as_fun(cj)(0.5), len(list(ec.jaxprs_in_params({'a': cj, 'b': (cj.jaxpr, 1), 'c': 2}))))
""")
C("extend_avals", "surfaces", """
ec = jax.extend.core
a = jax.core.ShapedArray((2, 3), jnp.float32)
out = (str(ec.mapped_aval(2, 0, a)), str(ec.mapped_aval(3, 1, a)), str(ec.unmapped_aval(4, 1, a)),
       str(ec.unmapped_aval(4, None, a)), str(ec.primal_dtype_to_tangent_dtype(jnp.int32)),
       str(ec.primal_dtype_to_tangent_dtype(jnp.float32)),
       [ec.valid_jaxtype(v) for v in (jnp.ones(2), 1.0, np.ones(2), 'a', None, [1.0])])
""")
C("extend_concrete_or_error", "surfaces", """
ec = jax.extend.core
out = (ec.concrete_or_error(int, 3.0), ec.concrete_or_error(None, 2))
""")
E("extend_concrete_or_error_traced", "surfaces", """
out = jax.jit(lambda x: jax.extend.core.concrete_or_error(int, x, 'in my_fn'))(1.0)
""", msg_prefix=40)
C("extend_opaque_trace_state", "surfaces", """
ec = jax.extend.core
outside = ec.get_opaque_trace_state(convention='nnx')
inner = []
jax.jit(lambda x: inner.append(ec.get_opaque_trace_state(convention='nnx')) or x)(1.0)
out = (outside == ec.get_opaque_trace_state(convention='nnx'), outside == inner[0])
""")
C("extend_under_jit_vmap_flags", "surfaces", """
ec = jax.extend.core
seen = []
jax.jit(lambda x: seen.append(ec.unsafe_am_i_under_a_jit_DO_NOT_USE()) or x)(1.0)
jax.vmap(lambda x: seen.append(ec.unsafe_am_i_under_a_vmap_DO_NOT_USE()) or x)(jnp.ones(2))
jax.vmap(lambda x: seen.append(tuple(ec.unsafe_get_axis_names_DO_NOT_USE())) or x, axis_name='i')(jnp.ones(2))
out = (seen, ec.unsafe_am_i_under_a_jit_DO_NOT_USE(), ec.unsafe_am_i_under_a_vmap_DO_NOT_USE())
""")
C("extend_effects_names", "surfaces", """
ec = jax.extend.core
out = (ec.no_effects == frozenset(), issubclass(ec.JaxprTypeError, TypeError), ec.Effects is set,
       issubclass(jax.errors.JaxRuntimeError, RuntimeError))
""")
E("extend_check_jaxpr", "surfaces", """
ec = jax.extend.core
cj = jax.make_jaxpr(lambda x: jnp.sin(x))(1.0)
ec.check_jaxpr(cj.jaxpr)
bad = ec.Jaxpr([], [], cj.jaxpr.outvars, cj.jaxpr.eqns)
out = ec.check_jaxpr(bad)
""", msg_prefix=9)

# ---------------------------------------------------------------- tree_util: the keyed API
TU = "tu = jax.tree_util\n"
KEYED = TU + """
class K:
    def __init__(self, x, y):
        self.x, self.y = x, y
tu.register_pytree_with_keys(K, lambda k: (((tu.GetAttrKey('x'), k.x), (tu.GetAttrKey('y'), k.y)), 'meta'),
                             lambda aux, c: K(*c))
"""
C("tree_register_with_keys", "surfaces", KEYED + """
paths, td = tu.tree_flatten_with_path({'k': K(1.0, [2.0, 3.0])})
out = ([(tu.keystr(p), v) for p, v in paths], str(td), tu.tree_map(lambda v: v * 2, K(1.0, 2.0)).y,
       [tu.keystr(p, simple=True, separator='/') for p, _ in paths],
       tu.tree_map_with_path(lambda p, v: tu.keystr(p), [K(1, 2)])[0].x)
""")
C("tree_register_with_keys_class", "surfaces", TU + """
@tu.register_pytree_with_keys_class
class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def tree_flatten_with_keys(self):
        return ((tu.DictKey('first'), self.a), (tu.DictKey('second'), self.b)), None
    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
paths = tu.tree_leaves_with_path(Box(jnp.ones(2), 3.0))
out = ([tu.keystr(p) for p, _ in paths], jax.grad(lambda b: jnp.sum(b.a) * b.b)(Box(jnp.ones(2), 3.0)).b)
""")
C("tree_register_static", "surfaces", TU + """
@tu.register_static
class Cfg:
    def __init__(self, n):
        self.n = n
    def __eq__(self, other):
        return type(other) is Cfg and other.n == self.n
    def __hash__(self):
        return hash(self.n)
leaves, td = tu.tree_flatten([Cfg(3), 2.0])
out = (leaves, td.num_leaves, td == tu.tree_structure([Cfg(3), 5.0]), td == tu.tree_structure([Cfg(4), 5.0]),
       jax.jit(lambda c, x: x * c.n)(Cfg(3), 2.0))
""")
C("tree_register_dataclass_fields", "surfaces", TU + """
class P:
    def __init__(self, w, b, name):
        self.w, self.b, self.name = w, b, name
tu.register_dataclass(P, data_fields=['w', 'b'], meta_fields=['name'])
paths, td = tu.tree_flatten_with_path(P(jnp.ones(2), 0.5, 'lin'))
g = jax.grad(lambda p: jnp.sum(p.w * p.b))(P(jnp.arange(2.0), 0.5, 'lin'))
out = ([tu.keystr(p) for p, _ in paths], str(td), g.w, g.b, g.name)
""")
E("tree_register_dataclass_not_dataclass", "surfaces", "out = jax.tree_util.register_dataclass(int)")
C("tree_flatten_one_level", "surfaces", TU + """
out = (tu.flatten_one_level({'a': 1, 'b': (2,)}), tu.flatten_one_level((1, [2])), tu.flatten_one_level(None),
       [(str(k), v) for k, v in tu.flatten_one_level_with_keys({'a': 1})[0]], tu.flatten_one_level_with_keys([5])[1])
""")
E("tree_flatten_one_level_leaf", "surfaces", "out = jax.tree_util.flatten_one_level(1)")
C("tree_is_tree_node", "surfaces", TU + """
out = [tu.is_tree_node(t) for t in (int, tuple, list, dict, type(None), float)]
""")
C("tree_treedef_tuple_children", "surfaces", TU + """
td = tu.treedef_tuple([tu.tree_structure((1, 2)), tu.tree_structure({'a': 1})])
out = (str(td), td.num_leaves, [str(c) for c in tu.treedef_children(td)], td.unflatten([1, 2, 3]))
""")
C("tree_broadcast_reduce_assoc", "surfaces", TU + """
out = (tu.tree_broadcast((1, 2), ((3, 4), 5)), jax.tree.broadcast({'a': 0.5}, {'a': [1, 2]}),
       tu.tree_reduce_associative(lambda a, b: a + b, [1, 2, 3, 4, 5]),
       jax.tree.reduce_associative(lambda a, b: a + b, ['a', 'b', 'c']),
       tu.tree_reduce_associative(lambda a, b: a + b, [], identity=0))
""")
E("tree_reduce_associative_empty", "surfaces", "out = jax.tree_util.tree_reduce_associative(lambda a, b: a + b, [])")
C("tree_key_types", "surfaces", TU + """
out = (str(tu.SequenceKey(1)), str(tu.DictKey('a')), str(tu.GetAttrKey('w')), str(tu.FlattenedIndexKey(2)),
       tu.keystr((tu.DictKey('a'), tu.SequenceKey(0), tu.GetAttrKey('w'))),
       tu.keystr((tu.DictKey('a'), tu.SequenceKey(0), tu.GetAttrKey('w')), simple=True, separator='.'),
       tu.default_registry.is_node(tuple))
""")

# ---------------------------------------------------------------- pure_callback / io_callback
CB = """
calls = []
def cb(x):
    calls.append((type(x).__name__, str(x.dtype), x.shape))
    return np.sin(np.asarray(x))
S = jax.ShapeDtypeStruct
"""
C("pure_callback_eager_jit", "surfaces", CB + """
f = jax.jit(lambda x: jax.pure_callback(cb, S((3,), jnp.float32), x) * 2)
a = jax.pure_callback(cb, S((3,), jnp.float32), jnp.arange(3.0))
b = f(jnp.arange(3.0))
c = f(jnp.ones(3))
out = (a, b, c, calls)
""")
C("pure_callback_not_at_trace_time", "surfaces", CB + """
j = jax.make_jaxpr(lambda x: jax.pure_callback(cb, S((), jnp.float32), x))(1.0)
out = (calls, [l for l in str(j).splitlines() if 'callback=' not in l])
""")
C("pure_callback_cond_branch_not_taken", "surfaces", CB + """
g = jax.jit(lambda x: lax.cond(x > 0, lambda v: v, lambda v: jax.pure_callback(cb, S((), jnp.float32), v), x))
out = (g(1.0), list(calls), g(-1.0), calls)
""")
C("pure_callback_pytree_and_kwargs", "surfaces", """
r = jax.pure_callback(lambda x, scale: {'a': np.asarray(x) * scale, 'b': np.int32(7)},
                      {'a': jax.ShapeDtypeStruct((2,), jnp.float32), 'b': jax.ShapeDtypeStruct((), jnp.int32)},
                      jnp.ones(2), scale=3.0)
out = (r, jax.jit(lambda x: jax.pure_callback(lambda v: v * 2, jax.ShapeDtypeStruct((), jnp.float32), x))(2.0))
""")
C("pure_callback_vmap_methods", "surfaces", CB + """
sd = S((), jnp.float32)
seq = jax.vmap(lambda x: jax.pure_callback(cb, sd, x, vmap_method='sequential'))(jnp.arange(3.0))
n_seq = len(calls)
exp = jax.vmap(lambda x: jax.pure_callback(cb, sd, x, vmap_method='expand_dims'))(jnp.arange(3.0))
two = jax.vmap(lambda x, y: jax.pure_callback(lambda a, b: np.asarray(a) + np.asarray(b), sd, x, y,
                                                 vmap_method='broadcast_all'), in_axes=(0, None))(jnp.arange(3.0), 1.0)
exp2 = jax.vmap(lambda x, y: jax.pure_callback(lambda a, b: np.asarray(a) + np.asarray(b), sd, x, y,
                                                  vmap_method='expand_dims'), in_axes=(0, None))(jnp.arange(3.0), 1.0)
out = (seq, n_seq, exp, calls, two, exp2)
""")
E("pure_callback_vmap_no_method", "surfaces",
  "out = jax.vmap(lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct((), jnp.float32), x))(jnp.ones(2))")
E("pure_callback_grad", "surfaces",
  "out = jax.grad(lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct((), jnp.float32), x))(1.0)")
E("pure_callback_wrong_shape", "surfaces",
  "out = jax.pure_callback(lambda x: np.ones(2), jax.ShapeDtypeStruct((3,), jnp.float32), 1.0)", msg_prefix=0)
E("pure_callback_wrong_count", "surfaces",
  "out = jax.pure_callback(lambda x: (np.ones(3), np.ones(3)), jax.ShapeDtypeStruct((3,), jnp.float32), 1.0)",
  msg_prefix=0)
C("io_callback_runs_unused", "surfaces", """
log = []
f = jax.jit(lambda x: (jax.experimental.io_callback(lambda v: log.append(float(v)), None, x), x * 2)[1])
out = (f(3.0), f(4.0), log, jax.experimental.io_callback(lambda v: np.float32(v * 2), jax.ShapeDtypeStruct((), jnp.float32), 2.0))
""")
C("io_callback_vmap_unordered", "surfaces", """
log = []
def cb(v):
    log.append(float(v))
    return np.asarray(v) * 2
r = jax.vmap(lambda x: jax.experimental.io_callback(cb, jax.ShapeDtypeStruct((), jnp.float32), x))(jnp.arange(3.0))
out = (r, log)
""")
E("io_callback_vmap_ordered", "surfaces", """
out = jax.vmap(lambda x: jax.experimental.io_callback(lambda v: v, jax.ShapeDtypeStruct((), jnp.float32), x,
                                                      ordered=True))(jnp.ones(2))
""")
E("io_callback_grad", "surfaces",
  "out = jax.grad(lambda x: jax.experimental.io_callback(lambda v: v, jax.ShapeDtypeStruct((), jnp.float32), x))(1.0)")

# ---------------------------------------------------------------- jax.flatten_util
C("ravel_pytree", "surfaces", """
rp = jax.flatten_util.ravel_pytree
f, u = rp({'a': jnp.ones(2), 'b': (jnp.arange(3), 2.0)})
e, ue = rp([])
i, ui = rp({'a': jnp.ones(2, jnp.int32)})
out = (f, u(f * 2), e, ue(e), rp(1.0)[0], i, ui(i), jax.grad(lambda v: jnp.sum(u(v)['a'] ** 2))(f))
""")
E("ravel_pytree_wrong_size", "surfaces", "out = jax.flatten_util.ravel_pytree({'a': jnp.ones(2)})[1](jnp.ones(3))")

# ---------------------------------------------------------------- jax.experimental.checkify (user checks)
CK = """
ck = jax.experimental.checkify
def f(x):
    ck.check(x > 0, 'x must be positive, got {}', jnp.asarray(x))
    return jnp.log(x)
"""
C("checkify_basic", "surfaces", CK + """
e1, o1 = ck.checkify(f)(-1.0)
e2, o2 = ck.checkify(f)(2.0)
e3, _ = jax.jit(ck.checkify(f))(-1.0)
e4, o4 = jax.vmap(ck.checkify(f))(jnp.array([1.0, -2.0, -3.0]))
e5, _ = ck.checkify(jax.jit(f))(-1.0)
out = (e1.get(), o1, e2.get(), o2, e3.get(), e4.get(), o4, e5.get(), ck.init_error.get())
""")
C("checkify_first_failure_wins", "surfaces", CK + """
g = lambda x: (ck.check(x < 5, 'too big'), ck.check(x > 0, 'neg'), x)[2]
h = jax.grad(lambda x: (ck.check(x > 0, 'neg'), x ** 2)[1])
out = (ck.checkify(g)(-1.0)[0].get(), ck.checkify(g)(7.0)[0].get(), ck.checkify(g)(1.0)[0].get(),
       ck.checkify(h)(-1.0)[0].get(), ck.checkify(h)(3.0)[1])
""")
E("checkify_throw", "surfaces", CK + "out = ck.checkify(f)(-1.0)[0].throw()")
E("checkify_check_outside_eager", "surfaces", CK + "out = f(-1.0)")
E("checkify_check_outside_jit", "surfaces", CK + "out = jax.jit(f)(-1.0)")
E("checkify_bad_payload", "surfaces", CK + "out = ck.checkify(lambda x: ck.check(x > 0, 'v {}', 1.0))(1.0)")
C("checkify_check_error_reinjects", "surfaces", CK + """
err, _ = ck.checkify(f)(-1.0)
e2, _ = ck.checkify(lambda: ck.check_error(err))()
out = (e2.get(), ck.user_checks == frozenset({ck.FailedCheckError}) if hasattr(ck, 'FailedCheckError') else True)
""")
E("checkify_check_error_outside", "surfaces", CK + "out = ck.check_error(ck.checkify(f)(-1.0)[0])")

# ---------------------------------------------------------------- lax.all_to_all (chex references it)
C("all_to_all_vmap", "surfaces", """
x = jnp.arange(18.0).reshape(3, 2, 3)
a2a = lambda s, c, t=False: jax.vmap(lambda v: lax.all_to_all(v, 'i', s, c, tiled=t), axis_name='i')
y = jnp.arange(24.0).reshape(2, 4, 3)
out = (a2a(1, 0)(x), a2a(1, 1)(x), a2a(0, 0)(jnp.arange(12.0).reshape(2, 2, 3)), a2a(0, 1, True)(y),
       a2a(0, 0, True)(y), jax.jit(a2a(1, 1))(x),
       jax.vmap(lambda v: lax.pswapaxes(v, 'i', 1), axis_name='i')(x))
""")
C("all_to_all_grad", "surfaces", """
x = jnp.arange(18.0).reshape(3, 2, 3)
f = lambda x: jnp.sum(jax.vmap(lambda v: lax.all_to_all(v, 'i', 1, 0), axis_name='i')(x) * jnp.arange(18.0).reshape(3, 3, 2))
g = lambda y: jnp.sum(jax.vmap(lambda v: lax.all_to_all(v, 'i', 0, 1, tiled=True), axis_name='i')(y) ** 2)
out = (jax.grad(f)(x), jax.grad(g)(jnp.arange(24.0).reshape(2, 4, 3)))
""")
E("all_to_all_bad_split", "surfaces",
  "out = jax.vmap(lambda v: lax.all_to_all(v, 'i', 0, 0), axis_name='i')(jnp.ones((3, 2)))")

# ---------------------------------------------------------------- jnp.vectorize, jax.test_util (optax, chex import them)
C("vectorize_signature", "surfaces", """
v = jnp.vectorize(jnp.dot, signature='(n),(n)->()')
out = (v(jnp.ones((3, 2)), jnp.arange(2.0)), jnp.vectorize(lambda x, y: x + y)(jnp.ones((2, 1)), jnp.arange(3.0)),
       jnp.vectorize(lambda x, p: x ** p, excluded={1})(jnp.arange(3.0), 2),
       jnp.vectorize(lambda x: (x, x * 2), signature='()->(),()')(jnp.arange(3.0)),
       jnp.vectorize(jnp.diag, signature='(n,n)->(n)')(jnp.arange(18.0).reshape(2, 3, 3)),
       jax.jit(v)(jnp.ones((2, 3)), jnp.ones(3)))
""")
E("vectorize_inconsistent_core", "surfaces",
  "out = jnp.vectorize(jnp.dot, signature='(n),(n)->()')(jnp.ones((3, 2)), jnp.ones(3))")
E("vectorize_too_few_dims", "surfaces",
  "out = jnp.vectorize(jnp.dot, signature='(n),(n)->()')(jnp.ones(()), jnp.ones(3))")
C("check_grads_passes", "surfaces", """
jax.test_util.check_grads(jnp.sin, (1.0,), order=2)
jax.test_util.check_grads(lambda x, y: jnp.sum(x * y ** 2), (jnp.arange(3.0), jnp.ones(3)), order=2, modes=['rev'])
jax.test_util.check_grads(lambda x: jnp.tanh(x) * 3, (jnp.linspace(-1, 1, 4),), order=1, modes=['fwd'])
out = 'ok'
""")
E("check_grads_catches_wrong_jvp", "surfaces", """
bad = jax.custom_jvp(jnp.sin)
bad.defjvp(lambda p, t: (jnp.sin(p[0]), 2.0 * t[0]))
out = jax.test_util.check_grads(bad, (1.0,), order=1, modes=['fwd'])
""", msg_prefix=0)

# ---------------------------------------------------------------- names the libraries need at import time
C("typeof", "surfaces", """
seen = []
jax.jit(lambda x: seen.append(repr(jax.typeof(x))) or x)(jnp.ones(2))
out = (repr(jax.typeof(jnp.ones(2))), repr(jax.typeof(1.0)), repr(jax.typeof(jnp.int32(3))), seen)
""")
C("named_scope_as_decorator", "surfaces", """
@jax.named_scope('scope')
def f(x):
    return x * 2
with jax.named_scope('outer'):
    y = f(3.0)
out = (y, jax.jit(f)(jnp.ones(2)))
""")
C("nn_identity", "surfaces", "out = (jax.nn.identity(jnp.arange(3.0)), jax.nn.identity(2.0), jax.nn.identity(np.int32(3)))")
C("ref_isinstance", "surfaces", "out = (isinstance(jnp.ones(2), jax.Ref), isinstance(1.0, jax.Ref))")
C("lax_primitive_objects", "surfaces",
  "out = (str(lax.stop_gradient_p), str(lax.sin_p), str(lax.add_p), lax.sin_p is lax.sin_p)")
C("shaped_array_repr", "surfaces",
  "out = (repr(jax.core.ShapedArray((2, 3), jnp.float32)), repr(jax.core.ShapedArray((), jnp.float32, weak_type=True)))")
C("jnp_issubdtype_key_and_isrealobj", "surfaces", """
k = jax.random.key(0)
out = (jnp.issubdtype(k.dtype, jax.dtypes.prng_key), jnp.issubdtype(k.dtype, jnp.floating),
       jnp.issubdtype(jnp.float32, jax.dtypes.extended), jnp.isrealobj(jnp.ones(2)), jnp.isrealobj(1j),
       jnp.isrealobj(np.ones(2, np.complex64)))
""")
C("aval_sharding", "surfaces", """
a = jax.core.ShapedArray((2, 3), jnp.float32, sharding=None)
s = a.sharding
out = (repr(s), repr(s.spec), repr(s.update(spec=jax.P(None))), repr(jax.typeof(jnp.ones(2)).sharding))
""")
C("uint32_from_big_int", "surfaces",
  "out = (jnp.uint32(2998342421), jnp.asarray(2998342421, dtype=jnp.uint32), jnp.array(3, dtype=jnp.float32))")
E("uint32_overflow", "surfaces", "out = jnp.asarray(2 ** 40, dtype=jnp.uint32)")
C("custom_gradient", "surfaces", """
@jax.custom_gradient
def f(x):
    return x ** 2, lambda g: (g * 10 * x,)
@jax.custom_gradient
def h(x, y):
    return x * y, lambda g: (g * y, g * x * 2)
@jax.custom_derivatives.custom_gradient
def k(x):
    return jnp.sin(x), lambda g: g * 10 * x
out = (f(3.0), jax.grad(f)(3.0), jax.jit(jax.grad(f))(3.0), jax.vmap(jax.grad(f))(jnp.arange(3.0)),
       jax.grad(h, argnums=(0, 1))(2.0, 3.0), jax.grad(k)(3.0), jax.closure_convert is jax.custom_derivatives.closure_convert)
""")
E("custom_gradient_jvp", "surfaces", """
@jax.custom_gradient
def f(x):
    return x ** 2, lambda g: (g * 10 * x,)
out = jax.jvp(f, (1.0,), (1.0,))
""")
E("rank_promotion_raise", "surfaces", """
with jax.numpy_rank_promotion('raise'):
    out = jnp.ones(2) + jnp.ones((3, 2))
""")
C("rank_promotion_raise_same_rank_ok", "surfaces", """
with jax.numpy_rank_promotion('raise'):
    out = (jnp.ones(2) + 1.0, jnp.ones((3, 2)) * jnp.ones((1, 2)), jnp.ones((2, 2)) - jnp.ones(()))
""")
C("rank_promotion_warn", "surfaces", """
with jax.numpy_rank_promotion('warn'):
    out = jnp.ones(2) * jnp.ones((3, 2))
""", expect_warning=True)
