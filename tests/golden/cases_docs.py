"""Case definitions for docs_cases.json: functions whose docstring examples (tools/doc_examples.py)
differed from real JAX 0.10.2, each with the docstring's call and a neighbour case or two."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- sinc
# JAX evaluates sinc at 0 through a custom_jvp Taylor series: every derivative there is exact.
C("docs_sinc_higher_grads_at_zero", "docs", """
    f, out = jnp.sinc, []
    for i in range(5):
        f = jax.grad(f)
        out.append(f(0.0))
    out = tuple(out)
""")
C("docs_sinc_values_and_grad", "docs",
  "out = (jnp.sinc(jnp.array([0., .5, 1., -2.5])), jax.grad(jnp.sinc)(0.5), jnp.sinc(3), jnp.sinc(jnp.array([0, 1], jnp.int32)))")
C("docs_sinc_jit_vmap_hessian", "docs",
  "out = (jax.jit(jax.grad(jax.grad(jnp.sinc)))(0.0), jax.vmap(jax.grad(jax.grad(jnp.sinc)))(jnp.array([0., 0.5, -1.])))")
# grad of an already-jitted sinc: the Taylor term must survive staging (a custom_jvp_call)
C("docs_sinc_grads_of_jit", "docs", """
    g, out = jax.jit(jnp.sinc), []
    for i in range(4):
        g = jax.grad(g)
        out.append(g(0.0))
    out = tuple(out)
