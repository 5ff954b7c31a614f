"""Case definitions for lax_random_cases.json (lax, random, pmap, config, seed tutorials)."""
from casebook import recorder

CASES, C, E = recorder()


# ---------------------------------------------------------------- lax control flow: values
COND = "lambda p, x: lax.cond(p, lambda v: v + 1.0, lambda v: v * 2.0, x)"
C("cond_true", "lax", f"out = ({COND})(True, 3.0)")
C("cond_false", "lax", f"out = ({COND})(False, 3.0)")
C("cond_array_pred", "lax", f"out = ({COND})(jnp.array(0), jnp.arange(3.0))")
C("cond_int_pred", "lax", f"out = ({COND})(2, 1.0)")
C("cond_jit", "lax", "out = jax.jit(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))(jnp.array(-1.0))")
C("cond_multiple_operands", "lax", "out = lax.cond(True, lambda a, b: a + b, lambda a, b: a - b, 1.0, 2.0)")
C("cond_pytree_operand", "lax", "out = lax.cond(False, lambda d: {'a': d['a'] * 2, 'b': d['b']}, lambda d: {'a': d['a'], 'b': d['b'] + 1}, {'a': jnp.ones(2), 'b': 1.0})")
C("cond_no_operands", "lax", "out = lax.cond(True, lambda: 1.0, lambda: 2.0)")
C("cond_grad", "lax", f"out = (jax.grad(lambda x: ({COND})(True, x))(3.0), jax.grad(lambda x: ({COND})(False, x))(3.0))")
C("cond_grad_pred_depends_on_x", "lax", "out = jax.grad(lambda x: lax.cond(x > 0, lambda v: v ** 2, lambda v: -v, x))(3.0)")
C("cond_jvp", "lax", "out = jax.jvp(lambda x: lax.cond(x < 0, jnp.sin, jnp.exp, x), (0.5,), (1.0,))")
C("cond_vmap_batched_pred", "lax", "out = jax.vmap(lambda x: lax.cond(x > 1, lambda v: v * 10, lambda v: -v, x))(jnp.arange(4.0))")
C("cond_vmap_unbatched_pred", "lax", "out = jax.vmap(lambda x: lax.cond(True, lambda v: v * 10, lambda v: -v, x))(jnp.arange(3.0))")
E("cond_branch_type_mismatch", "lax", "out = lax.cond(True, lambda x: x, lambda x: x.astype(jnp.int32), 1.0)", msg_prefix=40)
E("cond_branch_shape_mismatch", "lax", "out = lax.cond(True, lambda x: x, lambda x: x[:2], jnp.ones(3))", msg_prefix=40)
SWITCH = "lambda i, x: lax.switch(i, [lambda v: v + 1, lambda v: v * 2, lambda v: -v], x)"
C("switch_0", "lax", f"out = ({SWITCH})(0, 5.0)")
C("switch_2", "lax", f"out = ({SWITCH})(2, 5.0)")
C("switch_clamp_high", "lax", f"out = ({SWITCH})(7, 5.0)")
C("switch_clamp_low", "lax", f"out = ({SWITCH})(-3, 5.0)")
C("switch_jit", "lax", f"out = jax.jit({SWITCH})(1, jnp.arange(3.0))")
C("switch_vmap", "lax", f"out = jax.vmap({SWITCH})(jnp.array([0, 1, 2, 3]), jnp.arange(4.0))")
C("switch_grad", "lax", f"out = jax.grad(lambda x: ({SWITCH})(1, x))(3.0)")
C("select", "lax", "out = lax.select(jnp.array([True, False, True]), jnp.arange(3.0), -jnp.arange(3.0))")
C("select_scalar_pred", "lax", "out = lax.select(True, jnp.ones(2), jnp.zeros(2))")
E("select_dtype_mismatch", "lax", "out = lax.select(jnp.array([True]), jnp.ones(1), jnp.ones(1, dtype=jnp.int32))")
C("select_n", "lax", "out = lax.select_n(jnp.array([0, 1, 2]), jnp.zeros(3), jnp.ones(3), jnp.full(3, 2.0))")
C("while_loop_basic", "lax", "out = lax.while_loop(lambda x: x < 10, lambda x: x * 2, 1)")
C("while_loop_float", "lax", "out = lax.while_loop(lambda x: x < 10.0, lambda x: x + 3.0, 0.0)")
C("while_loop_tuple_carry", "lax", "out = lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 2.0), (0, 1.0))")
C("while_loop_jit", "lax", "out = jax.jit(lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + c[0]), (0, 0)))(5)")
C("while_loop_vmap", "lax", "out = jax.vmap(lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + 2.0), (0, 0.0)))(jnp.array([1, 3, 0]))")
C("while_loop_jvp", "lax", "out = jax.jvp(lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, x), (1.5,), (1.0,))")
E("while_loop_grad_error", "lax", "out = jax.grad(lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, x))(1.0)")
C("while_loop_weak_int_carry_to_float", "lax", "out = lax.while_loop(lambda x: x < 10, lambda x: x * 2.0, 1)")
C("fori_loop_sum", "lax", "out = lax.fori_loop(0, 5, lambda i, acc: acc + i, 0)")
C("fori_loop_float", "lax", "out = lax.fori_loop(1, 4, lambda i, x: x * i, 1.0)")
C("fori_loop_array", "lax", "out = lax.fori_loop(0, 3, lambda i, x: x.at[i].set(i * 10.0), jnp.zeros(4))")
C("fori_loop_grad", "lax", "out = jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, v: v * x, 1.0))(2.0)")
C("fori_loop_traced_bound", "lax", "out = jax.jit(lambda n: lax.fori_loop(0, n, lambda i, acc: acc + i, 0))(6)")
C("fori_loop_grad_static_bound", "lax", "out = jax.grad(lambda x, n: lax.fori_loop(0, n, lambda i, v: v * x, 1.0))(2.0, 3)")
C("fori_loop_vmap", "lax", "out = jax.vmap(lambda x: lax.fori_loop(0, 3, lambda i, v: v + x, 0.0))(jnp.arange(3.0))")
C("scan_cumsum", "lax", "out = lax.scan(lambda c, x: (c + x, c + x), 0.0, jnp.arange(5.0))")
C("scan_reverse", "lax", "out = lax.scan(lambda c, x: (c + x, c + x), 0.0, jnp.arange(5.0), reverse=True)")
C("scan_length_no_xs", "lax", "out = lax.scan(lambda c, _: (c * 2, c), 1, None, length=4)")
C("scan_pytree_carry", "lax", "out = lax.scan(lambda c, x: ((c[0] + x, c[1] * x), c[0]), (0.0, 1.0), jnp.arange(1.0, 4.0))")
C("scan_none_ys", "lax", "out = lax.scan(lambda c, x: (c + x, None), 0, jnp.arange(4))")
C("scan_2d_xs", "lax", "out = lax.scan(lambda c, row: (c + row, jnp.sum(row)), jnp.zeros(3), jnp.arange(6.0).reshape(2, 3))")
C("scan_pytree_xs", "lax", "out = lax.scan(lambda c, x: (c + x['a'] * x['b'], c), 0.0, {'a': jnp.arange(3.0), 'b': jnp.ones(3)})")
C("scan_grad", "lax", "out = jax.grad(lambda w: lax.scan(lambda c, x: (c * w + x, None), 0.0, jnp.arange(3.0))[0])(2.0)")
C("scan_grad_reverse", "lax", "out = jax.grad(lambda xs: jnp.sum(lax.scan(lambda c, x: (c + x, c * x), 1.0, xs, reverse=True)[1]))(jnp.arange(3.0))")
C("scan_jvp", "lax", "out = jax.jvp(lambda x: lax.scan(lambda c, y: (c * x, c), 1.0, None, length=3), (2.0,), (1.0,))")
C("scan_vmap", "lax", "out = jax.vmap(lambda xs: lax.scan(lambda c, x: (c + x, c), 0.0, xs))(jnp.arange(6.0).reshape(2, 3))")
C("scan_jit", "lax", "out = jax.jit(lambda xs: lax.scan(lambda c, x: (jnp.maximum(c, x), c), -jnp.inf, xs))(jnp.array([1.0, 3.0, 2.0]))")
C("scan_weak_int_carry_to_float", "lax", "out = lax.scan(lambda c, x: (c + 1.0, x), 0, jnp.arange(3))")
E("scan_carry_shape_mismatch", "lax", "out = lax.scan(lambda c, x: (jnp.stack([c, c]), x), 0.0, jnp.arange(3.0))", msg_prefix=60)
E("while_loop_carry_dtype_mismatch", "lax", "out = lax.while_loop(lambda x: x < 10, lambda x: x * 2.0, jnp.int32(1))", msg_prefix=60)
C("map_basic", "lax", "out = lax.map(lambda x: x ** 2, jnp.arange(4.0))")
C("map_pytree", "lax", "out = lax.map(lambda p: p[0] + p[1], (jnp.arange(3.0), jnp.ones(3)))")
C("map_batch_size", "lax", "out = lax.map(lambda x: jnp.sum(x), jnp.arange(12.0).reshape(4, 3), batch_size=2)")
C("associative_scan", "lax", "out = lax.associative_scan(jnp.add, jnp.arange(5.0))")

