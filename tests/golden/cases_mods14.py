"""Case definitions for mods14_cases.json (issue 24, stop 42): the JAX 0.10.2 modules gradpad lacked
(`import jax.scipy.<...>` said "not implemented yet"): ten jax.scipy.stats distributions,
jax.scipy.ndimage.map_coordinates, jax.scipy.interpolate.RegularGridInterpolator,
jax.scipy.spatial.transform.Rotation/Slerp and jax.scipy.cluster.vq.vq; eager, jit, grad and vmap."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()
# (WGSL's float32 transcendentals round their own way: adaptive steps and atan2 angles run on the CPU device)
CPU = on_cpu(C)

# ---- jax.scipy.stats ---------------------------------------------------------------------------------

C("mods14_vonmises", "scipy_stats", """
s = jax.scipy.stats.vonmises
x = jnp.linspace(-3.0, 3.0, 7)
out = (s.logpdf(x, 2.0), s.pdf(x, jnp.array([[0.5], [30.0]])), s.logpdf(x, 0.0), s.logpdf(x, -1.0),
       jax.jit(s.pdf)(x, 1.5), jax.grad(s.logpdf, argnums=(0, 1))(0.7, 2.0),
       jax.vmap(s.logpdf, in_axes=(None, 0))(0.3, jnp.array([0.5, 1.0, 4.0])), str(s.pdf(1, 2).dtype))
""")

C("mods14_gennorm", "scipy_stats", """
s = jax.scipy.stats.gennorm
x = jnp.array([-2.5, -1.0, -0.1, 0.0, 0.4, 1.0, 3.0])
out = (s.logpdf(x, 1.5), s.pdf(x, jnp.array([[1.0], [2.0], [8.0]])), s.cdf(x, 0.7), s.cdf(x, 2.0),
       jax.jit(s.cdf)(x, 3.0), jax.grad(s.logpdf, argnums=(0, 1))(0.8, 1.7), jax.grad(s.cdf)(0.3, 2.0))
""", rtol=2e-5)

C("mods14_geom", "scipy_stats", """
s = jax.scipy.stats.geom
k = jnp.arange(-1, 6)
out = (s.logpmf(k, 0.3), s.pmf(k, 0.3), s.pmf(k, 0.3, loc=2), s.pmf(k, 1.0), s.logpmf(2.5, 0.4),
       str(s.pmf(k, 0.3).dtype), jax.jit(s.pmf)(k, 0.6), jax.grad(s.logpmf, argnums=1)(3.0, 0.25),
       jax.vmap(s.pmf, in_axes=(None, 0))(2, jnp.array([0.1, 0.5, 0.9])))
""")

C("mods14_nbinom", "scipy_stats", """
s = jax.scipy.stats.nbinom
k = jnp.arange(-1, 8)
out = (s.logpmf(k, 3, 0.4), s.pmf(k, 2.5, 0.7), s.pmf(k, 3, 0.4, loc=1), s.pmf(k, 3, 1.0),
       jax.jit(s.logpmf)(k, 5.0, 0.2), jax.grad(s.logpmf, argnums=(1, 2))(4.0, 3.0, 0.4))
""")

C("mods14_pareto", "scipy_stats", """
s = jax.scipy.stats.pareto
x = jnp.array([0.5, 1.0, 1.5, 2.0, 4.0, 10.0])
q = jnp.array([-0.1, 0.0, 0.25, 0.5, 0.99, 1.0, jnp.nan])
out = (s.logpdf(x, 2.0), s.pdf(x, 3.0, loc=0.5, scale=1.5), s.cdf(x, 2.0), s.logcdf(x, 1.5), s.sf(x, 2.0),
       s.logsf(x, 2.0, scale=2.0), s.ppf(q, 2.0), s.ppf(0.3, 1.5, loc=1.0, scale=2.0),
       jax.jit(s.logpdf)(x, 2.5), jax.grad(s.logpdf, argnums=(0, 1))(3.0, 2.0),
       jax.grad(s.ppf, argnums=(0, 1))(0.4, 2.0))
