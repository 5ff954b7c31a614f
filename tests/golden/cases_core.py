"""Case definitions for core_cases.json (jnp, dtypes, grad, jit, vmap, jaxpr, pytree, errors, nn).

Each snippet runs with jax, jnp, lax, random, np, partial, NamedTuple predefined and sets `out`.
"""
from casebook import recorder

CASES, C, E = recorder()


# ---------------------------------------------------------------- numpy: one-liners
X23 = "x = jnp.arange(6.0).reshape(2, 3)\n"
NUMPY_EXPRS = [
    # creation
    ("array_int_list", "jnp.array([1, 2, 3])"),
    ("array_float_list", "jnp.array([1.0, 2.0, 3.0])"),
    ("array_nested_tuple", "jnp.array([(1, 2, 3), (4, 5, 6)])"),
    ("array_bool", "jnp.array([True, False])"),
    ("array_scalar_int", "jnp.array(3)"),
    ("array_scalar_float", "jnp.array(3.5)"),
    ("array_dtype_f32", "jnp.array([1, 2, 3], dtype=jnp.float32)"),
    ("asarray_f32", "jnp.asarray([1, 2, 3], dtype=jnp.float32)"),
    ("asarray_numpy_f64", "jnp.asarray(np.arange(3.0))"),
    ("asarray_numpy_i64", "jnp.asarray(np.arange(3))"),
    ("asarray_numpy_f32", "jnp.asarray(np.arange(3, dtype=np.float32))"),
    ("array_mixed_int_float", "jnp.array([1, 2.5])"),
    ("zeros_2", "jnp.zeros(2)"),
    ("zeros_shape", "jnp.zeros((2, 3))"),
    ("zeros_int", "jnp.zeros((2,), dtype=jnp.int32)"),
    ("ones_4x4", "jnp.ones((4, 4))"),
    ("ones_bool", "jnp.ones(3, dtype=bool)"),
    ("full", "jnp.full((2, 2), 7.0)"),
    ("full_int", "jnp.full((3,), 7)"),
    ("zeros_like_int", "jnp.zeros_like(jnp.arange(3))"),
    ("ones_like_f", "jnp.ones_like(jnp.arange(3.0))"),
    ("full_like", "jnp.full_like(jnp.arange(3.0), 2.5)"),
    ("empty_shape", "jnp.empty((2, 2)).shape"),
    ("arange_5", "jnp.arange(5)"),
    ("arange_float", "jnp.arange(5.0)"),
    ("arange_start_stop_step", "jnp.arange(1, 10, 3)"),
    ("arange_float_step", "jnp.arange(0, 1, 0.25)"),
    ("arange_negative", "jnp.arange(5, 0, -1)"),
    ("linspace_0_2_9", "jnp.linspace(0, 2, 9)"),
    ("linspace_endpoint_false", "jnp.linspace(0.0, 1.0, 4, endpoint=False)"),
    ("linspace_int_dtype", "jnp.linspace(0, 10, 5, dtype=jnp.int32)"),
    ("eye_3", "jnp.eye(3)"),
    ("eye_2x3_k1", "jnp.eye(2, 3, k=1)"),
    ("identity", "jnp.identity(2)"),
    ("diag", "jnp.diag(jnp.array([1.0, 2.0]))"),
    ("tril", "jnp.tril(jnp.ones((3, 3)))"),
    ("triu_k1", "jnp.triu(jnp.ones((3, 3)), k=1)"),
    ("meshgrid", "jnp.meshgrid(jnp.arange(2), jnp.arange(3))"),
    ("tile", "jnp.tile(jnp.array([1, 2]), 3)"),
    ("repeat", "jnp.repeat(jnp.array([1, 2]), 2)"),
    # elementwise
    ("add_arrays", "jnp.arange(3.0) + jnp.ones(3)"),
    ("add_scalar_int_to_float", "jnp.arange(3.0) + 1"),
    ("add_scalar_float_to_int", "jnp.arange(3) + 1.5"),
    ("sub", "jnp.arange(3) - jnp.array([3, 2, 1])"),
    ("mul_broadcast", X23 + "x * jnp.array([1.0, 2.0, 3.0])"),
    ("truediv_int", "jnp.arange(4) / 2"),
    ("floordiv_int", "jnp.arange(-3, 4) // 2"),
    ("mod_int", "jnp.arange(-3, 4) % 3"),
    ("mod_float", "jnp.arange(-3.0, 4.0) % 2.5"),
    ("pow_int", "jnp.arange(4) ** 2"),
    ("pow_float", "jnp.arange(4.0) ** 0.5"),
    ("neg", "-jnp.arange(3)"),
    ("abs", "jnp.abs(jnp.array([-1.5, 0.0, 2.0]))"),
    ("sign", "jnp.sign(jnp.array([-2.0, 0.0, 3.0]))"),
    ("exp", "jnp.exp(jnp.linspace(-2, 2, 5))"),
    ("log", "jnp.log(jnp.array([0.5, 1.0, 2.0, 0.0]))"),
    ("log1p", "jnp.log1p(jnp.array([1e-5, 0.5, 3.0]))"),
    ("expm1", "jnp.expm1(jnp.array([1e-5, 0.5, -1.0]))"),
    ("sqrt", "jnp.sqrt(jnp.array([0.0, 1.0, 2.0, -1.0]))"),
    ("sin", "jnp.sin(jnp.linspace(0, 3, 4))"),
    ("cos", "jnp.cos(jnp.linspace(0, 3, 4))"),
    ("tan", "jnp.tan(jnp.linspace(-1, 1, 5))"),
    ("tanh", "jnp.tanh(jnp.linspace(-2, 2, 5))"),
    ("arctan2", "jnp.arctan2(jnp.array([1.0, -1.0]), jnp.array([-1.0, 2.0]))"),
    ("sinh_cosh", "(jnp.sinh(jnp.array([0.5])), jnp.cosh(jnp.array([0.5])))"),
    ("arcsin_arccos", "(jnp.arcsin(jnp.array([0.5])), jnp.arccos(jnp.array([0.5])))"),
    ("floor_ceil_round", "(jnp.floor(jnp.array([-1.5, 1.5])), jnp.ceil(jnp.array([-1.5, 1.5])), jnp.round(jnp.array([0.5, 1.5, 2.5])))"),
    ("sin_of_int", "jnp.sin(jnp.arange(3))"),
    ("exp_of_python_float", "jnp.exp(1.0)"),
    ("sqrt_of_python_int", "jnp.sqrt(4)"),
    ("maximum_minimum", "(jnp.maximum(jnp.arange(4), 2), jnp.minimum(jnp.arange(4.0), 1.5))"),
    ("maximum_nan", "jnp.maximum(jnp.array([jnp.nan, 1.0]), jnp.array([0.0, jnp.nan]))"),
    ("square_reciprocal", "(jnp.square(jnp.arange(3)), jnp.reciprocal(jnp.array([2.0, 4.0])))"),
    ("logaddexp", "jnp.logaddexp(jnp.array([0.0, 100.0]), jnp.array([0.0, 100.0]))"),
    ("int_true_divide_int", "jnp.array([1, 2]) / jnp.array([2, 4])"),
    ("bitwise_ops", "(jnp.arange(4) & 1, jnp.arange(4) | 4, jnp.arange(4) ^ 1, ~jnp.arange(3))"),
    ("shifts", "(jnp.arange(4) << 1, jnp.arange(8) >> 1)"),
    ("logical_ops", "jnp.logical_and(jnp.array([True, False]), True)"),
    ("isnan_isinf_isfinite", "(jnp.isnan(jnp.array([jnp.nan, 1.0, jnp.inf])), jnp.isinf(jnp.array([jnp.nan, 1.0, -jnp.inf])), jnp.isfinite(jnp.array([jnp.nan, 1.0, jnp.inf])))"),
    ("div_by_zero", "jnp.array([1.0, -1.0, 0.0]) / 0.0"),
    ("int_div_by_zero", "jnp.array([1, -1, 0]) // 0"),
    ("nan_to_num", "jnp.nan_to_num(jnp.array([jnp.nan, jnp.inf, 1.0]))"),
    # comparisons
    ("lt", "jnp.arange(4) < 2"),
    ("eq_float_int", "jnp.arange(4.0) == jnp.array([0, 2, 2, 3])"),
    ("ne_ge_le", "(jnp.arange(3) != 1, jnp.arange(3) >= 1, jnp.arange(3.0) <= 1.0)"),
    ("greater_fn", "jnp.greater(jnp.arange(3), jnp.array([2, 1, 0]))"),
    ("allclose", "jnp.allclose(jnp.array([1.0, 2.0]), jnp.array([1.0, 2.0000001]))"),
    ("array_equal", "jnp.array_equal(jnp.arange(3), jnp.array([0, 1, 2]))"),
    ("isclose", "jnp.isclose(jnp.array([1.0, 2.0]), jnp.array([1.0, 2.1]))"),
    # reductions
    ("sum_all", X23 + "jnp.sum(x)"),
    ("sum_axis0", X23 + "jnp.sum(x, axis=0)"),
    ("sum_axis1_keepdims", X23 + "jnp.sum(x, axis=1, keepdims=True)"),
    ("sum_neg_axis", X23 + "x.sum(axis=-1)"),
    ("sum_int", "jnp.sum(jnp.arange(5))"),
    ("sum_bool", "jnp.sum(jnp.arange(5) > 1)"),
    ("sum_tuple_axes", "jnp.sum(jnp.ones((2, 3, 4)), axis=(0, 2))"),
    ("prod", "jnp.prod(jnp.arange(1.0, 5.0))"),
    ("mean_all", X23 + "jnp.mean(x)"),
    ("mean_axis", X23 + "jnp.mean(x, axis=0)"),
    ("mean_int", "jnp.mean(jnp.arange(4))"),
    ("method_mean", X23 + "x.mean(axis=1)"),
    ("std", X23 + "jnp.std(x)"),
    ("std_ddof", X23 + "jnp.std(x, axis=1, ddof=1)"),
    ("var", X23 + "jnp.var(x, axis=0)"),
    ("var_int", "jnp.var(jnp.arange(4))"),
    ("max_min", X23 + "(jnp.max(x), jnp.min(x, axis=0), x.max(axis=1))"),
    ("amax_int", "jnp.amax(jnp.array([3, 1, 2]))"),
    ("argmax", X23 + "(jnp.argmax(x), jnp.argmax(x, axis=0), jnp.argmax(x, axis=1))"),
    ("argmin_ties", "jnp.argmin(jnp.array([2.0, 1.0, 1.0]))"),
    ("argmax_keepdims", X23 + "jnp.argmax(x, axis=1, keepdims=True)"),
    ("any_all", "(jnp.any(jnp.arange(3) > 1), jnp.all(jnp.arange(3) > 1))"),
    ("cumsum", X23 + "(jnp.cumsum(x), jnp.cumsum(x, axis=1))"),
    ("cumsum_int", "jnp.cumsum(jnp.arange(5))"),
    ("cumprod", "jnp.cumprod(jnp.arange(1.0, 5.0))"),
    ("norm", "jnp.linalg.norm(jnp.array([3.0, 4.0]))"),
    ("median", "jnp.median(jnp.array([3.0, 1.0, 2.0, 4.0]))"),
    ("nansum", "jnp.nansum(jnp.array([1.0, jnp.nan, 2.0]))"),
    ("sum_dtype_arg", "jnp.sum(jnp.arange(3), dtype=jnp.float32)"),
    ("count_nonzero", "jnp.count_nonzero(jnp.array([0, 1, 2, 0]))"),
    # linear algebra
    ("dot_vv", "jnp.dot(jnp.arange(3.0), jnp.arange(3.0))"),
    ("dot_mv", X23 + "jnp.dot(x, jnp.ones(3))"),
    ("dot_mm", "jnp.dot(jnp.array([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]), jnp.ones((4, 4)))"),
    ("dot_int", "jnp.dot(jnp.arange(3), jnp.arange(3))"),
    ("dot_scalar", "jnp.dot(2.0, jnp.arange(3.0))"),
    ("matmul", X23 + "jnp.matmul(x, x.T)"),
    ("matmul_operator", X23 + "x @ x.T"),
    ("matmul_batched", "jnp.ones((2, 2, 3)) @ jnp.arange(6.0).reshape(3, 2)"),
    ("matmul_vec", X23 + "x @ jnp.ones(3)"),
    ("inner", "jnp.inner(jnp.arange(3.0), jnp.array([1.0, 2.0, 3.0]))"),
    ("outer", "jnp.outer(jnp.arange(3.0), jnp.arange(2.0))"),
    ("vdot", "jnp.vdot(jnp.arange(3.0), jnp.arange(3.0))"),
    ("einsum_ij_jk", X23 + "jnp.einsum('ij,jk->ik', x, x.T)"),
    ("einsum_trace", "jnp.einsum('ii', jnp.arange(9.0).reshape(3, 3))"),
    ("einsum_batch", "jnp.einsum('bij,bj->bi', jnp.ones((2, 2, 3)), jnp.arange(6.0).reshape(2, 3))"),
    ("einsum_sum", X23 + "jnp.einsum('ij->j', x)"),
    ("tensordot_axes1", X23 + "jnp.tensordot(x, x.T, axes=1)"),
    ("tensordot_axes2", X23 + "jnp.tensordot(x, x, axes=2)"),
    ("tensordot_pairs", X23 + "jnp.tensordot(x, x, axes=([0], [0]))"),
    ("trace", "jnp.trace(jnp.arange(9.0).reshape(3, 3))"),
    ("transpose_default", "jnp.transpose(jnp.arange(24).reshape(2, 3, 4)).shape"),
    ("transpose_axes", "jnp.transpose(jnp.arange(6).reshape(1, 2, 3), (2, 0, 1))"),
    ("dot_T_property", X23 + "x.T"),
    ("swapaxes_moveaxis", "(jnp.swapaxes(jnp.ones((2, 3, 4)), 0, 2).shape, jnp.moveaxis(jnp.ones((2, 3, 4)), 0, -1).shape)"),
    # shapes
    ("reshape", "jnp.arange(6).reshape(3, 2)"),
    ("reshape_neg1", "jnp.reshape(jnp.arange(6), (-1, 3))"),
    ("reshape_tuple_method", "jnp.arange(6).reshape((2, -1))"),
    ("ravel_flatten", X23 + "(jnp.ravel(x), x.flatten())"),
    ("stack", "jnp.stack([jnp.arange(3), jnp.arange(3) * 2])"),
    ("stack_axis1", "jnp.stack([jnp.arange(3), jnp.arange(3) * 2], axis=1)"),
    ("concatenate", "jnp.concatenate([jnp.arange(3), jnp.arange(2)])"),
    ("concatenate_axis1", X23 + "jnp.concatenate([x, x], axis=1)"),
    ("concatenate_promote", "jnp.concatenate([jnp.arange(2), jnp.ones(2)])"),
    ("hstack_vstack", "(jnp.hstack([jnp.arange(2), jnp.arange(2)]), jnp.vstack([jnp.arange(2), jnp.arange(2)]))"),
    ("split_3", "jnp.split(jnp.arange(6), 3)"),
    ("split_indices", "jnp.split(jnp.arange(6), [1, 4])"),
    ("split_axis1", X23 + "jnp.split(x, 3, axis=1)"),
    ("squeeze", "jnp.squeeze(jnp.ones((1, 3, 1))).shape"),
    ("squeeze_axis", "jnp.squeeze(jnp.ones((1, 3, 1)), axis=0).shape"),
    ("expand_dims", "(jnp.expand_dims(jnp.arange(3), 0).shape, jnp.expand_dims(jnp.arange(3), -1).shape)"),
    ("newaxis_index", "jnp.arange(3)[None, :, None].shape"),
    ("broadcast_to", "jnp.broadcast_to(jnp.arange(3), (2, 3))"),
    ("broadcast_shapes", "jnp.broadcast_shapes((2, 1), (1, 3))"),
    ("atleast_2d", "jnp.atleast_2d(jnp.arange(3)).shape"),
    ("flip", "jnp.flip(jnp.arange(4))"),
    ("roll", "jnp.roll(jnp.arange(5), 2)"),
    ("pad", "jnp.pad(jnp.arange(3), (1, 2))"),
    ("shape_ndim_size", X23 + "(x.shape, x.ndim, x.size, len(x))"),
    ("astype", "jnp.arange(3).astype(jnp.float32)"),
    ("astype_float_to_int", "jnp.array([1.7, -1.7]).astype(jnp.int32)"),
    # indexing
    ("index_int", "jnp.arange(5)[2]"),
    ("index_negative", "jnp.arange(5)[-1]"),
    ("index_slice", "jnp.arange(10)[2:8:2]"),
    ("index_slice_neg_step", "jnp.arange(5)[::-1]"),
    ("index_2d", X23 + "x[1, 2]"),
    ("index_row", X23 + "x[1]"),
    ("index_col", X23 + "x[:, 1]"),
    ("index_ellipsis", "jnp.arange(24).reshape(2, 3, 4)[..., 1]"),
    ("index_int_array", "jnp.arange(10)[jnp.array([1, 3, 5])]"),
    ("index_int_list", "jnp.arange(10)[jnp.array([[0, 1], [2, 3]])]"),
    ("index_adv_2d", X23 + "x[jnp.array([0, 1]), jnp.array([2, 0])]"),
    ("index_adv_mixed_slice", X23 + "x[:, jnp.array([0, 2])]"),
    ("index_adv_negative", "jnp.arange(5)[jnp.array([-1, -2])]"),
    ("index_bool_mask_concrete", "jnp.arange(5)[jnp.arange(5) > 2]"),
    ("index_oob_clamp", "jnp.arange(5)[10]"),
    ("index_oob_array_clamp", "jnp.arange(5)[jnp.array([0, 7, -9])]"),
    ("index_slice_oob", "jnp.arange(5)[3:10]"),
    ("at_set", "jnp.arange(5).at[0].set(9)"),
    ("at_set_slice", "jnp.zeros(5).at[1:3].set(1.0)"),
    ("at_add", "jnp.arange(5.0).at[2].add(10.0)"),
    ("at_add_repeated", "jnp.zeros(3).at[jnp.array([0, 0, 2])].add(1.0)"),
    ("at_mul", "jnp.arange(5).at[1:].mul(2)"),
    ("at_min_max", "(jnp.arange(5).at[jnp.array([1, 3])].min(0), jnp.arange(5).at[0].max(3))"),
    ("at_get", "jnp.arange(5).at[2].get()"),
    ("at_get_oob_fill", "jnp.arange(5.0).at[jnp.array([1, 9])].get(mode='fill', fill_value=-1.0)"),
    ("at_set_oob_dropped", "jnp.arange(5).at[10].set(99)"),
    ("at_add_oob_dropped", "jnp.arange(5).at[jnp.array([1, 8])].add(100)"),
    ("at_set_2d", X23 + "x.at[:, 0].set(-1.0)"),
    ("at_set_float_into_int", "jnp.arange(3).at[0].set(2.7)"),
    ("at_divide_power", "(jnp.arange(1.0, 4.0).at[0].divide(2.0), jnp.arange(1.0, 4.0).at[1].power(2))"),
    ("at_negative_index", "jnp.arange(4).at[-1].set(0)"),
    ("where_3arg", "jnp.where(jnp.arange(5) > 2, jnp.arange(5), -1)"),
    ("where_float_int", "jnp.where(jnp.array([True, False]), 1.0, 0)"),
    ("where_1arg", "jnp.where(jnp.array([0, 1, 0, 2]))"),
    ("nonzero", "jnp.nonzero(jnp.array([0, 3, 0, 4]))"),
    ("select", "jnp.select([jnp.arange(4) < 1, jnp.arange(4) < 3], [jnp.zeros(4), jnp.ones(4)], default=5.0)"),
    ("clip", "jnp.clip(jnp.arange(6), 1, 4)"),
    ("clip_float", "jnp.clip(jnp.linspace(-2, 2, 5), -1.0, 1.5)"),
    ("clip_method", "jnp.arange(5.0).clip(max=2.0)"),
    ("piecewise", "jnp.piecewise(jnp.linspace(-2, 2, 5), [jnp.linspace(-2, 2, 5) < 0], [lambda v: -v, lambda v: v ** 2])"),
    ("take", "jnp.take(jnp.arange(10.0), jnp.array([0, 9, 3]))"),
    ("take_along_axis", X23 + "jnp.take_along_axis(x, jnp.array([[2], [0]]), axis=1)"),
    # sort
    ("sort", "jnp.sort(jnp.array([3, 1, 2]))"),
    ("sort_2d_axis0", "jnp.sort(jnp.array([[3.0, 1.0], [0.0, 5.0]]), axis=0)"),
    ("sort_nan", "jnp.sort(jnp.array([jnp.nan, 1.0, -1.0]))"),
    ("argsort", "jnp.argsort(jnp.array([3.0, 1.0, 2.0, 1.0]))"),
    ("argsort_descending", "jnp.argsort(-jnp.array([3.0, 1.0, 2.0]))"),
    ("unique", "jnp.unique(jnp.array([3, 1, 3, 2, 1]))"),
    ("searchsorted", "jnp.searchsorted(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.5, 2.0, 3.5]))"),
    ("histogram_bincount", "jnp.bincount(jnp.array([0, 1, 1, 3]))"),
    # misc
    ("float_of_array", "float(jnp.sum(jnp.arange(4.0)))"),
    ("int_of_array", "int(jnp.array(3))"),
    ("bool_of_array", "bool(jnp.array(1) > 0)"),
    ("item", "jnp.arange(3.0)[1].item()"),
    ("tolist", "jnp.arange(3).tolist()"),
    ("np_asarray_of_jax", "np.asarray(jnp.arange(3.0))"),
    ("np_sum_of_jax", "np.sum(jnp.arange(3.0))"),
    ("np_plus_jax", "np.arange(3.0) + jnp.arange(3.0)"),
    ("iter_array", "[v for v in jnp.arange(3)]"),
    ("array_pi_e", "(jnp.pi, jnp.e, jnp.inf)"),
    ("sum_of_tuple_via_array", "jnp.sum(jnp.array((1.0, 2.0)))"),
    ("sin2cos", "2 * jnp.sin(jnp.linspace(0, 1, 5)) * jnp.cos(jnp.linspace(0, 1, 5))"),
]
for _n, _e in NUMPY_EXPRS:
    _lines = _e.split("\n")
    C(f"np_{_n}", "numpy", "\n".join(_lines[:-1] + ["out = " + _lines[-1]]))