# ---------------------------------------------------------------- lax primitives
C("dot_general_matmul", "lax", "out = lax.dot_general(jnp.arange(6.0).reshape(2, 3), jnp.ones((3, 2)), (((1,), (0,)), ((), ())))")
C("dot_general_batch", "lax", "out = lax.dot_general(jnp.ones((2, 2, 3)), jnp.arange(12.0).reshape(2, 3, 2), (((2,), (1,)), ((0,), (0,))))")
C("dot_general_contract0", "lax", "out = lax.dot_general(jnp.arange(6.0).reshape(3, 2), jnp.arange(3.0), (((0,), (0,)), ((), ())))")
C("dot_general_pref_type", "lax", "out = lax.dot_general(jnp.arange(3, dtype=jnp.int8), jnp.arange(3, dtype=jnp.int8), (((0,), (0,)), ((), ())), preferred_element_type=jnp.int32)")
C("lax_dot", "lax", "out = lax.dot(jnp.ones((2, 3)), jnp.arange(3.0))")
C("broadcast_in_dim", "lax", "out = lax.broadcast_in_dim(jnp.arange(3.0), (2, 3), (1,))")
C("broadcast_in_dim_col", "lax", "out = lax.broadcast_in_dim(jnp.arange(2.0), (2, 3), (0,))")
C("lax_broadcast", "lax", "out = lax.broadcast(jnp.arange(2), (3,))")
C("dynamic_slice", "lax", "out = lax.dynamic_slice(jnp.arange(10), (2,), (3,))")
C("dynamic_slice_clamp", "lax", "out = lax.dynamic_slice(jnp.arange(10), (8,), (4,))")
C("dynamic_slice_2d", "lax", "out = lax.dynamic_slice(jnp.arange(16.0).reshape(4, 4), (1, 2), (2, 2))")
C("dynamic_slice_jit_traced_index", "lax", "out = jax.jit(lambda x, i: lax.dynamic_slice(x, (i,), (2,)))(jnp.arange(5.0), 3)")
C("dynamic_slice_in_dim", "lax", "out = lax.dynamic_slice_in_dim(jnp.arange(6.0).reshape(3, 2), 1, 2, axis=0)")
C("dynamic_update_slice", "lax", "out = lax.dynamic_update_slice(jnp.zeros(5), jnp.ones(2), (1,))")
C("dynamic_update_slice_clamp", "lax", "out = lax.dynamic_update_slice(jnp.zeros(5), jnp.ones(2), (4,))")
C("dynamic_update_slice_2d", "lax", "out = lax.dynamic_update_slice(jnp.zeros((3, 3)), jnp.ones((2, 1)), (1, 1))")
C("dynamic_slice_grad", "lax", "out = jax.grad(lambda x: jnp.sum(lax.dynamic_slice(x, (1,), (2,)) ** 2))(jnp.arange(4.0))")
C("lax_slice", "lax", "out = lax.slice(jnp.arange(10), (1,), (8,), (3,))")
C("reduce_add", "lax", "out = lax.reduce(jnp.arange(6.0).reshape(2, 3), 0.0, lax.add, (0,))")
C("reduce_max", "lax", "out = lax.reduce(jnp.arange(6).reshape(2, 3), -100, lax.max, (1,))")
C("reduce_sum_op", "lax", "out = lax.reduce_sum(jnp.arange(6.0).reshape(2, 3), axes=(1,))")
C("iota", "lax", "out = lax.iota(jnp.int32, 5)")
C("iota_float", "lax", "out = lax.iota(jnp.float32, 3)")
C("broadcasted_iota", "lax", "out = lax.broadcasted_iota(jnp.int32, (2, 3), 1)")
C("stop_gradient_value", "lax", "out = lax.stop_gradient(jnp.arange(3.0))")
C("stop_gradient_grad", "lax", "out = jax.grad(lambda x: jnp.sum(x ** 2 + lax.stop_gradient(x ** 3)))(jnp.arange(3.0))")
C("lax_add_mul", "lax", "out = (lax.add(1.0, 2.0), lax.mul(jnp.arange(3), 2), lax.sub(jnp.ones(2), 1.0))")
E("lax_add_dtype_mismatch", "lax", "out = lax.add(jnp.float32(1), jnp.int32(1))")
C("lax_add_python_scalars", "lax", "out = lax.add(1, 1)")
C("lax_div_int", "lax", "out = lax.div(jnp.array([-7, 7]), jnp.array([2, 2]))")
C("lax_rem", "lax", "out = lax.rem(jnp.array([-7.0, 7.0]), 2.0)")
C("lax_integer_pow", "lax", "out = lax.integer_pow(jnp.arange(4.0), 3)")
C("lax_convert_element_type", "lax", "out = lax.convert_element_type(jnp.array([1.9, -1.9]), jnp.int32)")
C("lax_bitcast", "lax", "out = lax.bitcast_convert_type(jnp.float32(1.0), jnp.uint32)")
C("lax_shift_right_logical", "lax", "out = lax.shift_right_logical(jnp.array([0xFFFFFFFF], dtype=jnp.uint32), jnp.uint32(9))")
C("lax_exp_log_tanh", "lax", "out = (lax.exp(1.0), lax.log(2.0), lax.tanh(0.5), lax.logistic(0.0))")
C("lax_erf_inv", "lax", "out = lax.erf_inv(jnp.array([-0.9, -0.5, 0.0, 0.5, 0.99]))", rtol=1e-5, atol=1e-6)
C("lax_nextafter", "lax", "out = lax.nextafter(jnp.float32(-1.0), jnp.float32(0.0))")
C("lax_clamp", "lax", "out = lax.clamp(0.0, jnp.linspace(-1, 2, 4), 1.0)")
C("lax_concatenate", "lax", "out = lax.concatenate([jnp.ones(2), jnp.zeros(3)], 0)")
C("lax_pad", "lax", "out = lax.pad(jnp.arange(3.0), 0.0, [(1, 2, 1)])")
C("lax_reshape_squeeze_expand", "lax", "out = (lax.reshape(jnp.arange(6), (3, 2)), lax.squeeze(jnp.ones((1, 2)), (0,)).shape, lax.expand_dims(jnp.ones(2), (0,)).shape)")
C("lax_transpose", "lax", "out = lax.transpose(jnp.arange(6).reshape(2, 3), (1, 0))")
C("lax_rev", "lax", "out = lax.rev(jnp.arange(4), (0,))")
C("lax_cumsum", "lax", "out = (lax.cumsum(jnp.arange(4)), lax.cumsum(jnp.arange(4.0), reverse=True))")
C("lax_argmax", "lax", "out = lax.argmax(jnp.array([1.0, 3.0, 2.0]), 0, jnp.int32)")
C("lax_sort", "lax", "out = lax.sort(jnp.array([3, 1, 2]))")
C("lax_top_k", "lax", "out = lax.top_k(jnp.array([1.0, 5.0, 3.0, 4.0]), 2)")
C("lax_reduce_window", "lax", "out = lax.reduce_window(jnp.arange(6.0), 0.0, lax.add, (2,), (1,), 'VALID')")
C("lax_conv", "lax", "out = lax.conv(jnp.arange(8.0).reshape(1, 1, 8), jnp.array([[[1.0, 0.0, -1.0]]]), (1,), 'VALID')")

