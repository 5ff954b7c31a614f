"""Case definitions for engine13_cases.json (stop 41, issues 24 and 26 item 6): the sign of zero in
max/min (XLA orders -0.0 below +0.0), jnp.fmax/fmin as JAX writes them, numpy RuntimeWarnings JAX
does not give, and jvp/grad jaxpr text."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()
CPU = on_cpu(C)   # (XLA CPU's semantics: the WebGPU backend's WGSL max/min and dots keep their own, see docs/lib_tests.md)

# ---- signed zeros: XLA's max(0.0, -0.0) is 0.0 and min(0.0, -0.0) is -0.0 in either order (numpy
# takes the second operand on a tie); bits shown as strings, since 0.0 == -0.0 compares equal
_SZ = """
bits = lambda v: [str(e) for e in np.ravel(np.asarray(v))]
p, n = jnp.float32(0.0), jnp.float32(-0.0)
a = jnp.array([0.0, -0.0, -0.0, 3.0, -0.0, 0.0])
b = jnp.array([-0.0, 0.0, -0.0, -0.0, -2.0, -2.0])
"""
CPU("engine13_max_min_signed_zero_eager", "numpy", _SZ + """
out = [bits(f(x, y)) for f in (jnp.maximum, jnp.minimum, lax.max, lax.min)
       for x, y in ((p, n), (n, p), (0.0, -0.0), (-0.0, 0.0), (a, b), (b, a))]
""")
CPU("engine13_max_min_signed_zero_jit", "numpy", _SZ + """
g = jax.jit(lambda x, y: (jnp.maximum(x, y), jnp.minimum(x, y), jnp.maximum(x * 1.0, y * 1.0) + 0.0 * x,
                          jnp.minimum(x - 0.0, y - 0.0)))
out = [bits(r) for x, y in ((p, n), (n, p), (n, n), (p, p), (a, b), (b, a)) for r in g(x, y)]
""")
CPU("engine13_max_min_reductions_signed_zero", "numpy", _SZ + """
m = jnp.array([[0.0, -0.0, -0.0], [-0.0, -0.0, -0.0], [-0.0, -1.0, 0.0], [0.0, 0.0, 0.0]])
fs = [jnp.max, jnp.min, lambda v: jnp.max(v, axis=0), lambda v: jnp.max(v, axis=1), lambda v: jnp.min(v, axis=1),
      jnp.nanmax, lambda v: jnp.nanmin(v, axis=0), jnp.amax]
out = ([bits(f(m)) for f in fs], [bits(jax.jit(f)(m)) for f in fs],
       [bits(f(jnp.array([-0.0, -0.0, 0.0, -0.0]))) for f in (jnp.max, jnp.min)])
""")
CPU("engine13_cummax_clip_relu_signed_zero", "numpy", _SZ + """
c = jnp.array([-0.0, 0.0, -0.0, -1.0, 0.0])
out = (bits(lax.cummax(c)), bits(lax.cummin(c)), bits(lax.cummax(c, reverse=True)), bits(lax.cummin(-c, reverse=True)),
       bits(jax.jit(lax.cummax)(c)), bits(jnp.clip(c, 0.0, 1.0)), bits(jnp.clip(-c, -1.0, -0.0)),
       bits(jax.nn.relu(c)), bits(jax.jit(jax.nn.relu)(c)), bits(jax.vmap(jnp.maximum)(a, b)),
       bits(jnp.clip(jnp.float32(-0.0), 0.0)))
""")
C("engine13_max_grad_ties", "numpy", _SZ + """
out = [jax.grad(f, argnums=(0, 1))(x, y) for f in (jnp.maximum, jnp.minimum, lax.max)
       for x, y in ((0.0, -0.0), (-0.0, 0.0), (1.0, 1.0), (2.0, 1.0))]