C("np_repr_array", "numpy", "out = repr(jnp.array([1.0, 2.0]))")
C("np_repr_int", "numpy", "out = repr(jnp.arange(3))")
C("np_str_array", "numpy", "out = str(jnp.arange(3.0))")
C("np_repr_scalar", "numpy", "out = repr(jnp.float32(1.5))")
C("np_repr_bool", "numpy", "out = repr(jnp.array([True, False]))")
C("np_repr_2d", "numpy", "out = repr(jnp.ones((2, 2)))")
C("np_dtype_str", "numpy", "out = str(jnp.arange(3.0).dtype)")
C("np_type_name", "numpy", "out = type(jnp.zeros((2, 3))).__name__")
C("np_isinstance_jax_array", "numpy", "out = isinstance(jnp.zeros(2), jax.Array)")
C("np_float64_warns", "dtypes", "out = jnp.array([1.0, 2.0], dtype=jnp.float64)", expect_warning=True)
C("np_int64_warns", "dtypes", "out = jnp.arange(3, dtype=jnp.int64)", expect_warning=True)
C("np_asarray_f64_truncates", "dtypes", "out = jnp.asarray(np.array([0.1]))")

# ---------------------------------------------------------------- dtypes / promotion / weak types
DT = [
    ("promote_i32_f32", "jnp.promote_types(jnp.int32, jnp.float32)"),
    ("promote_i8_u8", "jnp.promote_types(jnp.int8, jnp.uint8)"),
    ("promote_u32_i32", "jnp.promote_types(jnp.uint32, jnp.int32)"),
    ("promote_f16_bf16", "jnp.promote_types(jnp.float16, jnp.bfloat16)"),
    ("promote_bool_i8", "jnp.promote_types(jnp.bool_, jnp.int8)"),
    ("promote_i64_f16", "jnp.promote_types(jnp.int64, jnp.float16)"),
    ("promote_f32_c64", "jnp.promote_types(jnp.float32, jnp.complex64)"),
    ("result_type_int_float", "jnp.result_type(jnp.int32, jnp.float16)"),
    ("result_type_python_scalar", "jnp.result_type(jnp.int8, 1)"),
    ("result_type_python_float", "jnp.result_type(jnp.int8, 1.0)"),
]
for _n, _e in DT:
    C(f"dt_{_n}", "dtypes", f"out = str({_e})")