# ---------------------------------------------------------------- lax jaxpr text
LJ = [
    ("cond", "lambda p, x: lax.cond(p, lambda v: v + 1.0, lambda v: v * 2.0, x)", "True, 1.0"),
    ("cond_gt", "lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x)", "1.0"),
    ("switch", "lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x)", "1, 1.0"),
    ("while_loop", "lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, x)", "1.0"),
    ("fori_loop_concrete", "lambda x: lax.fori_loop(0, 3, lambda i, v: v + i, x)", "1.0"),
    ("fori_loop_traced", "lambda n: lax.fori_loop(0, n, lambda i, v: v + i, 0)", "3"),
    ("scan", "lambda xs: lax.scan(lambda c, x: (c + x, c * x), 0.0, xs)", "jnp.ones(3)"),
    ("scan_reverse", "lambda xs: lax.scan(lambda c, x: (c + x, None), 0.0, xs, reverse=True)", "jnp.ones(3)"),
    ("map", "lambda xs: lax.map(jnp.sin, xs)", "jnp.ones(3)"),
    ("select", "lambda p, x, y: lax.select(p, x, y)", "jnp.array([True]), jnp.ones(1), jnp.zeros(1)"),
    ("dot_general", "lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((), ())))", "jnp.ones((2, 3)), jnp.ones((3, 2))"),
    ("broadcast_in_dim", "lambda x: lax.broadcast_in_dim(x, (2, 3), (1,))", "jnp.ones(3)"),
    ("dynamic_slice", "lambda x, i: lax.dynamic_slice(x, (i,), (2,))", "jnp.ones(5), 1"),
    ("dynamic_update_slice", "lambda x, u: lax.dynamic_update_slice(x, u, (1,))", "jnp.ones(5), jnp.zeros(2)"),
    ("iota", "lambda: lax.iota(jnp.int32, 4)", ""),
    ("stop_gradient", "lambda x: lax.stop_gradient(x) * x", "1.0"),
    ("cond_grad", "jax.grad(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))", "1.0"),
    ("scan_grad", "jax.grad(lambda w: lax.scan(lambda c, x: (c * w + x, None), 0.0, jnp.ones(2))[0])", "1.0"),
    ("cond_vmap", "jax.vmap(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))", "jnp.ones(2)"),
    ("while_vmap", "jax.vmap(lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, x))", "jnp.ones(2)"),
]
for _n, _f, _a in LJ:
    C(f"jaxpr_lax_{_n}", "jaxpr", f"out = str(jax.make_jaxpr({_f})({_a}))")