""")

C("mods14_betabinom", "scipy_stats", """
s = jax.scipy.stats.betabinom
k = jnp.arange(-1, 7)
out = (s.logpmf(k, 5, 2.0, 3.0), s.pmf(k, 5, 0.5, 0.5), s.pmf(k, 5, 2.0, 3.0, loc=1), s.pmf(2.7, 5, 2.0, 3.0),
       s.pmf(0, 0, 2.0, 3.0), s.pmf(1, -1, 2.0, 3.0), s.pmf(1, 3, 0.0, 3.0), jnp.sum(s.pmf(jnp.arange(6), 5, 1.3, 0.7)),
       jax.grad(s.logpmf, argnums=(2, 3))(2.0, 6.0, 1.5, 2.5),
       jax.vmap(s.pmf, in_axes=(0, None, None, None))(jnp.arange(4), 3, 2.0, 2.0))
""")

C("mods14_betabinom_jaxpr_is_one_jit", "scipy_stats", """
jaxpr = jax.make_jaxpr(jax.scipy.stats.betabinom.logpmf)(2.0, 5.0, 1.0, 2.0)
out = ([str(e.primitive) for e in jaxpr.eqns], jaxpr.eqns[0].params["name"])
""")

C("mods14_multinomial", "scipy_stats", """
s = jax.scipy.stats.multinomial
p = jnp.array([0.2, 0.5, 0.3])
x = jnp.array([[1, 2, 0], [0, 0, 3], [3, 0, 0]])
out = (s.logpmf(jnp.array([1, 2, 0]), 3, p), s.pmf(jnp.array([2, 1, 1]), 4, p), s.pmf(jnp.array([1, 1, 0]), 3, p),
       s.logpmf(x, 9, p), jax.vmap(s.pmf, in_axes=(0, None, None))(x, 3, p),
       jax.jit(s.pmf)(jnp.array([0, 4, 1]), 5, p), jax.grad(s.logpmf, argnums=2)(jnp.array([1, 2, 0]), 3, p),
       str(s.pmf(jnp.array([1, 2, 0]), 3, p).dtype))
""")

E("mods14_multinomial_float_counts_raise", "scipy_stats", """
out = jax.scipy.stats.multinomial.logpmf(jnp.array([1.0, 2.0]), 3, jnp.array([0.5, 0.5]))
""")

C("mods14_wrapcauchy", "scipy_stats", """
s = jax.scipy.stats.wrapcauchy
x = jnp.array([-0.5, 0.0, 1.0, 3.0, 6.0, 6.5])
out = (s.logpdf(x, 0.5), s.pdf(x, jnp.array([[0.1], [0.9]])), s.pdf(x, 0.0), s.pdf(x, 1.0), s.pdf(x, 1.2),
       jax.jit(s.pdf)(x, 0.3), jax.grad(s.logpdf, argnums=(0, 1))(1.0, 0.4))
""")

C("mods14_gumbel_l", "scipy_stats", """
s = jax.scipy.stats.gumbel_l
x = jnp.array([-30.0, -3.0, -0.5, 0.0, 0.7, 2.0, 4.0])
p = jnp.array([0.0, 1e-6, 0.2, 0.5, 0.9, 1.0])
out = (s.logpdf(x), s.pdf(x, 1.0, 2.0), s.cdf(x), s.logcdf(x, -1.0, 0.5), s.sf(x), s.logsf(x, 0.5, 1.5),
       s.ppf(p), s.ppf(p, 1.0, 3.0), s.pdf(x, 0.0, -1.0), jax.jit(s.logcdf)(x),
       jax.grad(s.logpdf, argnums=(0, 1))(0.3, 0.1, 1.2), jax.grad(s.logcdf, argnums=(0, 1, 2))(0.3, 0.1, 1.2))
""")

C("mods14_gumbel_r", "scipy_stats", """
s = jax.scipy.stats.gumbel_r
x = jnp.array([-4.0, -2.0, -0.5, 0.0, 0.7, 3.0, 30.0])
p = jnp.array([0.0, 1e-6, 0.2, 0.5, 0.9, 1.0])
out = (s.logpdf(x), s.pdf(x, 1.0, 2.0), s.cdf(x), s.logcdf(x, -1.0, 0.5), s.sf(x), s.logsf(x), s.logsf(x, 0.5, 1.5),
       s.ppf(p), s.ppf(p, 1.0, 3.0), s.sf(x, 0.0, 0.0), jax.jit(s.logsf)(x),
       jax.grad(s.logpdf, argnums=(0, 1))(0.3, 0.1, 1.2), jax.grad(s.logcdf, argnums=(0, 1, 2))(0.3, 0.1, 1.2),
       jax.grad(s.logsf)(0.4))
