"""Case definitions for numpy_cases.json: jax.numpy names added with the split of core/numpy
(issue 11, structure and breadth), recorded from real JAX 0.10.2. Each name has at least one
case; refusals (non-static sizes, in-place updates, impure readers) record JAX's errors."""
from casebook import recorder

CASES, C, E = recorder()

X = "x = jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])\n"

# ---------------------------------------------------------------- sorting: partition
C("np_partition", "numpy", X + "out = (jnp.partition(x, 3), jnp.partition(x, -2), "
  "jnp.partition(jnp.array([[3, 1, 2], [9, 7, 8]]), 1, axis=1), jnp.partition(jnp.array([5, 0, 4, 2, 3], dtype=jnp.uint8), 2))")
C("np_argpartition", "numpy", X + "out = (jnp.argpartition(x, 3), jnp.argpartition(jnp.array([[3, 1, 2], [9, 7, 8]]), 0, axis=0), "
  "jnp.argpartition(jnp.array([0, 5, 1, 0, 4], dtype=jnp.uint32), 2))")
C("np_partition_jit_jaxpr_free", "numpy", X + "out = jax.jit(lambda a: jnp.partition(a, 4))(x)")
E("np_partition_complex", "numpy", "out = jnp.partition(jnp.array([1 + 1j, 2]), 0)")

# ---------------------------------------------------------------- printing
C("np_array_repr_str", "numpy", "out = (jnp.array_repr(jnp.array([1.0, 2.0])), jnp.array_repr(jnp.arange(3)), "
  "jnp.array_repr(jnp.ones((2, 2), dtype=jnp.int8)), jnp.array_str(jnp.array([1.0, 2.0])), "
  "jnp.array_str(jnp.array([1.123456, 2.0]), precision=2))")

# ---------------------------------------------------------------- assembling: block, r_, c_, grids
C("np_block", "numpy", "out = (jnp.block([[jnp.ones((2, 2)), jnp.zeros((2, 1))], [jnp.full((1, 3), 2.0)]]), "
  "jnp.block([jnp.array([1, 2]), 3, jnp.array([4.0])]))")
E("np_block_tuple", "numpy", "out = jnp.block((jnp.ones(2),))")
E("np_block_depths", "numpy", "out = jnp.block([[jnp.ones(2)], jnp.ones(2)])")
C("np_r_", "numpy", "out = (jnp.r_[jnp.array([1, 2, 3]), 0, 0, jnp.array([4, 5, 6])], jnp.r_[-1:1:6j, [0] * 3, 5, 6], "
  "jnp.r_['0,2', [1, 2, 3], [4, 5, 6]], jnp.r_['r', [1, 2, 3]], jnp.r_['c', [1, 2, 3]], jnp.r_['-1,2,0', [1, 2, 3], [4, 5, 6]])")
C("np_c_", "numpy", "out = (jnp.c_[jnp.array([1, 2, 3]), jnp.array([4, 5, 6])], "
  "jnp.c_[jnp.array([[1, 2], [3, 4]]), jnp.array([[5], [6]])], jnp.c_[0:3, jnp.ones(3)])")
E("np_r_bad_directive", "numpy", "out = jnp.r_['a,b', [1, 2]]")
C("np_mgrid", "numpy", "out = (jnp.mgrid[0:3, 0:2], jnp.mgrid[-1:1:5j], jnp.mgrid[0:1:0.25, 0:2:3j])")
C("np_ogrid", "numpy", "out = (jnp.ogrid[0:3, 0:2], jnp.ogrid[0:5:2], jnp.ogrid[0:1:3j, 0:3])")
C("np_meshgrid_sparse", "numpy", "out = (jnp.meshgrid(jnp.arange(3), jnp.arange(2), sparse=True), "
  "jnp.meshgrid(jnp.arange(3), jnp.arange(2), jnp.arange(4), sparse=True, indexing='ij'))")