C("dt_i8_plus_int", "dtypes", "out = jnp.array([1, 2], dtype=jnp.int8) + 3")
C("dt_i8_plus_float", "dtypes", "out = jnp.array([1, 2], dtype=jnp.int8) + 3.0")
C("dt_f16_plus_float", "dtypes", "out = jnp.array([1, 2], dtype=jnp.float16) * 2.5")
C("dt_u8_plus_i8", "dtypes", "out = jnp.array([1], dtype=jnp.uint8) + jnp.array([1], dtype=jnp.int8)")
C("dt_i32_plus_u32", "dtypes", "out = jnp.array([1], dtype=jnp.int32) + jnp.array([1], dtype=jnp.uint32)")
C("dt_bf16_plus_f16", "dtypes", "out = jnp.ones(2, jnp.bfloat16) + jnp.ones(2, jnp.float16)")
C("dt_bool_plus_bool", "dtypes", "out = jnp.array([True]) + jnp.array([True])")
C("dt_bool_plus_int", "dtypes", "out = jnp.array([True, False]) + 1")
C("dt_int_times_bool", "dtypes", "out = jnp.arange(3) * True")
C("dt_weak_scalar_array", "dtypes", "out = jnp.array(1.0)")
C("dt_weak_asarray_pyint", "dtypes", "out = jnp.asarray(2)")
C("dt_weak_plus_weak", "dtypes", "out = jnp.array(1.0) + 2")
C("dt_weak_times_strong", "dtypes", "out = jnp.array(1.0) * jnp.float32(2)")
C("dt_weak_int_plus_float_arr", "dtypes", "out = jnp.asarray(2) + jnp.arange(2.0)")
C("dt_weak_int_plus_i8", "dtypes", "out = jnp.asarray(2) + jnp.int8(1)")
C("dt_weak_float_plus_i32", "dtypes", "out = jnp.asarray(2.0) + jnp.arange(2)")
C("dt_np_scalar_strong", "dtypes", "out = jnp.arange(2, dtype=jnp.int8) + np.int32(1)")
C("dt_np_float64_arr_plus_f32", "dtypes", "out = jnp.ones(2) + np.ones(2)")
C("dt_jnp_float32_ctor", "dtypes", "out = jnp.float32(3)")
C("dt_jnp_int32_ctor_arr", "dtypes", "out = jnp.int32([1.7, 2.2])")
C("dt_sum_weak", "dtypes", "out = jnp.sum(jnp.array(2.0))")
C("dt_mean_int_is_float", "dtypes", "out = jnp.mean(jnp.arange(3, dtype=jnp.int8))")
C("dt_sum_i8_promotes", "dtypes", "out = jnp.sum(jnp.arange(3, dtype=jnp.int8))")
C("dt_sum_u8", "dtypes", "out = jnp.sum(jnp.arange(3, dtype=jnp.uint8))")
C("dt_sum_bool", "dtypes", "out = jnp.sum(jnp.array([True, True, False]))")
C("dt_cumsum_bool", "dtypes", "out = jnp.cumsum(jnp.array([True, True]))")
C("dt_f16_mean", "dtypes", "out = jnp.mean(jnp.arange(4, dtype=jnp.float16))")
C("dt_int_pow_neg", "dtypes", "out = jnp.arange(1, 4) ** 2.0")
C("dt_finfo", "dtypes", "fi = jnp.finfo(jnp.float32)\nout = (float(fi.eps), float(fi.max), float(fi.tiny), str(fi.dtype))")
C("dt_iinfo", "dtypes", "ii = jnp.iinfo(jnp.int32)\nout = (int(ii.min), int(ii.max))")
C("dt_issubdtype", "dtypes", "out = (jnp.issubdtype(jnp.float32, jnp.floating), jnp.issubdtype(jnp.int32, jnp.floating), jnp.issubdtype(jnp.int8, jnp.integer))")
C("dt_arange_weak", "dtypes", "out = jnp.arange(3.0)")
C("dt_zeros_weak", "dtypes", "out = (jnp.zeros(()), jnp.zeros((), dtype=jnp.float32))")
C("dt_uint32_wrap", "dtypes", "out = jnp.array([0], dtype=jnp.uint32) - 1")
C("dt_int8_overflow", "dtypes", "out = jnp.array([127], dtype=jnp.int8) + jnp.array([1], dtype=jnp.int8)")
C("dt_convert_bool", "dtypes", "out = jnp.array([0.0, 0.5, -1.0]).astype(bool)")
C("dt_astype_uint8_neg", "dtypes", "out = jnp.array([3.7]).astype(jnp.uint8)")
C("dt_weak_jit_output", "dtypes", "out = jax.jit(lambda v: v * 2)(1.0)")
C("dt_weak_jit_int_arg", "dtypes", "out = jax.jit(lambda v: v + 1)(3)")
C("dt_complex", "dtypes", "z = jnp.array([1 + 2j, 3 - 1j])\nout = (z * z, jnp.abs(z), z.real, jnp.conj(z))")

