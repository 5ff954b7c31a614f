"""Case definitions for docs10_cases.json: what JAX's design notes and API pages (tools/doc_cells.py
--notes) and the strict comparison of the tutorials (--strict: errors' messages, numbers to 1e-6)
showed differing, recorded from real JAX 0.10.2 (area "docs10")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- jax.checkpoint(concrete=...)
# docs/jep/11830-new-remat-checkpoint.md shows the old `@partial(jax.checkpoint, concrete=True)`:
# JAX 0.10 raises NotImplementedError naming static_argnums and the JEP (gradpad: TypeError,
# unexpected keyword argument)
E("docs10_checkpoint_concrete_removed", "docs10",
  "out = jax.checkpoint(lambda x: x, concrete=True)")
E("docs10_remat_concrete_removed", "docs10",
  "out = jax.remat(lambda x: x, concrete=False)")

# ---------------------------------------------------------------- __jax_array__ (docs/jep/28661)
# JAX 0.10 no longer reads a user object's __jax_array__ where it needs an input's type: jnp/lax
# functions, jit/grad/vmap arguments, device_put, typeof raise ValueError; jnp.array/asarray and an
# Array's operators convert it; jnp.shape/ndim read it.
CA = ("class CustomArray:\n"
      "    def __init__(self, data):\n"
      "        self.data = data\n"
      "    def __jax_array__(self):\n"
      "        return jnp.asarray(self.data)\n"
      "arr = CustomArray(np.arange(5))\n")
for name, expr in [("multiply", "jnp.multiply(arr, 2)"), ("sin", "jnp.sin(arr)"),
                   ("jit_arg", "jax.jit(lambda x: x)(arr)"), ("lax_add", "lax.add(arr, arr)"),
                   ("grad_arg", "jax.grad(lambda x: x.sum())(CustomArray(np.ones(3, np.float32)))"),
                   ("vmap_arg", "jax.vmap(lambda x: x)(arr)"), ("sum", "jnp.sum(arr)"),
                   ("where", "jnp.where(True, arr, 0)"), ("device_put", "jax.device_put(arr)"),
                   ("typeof", "jax.typeof(arr)")]:
    E(f"docs10_jax_array_protocol_{name}", "docs10", CA + f"out = {expr}")
C("docs10_jax_array_protocol_explicit", "docs10", CA +
  "out = (jnp.asarray(arr), jnp.array(arr), jnp.ones(5) + arr, arr * jnp.ones(5) if hasattr(arr, '__mul__') "
  "else jnp.ones(5) * arr, jnp.shape(arr), jnp.ndim(arr), jnp.reshape(arr, (5, 1)))")

# ---------------------------------------------------------------- eager and jitted column means agree
# docs/notebooks/thinking_in_jax.md: np.allclose(norm(X), jax.jit(norm)(X), atol=1E-6) -> True for a
# (10000, 10) float32 X (JAX's eager ops are compiled by XLA as the jitted function is); gradpad's eager
# mean summed the column row after row, its jitted one with BLAS: up to 4e-6 apart, False
C("docs10_eager_and_jit_column_norm_agree", "docs10",
  "def norm(X):\n"
  "    X = X - X.mean(0)\n"
  "    return X / X.std(0)\n"
  "X = (jnp.arange(100000, dtype=jnp.float32) * 0.7548776 % 1.0).reshape(10000, 10) ** 2\n"
  "a, b = np.asarray(norm(X)), np.asarray(jax.jit(norm)(X))\n"
  "out = (bool(np.allclose(a, b, atol=1e-6)), bool(np.allclose(np.asarray(X.mean(0)), "
  "np.asarray(jax.jit(lambda X: X.mean(0))(X)), rtol=1e-7, atol=0)), bool(np.allclose(np.asarray(X.sum(0)), "
  "np.asarray(jax.jit(lambda X: X.sum(0))(X)), rtol=1e-7, atol=0)))")

# ---------------------------------------------------------------- names JAX 0.10 removed, with its message
# jax._src.api's docstrings (jax.device_put_sharded / device_put_replicated examples): AttributeError naming
# jax.device_put and the pmap migration guide; the other modules' removal tables likewise
for mod, name in [("jax", "device_put_sharded"), ("jax", "device_put_replicated"), ("jnp", "fix"),
                  ("lax", "pvary"), ("jax.scipy.special", "sph_harm")]:
    E(f"docs10_removed_name_{name}", "docs10", f"out = {mod}.{name}")

# ---------------------------------------------------------------- jnp.array inside jit is a tracer
# JAX 0.10: jnp.array/asarray of a constant under jit or make_jaxpr binds its conversion on the trace, so
# the result is a tracer (docs/tracing.md, the sharp bits: it cannot be a shape, an `if` condition or a
# Python int); a scalar stays a literal in the jaxpr, an array is a constvar. Under grad/vmap alone it is
# concrete. gradpad returned a concrete Array: jnp.zeros(jnp.array(3)) worked inside jit.
E("docs10_jit_array_const_as_shape", "docs10",
  "out = jax.jit(lambda x: jnp.zeros(jnp.array(3)) + x)(1.0)")
E("docs10_jit_array_const_in_full_shape", "docs10",
  "out = jax.jit(lambda x: jnp.ones((jnp.array(3), 2)) + x)(1.0)")
E("docs10_jit_array_const_bool", "docs10",
  "out = jax.jit(lambda x: x * 2 if jnp.array(True) else x)(1.0)", msg_prefix=60)
E("docs10_jit_array_const_int", "docs10",
  "out = jax.jit(lambda x: x + int(jnp.asarray(3)))(1.0)", msg_prefix=60)
E("docs10_jit_array_const_numpy", "docs10",
  "out = jax.jit(lambda x: x + np.asarray(jnp.array([1.0, 2.0])))(1.0)", msg_prefix=60)
# (the next two and the last case passed before the fix too: they guard what it must keep: scalars stay
# literals with their conversions folded, arrays are constvars, and grad/vmap alone keep it concrete)
C("docs10_jit_array_const_jaxprs", "docs10",
  "out = (str(jax.make_jaxpr(lambda x: x + jnp.array(3))(1.0)),\n"
  "       str(jax.make_jaxpr(lambda x: x + jnp.asarray(2.0) + jnp.array(1, jnp.int8))(1.0)),\n"
  "       str(jax.make_jaxpr(lambda x: x * jnp.array([1, 2]))(1.0)),\n"
  "       str(jax.make_jaxpr(lambda x: jnp.array(3) * 2 + x)(1)),\n"
  "       jax.jit(lambda x: x + jnp.array([1.0, 2.0]) * jnp.array(3))(1.0))")
C("docs10_grad_vmap_array_const_concrete", "docs10",
  "out = (jax.grad(lambda x: x * float(jnp.array(3.0)))(1.0),\n"
  "       jax.vmap(lambda x: x + int(jnp.array(2)))(jnp.arange(3.0)),\n"
  "       jax.jit(lambda x: x.reshape(int(np.prod(x.shape))))(jnp.ones((2, 3))))")
# docs/tracing.md: x.reshape(jnp.array(x.shape).prod()) under jit quotes the one traced size as a list
E("docs10_reshape_traced_size_message", "docs10",
  "out = jax.jit(lambda x: x.reshape(jnp.array(x.shape).prod()))(jnp.ones((2, 3)))")
E("docs10_reshape_two_unknown_sizes", "docs10",
  "out = jnp.ones((2, 3)).reshape([-1, -1])")

# ---------------------------------------------------------------- bitcasts between widths, Array.view, byteswap
# jax._src.numpy.array_methods' docstrings: jnp.zeros([1,2,3], dtype=jnp.int16).view(jnp.int8).shape -> (1, 2, 6);
# x.byteswap(). lax.bitcast_convert_type to a narrower dtype adds a trailing axis (gradpad returned numpy's
# view, (2, 6) for JAX's (2, 3, 2): a silent wrong shape), to a wider one consumes it; a broadcast or
# transposed operand raised numpy's "last axis must be contiguous".
C("docs10_bitcast_between_widths", "docs10",
  "x = jnp.arange(6, dtype=jnp.int16).reshape(2, 3)\n"
  "out = (lax.bitcast_convert_type(x, jnp.int8), lax.bitcast_convert_type(x.T, jnp.uint8),\n"
  "       jax.jit(lambda x: lax.bitcast_convert_type(x, jnp.uint8))(x),\n"
  "       lax.bitcast_convert_type(jnp.arange(8, dtype=jnp.int8).reshape(2, 2, 2), jnp.int16),\n"
  "       lax.bitcast_convert_type(jnp.zeros((2, 2, 2), jnp.int8), jnp.int16),\n"
  "       lax.bitcast_convert_type(jnp.arange(3.0), jnp.int32), jax.eval_shape(lambda x: lax.bitcast_convert_type(x, jnp.uint8), x).shape)")
E("docs10_bitcast_wider_needs_whole_last_axis", "docs10",
  "out = lax.bitcast_convert_type(jnp.arange(8, dtype=jnp.int8).reshape(2, 4), jnp.int16)")
C("docs10_array_view", "docs10",
  "x = jnp.arange(6, dtype=jnp.int16).reshape(2, 3)\n"
  "out = (jnp.zeros([1, 2, 3], dtype=jnp.int16).view(jnp.int8).shape, jnp.zeros([1, 2, 4], dtype=jnp.int8).view(jnp.int16).shape,\n"
  "       jnp.array([1, 0, 1], dtype=jnp.int8).view(jnp.bool_), jnp.array([1.0, 2.0]).view(jnp.complex64),\n"
  "       jnp.array([1 + 2j]).view(jnp.float32), jnp.array(1, jnp.int16).view(jnp.uint16), x.view(jnp.int8),\n"
  "       jnp.array([True, False]).view(jnp.int8), jax.jit(lambda x: x.view(jnp.int8))(x), x.view(jnp.uint16), x.view())")
E("docs10_array_view_0d_width", "docs10", "out = jnp.array(1, jnp.int16).view(jnp.int8)")
E("docs10_array_view_wider_divisor", "docs10", "out = jnp.arange(3, dtype=jnp.int16).view(jnp.int32)")
C("docs10_array_byteswap", "docs10",
  "x = jnp.arange(5, dtype='int32')\n"
  "out = (x.byteswap(), np.array(x.byteswap()).view('>i4').astype(np.int32), x.byteswap().byteswap(), jnp.array([1.5, -2.0]).byteswap(),\n"
  "       jax.jit(lambda x: x.byteswap())(jnp.arange(6, dtype=jnp.int16).reshape(2, 3)),\n"
  "       jnp.array([1 + 2j], jnp.complex64).byteswap(), jnp.arange(3, dtype=jnp.uint8).byteswap())")
# x64 off: a 64-bit target is truncated to its 32-bit dtype with JAX's warning (same width, no new axis)
C("docs10_bitcast_x64_request_truncated", "docs10",
  "out = (lax.bitcast_convert_type(jnp.arange(3.0), np.int64), lax.bitcast_convert_type(jnp.arange(3), np.float64))",
  expect_warning=True)

# ---------------------------------------------------------------- ufunc.reduce's static arguments
# jax._src.numpy.ufunc_api's reduceat docstring calls jnp.add.reduce(x, indices): axis is a static argument of
# JAX's jitted reduce, so an array there is "Non-hashable static arguments are not supported" (gradpad: numpy's
# TypeError about scalar indices)
E("docs10_ufunc_reduce_array_axis", "docs10",
  "out = jnp.add.reduce(jnp.array([1, 2, 3, 4, 5, 6, 7, 8]), jnp.array([0, 2, 5]))")

# ---------------------------------------------------------------- .at[...](wrap_negative_indices=False)
# jax._src.numpy.array_methods' `at` docstring: x.at[-1].set(99, wrap_negative_indices=False, mode='drop') drops
# the update (a negative index is out of bounds, not counted from the end); gradpad raised TypeError
# (unexpected keyword). Clamping modes (clip, and get's default) take it to 0.
C("docs10_at_wrap_negative_indices", "docs10",
  "x = jnp.arange(5.0)\n"
  "m = jnp.arange(12.0).reshape(3, 4)\n"
  "idx = jnp.array([0, -1, 2])\n"
  "out = (x.at[-1].set(99, wrap_negative_indices=False, mode='drop'), x.at[-1].set(99, wrap_negative_indices=False),\n"
  "       x.at[-1].set(99, wrap_negative_indices=False, mode='clip'), x.at[-1].get(wrap_negative_indices=False),\n"
  "       x.at[-1].get(wrap_negative_indices=False, mode='fill', fill_value=-7),\n"
  "       x.at[idx].add(10, wrap_negative_indices=False), x.at[idx].get(wrap_negative_indices=False, mode='fill', fill_value=0),\n"
  "       m.at[-1, -2].set(0, wrap_negative_indices=False, mode='drop'), m.at[..., -1].set(0, wrap_negative_indices=False),\n"
  "       m.at[1, -1].set(0, wrap_negative_indices=True), m.at[-1:, 1].set(0, wrap_negative_indices=False),\n"
  "       jax.jit(lambda x, i: x.at[i].set(5., wrap_negative_indices=False))(x, -2),\n"
  "       x.at[-2].multiply(3, wrap_negative_indices=False), x.at[-5].add(1, wrap_negative_indices=True))")

# ---------------------------------------------------------------- a leaked tracer's message
# docs/jep/4410-omnistaging.md: a key saved to a global inside jit, then used: UnexpectedTracerError naming the
# value's type "wrapped in a DynamicJaxprTracer" (LinearizeTracer under grad, BatchTracer under vmap)
LEAK = ("saved = []\n"
        "def f(x):\n"
        "    saved.append(x * 2)\n"
        "    return x\n")
E("docs10_leaked_tracer_jit", "docs10", LEAK + "jax.jit(f)(jnp.ones(3))\nout = saved[0] + 1")
E("docs10_leaked_tracer_grad", "docs10", LEAK + "jax.grad(f)(1.0)\nout = saved[0] + 1")
E("docs10_leaked_tracer_vmap", "docs10", LEAK + "jax.vmap(f)(jnp.ones(3))\nout = saved[0] + 1")

# ---------------------------------------------------------------- jax.ensure_compile_time_eval
# With jnp.array a tracer under jit (above), the JAX idiom for a concrete value while staging is
# ensure_compile_time_eval: inside it an op on concrete values runs now (gradpad's was only a name scope: its ops
# were staged, named `compile_time_eval`, and int() of them raised); ops on traced values are staged as usual;
# arrays made inside are constvars whose conversions are staged
C("docs10_ensure_compile_time_eval", "docs10",
  "@jax.jit\n"
  "def f(x):\n"
  "    with jax.ensure_compile_time_eval():\n"
  "        a = jnp.array(3)\n"
  "        n = int(a) + 1\n"
  "        k = int(jnp.arange(4).sum())\n"
  "    return x * n + k\n"
  "def g(x):\n"
  "    with jax.ensure_compile_time_eval():\n"
  "        y = jnp.sin(x)\n"
  "        z = jnp.arange(3) * 2\n"
  "    return y + z\n"
  "j = jax.make_jaxpr(g)(1.0)\n"
  "out = (f(2.0), str(j), [str(e.source_info.name_stack) for e in j.eqns], j.consts[0])")

# ---------------------------------------------------------------- make_mesh's device count
# docs/the-training-cookbook.rst: jax.make_mesh((128*4,), ("fsdp",)) on one device -> ValueError "Number of devices 1
# must be >= the product of mesh_shape (512,)"; given devices, JAX takes the first n too
E("docs10_make_mesh_too_few_devices", "docs10", "out = jax.make_mesh((128, 4), ('fsdp', 'tensor'))")
C("docs10_make_mesh_first_devices_given", "docs10",
  "out = dict(jax.make_mesh((1,), ('x',), devices=jax.devices() * 2).shape)")