# ---------------------------------------------------------------- einsum_path
C("np_einsum_path", "numpy", "out = (jnp.einsum_path('ij,jk->ik', jnp.ones((2, 3)), jnp.ones((3, 4)))[0], "
  "jnp.einsum_path('ij,jk,kl->il', jnp.ones((2, 3)), jnp.ones((3, 4)), jnp.ones((4, 5)))[0], "
  "jnp.einsum_path('ij,jk,kl->il', jnp.ones((20, 3)), jnp.ones((3, 40)), jnp.ones((40, 5)), optimize=True)[0])")

# ---------------------------------------------------------------- reading and writing
C("np_frombuffer_fromstring", "numpy", "out = (jnp.frombuffer(b'\\x01\\x02\\x03\\x04', dtype=jnp.uint8), "
  "jnp.frombuffer(np.arange(3, dtype=np.float32).tobytes(), dtype=jnp.float32), "
  "jnp.frombuffer(b'\\x01\\x02\\x03\\x04\\x05', dtype=jnp.uint8, count=2, offset=1), "
  "jnp.fromstring('1 2 3', sep=' ', dtype=int), jnp.fromstring('1.5, 2, 3', sep=','))")
E("np_fromfile_refused", "numpy", "out = jnp.fromfile('data.bin')")
E("np_fromiter_refused", "numpy", "out = jnp.fromiter(range(4), dtype=float)")
C("np_savez_load", "numpy", "path = '/tmp/gradpad_golden_np_io'\n"
  "jnp.savez(path + '.npz', a=jnp.arange(3), b=jnp.ones((2, 2)))\n"
  "jnp.save(path + '.npy', jnp.arange(4.0))\n"
  "z = jnp.load(path + '.npz')\n"
  "out = (jnp.load(path + '.npy'), z['a'], z['b'], sorted(z.files))")

# ---------------------------------------------------------------- calculus and elementwise
C("np_gradient", "numpy", "out = (jnp.gradient(jnp.array([1.0, 2.0, 4.0, 7.0, 11.0])), "
  "jnp.gradient(jnp.array([[1.0, 2.0, 6.0], [3.0, 4.0, 5.0]])), jnp.gradient(jnp.array([1.0, 2.0, 4.0, 7.0]), 2.0), "
  "jnp.gradient(jnp.array([1, 2, 4, 7])), jnp.gradient(jnp.array([[1.0, 2.0, 6.0], [3.0, 4.0, 5.0]]), axis=1), "
  "jnp.gradient(jnp.array([1.0, 2.0, 4.0, 7.0]), jnp.array([0.0, 1.0, 3.0, 4.0])))")
E("np_gradient_too_small", "numpy", "out = jnp.gradient(jnp.array([1.0]))")
E("np_gradient_edge_order", "numpy", "out = jnp.gradient(jnp.arange(4.0), edge_order=2)")
C("np_spacing", "numpy", "out = (jnp.spacing(jnp.array([1.0, 0.0, -2.0, 1e10])), "
  "jnp.spacing(jnp.array([1.0, -1.0], dtype=jnp.float16)), jnp.spacing(jnp.array([1, 2])), jnp.spacing(3.0))")
E("np_spacing_complex", "numpy", "out = jnp.spacing(jnp.array([1 + 1j]))")
C("np_unwrap", "numpy", "out = (jnp.unwrap(jnp.array([0.0, 3.0, 6.5, 0.5, 7.0])), "
  "jnp.unwrap(jnp.array([0, 5, 9, 2]), period=6), jnp.unwrap(jnp.array([[0.0, 4.0, 8.0], [1.0, -3.0, 2.0]]), axis=0), "
  "jnp.unwrap(jnp.array([0.0, 1.0, 2.5, 1.0]), discont=1.0))", atol=1e-5)

# ---------------------------------------------------------------- statistics
C("np_nanmedian", "numpy", "out = (jnp.nanmedian(jnp.array([1.0, jnp.nan, 3.0, 2.0])), "
  "jnp.nanmedian(jnp.array([[1.0, jnp.nan, 3.0], [jnp.nan, jnp.nan, jnp.nan]]), axis=1, keepdims=True), "
  "jnp.nanmedian(jnp.arange(6).reshape(2, 3), axis=0))")
