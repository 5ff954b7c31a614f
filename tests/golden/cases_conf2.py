"""Case definitions for conf2_cases.json: what the extra documentation pages (tools/doc_cells.py
--extra: aot, the debugging guides, type promotion, ...) showed differing, recorded from real
JAX 0.10.2 (area "conf2")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- AOT stages with static arguments
# docs/aot.md: `jax.jit(f, static_argnums=0).trace(7, 8).lower().compile()(5)` -> Array(19, weak):
# the compiled function takes only the dynamic arguments; the traced static value stays baked in.
C("conf2_aot_compiled_static_args", "conf2",
  "f = lambda x, y, z=1: 2 * x + y - z\n"
  "out = (jax.jit(f, static_argnums=0).trace(7, 8).lower().compile()(5), "
  "jax.jit(f, static_argnames='y').trace(7, y=8).lower().compile()(5), "
  "jax.jit(f, static_argnums=(2, 0)).trace(1, 2, 3).lower().compile()(10))")
E("conf2_aot_compiled_static_arg_passed_again", "conf2",
  "f = lambda x, y: 2 * x + y\n"
  "out = jax.jit(f, static_argnums=0).trace(7, 8).lower().compile()(7, 5)", msg_prefix=0)

# ---------------------------------------------------------------- out_sharding= and device_put targets
# docs/the-training-cookbook.rst: `jnp.zeros((256, 192), out_sharding=jax.P("gpu", None))` outside a mesh
# -> ValueError 'Using PartitionSpec when you are not under a mesh context is not allowed. ...'
E("conf2_zeros_out_sharding_spec_without_mesh", "conf2",
  "out = jnp.zeros((2, 3), out_sharding=jax.P('gpu', None))")
E("conf2_full_out_sharding_spec_without_mesh", "conf2",
  "out = jnp.full((2,), 1.0, out_sharding=jax.P())")
E("conf2_zeros_out_sharding_single_device", "conf2",
  "out = jnp.zeros((2,), out_sharding=jax.sharding.SingleDeviceSharding(jax.devices()[0]))", msg_prefix=60)
E("conf2_device_put_spec_without_mesh", "conf2",
  "out = jax.device_put(jnp.ones(3), jax.P('x'))")
# under a one-device mesh the values are those of plain creation (JAX: NamedSharding placement)
C("conf2_out_sharding_under_mesh", "conf2",
  "with jax.set_mesh(jax.make_mesh((1,), ('x',))):\n"
  "    out = (jnp.zeros((2, 3), out_sharding=jax.P('x')), jnp.ones((2,), jnp.int32, out_sharding=jax.P()),\n"
  "           jnp.full((2,), 3, out_sharding=jax.P('x')), jnp.ones_like(jnp.arange(3), out_sharding=jax.P()),\n"
  "           jax.device_put(jnp.arange(2.0), jax.P('x')), jnp.zeros((2,), out_sharding=None))")
# docs/parallel.md: print(mesh) is the short form (repr stays the long one)
C("conf2_mesh_str", "conf2",
  "m = jax.make_mesh((1,), ('x',))\n"
  "out = (str(m), repr(m), str(jax.sharding.Mesh(np.array(jax.devices()).reshape(1, 1), ('a', 'b'))))")

# ---------------------------------------------------------------- cost_analysis: XLA's flop counts
# docs/aot.md: `jax.jit(f).trace(3, 4).lower().compile().cost_analysis()['flops']` -> 2.0 for 2 * x + y;
# elementwise 1 flop/element, transcendentals apart, reductions n_in - n_out, dot 2*M*N*K, constants folded
CA = "ca = lambda f, *a: {k: v for k, v in sorted(jax.jit(f).lower(*a).compile().cost_analysis().items()) " \
     "if k in ('flops', 'transcendentals')}\n"
C("conf2_cost_analysis_flops", "conf2", CA +
  "x = jnp.ones((3, 4))\n"
  "k = jnp.arange(12.0).reshape(3, 4)\n"
  "out = (ca(lambda a, b: 2 * a + b, 3, 4), ca(lambda a, b: jnp.tanh(a @ b).sum(), x, x.T),\n"
  "       ca(lambda a: jax.nn.sigmoid(a).mean(0), x), ca(lambda a: jnp.where(a > 0, a ** 3, jnp.sqrt(a)), x),\n"
  "       ca(lambda a: a.T.reshape(12), x), ca(lambda a: (k * 2).sum() + a, x),\n"
  "       ca(lambda a: jnp.einsum('bij,bjk->bik', a[None], a.T[None]).max(), x),\n"
  "       jax.jit(lambda a: jnp.sin(a) + 1).lower(x).cost_analysis()['transcendentals'])")

# docs/parallel.md prints the abstract mesh inside jit: one taken from a concrete mesh names its device kind,
# AbstractMesh('X': 1, axis_types=(Explicit,), device_kind=cpu, num_cores=None, platform=cpu); a built one does not
C("conf2_abstract_mesh_repr", "conf2",
  "cpu_mesh = lambda: jax.make_mesh((1,), ('X',), devices=jax.devices('cpu'))\n"
  "with jax.set_mesh(cpu_mesh()):\n"
  "    out = (str(jax.sharding.get_abstract_mesh()), repr(cpu_mesh().abstract_mesh),\n"
  "           repr(jax.sharding.AbstractMesh((2,), ('a',))), "
  "str(jax.sharding.get_abstract_mesh() == cpu_mesh().abstract_mesh))\n")

# ---------------------------------------------------------------- multihost_utils in one process
# docs/migrate_pmap.md: `multihost_utils.sync_global_devices("barrier_name")` -> None; in one process
# process_allgather stacks a leading axis of 1 (tiled: unchanged), broadcast_one_to_all returns numpy arrays
C("conf2_multihost_utils_one_process", "conf2",
  "mhu = jax.experimental.multihost_utils\n"
  "x = jnp.arange(3.0)\n"
  "out = (mhu.sync_global_devices('b'), mhu.process_allgather(x), mhu.process_allgather(x, tiled=True),\n"
  "       mhu.process_allgather({'a': 1.0}), mhu.broadcast_one_to_all(x), mhu.broadcast_one_to_all({'a': np.int32(2)}),\n"
  "       mhu.broadcast_one_to_all(1.5), mhu.assert_equal(x))")