# ---------------------------------------------------------------- random (both threefry modes)
RAND = [
    ("prngkey_0", "random.PRNGKey(0)"),
    ("prngkey_42", "random.PRNGKey(42)"),
    ("prngkey_big", "random.PRNGKey(2**40 + 5)"),
    ("prngkey_negative", "random.PRNGKey(-1)"),
    ("split", "random.split(random.PRNGKey(0))"),
    ("split_3", "random.split(random.PRNGKey(0), 3)"),
    ("split_num_kw", "random.split(random.PRNGKey(1), num=4)"),
    ("split_shape", "random.split(random.PRNGKey(0), (2, 2))"),
    ("split_of_split", "random.split(random.split(random.PRNGKey(0))[1])"),
    ("fold_in", "random.fold_in(random.PRNGKey(0), 7)"),
    ("fold_in_chain", "random.fold_in(random.fold_in(random.PRNGKey(3), 1), 2)"),
    ("bits", "random.bits(random.PRNGKey(0), (4,))"),
    ("bits_odd", "random.bits(random.PRNGKey(0), (3,))"),
    ("bits_2d", "random.bits(random.PRNGKey(5), (2, 3))"),
    ("bits_u8", "random.bits(random.PRNGKey(0), (4,), dtype=jnp.uint8)"),
    ("uniform_scalar", "random.uniform(random.PRNGKey(0))"),
    ("uniform_shape", "random.uniform(random.PRNGKey(0), (5,))"),
    ("uniform_minmax", "random.uniform(random.PRNGKey(1), (2, 2), minval=-2.0, maxval=3.0)"),
    ("uniform_f16", "random.uniform(random.PRNGKey(0), (3,), dtype=jnp.float16)"),
    ("normal_scalar", "random.normal(random.PRNGKey(0))"),
    ("normal_3", "random.normal(random.PRNGKey(0), (3,))"),
    ("normal_10", "random.normal(random.PRNGKey(0), (10,))"),
    ("normal_2x3", "random.normal(random.PRNGKey(1), (2, 3))"),
    ("normal_shape_kw", "random.normal(random.PRNGKey(0), shape=(1,))"),
    ("randint", "random.randint(random.PRNGKey(0), (6,), 0, 10)"),
    ("randint_neg", "random.randint(random.PRNGKey(2), (4,), -5, 5)"),
    ("bernoulli", "random.bernoulli(random.PRNGKey(0), 0.3, (8,))"),
    ("bernoulli_array_p", "random.bernoulli(random.PRNGKey(0), jnp.array([0.0, 0.5, 1.0]))"),
    ("permutation_int", "random.permutation(random.PRNGKey(0), 6)"),
    ("permutation_array", "random.permutation(random.PRNGKey(0), jnp.arange(5.0) * 10)"),
    ("shuffle_2d_axis", "random.permutation(random.PRNGKey(0), jnp.arange(6).reshape(3, 2), axis=0)"),
    ("choice", "random.choice(random.PRNGKey(0), 5, (3,))"),
    ("choice_no_replace", "random.choice(random.PRNGKey(0), jnp.arange(10), (4,), replace=False)"),
    ("choice_p", "random.choice(random.PRNGKey(0), 3, (5,), p=jnp.array([0.1, 0.2, 0.7]))"),
    ("categorical", "random.categorical(random.PRNGKey(0), jnp.log(jnp.array([0.2, 0.3, 0.5])), shape=(6,))"),
    ("categorical_batch", "random.categorical(random.PRNGKey(1), jnp.zeros((3, 4)))"),
    ("truncated_normal", "random.truncated_normal(random.PRNGKey(0), -1.0, 1.0, (4,))"),
    ("gumbel", "random.gumbel(random.PRNGKey(0), (4,))"),
    ("exponential", "random.exponential(random.PRNGKey(0), (3,))"),
    ("laplace", "random.laplace(random.PRNGKey(0), (3,))"),
    ("key_typed_data", "random.key_data(random.key(0))"),
    ("key_typed_split", "random.key_data(random.split(random.key(0)))"),
    ("key_typed_normal", "random.normal(random.key(0), (3,))"),
    ("normal_jit", "jax.jit(lambda k: random.normal(k, (3,)))(random.PRNGKey(0))"),
    ("normal_vmap_keys", "jax.vmap(lambda k: random.normal(k))(random.split(random.PRNGKey(0), 3))"),
    ("uniform_vmap_keys", "jax.vmap(lambda k: random.uniform(k, (2,)))(random.split(random.PRNGKey(7), 2))"),
    ("split_in_jit", "jax.jit(random.split)(random.PRNGKey(0))"),
    # gamma and the samplers built on it (Marsaglia-Tsang rejection, as JAX)
    ("gamma", "random.gamma(random.PRNGKey(0), 2.0, (5,))"),
    ("gamma_array_a", "random.gamma(random.key(7), jnp.array([[0.2, 5.0], [1.5, 9.0]]))"),
    ("gamma_vmap_jit", "jax.jit(jax.vmap(lambda k: random.gamma(k, 0.7, (2,))))(random.split(random.PRNGKey(1), 3))"),
    ("loggamma", "random.loggamma(random.PRNGKey(0), 0.1, (3,))"),
    ("beta", "random.beta(random.PRNGKey(0), 2.0, jnp.array([0.5, 3.0, 8.0]))"),
    ("dirichlet", "random.dirichlet(random.PRNGKey(0), jnp.array([[1.0, 2.0, 0.3], [5.0, 5.0, 5.0]]))"),
    ("chisquare_t", "(random.chisquare(random.PRNGKey(0), 3.0, (3,)), random.t(random.PRNGKey(0), 4.0, (3,)))"),
    ("poisson", "(random.poisson(random.PRNGKey(0), 3.0, (6,)), random.poisson(random.PRNGKey(0), "
     "jnp.array([0.0, 0.5, 4.0, 12.0, 100.0, 1e4])), random.poisson(random.key(5), 25.0, (2, 3)))"),
    ("f_geometric_wald", "(random.f(random.PRNGKey(0), 3.0, 5.0, (3,)), random.geometric(random.PRNGKey(0), 0.3, (4,)), "
     "random.geometric(random.PRNGKey(0), jnp.array([0.1, 0.9])), random.wald(random.PRNGKey(0), 2.0, (3,)))"),
    ("maxwell_gnormal_ball", "(random.double_sided_maxwell(random.PRNGKey(0), 1.0, 2.0, (3,)), "
     "random.generalized_normal(random.PRNGKey(0), 1.5, (3,)), random.ball(random.PRNGKey(0), 3, 2, (2,)), "
     "random.ball(random.PRNGKey(0), 2, p=1.0))"),
    ("orthogonal", "(random.orthogonal(random.PRNGKey(0), 3), random.orthogonal(random.PRNGKey(0), 2, m=3), "
     "random.orthogonal(random.PRNGKey(0), 2, (2,)))"),
    ("binomial", "(random.binomial(random.PRNGKey(0), 10, 0.3, (5,)), random.binomial(random.PRNGKey(0), "
     "jnp.array([5.0, 100.0, 1000.0, 0.0]), jnp.array([0.5, 0.3, 0.9, 0.2])), random.binomial(random.PRNGKey(0), 20.0, 0.8, (3,)), "
     "random.binomial(random.PRNGKey(0), jnp.array([-1.0, jnp.inf, 5.0]), jnp.array([0.5, 0.5, jnp.nan])))"),
    ("multinomial", "(random.multinomial(random.PRNGKey(0), 20.0, jnp.array([0.2, 0.5, 0.3])), "
     "random.multinomial(random.PRNGKey(0), jnp.array([10.0, 50.0]), jnp.array([[0.1, 0.9], [0.5, 0.5]])))"),
    ("multivariate_normal", "tuple(random.multivariate_normal(random.PRNGKey(0), jnp.array([1.0, -1.0]), "
     "jnp.array([[2.0, 0.3], [0.3, 1.0]]), (3,), method=m) for m in ('cholesky', 'eigh', 'svd'))"),
]
for _mode in (True, False):
    _sfx = "" if _mode else "_nonpart"
    _pre = "" if _mode else "jax.config.update('jax_threefry_partitionable', False)\n"
    for _n, _e in RAND:
        C(f"random_{_n}{_sfx}", "random", _pre + "out = " + _e, rtol=2e-5, atol=2e-6)