C("np_nanquantile", "numpy", "out = (jnp.nanquantile(jnp.array([[1.0, jnp.nan, 3.0], [2.0, 5.0, jnp.nan]]), jnp.array([0.25, 0.5]), axis=1), "
  "[jnp.nanquantile(jnp.array([1.0, 2.0, jnp.nan, 4.0, 7.0]), 0.4, method=m) for m in ('linear', 'lower', 'higher', 'midpoint', 'nearest')], "
  "jnp.nanquantile(jnp.array([1, 2, 3, 4]), 0.5))")
C("np_nanpercentile", "numpy", "out = (jnp.nanpercentile(jnp.array([1.0, jnp.nan, 3.0, 2.0]), 50), "
  "jnp.nanpercentile(jnp.arange(24.0).reshape(2, 3, 4), jnp.array([10, 90]), axis=(0, 2)), "
  "jnp.nanpercentile(jnp.array([[1.0, jnp.nan], [3.0, 4.0]]), 25, axis=0, keepdims=True))")
C("np_histogram2d", "numpy", "out = (jnp.histogram2d(jnp.array([0.0, 1.0, 2.0, 3.0]), jnp.array([0.0, 2.0, 1.0, 3.0]), bins=2), "
  "jnp.histogram2d(jnp.array([0.0, 1.0, 2.0, 3.0, 2.5]), jnp.array([0.0, 2.0, 1.0, 3.0, 0.5]), bins=[2, 3], range=[[0, 4], [0, 3]]), "
  "jnp.histogram2d(jnp.array([0.0, 1.0, 2.0, 3.0]), jnp.array([0.0, 2.0, 1.0, 3.0]), bins=2, density=True))")
C("np_histogramdd", "numpy", "s = jnp.array([[0.0, 0.0], [1.0, 2.0], [2.0, 1.0], [3.0, 3.0], [5.0, 1.0]])\n"
  "out = (jnp.histogramdd(s, bins=2), jnp.histogramdd(s, bins=(2, 3), weights=jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])), "
  "jnp.histogramdd(s, bins=[jnp.array([0.0, 1.0, 4.0]), 2], range=[None, (0, 2)]))")
E("np_histogramdd_weights_shape", "numpy", "out = jnp.histogramdd(jnp.ones((3, 2)), weights=jnp.ones(2))")

# ---------------------------------------------------------------- indices and functional writes
C("np_mask_indices", "numpy", "out = (jnp.mask_indices(3, jnp.triu), jnp.mask_indices(3, jnp.triu, 1), "
  "jnp.mask_indices(3, jnp.tril, -1, size=4))")
C("np_place", "numpy", "out = (jnp.place(jnp.arange(5.0), jnp.arange(5) > 2, jnp.array([10.0, 20.0]), inplace=False), "
  "jnp.place(jnp.zeros((2, 3)), jnp.array([[True, False, True], [True, True, False]]), jnp.array([1.0, 2.0]), inplace=False))")
E("np_place_inplace", "numpy", "out = jnp.place(jnp.arange(5.0), jnp.arange(5) > 2, jnp.array([10.0]))")
C("np_put", "numpy", "a = jnp.arange(6.0).reshape(2, 3)\n"
  "out = (jnp.put(jnp.arange(5.0), jnp.array([0, 2]), jnp.array([10.0, 20.0]), inplace=False), "
  "jnp.put(a, jnp.array([7, -1]), jnp.array([10.0, 20.0]), mode='wrap', inplace=False), "
  "jnp.put(a, jnp.array([7, -1]), jnp.array([10.0, 20.0]), mode='clip', inplace=False), "
  "jnp.put(a, jnp.array([1, 2, 9]), 5.0, inplace=False))")
E("np_put_inplace", "numpy", "out = jnp.put(jnp.arange(5.0), 0, 1.0)")
E("np_put_bad_mode", "numpy", "out = jnp.put(jnp.arange(5.0), 0, 1.0, mode='bad', inplace=False)")