""")
C("engine13_fmax_fmin_ties_and_nans", "numpy", _SZ + """
q = jnp.array([jnp.nan, 1.0, jnp.nan, -0.0, 0.0, 2.0])
r = jnp.array([1.0, jnp.nan, jnp.nan, 0.0, -0.0, 2.0])
out = ([bits(f(x, y)) for f in (jnp.fmax, jnp.fmin) for x, y in ((p, n), (n, p), (q, r), (r, q))],
       [jax.grad(f, argnums=(0, 1))(x, y) for f in (jnp.fmax, jnp.fmin) for x, y in ((0.0, -0.0), (1.0, 1.0), (1.0, 2.0))],
       jnp.fmax(3, 7), jnp.fmax(5, jnp.array([1, 7, 9, 4])), jnp.fmin(jnp.array([1, 7]), 2.5),
       bits(jax.jit(jnp.fmax)(q, r)))
""")
C("engine13_fmax_fmin_jaxpr", "jaxpr", """
out = (str(jax.make_jaxpr(jnp.fmax)(1.0, 2.0)), str(jax.make_jaxpr(jnp.fmin)(jnp.ones(3), 2)))
""")

# ---- numpy RuntimeWarnings JAX does not give: under np.errstate(...='raise') a leaking numpy
# warning raises FloatingPointError (XLA overflows to inf and makes NaNs without a word)
_BAD = """
big = jnp.array([[3e38, -3e38], [1e30, 2e30]], jnp.float32)
infs = jnp.array([[jnp.inf, 1.0], [0.0, -jnp.inf]], jnp.float32)
nans = jnp.array([[jnp.nan, 1.0], [0.0, 2.0]], jnp.float32)
tiny = jnp.array([[1e-45, -1e-45], [1e-38, 0.0]], jnp.float32)
"""
CPU("engine13_dot_overflow_silent", "numpy", _BAD + """
with np.errstate(over='raise', invalid='raise', divide='raise'):
    out = [(jnp.dot(v, v), v @ v, jnp.einsum('ij,jk->ik', v, v), jnp.inner(v, v), jnp.tensordot(v, v), jnp.vdot(v, v),
            jax.vmap(lambda m: m @ m)(v), jnp.linalg.matrix_power(v, 3), jnp.convolve(v[0], v[1]), jnp.correlate(v[0], v[1]))
           for v in (big, infs, nans)]
""")
C("engine13_expm_nonfinite", "numpy", _BAD + """
with np.errstate(over='raise', invalid='raise', divide='raise'):
    out = [(jax.scipy.linalg.expm(v), jax.jit(jax.scipy.linalg.expm)(v)) for v in (big, infs, nans)]
""")
C("engine13_triangular_solve_denormal_diagonal_silent", "numpy", """
t = jnp.array([[1e-45, 1.0], [0.0, 2.0]], jnp.float32)
b = jnp.array([[1.0, 0.0], [2.0, 1e-45]], jnp.float32)
with np.errstate(over='raise', invalid='raise', divide='raise'):
    out = (jax.scipy.linalg.solve_triangular(t, b), jax.scipy.linalg.solve_triangular(t, b, trans=1))
""")
E("engine13_matrix_power_1d_error", "numpy", "out = jnp.linalg.matrix_power(jnp.ones(3), 2)")
E("engine13_matrix_power_nonsquare_error", "numpy", "out = jnp.linalg.matrix_power(jnp.ones((2, 3)), 2)")
# ---- svd of a NaN matrix and eig of an inf or NaN one: NaN results, as JAX's LAPACK gives (numpy
# raised LinAlgError: "SVD did not converge", "Array must not contain infs or NaNs"); batches keep
# their finite members; cond of an inf matrix is NaN for p=None (JAX returns the ratio as it is)
C("engine13_svd_eig_nonfinite_nan", "numpy", _BAD + """
batch = jnp.stack([jnp.eye(2), nans, 2 * jnp.eye(2)])
out = (jnp.linalg.svd(nans), jnp.linalg.svd(batch, compute_uv=False), jax.jit(jnp.linalg.svd)(nans),
       jnp.linalg.pinv(nans), jnp.linalg.lstsq(nans, nans), jnp.linalg.matrix_rank(nans), jnp.linalg.norm(nans, 2),
       jnp.linalg.eigvals(nans), jnp.linalg.eig(infs), jax.vmap(jnp.linalg.eigvals)(batch), jax.scipy.linalg.sqrtm(infs),
       jnp.linalg.cond(nans), jnp.linalg.cond(infs), jnp.linalg.cond(infs, -2), jnp.linalg.cond(jnp.array([[1.0, 2.0], [0.0, 0.0]])),
       jnp.linalg.cond(nans, 1))