C("jaxpr_random_gamma", "jaxpr", "out = str(jax.make_jaxpr(lambda k: random.gamma(k, 2.0, (3,)))(random.PRNGKey(0)))")
C("random_gamma_moments", "random", "x = random.gamma(random.PRNGKey(3), 2.5, (20000,))\nout = (x.mean(), x.var())",
  rtol=1e-4, atol=1e-4)
C("jaxpr_random_poisson", "jaxpr", "out = str(jax.make_jaxpr(lambda k: random.poisson(k, 3.0, (2,)))(random.PRNGKey(0)))")
C("random_poisson_moments", "random", "x = random.poisson(random.PRNGKey(0), 7.5, (20000,))\nout = (x.mean(), x.var())",
  rtol=1e-4, atol=1e-4)
C("lax_lgamma_poles", "lax", "out = lax.lgamma(jnp.array([0.0, -1.0, -2.5, 1.0, 10.0]))", rtol=1e-5, atol=1e-6)
C("random_gamma_bad_dtype", "errors", "out = random.gamma(random.PRNGKey(0), 2.0, (2,), dtype=jnp.int32)", raises=True)
C("random_key_typed_repr", "random", "k = random.key(0)\nout = (str(k.dtype), k.shape, str(random.key_impl(k)))")
C("random_key_typed_shape", "random", "out = random.split(random.key(0), 4).shape")
C("random_wrap_key_data", "random", "k = random.wrap_key_data(jnp.array([0, 42], dtype=jnp.uint32))\nout = (str(k.dtype), random.key_data(k), random.uniform(k, (2,)))")
C("random_prngkey_dtype", "random", "k = random.PRNGKey(0)\nout = (k.shape, str(k.dtype))")
C("random_same_key_same_value", "random", "key = random.PRNGKey(0)\nout = [random.normal(key, shape=(1,)) for _ in range(3)]")
C("random_split_printouts_seed", "random", """
jax.config.update('jax_threefry_partitionable', False)
key = random.PRNGKey(0)
rows = []
for i in range(3):
    key, subkey = random.split(key)
    rows.append((key, random.normal(key, shape=(1,)), subkey, random.normal(subkey, shape=(1,))))
key, *subkeys = random.split(key, 4)
out = (rows, key, subkeys)
""")
C("random_split_printouts_current", "random", """
key = random.PRNGKey(0)
rows = []
for i in range(3):
    key, subkey = random.split(key)
    rows.append((key, random.normal(key, shape=(1,)), subkey, random.normal(subkey, shape=(1,))))
key, *subkeys = random.split(key, 4)
out = (rows, key, subkeys)
""")
C("random_tutorial_normal_1", "random", "jax.config.update('jax_threefry_partitionable', False)\nout = random.normal(random.PRNGKey(0), shape=(1,))")
C("random_config_value", "random", "out = (jax.config.jax_threefry_partitionable, jax.config.jax_enable_x64)")
C("random_ravel_vs_split", "random", "k = random.PRNGKey(0)\nout = (random.uniform(k, (2, 2)), random.uniform(k, (4,)))")
E("random_bad_key", "random", "out = random.normal(jnp.array([1.0, 2.0]), (2,))")
E("random_randint_float_shape", "random", "out = random.split(random.PRNGKey(0), 2.5)")
for _n, _f, _a in [
    ("normal", "lambda k: random.normal(k, (2,))", "random.PRNGKey(0)"),
    ("uniform", "lambda k: random.uniform(k)", "random.PRNGKey(0)"),
    ("split", "random.split", "random.PRNGKey(0)"),
    ("bits", "lambda k: random.bits(k, (2,))", "random.PRNGKey(0)"),
    ("prngkey", "random.PRNGKey", "0"),
]:
    C(f"jaxpr_random_{_n}", "jaxpr", f"out = str(jax.make_jaxpr({_f})({_a}))")
    C(f"jaxpr_random_{_n}_nonpart", "jaxpr", f"jax.config.update('jax_threefry_partitionable', False)\nout = str(jax.make_jaxpr({_f})({_a}))")