# ---------------------------------------------------------------- grad & autodiff
C("grad_sin", "grad", "out = jax.grad(jnp.sin)(1.0)")
C("grad_square_int_error", "grad", "out = jax.grad(lambda x: x ** 2)(3)", raises=True)
C("grad_poly", "grad", "out = jax.grad(lambda x: 3 * x ** 3 - 2 * x + 1)(2.0)")
C("grad_mse", "grad", """
def mse_loss(x, y):
    return jnp.mean((x - y) ** 2)
x = jnp.asarray([1, 2, 3], dtype=jnp.float32)
y = jnp.asarray([0, 0, 0], dtype=jnp.float32)
out = (mse_loss(x, y), jax.grad(mse_loss)(x, y))
""")
C("grad_argnums_tuple", "grad", """
def mse_loss(x, y):
    return jnp.mean((x - y) ** 2)
x = jnp.asarray([1, 2, 3], dtype=jnp.float32)
y = jnp.asarray([0, 0, 0], dtype=jnp.float32)
out = jax.grad(mse_loss, argnums=(0, 1))(x, y)
""")
C("grad_argnums_int1", "grad", "out = jax.grad(lambda a, b: a * b ** 2, argnums=1)(2.0, 3.0)")
C("grad_value_and_grad", "grad", """
def mse_loss(x, y):
    return jnp.mean((x - y) ** 2)
out = jax.value_and_grad(mse_loss)(jnp.arange(3.0), jnp.zeros(3))
""")
C("grad_value_and_grad_argnums", "grad", "out = jax.value_and_grad(lambda a, b: a * b, argnums=(0, 1))(2.0, 5.0)")
C("grad_has_aux", "grad", """
def loss_aux(x, y):
    return jnp.mean((x - y) ** 2), x - y
out = jax.grad(loss_aux, has_aux=True)(jnp.arange(3.0), jnp.ones(3))
""")
C("grad_value_and_grad_has_aux", "grad", """
def f(x):
    return jnp.sum(x ** 2), {'n': x.shape[0], 'x2': x * 2}
out = jax.value_and_grad(f, has_aux=True)(jnp.arange(3.0))
""")
C("grad_dict_params", "grad", """
params = {'w': jnp.arange(3.0), 'b': jnp.array(1.0)}
def f(p, x):
    return jnp.sum(p['w'] * x + p['b']) ** 2
out = jax.grad(f)(params, jnp.ones(3))
""")
C("grad_list_tuple_params", "grad", """
def f(p):
    a, (b, c) = p[0], p[1]
    return jnp.sum(a * b) + c ** 2
out = jax.grad(f)([jnp.arange(2.0), (jnp.ones(2), 3.0)])
""")
C("grad_namedtuple", "grad", """
class Params(NamedTuple):
    weight: float
    bias: float
def loss(p, x, y):
    return jnp.mean((p.weight * x + p.bias - y) ** 2)
g = jax.grad(loss)(Params(jnp.array(1.0), jnp.array(0.5)), jnp.arange(4.0), jnp.arange(4.0) * 2 - 1)
out = (type(g).__name__, g.weight, g.bias)
""")
C("grad_nonscalar_error", "grad", "out = jax.grad(lambda x: x * 2)(jnp.ones(3))", raises=True)
C("grad_int_input_error", "grad", "out = jax.grad(lambda x: x * 2.0)(jnp.arange(3))", raises=True)
C("grad_allow_int", "grad", "g = jax.grad(lambda x, y: x * y, argnums=1, allow_int=True)(2.0, 3)\nout = (str(g.dtype), g.shape)")
C("grad_nested_3", "grad", "out = jax.grad(jax.grad(jax.grad(lambda x: x ** 4)))(2.0)")
C("grad_grad_sin", "grad", "out = jax.grad(jax.grad(jnp.sin))(1.0)")
C("grad_tanh_series", "grad", """
f = jnp.tanh
d = [f]
for _ in range(3):
    d.append(jax.grad(d[-1]))
out = [g(0.5) for g in d]
""")
C("grad_of_jit", "grad", "out = jax.grad(jax.jit(lambda x: jnp.sum(jnp.sin(x) ** 2)))(jnp.arange(3.0))")
C("jit_of_grad", "grad", "out = jax.jit(jax.grad(lambda x: jnp.sum(jnp.exp(x))))(jnp.arange(3.0))")
C("vmap_of_grad", "grad", "out = jax.vmap(jax.grad(lambda x: x ** 3))(jnp.arange(4.0))")
C("grad_of_vmap_sum", "grad", "out = jax.grad(lambda x: jnp.sum(jax.vmap(jnp.sin)(x)))(jnp.arange(3.0))")
C("grad_where", "grad", "out = jax.grad(lambda x: jnp.sum(jnp.where(x > 1, x ** 2, -x)))(jnp.arange(4.0))")
C("grad_abs_at_zero", "grad", "out = jax.grad(jnp.abs)(0.0)")
C("grad_relu_at_zero", "grad", "out = jax.grad(jax.nn.relu)(0.0)")
C("grad_sqrt_at_zero", "grad", "out = jax.grad(jnp.sqrt)(0.0)")
C("grad_max_ties", "grad", "out = jax.grad(lambda x: jnp.max(x))(jnp.array([1.0, 3.0, 3.0]))")
C("grad_maximum_ties", "grad", "out = jax.grad(lambda x: jnp.maximum(x, 1.0))(1.0)")
C("grad_indexing", "grad", "out = jax.grad(lambda x: x[1] * 3 + x[jnp.array([0, 0])].sum())(jnp.arange(3.0))")
C("grad_at_set", "grad", "out = jax.grad(lambda x: jnp.sum(x.at[0].set(5.0) ** 2))(jnp.arange(3.0))")
C("grad_matmul", "grad", "out = jax.grad(lambda W: jnp.sum(jnp.tanh(jnp.arange(6.0).reshape(2, 3) @ W)))(jnp.ones((3, 2)) * 0.1)")
C("grad_mean_var", "grad", "out = jax.grad(lambda x: jnp.var(x) + jnp.mean(x))(jnp.arange(4.0))")
C("grad_logsumexp", "grad", "out = jax.grad(lambda x: jax.nn.logsumexp(x))(jnp.arange(3.0))")
C("grad_stop_gradient", "grad", "out = jax.grad(lambda x: x * jax.lax.stop_gradient(x))(3.0)")
C("grad_closure_constant", "grad", "c = jnp.arange(3.0)\nout = jax.grad(lambda x: jnp.dot(c, x))(jnp.ones(3))")
C("grad_python_control_flow", "grad", """
def f(x):
    if x > 0:
        return x ** 2
    return -x
out = (jax.grad(f)(2.0), jax.grad(f)(-2.0))
""")
C("grad_float16", "grad", "out = jax.grad(lambda x: x * x)(jnp.float16(3.0))")
C("grad_output_dtype_weak", "grad", "out = jax.grad(lambda x: x * 2)(jnp.float32(1.0))")
C("jvp_sin", "grad", "out = jax.jvp(jnp.sin, (1.0,), (1.0,))")
C("jvp_half_square", "grad", """
f = lambda x: 0.5 * x ** 2
x = jnp.arange(4.0)
out = jax.jvp(f, (x,), (jnp.ones_like(x),))
""")
C("jvp_two_args", "grad", "out = jax.jvp(lambda a, b: a * b, (2.0, 3.0), (1.0, 0.0))")
C("jvp_pytree", "grad", "out = jax.jvp(lambda p: p['a'] * p['b'], ({'a': 1.0, 'b': 2.0},), ({'a': 1.0, 'b': 1.0},))")
C("jvp_tangent_dtype_error", "grad", "out = jax.jvp(jnp.sin, (1.0,), (1,))", raises=True)
C("vjp_half_square", "grad", """
f = lambda x: 0.5 * x ** 2
x = jnp.arange(4.0)
y, f_vjp = jax.vjp(f, x)
out = (y, f_vjp(jnp.ones_like(x)))
""")
C("vjp_two_args", "grad", """
y, f_vjp = jax.vjp(lambda a, b: a @ b, jnp.ones((2, 3)), jnp.arange(3.0))
out = (y, f_vjp(jnp.array([1.0, 2.0])))
""")
C("vjp_has_aux", "grad", """
y, f_vjp, aux = jax.vjp(lambda x: (x * 2, x + 1), 3.0, has_aux=True)
out = (y, f_vjp(1.0), aux)
""")
C("linearize", "grad", """
y, f_jvp = jax.linearize(jnp.sin, 1.0)
out = (y, f_jvp(1.0), f_jvp(2.0))
""")
C("linearize_vector", "grad", """
y, f_jvp = jax.linearize(lambda x: x ** 3, jnp.arange(3.0))
out = (y, f_jvp(jnp.ones(3)))
""")
C("jacfwd_vector", "grad", "out = jax.jacfwd(lambda x: x ** 2)(jnp.arange(3.0))")
C("jacrev_vector", "grad", "out = jax.jacrev(lambda x: jnp.sin(x) * x[0])(jnp.arange(3.0))")
C("jacrev_matrix_fn", "grad", "out = jax.jacrev(lambda W: W @ jnp.array([1.0, 2.0]))(jnp.ones((2, 2)))")
C("jacfwd_scalar", "grad", "out = jax.jacfwd(jnp.sin)(0.5)")
C("jacrev_argnums", "grad", "out = jax.jacrev(lambda a, b: a * b, argnums=(0, 1))(jnp.arange(2.0), jnp.ones(2))")
C("jacfwd_pytree_out", "grad", "out = jax.jacfwd(lambda x: {'s': jnp.sum(x), 'p': x * 2})(jnp.arange(2.0))")
C("hessian", "grad", "out = jax.hessian(lambda x: jnp.sum(x ** 3))(jnp.arange(3.0))")
C("hessian_quadratic", "grad", "A = jnp.array([[2.0, 1.0], [1.0, 3.0]])\nout = jax.hessian(lambda x: x @ A @ x)(jnp.ones(2))")
C("jacfwd_of_jacrev", "grad", "out = jax.jacfwd(jax.jacrev(lambda x: jnp.prod(x)))(jnp.array([1.0, 2.0, 3.0]))")
C("grad_custom_jvp", "grad", """
@jax.custom_jvp
def f(x):
    return jnp.sin(x)
@f.defjvp
def f_jvp(primals, tangents):
    x, = primals
    t, = tangents
    return f(x), 10.0 * t
out = (f(1.0), jax.grad(f)(1.0))
""")
C("grad_custom_vjp", "grad", """
@jax.custom_vjp
def clip_grad(x):
    return x
def fwd(x):
    return x, None
def bwd(res, g):
    return (jnp.clip(g, -1.0, 1.0),)
clip_grad.defvjp(fwd, bwd)
out = jax.grad(lambda x: 5.0 * clip_grad(x))(2.0)
""")

# ---------------------------------------------------------------- jit
C("jit_basic", "jit", "out = jax.jit(lambda x: x * 2 + 1)(jnp.arange(3.0))")
C("jit_selu", "jit", """
def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
x = jnp.linspace(-2, 2, 5)
out = (selu(x), jax.jit(selu)(x))
""")
C("jit_static_argnums", "jit", """
@partial(jax.jit, static_argnums=(1,))
def f(x, n):
    for _ in range(n):
        x = x * 2
    return x
out = (f(jnp.ones(2), 3), f(jnp.ones(2), 1))
""")
C("jit_static_argnames", "jit", """
@partial(jax.jit, static_argnames=['mode'])
def f(x, mode):
    return x + 1 if mode == 'inc' else x - 1
out = (f(jnp.ones(2), mode='inc'), f(jnp.ones(2), mode='dec'))
""")
C("jit_retrace_count", "jit", """
trace_count = []
@jax.jit
def f(x):
    trace_count.append(x.shape)
    return x + 1
f(jnp.ones(2)); f(jnp.ones(2)); f(jnp.ones(3)); f(jnp.ones(3, dtype=jnp.int32))
out = [list(s) for s in trace_count]
""")
C("jit_print_traces_once", "jit", """
log = []
@jax.jit
def f(x):
    log.append('traced')
    return x * 2
f(1.0); f(2.0); f(3.0)
out = log
""")
C("jit_python_scalar_args_no_retrace", "jit", """
n = []
@jax.jit
def f(x):
    n.append(1)
    return x * 2
out = (f(1.0), f(2.0), len(n))
""")
C("jit_weak_vs_strong_retrace", "jit", """
n = []
@jax.jit
def f(x):
    n.append(1)
    return x * 2
a = f(1.0); b = f(jnp.float32(1.0))
out = (a, b, len(n))
""")
C("jit_pytree_args", "jit", "out = jax.jit(lambda d: {'s': d['a'] + d['b'][0], 't': d['b'][1]})({'a': jnp.ones(2), 'b': (jnp.arange(2.0), 3)})")
C("jit_returns_tuple", "jit", "out = jax.jit(lambda x: (x, x * 2, [x + 1]))(1.0)")
C("jit_returns_none", "jit", "out = jax.jit(lambda x: None)(1.0)")
C("jit_nested", "jit", "g = jax.jit(lambda x: x ** 2)\nout = jax.jit(lambda x: g(x) + g(x + 1))(jnp.arange(3.0))")
C("jit_closure_const", "jit", "c = jnp.arange(3.0)\nout = jax.jit(lambda x: x * c)(2.0)")
C("jit_static_shape_python_int", "jit", """
@partial(jax.jit, static_argnums=1)
def f(x, n):
    return jnp.reshape(x, (n, -1))
out = f(jnp.arange(6.0), 2)
""")
C("jit_shape_from_traced_ok", "jit", "out = jax.jit(lambda x: jnp.zeros(x.shape) + x.shape[0])(jnp.ones((2, 3)))")
C("jit_kwargs", "jit", "out = jax.jit(lambda x, y=2.0: x * y)(3.0, y=4.0)")
C("jit_integer_ops", "jit", "out = jax.jit(lambda x: (x // 2, x % 3, x * x))(jnp.arange(5))")
C("jit_inside_loop_values", "jit", """
f = jax.jit(lambda x, i: x + i)
x = jnp.zeros(2)
for i in range(3):
    x = f(x, i)
out = x
""")
C("jit_block_until_ready", "jit", "out = jax.jit(lambda x: x @ x.T)(jnp.arange(6.0).reshape(2, 3)).block_until_ready()")
C("jit_static_unhashable_error", "jit", """
f = jax.jit(lambda x, s: x * len(s), static_argnums=1)
out = f(1.0, [1, 2])
""", raises=True)
C("jit_non_array_arg_error", "jit", "out = jax.jit(lambda s: s)('hello')", raises=True, msg_prefix=30)
C("jit_device_put", "jit", "out = jax.device_put(jnp.arange(3.0)) + 1")
C("jit_device_get", "jit", "out = jax.device_get({'a': jnp.arange(2)})")