# ---------------------------------------------------------------- bits
C("np_packbits", "numpy", "out = (jnp.packbits(jnp.array([1, 0, 1, 1, 0, 0, 0, 1, 1])), "
  "jnp.packbits(jnp.array([[1, 0, 1], [0, 1, 1]]), axis=1, bitorder='little'), "
  "jnp.packbits(jnp.array([[True, False], [False, True]]), axis=0))")
E("np_packbits_float", "numpy", "out = jnp.packbits(jnp.array([1.0]))")
E("np_packbits_order", "numpy", "out = jnp.packbits(jnp.array([1, 0]), bitorder='mid')")
C("np_unpackbits", "numpy", "out = (jnp.unpackbits(jnp.array([5, 200], dtype=jnp.uint8)), "
  "jnp.unpackbits(jnp.array([5, 200], dtype=jnp.uint8), count=5, bitorder='little'), "
  "jnp.unpackbits(jnp.array([[1], [128]], dtype=jnp.uint8), axis=1, count=10))")
E("np_unpackbits_int", "numpy", "out = jnp.unpackbits(jnp.array([5]))")

# ---------------------------------------------------------------- polynomials
C("np_polydiv", "numpy", "out = (jnp.polydiv(jnp.array([1.0, 3.0, 2.0]), jnp.array([1.0, 1.0])), "
  "jnp.polydiv(jnp.array([2.0, 0.0, 1.0, 5.0]), jnp.array([1.0, -1.0])), jnp.polydiv(jnp.array([1, 2]), jnp.array([2, 1, 1])))")
C("np_polyfit", "numpy", "x = jnp.array([0.0, 1.0, 2.0, 3.0, 4.0])\ny = jnp.array([1.0, 3.0, 7.0, 14.0, 20.0])\n"
  "out = (jnp.polyfit(x, y, 2), jnp.polyfit(x, y, 1, full=True), jnp.polyfit(x, y, 1, cov=True), "
  "jnp.polyfit(x, jnp.stack([y, 2 * y], axis=1), 1), jnp.polyfit(x, y, 1, w=jnp.array([1.0, 1.0, 2.0, 2.0, 1.0])))",
  rtol=1e-3, atol=1e-3)
E("np_polyfit_deg", "numpy", "out = jnp.polyfit(jnp.arange(3.0), jnp.arange(3.0), -1)")
C("np_roots", "numpy", "out = (jnp.roots(jnp.array([1.0, -3.0, 2.0])), jnp.roots(jnp.array([0.0, 1.0, -3.0, 2.0])), "
  "jnp.roots(jnp.array([1.0, 0.0, 1.0])), jnp.roots(jnp.array([2.0])))", rtol=1e-5, atol=1e-5)
E("np_roots_jit_strip", "numpy", "out = jax.jit(jnp.roots)(jnp.array([1.0, -3.0, 2.0]))", msg_prefix=0)
C("np_roots_jit_nostrip", "numpy", "out = jax.jit(lambda p: jnp.roots(p, strip_zeros=False))(jnp.array([1.0, -3.0, 2.0]))",
  rtol=1e-5, atol=1e-5)

# ---------------------------------------------------------------- ufunc / frompyfunc
U = "u = jnp.frompyfunc(lambda a, b: a * b + 1, 2, 1, identity=0)\nx = jnp.array([[1, 2, 3], [4, 5, 6]])\n"
C("np_frompyfunc_call_reduce", "numpy", U + "out = (repr(u), u.nin, u.nout, u.nargs, u.identity, u(x, 2), u.reduce(x), "
  "u.reduce(x, axis=1, keepdims=True), u.reduce(x, axis=None), u.reduce(x, where=jnp.array([True, False, True]), initial=5), "
  "jax.jit(lambda a: u.reduce(a))(x))")
C("np_ufunc_accumulate_outer", "numpy", U + "out = (u.accumulate(x, axis=1), u.outer(jnp.arange(3), jnp.arange(2.0)), "
  "jnp.ufunc(lambda a, b: a - b, 2, 1, name='sub').accumulate(jnp.arange(5.0)), repr(jnp.ufunc(lambda a: a, 1, 1, name='ident')))")