# ---------------------------------------------------------------- pmap (1 CPU device)
C("pmap_device_count", "pmap", "out = (jax.device_count(), jax.local_device_count(), len(jax.devices()))")
C("pmap_basic", "pmap", "out = jax.pmap(lambda x: x * 2)(jnp.arange(3.0).reshape(1, 3))")
C("pmap_psum", "pmap", "out = jax.pmap(lambda x: lax.psum(x, 'i'), axis_name='i')(jnp.arange(3.0).reshape(1, 3))")
C("pmap_pmean", "pmap", "out = jax.pmap(lambda x: lax.pmean(x, 'i'), axis_name='i')(jnp.ones((1, 2)))")
C("pmap_all_gather", "pmap", "out = jax.pmap(lambda x: lax.all_gather(x, 'i'), axis_name='i')(jnp.arange(2.0).reshape(1, 2))")
C("pmap_axis_index", "pmap", "out = jax.pmap(lambda x: lax.axis_index('i') + x, axis_name='i')(jnp.zeros(1, dtype=jnp.int32))")
C("pmap_in_axes_none", "pmap", "out = jax.pmap(lambda x, c: x + c, in_axes=(0, None))(jnp.ones((1, 2)), 3.0)")
C("pmap_pytree", "pmap", "out = jax.pmap(lambda d: {'s': d['a'] + d['b']})({'a': jnp.ones((1, 2)), 'b': jnp.ones((1, 2))})")
E("pmap_too_many_devices", "pmap", "out = jax.pmap(lambda x: x)(jnp.ones((2, 3)))", msg_prefix=0)
C("vmap_psum_axis_name", "pmap", "out = jax.vmap(lambda x: lax.psum(x, 'b'), axis_name='b')(jnp.arange(4.0))")
C("vmap_pmean_axis_name", "pmap", "out = jax.vmap(lambda x: x - lax.pmean(x, 'b'), axis_name='b')(jnp.arange(4.0))")
C("vmap_all_gather", "pmap", "out = jax.vmap(lambda x: lax.all_gather(x, 'b'), axis_name='b')(jnp.arange(3.0))")
C("vmap_axis_index", "pmap", "out = jax.vmap(lambda x: x * lax.axis_index('b'), axis_name='b')(jnp.ones(4))")
C("vmap_pmax", "pmap", "out = jax.vmap(lambda x: lax.pmax(x, 'b'), axis_name='b')(jnp.array([1.0, 5.0, 2.0]))")
C("vmap_psum_nested_names", "pmap", "out = jax.vmap(jax.vmap(lambda x: lax.psum(x, 'inner'), axis_name='inner'), axis_name='outer')(jnp.arange(6.0).reshape(2, 3))")
C("vmap_psum_outer_name", "pmap", "out = jax.vmap(jax.vmap(lambda x: lax.psum(x, 'outer'), axis_name='inner'), axis_name='outer')(jnp.arange(6.0).reshape(2, 3))")
E("psum_unbound_axis", "pmap", "out = jax.vmap(lambda x: lax.psum(x, 'nope'), axis_name='b')(jnp.ones(2))")
C("pmap_seed_linear_regression", "pmap", """
class Params(NamedTuple):
    weight: object
    bias: object
def init(rng):
    weights_key, bias_key = jax.random.split(rng)
    return Params(jax.random.normal(weights_key, ()), jax.random.normal(bias_key, ()))
def loss_fn(params, xs, ys):
    pred = params.weight * xs + params.bias
    return jnp.mean((pred - ys) ** 2)
LEARNING_RATE = 0.005
@partial(jax.pmap, axis_name='num_devices')
def update(params, xs, ys):
    loss, grads = jax.value_and_grad(loss_fn)(params, xs, ys)
    grads = jax.lax.pmean(grads, axis_name='num_devices')
    loss = jax.lax.pmean(loss, axis_name='num_devices')
    new_params = jax.tree_util.tree_map(lambda param, g: param - g * LEARNING_RATE, params, grads)
    return new_params, loss
xs = jnp.linspace(-2, 2, 16).reshape(16, 1)
ys = xs * 2 - 1 + 0.1 * jnp.sin(7 * xs)
params = init(jax.random.PRNGKey(123))
n_devices = jax.local_device_count()
replicated_params = jax.tree_util.tree_map(lambda x: jnp.array([x] * n_devices), params)
def split(arr):
    return arr.reshape(n_devices, arr.shape[0] // n_devices, *arr.shape[1:])
losses = []
for i in range(20):
    replicated_params, loss = update(replicated_params, split(xs), split(ys))
    losses.append(loss[0])
params = jax.device_get(jax.tree_util.tree_map(lambda x: x[0], replicated_params))
out = (params, jnp.stack(losses))
""", rtol=1e-4, atol=1e-5)