""")

# what a learner sees in make_jaxpr: the same primitives in the same order as JAX's (the where
# condition traced before or after the value as JAX writes it)
C("mods14_stats_jaxpr_primitives", "scipy_stats", """
st = jax.scipy.stats
prims = lambda f, *a: [str(e.primitive) for e in jax.make_jaxpr(f)(*a).eqns]
out = (prims(st.vonmises.logpdf, 1.0, 2.0), prims(st.gennorm.cdf, 0.5, 1.5), prims(st.pareto.logpdf, 3.0, 2.0),
       prims(st.pareto.cdf, 3.0, 2.0), prims(st.pareto.ppf, 0.3, 2.0), prims(st.wrapcauchy.logpdf, 1.0, 0.5),
       prims(st.gumbel_l.logcdf, 0.3), prims(st.gumbel_r.sf, 0.3), prims(st.gumbel_r.cdf, 0.3),
       prims(lambda a: jax.scipy.ndimage.map_coordinates(a, [jnp.array([0.5, 1.5])], 1), jnp.arange(4.0)),
       prims(lambda q: jax.scipy.spatial.transform.Rotation.from_quat(q).as_matrix(), jnp.ones(4)))
""")

C("mods14_stats_dtypes_under_x64", "scipy_stats", """
jax.config.update("jax_enable_x64", True)
st = jax.scipy.stats
f32 = jnp.float32(0.7)
out = (str(st.vonmises.logpdf(0.3, 2).dtype), str(st.vonmises.logpdf(f32, 2).dtype), str(st.gumbel_r.cdf(f32).dtype),
       str(st.pareto.pdf(2, 3).dtype), str(st.geom.pmf(3, f32).dtype), str(st.gumbel_l.logpdf(jnp.arange(3)).dtype),
       st.gennorm.cdf(f32, 2.0), st.nbinom.logpmf(4, 3, 0.4))
""")

C("mods14_stats_module_names", "scipy_stats", """
st = jax.scipy.stats
out = [sorted(n for n in dir(getattr(st, m)) if not n.startswith("_") and callable(getattr(getattr(st, m), n)))
       for m in ("vonmises", "gennorm", "geom", "nbinom", "pareto", "betabinom", "multinomial", "wrapcauchy",
                 "gumbel_l", "gumbel_r")]
""")

# ---- jax.scipy.ndimage --------------------------------------------------------------------------------

C("mods14_map_coordinates_modes", "scipy_ndimage", """
mc = jax.scipy.ndimage.map_coordinates
a = jnp.arange(12.0).reshape(3, 4)
c = [jnp.array([0.5, 2.7, -0.6, 1.5, 3.4, -2.2]), jnp.array([1.2, 3.9, 0.1, -0.5, 4.5, 7.3])]
out = {m: (mc(a, c, 0, mode=m), mc(a, c, 1, mode=m)) for m in ("constant", "nearest", "wrap", "mirror", "reflect")}
out["cval"] = mc(a, c, 1, cval=-1.0)
""")

C("mods14_map_coordinates_dtypes_and_shapes", "scipy_ndimage", """
mc = jax.scipy.ndimage.map_coordinates
ai = jnp.arange(10, dtype=jnp.int32) * 3
x = jnp.array([0.5, 1.5, 2.5, -0.5, 3.25, 8.6])
img = jnp.arange(24.0).reshape(2, 3, 4)
grid = jnp.meshgrid(jnp.array([0.0, 0.5, 1.0]), jnp.array([0.25, 1.75]), jnp.array([0.0, 2.5, 3.0]), indexing="ij")
out = (mc(ai, [x], 1), mc(ai, [x], 0), str(mc(ai, [x], 1).dtype), mc(jnp.arange(5.0), [jnp.array(2.5)], 1),
       mc(img, grid, 1), mc(img, grid, 1, mode="nearest").shape, mc(np.arange(4.0), [np.array([1.5])], 1),
       str(mc(jnp.arange(4.0, dtype=jnp.float16), [x], 1).dtype), mc(jnp.arange(5.0), [jnp.array([2.5])], 0))
