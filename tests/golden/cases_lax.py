"""Case definitions for lax_cases.json: jax.lax breadth (issue 11): convolutions as JAX's
"convolutions" tutorial uses them, windowed reductions, solvers and the rest of jax.lax's
public names, recorded from real JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- convolutions
# small deterministic operands: x is (N=2, C=3, W=7), k is (O=4, I=3, W=3); 2-d: (1, 2, 5, 6) / (3, 2, 3, 2)
X1 = "x = jnp.sin(jnp.arange(42.0)).reshape(2, 3, 7)\nk = jnp.cos(jnp.arange(36.0)).reshape(4, 3, 3)\n"
X2 = ("x = jnp.sin(jnp.arange(60.0) * 0.7).reshape(1, 2, 5, 6)\n"
      "k = jnp.cos(jnp.arange(36.0) * 0.3).reshape(3, 2, 3, 2)\n")

C("conv_1d_padding_kinds", "lax_conv", X1 +
  "out = (lax.conv_general_dilated(x, k, (1,), 'VALID'), lax.conv_general_dilated(x, k, (2,), 'SAME'),\n"
  "       lax.conv_general_dilated(x, k, (1,), 'SAME_LOWER'), lax.conv_general_dilated(x, k, (1,), [(2, 1)]),\n"
  "       lax.conv_general_dilated(x, k, (3,), ((-1, 2),)), lax.conv(x, k, (1,), 'SAME'))", atol=1e-5)
C("conv_2d_dilations", "lax_conv", X2 +
  "out = (lax.conv_general_dilated(x, k, (1, 1), 'SAME', rhs_dilation=(2, 1)),\n"
  "       lax.conv_general_dilated(x, k, (1, 2), ((2, 1), (1, 1)), lhs_dilation=(2, 2)),\n"
  "       lax.conv_general_dilated(x, k, (2, 1), ((1, 0), (0, 2)), lhs_dilation=(1, 3), rhs_dilation=(2, 2)),\n"
  "       lax.conv_with_general_padding(x, k, (1, 1), ((0, 1), (1, 0)), (2, 1), (1, 2)))", atol=1e-5)
C("conv_2d_layout_strings", "lax_conv", X2 +
  "xh = jnp.transpose(x, (0, 2, 3, 1))\nkh = jnp.transpose(k, (2, 3, 1, 0))\n"
  "dn = lax.conv_dimension_numbers(xh.shape, kh.shape, ('NHWC', 'HWIO', 'NHWC'))\n"
  "a = lax.conv_general_dilated(xh, kh, (1, 1), 'SAME', (1, 1), (1, 1), dn)\n"
  "b = lax.conv_general_dilated(xh, kh, (2, 1), 'VALID', dimension_numbers=('NHWC', 'HWIO', 'NCHW'))\n"
  "c = lax.conv_general_dilated(jnp.transpose(x, (3, 1, 0, 2)), jnp.transpose(k, (1, 3, 2, 0)), (1, 1), 'SAME',\n"
  "                             dimension_numbers=('WCNH', 'IWHO', 'HNCW'))\n"
  "out = (dn, a, b, c)", atol=1e-5)
C("conv_feature_groups", "lax_conv",
  "x = jnp.sin(jnp.arange(48.0)).reshape(2, 4, 6)\nk = jnp.cos(jnp.arange(12.0)).reshape(6, 2, 1) + jnp.arange(3.0)\n"
  "out = (lax.conv_general_dilated(x, k, (1,), 'SAME', feature_group_count=2),\n"
  "       lax.conv_general_dilated(x, jnp.ones((4, 1, 3)), (1,), 'VALID', feature_group_count=4))", atol=1e-5)
C("conv_batch_groups", "lax_conv",
  "x = jnp.sin(jnp.arange(48.0)).reshape(4, 2, 6)\nk = jnp.cos(jnp.arange(24.0)).reshape(4, 2, 3)\n"
  "out = (lax.conv_general_dilated(x, k, (1,), 'VALID', batch_group_count=2),\n"
  "       lax.conv_general_dilated(x, k, (2,), 'SAME', batch_group_count=4))", atol=1e-5)
C("conv_dtypes", "lax_conv",
  "x = jnp.arange(12, dtype=jnp.int8).reshape(1, 2, 6)\nk = jnp.ones((1, 2, 2), jnp.int8)\n"
  "out = (lax.conv(x, k, (1,), 'VALID'), lax.conv(x, k, (1,), 'VALID', preferred_element_type=jnp.int32),\n"
  "       lax.conv(jnp.ones((1, 1, 4), jnp.complex64) * 1j, jnp.ones((1, 1, 2), jnp.complex64), (1,), 'VALID'))")
C("conv_jaxpr", "lax_conv", X1 +
  "out = str(jax.make_jaxpr(lambda x, k: lax.conv_general_dilated(x, k, (2,), 'SAME', rhs_dilation=(2,)))(x, k))")
C("conv_grad_lhs_rhs", "lax_conv", X2 +
  "f = lambda x, k: (lax.conv_general_dilated(x, k, (2, 1), ((1, 2), (0, 1)), (1, 2), (2, 1)) ** 2).sum()\n"
  "out = jax.grad(f, argnums=(0, 1))(x, k)", rtol=1e-4, atol=1e-4)
C("conv_grad_groups", "lax_conv",
  "x = jnp.sin(jnp.arange(48.0)).reshape(2, 4, 6)\nk = jnp.cos(jnp.arange(12.0)).reshape(6, 2, 1) + jnp.arange(3.0)\n"
  "kb = jnp.cos(jnp.arange(16.0)).reshape(4, 4, 1)\n"
  "f = lambda x, k: jnp.tanh(lax.conv_general_dilated(x, k, (2,), 'SAME', feature_group_count=2)).sum()\n"
  "g = lambda x, k: jnp.tanh(lax.conv_general_dilated(x, k, (1,), [(1, 0)], batch_group_count=2)).sum()\n"
  "out = (jax.grad(f, (0, 1))(x, k), jax.grad(g, (0, 1))(x, kb))", rtol=1e-4, atol=1e-4)
C("conv_jvp_and_grad_of_grad", "lax_conv", X1 +
  "f = lambda x: lax.conv_general_dilated(x, k, (1,), 'SAME', dimension_numbers=('NCH', 'OIH', 'NHC'))\n"
  "out = (jax.jvp(f, (x,), (jnp.ones_like(x),)), jax.grad(lambda x: jax.grad(lambda x: (f(x) ** 3).sum())(x).sum())(x))",
  rtol=1e-4, atol=1e-4)
C("conv_vmap", "lax_conv", X1 +
  "xs = jnp.stack([x, 2 * x, -x])\nks = jnp.stack([k, k + 1.0, k * k])\n"
  "f = lambda x, k: lax.conv_general_dilated(x, k, (1,), 'SAME')\n"
  "g = lambda x, k: lax.conv_general_dilated(x, k, (1,), 'VALID', feature_group_count=3)\n"
  "kg = jnp.cos(jnp.arange(18.0)).reshape(3, 3, 2, 1)\nxg = jnp.sin(jnp.arange(84.0)).reshape(2, 6, 7)\n"
  "out = (jax.vmap(f, (0, None))(xs, k), jax.vmap(f, (None, 0))(x, ks), jax.vmap(f)(xs, ks),\n"
  "       jax.vmap(f, (2, None), 1)(jnp.moveaxis(xs, 0, 2), k),\n"
  "       jax.vmap(g, (None, 0))(xg, kg), jax.vmap(g, (0, 0))(jnp.stack([xg, xg * 0.5, -xg]), kg),\n"
  "       jax.jit(jax.vmap(jax.grad(lambda x, k: f(x, k).sum(), 1)))(xs, ks))", rtol=1e-4, atol=1e-4)
E("conv_mixed_dtypes", "lax_conv", X1 + "out = lax.conv(x, k.astype(jnp.int32), (1,), 'VALID')")
E("conv_bad_feature_groups", "lax_conv", X1 + "out = lax.conv_general_dilated(x, k, (1,), 'VALID', feature_group_count=2)")
E("conv_string_padding_with_lhs_dilation", "lax_conv", X1 +
  "out = lax.conv_general_dilated(x, k, (1,), 'SAME', lhs_dilation=(2,))")
E("conv_dimension_numbers_bad_string", "lax_conv", "out = lax.conv_dimension_numbers((1, 2, 3), (1, 2, 3), ('NCH', 'OIX', 'NCH'))")
E("conv_dimension_numbers_bad_rank", "lax_conv", "out = lax.conv_dimension_numbers((1, 2, 3), (1, 2, 3), ('NCHW', 'OIHW', 'NCHW'))")
C("conv_helpers", "lax_conv",
  "out = (lax.conv_general_permutations(('NHWC', 'HWIO', 'NCHW')), lax.conv_dimension_numbers((1, 2, 3, 4), (5, 6, 7, 8), None),\n"
  "       lax.padtype_to_pads((5, 6), (3, 2), (2, 1), 'SAME'), lax.padtype_to_pads((5, 6), (3, 2), (2, 1), 'SAME_LOWER'),\n"
  "       lax.padtype_to_pads((5,), (3,), (2,), 'valid'),\n"
  "       lax.conv_shape_tuple((2, 3, 9, 9), (4, 3, 3, 2), (2, 1), 'SAME'), lax.conv_shape_tuple((2, 3, 9), (4, 3, 3), (2,), ((1, 0),)),\n"
  "       lax.conv_general_shape_tuple((2, 9, 9, 3), (3, 2, 3, 4), (1, 2), 'VALID', ('NHWC', 'HWIO', 'NHWC')),\n"
  "       lax.conv_transpose_shape_tuple((2, 9, 9, 3), (3, 2, 3, 4), (2, 2), 'SAME', ('NHWC', 'HWIO', 'NHWC')),\n"
  "       lax.conv_transpose_shape_tuple((2, 5, 3), (3, 3, 4), (3,), 'VALID', ('NHC', 'HIO', 'NHC')),\n"
  "       lax.ConvDimensionNumbers((0, 1), (1, 0), (0, 1)).rhs_spec)")
E("padtype_unknown", "lax_conv", "out = lax.padtype_to_pads((5,), (3,), (1,), 'FULL')")
C("conv_transpose_kinds", "lax_conv",
  "x = jnp.sin(jnp.arange(40.0)).reshape(1, 5, 4, 2)\nk = jnp.cos(jnp.arange(36.0)).reshape(3, 2, 2, 3)\n"
  "out = (lax.conv_transpose(x, k, (2, 2), 'SAME'), lax.conv_transpose(x, k, (2, 1), 'VALID'),\n"
  "       lax.conv_transpose(x, k.reshape(3, 2, 3, 2), (1, 2), 'SAME', transpose_kernel=True),\n"
  "       lax.conv_transpose(x, k, (1, 2), ((1, 0), (2, 1))), lax.conv_transpose(x, k, (2, 2), ((0, 1), (1, 1)), use_consistent_padding=True),\n"
  "       lax.conv_transpose(x, k, (2, 1), 'VALID', rhs_dilation=(2, 1)),\n"
  "       lax.conv_transpose(x[0], k[0], (2,), 'SAME'))", atol=1e-5)
C("conv_transpose_is_grad_of_conv", "lax_conv",
  "x = jnp.sin(jnp.arange(32.0)).reshape(1, 4, 4, 2)\nk = jnp.cos(jnp.arange(36.0)).reshape(3, 3, 2, 2)\n"
  "fwd = lambda y: lax.conv_general_dilated(y, k, (2, 2), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'))\n"
  "y0 = jnp.zeros((1, 8, 8, 2))\n"
  "out = (jax.vjp(fwd, y0)[1](x)[0], lax.conv_transpose(x, k, (2, 2), 'SAME', transpose_kernel=True))", atol=1e-5)
C("conv_patches", "lax_conv", X2 +
  "out = (lax.conv_general_dilated_patches(x, (2, 3), (1, 2), 'VALID'),\n"
  "       lax.conv_general_dilated_patches(jnp.transpose(x, (0, 2, 3, 1)), (3, 2), (2, 1), 'SAME', rhs_dilation=(1, 2),\n"
  "                                        dimension_numbers=('NHWC', 'HWIO', 'NHWC')),\n"
  "       jax.grad(lambda x: (lax.conv_general_dilated_patches(x, (2, 2), (1, 1), 'SAME') ** 2).sum())(x))", atol=1e-5)
C("conv_local", "lax_conv",
  "x = jnp.sin(jnp.arange(40.0)).reshape(1, 2, 4, 5)\nw = jnp.cos(jnp.arange(12 * 3 * 3 * 3.0)).reshape(3, 12, 3, 3)\n"
  "out = (lax.conv_general_dilated_local(x, w, (1, 1), 'VALID', (2, 3)),\n"
  "       lax.conv_general_dilated_local(jnp.transpose(x, (0, 2, 3, 1)), jnp.transpose(w, (2, 3, 1, 0)), (1, 1), 'VALID', (2, 3),\n"
  "                                      dimension_numbers=('NHWC', 'HWIO', 'NHWC')))", atol=1e-5)

# ---------------------------------------------------------------- the convolutions tutorial, cell by cell
TUT_IMG = ("img = np.zeros((1, 20, 18, 3), dtype=np.float32)\n"
           "for k, (x0, y0) in enumerate([(2, 3), (9, 8), (12, 2)]):\n"
           "    img[0, x0:x0 + 4, y0:y0 + 4, k % 3] = 1.0\n"
           "img = jnp.array(img)\n"
           "kernel = jnp.zeros((3, 3, 3, 3), dtype=jnp.float32)\n"
           "kernel += jnp.array([[1, 1, 0], [1, 0, -1], [0, -1, -1]])[:, :, jnp.newaxis, jnp.newaxis]\n")
C("tutorial_conv_lax_conv", "lax_conv", TUT_IMG +
  "out = lax.conv(jnp.transpose(img, [0, 3, 1, 2]), jnp.transpose(kernel, [3, 2, 0, 1]), (1, 1), 'SAME')")
C("tutorial_conv_dimension_numbers", "lax_conv", TUT_IMG +
  "dn = lax.conv_dimension_numbers(img.shape, kernel.shape, ('NHWC', 'HWIO', 'NHWC'))\n"
  "out = (str(dn), lax.conv_general_dilated(img, kernel, (1, 1), 'SAME', (1, 1), (1, 1), dn),\n"
  "       lax.conv_general_dilated(img, kernel, (1, 1), 'VALID', (1, 1), (1, 1), dn).shape,\n"
  "       lax.conv_general_dilated(img, kernel, (2, 2), 'SAME', (1, 1), (1, 1), dn),\n"
  "       lax.conv_general_dilated(img, kernel, (1, 1), 'VALID', (1, 1), (4, 4), dn),\n"
  "       lax.conv_general_dilated(img, kernel, (1, 1), ((2, 1), (2, 1)), (2, 2), (1, 1), dn))")
C("tutorial_conv_1d_3d", "lax_conv",
  "kernel = np.array([1, 0, -1], dtype=np.float32)[:, np.newaxis, np.newaxis]\n"
  "data = np.zeros((1, 20, 1), dtype=np.float32)\n"
  "for i in range(0, 20, 5):\n"
  "    data[0, i:i + 2, 0] = 1.0\n"
  "dn = lax.conv_dimension_numbers(data.shape, kernel.shape, ('NWC', 'WIO', 'NWC'))\n"
  "one_d = lax.conv_general_dilated(data, kernel, (1,), 'SAME', (1,), (1,), dn)\n"
  "x, y, z = np.mgrid[-1:1:0.25, -1:1:0.25, -1:1:0.25]\n"
  "vol = np.sin(2 * x * np.pi) * np.cos(2 * y * np.pi) * np.cos(2 * z * np.pi)\n"
  "k3 = np.array([[[0, 0, 0], [0, 1, 0], [0, 0, 0]], [[0, -1, 0], [-1, 0, -1], [0, -1, 0]],\n"
  "               [[0, 0, 0], [0, 1, 0], [0, 0, 0]]], dtype=np.float32)[:, :, :, np.newaxis, np.newaxis]\n"
  "dn3 = lax.conv_dimension_numbers(vol[np.newaxis, ..., np.newaxis].shape, k3.shape, ('NHWDC', 'HWDIO', 'NHWDC'))\n"
  "three_d = lax.conv_general_dilated(vol[np.newaxis, ..., np.newaxis].astype(np.float32), k3, (1, 1, 1), 'SAME',\n"
  "                                   (1, 1, 1), (1, 1, 1), dn3)\n"
  "out = (dn, one_d, dn3, three_d)", atol=1e-5)
C("tutorial_conv_jnp_convolve", "lax_conv",
  "x = jnp.linspace(0, 10, 50)\ny = jnp.sin(x) + 0.2 * jnp.cos(7 * x)\nwindow = jnp.ones(10) / 10\n"
  "out = (jnp.convolve(y, window, mode='same'), jnp.convolve(y, window), jnp.convolve(y, window, mode='valid'),\n"
  "       jnp.correlate(y[:7], jnp.array([1.0, 2.0, -1.0]), mode='full'), jnp.convolve(jnp.arange(4), jnp.arange(3)))",
  atol=1e-5)

# ---------------------------------------------------------------- reduce_window and its primitives
W = "x = jnp.sin(jnp.arange(30.0) * 1.3).reshape(5, 6)\n"
C("reduce_window_monoids", "lax_window", W +
  "out = (lax.reduce_window(x, 0.0, lax.add, (2, 3), (1, 2), 'VALID'), lax.reduce_window(x, -jnp.inf, lax.max, (3, 2), (2, 1), 'SAME'),\n"
  "       lax.reduce_window(x, jnp.inf, lax.min, (2, 2), (1, 1), ((1, 0), (2, -1))),\n"
  "       lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), 'VALID', base_dilation=(2, 1), window_dilation=(1, 2)),\n"
  "       lax.reduce_window(jnp.arange(12).reshape(3, 4), 0, lax.add, (2, 2), (1, 1), 'SAME'),\n"
  "       lax.reduce_window(jnp.arange(12).reshape(3, 4), jnp.iinfo(jnp.int32).min, lax.max, (2, 2), (2, 2), 'SAME'))")
C("reduce_window_generic", "lax_window", W +
  "out = (lax.reduce_window(x, 1.0, lax.mul, (2, 2), (1, 1), 'VALID'), lax.reduce_window(x, 1.0, lax.add, (2, 2), (1, 1), 'VALID'),\n"
  "       lax.reduce_window(jnp.arange(10, dtype='float32'), jnp.float32(1), lax.mul, window_dimensions=(2,)),\n"
  "       lax.reduce_window((x, 2 * x), (0.0, -jnp.inf), lambda a, b: (a[0] + b[0], lax.max(a[1], b[1])), (2, 3), (1, 1), 'SAME'))",
  rtol=1e-5, atol=1e-5)
C("reduce_window_jaxprs", "lax_window", W +
  "out = (str(jax.make_jaxpr(lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), 'VALID'))(x)),\n"
  "       str(jax.make_jaxpr(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 1), 'SAME'))(x)),\n"
  "       str(jax.make_jaxpr(lambda x: lax.reduce_window(x, 1.0, lax.mul, (2, 2), (1, 1), 'VALID'))(x)),\n"
  "       str(jax.make_jaxpr(jax.grad(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 1), 'VALID').sum()))(x)))")
C("reduce_window_grads", "lax_window", W +
  "mx = lambda x: (lax.reduce_window(x, -jnp.inf, lax.max, (2, 3), (2, 1), 'SAME') ** 2).sum()\n"
  "mn = lambda x: jnp.sin(lax.reduce_window(x, jnp.inf, lax.min, (3, 2), (1, 2), ((1, 1), (0, 1)))).sum()\n"
  "sm = lambda x: (lax.reduce_window(x, 0.0, lax.add, (2, 2), (2, 1), ((1, 0), (0, 1)), base_dilation=(1, 2), window_dilation=(2, 1)) ** 2).sum()\n"
  "pr = lambda x: lax.reduce_window(x, 1.0, lax.mul, (2, 2), (1, 1), 'VALID').sum()\n"
  "out = (jax.grad(mx)(x), jax.grad(mn)(x), jax.grad(sm)(x), jax.jvp(pr, (x,), (jnp.ones_like(x),)),\n"
  "       jax.grad(lambda x: jax.grad(mx)(x).sum() + mx(x))(x), jax.jvp(mx, (x,), (x,)))", rtol=1e-4, atol=1e-5)
E("reduce_window_generic_grad", "lax_window", W +
  "out = jax.grad(lambda x: lax.reduce_window(x, 1.0, lax.mul, (2, 2), (1, 1), 'VALID').sum())(x)")
C("reduce_window_vmap", "lax_window", W +
  "xs = jnp.stack([x, -x, x * 2])\n"
  "mx = lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 3), (2, 1), 'SAME')\n"
  "sm = lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), 'VALID')\n"
  "pr = lambda x: lax.reduce_window(x, 1.0, lax.mul, (2, 2), (1, 1), 'VALID')\n"
  "out = (jax.vmap(mx)(xs), jax.vmap(sm, 1, 1)(xs), jax.vmap(pr, 2)(xs), jax.vmap(jax.grad(lambda x: mx(x).sum()))(xs),\n"
  "       jax.jit(jax.vmap(jax.grad(lambda x: (sm(x) ** 2).sum())))(xs))", rtol=1e-4, atol=1e-5)
C("max_pool_and_avg_pool", "lax_window",
  "img = jnp.cos(jnp.arange(2 * 6 * 6 * 3.0)).reshape(2, 6, 6, 3)\n"
  "pool = lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID')\n"
  "avg = lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), 'SAME') / 9.0\n"
  "out = (pool(img), avg(img), jax.grad(lambda x: pool(x).sum())(img)[0, :, :, 0], jax.grad(lambda x: (avg(x) ** 2).sum())(img)[1, :, :, 2])",
  rtol=1e-5, atol=1e-5)
C("reduce_window_shape_tuple", "lax_window",
  "out = (lax.reduce_window_shape_tuple((5, 6), (2, 2), (2, 1), [(0, 0), (1, 1)]),\n"
  "       lax.reduce_window_shape_tuple((5, 6), (2, 2), (2, 1), [(0, 0), (1, 1)], (2, 1), (1, 2)))")
E("reduce_window_wrong_rank", "lax_window", W + "out = lax.reduce_window(x, 0.0, lax.add, (2,), (1,), 'VALID')")
E("reduce_window_generic_dtype", "lax_window", W + "out = lax.reduce_window(x, jnp.int32(1), lax.mul, (2, 2), (1, 1), 'VALID')")
C("window_primitives_bound_directly", "lax_window", W +
  "s = jnp.arange(6.0).reshape(2, 3) + 1.0\n"
  "out = (lax.reduce_window_sum_p.bind(x, window_dimensions=(2, 2), window_strides=(1, 1), padding=((0, 0), (0, 0)), base_dilation=(1, 1), window_dilation=(1, 1)),\n"
  "       lax.select_and_scatter_add_p.bind(s, x, select_prim=lax.ge_p, window_dimensions=(3, 2), window_strides=(2, 2), padding=((0, 1), (0, 0))),\n"
  "       lax.select_and_gather_add_p.bind(2 * x, x, select_prim=lax.le_p, window_dimensions=(2, 3), window_strides=(1, 1), padding=((0, 0), (1, 1)), base_dilation=(1, 1), window_dilation=(1, 1)),\n"
  "       lax.reduce_window_max_p.name, lax.reduce_window_min_p.name, lax.reduce_window_p.name, lax.select_and_scatter_p.name)")

# ---------------------------------------------------------------- scatter_sub, the scatter primitives, reduce_*
SC = ("x = jnp.arange(5.0)\nidx = jnp.array([[1], [3], [1]])\nu = jnp.array([1.0, 2.0, 3.0])\n"
      "dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))\n")
C("scatter_sub", "lax_scatter", SC +
  "f = lambda x, u: lax.scatter_sub(x, idx, u, dn)\n"
  "out = (f(x, u), str(jax.make_jaxpr(f)(x, u)), jax.grad(lambda x, u: (f(x, u) ** 2).sum(), (0, 1))(x, u),\n"
  "       jax.jvp(f, (x, u), (jnp.ones(5), jnp.ones(3))), jax.vmap(f, (None, 0))(x, jnp.stack([u, 2 * u])),\n"
  "       lax.scatter_sub(jnp.arange(5), idx, jnp.array([1, 2, 3]), dn, mode='clip'))")
C("scatter_primitive_names", "lax_scatter",
  "out = [p.name for p in (lax.scatter_p, lax.scatter_add_p, lax.scatter_sub_p, lax.scatter_mul_p, lax.scatter_min_p, lax.scatter_max_p)]")
C("reduce_xor_and_precision", "lax_reduce",
  "v = jnp.array([1.2345678, 1e10, -3.3e-9, 65519.0, 70000.0, jnp.nan, -jnp.inf, 3e-5])\n"
  "out = (lax.reduce_xor(jnp.array([[1, 2], [3, 7]]), (0,)), lax.reduce_xor(jnp.array([[True, False], [True, True]]), (1,)),\n"
  "       lax.reduce_precision(v, exponent_bits=5, mantissa_bits=10), lax.reduce_precision(v, 8, 7), lax.reduce_precision(v, 8, 23),\n"
  "       lax.reduce_precision(v, 4, 3), lax.reduce_precision(2.5, 2, 1),\n"
  "       str(jax.make_jaxpr(lambda x: lax.reduce_precision(x, 5, 10))(v)), str(jax.make_jaxpr(lambda x: lax.reduce_xor(x, (0,)))(jnp.arange(3))),\n"
  "       jax.grad(lambda x: (lax.reduce_precision(x, 5, 2) * x).sum())(v[:2]), jax.vmap(lambda x: lax.reduce_precision(x, 3, 2))(v))")
C("reduce_precision_x64", "lax_reduce",
  "jax.config.update('jax_enable_x64', True)\n"
  "out = (lax.reduce_precision(jnp.array([1.2345678901234, 1e300, 1e-300]), 8, 23), lax.reduce_precision(jnp.array([1.2345678901234]), 11, 30))")
E("reduce_precision_int", "lax_reduce", "out = lax.reduce_precision(jnp.arange(3), 5, 10)")
C("reduce_general", "lax_reduce",
  "x = jnp.sin(jnp.arange(12.0)).reshape(3, 4)\n"
  "f = lambda x: lax.reduce(x, 0.0, lambda a, b: a + 2 * b, (0,))\n"
  "g = lambda x: lax.reduce((x, jnp.cos(x)), (0.0, 1.0), lambda a, b: (a[0] + b[0], a[1] * b[1]), (1,))\n"
  "h = lambda x: lax.reduce(x, 1.0, lambda a, b: a * b, (0, 1))\n"
  "out = (f(x), g(x), h(x), jax.jit(g)(x), jax.grad(lambda x: f(x).sum())(x), jax.grad(lambda x: g(x)[1].sum())(x), jax.grad(h)(x),\n"
  "       jax.jvp(h, (x,), (jnp.ones_like(x),)), jax.vmap(f)(jnp.stack([x, -x])), jax.vmap(g, 1, 1)(jnp.stack([x, 2 * x], 1)),\n"
  "       lax.reduce(jnp.arange(6).reshape(2, 3), 0, lambda a, b: a ^ b, (1,)),\n"
  "       lax.reduce(jnp.zeros((0, 2)), 5.0, lambda a, b: a - b, (0,)), lax.reduce_p.name)", rtol=1e-5, atol=1e-5)
E("reduce_general_dtype_mismatch", "lax_reduce", "out = lax.reduce(jnp.ones(3), jnp.int32(0), lambda a, b: a + 2 * b, (0,))")
E("reduce_general_tree_mismatch", "lax_reduce", "out = lax.reduce((jnp.ones(3), jnp.ones(3)), 0.0, lambda a, b: a, (0,))")

# ---------------------------------------------------------------- custom_linear_solve, custom_root
LS = ("a = jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.0, 2.0, 5.0]])\nb = jnp.array([1.0, -2.0, 0.5])\n"
      "def ls(a, b, **kw):\n"
      "    return lax.custom_linear_solve(lambda x: a @ x, b, lambda mv, v: jnp.linalg.solve(a, v),\n"
      "                                   lambda vm, v: jnp.linalg.solve(a.T, v), **kw)\n")
C("custom_linear_solve_values_and_grads", "lax_solve", LS +
  "loss = lambda a, b: (ls(a, b) ** 2).sum()\n"
  "out = (ls(a, b), jax.grad(loss, (0, 1))(a, b), jax.jvp(lambda b: ls(a, b), (b,), (jnp.ones(3),)),\n"
  "       jax.jvp(lambda a: ls(a, b), (a,), (jnp.eye(3),)), jax.jit(jax.grad(loss))(a, b),\n"
  "       jax.vmap(lambda b: ls(a, b))(jnp.stack([b, 2 * b])), jax.vmap(ls)(jnp.stack([a, a.T]), jnp.stack([b, b])),\n"
  "       jax.grad(lambda b: jax.vmap(lambda b: ls(a, b))(jnp.stack([b, -b])).sum())(b))", rtol=1e-4, atol=1e-5)
C("custom_linear_solve_symmetric_pytree_aux", "lax_solve",
  "m = jnp.array([[2.0, 0.5], [0.5, 1.0]])\n"
  "mv = lambda x: {'u': m @ x['u'], 'v': 3.0 * x['v']}\n"
  "sv = lambda f, y: {'u': jnp.linalg.solve(m, y['u']), 'v': y['v'] / 3.0}\n"
  "rhs = {'u': jnp.array([1.0, 2.0]), 'v': jnp.array(0.5)}\n"
  "s = lambda r: lax.custom_linear_solve(mv, r, sv, symmetric=True)\n"
  "s_aux = lambda r: lax.custom_linear_solve(mv, r, lambda f, y: (sv(f, y), y['u'].sum()), symmetric=True, has_aux=True)\n"
  "out = (s(rhs), jax.grad(lambda r: s(r)['u'].sum() + s(r)['v'])(rhs), s_aux(rhs), jax.grad(lambda r: s_aux(r)[0]['u'][0])(rhs))",
  rtol=1e-5, atol=1e-6)
E("custom_linear_solve_grad_needs_transpose_solve", "lax_solve", LS +
  "out = jax.grad(lambda b: lax.custom_linear_solve(lambda x: a @ x, b, lambda mv, v: jnp.linalg.solve(a, v)).sum())(b)")
C("custom_linear_solve_forward_without_transpose", "lax_solve", LS +
  "f = lambda b: lax.custom_linear_solve(lambda x: a @ x, b, lambda mv, v: jnp.linalg.solve(a, v))\n"
  "out = (f(b), jax.jvp(f, (b,), (b,)), jax.jacfwd(f)(b))", rtol=1e-5, atol=1e-6)
E("custom_linear_solve_shape_mismatch", "lax_solve", LS +
  "out = lax.custom_linear_solve(lambda x: a @ x, b, lambda mv, v: v[:2])")
RT = ("def newton(f, x0):\n"
      "    def body(x):\n"
      "        return x - f(x) / jax.grad(f)(x)\n"
      "    return lax.fori_loop(0, 20, lambda i, x: body(x), x0)\n"
      "def sqrt_root(a):\n"
      "    return lax.custom_root(lambda x: x ** 2 - a, 1.0, newton, lambda g, y: y / g(1.0))\n")
C("custom_root_sqrt", "lax_solve", RT +
  "out = (sqrt_root(2.0), jax.grad(sqrt_root)(2.0), jax.grad(jax.grad(sqrt_root))(2.0), jax.jit(jax.grad(sqrt_root))(9.0),\n"
  "       jax.vmap(jax.grad(sqrt_root))(jnp.array([1.0, 4.0, 16.0])), jax.jvp(sqrt_root, (4.0,), (1.0,)))", rtol=1e-4, atol=1e-5)
C("custom_root_vector_and_aux", "lax_solve",
  "def solve(f, x0):\n"
  "    x = lax.fori_loop(0, 30, lambda i, x: x - 0.2 * f(x), x0)\n"
  "    return x, jnp.abs(f(x)).max()\n"
  "def fixed(p):\n"
  "    f = lambda x: x - jnp.tanh(p * x) - 1.0\n"
  "    return lax.custom_root(f, jnp.zeros(2), solve, lambda g, y: jnp.linalg.solve(jax.jacobian(g)(y), y), has_aux=True)\n"
  "p = jnp.array([0.5, -0.3])\n"
  "out = (fixed(p), jax.jacobian(lambda p: fixed(p)[0])(p))", rtol=1e-4, atol=1e-5)
E("custom_root_tree_mismatch", "lax_solve",
  "out = lax.custom_root(lambda x: (x, x), 1.0, lambda f, x: x, lambda g, y: y)")
C("linear_solve_p_name", "lax_solve", "out = lax.linear_solve_p.name")

# ---------------------------------------------------------------- elementwise extras
C("clz_mulhi", "lax_misc",
  "out = (lax.clz(jnp.array([1, 0, -5, 255, 2 ** 30], jnp.int32)), lax.clz(jnp.array([1, 0, 200], jnp.uint8)),\n"
  "       lax.clz(jnp.array([3, -1], jnp.int16)),\n"
  "       lax.mulhi(jnp.array([2 ** 31 - 1, -7, 123456789, -2 ** 31], jnp.int32), jnp.array([2 ** 30, 3, 987654321, -2 ** 31], jnp.int32)),\n"
  "       lax.mulhi(jnp.array([2 ** 32 - 1, 12345], jnp.uint32), jnp.array([2 ** 32 - 1, 2 ** 31], jnp.uint32)),\n"
  "       lax.mulhi(jnp.array([-3], jnp.int8), jnp.array([100], jnp.int8)),\n"
  "       jax.vmap(lax.clz)(jnp.arange(4).reshape(2, 2)), jax.jit(lax.mulhi)(jnp.arange(3), jnp.arange(3) * 2 ** 30))")
C("mulhi_64bit", "lax_misc",
  "jax.config.update('jax_enable_x64', True)\n"
  "out = (lax.mulhi(jnp.array([2 ** 62, -5, 3], jnp.int64), jnp.array([8, 2 ** 63 - 1, -(2 ** 62)], jnp.int64)),\n"
  "       lax.mulhi(jnp.array([2 ** 64 - 1], jnp.uint64), jnp.array([2 ** 64 - 1], jnp.uint64)), lax.clz(jnp.array([1, 2 ** 40], jnp.int64)))")
E("clz_float", "lax_misc", "out = lax.clz(jnp.ones(2))")
C("complex_values", "lax_misc",
  "out = (lax.complex(jnp.float32(1), 2.0), lax.complex(1.0, 2.0), lax.complex(jnp.arange(3.0), jnp.ones(3)),\n"
  "       jax.jvp(lax.complex, (1.0, 2.0), (1.0, 0.5)), jax.vmap(lax.complex)(jnp.arange(2.0), jnp.arange(2.0) + 5),\n"
  "       str(jax.make_jaxpr(lax.complex)(1.0, 2.0)))")
E("complex_int", "lax_misc", "out = lax.complex(jnp.arange(2), jnp.arange(2))")

# ---------------------------------------------------------------- shapes
C("tile_stack_empty", "lax_misc",
  "x = jnp.arange(6).reshape(2, 3)\n"
  "out = (lax.tile(x, (2, 2)), lax.tile(jnp.arange(3.0), (3,)), str(jax.make_jaxpr(lambda a: lax.tile(a, (2,)))(jnp.arange(3))),\n"
  "       jax.grad(lambda a: (lax.tile(a, (2, 3)) * jnp.arange(36.0).reshape(4, 9)).sum())(jnp.ones((2, 3))),\n"
  "       jax.vmap(lambda a: lax.tile(a, (2,)))(x),\n"
  "       lax.stack([jnp.arange(3), jnp.ones(3, jnp.int32)], 1), lax.stack([1.0, 2.0]), lax.stack([x, x], -1).shape,\n"
  "       str(jax.make_jaxpr(lambda a: lax.stack([a, a]))(jnp.arange(3))),\n"
  "       jax.grad(lambda a, b: (lax.stack([a, b]) * jnp.array([[1.0, 2.0], [3.0, 4.0]])).sum(), (0, 1))(jnp.ones(2), jnp.ones(2)),\n"
  "       jax.vmap(lambda a, b: lax.stack([a, b], 0), (0, None))(x, jnp.arange(3)),\n"
  "       lax.empty((2, 3), jnp.float32).shape, str(lax.empty(3, jnp.int32).dtype))")
E("tile_wrong_reps", "lax_misc", "out = lax.tile(jnp.arange(3), (2, 2))")
C("shape_helpers", "lax_misc",
  "out = (lax.broadcast_shapes((2, 1), (3,)), lax.broadcast_shapes((1,), (1, 5), ()),\n"
  "       lax.collapse(jnp.zeros((2, 3, 4)), 1).shape, lax.collapse(jnp.arange(24).reshape(2, 3, 4), 0, 2),\n"
  "       lax.collapse(jnp.zeros((2, 3, 4)), -2, None).shape,\n"
  "       lax.batch_matmul(jnp.arange(24.0).reshape(2, 3, 4), jnp.arange(40.0).reshape(2, 4, 5)),\n"
  "       lax.index_take(jnp.arange(12).reshape(3, 4), (jnp.array([0, 2, -1]), jnp.array([1, 3, 5])), (0, 1)),\n"
  "       lax.index_take(jnp.arange(24).reshape(2, 3, 4), (jnp.array([1, 4]),), (1,)),\n"
  "       lax.broadcast_like(jnp.float32(1), jnp.zeros((2, 2))), lax.broadcast_like(jnp.arange(3), jnp.zeros((2, 3))),\n"
  "       [str(lax.dtype(v)) for v in (1.0, jnp.int8(1), True, jnp.arange(2), 'float32', 3, np.float64, np.arange(2.0))])")
E("broadcast_shapes_incompatible", "lax_misc", "out = lax.broadcast_shapes((2,), (3,))")
E("collapse_bad_range", "lax_misc", "out = lax.collapse(jnp.zeros((2, 3)), 2, 1)")
E("batch_matmul_ranks", "lax_misc", "out = lax.batch_matmul(jnp.ones((2, 3, 4)), jnp.ones((4, 5)))")

# ---------------------------------------------------------------- fft
FX = "x = jnp.cos(jnp.arange(12.0)).reshape(3, 4)\nz = x + 1j * jnp.sin(jnp.arange(12.0)).reshape(3, 4)\n"
C("lax_fft_kinds", "lax_misc", FX +
  "out = (lax.fft(z, lax.FftType.FFT, (4,)), lax.fft(z, 'ifft', (3, 4)), lax.fft(x, 'RFFT', (4,)), lax.fft(x, lax.FftType.RFFT, (3, 4)),\n"
  "       lax.fft(lax.fft(x, 'RFFT', (4,)), 'IRFFT', (4,)), lax.fft(jnp.arange(4), 'FFT', (4,)), lax.fft(x, 'FFT', ()),\n"
  "       list(lax.FftType), int(lax.FftType.IRFFT))", atol=1e-5)
C("lax_fft_derivatives", "lax_misc", FX +
  "out = (jax.vjp(lambda x: lax.fft(x, 'RFFT', (4,)), x)[1](jnp.ones((3, 3)) * (1 - 2j) + jnp.arange(3.0)),\n"
  "       jax.vjp(lambda x: lax.fft(x, 'RFFT', (3, 4)), x)[1](jnp.ones((3, 3)) * (1 + 1j) + jnp.arange(3.0)),\n"
  "       jax.vjp(lambda z: lax.fft(z, 'IFFT', (4,)), z)[1](z * 1j),\n"
  "       jax.grad(lambda x: (lax.fft(lax.fft(x, 'RFFT', (4,)) * (1 + 2j), 'IRFFT', (4,)) ** 2).sum())(x),\n"
  "       jax.jvp(lambda z: lax.fft(z, 'FFT', (3, 4)), (z,), (z * 0.5,)),\n"
  "       jax.vmap(lambda x: lax.fft(x, 'RFFT', (4,)))(x), jax.vmap(lambda z: lax.fft(z, 'IFFT', (3,)), 1, 1)(z))", rtol=1e-4, atol=1e-4)
E("lax_fft_rfft_complex", "lax_misc", FX + "out = lax.fft(z, 'RFFT', (4,))")
E("lax_fft_unknown_type", "lax_misc", FX + "out = lax.fft(x, 3, (4,))")

# ---------------------------------------------------------------- barriers, tokens, staging helpers
C("optimization_barrier_and_friends", "lax_misc",
  "out = (lax.optimization_barrier((1.0, jnp.arange(2))), str(jax.make_jaxpr(lambda a: lax.optimization_barrier((a, a * 2)))(1.0)),\n"
  "       jax.grad(lambda a: lax.optimization_barrier(a) ** 2)(3.0), jax.vmap(lambda a: lax.optimization_barrier(a) * 2)(jnp.arange(3.0)),\n"
  "       lax.dce_sink(jnp.arange(2)), str(jax.make_jaxpr(lambda a: lax.dce_sink(a))(1.0)),\n"
  "       lax.stage(jnp.arange(2)), str(jax.make_jaxpr(lambda a: lax.stage(a))(1.0)),\n"
  "       type(lax.create_token()).__name__, type(lax.after_all(lax.create_token(), lax.create_token())).__name__,\n"
  "       lax.shape_as_value((2, 3)),\n"
  "       lax.with_sharding_constraint(jnp.arange(3.0), jax.sharding.SingleDeviceSharding(jax.devices()[0])),\n"
  "       lax.platform_dependent(2.0, cpu=lambda x: x * 10, default=lambda x: x),\n"
  "       lax.platform_dependent(2.0, tpu=lambda x: x * 10, default=lambda x: x - 1),\n"
  "       jax.jit(lambda v: lax.platform_dependent(v, cpu=lambda x: x * 10, default=lambda x: x))(2.0))")
E("with_sharding_constraint_spec_without_mesh", "lax_misc",
  "out = lax.with_sharding_constraint(jnp.arange(3.0), jax.sharding.PartitionSpec())")
E("platform_dependent_no_branch", "lax_misc", "out = lax.platform_dependent(2.0, tpu=lambda x: x * 10)")
C("composite_op", "lax_misc",
  "f = lax.composite(lambda x, y: x * 2 + y, name='my.op')\n"
  "g = lax.composite(lambda x, *, scale: x * scale, name='my.scale', version=2)\n"
  "out = (f(1.0, 2.0), str(jax.make_jaxpr(f)(1.0, 2.0)), jax.jit(f)(1.0, 2.0), g(jnp.arange(3.0), scale=3.0))")
E("composite_no_vmap", "lax_misc", "f = lax.composite(lambda x: x * 2, name='my.double')\nout = jax.vmap(f)(jnp.arange(3.0))")
E("composite_no_jvp", "lax_misc", "f = lax.composite(lambda x: x * 2, name='my.double')\nout = jax.grad(f)(1.0)")

# ---------------------------------------------------------------- approx top k
C("approx_max_min_k", "lax_misc",
  "v = jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])\nm = jnp.array([[3.0, 1.0, 4.0], [1.0, 5.0, 9.0]])\n"
  "out = (lax.approx_max_k(v, 3), lax.approx_min_k(m, 2), lax.approx_max_k(m, 1, reduction_dimension=0),\n"
  "       str(jax.make_jaxpr(lambda a: lax.approx_max_k(a, 2))(jnp.arange(4.0))),\n"
  "       jax.grad(lambda v: lax.approx_max_k(v, 2)[0].sum())(v), jax.vmap(lambda r: lax.approx_min_k(r, 2))(m))")

# ---------------------------------------------------------------- collectives under vmap
C("ppermute_pshuffle_psum_scatter", "lax_misc",
  "out = (jax.vmap(lambda x: lax.ppermute(x, 'i', [(0, 1), (1, 2), (2, 0)]), axis_name='i')(jnp.arange(3.0)),\n"
  "       jax.vmap(lambda x: lax.pshuffle(x, 'i', [2, 0, 1]), axis_name='i')(jnp.arange(3.0)),\n"
  "       jax.vmap(lambda x: lax.psum_scatter(x, 'i'), axis_name='i')(jnp.arange(9.0).reshape(3, 3)),\n"
  "       jax.vmap(lambda x: lax.psum_scatter(x, 'i', tiled=True), axis_name='i')(jnp.arange(18.0).reshape(3, 6)),\n"
  "       jax.vmap(lambda x: lax.psum_scatter(x, 'i', scatter_dimension=1), axis_name='i')(jnp.arange(18.0).reshape(3, 2, 3)),\n"
  "       jax.grad(lambda x: (jax.vmap(lambda x: lax.ppermute(x, 'i', [(0, 1), (1, 2), (2, 0)]), axis_name='i')(x) * jnp.arange(3.0)).sum())(jnp.arange(3.0)),\n"
  "       jax.grad(lambda x: (jax.vmap(lambda x: lax.psum_scatter(x, 'i'), axis_name='i')(x) * jnp.arange(3.0)).sum())(jnp.arange(9.0).reshape(3, 3)),\n"
  "       jax.vmap(lambda x: lax.ppermute(x, 'i', [(0, 1), (1, 0)]), axis_name='i', in_axes=1, out_axes=1)(jnp.arange(6.0).reshape(3, 2)))")
E("ppermute_unbound_axis", "lax_misc", "out = lax.ppermute(1.0, 'i', [(0, 1)])")

# ---------------------------------------------------------------- enums and option types
C("lax_enums_and_types", "lax_misc",
  "x = jnp.arange(6.0).reshape(2, 3)\n"
  "out = ([m.name for m in lax.RoundingMethod], lax.round(jnp.array([0.5, 1.5, 2.5, -0.5]), lax.RoundingMethod.TO_NEAREST_EVEN),\n"
  "       lax.round(jnp.array([0.5, 1.5, 2.5, -0.5]), lax.RoundingMethod.AWAY_FROM_ZERO),\n"
  "       [(m.name, m.value) for m in lax.RandomAlgorithm], [(m.name, m.value) for m in lax.DotAlgorithmPreset],\n"
  "       [(m.name, m.value) for m in lax.AccuracyMode], repr(lax.DotAlgorithmPreset.F32_F32_F32), str(lax.DotAlgorithmPreset.DEFAULT),\n"
  "       lax.DotAlgorithm(lhs_precision_type=jnp.float32, rhs_precision_type=jnp.float32, accumulation_type=jnp.float32).num_primitive_operations,\n"
  "       lax.Tolerance(atol=1e-3, ulps=2).ulps,\n"
  "       lax.dot(x, x.T, precision=lax.DotAlgorithmPreset.F32_F32_F32), lax.dot(x, x.T, precision='highest'),\n"
  "       jnp.dot(x, x.T, precision=lax.DotAlgorithmPreset.DEFAULT),\n"
  "       repr(lax.RaggedDotDimensionNumbers(dot_dimension_numbers=(([1], [1]), ([], [])), lhs_ragged_dimensions=[0], rhs_group_dimensions=[0])))")
E("tolerance_negative", "lax_misc", "out = lax.Tolerance(atol=-1.0)")

# ---------------------------------------------------------------- ragged dots
RG = ("lhs = jnp.sin(jnp.arange(24.0)).reshape(6, 4)\nrhs = jnp.cos(jnp.arange(36.0)).reshape(3, 4, 3)\n"
      "gs = jnp.array([2, 3, 1], jnp.int32)\n")
C("ragged_dot_mode1", "lax_ragged", RG +
  "out = (lax.ragged_dot(lhs, rhs, gs), lax.ragged_dot(lhs, rhs, jnp.array([1, 0, 3], jnp.int32)),\n"
  "       jax.grad(lambda l, r: (lax.ragged_dot(l, r, gs) ** 2).sum(), (0, 1))(lhs, rhs),\n"
  "       jax.jit(lax.ragged_dot)(lhs, rhs, gs),\n"
  "       lax.ragged_dot(lhs.astype(jnp.int8), rhs.astype(jnp.int8), gs, preferred_element_type=jnp.int32))", rtol=1e-5, atol=1e-5)
C("ragged_dot_general_modes", "lax_ragged",
  "a = jnp.sin(jnp.arange(24.0)).reshape(4, 6)\nb = jnp.cos(jnp.arange(18.0)).reshape(6, 3)\n"
  "gs = jnp.array([2, 3, 1], jnp.int32)\n"
  "contract = lax.RaggedDotDimensionNumbers(dot_dimension_numbers=(([1], [0]), ([], [])), lhs_ragged_dimensions=[1], rhs_group_dimensions=[])\n"
  "x = jnp.sin(jnp.arange(48.0)).reshape(6, 2, 4)\ny = jnp.cos(jnp.arange(72.0)).reshape(6, 4, 3)\n"
  "batch = lax.RaggedDotDimensionNumbers(dot_dimension_numbers=(([2], [1]), ([0], [0])), lhs_ragged_dimensions=[0], rhs_group_dimensions=[])\n"
  "w = jnp.cos(jnp.arange(72.0)).reshape(3, 2, 4, 3)\n"
  "nc = lax.RaggedDotDimensionNumbers(dot_dimension_numbers=(([2], [2]), ([1], [1])), lhs_ragged_dimensions=[0], rhs_group_dimensions=[0])\n"
  "out = (lax.ragged_dot_general(a, b, gs, contract), lax.ragged_dot_general(x, y, jnp.array([1, 2, 2], jnp.int32), batch),\n"
  "       lax.ragged_dot_general(x, w, gs, nc), jax.grad(lambda x: lax.ragged_dot_general(x, w, gs, nc).sum())(x))",
  rtol=1e-5, atol=1e-5)

# ---------------------------------------------------------------- total-order comparisons, copy, device_put
C("total_order_comparisons_copy_device_put", "lax_misc",
  "x = jnp.array([-jnp.nan, -jnp.inf, -1.0, -0.0, 0.0, 1.0, jnp.inf, jnp.nan])\n"
  "out = (lax.lt_to_p.bind(x, jnp.zeros(8)), lax.eq_to_p.bind(x, -x), lax.eq_to_p.bind(x, x), lax.le_to_p.bind(x, jnp.zeros(8)),\n"
  "       lax.le_to_p.bind(jnp.arange(3), jnp.ones(3, jnp.int32)), lax.lt_to_p.bind(jnp.array([1, 2], jnp.uint8), jnp.array([2, 2], jnp.uint8)),\n"
  "       lax.copy_p.bind(jnp.arange(3.0)), str(jax.make_jaxpr(lambda x: lax.copy_p.bind(x))(1.0)),\n"
  "       jax.grad(lambda x: lax.copy_p.bind(x) * 3.0)(2.0),\n"
  "       lax.eq_to_p.name, lax.device_put_p.name, lax.device_put_p.multiple_results)")
C("tutorial_conv_smoothing_cells", "lax_conv",
  "key = random.key(1701)\nx = jnp.linspace(0, 10, 500)\ny = jnp.sin(x) + 0.2 * random.normal(key, shape=(500,))\n"
  "y_smooth = jnp.convolve(y, jnp.ones(10) / 10, mode='same')\n"
  "img = jnp.asarray(np.linspace(0, 1, 24 * 16).reshape(24, 16).astype(np.float32))\n"
  "noisy = img + 50 * random.normal(key, img.shape)\nxx = jnp.linspace(-3, 3, 7)\n"
  "window = jax.scipy.stats.norm.pdf(xx) * jax.scipy.stats.norm.pdf(xx[:, None])\n"
  "out = (y_smooth, jax.scipy.signal.convolve(noisy, window, mode='same'))", rtol=1e-4, atol=1e-4)