# ---------------------------------------------------------------- config / x64
X64 = "jax.config.update('jax_enable_x64', True)\n"
C("x64_arange_int", "config", X64 + "out = jnp.arange(3)")
C("x64_array_float", "config", X64 + "out = jnp.array([1.0, 2.0])")
C("x64_zeros", "config", X64 + "out = jnp.zeros(2)")
C("x64_float32_explicit", "config", X64 + "out = jnp.ones(2, dtype=jnp.float32) + 1.0")
C("x64_f32_plus_f64", "config", X64 + "out = jnp.ones(2, dtype=jnp.float32) + jnp.ones(2)")
C("x64_weak_scalar", "config", X64 + "out = jnp.array(1.5)")
C("x64_numpy_f64_kept", "config", X64 + "out = jnp.asarray(np.array([0.1]))")
C("x64_linspace", "config", X64 + "out = jnp.linspace(0, 1, 3)")
C("x64_sum_int32", "config", X64 + "out = jnp.sum(jnp.arange(3, dtype=jnp.int32))")
C("x64_mean_int", "config", X64 + "out = jnp.mean(jnp.arange(4))")
C("x64_precision", "config", X64 + "out = jnp.array(1.0) + 1e-12")
C("x64_grad", "config", X64 + "out = jax.grad(lambda x: x ** 2)(jnp.float64(3.0))")
C("x64_jaxpr", "config", X64 + "out = str(jax.make_jaxpr(lambda x: x * 2 + 1)(jnp.arange(3.0)))")
C("x64_random_uniform", "config", X64 + "out = random.uniform(random.PRNGKey(0), (3,))")
C("x64_random_normal", "config", X64 + "out = random.normal(random.PRNGKey(0), (3,))", rtol=1e-6, atol=1e-7)
C("x64_random_randint", "config", X64 + "out = random.randint(random.PRNGKey(0), (3,), 0, 100)")
C("x64_prngkey_dtype", "config", X64 + "out = random.PRNGKey(0)")
C("x64_promote_types", "config", X64 + "out = str(jnp.promote_types(jnp.int64, jnp.float32))")
C("x64_int_plus_float", "config", X64 + "out = jnp.arange(3) + 0.5")
C("x64_uint32_plus_int", "config", X64 + "out = jnp.array([1], dtype=jnp.uint32) + jnp.array([1], dtype=jnp.int32)")
C("x64_reset_check", "config", "out = jnp.arange(3.0)")
C("config_read_flags", "config", "out = (jax.config.jax_enable_x64, jax.config.read('jax_enable_x64'))")
C("f64_no_x64_warn_array", "config", "out = jnp.array([0.1], dtype=jnp.float64)", expect_warning=True)
C("f64_no_x64_warn_zeros", "config", "out = jnp.zeros(2, dtype='float64')", expect_warning=True)
C("f64_no_x64_warn_astype", "config", "out = jnp.arange(2).astype(jnp.float64)", expect_warning=True)
C("f64_no_x64_numpy_input_silent", "config", "out = jnp.array(np.float64(0.1))")
C("f64_no_x64_float64_ctor", "config", "out = jnp.float64(1.0)")
C("f64_no_x64_dtype_obj", "config", "out = (str(jnp.dtype(jnp.float64)), jnp.dtype(jnp.float64).itemsize)")