""")
E("engine13_cond_1d_error", "numpy", "out = jnp.linalg.cond(jnp.ones(3))")
E("engine13_cond_nonsquare_p1_error", "numpy", "out = jnp.linalg.cond(jnp.ones((2, 3)), 1)")

# ---- found by a sweep of jnp/scipy.special/nn over inf/nan/0/huge inputs with warnings as errors
C("engine13_scatter_add_inf_silent", "numpy", """
x = jnp.array([jnp.inf, -jnp.inf, jnp.nan, 0.0, 3e38], jnp.float32)
with np.errstate(over='raise', invalid='raise', divide='raise'):
    out = (jnp.polysub(x, x), jnp.polyadd(x, x[:3]), x.at[jnp.array([0, 1, 4])].add(jnp.array([-jnp.inf, jnp.inf, 3e38])),
           x.at[jnp.array([0, 0])].multiply(0.0))
""")
E("engine13_take_float_indices_error", "numpy", "out = jnp.take(jnp.ones(3), jnp.array([0.5, 1.0]))")
E("engine13_take_float_indices_error_jit", "numpy", "out = jax.jit(jnp.take)(jnp.ones(3), jnp.array([0.5, 1.0]))")
E("engine13_gather_float_indices_error", "lax", """
dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
out = lax.gather(jnp.ones(3), jnp.array([[1.0]]), dn, (1,))
""")
C("engine13_lexsort_0d_keys", "numpy", """
out = (jnp.lexsort(jnp.array([3, 1, 2])), jnp.lexsort([jnp.array(3), jnp.array(1)]), jnp.lexsort(jnp.array([[3, 1, 2], [1, 1, 0]])))
""")
E("engine13_lexsort_shapes_error", "numpy", "out = jnp.lexsort([jnp.ones(3), jnp.ones(2)])")

# ---- jvp/grad jaxprs of learner programs: (1) select_n's jvp makes JAX's one full_like(0) of the
# first nonzero tangent (an unused `broadcast_in_dim 0.0` when every case has a tangent);
# (2) convert_element_type of a constant made while tracing folds into a literal (JAX's constant
# folding: a weak Python-float input's tangent `1.0` cast to strong f32 prints `mul 1.0:f32[] 2.0:f32[]`)
C("engine13_jaxpr_jvp_where_zero_tangent", "jaxpr", """
lrelu = lambda x: jnp.where(x > 0, x, 0.1 * x)
relu0 = lambda x: jnp.where(x > 0, x, 0.0)
v = jnp.arange(3.0)
out = (str(jax.make_jaxpr(lambda v: jax.jvp(lrelu, (v,), (jnp.ones_like(v),)))(v)),
       str(jax.make_jaxpr(lambda v: jax.jvp(relu0, (v,), (jnp.ones_like(v),)))(v)),
       str(jax.make_jaxpr(jax.grad(lambda v: jnp.sum(lrelu(v))))(v)),
       str(jax.make_jaxpr(lambda v: jax.jvp(lrelu, (v,), (v,)))(1.5)))
""")
C("engine13_jaxpr_jvp_astype_weak_constant_folds", "jaxpr", """
f = lambda x: x.astype(jnp.float32) * 2
g = lambda x: jnp.float32(x) + jnp.asarray(1, jnp.float32) * x
out = (str(jax.make_jaxpr(lambda v: jax.jvp(f, (v,), (jnp.ones_like(v),)))(1.5)),
       str(jax.make_jaxpr(lambda v: jax.jvp(f, (v,), (1.0,)))(1.5)),
       str(jax.make_jaxpr(lambda v: jax.linearize(f, v)[1](jnp.ones_like(v)))(1.5)),
       str(jax.make_jaxpr(lambda v: jax.jvp(g, (v,), (jnp.ones_like(v),)))(2.0)),
       str(jax.make_jaxpr(lambda v: jnp.asarray(3, jnp.float32) * v + jnp.int32(2).astype(jnp.float32))(1.0)))
