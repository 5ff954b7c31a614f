"""Case definitions for docs2_cases.json: functions whose JAX docstring examples gradpad failed
(tools/doc_examples.py), each recorded from real JAX 0.10.2 with the docstring's call and a
neighbour or two (area "docs2")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- nan-reductions: where= / initial=
NANX = "x = jnp.array([[1, 3, 4, 2], [5, 2, jnp.nan, 1], [jnp.nan, 8, 3, -2]])\n"
W = "w = jnp.array([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]], dtype=bool)\n"
# jnp.nansum(x, axis=1, keepdims=True, where=where) and its siblings, as in JAX's docstrings
C("docs2_nansum_nanprod_where", "docs2", NANX + W +
  "out = (jnp.nansum(x, axis=1, keepdims=True, where=w), jnp.nanprod(x, axis=1, keepdims=True, where=w), "
  "jnp.nansum(x, axis=0, keepdims=True, where=jnp.zeros((3, 1), bool)), jnp.nanprod(x, where=w), "
  "jnp.nansum(x, initial=10.0), jnp.nanprod(x, axis=0, initial=2.0, where=w))")
C("docs2_nanmax_nanmin_initial_where", "docs2", NANX + W +
  "out = (jnp.nanmax(x, axis=1, keepdims=True, initial=0, where=w), jnp.nanmin(x, axis=1, keepdims=True, initial=0, where=w), "
  "jnp.nanmax(x, axis=0, keepdims=True, initial=0, where=jnp.array([[True], [False], [False]])), "
  "jnp.nanmin(jnp.array([jnp.nan, jnp.nan]), initial=3.0), jnp.nanmax(jnp.array([jnp.nan, jnp.nan])), "
  "jnp.nanmax(x, axis=1, initial=4.5))")
C("docs2_nanmean_where", "docs2", NANX + W +
  "out = (jnp.nanmean(x, axis=1, keepdims=True, where=w), jnp.nanmean(x, axis=0, keepdims=True, where=jnp.zeros((3, 1), bool)), "
  "jnp.nanmean(jnp.arange(6).reshape(2, 3), axis=1, where=jnp.array([True, False, True])), jnp.nanmean(x, where=w))")
C("docs2_nan_reductions_int_where", "docs2", W +
  "i = jnp.arange(12).reshape(3, 4)\n"
  "out = (jnp.nansum(i, axis=1, where=w), jnp.nanmax(i, axis=0, initial=5, where=w), jnp.nanprod(i + 1, where=w))")
C("docs2_nan_reductions_jit_grad", "docs2", NANX + W +
  "f = jax.jit(lambda x, w: jnp.nansum(x * x, where=w) + jnp.nanmax(x, initial=0.0, where=w) + jnp.nanmean(x, where=w))\n"
  "out = (f(x, w), jax.grad(f)(x, w))")

# ---------------------------------------------------------------- quantile family: weights= (inverted_cdf)
C("docs2_quantile_weights_docstring", "docs2",
  "x = jnp.array([1, 2, 3, 4, 5])\nw = jnp.array([1, 1, 2, 1, 1])\n"
  "xn = jnp.array([1, 2, jnp.nan, 4, 5])\nwn = jnp.array([1, 1, 1, 2, 1])\n"
  "out = (jnp.quantile(x, 0.5, weights=w, method='inverted_cdf'), jnp.percentile(x, 50, weights=w, method='inverted_cdf'), "
  "jnp.nanquantile(xn, 0.5, weights=wn, method='inverted_cdf'), jnp.nanpercentile(xn, 50, weights=wn, method='inverted_cdf'), "
  "jnp.quantile(xn, 0.5, weights=wn, method='inverted_cdf'))")
C("docs2_quantile_weights_axes", "docs2",
  "x = jnp.array([[3.0, 1.0, 4.0, 1.5], [5.0, 9.0, 2.0, 6.0], [5.0, 3.0, 5.0, 8.0]])\n"
  "w = jnp.array([[1.0, 2.0, 0.5, 1.0], [0.0, 1.0, 3.0, 1.0], [2.0, 2.0, 1.0, 1.0]])\n"
  "q = jnp.array([0.0, 0.25, 0.5, 0.9, 1.0])\n"
  "out = (jnp.quantile(x, q, axis=1, weights=w, method='inverted_cdf'), "
  "jnp.quantile(x, 0.3, axis=0, weights=jnp.array([1.0, 0.0, 2.0]), method='inverted_cdf', keepdims=True), "
  "jnp.quantile(x, q, weights=w, method='inverted_cdf'), jnp.quantile(x, 0.5, axis=(0, 1), weights=w, method='inverted_cdf'), "
  "jnp.quantile(x, 0.5, axis=1, weights=w.at[0, 1].set(-1.0), method='inverted_cdf'), "
  "jnp.quantile(jnp.arange(6), 0.5, weights=jnp.arange(6.0), method='inverted_cdf'))")
C("docs2_quantile_weights_jit", "docs2",
  "x = jnp.array([1.0, 7.0, 3.0, jnp.nan, 2.0])\nw = jnp.array([2.0, 1.0, 1.0, 1.0, 3.0])\n"
  "f = jax.jit(lambda x, w: (jnp.nanquantile(x, jnp.array([0.2, 0.7]), weights=w, method='inverted_cdf'), "
  "jnp.nanquantile(jnp.full(3, jnp.nan), 0.5, weights=w[:3], method='inverted_cdf')))\n"
  "out = f(x, w)")
E("docs2_quantile_weights_linear", "docs2",
  "out = jnp.quantile(jnp.arange(4.0), 0.5, weights=jnp.ones(4))")
E("docs2_quantile_weights_shape", "docs2",
  "out = jnp.quantile(jnp.ones((2, 3)), 0.5, axis=1, weights=jnp.ones(2), method='inverted_cdf')")
E("docs2_quantile_weights_shape_axis_none", "docs2",
  "out = jnp.quantile(jnp.ones((2, 3)), 0.5, weights=jnp.ones(3), method='inverted_cdf')")
E("docs2_quantile_weights_complex", "docs2",
  "out = jnp.quantile(jnp.ones(3), 0.5, weights=jnp.ones(3) * 1j, method='inverted_cdf')")

# ---------------------------------------------------------------- jnp.pad: every mode
PADX = "x = jnp.array([10, 20, 30, 40])\nm = jnp.arange(12.0).reshape(3, 4) ** 1.5\n"
C("docs2_pad_docstring_modes", "docs2", PADX +
  "out = (jnp.pad(x, 2, mode='mean'), jnp.pad(x, 2, mode='reflect'), jnp.pad(x, 2, mode='symmetric'), "
  "jnp.pad(x, 2, mode='edge'), jnp.pad(x, 2, mode='wrap'), jnp.pad(x, 2, mode='empty'), "
  "jnp.pad(x, (1, 3), mode='maximum'), jnp.pad(x, 2, mode='minimum'), jnp.pad(x, 2, mode='median'), "
  "jnp.pad(x, 3, mode='linear_ramp', end_values=(0, 5)))")
C("docs2_pad_stat_length", "docs2", PADX +
  "out = (jnp.pad(x, 2, mode='mean', stat_length=2), jnp.pad(x, (1, 2), mode='maximum', stat_length=(1, 3)), "
  "jnp.pad(m, ((1, 2), (2, 1)), mode='mean', stat_length=((1, 2), (3, 1))), jnp.pad(m, 1, mode='median', stat_length=10), "
  "jnp.pad(jnp.array([1, 2, 4]), 2, mode='mean'), jnp.pad(m, 2, mode='minimum'))")
C("docs2_pad_2d_mirror_wrap", "docs2", PADX +
  "out = (jnp.pad(m, ((2, 7), (5, 1)), mode='reflect'), jnp.pad(m, ((2, 7), (5, 1)), mode='symmetric'), "
  "jnp.pad(m, ((4, 1), (9, 2)), mode='wrap'), jnp.pad(m, 3, mode='reflect', reflect_type='odd'), "
  "jnp.pad(m, ((5, 2), (1, 6)), mode='symmetric', reflect_type='odd'), jnp.pad(jnp.array([7.0]), 3, mode='reflect'), "
  "jnp.pad(m, ((1, 0), (0, 2)), mode='edge'), jnp.pad(m, (3,), mode='wrap'))")
C("docs2_pad_ramp_constant_values", "docs2", PADX +
  "out = (jnp.pad(m, ((2, 1), (1, 3)), mode='linear_ramp', end_values=((1, 2), (-3, 4))), "
  "jnp.pad(x, 2, mode='linear_ramp'), jnp.pad(m, 1, constant_values=((1, 2), (3, 4))), "
  "jnp.pad(x, (1, 2), constant_values=(-1, -2)), jnp.pad(m, 1, mode='empty'), jnp.pad(5.0, 3, mode='edge'))")
C("docs2_pad_callable", "docs2",
  "def custom_pad(row, pad_width, iaxis, kwargs):\n"
  "    before, after = pad_width\n"
  "    row = row.at[:before].set(kwargs.get('before_value', 0))\n"
  "    return row.at[len(row) - after:].set(kwargs.get('after_value', 0))\n"
  "out = (jnp.pad(jnp.array([2, 3, 4]), (2, 2), custom_pad, before_value=-10, after_value=10), "
  "jnp.pad(jnp.ones((2, 2)), 1, custom_pad, before_value=5.0))")
C("docs2_pad_jit_grad", "docs2",
  "f = jax.jit(lambda x: jnp.pad(x, (2, 3), mode='reflect').sum() + (jnp.pad(x, 2, mode='mean', stat_length=2) ** 2).sum() "
  "+ (jnp.pad(x, 2, mode='wrap') * jnp.arange(9.0)).sum() + jnp.pad(x, 1, mode='linear_ramp', end_values=3.0).sum())\n"
  "x = jnp.array([1.0, 2.0, 4.0, 8.0, 3.0])\n"
  "out = (f(x), jax.grad(f)(x), str(jax.make_jaxpr(lambda x: jnp.pad(x, 1, mode='edge'))(x)))")
E("docs2_pad_bad_mode", "docs2", "out = jnp.pad(jnp.ones(3), 1, mode='nearest')")
E("docs2_pad_bad_kwarg", "docs2", "out = jnp.pad(jnp.ones(3), 1, mode='edge', stat_length=2)")
E("docs2_pad_empty_axis_reflect", "docs2", "out = jnp.pad(jnp.ones((0, 2)), 1, mode='reflect')")
E("docs2_pad_stat_length_zero", "docs2", "out = jnp.pad(jnp.ones(3), 1, mode='mean', stat_length=0)")
E("docs2_pad_width_shape", "docs2", "out = jnp.pad(jnp.ones((2, 2)), ((1, 2, 3),))")
E("docs2_pad_width_float", "docs2", "out = jnp.pad(jnp.ones(2), 1.5)")
E("docs2_pad_constant_values_shape", "docs2", "out = jnp.pad(jnp.ones(2), 1, constant_values=(1, 2, 3))")

# ---------------------------------------------------------------- size= (static): nonzero, unique, set ops
C("docs2_nonzero_size_jit", "docs2",
  "x = jnp.array([0, 5, 0, 6, 0, 7])\nm = jnp.array([[0, 2, 0], [3, 0, 4]])\n"
  "nz = jax.jit(jnp.nonzero, static_argnames='size')\n"
  "out = (nz(x, size=3), nz(x, size=2), nz(x, size=5), nz(x, size=5, fill_value=len(x)), nz(m, size=4), "
  "nz(m, size=4, fill_value=(9, 8)), jnp.nonzero(m), jnp.nonzero(x > 5, size=0), jnp.nonzero(jnp.zeros((2, 0)), size=2), "
  "jax.jit(jnp.argwhere, static_argnames='size')(m, size=4, fill_value=-1), jnp.argwhere(1), jnp.argwhere(0), "
  "jnp.argwhere(m), jax.jit(jnp.flatnonzero, static_argnames='size')(m, size=2), jnp.flatnonzero(m, size=5))")
E("docs2_nonzero_jit_no_size", "docs2", "out = jax.jit(jnp.nonzero)(jnp.array([0, 1]))", msg_prefix=0)
E("docs2_nonzero_scalar", "docs2", "out = jnp.nonzero(1)")
C("docs2_unique_size", "docs2",
  "x = jnp.array([3, 4, 1, 3, 1])\nf = jnp.array([2.0, jnp.nan, 1.0, jnp.nan, 2.0])\n"
  "m = jnp.array([[1, 2], [3, 4], [1, 2], [0, 9]])\n"
  "u = jax.jit(jnp.unique, static_argnames=['size', 'return_index', 'return_inverse', 'return_counts', 'axis', 'equal_nan'])\n"
  "out = (u(x, size=3), u(x, size=2), u(x, size=5), u(x, size=5, fill_value=0), "
  "u(x, size=4, return_index=True, return_inverse=True, return_counts=True), "
  "u(f, size=4), u(f, size=4, equal_nan=False), u(m, size=3, axis=0, return_counts=True, return_inverse=True), "
  "u(m.reshape(2, 4), size=2, return_inverse=True), jnp.unique(x, size=4, fill_value=-1, return_counts=True), "
  "jnp.unique(jnp.zeros(0), size=2, fill_value=7.0), jnp.unique(f, return_counts=True), jnp.unique(f, equal_nan=False))")
E("docs2_unique_jit_no_size", "docs2", "out = jax.jit(jnp.unique)(jnp.array([3, 4, 1, 3, 1]))", msg_prefix=0)
E("docs2_unique_empty_size_no_fill", "docs2", "out = jnp.unique(jnp.zeros(0), size=2)")
C("docs2_unique_api_functions", "docs2",
  "f = jnp.array([2.0, jnp.nan, 1.0, jnp.nan, 2.0])\nx = jnp.array([[3, 4], [1, 3]])\n"
  "out = (jnp.unique_values(f), jnp.unique_counts(f), jnp.unique_inverse(x), jnp.unique_all(x), "
  "jax.jit(jnp.unique_all, static_argnames='size')(x, size=4), jnp.unique_values(x, size=2), "
  "jax.jit(jnp.unique_counts, static_argnames='size')(f, size=5, fill_value=-1.0))")
C("docs2_set_ops_size", "docs2",
  "a1 = jnp.array([1, 2, 3, 4])\na2 = jnp.array([3, 4, 5, 6])\nb = jnp.array([4, 1, 4, 9, 1, 2])\n"
  "sd = jax.jit(jnp.setdiff1d, static_argnames=['size', 'assume_unique'])\n"
  "un = jax.jit(jnp.union1d, static_argnames=['size'])\n"
  "out = (sd(a1, a2, size=2), sd(a1, a2, size=1), sd(a1, a2, size=4, fill_value=0), sd(b, a2, size=4), "
  "sd(b, jnp.array([2]), size=5, fill_value=-7), sd(a1, a2, size=3, assume_unique=True), sd(jnp.zeros(0, int), a2, size=2), "
  "un(a1, a2, size=6), un(a1, a2, size=4), un(a1, a2, size=8, fill_value=0), un(b, a2.astype(float), size=7), "
  "jnp.intersect1d(b, a2, size=3), jnp.intersect1d(b, a2, size=3, fill_value=-1), "
  "jnp.intersect1d(b, a1, size=5, return_indices=True), jnp.intersect1d(b, a1 + 10, size=2), "
  "jnp.setxor1d(b, a2, size=7), jnp.setxor1d(b, a2, size=2, fill_value=0), jnp.setdiff1d(b, a2), jnp.union1d(b, a2))")

# ---------------------------------------------------------------- einsum: the sublist form
C("docs2_einsum_sublists", "docs2",
  "x = jnp.arange(4)\ny = jnp.array([5, 4, 3, 2])\nM = jnp.arange(16).reshape(4, 4)\n"
  "a = jnp.arange(24.0).reshape(2, 3, 4)\nb = jnp.arange(60.0).reshape(3, 5, 4)\n"
  "out = (jnp.einsum(x, (0,), y, (0,)), jnp.einsum(x, (0,), y, (0,), ()), jnp.einsum(M, (0, 1), x, (1,), (0,)), "
  "jnp.einsum(x, [0], y, [1]), jnp.einsum(M, (..., 0), (...,)), jnp.einsum(M, (1, 0)), jnp.einsum(M, [0, 0]), "
  "jnp.einsum(a, (0, 1, 2), b, (1, 3, 2), (0, 3)), jnp.einsum(a, [Ellipsis, 2], b[0], [1, 2], [Ellipsis, 1]), "
  "jax.jit(lambda a, b: jnp.einsum(a, (0, 1, 2), b, (1, 3, 2)))(a, b), "
  "jax.grad(lambda v: jnp.einsum(v, (0,), M.astype(float), (0, 1), v, (1,)))(x.astype(float)))")

# ---------------------------------------------------------------- jnp.delete: static, unique (traceable), concrete
C("docs2_delete", "docs2",
  "a = jnp.array([4, 5, 6, 7, 8, 9])\nm = jnp.arange(12.0).reshape(3, 4)\nidx = jnp.array([0, 1, 3])\n"
  "jd = jax.jit(jnp.delete, static_argnames=['assume_unique_indices', 'axis'])\n"
  "out = (jnp.delete(a, 1), jnp.delete(a, -1), jnp.delete(a, slice(1, 4)), jnp.delete(a, idx), "
  "jd(a, idx, assume_unique_indices=True), jd(m, jnp.array([-1, 0]), axis=1, assume_unique_indices=True), "
  "jnp.delete(m, jnp.array([0, 0, 2]), axis=0), jnp.delete(m, jnp.array([True, False, True, False]), axis=1), "
  "jnp.delete(m, 5), jax.jit(lambda a: jnp.delete(a, 2))(a), jax.jit(lambda m: jnp.delete(m, slice(None, None, 2), axis=1))(m), "
  "jax.grad(lambda m: jnp.delete(m, jnp.array([1]), axis=0, assume_unique_indices=True).sum())(m))")
E("docs2_delete_jit_indices", "docs2", "out = jax.jit(jnp.delete)(jnp.arange(6), jnp.array([0, 1, 3]))", msg_prefix=0)
E("docs2_delete_float_indices", "docs2", "out = jnp.delete(jnp.arange(6), jnp.array([0.0, 1.0]))")
E("docs2_delete_bool_length", "docs2", "out = jnp.delete(jnp.arange(6), jnp.array([True, False]))")
E("docs2_delete_list_indices", "docs2", "out = jnp.delete(jnp.arange(6), [0, 1])")

# ---------------------------------------------------------------- a traced reduction axis: ConcretizationTypeError
E("docs2_traced_axis_min", "docs2", "out = jax.jit(lambda x, axis: x.min(axis))(jnp.arange(4), 0)")
E("docs2_traced_axis_sum", "docs2", "out = jax.jit(lambda x, axis: jnp.sum(x, axis=axis))(jnp.ones((2, 3)), 1)")
C("docs2_static_axis_min", "docs2",
  "out = (jax.jit(lambda x, axis: x.min(axis), static_argnums=1)(jnp.arange(4), 0), "
  "jax.jit(lambda x, axis: jnp.sum(x, axis=axis), static_argnames='axis')(jnp.ones((2, 3)), axis=1))")

# ---------------------------------------------------------------- compress / extract: size=, the Array method
C("docs2_compress_extract", "docs2",
  "a = jnp.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])\nc = jnp.array([True, False, True])\n"
  "f = lambda c, a: jnp.extract(c, a, size=len(a), fill_value=0)\n"
  "out = (a.compress(c, axis=0), jnp.compress(c, a, axis=0), jnp.compress(jnp.array([0, 1, 1]), a, axis=1), "
  "jnp.compress(c, a), jnp.compress(c, a, axis=0, size=1), jnp.compress(c, a, axis=1, size=3, fill_value=-1), "
  "jnp.extract(a % 3 == 0, a), jnp.extract(a > 4, a, size=10, fill_value=-2), jax.vmap(f)(a % 3 == 0, a), "
  "jax.jit(lambda c, a: a.compress(c, axis=0, size=2))(c, a), jnp.compress(jnp.array([True, False, True, False]), a, axis=0), "
  "jax.grad(lambda a: jnp.compress(c, a, axis=0, size=2).sum())(a.astype(float)))")
E("docs2_compress_out_of_bounds", "docs2", "out = jnp.compress(jnp.array([1, 0, 0, 1]), jnp.ones((3, 2)), axis=0)")
E("docs2_compress_size_too_big", "docs2", "out = jnp.compress(jnp.array([1, 0, 1]), jnp.ones((3, 2)), axis=0, size=4)")
E("docs2_compress_2d_condition", "docs2", "out = jnp.compress(jnp.ones((2, 2)), jnp.ones((3, 2)))")

# ---------------------------------------------------------------- pytrees: transpose with an inferred inner structure, flatten_one_level
C("docs2_tree_transpose_none", "docs2",
  "tree = [(1, 2, 3), (4, 5, 6)]\nouter = jax.tree.structure([0, 0])\n"
  "out = (jax.tree.transpose(outer, None, tree), jax.tree_util.tree_transpose(outer, None, [{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]), "
  "jax.tree.transpose(outer, jax.tree.structure((0, 0, 0)), tree))")

# ---------------------------------------------------------------- linear_transpose with ShapeDtypeStruct primals
C("docs2_linear_transpose_shape_dtype_struct", "docs2",
  "f = lambda x, y: 0.5 * x - 0.5 * y\nscalar = jax.ShapeDtypeStruct(shape=(), dtype=np.dtype(np.float32))\n"
  "g = lambda v: {'s': v['a'].sum(axis=0) * 2.0}\n"
  "out = (jax.linear_transpose(f, scalar, scalar)(1.0), "
  "jax.linear_transpose(g, {'a': jax.ShapeDtypeStruct((2, 3), jnp.float32)})({'s': jnp.arange(3.0)}), "
  "jax.linear_transpose(f, scalar, jnp.float32(2.0))(jnp.float32(3.0)))")

# ---------------------------------------------------------------- jax.ds: slices with a traced start
C("docs2_ds", "docs2",
  "x = jnp.arange(10)\nm = jnp.arange(24).reshape(2, 3, 4)\n"
  "f = jax.jit(lambda x, i, size: x[jax.ds(i, size)], static_argnames='size')\n"
  "g = jax.jit(lambda m, i, j: m[..., jax.ds(i, 2), jax.ds(j, 2, 2)])\n"
  "out = (x[jax.ds(4, 2)], f(x, 4, 2), f(x, 9, 3), f(x, -2, 2), x[jax.ds(1, 3, 2)], x[jax.ds(3)], x[jax.ds(None)], "
  "g(m, 1, 0), m[None, 1, jax.ds(1, 2)], jax.jit(lambda m, i: m[jax.ds(i, 1), 0, 1:])(m, 1), "
  "jax.grad(lambda x, i: (x[jax.ds(i, 3)] ** 2).sum())(jnp.arange(6.0), 2))")