# ---------------------------------------------------------------- seed tutorial paths
C("seed_linear_regression_pytrees", "seeds", """
def predict(W, b, x):
    return jnp.dot(x, W) + b
def mse(W, b, x_batched, y_batched):
    def squared_error(x, y):
        y_pred = predict(W, b, x)
        return jnp.inner(y - y_pred, y - y_pred) / 2.0
    return jnp.mean(jax.vmap(squared_error)(x_batched, y_batched), axis=0)
n_samples, x_dim, y_dim = 20, 10, 5
key = random.PRNGKey(0)
k1, k2 = random.split(key)
W = random.normal(k1, (x_dim, y_dim))
b = random.normal(k2, (y_dim,))
key_sample, key_noise = random.split(k1)
x_samples = random.normal(key_sample, (n_samples, x_dim))
y_samples = predict(W, b, x_samples) + 0.1 * random.normal(key_noise, (n_samples, y_dim))
W_hat = jnp.zeros_like(W)
b_hat = jnp.zeros_like(b)
@jax.jit
def update_params(W, b, x, y, lr):
    W, b = W - lr * jax.grad(mse, 0)(W, b, x, y), b - lr * jax.grad(mse, 1)(W, b, x, y)
    return W, b
losses = [mse(W, b, x_samples, y_samples)]
for i in range(11):
    W_hat, b_hat = update_params(W_hat, b_hat, x_samples, y_samples, 0.3)
    if i % 5 == 0:
        losses.append(mse(W_hat, b_hat, x_samples, y_samples))
out = (x_samples.shape, y_samples.shape, jnp.stack(losses), b_hat)
""", rtol=1e-4, atol=1e-4)
C("seed_linear_regression_pytree_params", "seeds", """
params = {'W': jnp.zeros((3, 2)), 'b': jnp.zeros(2)}
X = jnp.linspace(-1, 1, 12).reshape(4, 3)
Y = X @ jnp.array([[1.0, -1.0], [0.5, 0.0], [0.0, 2.0]]) + jnp.array([0.3, -0.2])
def loss(p, x, y):
    return jnp.mean((x @ p['W'] + p['b'] - y) ** 2)
@jax.jit
def step(p):
    l, g = jax.value_and_grad(loss)(p, X, Y)
    return jax.tree_util.tree_map(lambda a, b: a - 0.5 * b, p, g), l
ls = []
for _ in range(10):
    params, l = step(params)
    ls.append(l)
out = (params, jnp.stack(ls))
""", rtol=1e-4, atol=1e-5)
C("seed_random_tutorial_printouts", "seeds", """
jax.config.update('jax_threefry_partitionable', False)
key = random.PRNGKey(0)
out = [random.normal(key, shape=(1,)) for _ in range(3)]
key, subkey = random.split(key)
out.append((key, random.normal(key, shape=(1,)), subkey, random.normal(subkey, shape=(1,))))
""")
C("seed_selu_normal_10", "seeds", """
key = random.PRNGKey(0)
x = random.normal(key, (10,))
def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
out = (x, selu(x), jax.jit(selu)(x))
""")
C("seed_grad_sum_logistic", "seeds", """
def sum_logistic(x):
    return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))
x_small = jnp.arange(3.0)
derivative_fn = jax.grad(sum_logistic)
out = (derivative_fn(x_small), jax.jit(jax.grad(jax.jit(jax.grad(jax.jit(sum_logistic)))))(1.0))
""")
C("seed_jit_get_negatives_error", "seeds", """
def get_negatives(x):
    return x[x < 0]
x = jnp.linspace(-2, 2, 5)
out = get_negatives(x)
""")
E("seed_jit_get_negatives_jit_error", "seeds", """
def get_negatives(x):
    return x[x < 0]
out = jax.jit(get_negatives)(jnp.linspace(-2, 2, 5))
""")
C("seed_oob_indexing", "seeds", "out = (jnp.arange(5)[10], jnp.arange(10.0)[11])")
C("seed_immutable_at", "seeds", "a = jnp.arange(5)\nb = a.at[0].set(9)\nout = (a, b)")
C("seed_hessian_vs_jacfwd_jacrev", "seeds", """
def hessian(f):
    return jax.jacfwd(jax.jacrev(f))
f = lambda x: jnp.sum(jnp.tanh(x) ** 2)
x = jnp.array([0.1, 0.2])
out = (hessian(f)(x), jax.hessian(f)(x))
""")
C("seed_device_put_dot", "seeds", "x = jax.device_put(np.arange(4.0, dtype=np.float32).reshape(2, 2))\nout = jnp.dot(x, x.T).block_until_ready()")
