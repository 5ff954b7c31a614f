"""Case definitions for breadth_cases.json: names of jax.numpy (+linalg, fft), jax.scipy,
jax.ops, jax.image and jax.test_util that the engine gained (issue 11's breadth), recorded from
real JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()


M = "m = jnp.array([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 4.0]])\n"
R = "r = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n"

# ---------------------------------------------------------------- jnp.linalg (array API names)
C("linalg_cross", "linalg", "out = jnp.linalg.cross(jnp.array([1.0, 2.0, 3.0]), jnp.array([[0.0, 1.0, 0.0], [2.0, -1.0, 1.0]]))")
E("linalg_cross_not_3", "linalg", "out = jnp.linalg.cross(jnp.ones(2), jnp.ones(2))")
C("linalg_diagonal_trace", "linalg", M + "b = jnp.arange(12.0).reshape(2, 2, 3)\n"
  "out = (jnp.linalg.diagonal(m), jnp.linalg.diagonal(b, offset=1), jnp.linalg.trace(m), jnp.linalg.trace(b, offset=-1),"
  " jnp.linalg.trace(jnp.arange(9).reshape(3, 3), dtype=jnp.float32))")
C("linalg_matrix_norm", "linalg", M + "out = (jnp.linalg.matrix_norm(m), jnp.linalg.matrix_norm(m, ord=1), "
  "jnp.linalg.matrix_norm(m, ord=jnp.inf, keepdims=True), jnp.linalg.matrix_norm(m, ord='nuc'), jnp.linalg.matrix_norm(m, ord=2))",
  rtol=1e-5, atol=1e-5)
C("linalg_vector_norm", "linalg", M + "out = (jnp.linalg.vector_norm(m), jnp.linalg.vector_norm(m, axis=1, ord=1), "
  "jnp.linalg.vector_norm(m, keepdims=True), jnp.linalg.vector_norm(m, axis=(0, 1), ord=jnp.inf), "
  "jnp.linalg.vector_norm(jnp.arange(4), ord=3))")
C("linalg_matrix_power", "linalg", M + "out = (jnp.linalg.matrix_power(m, 3), jnp.linalg.matrix_power(m, 0), "
  "jnp.linalg.matrix_power(m, -2), jnp.linalg.matrix_power(jnp.arange(4).reshape(2, 2), 2))", rtol=1e-5, atol=1e-6)
C("linalg_matrix_rank", "linalg", M + R + "out = (jnp.linalg.matrix_rank(m), jnp.linalg.matrix_rank(r), "
  "jnp.linalg.matrix_rank(jnp.ones((3, 3))), jnp.linalg.matrix_rank(jnp.zeros((2, 2))), jnp.linalg.matrix_rank(m, rtol=0.5))")
C("linalg_matrix_transpose_outer", "linalg", R + "out = (jnp.linalg.matrix_transpose(r), jnp.linalg.matrix_transpose(jnp.ones((2, 1, 3))), "
  "jnp.linalg.outer(jnp.arange(3), jnp.array([1.0, 2.0])))")
E("linalg_outer_needs_vectors", "linalg", "out = jnp.linalg.outer(jnp.ones((2, 2)), jnp.ones(2))")
C("linalg_pinv", "linalg", M + R + "out = (jnp.linalg.pinv(r), jnp.linalg.pinv(m), jnp.linalg.pinv(jnp.ones((2, 2))))", rtol=1e-4, atol=1e-5)
C("linalg_svdvals", "linalg", R + "out = jnp.linalg.svdvals(r)", rtol=1e-5, atol=1e-5)
C("linalg_tensordot_vecdot_matmul", "linalg", R + "out = (jnp.linalg.tensordot(r, r, axes=([0], [0])), "
  "jnp.linalg.vecdot(r, jnp.array([1.0, -1.0])), jnp.linalg.matmul(r.T, r), jnp.linalg.vecdot(r, r, axis=0))")
C("linalg_multi_dot_cond", "linalg", M + R + "out = (jnp.linalg.multi_dot([r.T, m, r]), jnp.linalg.cond(m), jnp.linalg.cond(m, 1))",
  rtol=1e-4, atol=1e-5)
C("linalg_lstsq", "linalg", R + "x, resid, rank, s = jnp.linalg.lstsq(r, jnp.array([1.0, 0.0, 2.0]))\nout = (x, resid, rank, s)",
  rtol=1e-4, atol=1e-5)
C("linalg_tensorinv_tensorsolve", "linalg", "a = jnp.eye(4).reshape(4, 2, 2) * 2.0 + 0.5\n"
  "out = (jnp.linalg.tensorinv(a, ind=1), jnp.linalg.tensorsolve(a, jnp.arange(4.0)))", rtol=1e-4, atol=1e-5)
C("linalg_grad_matrix_power_pinv", "linalg", M + "out = (jax.grad(lambda a: jnp.linalg.matrix_power(a, 3).sum())(m), "
  "jax.jit(jnp.linalg.vector_norm)(m))", rtol=1e-4, atol=1e-4)
C("jnp_vecdot_matvec_vecmat", "numpy", M + "v = jnp.array([1.0, 0.5, -1.0])\n"
  "out = (jnp.vecdot(m, v), jnp.matvec(m, v), jnp.vecmat(v, m), jnp.vecdot(jnp.array([1 + 2j, 3j]), jnp.array([2.0, 1j])), "
  "jax.grad(lambda a: jnp.vecdot(a, v).sum())(m))")

# ---------------------------------------------------------------- jnp.fft
X = "x = jnp.array([1.0, 2.0, 0.5, -1.0, 3.0, 0.0])\ny = jnp.arange(12.0).reshape(3, 4)\n"
C("fft_dtypes_and_ints", "fft", "out = (jnp.fft.fft(jnp.arange(4)), jnp.fft.ifft(jnp.arange(4)), jnp.fft.rfft(jnp.arange(5)), jnp.fft.fftfreq(4), jnp.fft.fftfreq(5, 0.5))",
  atol=1e-5)
C("fft_x64_complex128", "fft", "jax.config.update('jax_enable_x64', True)\n"
  "out = (jnp.fft.fft(jnp.arange(4.0)), jnp.fft.fft(jnp.arange(4.0, dtype=jnp.float32)), jnp.fft.rfftfreq(5), jnp.fft.fftfreq(4))")
C("fft_n_and_norm", "fft", X + "out = (jnp.fft.fft(x, n=4), jnp.fft.fft(x, n=8, norm='ortho'), jnp.fft.ifft(x, norm='forward'), "
  "jnp.fft.rfft(x, n=5), jnp.fft.irfft(jnp.fft.rfft(x)), jnp.fft.irfft(jnp.fft.rfft(x), n=7))", atol=1e-5)
C("fft_nd", "fft", X + "out = (jnp.fft.fftn(y), jnp.fft.ifftn(y, s=(2, 3)), jnp.fft.rfftn(y), jnp.fft.irfftn(jnp.fft.rfftn(y), s=(3, 4)), "
  "jnp.fft.fft2(y), jnp.fft.ifft2(y), jnp.fft.rfft2(y), jnp.fft.irfft2(jnp.fft.rfft2(y)), jnp.fft.fftn(y, axes=(0,)))", atol=1e-4)
C("fft_hermitian", "fft", X + "out = (jnp.fft.hfft(x), jnp.fft.hfft(x, n=6, norm='ortho'), jnp.fft.ihfft(x), jnp.fft.ihfft(x, norm='forward'))",
  atol=1e-5)
C("fft_shift_freq", "fft", X + "out = (jnp.fft.fftshift(x), jnp.fft.ifftshift(x), jnp.fft.fftshift(y, axes=1), jnp.fft.ifftshift(y), "
  "jnp.fft.rfftfreq(6), jnp.fft.rfftfreq(7, d=0.1), jnp.fft.fftfreq(3, dtype=jnp.float32))")
C("fft_under_jit_vmap", "fft", X + "out = (jax.jit(jnp.fft.fft)(x), jax.vmap(jnp.fft.rfft)(y), jax.jit(jnp.fft.irfft)(jnp.fft.rfft(x)), "
  "jax.jit(jnp.fft.fftn)(y), jax.jit(lambda a: jnp.real(a) + jnp.imag(a))(jnp.fft.fft(x)))", atol=1e-4)
E("fft_rfft_complex_input", "fft", "out = jnp.fft.rfft(jnp.array([1j, 2.0]))")

# ---------------------------------------------------------------- jnp: sets, shapes, signals, cumulative
C("unique_array_api", "numpy", "x = jnp.array([[3, 1, 2], [3, 2, 7]])\n"
  "out = (jnp.unique_all(x), jnp.unique_counts(x), jnp.unique_inverse(x), jnp.unique_values(jnp.array([2.0, 1.0, 2.0])))")
C("set_routines", "numpy", "a = jnp.array([1, 4, 2, 4, 7])\nb = jnp.array([4, 5, 1])\n"
  "out = (jnp.union1d(a, b), jnp.intersect1d(a, b), jnp.setdiff1d(a, b), jnp.setxor1d(a, b), jnp.isin(a, b), "
  "jnp.isin(a, b, invert=True), jnp.intersect1d(a, b, return_indices=True))")
C("unstack", "numpy", "x = jnp.arange(6.0).reshape(2, 3)\nout = (jnp.unstack(x), jnp.unstack(x, axis=1), jnp.unstack(x, axis=-1))")
C("rot90", "numpy", "x = jnp.arange(6).reshape(2, 3)\nout = (jnp.rot90(x), jnp.rot90(x, 2), jnp.rot90(x, 3), jnp.rot90(x, -1), "
  "jnp.rot90(x, axes=(1, 0)), jnp.rot90(jnp.arange(8).reshape(2, 2, 2), axes=(1, 2)))")
E("rot90_1d", "numpy", "out = jnp.rot90(jnp.ones(3))")
E("rot90_same_axes", "numpy", "out = jnp.rot90(jnp.ones((2, 2)), axes=(0, 0))")
C("bitwise_shifts_count", "numpy", "x = jnp.array([1, 7, -8], jnp.int32)\n"
  "out = (jnp.bitwise_left_shift(x, 2), jnp.bitwise_right_shift(x, 1), jnp.bitwise_left_shift(jnp.uint8(3), jnp.uint8(4)), "
  "jnp.bitwise_count(x), jnp.bitwise_count(jnp.array([7, -1], jnp.int8)), jnp.bitwise_count(jnp.uint16(65535)))")
C("convolve_modes", "numpy", "a = jnp.array([1.0, 2.0, 3.0, 4.0])\nv = jnp.array([1.0, 2.0, 0.5])\n"
  "out = (jnp.convolve(a, v), jnp.convolve(a, v, mode='same'), jnp.convolve(a, v, mode='valid'), "
  "jnp.convolve(jnp.array([1.0, 2.0]), jnp.array([1.0, 2.0, 0.5, 3.0]), mode='same'), jnp.convolve(jnp.array([1, 2, 3]), jnp.array([0, 1])))")
C("correlate_modes", "numpy", "a = jnp.array([1.0, 2.0, 3.0, 4.0])\nv = jnp.array([1.0, 2.0, 0.5])\n"
  "out = (jnp.correlate(a, v), jnp.correlate(a, v, mode='same'), jnp.correlate(a, v, mode='full'), "
  "jnp.correlate(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5j]), mode='full'))")
C("convolve_grad_jit", "numpy", "v = jnp.array([1.0, 2.0, 0.5])\n"
  "out = (jax.grad(lambda a: (jnp.convolve(a, v, mode='same') ** 2).sum())(jnp.array([1.0, -1.0, 2.0, 0.5])), "
  "jax.jit(jnp.correlate)(jnp.arange(5.0), v))")
E("convolve_2d", "numpy", "out = jnp.convolve(jnp.ones((2, 2)), jnp.ones(2))")
E("convolve_empty", "numpy", "out = jnp.convolve(jnp.ones(0), jnp.ones(2))")
C("cumulative_sum_prod", "numpy", "out = (jnp.cumulative_sum(jnp.arange(4, dtype=jnp.int8)), "
  "jnp.cumulative_sum(jnp.arange(4, dtype=jnp.int8), include_initial=True), jnp.cumulative_sum(jnp.arange(4.0), dtype=jnp.int32), "
  "jnp.cumulative_sum(jnp.ones((2, 2)), axis=1, include_initial=True), jnp.cumulative_sum(jnp.array([True, False])), "
  "jnp.cumulative_prod(jnp.arange(1, 4, dtype=jnp.int8), dtype=jnp.float32, include_initial=True), "
  "jnp.cumulative_prod(jnp.array([2.0, 3.0]), include_initial=True))")
E("breadth_cumulative_sum_needs_axis", "numpy", "out = jnp.cumulative_sum(jnp.ones((2, 2)))")
E("breadth_cumulative_sum_scalar", "numpy", "out = jnp.cumulative_sum(jnp.float32(1))")
C("breadth_arange_stop_none", "numpy", "out = (jnp.arange(0, None, 1), jnp.arange(5, None, 2), jnp.arange(2.5, None, 1))")
C("append_delete_insert", "numpy", "x = jnp.arange(6).reshape(2, 3)\n"
  "out = (jnp.append(x, jnp.array([7, 8])), jnp.append(x, x, axis=0), jnp.delete(x, 1), jnp.delete(x, jnp.array([0, 2]), axis=1), "
  "jnp.insert(jnp.arange(5), 2, 9), jnp.insert(x, 1, jnp.array([7, 8, 9]), axis=0), jnp.insert(x, 1, 5, axis=1), "
  "jnp.insert(jnp.arange(4), jnp.array([1, 3]), jnp.array([10, 20])))")

# ---------------------------------------------------------------- jax.ops
D = "d = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])\ns = jnp.array([0, 0, 2, 1, 5])\n"
C("ops_segment_reductions", "ops", D + "out = (jax.ops.segment_sum(d, s), jax.ops.segment_sum(d, s, num_segments=3), "
  "jax.ops.segment_max(d, s, 4), jax.ops.segment_min(jnp.arange(5), s, 4), jax.ops.segment_prod(d, s, 3), "
  "jax.ops.segment_sum(jnp.ones((3, 2)), jnp.array([-1, 0, 1]), 2))")
C("ops_segment_grad_jit", "ops", D + "out = (jax.grad(lambda d: jax.ops.segment_sum(d ** 2, s, 3).sum())(d), "
  "jax.jit(jax.ops.segment_sum, static_argnums=2)(d, s, 2), jax.vmap(lambda r: jax.ops.segment_sum(r, s, 3))(jnp.stack([d, -d])))")

# ---------------------------------------------------------------- jax.test_util
C("test_util_check_grads", "test_util", "out = (jax.test_util.check_grads(lambda x: jnp.sin(x) * x ** 2, (jnp.array([0.5, 1.0]),), 2), "
  "jax.test_util.check_grads(lambda x, y: jnp.tanh(x @ y), (jnp.ones((2, 2)), jnp.arange(2.0)), 1, modes=['rev']))")
E("test_util_check_grads_fails", "test_util", "out = jax.test_util.check_grads(lambda x: lax.stop_gradient(x) * x, (jnp.array([0.5, 1.0]),), 1)",
  msg_prefix=0)

# ---------------------------------------------------------------- jax.scipy.special
SP = "sp = jax.scipy.special\nx = jnp.array([-2.5, -2.0, -0.5, 0.0, 0.5, 3.0])\n"
C("special_gamma_family", "scipy", SP + "out = (sp.gamma(x), sp.gammasgn(x), sp.loggamma(x), sp.gamma(4), sp.poch(x, 2.0), sp.poch(x, 0.0))",
  rtol=1e-5, atol=1e-5)
C("special_beta_factorial_comb", "scipy", SP + "out = (sp.beta(2.0, jnp.array([-0.5, 3.0])), sp.betaln(2.0, 3.0), "
  "sp.factorial(jnp.array([-1.0, 0.0, 3.0, 4.5])), sp.factorial(5), sp.comb(5.0, jnp.array([0.0, 2.0, 6.0, -1.0])), "
  "sp.comb(5, 2, repetition=True), sp.multigammaln(jnp.array([2.0, 3.5]), 3))", rtol=1e-5, atol=1e-5)
E("special_factorial_exact", "scipy", "out = jax.scipy.special.factorial(5, exact=True)")
C("special_entropies_boxcox", "scipy", "sp = jax.scipy.special\np = jnp.array([0.0, 1.0, 2.0, -1.0, 0.0])\nq = jnp.array([1.0, 0.0, 3.0, 1.0, -1.0])\n"
  "out = (sp.kl_div(p, q), sp.rel_entr(p, q), sp.boxcox(jnp.array([1.0, 2.0]), jnp.array([0.0, 2.0])), "
  "sp.boxcox1p(jnp.array([0.5, 1.0]), 0.0), sp.boxcox1p(jnp.array([0.5, 1.0]), -1.5))")
C("special_ndtri_log_ndtr_erfcx", "scipy", "sp = jax.scipy.special\n"
  "out = (sp.ndtri(jnp.array([0.0, 0.1, 0.5, 0.975, 1.0])), sp.log_ndtr(jnp.array([-40.0, -9.0, -5.0, 0.0, 5.0, 7.0])), "
  "sp.erfcx(jnp.array([-3.0, 0.0, 1.0, 4.0, 5.5, 10.0, 100.0])))", rtol=2e-5, atol=1e-6)
C("special_grads", "scipy", "sp = jax.scipy.special\n"
  "out = (jax.grad(sp.gamma)(2.5), jax.grad(sp.log_ndtr)(jnp.float32(-3.0)), jax.grad(lambda p: sp.kl_div(p, 0.5))(0.25), "
  "jax.vmap(jax.grad(sp.erfcx))(jnp.array([0.5, 2.0])), jax.jit(sp.betaln)(1.5, 2.5))", rtol=1e-4, atol=1e-5)

# ---------------------------------------------------------------- jax.scipy.stats
ST = "st = jax.scipy.stats\nx = jnp.array([-1.0, 0.5, 2.0])\n"
C("stats_expon_laplace", "scipy", ST + "out = (st.expon.logpdf(x), st.expon.pdf(x, 0.5, 2.0), st.expon.cdf(x), st.expon.logcdf(x), "
  "st.expon.sf(x), st.expon.logsf(x), st.expon.ppf(jnp.array([0.0, 0.5, 1.0, 1.5])), st.laplace.logpdf(x, 0.5, 2.0), "
  "st.laplace.pdf(x), st.laplace.cdf(x))")
C("stats_logistic_cauchy", "scipy", ST + "q = jnp.array([0.0, 0.25, 0.5, 1.0])\n"
  "out = (st.logistic.logpdf(x), st.logistic.pdf(x, 1.0, 2.0), st.logistic.cdf(x), st.logistic.sf(x), st.logistic.ppf(q), "
  "st.logistic.isf(q), st.cauchy.logpdf(x), st.cauchy.pdf(x, 1.0, 2.0), st.cauchy.cdf(x), st.cauchy.logcdf(x), st.cauchy.sf(x), "
  "st.cauchy.logsf(x), st.cauchy.ppf(q), st.cauchy.isf(q))", rtol=1e-5, atol=1e-5)
C("stats_uniform_bernoulli_poisson", "scipy", ST + "out = (st.uniform.logpdf(x, 0.0, 2.0), st.uniform.pdf(x), st.uniform.cdf(x, -2.0, 3.0), "
  "st.uniform.ppf(jnp.array([-0.5, 0.25, 1.0])), st.bernoulli.logpmf(jnp.array([0, 1, 2]), 0.3), st.bernoulli.pmf(jnp.array([1, 0]), 0.25), "
  "st.bernoulli.cdf(jnp.array([-1.0, 0.0, 0.5, 1.0]), 0.3), st.bernoulli.ppf(jnp.array([0.5, 0.8]), 0.3), "
  "st.poisson.logpmf(jnp.array([0, 1, 2]), 2.0), st.poisson.pmf(jnp.array([0.0, 2.5, -1.0]), 2.0))")
C("stats_t_gamma_chi2_beta", "scipy", ST + "out = (st.t.logpdf(x, 3.0), st.t.pdf(x, 5.0, 1.0, 2.0), st.gamma.logpdf(x, 2.0), st.gamma.pdf(x, 1.5, 0.0, 2.0), "
  "st.chi2.logpdf(x, 3.0), st.chi2.pdf(x, 4.0), st.beta.logpdf(jnp.array([0.2, 0.5, 1.5]), 2.0, 3.0), st.beta.pdf(jnp.array([0.25, 0.75]), 0.5, 0.5))",
  rtol=1e-5, atol=1e-5)
C("stats_multivariate_dirichlet_norm_isf", "scipy", "st = jax.scipy.stats\ncov = jnp.array([[2.0, 0.5], [0.5, 1.0]])\n"
  "out = (st.multivariate_normal.logpdf(jnp.array([[1.0, 0.0], [0.5, 0.5]]), jnp.zeros(2), cov), "
  "st.multivariate_normal.pdf(jnp.array([1.0, -1.0]), jnp.array([0.5, 0.0]), cov), st.multivariate_normal.logpdf(0.5, 0.0, 2.0), "
  "st.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), jnp.array([1.0, 2.0, 3.0])), st.dirichlet.pdf(jnp.array([0.2, 0.3]), jnp.array([1.0, 2.0, 3.0])), "
  "st.norm.isf(jnp.array([0.1, 0.5, 0.975])), "
  "jax.grad(lambda m: st.multivariate_normal.logpdf(jnp.array([1.0, 0.0]), m, cov))(jnp.ones(2)))", rtol=1e-5, atol=1e-5)

# ---------------------------------------------------------------- jax.scipy.linalg
SL = "sl = jax.scipy.linalg\na = jnp.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])\nb = jnp.array([1.0, 2.0, 3.0])\n"
G = "g = jnp.array([[1.0, 2.0, 0.5], [3.0, -1.0, 2.0], [0.0, 4.0, 1.0]])\n"
C("scipy_linalg_cholesky_cho", "scipy_linalg", SL + "out = (sl.cholesky(a), sl.cholesky(a, lower=True), sl.cho_factor(a), "
  "sl.cho_solve(sl.cho_factor(a), b), sl.cho_solve(sl.cho_factor(a, lower=True), jnp.stack([b, -b], 1)))", rtol=1e-5, atol=1e-5)
C("scipy_linalg_lu", "scipy_linalg", SL + G + "out = (sl.lu_factor(g), sl.lu(g), sl.lu(g, permute_l=True), sl.lu_solve(sl.lu_factor(g), b), "
  "sl.lu_solve(sl.lu_factor(g), b, trans=1), sl.lu(jnp.arange(6.0).reshape(2, 3)))", rtol=1e-5, atol=1e-5)
C("scipy_linalg_solvers", "scipy_linalg", SL + G + "out = (sl.solve(g, b), sl.solve(a, b, assume_a='pos'), sl.solve_triangular(g, b), "
  "sl.solve_triangular(g, b, lower=True, trans=1), sl.solve_triangular(g, b, unit_diagonal=True), sl.det(g), sl.inv(a))", rtol=1e-5, atol=1e-5)
C("scipy_linalg_decompositions", "scipy_linalg", SL + "r = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n"
  "q1, r1 = sl.qr(r)\nq2, r2 = sl.qr(r, mode='economic')\nw, v = sl.eigh(a)\nu, s, vh = sl.svd(r, full_matrices=False)\n"
  "up, pp = sl.polar(a)\n"
  "out = (jnp.abs(q1 @ r1 - r).max() < 1e-5, q2.shape, r2.shape, sl.qr(r, mode='r')[0].shape, w, jnp.abs(v.T @ a @ v - jnp.diag(w)).max() < 1e-4, "
  "s, sl.svd(r, compute_uv=False), sl.eigh(a, eigvals_only=True), up @ up.T, pp)", rtol=1e-4, atol=1e-4)
C("scipy_linalg_expm", "scipy_linalg", SL + "rot = jnp.array([[0.0, 1.0], [-1.0, 0.0]])\n"
  "out = (sl.expm(rot), sl.expm(jnp.zeros((2, 2))), sl.expm(a), jax.jit(sl.expm)(3.0 * rot), jax.grad(lambda m: sl.expm(m).sum())(rot))",
  rtol=1e-4, atol=1e-4)
C("scipy_linalg_special_matrices", "scipy_linalg", "sl = jax.scipy.linalg\n"
  "out = (sl.toeplitz(jnp.array([1, 2, 3])), sl.toeplitz(jnp.array([1.0, 2.0]), jnp.array([1.0, 5.0, 6.0])), sl.hankel(jnp.array([1, 2, 3])), "
  "sl.hankel(jnp.array([1, 2]), jnp.array([9, 8, 7])), sl.circulant(jnp.array([1, 2, 3])), sl.companion(jnp.array([1.0, 2.0, 3.0])), "
  "sl.hilbert(3), sl.block_diag(jnp.ones((1, 2)), 2 * jnp.ones((2, 1)), jnp.array(3)), sl.pascal(3), sl.pascal(4, kind='lower'), "
  "sl.hadamard(4), sl.dft(3), sl.helmert(3), sl.helmert(3, full=True), sl.leslie(jnp.array([0.1, 2.0, 1.0]), jnp.array([0.5, 0.2])))",
  rtol=1e-5, atol=1e-5)

# ---------------------------------------------------------------- jnp: more elementwise, index tricks, windows, polynomials
C("more_math_elementwise", "numpy", "x = jnp.array([-2.5, 0.0, 1.5])\nz = jnp.array([1 + 1j, -1.0, -2j])\n"
  "out = (jnp.fabs(x), jnp.angle(z), jnp.angle(z, deg=True), jnp.angle(x), jnp.gcd(jnp.array([12, -18, 0, 7]), jnp.array([8, 12, 5, 0])), "
  "jnp.lcm(jnp.array([4, -6, 0]), jnp.array([6, 4, 3])), jnp.ldexp(x, jnp.array([1, 2, -1])), jnp.frexp(jnp.array([8.0, -0.375, 0.0])), "
  "jnp.modf(jnp.array([-2.5, 3.25])), jnp.logaddexp2(jnp.array([1.0, -3.0]), 2.0), jnp.iscomplex(z), jnp.isreal(z), jnp.isreal(x), "
  "jnp.isrealobj(z), jnp.i0(jnp.array([0.0, 1.0, -2.5, 10.0, 40.0])))", rtol=1e-5, atol=1e-5)
C("nan_reductions_more", "numpy", "x = jnp.array([[1.0, jnp.nan, 3.0], [jnp.nan, jnp.nan, -1.0]])\n"
  "out = (jnp.nancumsum(x), jnp.nancumsum(x, axis=1), jnp.nancumprod(x, axis=0), jnp.nanargmax(x), jnp.nanargmin(x, axis=1), "
  "jnp.nanvar(x), jnp.nanstd(x, axis=1), jnp.nanvar(x, axis=0, ddof=1))")
C("index_tricks", "numpy", "m = jnp.arange(12).reshape(3, 4)\n"
  "out = (jnp.tril_indices(3), jnp.triu_indices(3, 1), jnp.tril_indices(3, -1, 4), jnp.triu_indices_from(m), jnp.tril_indices_from(m, 1), "
  "jnp.diag_indices(3), jnp.diag_indices_from(jnp.ones((2, 2, 2))), jnp.indices((2, 3)), jnp.indices((2, 2), sparse=True), "
  "jnp.ix_(jnp.array([0, 2]), jnp.array([1, 3])), m[jnp.ix_(jnp.array([0, 2]), jnp.array([1, 3]))], jnp.diagflat(jnp.array([[1, 2], [3, 4]])), "
  "jnp.diagflat(jnp.array([1, 2]), -1))")
C("creation_more", "numpy", "out = (jnp.geomspace(1.0, 1000.0, 4), jnp.geomspace(-1.0, -16.0, 5), jnp.vander(jnp.array([1.0, 2.0, 3.0])), "
  "jnp.vander(jnp.array([1, 2, 3]), 2, increasing=True), jnp.fromfunction(lambda i, j: i + 2 * j, (2, 3)), "
  "jnp.fromfunction(lambda i, j: i * j, (2, 2), dtype=int))", rtol=1e-5, atol=1e-5)
C("unravel_ravel_index", "numpy", "out = (jnp.unravel_index(jnp.array([5, 0, 11]), (3, 4)), jnp.unravel_index(7, (2, 4)), "
  "jnp.ravel_multi_index((jnp.array([1, 2]), jnp.array([3, 0])), (3, 4)), jnp.ravel_multi_index((jnp.array([4, -1]), jnp.array([3, 5])), (3, 4), mode='clip'), "
  "jnp.ravel_multi_index((jnp.array([4, -1]), jnp.array([3, 5])), (3, 4), mode='wrap'))")
C("ediff1d_trapezoid_digitize", "numpy", "y = jnp.array([1.0, 4.0, 9.0, 16.0])\n"
  "out = (jnp.ediff1d(y), jnp.ediff1d(y, to_begin=-1.0, to_end=jnp.array([7.0, 8.0])), jnp.trapezoid(y), jnp.trapezoid(y, dx=0.5), "
  "jnp.trapezoid(y, x=jnp.array([0.0, 1.0, 3.0, 4.0])), jnp.trapezoid(jnp.arange(6.0).reshape(2, 3), axis=0), "
  "jnp.digitize(jnp.array([0.2, 6.4, 3.0, 1.6, -1.0]), jnp.array([0.0, 1.0, 2.5, 4.0, 10.0])), "
  "jnp.digitize(jnp.array([1.0, 2.5]), jnp.array([0.0, 1.0, 2.5]), right=True))")
C("extract_compress_choose", "numpy", "a = jnp.arange(6).reshape(2, 3)\n"
  "out = (jnp.extract(a % 2 == 0, a), jnp.compress(jnp.array([True, False, True]), a, axis=1), jnp.compress(jnp.array([False, True]), a, axis=0), "
  "jnp.choose(jnp.array([0, 1, 2, 1]), [jnp.arange(4), 10 * jnp.arange(4), 100 * jnp.arange(4)]), "
  "jnp.choose(jnp.array([3, -1]), [jnp.zeros(2), jnp.ones(2)], mode='clip'), jnp.choose(jnp.array([3, -1]), [jnp.zeros(2), jnp.ones(2)], mode='wrap'), "
  "jnp.array_equiv(jnp.array([1, 2]), jnp.array([[1, 2], [1, 2]])), jnp.array_equiv(jnp.array([1, 2]), jnp.array([1, 3])), "
  "jnp.trim_zeros(jnp.array([0, 0, 1, 2, 0])), jnp.trim_zeros(jnp.array([0, 1, 0]), 'f'))")
C("windows", "numpy", "out = (jnp.hamming(5), jnp.hanning(4), jnp.blackman(6), jnp.bartlett(5), jnp.kaiser(6, 3.0), jnp.hamming(1), jnp.bartlett(0))",
  rtol=1e-5, atol=1e-5)
C("polynomials", "numpy", "p = jnp.array([1.0, -3.0, 2.0])\nq = jnp.array([2.0, 1.0])\n"
  "out = (jnp.polyval(p, jnp.array([0.0, 1.0, 3.0])), jnp.polyval(jnp.array([1, 2]), 3), jnp.polyadd(p, q), jnp.polysub(q, p), jnp.polymul(p, q), "
  "jnp.polymul(jnp.array([1, 2]), jnp.array([3, 4])), jnp.polyder(p), jnp.polyder(jnp.array([1.0, 2.0, 3.0, 4.0]), 2), jnp.polyint(p), "
  "jnp.polyint(q, 2, k=jnp.array([1.0, 2.0])), jnp.poly(jnp.array([1.0, 2.0])), jax.grad(lambda c: jnp.polyval(c, 2.0))(p))", rtol=1e-5, atol=1e-5)
E("array_equiv_incompatible", "numpy", "out = jnp.array_equiv(jnp.ones(2), jnp.ones(3))")

# ---------------------------------------------------------------- jax.image
IM = "x = jnp.arange(12.0).reshape(3, 4)\n"
C("image_resize_methods", "image", IM + "out = (jax.image.resize(x, (6, 2), 'linear'), jax.image.resize(x, (2, 5), 'nearest'), "
  "jax.image.resize(x, (5, 7), 'bicubic'), jax.image.resize(x, (2, 2), 'lanczos3'), jax.image.resize(x, (6, 8), 'lanczos5'), "
  "jax.image.resize(x, (2, 3), 'linear', antialias=False), jax.image.resize(jnp.arange(6).reshape(2, 3), (4, 3), 'bilinear'), "
  "jax.image.resize(x, (3, 4), 'cubic'), jax.image.resize(jnp.ones((1, 3, 4, 2)), (1, 6, 2, 2), jax.image.ResizeMethod.LINEAR))",
  rtol=1e-5, atol=1e-5)
C("image_scale_and_translate_grad", "image", IM + "out = (jax.image.scale_and_translate(x, (4, 4), (0, 1), jnp.array([1.5, 1.0]), jnp.array([0.5, -1.0]), 'linear'), "
  "jax.grad(lambda a: jax.image.resize(a, (5, 3), 'cubic').sum())(x), jax.jit(lambda a: jax.image.resize(a, (6, 8), 'linear'))(x))",
  rtol=1e-5, atol=1e-5)
E("image_resize_bad_method", "image", "out = jax.image.resize(jnp.ones((2, 2)), (3, 3), 'spline')")
E("image_resize_bad_rank", "image", "out = jax.image.resize(jnp.ones((2, 2)), (3,), 'linear')")

# ---------------------------------------------------------------- jax.scipy.signal / integrate
SG = "sg = jax.scipy.signal\nimg = jnp.arange(20.0).reshape(4, 5)\nk = jnp.array([[1.0, 0.0], [0.5, -1.0]])\n"
C("signal_convolve_correlate", "scipy", SG + "out = (sg.convolve(img, k), sg.convolve(img, k, mode='same'), sg.convolve(img, k, mode='valid'), "
  "sg.correlate(img, k), sg.correlate(img, k, mode='same'), sg.correlate(img, k, mode='valid'), "
  "sg.convolve(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5])), sg.correlate(jnp.array([1, 2, 3]), jnp.array([1j, 2.0]), mode='same'), "
  "sg.convolve2d(img, k, mode='same'), sg.correlate2d(img, k), sg.convolve(k, img, mode='valid'))")
C("signal_grad_detrend_trapezoid", "scipy", SG + "out = (jax.grad(lambda a: (sg.convolve2d(a, k, mode='same') ** 2).sum())(img), "
  "sg.detrend(jnp.array([1.0, 3.0, 2.0, 5.0])), sg.detrend(img, axis=0), sg.detrend(img, type='constant'), "
  "jax.scipy.integrate.trapezoid(jnp.array([1.0, 4.0, 9.0]), x=jnp.array([0.0, 1.0, 3.0])))", rtol=1e-5, atol=1e-4)
E("signal_convolve_ndim_mismatch", "scipy", "out = jax.scipy.signal.convolve(jnp.ones((2, 2)), jnp.ones(2))")

# ---------------------------------------------------------------- jnp: aliases and placement helpers
C("numpy_aliases", "numpy", "out = (jnp.single(1.5), jnp.double(2), jnp.csingle(1j), jnp.uint(3), jnp.arange(5)[jnp.s_[1:4]], "
  "jnp.arange(5)[jnp.index_exp[::2]], jnp.iterable([1]), jnp.iterable(3), issubclass(jnp.ComplexWarning, Warning))")
C("lexsort_sort_complex", "numpy", "a = jnp.array([1, 5, 1, 4, 3, 4, 4])\nb = jnp.array([9, 4, 0, 4, 0, 2, 1])\n"
  "out = (jnp.lexsort((b, a)), jnp.lexsort((a, b)), jnp.lexsort(jnp.stack([b, a])), jnp.sort_complex(jnp.array([3.0, 1.0, 2.0])), "
  "jnp.sort_complex(jnp.array([1 + 2j, 1 - 1j, -1 + 0j])))")
C("put_along_axis_fill_diagonal", "numpy", "a = jnp.arange(6.0).reshape(2, 3)\n"
  "out = (jnp.put_along_axis(a, jnp.array([[0], [2]]), 9.0, axis=1, inplace=False), "
  "jnp.put_along_axis(a, jnp.array([[1, 0, 1]]), jnp.array([[7.0, 8.0, 9.0]]), axis=0, inplace=False), "
  "jnp.fill_diagonal(jnp.zeros((3, 3)), 5.0, inplace=False), jnp.fill_diagonal(jnp.zeros((2, 3)), jnp.array([1.0, 2.0]), inplace=False))")
E("put_along_axis_inplace", "numpy", "out = jnp.put_along_axis(jnp.zeros(3), jnp.array([1]), 1.0, axis=0)")
C("dsplit_resize_apply", "numpy", "x = jnp.arange(12.0).reshape(2, 3, 2)\n"
  "out = (jnp.dsplit(x, 2), jnp.resize(jnp.arange(3), (2, 4)), jnp.resize(jnp.arange(4), 3), "
  "jnp.apply_along_axis(jnp.sum, 1, x), jnp.apply_along_axis(lambda v: v * v[0], 0, x), jnp.apply_along_axis(lambda v: jnp.outer(v, v), 2, x).shape, "
  "jnp.apply_over_axes(jnp.sum, x, [0, 2]))")
C("stats_binom", "scipy", "st = jax.scipy.stats\nk = jnp.array([0.0, 1.0, 3.0, 5.0, 6.0, -1.0])\n"
  "out = (st.binom.logpmf(k, 5.0, jnp.float32(0.3)), st.binom.pmf(k, 5.0, jnp.float32(0.5)), st.binom.pmf(k, jnp.float32(5.0), jnp.float32(0.25), loc=1.0))",
  rtol=1e-5, atol=1e-6)