# ---------------------------------------------------------------- vmap
C("vmap_basic", "vmap", "out = jax.vmap(lambda x: x * 2)(jnp.arange(3.0))")
C("vmap_dot_matrix_vector", "vmap", """
mat = jnp.arange(6.0).reshape(3, 2)
batch = jnp.arange(8.0).reshape(4, 2)
out = jax.vmap(lambda v: jnp.dot(mat, v))(batch)
""")
C("vmap_in_axes_none", "vmap", "out = jax.vmap(lambda x, y: x + y, in_axes=(0, None))(jnp.arange(3.0), jnp.ones(2)[:, None].sum())")
C("vmap_in_axes_1", "vmap", "out = jax.vmap(jnp.sum, in_axes=1)(jnp.arange(6.0).reshape(2, 3))")
C("vmap_out_axes_1", "vmap", "out = jax.vmap(lambda x: x * jnp.arange(2.0), out_axes=1)(jnp.arange(3.0))")
C("vmap_out_axes_none", "vmap", "out = jax.vmap(lambda x, c: (x * 2, c), in_axes=(0, None), out_axes=(0, None))(jnp.arange(3.0), 5.0)")
C("vmap_in_axes_dict", "vmap", "out = jax.vmap(lambda d: d['a'] * d['b'], in_axes=({'a': 0, 'b': None},))({'a': jnp.arange(3.0), 'b': 2.0})")
C("vmap_pytree_in_out", "vmap", "out = jax.vmap(lambda p: {'s': p[0] + p[1], 'd': p[0] - p[1]})((jnp.arange(3.0), jnp.ones(3)))")
C("vmap_nested", "vmap", "out = jax.vmap(jax.vmap(lambda a, b: a * b, in_axes=(None, 0)), in_axes=(0, None))(jnp.arange(3.0), jnp.arange(2.0))")
C("vmap_axis_size", "vmap", "out = jax.vmap(lambda: jnp.ones(2), axis_size=3)()")
C("vmap_axis_size_none_input", "vmap", "out = jax.vmap(lambda x: x + 1.0, in_axes=None, axis_size=2)(jnp.arange(3.0))")
C("vmap_kwargs_batched", "vmap", "out = jax.vmap(lambda x, y: x * y)(jnp.arange(3.0), y=jnp.ones(3))")
C("vmap_matmul_batched", "vmap", "out = jax.vmap(jnp.matmul)(jnp.ones((2, 2, 3)), jnp.arange(12.0).reshape(2, 3, 2))")
C("vmap_indexing", "vmap", "out = jax.vmap(lambda x, i: x[i])(jnp.arange(6.0).reshape(2, 3), jnp.array([2, 0]))")
C("vmap_at_set", "vmap", "out = jax.vmap(lambda x, i: x.at[i].set(-1.0))(jnp.zeros((3, 3)), jnp.arange(3))")
C("vmap_reduction_axis", "vmap", "out = jax.vmap(lambda x: jnp.mean(x, axis=0))(jnp.arange(24.0).reshape(2, 3, 4))")
C("vmap_where_batched_pred", "vmap", "out = jax.vmap(lambda x: jnp.where(x > 1, x, 0.0))(jnp.arange(4.0))")
C("vmap_jit", "vmap", "out = jax.jit(jax.vmap(lambda x: jnp.sin(x) @ x))(jnp.arange(6.0).reshape(2, 3))")
C("vmap_size_mismatch_error", "vmap", "out = jax.vmap(lambda a, b: a + b)(jnp.ones(3), jnp.ones(4))", raises=True)
C("vmap_weak_output", "vmap", "out = jax.vmap(lambda x: 2.0)(jnp.arange(3.0))")
C("vmap_const_output_out_axes_none", "vmap", "out = jax.vmap(lambda x: 2.0, out_axes=None)(jnp.arange(3.0))")
C("vmap_int_preserved", "vmap", "out = jax.vmap(lambda x: x * 2)(jnp.arange(3))")
C("vmap_apply_matrix", "vmap", """
mat = jnp.arange(150.0).reshape(15, 10) / 100.0
apply_matrix = lambda v: jnp.dot(mat, v)
batched_x = jnp.arange(30.0).reshape(3, 10)
naive = jnp.stack([apply_matrix(v) for v in batched_x])
out = (naive, jax.vmap(apply_matrix)(batched_x), jax.jit(jax.vmap(apply_matrix))(batched_x))
""", rtol=1e-5, atol=1e-5)
C("vmap_mse_linear_regression", "vmap", """
def predict(W, b, x):
    return jnp.dot(x, W) + b
def mse(W, b, xb, yb):
    def se(x, y):
        y_pred = predict(W, b, x)
        return jnp.inner(y - y_pred, y - y_pred) / 2.0
    return jnp.mean(jax.vmap(se)(xb, yb), axis=0)
W = jnp.arange(6.0).reshape(3, 2) / 10
b = jnp.array([0.1, -0.1])
xb = jnp.linspace(-1, 1, 12).reshape(4, 3)
yb = jnp.linspace(0, 1, 8).reshape(4, 2)
out = (mse(W, b, xb, yb), jax.grad(mse, (0, 1))(W, b, xb, yb))
""")
C("vmap_per_example_grads", "vmap", """
def loss(w, x, y):
    return (jnp.dot(w, x) - y) ** 2
w = jnp.array([0.5, -0.5])
xs = jnp.arange(6.0).reshape(3, 2)
ys = jnp.arange(3.0)
out = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
""")

# ---------------------------------------------------------------- make_jaxpr & tracer reprs
JAXPRS = [
    ("sin_mul", "lambda x: jnp.sin(x) * 2", "1.0"),
    ("sin_mul_f32arr", "lambda x: jnp.sin(x) * 2", "jnp.ones(3)"),
    ("add_one_int", "lambda x: x + 1", "jnp.arange(3)"),
    ("int_plus_float_literal", "lambda x: x + 1.5", "jnp.arange(3)"),
    ("two_args", "lambda x, y: x * y + x", "1.0, jnp.ones(2)"),
    ("exp_log", "lambda x: jnp.log(jnp.exp(x) + 1.0)", "jnp.ones(2)"),
    ("neg_abs", "lambda x: -jnp.abs(x)", "jnp.ones(2)"),
    ("sum", "jnp.sum", "jnp.ones((2, 3))"),
    ("sum_axis", "lambda x: jnp.sum(x, axis=1)", "jnp.ones((2, 3))"),
    ("mean", "jnp.mean", "jnp.ones((2, 3))"),
    ("max_axis0", "lambda x: jnp.max(x, axis=0)", "jnp.ones((2, 3))"),
    ("argmax", "jnp.argmax", "jnp.ones(3)"),
    ("broadcast_add", "lambda x, y: x + y", "jnp.ones((2, 3)), jnp.ones(3)"),
    ("broadcast_scalar_arr", "lambda x, y: x + y", "jnp.ones((2, 3)), jnp.float32(1)"),
    ("dot_mm", "jnp.dot", "jnp.ones((2, 3)), jnp.ones((3, 4))"),
    ("dot_vv", "jnp.dot", "jnp.ones(3), jnp.ones(3)"),
    ("matmul_op", "lambda a, b: a @ b", "jnp.ones((2, 3)), jnp.ones(3)"),
    ("dot_plus_one", "lambda x, y: jnp.dot(x + 1, y + 1)", "jnp.ones((2, 3)), jnp.ones((3, 2))"),
    ("reshape", "lambda x: x.reshape(3, 2)", "jnp.ones((2, 3))"),
    ("transpose", "lambda x: x.T", "jnp.ones((2, 3))"),
    ("index_static", "lambda x: x[1]", "jnp.ones(3)"),
    ("index_slice", "lambda x: x[1:3]", "jnp.ones(5)"),
    ("index_int_array", "lambda x, i: x[i]", "jnp.ones(5), jnp.array([0, 2])"),
    ("at_set", "lambda x: x.at[0].set(1.0)", "jnp.ones(3)"),
    ("where", "lambda x: jnp.where(x > 0, x, 0.0)", "jnp.ones(3)"),
    ("relu", "jax.nn.relu", "jnp.ones(3)"),
    ("maximum_literal", "lambda x: jnp.maximum(x, 0.0)", "jnp.ones(3)"),
    ("convert_int_to_float", "lambda x: x.astype(jnp.float32)", "jnp.arange(3)"),
    ("concatenate", "lambda x: jnp.concatenate([x, x])", "jnp.ones(2)"),
    ("stack", "lambda x: jnp.stack([x, x])", "jnp.ones(2)"),
    ("expand_squeeze", "lambda x: jnp.squeeze(jnp.expand_dims(x, 0))", "jnp.ones(2)"),
    ("cumsum", "jnp.cumsum", "jnp.ones(3)"),
    ("sort", "jnp.sort", "jnp.ones(3)"),
    ("clip", "lambda x: jnp.clip(x, 0.0, 1.0)", "jnp.ones(3)"),
    ("pow_int", "lambda x: x ** 3", "1.0"),
    ("pow_float", "lambda x: x ** 2.5", "1.0"),
    ("square_sqrt", "lambda x: jnp.sqrt(jnp.square(x))", "1.0"),
    ("div_int_by_int", "lambda x: x / 2", "jnp.arange(3)"),
    ("floordiv", "lambda x: x // 2", "jnp.arange(3)"),
    ("comparison", "lambda x: x > 1", "jnp.ones(2)"),
    ("weak_literal_scalar_input", "lambda x: x * 2", "2.0"),
    ("weak_int_input", "lambda x: x * 2", "2"),
    ("zeros_like", "jnp.zeros_like", "jnp.ones(2)"),
    ("ones_inside", "lambda x: x + jnp.ones(2)", "jnp.ones(2)"),
    ("arange_inside", "lambda x: x + jnp.arange(3.0)", "jnp.ones(3)"),
    ("pytree_input", "lambda d: d['a'] + d['b']", "{'a': 1.0, 'b': jnp.ones(2)}"),
    ("multiple_outputs", "lambda x: (x + 1, x * 2)", "1.0"),
    ("unused_input", "lambda x, y: x + 1", "1.0, 2.0"),
    ("identity", "lambda x: x", "1.0"),
    ("tanh", "jnp.tanh", "jnp.ones(2)"),
    ("logsumexp", "jax.nn.logsumexp", "jnp.ones(3)"),
    ("softmax", "jax.nn.softmax", "jnp.ones(3)"),
    ("sigmoid", "jax.nn.sigmoid", "jnp.ones(3)"),
    ("grad_sin", "jax.grad(jnp.sin)", "1.0"),
    ("grad_square", "jax.grad(lambda x: x ** 2)", "1.0"),
    ("grad_sum_sq", "jax.grad(lambda x: jnp.sum(x ** 2))", "jnp.ones(3)"),
    ("grad_tanh", "jax.grad(jnp.tanh)", "1.0"),
    ("value_and_grad", "jax.value_and_grad(lambda x: jnp.sin(x) * x)", "1.0"),
    ("vmap_sin", "jax.vmap(jnp.sin)", "jnp.ones(3)"),
    ("vmap_dot", "jax.vmap(jnp.dot)", "jnp.ones((2, 3)), jnp.ones((2, 3))"),
    ("vmap_in_axes_none", "jax.vmap(lambda x, y: x * y, in_axes=(0, None))", "jnp.ones(3), 2.0"),
    ("vmap_sum", "jax.vmap(jnp.sum)", "jnp.ones((2, 3))"),
    ("jit_inner", "lambda x: jax.jit(jnp.sin)(x) + 1", "1.0"),
    ("jit_outer", "jax.jit(lambda x: x * 2)", "1.0"),
    ("jit_named_inner", "lambda x: jax.jit(lambda y: y * 3)(x)", "jnp.ones(2)"),
    ("jvp", "lambda x: jax.jvp(jnp.sin, (x,), (1.0,))", "1.0"),
    ("stop_gradient", "jax.lax.stop_gradient", "1.0"),
    ("jacfwd", "jax.jacfwd(lambda x: x * x)", "jnp.ones(2)"),
]
for _n, _f, _a in JAXPRS:
    C(f"jaxpr_{_n}", "jaxpr", f"out = str(jax.make_jaxpr({_f})({_a}))")