""")
C("engine13_jaxpr_jvp_learner_programs", "jaxpr", """
progs = [lambda x: x * 2, lambda x: 3 * x ** 3 - 2 * x + 1, lambda x: jnp.exp(-x / 2.0), lambda x: jnp.tanh(x) * 0.5 + 0.5,
         lambda x: jnp.maximum(x, 0), lambda x: jnp.sqrt(jnp.sum(x * x))]
out = [str(jax.make_jaxpr(lambda v: jax.jvp(p, (v,), (jnp.ones_like(v),)))(x)) for p in progs for x in (1.5, jnp.arange(3.0))]
""")
# ---- a typed PRNG key in jvp/grad/vjp: its tangent and cotangent are float0, as JAX's
_K = """
k = jax.random.key(0)
f = lambda x, k: (x * 2, jax.random.split(k))
"""
E("engine13_jvp_key_tangent_error", "transforms", _K + "out = jax.jvp(lambda k: jax.random.normal(k), (k,), (k,))")
E("engine13_jvp_key_float_tangent_error", "transforms", _K + "out = jax.jvp(lambda k: jax.random.normal(k), (k,), (jnp.ones(()),))")
E("engine13_jvp_mixed_key_tangent_error", "transforms", _K + "out = jax.jvp(lambda x, k: x * jax.random.normal(k), (1.0, k), (1.0, k))")
E("engine13_grad_key_error", "transforms", _K + "out = jax.grad(lambda k: jax.random.normal(k))(k)")
CPU("engine13_key_float0_tangents", "transforms", _K + """
z0 = np.zeros((), jax.dtypes.float0)
p, t = jax.jvp(f, (1.0, k), (1.0, z0))
ct = jax.vjp(f, 1.0, k)[1]((1.0, np.zeros((2,), jax.dtypes.float0)))
gi = jax.grad(lambda x, k: x * jax.random.normal(k), argnums=(0, 1), allow_int=True)(1.0, k)
out = (t[0], str(t[1].dtype), t[1].shape, ct[0], str(ct[1].dtype), ct[1].shape, gi[0], str(gi[1].dtype),
       jax.jvp(lambda k: jax.random.normal(k), (k,), (z0,)), jax.vjp(lambda k: jax.random.normal(k), k)[1](1.0)[0].dtype == jax.dtypes.float0,
       str(jax.make_jaxpr(lambda x: jax.jvp(f, (x, k), (1.0, z0)))(1.0)))
""")
C("engine13_jaxpr_jvp_pow", "jaxpr", """
p = lambda x, y: x ** y
out = (str(jax.make_jaxpr(lambda a, b: jax.jvp(p, (a, b), (1.0, 1.0)))(1.5, 2.5)),
       str(jax.make_jaxpr(lambda a, b: jax.jvp(p, (a, b), (jnp.ones(3), jnp.ones(3))))(jnp.arange(3.0), jnp.ones(3))),
       str(jax.make_jaxpr(jax.grad(lambda a, b: jnp.sum(p(a, b)), argnums=(0, 1)))(jnp.arange(3.0), 2.0)),
       str(jax.make_jaxpr(lambda a: jax.jvp(lambda x: x ** 3, (a,), (jnp.ones(3),)))(jnp.arange(3.0))))