""")

C("mods14_map_coordinates_transforms", "scipy_ndimage", """
mc = jax.scipy.ndimage.map_coordinates
a = jnp.arange(12.0).reshape(3, 4) ** 1.5
c = [jnp.array([0.5, 1.7, 2.2]), jnp.array([1.2, 0.4, 2.9])]
f = lambda a, c0, c1: mc(a, [c0, c1], 1).sum()
out = (jax.jit(mc, static_argnums=(2,))(a, c, 1), jax.grad(f, argnums=(0, 1, 2))(a, c[0], c[1]),
       jax.vmap(lambda img: mc(img, c, 1, mode="wrap"))(jnp.stack([a, 2 * a])),
       jax.vmap(lambda c0: mc(a, [c0, c[1]], 1))(jnp.stack([c[0], c[0] + 0.5])),
       [str(e.primitive) for e in jax.make_jaxpr(lambda a: mc(a, c, 1))(a).eqns],
       jax.make_jaxpr(lambda a: mc(a, c, 1))(a).eqns[0].params["name"])
""")

E("mods14_map_coordinates_order_2_raises", "scipy_ndimage", """
out = jax.scipy.ndimage.map_coordinates(jnp.arange(4.0), [jnp.array([1.5])], 2)
""")

E("mods14_map_coordinates_unknown_mode_raises", "scipy_ndimage", """
out = jax.scipy.ndimage.map_coordinates(jnp.arange(4.0), [jnp.array([1.5])], 1, mode="grid-wrap")
""", msg_prefix=70)

E("mods14_map_coordinates_wrong_coordinate_count_raises", "scipy_ndimage", """
out = jax.scipy.ndimage.map_coordinates(jnp.zeros((3, 3)), [jnp.array([1.5])], 1)
""")

# ---- jax.scipy.interpolate ----------------------------------------------------------------------------

C("mods14_regular_grid_interpolator", "scipy_interpolate", """
RGI = jax.scipy.interpolate.RegularGridInterpolator
x = jnp.array([0.0, 0.5, 1.5, 3.0])
y = jnp.linspace(-1.0, 1.0, 5)
v = jnp.sin(x[:, None] * 1.3) + y[None, :] ** 2
pts = jnp.array([[0.2, 0.1], [1.4, -0.9], [3.0, 1.0], [2.2, 0.33], [3.5, 0.0], [-0.1, 0.2]])
lin = RGI((x, y), v)
out = (lin(pts), lin(pts, method="nearest"), RGI((x, y), v, method="nearest")(pts),
       RGI((x, y), v, fill_value=None)(pts), RGI((x, y), v, fill_value=-7.0)(pts),
       lin((jnp.array([0.2, 1.0]), jnp.array([0.0, 0.5]))), lin(jnp.array([1.0, 0.25])),
       RGI((x,), jnp.stack([x, x ** 2], axis=1))(jnp.array([[0.7], [2.0]])),
       str(RGI((x, y), np.asarray(v))(pts).dtype), RGI((x, y), jnp.arange(20).reshape(4, 5))(pts[:2]))
""")

C("mods14_regular_grid_interpolator_transforms", "scipy_interpolate", """
RGI = jax.scipy.interpolate.RegularGridInterpolator
x = jnp.array([0.0, 1.0, 2.0])
y = jnp.array([0.0, 2.0, 3.0, 4.0])
v = jnp.arange(12.0).reshape(3, 4) ** 1.3
pts = jnp.array([[0.5, 2.5], [1.7, 0.3]])
interp = RGI((x, y), v)
leaves, treedef = jax.tree_util.tree_flatten(interp)
out = (jax.jit(lambda r, p: r(p))(interp, pts), jax.grad(lambda v: RGI((x, y), v)(pts).sum())(v),
       jax.grad(lambda p: interp(p).sum())(pts), jax.vmap(lambda p: interp(p[None]))(pts),
       len(leaves), jax.tree_util.tree_unflatten(treedef, leaves)(pts))
""")

E("mods14_regular_grid_interpolator_bad_method_raises", "scipy_interpolate", """
out = jax.scipy.interpolate.RegularGridInterpolator((jnp.arange(3.0),), jnp.arange(3.0), method="cubic")
""")

E("mods14_regular_grid_interpolator_bounds_error_raises", "scipy_interpolate", """
out = jax.scipy.interpolate.RegularGridInterpolator((jnp.arange(3.0),), jnp.arange(3.0), bounds_error=True)
""")

# ---- jax.scipy.spatial.transform ------------------------------------------------------------------

C("mods14_rotation_constructors", "scipy_spatial", """
R = jax.scipy.spatial.transform.Rotation
e = R.from_euler("xyz", jnp.array([0.1, 0.2, 0.3]))
out = (e.quat, R.from_euler("ZYX", jnp.array([10.0, 20.0, 30.0]), degrees=True).quat,
       R.from_euler("zx", jnp.array([[0.5, 1.0], [-1.0, 2.0]])).quat, R.from_euler("y", 0.7).quat,
       R.from_quat(jnp.array([1.0, 2.0, 3.0, 4.0])).quat, R.from_rotvec(jnp.array([[0.1, 0.2, 0.3], [0.0, 0.0, 1e-5]])).quat,
       R.from_rotvec(jnp.array([0.0, 90.0, 0.0]), degrees=True).quat, R.from_matrix(e.as_matrix()).quat,
       R.from_matrix(jnp.array([[-1.0, 0, 0], [0, -1, 0], [0, 0, 1]])).quat,
       R.from_mrp(jnp.array([0.1, -0.2, 0.3])).quat, R.identity().quat, e.single,
       R.concatenate([R.from_quat(e.quat[None]), R.from_euler("x", jnp.array([[0.4], [0.5]]))]).quat)