C("np_ufunc_at_reduceat", "numpy", U + "out = (u.at(jnp.arange(5), jnp.array([0, 0, 2]), 3, inplace=False), "
  "u.reduceat(jnp.arange(8), jnp.array([0, 4, 6])), jnp.frompyfunc(lambda a: -a, 1, 1)(jnp.arange(3)))")
E("np_ufunc_at_inplace", "numpy", U + "out = u.at(jnp.arange(5), jnp.array([0]), 3)")
E("np_ufunc_reduce_unary", "numpy", "out = jnp.frompyfunc(lambda a: a * 2, 1, 1).reduce(jnp.arange(3))")
E("np_ufunc_where_no_identity", "numpy", "out = jnp.frompyfunc(lambda a, b: a + b, 2, 1).reduce(jnp.arange(3), where=jnp.array([True, False, True]))")
C("np_ufunc_class", "numpy", "out = (str(jnp.ufunc), jnp.ufunc(jnp.add, 2, 1) == jnp.ufunc(jnp.add, 2, 1))")

# ---------------------------------------------------------------- linalg.eig / eigvals
C("np_linalg_eig", "numpy", "w, v = jnp.linalg.eig(jnp.array([[2.0, 1.0], [1.0, 3.0]]))\n"
  "w2, v2 = jnp.linalg.eig(jnp.array([[1, 2], [3, 4]]))\nout = (w, v, w2, v2)", rtol=1e-5, atol=1e-5)
C("np_linalg_eigvals", "numpy", "out = (jnp.linalg.eigvals(jnp.array([[0.0, -1.0], [1.0, 0.0]])), "
  "jax.vmap(jnp.linalg.eigvals)(jnp.stack([jnp.eye(2), 2 * jnp.eye(2)])), "
  "jnp.linalg.eigvals(jnp.array([[1 + 1j, 2], [0, 3 - 1j]])), jax.jit(jnp.linalg.eigvals)(jnp.array([[4.0, 1.0], [2.0, 3.0]])))",
  rtol=1e-5, atol=1e-5)
C("np_linalg_eigvals_jaxpr", "numpy", "out = str(jax.make_jaxpr(jnp.linalg.eigvals)(jnp.ones((2, 2))))")
E("np_linalg_eig_not_square", "numpy", "out = jnp.linalg.eig(jnp.ones((2, 3)))")

# ---------------------------------------------------------------- lax.top_k on integers (partition's engine)
C("np_lax_top_k_integers", "numpy", "out = (lax.top_k(jnp.array([5, 0, 4, 2, 3], dtype=jnp.uint8), 2), "
  "lax.top_k(jnp.array([-128, 5, 0, 127], dtype=jnp.int8), 4), lax.top_k(jnp.array([True, False, True]), 2))")

# ---------------------------------------------------------------- jnp.add & co. are ufuncs
A = "x = jnp.array([[1, 2, 3], [4, 5, 6]])\n"
C("np_ufunc_objects_reduce", "numpy", A + "out = (jnp.add.reduce(x), jnp.add.reduce(x, axis=1, keepdims=True), "
  "jnp.multiply.reduce(x, axis=None), jnp.maximum.reduce(x, axis=1), jnp.minimum.reduce(x), "
  "jnp.logical_and.reduce(x > 2), jnp.logical_or.reduce(x > 5, axis=1), jnp.bitwise_or.reduce(x, axis=1), "
  "jnp.bitwise_and.reduce(x), jnp.logical_xor.reduce(x > 1), jnp.logaddexp.reduce(jnp.array([0.0, 1.0, 2.0])), "
  "jnp.subtract.reduce(jnp.arange(5)), jnp.add.reduce(x, dtype=jnp.float32, initial=10))", rtol=1e-5, atol=1e-5)