""")

# ---- jnp.fft's n-d transforms as JAX writes them: one `fft` equation over up to three trailing
# axes (the axes given move last first; four axes take two 2-d transforms), eager bits == jit's
_FFTN = """
x = jnp.linspace(-1.0, 2.0, 24).reshape(2, 3, 4)
z = (x + 1j * x[::-1]).astype(jnp.complex64)
fs = [(jnp.fft.fftn, x), (jnp.fft.ifftn, z), (jnp.fft.rfftn, x), (jnp.fft.irfftn, z), (jnp.fft.fft2, x), (jnp.fft.irfft2, z),
      (lambda v: jnp.fft.fftn(v, axes=(0, 2)), x), (lambda v: jnp.fft.fftn(v, s=(3, 5)), x),
      (lambda v: jnp.fft.rfftn(v, norm='ortho'), x), (lambda v: jnp.fft.ifftn(v, axes=(1, 0), norm='forward'), z),
      (lambda v: jnp.fft.irfftn(v, s=(3, 6)), z), (jnp.fft.fftn, jnp.arange(16.0).reshape(2, 2, 2, 2)),
      (lambda v: jnp.fft.fftn(v, axes=(-1, -3)), x), (lambda v: jnp.fft.rfftn(v, axes=(0, 1), s=(2, 2)), x),
      (jnp.fft.irfftn, jnp.ones((2, 2, 2, 2, 3), jnp.complex64)), (lambda v: jnp.fft.fftn(v, norm='backward'), x)]
"""
C("engine13_fftn_jaxpr_one_primitive", "jaxpr", _FFTN + """
out = [str(jax.make_jaxpr(f)(v)) for f, v in fs]
""")
C("engine13_fftn_values_eager_equals_jit", "numpy", _FFTN + """
out = ([f(v) for f, v in fs], [bool(jnp.array_equal(f(v), jax.jit(f)(v))) for f, v in fs])
""")
C("engine13_fftn_transforms", "numpy", _FFTN + """
loss = lambda v: jnp.sum(jnp.abs(jnp.fft.rfftn(v * v)) ** 2) + jnp.real(jnp.fft.fftn(v, axes=(0, 2))[1, 1, 1])
out = (jax.grad(loss)(x), jax.jit(jax.grad(loss))(x), jax.vmap(jnp.fft.fftn)(x),
       jax.jvp(jnp.fft.irfftn, (z,), (jnp.ones_like(z),)), jax.grad(lambda v: jnp.sum(jnp.fft.irfftn(v) ** 2))(z))
""")
E("engine13_fftn_shape_axes_error", "numpy", "out = jnp.fft.fftn(jnp.ones((2, 3)), s=(2,), axes=(0, 1))")
E("engine13_fftn_repeated_axes_error", "numpy", "out = jnp.fft.fftn(jnp.ones((2, 3)), axes=(0, 0))")

# ---- jacfwd/jacrev/vmap(grad) jaxprs: reduce_max/min's jvp reshapes the answer with size-1 reduced
# axes (JAX's rule; was a broadcast_in_dim), and add_any's batcher broadcasts an unbatched operand
C("engine13_jaxpr_reduce_max_jvp_and_add_any_batch", "jaxpr", """
x = jnp.arange(3.0)
out = (str(jax.make_jaxpr(lambda v: jax.jvp(lambda u: jnp.max(u, axis=1), (v,), (jnp.ones((2, 3)),)))(jnp.ones((2, 3)))),
       str(jax.make_jaxpr(jax.jacfwd(jax.nn.softmax))(x)), str(jax.make_jaxpr(jax.jacrev(jax.scipy.special.logsumexp))(x)),
       str(jax.make_jaxpr(jax.vmap(jax.grad(lambda s: 3 * s ** 3 - 2 * s + 1)))(x)),
       str(jax.make_jaxpr(jax.vmap(jax.grad(jax.scipy.special.logsumexp)))(x[:, None] * jnp.ones(2))))
""")
C("engine13_reduce_max_grad_values", "numpy", """
m = jnp.array([[1.0, 3.0, 3.0], [2.0, 1.0, 0.0]])
out = (jax.grad(jnp.max)(m), jax.vmap(jax.grad(jnp.max))(m), jax.jit(jax.grad(lambda v: jnp.sum(jnp.min(v, axis=0))))(m),
       jax.jacfwd(lambda v: jnp.max(v, axis=1))(m), jax.vmap(jax.grad(lambda s: 3 * s ** 3 - 2 * s + 1))(jnp.arange(3.0)),
       jax.vmap(lambda a, b: jax.grad(lambda x, y: jnp.sum(x * y), argnums=(0, 1))(a, b), in_axes=(0, None))(m, jnp.ones(3)))
""")