""")

CPU("mods14_rotation_methods", "scipy_spatial", """
R = jax.scipy.spatial.transform.Rotation
r = R.from_euler("xyz", jnp.array([[0.1, 0.2, 0.3], [1.0, -0.5, 2.5], [0.0, 3.0, 0.2]]))
v = jnp.array([1.0, 2.0, 3.0])
out = (r.as_matrix(), r.apply(v), r.apply(v, inverse=True), r.apply(jnp.eye(3)), r.inv().quat, (r * r.inv()).quat,
       (r[0] * r[1]).quat, r.magnitude(), r.as_rotvec(), r.as_rotvec(degrees=True), r.as_mrp(),
       r.as_euler("xyz"), r.as_euler("ZYX", degrees=True), r.as_euler("zxz"), r.as_quat(canonical=True),
       r.inv().as_quat(canonical=True, scalar_first=True), r.mean().quat, r.mean(jnp.array([1.0, 0.0, 2.0])).quat,
       len(r), r[1:].quat, r[1].single)
""", rtol=2e-5, atol=2e-6)

C("mods14_rotation_transforms", "scipy_spatial", """
R = jax.scipy.spatial.transform.Rotation
v = jnp.array([1.0, -2.0, 0.5])
f = lambda a: R.from_euler("zyx", a).apply(v).sum()
g = lambda q: R.from_quat(q).as_rotvec()
r = R.from_rotvec(jnp.array([0.3, 0.1, -0.2]))
out = (jax.grad(f)(jnp.array([0.1, 0.2, 0.3])), jax.jit(f)(jnp.array([0.1, 0.2, 0.3])),
       jax.jacobian(g)(jnp.array([0.1, 0.2, 0.3, 0.9])), jax.jit(lambda r, v: r.apply(v))(r, v),
       jax.vmap(lambda a: R.from_euler("xyz", a).as_matrix())(jnp.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])),
       jax.tree_util.tree_leaves(r)[0].shape, str(jax.tree_util.tree_structure(r)), repr(R.identity()))
""")

C("mods14_slerp", "scipy_spatial", """
T = jax.scipy.spatial.transform
key = T.Rotation.from_euler("xyz", jnp.array([[0.0, 0.0, 0.0], [0.5, 0.2, -0.1], [1.0, 1.5, 0.3]]))
s = T.Slerp.init(jnp.array([0.0, 1.0, 3.0]), key)
out = (s(jnp.array([0.0, 0.25, 1.0, 2.0, 3.0])).quat, s(0.5).quat, s(0.5).single, s.timedelta, s.rotvecs,
       jax.jit(lambda t: s(t).as_matrix())(jnp.array([0.6, 2.4])), jax.grad(lambda t: s(t).as_rotvec().sum())(1.5))