C("np_ufunc_objects_accumulate_outer_at", "numpy", A + "out = (jnp.add.accumulate(x, axis=1), jnp.multiply.accumulate(x), "
  "jnp.maximum.accumulate(jnp.array([1, 3, 2, 5, 4])), jnp.multiply.outer(jnp.arange(1, 4), jnp.arange(1, 3)), "
  "jnp.add.at(jnp.zeros(4), jnp.array([0, 0, 3]), 1.0, inplace=False), "
  "jnp.subtract.at(jnp.arange(4), jnp.array([1, 1]), 2, inplace=False), "
  "jnp.multiply.at(jnp.array([True, True, False]), jnp.array([0]), False, inplace=False), "
  "jnp.minimum.at(jnp.array([5, 5, 5]), jnp.array([0, 0, 2]), jnp.array([3, 1, 7]), inplace=False), "
  "jnp.negative.at(jnp.arange(3), jnp.array([2]), inplace=False))")
C("np_ufunc_objects_props", "numpy", "out = [(repr(f), f.nin, f.nout, f.nargs, f.identity, f.__name__) for f in (jnp.add, jnp.multiply, "
  "jnp.subtract, jnp.maximum, jnp.logical_and, jnp.bitwise_and, jnp.logaddexp, jnp.negative)]")
E("np_ufunc_objects_out", "numpy", "out = jnp.add(jnp.ones(2), 1.0, out=jnp.ones(2))")
E("np_negative_reduce", "numpy", "out = jnp.negative.reduce(jnp.ones(3))")
C("np_linalg_eigvals_jvp", "numpy", "a = jnp.array([[2.0, 1.0], [0.5, 3.0]])\n"
  "out = jax.jvp(jnp.linalg.eigvals, (a,), (jnp.array([[1.0, 0.0], [0.0, 0.0]]),))", rtol=1e-5, atol=1e-5)
E("np_linalg_eig_vectors_jvp", "numpy", "a = jnp.array([[2.0, 1.0], [0.5, 3.0]])\nout = jax.jvp(lambda a: jnp.linalg.eig(a)[1], (a,), (a,))")

# ---------------------------------------------------------------- quantile / percentile / median (one implementation)
QA = "a = jnp.array([[1.0, 7.0, 3.0, 4.0], [9.0, 2.0, 6.0, 5.0]])\n"
C("np_quantile_axes_and_q", "numpy", QA + "out = (jnp.quantile(a, jnp.array([0.1, 0.5]), axis=1), jnp.quantile(a, 0.5, axis=(0, 1)), "
  "jnp.quantile(a, jnp.array([0.2, 0.7]), axis=0, keepdims=True), jnp.median(a, axis=0, keepdims=True), "
  "jnp.percentile(a, jnp.array([25, 75]), axis=1, method='midpoint'), jnp.percentile(jnp.arange(5), 30), "
  "jax.jit(jnp.median)(a), jnp.median(jnp.array([1, 4, 3, 2])))")
C("np_quantile_methods", "numpy", QA + "v = jnp.array([1.0, 2.0, 3.0, 4.0])\n"
  "out = ([jnp.quantile(a, 0.4, method=m) for m in ('linear', 'lower', 'higher', 'midpoint', 'nearest', 'inverted_cdf')], "
  "[jnp.quantile(v, q, method='nearest') for q in (0.5, 1 / 6, 0.3)], "
  "[jnp.quantile(v, q, method='inverted_cdf') for q in (0.0, 0.25, 0.3, 0.5, 1.0)], "
  "jnp.nanquantile(jnp.array([[1.0, jnp.nan, 3.0, 2.0], [jnp.nan] * 4]), jnp.array([0.2, 0.6]), axis=1, method='inverted_cdf'))")
C("np_quantile_nan", "numpy", "out = (jnp.median(jnp.array([1.0, jnp.nan, 3.0])), jnp.quantile(jnp.array([[1.0, 2.0], [jnp.nan, 4.0]]), 0.5, axis=1))")
E("np_quantile_bad_method", "numpy", QA + "out = jnp.quantile(a, 0.5, method='foo')")
E("np_quantile_q_rank", "numpy", QA + "out = jnp.quantile(a, jnp.ones((2, 2)) * 0.5)")
E("np_quantile_out", "numpy", QA + "out = jnp.quantile(a, 0.5, out=a)")