C("jaxpr_constvar_closure", "jaxpr", "c = jnp.arange(3.0)\nout = str(jax.make_jaxpr(lambda x: x * c)(jnp.ones(3)))")
C("jaxpr_constvar_numpy", "jaxpr", "c = np.arange(3.0, dtype=np.float32)\nout = str(jax.make_jaxpr(lambda x: x + c)(jnp.ones(3)))")
C("jaxpr_python_scalar_closure", "jaxpr", "c = 3.0\nout = str(jax.make_jaxpr(lambda x: x * c)(jnp.ones(3)))")
# arrays a jitted function closes over stay consts of its inner jaxpr (`lambda c:f32[3]; a:f32[3]`)
_JIT_W = "W = jnp.arange(3.0)\nf = jax.jit(lambda x: jnp.dot(W, x) + 1.0)\n"
C("jaxpr_jit_closure", "jaxpr", _JIT_W + "out = str(jax.make_jaxpr(f)(jnp.ones(3)))")
C("jaxpr_jit_closure_called", "jaxpr", _JIT_W + "out = str(jax.make_jaxpr(lambda x: f(x) * 2)(jnp.ones(3)))")
C("jaxpr_jit_closure_grad", "jaxpr", _JIT_W + "out = str(jax.make_jaxpr(jax.grad(f))(jnp.ones(3)))")
C("jaxpr_jit_closure_vmap", "jaxpr", _JIT_W + "out = str(jax.make_jaxpr(jax.vmap(f))(jnp.ones((2, 3))))")
C("jaxpr_jit_closure_jvp", "jaxpr", _JIT_W + "out = str(jax.make_jaxpr(lambda x: jax.jvp(f, (x,), (x,)))(jnp.ones(3)))")
C("jaxpr_jit_closure_of_tracer", "jaxpr",
  "W = jnp.arange(3.0)\nout = str(jax.make_jaxpr(lambda x: jax.jit(lambda z: z + x * 3 + W)(x))(jnp.ones(3)))")
C("jaxpr_jit_closure_scan", "jaxpr", _JIT_W + "out = str(jax.make_jaxpr(lambda x: lax.scan(lambda c, a: (c + f(a * c), c), x, "
  "jnp.ones((2, 3))))(jnp.ones(3)))")
C("jaxpr_custom_jvp_closure", "jaxpr",
  "W = jnp.arange(3.0)\ncs = jax.custom_jvp(lambda x: jnp.sin(x) * W)\n"
  "cs.defjvp(lambda p, t: (cs(p[0]), jnp.cos(p[0]) * t[0] * W))\n"
  "out = str(jax.make_jaxpr(jax.jit(lambda x: cs(x).sum()))(jnp.ones(3)))")
# jnp.linalg on the decomposition primitives: values, grads, vmap, jit, and JAX's jaxprs
_LA = ("A = jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])\n"
       "A4 = jnp.eye(4) * 3 + jnp.arange(16.0).reshape(4, 4) / 10\nb = jnp.arange(3.0)\n")
C("linalg_values", "numpy", _LA + "out = (jnp.linalg.solve(A, b), jnp.linalg.solve(A4, jnp.ones((4, 2))), jnp.linalg.inv(A4), "
  "jnp.linalg.det(A), jnp.linalg.det(A4), jnp.linalg.det(A[:2, :2]), tuple(jnp.linalg.slogdet(A4)), "
  "jnp.linalg.cholesky(A), jnp.linalg.eigh(A).eigenvalues, jnp.abs(jnp.linalg.eigh(A).eigenvectors), "
  "jnp.linalg.eigvalsh(A4 + A4.T))", rtol=2e-5, atol=2e-5)
C("linalg_grads", "grad", _LA + "out = (jax.grad(jnp.linalg.det)(A), jax.grad(jnp.linalg.det)(A4), "
  "jax.grad(lambda a: jnp.linalg.solve(a, b).sum())(A), jax.grad(lambda a: jnp.linalg.slogdet(a)[1])(A4), "
  "jax.grad(lambda a: jnp.linalg.cholesky(a).sum())(A), jax.grad(lambda a: jnp.linalg.eigh(a).eigenvalues[-1])(A), "
  "jax.grad(lambda a: jnp.linalg.inv(a)[0, 1])(A4), jax.jacfwd(lambda v: jnp.linalg.solve(A, v))(b))",
  rtol=1e-4, atol=1e-4)
C("linalg_vmap_jit", "vmap", _LA + "out = (jax.vmap(jnp.linalg.det)(jnp.stack([A4, 2 * A4])), "
  "jax.jit(jax.vmap(jnp.linalg.solve, (0, None)))(jnp.stack([A, A + 1]), b), "
  "jax.vmap(jnp.linalg.cholesky)(jnp.stack([A, 2 * A])), jax.jit(jnp.linalg.inv)(A))", rtol=2e-5, atol=2e-5)
C("jaxpr_linalg_cholesky", "jaxpr", _LA + "out = str(jax.make_jaxpr(jnp.linalg.cholesky)(A))")
C("jaxpr_linalg_det3", "jaxpr", _LA + "out = str(jax.make_jaxpr(jnp.linalg.det)(A))")
C("jaxpr_linalg_eigh", "jaxpr", _LA + "out = str(jax.make_jaxpr(jnp.linalg.eigh)(A))")
C("jaxpr_lax_linalg_lu_triangular", "jaxpr", _LA + "out = str(jax.make_jaxpr(lambda a: (lax.linalg.lu(a), "
  "lax.linalg.triangular_solve(a, a, left_side=True, lower=True)))(A))")
C("linalg_solve_shape_error", "errors", _LA + "out = jnp.linalg.solve(A, jnp.ones(4))", raises=True, msg_prefix=10)
C("linalg_svd_qr", "numpy", _LA + "B = A[:, :2] + jnp.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.5]])\n"
  "u, s, vt = jnp.linalg.svd(B, full_matrices=False)\nq, r = jnp.linalg.qr(B)\n"
  "out = (s, jnp.abs(u), jnp.abs(vt), jnp.linalg.svd(A, compute_uv=False), jnp.linalg.svd(B).U.shape, q, r, "
  "jnp.linalg.qr(B, mode='complete')[0].shape, jnp.linalg.qr(B, mode='r'), "
  "jax.grad(lambda b: jnp.linalg.svd(b, compute_uv=False)[0])(B), jax.grad(lambda b: jnp.linalg.qr(b)[1][0, 1])(B), "
  "jax.vmap(lambda b: jnp.linalg.svd(b, compute_uv=False))(jnp.stack([B, 2 * B])))", rtol=1e-4, atol=1e-4)
C("jaxpr_linalg_svd_qr", "jaxpr", _LA + "out = (str(jax.make_jaxpr(lambda a: jnp.linalg.svd(a, compute_uv=False))(A)), "
  "str(jax.make_jaxpr(lambda a: jnp.linalg.svd(a, full_matrices=False))(A)), str(jax.make_jaxpr(jnp.linalg.qr)(A)))")
C("linalg_norm_orders", "numpy", "x = jnp.arange(6.0).reshape(2, 3) / 7 - 0.3\nout = tuple("
  "jnp.linalg.norm(x if ax is not None or o in (None, 'fro', 'nuc') else x[0], ord=o, axis=ax, keepdims=kd) "
  "for o in (None, 2, 1, -1, 3, 0, jnp.inf, -jnp.inf, 'fro', 'nuc', 0.5) for ax in (None, 1, (0, 1), (1, 0)) "
  "for kd in (False, True) if not (o in (3, 0, 0.5) and ax in ((0, 1), (1, 0))) and not (o in ('fro', 'nuc') and ax == 1))",
  rtol=1e-5, atol=1e-6)
C("jaxpr_linalg_norm", "jaxpr", "x = jnp.arange(6.0).reshape(2, 3) / 7 - 0.3\nout = tuple(str(jax.make_jaxpr("
  "lambda v: jnp.linalg.norm(v, ord=o, axis=ax))(x)) for o, ax in ((None, None), (None, 1), (1, 1), (3, 1), "
  "(0, 1), (jnp.inf, (0, 1)), (-1, (1, 0)), (2, (0, 1))))")
C("norm_invalid_order", "errors", "out = jnp.linalg.norm(jnp.ones((2, 2)), ord=3, axis=(0, 1))", raises=True)
C("nan_reductions", "numpy", "x = jnp.array([[1.0, jnp.nan, 3.0], [jnp.nan, jnp.nan, 2.0]])\n"
  "out = (jnp.nansum(x), jnp.nansum(x, axis=0), jnp.nanmax(x, axis=1), jnp.nanmin(x), jnp.nanmean(x, axis=0), "
  "jnp.nanprod(x, axis=1), jnp.nanmax(x, axis=0), jnp.nansum(jnp.arange(4)), jnp.sum(x > 1, dtype=jnp.float32))")
C("jaxpr_nan_reductions", "jaxpr", "x = jnp.arange(6.0).reshape(2, 3) / 7\nout = tuple(str(jax.make_jaxpr(f)(x)) for f in "
  "(jnp.nansum, lambda v: jnp.nanmax(v, axis=1), lambda v: jnp.nanmean(v, axis=0), jnp.nanprod, "
  "lambda v: jnp.sum(v > 0.2, dtype=jnp.float32), lambda v: jnp.mean(v > 0.2)))")
C("jaxpr_logaddexp_hypot_cross", "jaxpr", "x = jnp.arange(6.0).reshape(2, 3) / 7\nout = tuple(str(jax.make_jaxpr(f)(x)) for f in "
  "(lambda v: jnp.logaddexp(v, 1.0), lambda v: jnp.hypot(v, 2.0), lambda v: jnp.cross(v[0], v[1])))")
C("jaxpr_array_of_tracers", "jaxpr", "out = (str(jax.make_jaxpr(lambda a, b: jnp.array([a, b]))(1.0, 2.0)), "
  "str(jax.make_jaxpr(lambda a: jnp.array([[a, 1], [2, a]]))(2)), str(jax.make_jaxpr(lambda a: jnp.array([a, 1.0]))(jnp.ones(()))))")
