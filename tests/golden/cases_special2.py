"""Case definitions for special2_cases.json: the last missing names of issue 11 (area
"special2"): jax.scipy.special.hyp1f1/hyp2f1, jax.scipy.linalg.schur, and the remaining jax.lax
and top-level names, recorded from real JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()

sp = "sp = jax.scipy.special\n"

# ---------------------------------------------------------------- hyp1f1
# A grid through every branch of JAX's 1F1: a == 0, a == b, b == 0, the Taylor series
# (|x| < 100) and the asymptotic series (|x| >= 100; NaN for x < 0 when a - b is no integer),
# negative and large arguments.
H1 = sp + ("a = jnp.array([0.0, 1.0, 0.5, 2.0, 3.0, 1.5, 0.3, 5.0, 2.0, 0.0, 1.0, 2.5, 10.0, 1.0, 1.0, 0.5, -1.5, 0.7, 4.0, -2.0])\n"
           "b = jnp.array([0.0, 1.0, 1.5, 3.0, 0.0, 2.5, 4.0, 7.0, 2.0, 1.0, 3.0, 2.5, 20.0, 2.0, 2.0, 1.2, 2.0, 0.3, 1.0, 3.0])\n"
           "x = jnp.array([1.0, 2.0, 0.5, -3.0, 1.0, 20.0, -50.0, 99.0, 120.0, 5.0, -120.0, 150.0, 30.0, -200.0, 3.0, -150.0, 4.0, -0.7, 60.0, -10.0])\n")
C("scipy_hyp1f1_grid", "special2", H1 + "out = sp.hyp1f1(a, b, x)")
C("scipy_hyp1f1_x64", "special2", "jax.config.update('jax_enable_x64', True)\n" + H1 +
  "out = sp.hyp1f1(a, b, x)", rtol=1e-11, atol=1e-300)
C("scipy_hyp1f1_scalars_and_dtypes", "special2", sp + "out = (sp.hyp1f1(1.0, 2.0, 0.5), sp.hyp1f1(1, 2, 3), "
  "sp.hyp1f1(jnp.float16(1.0), 2.0, 0.5), sp.hyp1f1(jnp.arange(3), 2.5, jnp.array([[0.1], [0.2]])), "
  "sp.hyp1f1(jnp.float32(0.5), 1, 2))")
C("scipy_hyp1f1_grads", "special2", sp + "out = (jax.grad(sp.hyp1f1, argnums=(0, 1, 2))(1.5, 2.5, 0.7), "
  "jax.grad(sp.hyp1f1, argnums=2)(0.5, 3.0, -4.0), "
  "jax.vmap(jax.grad(sp.hyp1f1, argnums=2), (None, None, 0))(2.0, 3.0, jnp.array([-2.0, 0.0, 1.0, 5.0])), "
  "jax.jit(sp.hyp1f1)(jnp.array([1.0, 2.0]), 3.0, jnp.array([0.5, -0.5])))")
E("scipy_hyp1f1_complex", "special2", sp + "out = sp.hyp1f1(1.0, 2.0, jnp.array(0.5 + 1j))")

# ---------------------------------------------------------------- hyp2f1
# Every case of JAX's 2F1: x == 0 or a/b == 0, poles of c, Euler's transformation (c-a-b <= -1),
# (1-x)^-a / (1-x)^-b when b == c / a == c, x > 1 (inf), x == 1 (Gauss), terminating
# polynomials (a or b a non-positive integer), the log case near x = 1 (c-a-b an integer),
# and the plain Taylor series.
H2 = sp + ("a = jnp.array([1.0, 0.5, -2.0, 1.0, 2.0, 1.5, 1.0, 0.5, -3.0, 1.0, 0.3, 2.0, 1.0, 0.7, 0.0, 2.0, 1.5, 0.5, 3.0, -4.0, 1.0, 2.0, 0.25])\n"
           "b = jnp.array([1.0, 1.5, 3.0, 2.0, 3.0, 2.5, 1.0, 0.5, 2.0, 0.0, 0.4, 1.0, 2.0, 0.2, 1.0, 3.0, 2.0, 0.5, 1.0, 1.5, 1.0, 1.0, 0.75])\n"
           "c = jnp.array([2.0, 2.5, 1.5, 3.0, 5.0, 4.0, 0.0, 1.0, -4.0, 1.0, 1.7, 3.0, 4.0, 0.9, 1.0, 2.0, 2.0, 0.5, 4.0, 2.0, 3.0, 3.0, 1.0])\n"
           "x = jnp.array([0.5, -0.5, 0.3, 0.95, 0.99, 1.0, 0.5, 0.2, 0.5, 0.3, 0.92, 1.5, -3.0, 0.97, 0.4, 0.5, 0.96, 0.6, 0.98, 0.7, -0.9, 0.93, -0.99])\n")
C("scipy_hyp2f1_grid", "special2", H2 + "out = sp.hyp2f1(a, b, c, x)")
C("scipy_hyp2f1_x64", "special2", "jax.config.update('jax_enable_x64', True)\n" + H2 +
  "out = sp.hyp2f1(a, b, c, x)", rtol=1e-10, atol=1e-300)
C("scipy_hyp2f1_scalars_and_grads", "special2", sp + "out = (sp.hyp2f1(1.0, 1.0, 2.0, 0.5), sp.hyp2f1(1, 1, 2, 0.25), "
  "jax.grad(sp.hyp2f1, argnums=(0, 1, 2, 3))(0.5, 1.5, 2.5, 0.3), "
  "jax.vmap(jax.grad(sp.hyp2f1, argnums=3), (None, None, None, 0))(1.0, 2.0, 3.0, jnp.array([-0.5, 0.0, 0.5])), "
  "jax.jit(sp.hyp2f1)(1.0, jnp.array([1.0, 2.0]), 3.0, 0.25))")
# hyp2f1's log case runs fori_loop(1, an int32 array, ...): under x64 a Python-int bound takes
# the other bound's dtype (JAX's special case for weak integers).
C("lax_fori_loop_weak_int_bound_x64", "special2", "jax.config.update('jax_enable_x64', True)\n"
  "out = (lax.fori_loop(0, jnp.int32(4), lambda i, c: c + i, jnp.int32(0)), "
  "jax.jit(lambda n: lax.fori_loop(1, n, lambda i, c: c * i, jnp.int64(1)))(jnp.int32(5)))")
E("lax_fori_loop_mixed_strong_bounds", "special2", "out = lax.fori_loop(jnp.int16(0), jnp.int32(4), lambda i, c: c + i, 0)")

# ---------------------------------------------------------------- schur
# JAX runs LAPACK's gees: a Schur form is not unique, but gees' deterministic steps fix the
# eigenvalue order on T's diagonal and the signs of Z's columns; gradpad takes the same steps.
la = "la = jax.scipy.linalg\n"
SM = la + ("A3 = jnp.array([[1.0, 2.0, 3.0], [1.0, 4.0, 2.0], [3.0, 2.0, 1.0]])\n"
           "R2 = jnp.array([[0.0, -1.0], [1.0, 0.0]])\n"
           "A4 = jnp.array([[1.0, 2.0, 0.0, 1.0], [-3.0, 1.0, 2.0, 0.0], [0.5, 1.0, 4.0, -2.0], [1.0, 0.0, 3.0, 1.0]])\n"
           "A5 = (jnp.arange(25.0).reshape(5, 5) % 7) - 3.0 + jnp.eye(5)\n"
           "S4 = jnp.array([[4.0, 1.0, -2.0, 2.0], [1.0, 2.0, 0.0, 1.0], [-2.0, 0.0, 3.0, -2.0], [2.0, 1.0, -2.0, -1.0]])\n"
           "P6 = jnp.roll(jnp.eye(6), 1, axis=1)\n"
           "U3 = jnp.array([[2.0, 1.0, 5.0], [0.0, -1.0, 3.0], [0.0, 0.0, 4.0]])\n")
# For complex output the columns of Z carry a unit phase that depends on rounding inside the
# single-shift QR sweeps; the phase-free parts are compared: diag(T), |T|, |Z|, Z T Z^H, Z^H Z.
CPLX = ("def phase_free(a):\n"
        "    T, Z = la.schur(a, output='complex')\n"
        "    return (jnp.diagonal(T), jnp.abs(T), jnp.abs(Z), Z @ T @ Z.conj().T, Z.conj().T @ Z)\n")
# What every Schur form has, whatever the order of the eigenvalues: Z T Z^H = A, Z^H Z = I,
# T (quasi-)upper triangular, and the eigenvalues of T those of A (compared through their
# characteristic polynomial, which does not depend on their order).
PROPS = ("def props(a, output):\n"
         "    T, Z = la.schur(a, output=output)\n"
         "    below = jnp.tril(T, -2 if output == 'real' else -1)\n"
         "    return (Z @ T @ Z.conj().T, Z.conj().T @ Z, below, jnp.poly(jnp.linalg.eigvals(T)))\n")
C("scipy_schur_real", "special2", SM + "out = [la.schur(m) for m in (A3, R2, A4, A5, S4, U3)]", rtol=1e-4, atol=2e-5)
C("scipy_schur_real_x64", "special2", "jax.config.update('jax_enable_x64', True)\n" + SM +
  "out = [la.schur(m) for m in (A3, R2, A4, A5, S4, U3)]", rtol=1e-9, atol=1e-12)
# P6 (a cyclic permutation: its eigenvalues are the 6th roots of unity) has 2-dimensional
# invariant subspaces whose basis in Z rounding decides, so only its properties are compared.
C("scipy_schur_properties", "special2", SM + PROPS +
  "out = [props(m, o) for m in (P6, A5, A3) for o in ('real', 'complex')] + [jnp.poly(jnp.linalg.eigvals(A5)), jnp.poly(jnp.linalg.eigvals(P6))]",
  rtol=1e-4, atol=3e-5)
C("scipy_schur_complex_x64", "special2", "jax.config.update('jax_enable_x64', True)\n" + SM + CPLX +
  "out = [phase_free(m) for m in (A3, R2, A4, A5, U3)] + [phase_free(A4 + 1j * A4.T)]", rtol=1e-9, atol=1e-12)
C("scipy_schur_batched_jit_vmap", "special2", SM + "B = jnp.stack([A4, S4, A4.T])\n"
  "out = (la.schur(B), jax.jit(la.schur)(A3), jax.vmap(la.schur)(B)[0], la.schur(jnp.ones((1, 1))), "
  "la.schur(jnp.zeros((0, 0))), jax.lax.linalg.schur(A3, compute_schur_vectors=False))", rtol=1e-4, atol=2e-5)
C("scipy_schur_jaxpr", "special2", SM + "out = (str(jax.make_jaxpr(la.schur)(R2)), "
  "str(jax.make_jaxpr(partial(la.schur, output='complex'))(R2)))")
E("scipy_schur_bad_output", "special2", SM + "out = la.schur(A3, output='x')")
E("scipy_schur_not_square", "special2", la + "out = la.schur(jnp.ones((2, 3)))")
E("scipy_schur_int", "special2", la + "out = la.schur(jnp.array([[1, 2], [3, 4]]))")
E("scipy_schur_rank1", "special2", la + "out = la.schur(jnp.ones(3))")
E("scipy_schur_grad", "special2", SM + "out = jax.grad(lambda a: la.schur(a)[0].sum())(A3)")

# ---------------------------------------------------------------- rng_bit_generator / rng_uniform
# XLA's RngBitGenerator on the CPU: RNG_DEFAULT is Philox-4x32-10; the uint32[4] key is XLA's
# u64[2] state (key, counter). Shapes exercise the layouts (Philox's blocks of four, Threefry's
# split along the first even / the largest dimension), the 64-bit counter's wrap, all dtypes.
RBG = ("k = jnp.array([1, 2, 3, 4], dtype=jnp.uint32)\nT = lax.RandomAlgorithm.RNG_THREE_FRY\n"
       "P = lax.RandomAlgorithm.RNG_PHILOX\nwrap = jnp.array([4294967295, 2, 4294967295, 4294967295], jnp.uint32)\n")
C("lax_rng_bit_generator_philox", "special2", RBG + "out = (lax.rng_bit_generator(k, (5,)), "
  "lax.rng_bit_generator(k, (2, 3), dtype=jnp.uint8), lax.rng_bit_generator(jnp.zeros(4, jnp.uint32), (4,)), "
  "lax.rng_bit_generator(wrap, (9,)), lax.rng_bit_generator(k, (3, 1, 2), dtype=jnp.uint16, algorithm=P), "
  "lax.rng_bit_generator(k, ()), lax.rng_bit_generator(k, (0, 3)))")
C("lax_rng_bit_generator_threefry", "special2", RBG + "out = [lax.rng_bit_generator(k, s, algorithm=T) "
  "for s in [(), (3,), (5,), (3, 5), (2, 3, 4), (1, 7), (0,)]] + [lax.rng_bit_generator(wrap, (3,), dtype=jnp.uint8, algorithm=T)]")
C("lax_rng_bit_generator_uint64_x64", "special2", "jax.config.update('jax_enable_x64', True)\n" + RBG +
  "out = (lax.rng_bit_generator(k, (3,), dtype=jnp.uint64), lax.rng_bit_generator(k, (2, 2), dtype=jnp.uint64, algorithm=T))")
C("lax_rng_bit_generator_uint64_x32_warns", "special2", RBG + "out = lax.rng_bit_generator(k, (3,), dtype=jnp.uint64)",
  expect_warning=True)
C("lax_rng_bit_generator_transforms", "special2", RBG + "ks = jnp.stack([k, k + 1, k + 2])\n"
  "out = (jax.jit(lambda k: lax.rng_bit_generator(k, (3,), dtype=jnp.uint16))(k), "
  "jax.vmap(lambda k: lax.rng_bit_generator(k, (2,)))(ks), "
  "str(jax.make_jaxpr(lambda k: lax.rng_bit_generator(k, (3,), dtype=jnp.uint8, algorithm=P))(k)), "
  "str(jax.make_jaxpr(lambda k: lax.rng_bit_generator(k, (2, 2)))(k)))")
E("lax_rng_bit_generator_float_dtype", "special2", RBG + "out = lax.rng_bit_generator(k, (3,), dtype=jnp.float32)")
# rng_uniform is XLA's stateful generator: its stream is an implementation detail of XLA's CPU
# runtime, so only what JAX promises is compared: shape, dtype, weak type, range, jaxpr.
C("lax_rng_uniform_properties", "special2", "u = lax.rng_uniform(0.0, 1.0, (200,))\nv = lax.rng_uniform(jnp.float32(2.0), jnp.float32(3.0), (4, 5))\n"
  "i = lax.rng_uniform(0, 10, (50,))\n"
  "out = (u.shape, u.dtype.name, u.weak_type, bool(jnp.all((u >= 0) & (u < 1))), bool(jnp.std(u) > 0.2), "
  "v.shape, v.weak_type, bool(jnp.all((v >= 2) & (v < 3))), i.dtype.name, bool(jnp.all((i >= 0) & (i < 10))), "
  "str(jax.make_jaxpr(lambda: lax.rng_uniform(0.0, 1.0, (3,)))()))")
E("lax_rng_uniform_mixed_dtypes", "special2", "out = lax.rng_uniform(jnp.float32(0.0), jnp.int32(1), (2,))")
E("lax_rng_uniform_not_scalar", "special2", "out = lax.rng_uniform(jnp.zeros(2), jnp.ones(2), (2,))")

# ---------------------------------------------------------------- shard_map / smap (one device)
# A one-device mesh (JAX's CPU backend here has one device): each block is the whole array and
# every collective has one participant.
SMAP = ("mesh = jax.sharding.Mesh(np.array(jax.devices()), ('x',))\n"
        "mesh2 = jax.sharding.Mesh(np.array(jax.devices()).reshape(1, 1), ('a', 'b'))\nP = jax.P\nx = jnp.arange(6.0)\n")
C("shard_map_one_device", "special2", SMAP +
  "f = jax.shard_map(lambda a: (lax.psum(a, 'x'), lax.axis_index('x')[None], lax.all_gather(a, 'x'), lax.pmax(a.sum(), 'x')), "
  "mesh=mesh, in_specs=P('x'), out_specs=(P('x'), P('x'), P('x'), P()))\n"
  "g = jax.shard_map(lambda a, b: lax.psum(a @ b, 'b'), mesh=mesh2, in_specs=(P('a', 'b'), P('b', None)), out_specs=P('a', None))\n"
  "h = jax.shard_map(lambda a: lax.psum(a, ('a', 'b')) + lax.axis_index('b'), mesh=mesh2, in_specs=P('a', 'b'), out_specs=P('a', 'b'))\n"
  "out = (f(x), g(jnp.ones((2, 3)), jnp.arange(12.0).reshape(3, 4)), h(jnp.ones((2, 3))), "
  "jax.jit(jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x')))(x), "
  "jax.grad(lambda a: jax.shard_map(lambda b: lax.psum((b ** 2).sum(), 'x'), mesh=mesh, in_specs=P('x'), out_specs=P())(a))(x), "
  "jax.shard_map(lambda a: lax.pcast(a, 'x', to='varying'), mesh=mesh, in_specs=P(), out_specs=P('x'))(x))")
C("shard_map_decorator_and_smap", "special2", SMAP +
  "@partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))\ndef double(a):\n    return 2 * a\n"
  "with jax.set_mesh(mesh):\n"
  "    s = jax.smap(lambda a: a + lax.axis_index('x'), in_axes=0, out_axes=0, axis_name='x')(x)\n"
  "out = (double(x), s, jax.vmap(jax.shard_map(jnp.sin, mesh=mesh, in_specs=P(), out_specs=P()))(x.reshape(2, 3)))")
E("smap_without_mesh", "special2", SMAP + "out = jax.smap(lambda a: a + 1, in_axes=0, out_axes=0, axis_name='x')(x)")
E("lax_pcast_bad_to", "special2", SMAP + "out = jax.shard_map(lambda a: lax.pcast(a, 'x', to='nope'), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)",
  msg_prefix=51)   # JAX prints a set of strings: its order changes with the hash seed

# ---------------------------------------------------------------- config flags, transfer_guard
FLAGS = ("['allow_f16_reductions', 'array_garbage_collection_guard', 'auto_pcast', 'debug_key_reuse', 'enable_custom_prng', "
         "'jax2tf_associative_scan_reductions', 'no_execution', 'no_tracing', 'remove_size_one_mesh_axis_from_type', "
         "'softmax_custom_jvp', 'thread_guard', 'transfer_guard_device_to_device', 'transfer_guard_device_to_host', "
         "'transfer_guard_host_to_device']")
C("config_flags_defaults", "special2", f"names = {FLAGS}\n"
  "out = [getattr(jax, n).value for n in names] + [jax.config.jax_debug_key_reuse, jax.config.jax_transfer_guard_host_to_device, "
  "jax.config.jax2tf_associative_scan_reductions]")
C("config_flags_contexts", "special2",
  "with jax.transfer_guard('disallow'):\n"
  "    inside = (jax.config.jax_transfer_guard_host_to_device, jax.transfer_guard_device_to_host.value)\n"
  "with jax.softmax_custom_jvp(True):\n"
  "    g = (jax.softmax_custom_jvp.value, jax.grad(lambda x: jax.nn.softmax(x)[0])(jnp.array([1.0, 2.0, 3.0])))\n"
  "with jax.allow_f16_reductions(False), jax.auto_pcast(False):\n"
  "    r = (jax.allow_f16_reductions.value, jax.auto_pcast.value)\n"
  "with jax.transfer_guard_host_to_device('log'):\n"
  "    t = jax.config.jax_transfer_guard_host_to_device\n"
  "out = (inside, jax.transfer_guard_host_to_device.value, g, r, t, jax.debug_key_reuse(False) is not None)")
E("config_transfer_guard_bad_level", "special2", "with jax.transfer_guard('bad'):\n    out = 1")
E("config_transfer_guard_flag_bad_level", "special2", "out = jax.config.update('jax_transfer_guard_device_to_host', 'sometimes')")