# ---------------------------------------------------------------- silent wrong answers found by comparing with JAX
F = "f = jnp.array([[1.5, -2.0, 0.0], [3.25, jnp.nan, -0.5]])\n"
C("np_searchsorted_nan_digitize", "numpy", F + "out = (jnp.searchsorted(jnp.array([0.0, 1.0, jnp.nan]), jnp.array([jnp.nan, 0.5, -0.0, 0.0])), "
  "jnp.searchsorted(jnp.array([-0.0, 0.0, jnp.nan]), jnp.array([jnp.nan, 0.0, -0.0]), side='right'), "
  "jnp.digitize(f, jnp.array([0, 2])), jnp.digitize(f, jnp.array([0.0, 2.0]), right=True))")
C("np_kron_ranks", "numpy", "out = (jnp.kron(jnp.ones((2, 2)), jnp.array([1, 2])), jnp.kron(jnp.array([1, 2]), jnp.arange(4).reshape(2, 2)), "
  "jnp.kron(jnp.array([[3, -1, 0], [7, 2, -5]]), jnp.array([1, 2])))")
C("np_array_equal_nan", "numpy", F + "out = (jnp.array_equal(f, f, equal_nan=True), jnp.array_equal(f, f), "
  "jnp.array_equal(jnp.array([1.0, jnp.nan]), jnp.array([1.0, 2.0]), equal_nan=True), jnp.array_equal(jnp.arange(3), jnp.arange(3), equal_nan=True))")
C("np_polyval_matrix_x", "numpy", F + "out = (jnp.polyval(jnp.array([1, 2]), f), jnp.polyval(jnp.array([1, 2, 3]), jnp.array([[3, -1, 0], [7, 2, -5]])))")
C("np_heaviside_nan", "numpy", F + "out = jnp.heaviside(f, 0.5)")
C("np_rint_square_dtypes", "numpy", "out = (jnp.rint(jnp.array([[3, -1, 0], [7, 2, -5]])), jnp.rint(jnp.array([3, 1, 250], dtype=jnp.uint8)), "
  "jnp.rint(jnp.array([True, False])), jnp.rint(jnp.array([0.5, 1.5, -2.5])), jnp.square(jnp.array([True, False, True])))")
C("np_setdiff1d_vander_dtypes", "numpy", "u = jnp.array([3, 1, 0, 250], dtype=jnp.uint8)\n"
  "out = (jnp.setdiff1d(u, jnp.array([0])), jnp.setdiff1d(jnp.array([True, False, True]), jnp.array([0])), "
  "jnp.vander(u[:3]), jnp.vander(jnp.array([1.0, 2.0]), 3, increasing=True))")
CX = "c = jnp.array([1 + 2j, -1j, 3.0])\n"
C("np_complex_abs_var_norm_dtypes", "numpy", CX + "out = (jax.jit(jnp.abs)(c), jax.jit(lax.abs)(c), jnp.var(c), jnp.std(c), "
  "jnp.var(c, dtype=jnp.complex64), jnp.linalg.norm(c, 1), jnp.linalg.norm(c), jax.jit(lambda c: jnp.linalg.norm(c, 3))(c))",
  rtol=1e-5, atol=1e-5)
C("np_complex_isinf_round_astype", "numpy", CX + "out = (jnp.isinf(jnp.array([1 + jnp.inf * 1j, 2, jnp.inf + 0j])), "
  "jnp.round(jnp.array([1.26 + 2.35j, -0.5 - 1.5j]), 1), jnp.round(jnp.array([0.5 + 1.5j])), c.astype(bool), "
  "jnp.astype(c, bool), lax.convert_element_type(c, bool), c.all(), jax.jit(lambda c: c.astype(bool))(c))")
C("np_array_methods_ptp_searchsorted_choose_round", "numpy", "x = jnp.array([[3, -1, 0], [7, 2, -5]])\n"
  "out = (x.ptp(), x.ptp(axis=0), x.ptp(axis=1, keepdims=True), jnp.array([1, 5, 9]).searchsorted(5, side='right'), "
  "jnp.array([0, 1, 1]).choose([10, 20]), round(jnp.array(2.5)), round(jnp.array(1.5)), round(jnp.array(7)), "
  "jax.jit(lambda a: a.ptp())(jnp.arange(4.0)))")