""")

# ---------------------------------------------------------------- bincount
# JAX clips negative values into bin 0 and drops values past `length`; the default weight is int32.
C("docs_bincount_negative_and_length", "docs",
  "x = jnp.array([-1, 0, 1, 3, 3, 7])\nout = (jnp.bincount(x, length=5), jnp.bincount(x), jnp.bincount(jnp.array([-3, -1])))")
C("docs_bincount_dtypes", "docs",
  "out = (jnp.bincount(jnp.array([1, 2, 3], jnp.uint8)), jnp.bincount(jnp.array([True, False, True])), "
  "jnp.bincount(jnp.array([-1, 2]), weights=jnp.array([0.5, 2.0]), minlength=4), jnp.bincount(jnp.array([], jnp.int32), minlength=3))")
C("docs_bincount_jit", "docs",
  "out = jax.jit(jnp.bincount, static_argnames='length')(jnp.array([-2, 0, 1, 5]), length=4)")
E("docs_bincount_float_input", "docs", "out = jnp.bincount(jnp.array([1.0]))")
E("docs_bincount_2d_input", "docs", "out = jnp.bincount(jnp.ones((2, 2), int))")

# ---------------------------------------------------------------- digitize
# JAX tells decreasing bins by their ends (bins[-1] < bins[0]) and searches the reversed bins.
C("docs_digitize_decreasing", "docs",
  "x = jnp.array([1.0, 2.0, 2.5, 1.5, 3.0, 3.5])\nb = jnp.array([3, 2, 1])\n"
  "out = (jnp.digitize(x, b), jnp.digitize(x, b, right=True), jnp.digitize(x, b[::-1]), jnp.digitize(x, b[::-1], right=True))")
C("docs_digitize_jit_and_scalar", "docs",
  "out = (jax.jit(jnp.digitize)(jnp.array([0.5, 2.0, 9.0]), jnp.array([3., 2., 1.])), jnp.digitize(2.0, jnp.array([1, 2, 3])), "
  "jnp.digitize(jnp.array([1, 5]), jnp.array([4, 4, 0])), jnp.digitize(jnp.arange(3), jnp.array([], jnp.int32)))")

# ---------------------------------------------------------------- nanvar / nanstd (where=, mean=)
NANX = ("x = jnp.array([[1, 3, 4, 2], [5, 2, jnp.nan, 4], [8, 1, 2, jnp.nan]])\n"
        "w = jnp.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 1]], dtype=bool)\n")
C("docs_nanvar_nanstd_where", "docs", NANX +
  "out = (jnp.nanvar(x, axis=0, keepdims=True, where=w), jnp.nanstd(x, axis=0, keepdims=True, where=w), "
  "jnp.nanvar(x, where=w), jnp.nanvar(x, axis=1, where=w, ddof=1), jnp.nanvar(jnp.arange(4), where=jnp.array([1, 0, 1, 1], bool)))")
C("docs_nanvar_where_jit_grad", "docs", NANX +
  "out = (jax.jit(jnp.nanvar)(x, where=w), jax.grad(lambda x: jnp.nanvar(x, where=w))(x), jax.grad(lambda x: jnp.nanstd(x, axis=0, where=w).sum())(x))")
C("docs_nanvar_mean_arg", "docs", NANX +
  "out = (jnp.nanvar(x, axis=0, mean=jnp.nanmean(x, axis=0, keepdims=True)), jnp.nanstd(x, axis=1, where=w, mean=jnp.zeros((3, 1))))")
C("docs_nanmean_nansum_where", "docs", NANX +
  "out = (jnp.nanmean(x, axis=0, where=w), jnp.nansum(x, axis=0, where=w), jnp.nanmean(x, where=w), jnp.nanmean(jnp.arange(4), where=jnp.array([1, 0, 1, 1], bool)))")

# ---------------------------------------------------------------- interp (period=, 'extrapolate')
IPX = ("x = jnp.array([-5., -1., 0., 0.5, 2.5, 3., 7.5, 12.])\nxp = jnp.array([3., 0., 1., 2.])\n"
       "fp = jnp.array([1., 4., 2., 0.])\nxs = jnp.array([0., 1., 2., 3.])\n")
C("docs_interp_period", "docs", IPX +
  "out = (jnp.interp(x, xp, fp, period=4), jnp.interp(x, xp, fp, period=-4.), jax.jit(jnp.interp)(x, xp, fp, period=jnp.float32(4)), "
  "jax.grad(lambda x: jnp.interp(x, xp, fp, period=4.).sum())(x))")
C("docs_interp_extrapolate_and_repeats", "docs", IPX +
  "out = (jnp.interp(x, xs, fp, left=-1, right='extrapolate'), jnp.interp(x, xs, fp, left='extrapolate'), "
  "jnp.interp(jnp.array([1, 2]), jnp.array([0, 1, 1, 2]), jnp.array([0., 1., 5., 6.])), "
  "jax.grad(lambda f: jnp.interp(1.0, jnp.array([0., 1., 1., 2.]), f))(jnp.array([0., 1., 5., 6.])), jnp.interp(2, jnp.array([1, 3]), jnp.array([10, 20])))")
E("docs_interp_bad_left", "docs", IPX + "out = jnp.interp(x, xs, fp, left='bad')")
E("docs_interp_shape_mismatch", "docs", IPX + "out = jnp.interp(x, xs, fp[:3])")

# ---------------------------------------------------------------- sort_complex
# JAX sorts along the last axis (numpy sorts along the first) and casts to the canonical complex type.
C("docs_sort_complex_last_axis", "docs",
  "out = (jnp.sort_complex(jnp.array([[3, 1+2j, 1-1j], [2j, -1, 0]])), jnp.sort_complex(jnp.array([[3., 1., 2.], [0., 5., -1.]])), "
  "jax.jit(jnp.sort_complex)(jnp.array([[2., 1.], [0., -3.]])))")
C("docs_sort_complex_dtypes", "docs",
  "out = (jnp.sort_complex(jnp.array([3, 1, 2], jnp.int8)), jnp.sort_complex(jnp.array([3, 1, 2], jnp.int32)), "
  "jnp.sort_complex(jnp.array([1., 0.], jnp.float16)), jnp.sort_complex(jnp.array([True, False])))")
E("docs_sort_complex_scalar", "docs", "out = jnp.sort_complex(3.0)")
E("docs_sort_complex_list", "docs", "out = jnp.sort_complex([2, 1])")

# ---------------------------------------------------------------- trim_zeros (2-D, axis=)
TZX = "x = jnp.array([[0, 0, 0, 0], [0, 1, 2, 0], [0, 3, 0, 0], [0, 0, 0, 0]])\n"
C("docs_trim_zeros_2d_axis", "docs", TZX +
  "out = (jnp.trim_zeros(x), jnp.trim_zeros(x, axis=0), jnp.trim_zeros(x, axis=1), jnp.trim_zeros(x, 'f', axis=-1), jnp.trim_zeros(x, 'b', axis=(0, 1)))")
C("docs_trim_zeros_1d_and_edges", "docs",
  "out = (jnp.trim_zeros(jnp.array([0., 0., 2., 0., 3., 0.])), jnp.trim_zeros(jnp.array([0, 0, 2, 0]), 'F'), "
  "jnp.trim_zeros(jnp.zeros((2, 3))), jnp.trim_zeros(jnp.array([0, 1, 0]), ''))")
E("docs_trim_zeros_repeated_axis", "docs", TZX + "out = jnp.trim_zeros(x, axis=(0, 0))")
E("docs_trim_zeros_under_jit", "docs", TZX + "out = jax.jit(jnp.trim_zeros)(x)", msg_prefix=0)

# ---------------------------------------------------------------- scipy.linalg.toeplitz (batches)
# JAX vectorizes toeplitz over leading axes ("(m),(n)->(m,n)"); it never ravels c.
C("docs_toeplitz_batch", "docs",
  "L = jax.scipy.linalg\nout = (L.toeplitz(jnp.array([[1, 2, 3], [4, 5, 6]])), L.toeplitz(jnp.array([[1., 2.], [3., 4.]]), jnp.array([1, 7, 8])), "
  "L.toeplitz(jnp.array([1., 2.]), jnp.ones((3, 2))), jax.jit(L.toeplitz)(jnp.arange(6.).reshape(2, 3)))")
C("docs_toeplitz_1d_dtypes_grad", "docs",
  "L = jax.scipy.linalg\nout = (L.toeplitz(jnp.array([1, 2, 3]), jnp.array([1, 4, 5, 6])), L.toeplitz(jnp.array([1+1j, 2])), L.toeplitz(3), "
  "L.toeplitz(jnp.array([], jnp.float32), jnp.array([1, 2])), jax.grad(lambda c: L.toeplitz(c).sum())(jnp.array([1., 2., 3.])))")
E("docs_toeplitz_list", "docs", "out = jax.scipy.linalg.toeplitz([1, 2])")

# ---------------------------------------------------------------- scipy.signal.correlate2d
# JAX's 'same' window of the full correlation starts at ceil((full - n) / 2); a smaller in1 is swapped.
C2X = ("S = jax.scipy.signal\nx = jnp.arange(20.).reshape(4, 5) * 1.5 - 3\nk = jnp.array([[1., -1.], [0., 2.]])\n"
       "z = jnp.array([[1+2j, 3], [0, 1j]])\nw = jnp.array([[1j, 2, 1], [1, 0, -1j], [2, 1, 1]])\n")
C("docs_correlate2d_same", "docs", C2X +
  "out = (S.correlate2d(x, k, 'same'), S.correlate2d(x, jnp.ones((3, 2)), 'same'), S.correlate2d(k, x, 'same'), "
  "S.correlate2d(jnp.arange(9).reshape(3, 3), jnp.ones((2, 2), int), 'same'), S.correlate2d(w, z, 'same'), S.correlate2d(z, w, 'same'))")
C("docs_correlate2d_swapped_complex", "docs", C2X +
  "out = (S.correlate2d(z, w, 'full'), S.correlate2d(z, w, 'valid'), S.correlate2d(w, z, 'full'), S.correlate2d(w, z, 'valid'), "
  "S.correlate2d(k, x), S.correlate2d(k, x, 'valid'))", atol=1e-5)
C("docs_correlate2d_jit_grad", "docs", C2X +
  "out = (jax.jit(S.correlate2d, static_argnames='mode')(x, k, mode='same'), jax.grad(lambda x: (S.correlate2d(x, k, 'same') ** 2).sum())(x))", rtol=1e-4)
E("docs_correlate2d_shapes_not_nested", "docs", "out = jax.scipy.signal.correlate2d(jnp.ones((3, 2)), jnp.ones((2, 3)), 'same')")
E("docs_convolve_shapes_not_nested", "docs", "out = jax.scipy.signal.convolve(jnp.ones((3, 2)), jnp.ones((2, 3)))")

# ---------------------------------------------------------------- polymul / polyder / polyadd / polysub
C("docs_polymul_trim_leading_zeros", "docs",
  "out = (jnp.polymul(jnp.array([0, 0, 1, 2]), jnp.array([0, 3, 4]), trim_leading_zeros=True), jnp.polymul(jnp.array([0, 0, 1, 2]), jnp.array([0, 3, 4])), "
  "jnp.polymul(jnp.array([0, 0]), jnp.array([0, 1.]), trim_leading_zeros=True), jnp.polymul(jnp.array([1, 2], jnp.int8), jnp.array([1, 1], jnp.int8)))")
C("docs_polyder_float_result", "docs",
  "out = (jnp.polyder(jnp.array([1, -2, 3, 4])), jnp.polyder(jnp.array([1, -2, 3, 4]), 2), jnp.polyder(jnp.array([1., 2.]), 5), "
  "jnp.polyder(jnp.array([1., 2.]), 0), jnp.polyder(jnp.array([1, 2], jnp.int16)), jax.grad(lambda p: jnp.polyder(p, 2).sum())(jnp.array([1., 2., 3., 4.])))")
C("docs_polyadd_polysub_2d", "docs",
  "a, b = jnp.array([[1, 2], [3, 4]]), jnp.array([[5, 6], [7, 8], [9, 10]])\n"
  "out = (jnp.polyadd(a, b), jnp.polysub(a, b), jnp.polysub(b, a), "
  "jnp.polyadd(jnp.array([1, 2, 3]), jnp.array([4., 5.])), jax.jit(jnp.polysub)(jnp.ones(3), jnp.ones(2)))")
E("docs_polyder_negative_order", "docs", "out = jnp.polyder(jnp.array([1., 2., 3.]), -1)")
E("docs_polyadd_rank_mismatch", "docs", "out = jnp.polyadd(jnp.array([[1, 2]]), jnp.array([3, 4]))")
E("docs_polyadd_list", "docs", "out = jnp.polyadd([1, 2], [3])")

# ---------------------------------------------------------------- extract / compress (size=, fill_value=)
EXX = "x = jnp.arange(12).reshape(3, 4)\nc = (x % 3) == 0\n"
C("docs_extract_size_fill", "docs", EXX +
  "out = (jnp.extract(c, x), jnp.extract(c, x, size=6, fill_value=-1), jnp.extract(c, x, size=2), "
  "jax.jit(jnp.extract, static_argnames='size')(c, x, size=5), jnp.extract(c, x * 1.5, size=6, fill_value=jnp.nan), "
  "jnp.extract(jnp.array([1, 0, 1, 1, 0, 0]), jnp.arange(4.)), jnp.extract(jnp.array([1, 0]), jnp.arange(4.)))")
E("docs_extract_condition_too_long", "docs", "out = jnp.extract(jnp.array([1, 0, 1, 1, 0, 1]), jnp.arange(4.))")
C("docs_compress_size_and_grad", "docs", EXX +
  "out = (jnp.compress(jnp.array([0, 1, 1]), x, axis=0), jnp.compress(jnp.array([0, 1, 1]), x, axis=1, size=3, fill_value=9), "
  "jnp.compress(jnp.array([1, 0, 1, 0, 0]), x, axis=1), jax.grad(lambda x: jnp.extract(x > 0.5, x, size=3).sum())(jnp.array([0., 1., 2., 0.2])))")
E("docs_extract_size_too_big", "docs", EXX + "out = jnp.extract(c, x, size=13)")
E("docs_compress_out_of_bounds", "docs", EXX + "out = jnp.compress(jnp.array([1, 0, 1, 0, 0, 1]), x, axis=1)")
E("docs_extract_list", "docs", EXX + "out = jnp.extract([True], x)")

# ---------------------------------------------------------------- isscalar
# JAX counts every 0-d array as a scalar, a 0-d numpy array included (numpy's isscalar does not).
C("docs_isscalar_0d_arrays", "docs",
  "out = (jnp.isscalar(np.array(1.0)), jnp.isscalar(np.array([1.0])), jnp.isscalar(jnp.array(1)), jnp.isscalar(1), jnp.isscalar([1]), "
  "jnp.isscalar('a'), jnp.isscalar(np.float32(2)), jnp.isscalar(jnp.ones(2)), jnp.isscalar(None))")

# ---------------------------------------------------------------- weak types: float_power, heaviside, isinf family, lax.empty
C("docs_weak_float_power", "docs",
  "out = (jnp.float_power(2, 3), jnp.float_power(-3, 1.7), jnp.float_power(jnp.array([1, 2]), 2), jnp.float_power(2.0, jnp.array([1., 2.])), jax.grad(jnp.float_power)(2., 3.))")
C("docs_weak_heaviside", "docs",
  "x1 = jnp.array([[-2, 0, 3], [5, -1, 0], [0, 7, -3]])\n"
  "out = (jnp.heaviside(x1, 0.5), jnp.heaviside(x1, jnp.array([2, 0.5, 1])), jnp.heaviside(jnp.float32(0), 0.5), jnp.heaviside(0., jnp.float32(0.5)), "
  "jnp.heaviside(jnp.asarray(0.), 0.5), jnp.heaviside(0, 0.5), jax.jit(jnp.heaviside)(0., 0.5))")
C("docs_weak_isinf_family", "docs",
  "out = (jnp.isinf(jnp.inf), jnp.isinf(5), jnp.isinf(5.0), jnp.isneginf(jnp.inf), jnp.isposinf(5), jnp.isneginf(5), jnp.isposinf(-jnp.inf), "
  "jnp.isneginf(jnp.array([-jnp.inf, 1.])), jnp.isposinf(jnp.array([1, 2])), jax.jit(jnp.isinf)(2.0), jax.jit(jnp.isposinf)(jnp.inf))")
E("docs_isposinf_complex", "docs", "out = jnp.isposinf(1 + 1j)")
C("docs_weak_lax_empty", "docs", "out = (lax.empty(3, jnp.float32), lax.empty((2, 2), jnp.int32), jax.jit(lambda: lax.empty((2,), jnp.float32))())")

# ---------------------------------------------------------------- fromfunction, full_like, argwhere, size
# JAX's fromfunction vmaps f over scalar coordinates (one vmap per axis); f never sees index grids.
C("docs_fromfunction_vmapped", "docs",
  "def f(x):\n    return (x + 1) * jnp.arange(3)\n"
  "out = (jnp.fromfunction(f, shape=(2,)), jnp.fromfunction(lambda x, y: x * 10 + y, (2, 3)), jnp.fromfunction(lambda x, y: x * 10 + y, (2, 3), dtype=int), "
  "jnp.fromfunction(lambda i, j: i == j, (3, 3)), jnp.fromfunction(lambda x, y: jnp.array(x.shape + y.shape), (2, 3)))")
C("docs_full_like_array_fill", "docs",
  "x = jnp.arange(6).reshape(2, 3)\n"
  "out = (jnp.full_like(x, fill_value=jnp.array([[1], [2]])), jnp.full_like(x, jnp.array([1.5, 2, 3])), "
  "jnp.full_like(x, jnp.array([1, 2]), shape=(3, 2), dtype=float), jnp.full_like(x, 7))")
C("docs_argwhere_0d", "docs",
  "out = (jnp.argwhere(1), jnp.argwhere(0), jnp.argwhere(1, size=2), jnp.argwhere(jnp.array([0, 3, 0, 4])))")
C("docs_size_tuple_axis", "docs",
  "y = jnp.ones((2, 3))\nout = (jnp.size(y, axis=(1,)), jnp.size(y, axis=(0, 1)), jnp.size(y, axis=-1), jnp.size(y))")
E("docs_size_repeated_axis", "docs", "out = jnp.size(jnp.ones((2, 3)), axis=(0, 0))")

# ---------------------------------------------------------------- piecewise
# JAX counts conditions along condlist's first axis even when condlist is one array (numpy would wrap it).
C("docs_piecewise_condlist_array", "docs",
  "x = jnp.arange(-4, 5)\n"
  "out = (jnp.piecewise(x, jnp.array([False, True, False]), [lambda x: x * 0, lambda x: x * 10, lambda x: x * 100]), "
  "jnp.piecewise(x, [x < 0, x > 2], [lambda x: -x, lambda x: x * 2, 7]), jnp.piecewise(x, [x < 0, x < -2], [1, 2]), "
  "jnp.piecewise(x * 1.0, jnp.array([x < 0, x > 0]), [-1., 1.]), jnp.piecewise(x, jnp.array([True, False]), [1, 2]), "
  "jax.grad(lambda t: jnp.piecewise(t, [t < 0, t >= 0], [lambda t: t ** 2, lambda t: 3 * t]))(-2.0))")
E("docs_piecewise_too_many_functions", "docs", "x = jnp.arange(3)\nout = jnp.piecewise(x, [x < 0], [1, 2, 3])")
