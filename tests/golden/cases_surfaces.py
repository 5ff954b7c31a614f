"""Case definitions for surfaces_cases.json: the public surfaces JAX libraries (optax, chex,
equinox, flax) import: jax.typing, jax.Device, jax.sharding, jax.stages, jax.custom_derivatives,
jax.dtypes extensions, flag context managers, jax.experimental.layout, jax.nn.initializers,
jax.core / jax.extend / jax.interpreters, tree_util's keyed API and the callbacks."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


def E(name, area, code, **kw):
    C(name, area, code, raises=True, **kw)


# ---------------------------------------------------------------- jax.typing, jax.Device, version
C("typing_arraylike_isinstance", "surfaces",
  "out = [isinstance(v, jax.typing.ArrayLike) for v in (jnp.ones(2), np.ones(2), 1, 2.0, True, np.float32(1), 'a', [1.0])]")
E("typing_dtypelike_isinstance", "surfaces",
  "out = [isinstance(v, jax.typing.DTypeLike) for v in ('float32', np.dtype('int32'), jnp.float32, 3)]")
C("device_isinstance", "surfaces", "out = (isinstance(jax.devices()[0], jax.Device), isinstance(jnp.ones(2).device, jax.Device))")
C("version_info", "surfaces", "out = (jax.__version_info__, jax.version.__version__, jax.version.__version_info__)")
C("float0_dtype", "surfaces", "out = (str(jax.float0), jax.dtypes.float0 == jax.float0)")

# ---------------------------------------------------------------- jax.sharding (one device)
C("sharding_single_device_repr", "surfaces", "out = repr(jnp.ones(3).sharding)")
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
    # bit-exact, except orthogonal: its QR (numpy's LAPACK here, XLA's in JAX) differs in the last ulps
    C(f"init_{_name}", "surfaces", f"out = {INIT}.{_name}()(jax.random.key(42), (3, 4), jnp.float32)",
      **(dict(rtol=1e-5, atol=1e-6) if _name == "orthogonal" else dict(rtol=0, atol=0)))
C("init_variance_scaling_modes", "surfaces", f"""
k = jax.random.key(1)
out = [{INIT}.variance_scaling(0.5, m, d)(k, (2, 3, 4)) for m in ('fan_in', 'fan_out', 'fan_avg', 'fan_geo_avg')
       for d in ('truncated_normal', 'normal', 'uniform')]
""", rtol=0, atol=0)
C("init_variance_scaling_axes", "surfaces", f"""
k = jax.random.key(3)
out = ({INIT}.variance_scaling(1.0, 'fan_in', 'normal', in_axis=(0, 1), out_axis=-1, batch_axis=2)(k, (2, 3, 2, 4)),
       {INIT}.lecun_normal(in_axis=0, out_axis=0)(k, (5,)))
""", rtol=0, atol=0)
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
""", rtol=0, atol=0)
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
  rtol=0, atol=0)
C("init_legacy_key", "surfaces", f"out = {INIT}.lecun_normal()(jax.random.PRNGKey(0), (2, 2))", rtol=0, atol=0)