""")

# JAX 0.10.2's from_euler takes one angle per axis of seq (scipy's from_euler("x", [a, b]) gives two
# rotations; JAX's vectorize raises): same here
E("mods14_rotation_euler_one_angle_per_axis", "scipy_spatial", """
out = jax.scipy.spatial.transform.Rotation.from_euler("x", jnp.array([0.4, 0.5]))
""")

E("mods14_rotation_errors", "scipy_spatial", """
out = jax.scipy.spatial.transform.Rotation.from_euler("xxy", jnp.zeros(3))
""")

E("mods14_rotation_single_has_no_len", "scipy_spatial", """
out = len(jax.scipy.spatial.transform.Rotation.identity())
""")

E("mods14_slerp_needs_two_rotations", "scipy_spatial", """
T = jax.scipy.spatial.transform
out = T.Slerp.init(jnp.array([0.0]), T.Rotation.identity())
""")

# ---- jax.scipy.cluster.vq ---------------------------------------------------------------------------

C("mods14_vq", "scipy_cluster", """
vq = jax.scipy.cluster.vq.vq
obs = jnp.array([[1.0, 2.0], [3.0, 4.0], [0.0, 0.0], [2.0, 2.0], [5.0, -1.0]])
book = jnp.array([[0.0, 0.0], [3.0, 3.0], [4.0, -1.0]])
out = (vq(obs, book), vq(jnp.array([1.0, 5.0, 2.4]), jnp.array([0.0, 2.5, 6.0])), vq(jnp.arange(6).reshape(3, 2), book),
       jax.jit(vq)(obs, book), jax.grad(lambda o: vq(o, book)[1].sum())(obs), jax.scipy.cluster.vq.vq is vq,
       str(vq(obs, book, check_finite=False)[0].dtype))
""")

E("mods14_vq_rank_mismatch_raises", "scipy_cluster", """
out = jax.scipy.cluster.vq.vq(jnp.zeros((3, 2)), jnp.zeros(3))
""")

C("mods14_modules_under_x64", "scipy_ndimage", """
jax.config.update("jax_enable_x64", True)
T = jax.scipy.spatial.transform
a = jnp.arange(12.0).reshape(3, 4)
c = [jnp.array([0.5, 2.7]), jnp.array([1.2, 3.9])]
r = T.Rotation.from_euler("xyz", jnp.array([0.1, 0.2, 0.3]))
rf = T.Rotation.from_quat(jnp.array([0.1, 0.2, 0.3, 0.9], jnp.float32))
interp = jax.scipy.interpolate.RegularGridInterpolator((jnp.arange(3.0), jnp.arange(4.0)), a)
out = (jax.scipy.ndimage.map_coordinates(a, c, 1), jax.scipy.ndimage.map_coordinates(a.astype(jnp.float32), c, 1),
       r.quat, r.as_matrix(), rf.as_rotvec(), rf.as_euler("zyx"), T.Rotation.identity().quat,
       interp(jnp.array([[0.5, 1.5], [1.2, 2.9]])), interp((jnp.array([0.5]), jnp.array([1.5]))),
       jax.scipy.cluster.vq.vq(jnp.arange(6.0).reshape(3, 2), jnp.array([[0.0, 1.0], [4.0, 5.0]])),
       jax.scipy.cluster.vq.vq(jnp.arange(6, dtype=jnp.int32).reshape(3, 2), jnp.array([[0, 1], [4, 5]], jnp.int32)))
""")

# the objects are data: a Rotation's fields, a jitted function returning one, an interpolator in a tree
C("mods14_rotation_as_pytree_outputs", "scipy_spatial", """
R = jax.scipy.spatial.transform.Rotation
make = jax.jit(lambda a: R.from_rotvec(a))
r = make(jnp.array([[0.2, 0.0, 0.0], [0.0, 0.0, 1.0]]))
out = (type(r).__name__, r.quat, r._fields, R._fields, jax.scipy.spatial.transform.Slerp._fields,
       jax.tree_util.tree_map(lambda q: q * 2, r).quat, jax.vmap(lambda q: R(q).magnitude())(r.quat),
       R.from_quat(jnp.array([0.0, 0.0, 0.0, -2.0])).as_quat(canonical=True), str(r.quat.dtype))
""")

# JAX 0.10.2 promotes bool and integers up to 32 bits to float32 even under x64 (to_inexact_dtype);
# only 64-bit integers become float64 (found by mods14_modules_under_x64's vq of int32 arrays)
C("mods14_inexact_promotion_of_small_ints_under_x64", "dtypes", """
jax.config.update("jax_enable_x64", True)
i32 = jnp.arange(3, dtype=jnp.int32)
out = [str(a.dtype) for a in (jnp.sin(i32), jnp.exp(jnp.array([True, False])), jnp.sqrt(jnp.arange(3, dtype=jnp.uint8)),
                              jnp.log1p(jnp.arange(3, dtype=jnp.int16)), jnp.sin(jnp.arange(3)), jnp.sin(3),
                              jax.jit(jnp.cos)(i32), jax.scipy.special.erf(i32), jax.scipy.stats.norm.pdf(i32),
                              jax.scipy.stats.gumbel_r.cdf(i32), jnp.arctan2(i32, i32), jnp.arctan2(i32, 1.0))]
""")