C("logaddexp_hypot_cross_values", "numpy", "x = jnp.array([1.0, -jnp.inf, jnp.inf, 3e38, 0.0])\n"
  "out = (jnp.logaddexp(x, 1.0), jnp.hypot(x, 3e38), jnp.hypot(0.0, 0.0), jax.grad(lambda v: jnp.logaddexp(v, jnp.inf))(2.0), "
  "jax.grad(lambda v: jnp.hypot(v, 4.0))(3.0), jnp.cross(jnp.arange(3.0), jnp.array([1.0, -1.0, 2.0])), "
  "jnp.cross(jnp.arange(2.0), jnp.array([1.0, -1.0])), jnp.cross(jnp.ones((2, 3)), jnp.arange(6.0).reshape(3, 2), axisb=0), "
  "jnp.cross(jnp.arange(3.0), jnp.array([1.0, 2.0])))")
C("cross_bad_dimension", "errors", "out = jnp.cross(jnp.ones(4), jnp.ones(4))", raises=True)
_COV = "x = jnp.array([[0.0, 1.0, 2.0, 4.0], [2.0, 1.5, 0.5, -1.0], [1.0, 1.0, 2.0, 3.0]])\n"
C("np_cov_corrcoef", "numpy", _COV + "out = (jnp.cov(x), jnp.cov(x, rowvar=False), jnp.cov(x[0], x[1]), jnp.cov(x, bias=True), "
  "jnp.cov(x, fweights=jnp.array([1, 2, 1, 1])), jnp.cov(x, aweights=jnp.array([0.5, 1.0, 2.0, 1.0])), jnp.cov(x[0]), "
  "jnp.corrcoef(x), jnp.corrcoef(x[0], x[2]), jax.grad(lambda v: jnp.corrcoef(v)[0, 1])(x))", rtol=1e-5, atol=1e-6)
C("jaxpr_np_cov", "jaxpr", _COV + "out = str(jax.make_jaxpr(jnp.cov)(x))")
C("jit_closure_values", "jit", _JIT_W + "x = jnp.arange(3.0) + 0.5\n"
  "out = (f(x), jax.grad(f)(x), jax.vmap(f)(jnp.stack([x, 2 * x])), jax.jvp(f, (x,), (x,)))")
C("jaxpr_selu", "jaxpr", """
def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
out = str(jax.make_jaxpr(selu)(jnp.ones(3)))
""")
C("jaxpr_static_argnums", "jaxpr", "out = str(jax.make_jaxpr(lambda x, n: x * n, static_argnums=1)(jnp.ones(2), 3))")
C("jaxpr_python_if", "jaxpr", """
def f(x, neg):
    return -x if neg else x
out = str(jax.make_jaxpr(f, static_argnums=1)(1.0, True))
""")
C("jaxpr_python_loop_unrolled", "jaxpr", """
def f(x):
    for i in range(3):
        x = x + i
    return x
out = str(jax.make_jaxpr(f)(1.0))
""")
C("jaxpr_object_fields", "jaxpr", """
cj = jax.make_jaxpr(lambda x, y: (jnp.sin(x) + y, x))(1.0, jnp.ones(2))
j = cj.jaxpr
out = ([str(v.aval) for v in j.invars], [str(v.aval) for v in j.outvars], [str(e.primitive) for e in j.eqns], len(cj.consts), j.outvars[1] is j.invars[0])
""")
C("jaxpr_out_avals", "jaxpr", "out = [str(a) for a in jax.make_jaxpr(lambda x: (x.sum(), x > 0))(jnp.ones((2, 2))).out_avals]")
C("jaxpr_eval_shape", "jaxpr", "s = jax.eval_shape(lambda x: x @ x.T, jnp.ones((2, 3)))\nout = (s.shape, str(s.dtype))")
C("jaxpr_print_inside_jit", "jaxpr", """
seen = []
@jax.jit
def f(x):
    seen.append(str(x))
    return x
f(jnp.ones((2, 3)))
out = seen
""")
C("tracer_repr_jit", "jaxpr", """
seen = []
jax.jit(lambda x: seen.append(repr(x)) or x)(jnp.ones((2, 3)))
out = seen[0]
""")
C("tracer_repr_jit_weak", "jaxpr", """
seen = []
jax.jit(lambda x: seen.append(repr(x)) or x)(1.0)
out = seen[0]
""")
C("tracer_repr_jit_int", "jaxpr", """
seen = []
jax.jit(lambda x: seen.append(repr(x)) or x)(jnp.arange(3))
out = seen[0]
""")
C("tracer_repr_vmap", "jaxpr", """
seen = []
jax.vmap(lambda x: seen.append(repr(x)) or x)(jnp.arange(2.0))
out = seen[0]
""")
C("tracer_repr_vmap_matrix", "jaxpr", """
seen = []
jax.vmap(lambda x: seen.append(repr(x)) or x)(jnp.ones((4, 3)))
out = seen[0]
""")
C("tracer_repr_grad", "jaxpr", """
seen = []
jax.grad(lambda x: seen.append(repr(x)) or x)(1.0)
out = seen[0]
""")
C("tracer_repr_make_jaxpr", "jaxpr", """
seen = []
jax.make_jaxpr(lambda x: seen.append(repr(x)) or x)(jnp.ones(2))
out = seen[0]
""")
C("tracer_shape_dtype_inside_jit", "jaxpr", """
seen = []
def f(x):
    seen.append((x.shape, str(x.dtype), x.ndim, x.size))
    return x
jax.jit(f)(jnp.ones((2, 3), dtype=jnp.int32))
out = seen[0]
""")

# ---------------------------------------------------------------- pytrees
tu = "jax.tree_util"
C("tree_leaves_basic", "pytree", "out = jax.tree_util.tree_leaves([1, 'a' if False else 2, (3, {'x': 4})])")
C("tree_leaves_seed", "pytree", """
pytree = [[1, 'a', object()], (1, (2, 3), ()), [1, {'k1': 2, 'k2': (3, 4)}, 5], {'a': 2, 'b': (2, 3)}, jnp.array([1, 2, 3])]
out = [len(jax.tree_util.tree_leaves(p)) for p in pytree]
""")
C("tree_leaves_none", "pytree", "out = jax.tree_util.tree_leaves([None, 1, (None,), {'a': None}])")
C("tree_leaves_dict_sorted", "pytree", "out = jax.tree_util.tree_leaves({'b': 1, 'a': 2, 'c': {'z': 3, 'y': 4}})")
C("tree_leaves_is_leaf", "pytree", "out = jax.tree_util.tree_leaves([(1, 2), (3, 4)], is_leaf=lambda x: isinstance(x, tuple))")
C("tree_map_basic", "pytree", "out = jax.tree_util.tree_map(lambda x: x * 2, {'a': 1, 'b': [2, 3]})")
C("tree_map_arrays", "pytree", "out = jax.tree_util.tree_map(lambda x: x.shape, {'w': jnp.ones((2, 3)), 'b': jnp.ones(3)})")
C("tree_map_two_trees", "pytree", "out = jax.tree_util.tree_map(lambda x, y: x + y, [1, (2, 3)], [10, (20, 30)])")
C("tree_map_three_trees", "pytree", "out = jax.tree_util.tree_map(lambda x, y, z: x * y + z, {'a': 1.0, 'b': 2.0}, {'a': 3.0, 'b': 4.0}, {'a': 0.5, 'b': 0.25})")
C("tree_map_with_none", "pytree", "out = jax.tree_util.tree_map(lambda x: x + 1, [1, None, 2])")
C("jax_tree_map_new_api", "pytree", "out = jax.tree.map(lambda x: x * 10, (1, [2, {'q': 3}]))")
C("jax_tree_leaves_new_api", "pytree", "out = jax.tree.leaves({'b': (1, 2), 'a': 3})")
C("tree_map_structure_mismatch", "pytree", "out = jax.tree_util.tree_map(lambda x, y: x + y, [1, 2], [1, 2, 3])", raises=True)
C("tree_flatten", "pytree", "leaves, tdef = jax.tree_util.tree_flatten({'a': 1, 'b': (2, None, [3])})\nout = (leaves, str(tdef), tdef.num_leaves, tdef.num_nodes)")
C("tree_unflatten", "pytree", "leaves, tdef = jax.tree_util.tree_flatten([1, (2, 3)])\nout = jax.tree_util.tree_unflatten(tdef, [x * 10 for x in leaves])")
C("tree_structure_str", "pytree", "out = str(jax.tree_util.tree_structure({'w': jnp.ones(2), 'b': [1, 2]}))")
C("tree_structure_tuple_none", "pytree", "out = str(jax.tree_util.tree_structure((None, (1, 2), [])))")
C("tree_structure_leaf", "pytree", "out = str(jax.tree_util.tree_structure(1.0))")
C("tree_structure_eq", "pytree", "ts = jax.tree_util.tree_structure\nout = (ts([1, 2]) == ts([3, 4]), ts([1, 2]) == ts((1, 2)))")
C("tree_namedtuple", "pytree", """
class Point(NamedTuple):
    x: float
    y: float
p = Point(1.0, 2.0)
q = jax.tree_util.tree_map(lambda v: v * 2, p)
out = (type(q).__name__, q.x, q.y, jax.tree_util.tree_leaves(p))
""")
C("tree_namedtuple_structure_str", "pytree", """
class Point(NamedTuple):
    x: float
    y: float
out = str(jax.tree_util.tree_structure(Point(1.0, 2.0)))
""")
C("tree_register_pytree_node", "pytree", """
class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b
jax.tree_util.register_pytree_node(Box, lambda b: ((b.a, b.b), None), lambda aux, ch: Box(*ch))
t = jax.tree_util.tree_map(lambda v: v + 1, Box(1, jnp.arange(2.0)))
out = (type(t).__name__, t.a, t.b, len(jax.tree_util.tree_leaves(Box(1, (2, 3)))))
""")
C("tree_register_grad", "pytree", """
class Lin:
    def __init__(self, w, b):
        self.w, self.b = w, b
jax.tree_util.register_pytree_node(Lin, lambda m: ((m.w, m.b), None), lambda aux, ch: Lin(*ch))
g = jax.grad(lambda m, x: jnp.sum(m.w * x + m.b))(Lin(jnp.ones(2), 0.5), jnp.arange(2.0))
out = (g.w, g.b)
""")
C("tree_register_pytree_node_class", "pytree", """
@jax.tree_util.register_pytree_node_class
class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def tree_flatten(self):
        return (self.a, self.b), 'aux'
    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
r = jax.jit(lambda p: Pair(p.a + p.b, p.a - p.b))(Pair(1.0, 2.0))
out = (r.a, r.b)
""")
C("tree_jit_namedtuple", "pytree", """
class P(NamedTuple):
    w: object
    b: object
r = jax.jit(lambda p: P(p.w * 2, p.b + 1))(P(jnp.ones(2), 1.0))
out = (type(r).__name__, r.w, r.b)
""")
C("tree_reduce", "pytree", "out = jax.tree_util.tree_reduce(lambda a, b: a + b, [1, (2, 3), {'x': 4}])")
C("tree_all", "pytree", "out = (jax.tree_util.tree_all([True, (True, 1)]), jax.tree_util.tree_all([True, 0]))")
C("tree_transpose_like_zip", "pytree", "out = jax.tree_util.tree_map(lambda *xs: sum(xs), [1, 2], [3, 4], [5, 6])")
C("tree_shapes_of_params", "pytree", """
params = [dict(weights=np.ones((n_in, n_out)), biases=np.ones(n_out)) for n_in, n_out in zip([1, 4, 4], [4, 4, 1])]
out = jax.tree_util.tree_map(lambda x: x.shape, params)
""")
C("tree_map_shape_tuple_is_node", "pytree", "out = jax.tree_util.tree_leaves(jax.tree_util.tree_map(lambda x: x.shape, [jnp.ones((2, 3))]))")
C("tree_flatten_with_path", "pytree", "pl, _ = jax.tree_util.tree_flatten_with_path({'a': [1, 2]})\nout = [(jax.tree_util.keystr(p), v) for p, v in pl]")

# ---------------------------------------------------------------- errors
E("err_tracer_bool_jit", "errors", """
@jax.jit
def f(x):
    if x > 0:
        return x
    return -x
out = f(1.0)
""")
E("err_tracer_bool_while", "errors", """
@jax.jit
def f(x):
    while x < 3:
        x = x + 1
    return x
out = f(1.0)
""")
E("err_tracer_bool_array", "errors", """
@jax.jit
def f(x):
    return 1 if x.sum() > 0 else 0
out = f(jnp.ones(3))
""")
E("err_concretization_float", "errors", "out = jax.jit(lambda x: float(x))(1.0)")
E("err_concretization_shape", "errors", "out = jax.jit(lambda x, n: jnp.zeros(n) + x)(1.0, 3)")
E("err_concretization_arange", "errors", "out = jax.jit(lambda n: jnp.arange(n))(3)")
E("err_tracer_integer_conversion", "errors", "out = jax.jit(lambda x, i: [1, 2, 3][i] * x)(1.0, 1)")
E("err_tracer_integer_conversion_range", "errors", "out = jax.jit(lambda n: sum(range(n)))(3)")
E("err_tracer_array_conversion", "errors", "out = jax.jit(lambda x: np.asarray(x))(jnp.ones(2))")
E("err_tracer_array_conversion_np_sin", "errors", "out = jax.jit(lambda x: np.sin(x))(jnp.ones(2))")
E("err_nonconcrete_boolean_index", "errors", "out = jax.jit(lambda x: x[x < 0])(jnp.arange(-2.0, 3.0))")
E("err_nonconcrete_boolean_index_vmap", "errors", "out = jax.vmap(lambda x: x[x > 0].sum())(jnp.ones((2, 3)))")
E("err_tracer_bool_grad", "errors", """
def f(x):
    return x if x.sum() > 0 else -x
out = jax.grad(lambda x: jnp.sum(jax.jit(f)(x)))(jnp.ones(2))
""")
E("err_item_assignment", "errors", "a = jnp.arange(5)\na[0] = 9\nout = a")
E("err_sum_list", "errors", "out = jnp.sum([1.0, 2.0])")
E("err_sum_tuple", "errors", "out = jnp.sum((1.0, 2.0))")
E("err_sin_list", "errors", "out = jnp.sin([1.0, 2.0])")
E("err_add_shape_mismatch", "errors", "out = jnp.ones(3) + jnp.ones(4)")
E("err_add_shape_mismatch_2d", "errors", "out = jnp.ones((2, 3)) + jnp.ones((3, 2))")
E("err_dot_shape_mismatch", "errors", "out = jnp.dot(jnp.ones((2, 3)), jnp.ones((2, 3)))")
E("err_matmul_shape_mismatch", "errors", "out = jnp.ones((2, 3)) @ jnp.ones(4)")
E("err_reshape_bad", "errors", "out = jnp.arange(6).reshape(4, 2)")
E("err_concat_mismatch", "errors", "out = jnp.concatenate([jnp.ones((2, 2)), jnp.ones((3, 3))])")
E("err_split_uneven", "errors", "out = jnp.split(jnp.arange(5), 2)")
E("err_index_too_many", "errors", "out = jnp.arange(3)[0, 1]")
E("err_float_index", "errors", "out = jnp.arange(3)[1.5]")
E("err_bool_of_multi_array", "errors", "out = bool(jnp.arange(3))")
E("err_squeeze_non_unit", "errors", "out = jnp.squeeze(jnp.ones((2, 3)), axis=0)")
E("err_broadcast_to_bad", "errors", "out = jnp.broadcast_to(jnp.ones(3), (2, 4))")
E("err_reduce_bad_axis", "errors", "out = jnp.sum(jnp.ones(3), axis=2)")
E("err_jit_non_hashable_static", "errors", "out = jax.jit(lambda x, d: x, static_argnums=1)(1.0, {'a': 1})")
E("err_grad_non_scalar_output", "errors", "out = jax.grad(lambda x: jnp.ones(2) * x)(1.0)")
E("err_grad_integer_input", "errors", "out = jax.grad(lambda x: x * 1.0)(1)")
E("err_grad_bad_argnums", "errors", "out = jax.grad(lambda x: x, argnums=2)(1.0)")
E("err_vmap_in_axes_out_of_range", "errors", "out = jax.vmap(jnp.sum, in_axes=2)(jnp.ones((2, 3)))")
E("err_vmap_no_batched_args", "errors", "out = jax.vmap(lambda x: x, in_axes=None)(jnp.ones(2))")
E("err_jnp_array_of_str", "errors", "out = jnp.array(['a'])")
E("err_astype_bad_name", "errors", "out = jnp.ones(2).astype('notadtype')")
E("err_tracer_leak_hashing", "errors", "out = jax.jit(lambda x: {x: 1})(1.0)", msg_prefix=16)
E("err_inplace_iadd_at", "errors", "a = jnp.arange(3)\na.at[0] += 1\nout = a", msg_prefix=37)
E("err_jnp_ndarray_setattr_shape", "errors", "a = jnp.arange(3)\na.shape = (3, 1)\nout = a", msg_prefix=20)
E("err_unhashable_array", "errors", "out = {jnp.arange(2): 1}", msg_prefix=16)
E("err_int_of_traced", "errors", "out = jax.jit(lambda x: int(x))(1)")
E("err_len_of_scalar", "errors", "out = len(jnp.array(1.0))")
E("err_iter_scalar", "errors", "out = list(jnp.array(1.0))")

C("err_classes_hierarchy", "errors", """
names = lambda c: [k.__name__ for k in c.__mro__ if k.__name__ not in ('object', 'BaseException', 'Exception')]
out = [names(jax.errors.TracerBoolConversionError), names(jax.errors.ConcretizationTypeError), names(jax.errors.TracerIntegerConversionError), names(jax.errors.TracerArrayConversionError), names(jax.errors.NonConcreteBooleanIndexError)]
""")

# ---------------------------------------------------------------- nn
NN = [
    ("relu", "jax.nn.relu(jnp.linspace(-2, 2, 5))"),
    ("relu_int", "jax.nn.relu(jnp.arange(-2, 3))"),
    ("relu6", "jax.nn.relu6(jnp.array([-1.0, 3.0, 7.0]))"),
    ("sigmoid", "jax.nn.sigmoid(jnp.linspace(-3, 3, 7))"),
    ("softmax", "jax.nn.softmax(jnp.arange(4.0))"),
    ("softmax_axis0", "jax.nn.softmax(jnp.arange(6.0).reshape(2, 3), axis=0)"),
    ("softmax_large", "jax.nn.softmax(jnp.array([1000.0, 1000.0, -1000.0]))"),
    ("log_softmax", "jax.nn.log_softmax(jnp.arange(4.0))"),
    ("logsumexp", "jax.nn.logsumexp(jnp.arange(4.0))"),
    ("logsumexp_axis", "jax.nn.logsumexp(jnp.arange(6.0).reshape(2, 3), axis=1)"),
    ("logsumexp_neg_inf", "jax.nn.logsumexp(jnp.array([-jnp.inf, -jnp.inf]))"),
    ("scipy_logsumexp", "jax.scipy.special.logsumexp(jnp.arange(3.0))"),
    ("gelu_approx", "jax.nn.gelu(jnp.linspace(-2, 2, 5))"),
    ("gelu_exact", "jax.nn.gelu(jnp.linspace(-2, 2, 5), approximate=False)"),
    ("silu", "jax.nn.silu(jnp.linspace(-2, 2, 5))"),
    ("swish", "jax.nn.swish(jnp.array([1.0]))"),
    ("tanh", "jax.nn.tanh(jnp.linspace(-2, 2, 5))"),
    ("softplus", "jax.nn.softplus(jnp.linspace(-2, 2, 5))"),
    ("elu", "jax.nn.elu(jnp.linspace(-2, 2, 5))"),
    ("leaky_relu", "jax.nn.leaky_relu(jnp.linspace(-2, 2, 5))"),
    ("selu", "jax.nn.selu(jnp.linspace(-2, 2, 5))"),
    ("log_sigmoid", "jax.nn.log_sigmoid(jnp.linspace(-2, 2, 5))"),
    ("one_hot", "jax.nn.one_hot(jnp.array([0, 2, 1]), 3)"),
    ("one_hot_oob", "jax.nn.one_hot(jnp.array([-1, 3, 1]), 3)"),
    ("one_hot_dtype", "jax.nn.one_hot(jnp.array([1]), 2, dtype=jnp.int32)"),
    ("standardize", "jax.nn.standardize(jnp.arange(4.0))"),
    ("sigmoid_grad", "jax.grad(jax.nn.sigmoid)(0.0)"),
    ("softmax_grad", "jax.grad(lambda x: jax.nn.softmax(x)[0])(jnp.arange(3.0))"),
    ("relu_python_scalar", "jax.nn.relu(-1.0)"),
    ("erf", "jax.scipy.special.erf(jnp.linspace(-1, 1, 5))"),
]
for _n, _e in NN:
    C(f"nn_{_n}", "nn", "out = " + _e)
C("nn_mlp_sin_steps", "nn", """
def init_mlp_params(layer_w):
    params = []
    for i, (n_in, n_out) in enumerate(zip(layer_w[:-1], layer_w[1:])):
        w = jnp.cos(jnp.arange(n_in * n_out, dtype=jnp.float32).reshape(n_in, n_out) + i) * np.sqrt(2 / n_in)
        params.append(dict(weights=w, biases=jnp.ones(n_out)))
    return params
def forward(params, x):
    *hidden, last = params
    for layer in hidden:
        x = jax.nn.relu(jnp.dot(x, layer['weights']) + layer['biases'])
    return jnp.dot(x, last['weights']) + last['biases']
def loss(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)
lr = 0.01
@jax.jit
def update(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
xs = jnp.linspace(-3, 3, 16).reshape(16, 1)
ys = jnp.sin(xs)
params = init_mlp_params([1, 8, 8, 1])
losses = []
for _ in range(5):
    losses.append(loss(params, xs, ys))
    params = update(params, xs, ys)
out = (jnp.stack(losses), jax.tree_util.tree_map(lambda x: x.shape, params), params[-1]['biases'])
""", rtol=1e-4, atol=1e-5)
