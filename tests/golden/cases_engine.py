"""Case definitions for engine_cases.json: issue 11's silent wrong answers and error texts
(custom_vjp bwd structure, vmap of cond/switch, take fill, uint32 literals, 0-d .at, dtype
comparisons, first lines of error messages).

Each snippet runs with jax, jnp, lax, random, np, partial, NamedTuple predefined and sets `out`.
"""
from casebook import recorder

CASES, C, E = recorder()


# ---------------------------------------------------------------- custom_vjp: bwd's output tree
# JAX's custom derivatives tutorial, "clip_gradient": bwd returns None for lo and hi
CLIP = """
@jax.custom_vjp
def clip_gradient(lo, hi, x):
    return x

def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)

def clip_gradient_bwd(res, g):
    lo, hi = res
    return (None, None, jnp.clip(g, lo, hi))

clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
"""
C("custom_vjp_clip_gradient_none", "custom_vjp", CLIP + """
t = jnp.linspace(0, 10, 8)
out = jax.vmap(jax.grad(lambda x: clip_gradient(-0.75, 0.75, jnp.sin(x))))(t)
""")
C("custom_vjp_clip_gradient_jit", "custom_vjp", CLIP + """
out = jax.jit(jax.grad(lambda x: clip_gradient(-0.75, 0.75, jnp.sin(x))))(0.5)
""")
# the tutorial's implicit differentiation of a fixed point (function-valued nondiff_argnums)
FIXED_POINT = """
@partial(jax.custom_vjp, nondiff_argnums=(0,))
def fixed_point(f, a, x_guess):
    def cond_fun(carry):
        x_prev, x = carry
        return jnp.abs(x_prev - x) > 1e-6
    def body_fun(carry):
        _, x = carry
        return x, f(a, x)
    _, x_star = lax.while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
    return x_star

def fixed_point_fwd(f, a, x_init):
    x_star = fixed_point(f, a, x_init)
    return x_star, (a, x_star)

def rev_iter(f, packed, u):
    a, x_star, x_star_bar = packed
    _, vjp_x = jax.vjp(lambda x: f(a, x), x_star)
    return x_star_bar + vjp_x(u)[0]

def fixed_point_rev(f, res, x_star_bar):
    a, x_star = res
    _, vjp_a = jax.vjp(lambda a: f(a, x_star), a)
    a_bar, = vjp_a(fixed_point(partial(rev_iter, f), (a, x_star, x_star_bar), x_star_bar))
    return a_bar, jnp.zeros_like(x_star)

fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)

def newton_sqrt(a):
    update = lambda a, x: 0.5 * (x + a / x)
    return fixed_point(update, a, a)
"""
C("custom_vjp_fixed_point_grad", "custom_vjp", FIXED_POINT + """
out = (newton_sqrt(2.), jax.grad(newton_sqrt)(2.), jax.grad(jax.grad(newton_sqrt))(2.))
""")
C("custom_vjp_fixed_point_tanh", "custom_vjp", FIXED_POINT + """
g = lambda a: fixed_point(lambda a, x: jnp.tanh(a * x) + 0.5, a, 0.0)
out = (g(0.5), jax.grad(g)(0.5))
""")
PAIR = """
@jax.custom_vjp
def f(x, y):
    return x * y
"""
C("custom_vjp_bwd_list_with_none", "custom_vjp", PAIR + """
f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: [None, g * r[0]])
out = jax.grad(f, argnums=(0, 1))(1., 2.)
""")
C("custom_vjp_bwd_int_input_zero", "custom_vjp", PAIR + """
f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g * r[1], g * r[0]))
out = jax.grad(lambda y: f(3, y))(2.)
""")
DICT_ARG = """
@jax.custom_vjp
def h(d):
    return d['a'] * d['b']
"""
C("custom_vjp_bwd_dict_none_leaf", "custom_vjp", DICT_ARG + """
h.defvjp(lambda d: (h(d), d), lambda r, g: ({'a': None, 'b': g * r['a']},))
out = jax.grad(h)({'a': 3., 'b': 4.})
""")
C("custom_vjp_bwd_none_for_subtree", "custom_vjp", DICT_ARG + """
h.defvjp(lambda d: (h(d), d), lambda r, g: (None,))
out = jax.grad(h)({'a': 3., 'b': 4.})
""")
C("custom_vjp_bwd_leaf_for_subtree", "custom_vjp", DICT_ARG + """
h.defvjp(lambda d: (h(d), d), lambda r, g: (g,))
out = jax.grad(h)({'a': 3., 'b': 4.})
""")
E("custom_vjp_bwd_too_few", "custom_vjp", PAIR + """
f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g * r[1],))
out = jax.grad(f)(1., 2.)
""")
E("custom_vjp_bwd_not_tuple", "custom_vjp", DICT_ARG + """
h.defvjp(lambda d: (h(d), d), lambda r, g: g)
out = jax.grad(h)({'a': 3., 'b': 4.})
""")
E("custom_vjp_bwd_wrong_shape", "custom_vjp", PAIR + """
f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g * r[1], jnp.ones(3)))
out = jax.grad(f)(1., 2.)
""")

# ---------------------------------------------------------------- dtype comparisons
# JAX compares jnp.float32 by its scalar type: equal to np.float32 and np.dtype('float32') only
_OTHERS = ["{'a': 1}", "None", "('f', 'i4')", "'float32'", "'f4'", "np.float32", "np.dtype('float32')",
           "np.float64", "float", "1", "[('a', 'f4')]", "jnp.float32", "jnp.float64", "jnp.int32"]
C("dtype_scalar_type_comparisons", "dtypes", f"""
others = [{', '.join(_OTHERS)}]
out = [(t == o, t != o, o == t) for t in (jnp.float32, jnp.float64, jnp.int32, jnp.bool_) for o in others]
""")
C("dtype_scalar_type_hash", "dtypes", """
out = ({jnp.float32: 1}.get(np.float32), {np.float32: 1}.get(jnp.float32), hash(jnp.int32) == hash(np.int32),
       jnp.arange(3.0).dtype == jnp.float32, jnp.float32 == jnp.arange(3.0).dtype)
""")

# ---------------------------------------------------------------- vmap of cond / switch (batched predicate)
COND_LAX = """
def cond_lax(x):
    return lax.cond(x < 0.0, lambda x: x ** 2.0, lambda x: x ** 3.0, x)
"""
C("vmap_cond_batched_pred", "vmap", COND_LAX + "out = jax.vmap(cond_lax)(jnp.array([1., -2., 3.]))")
C("vmap_cond_batched_pred_jaxpr", "vmap", COND_LAX + "out = str(jax.make_jaxpr(jax.vmap(cond_lax))(jnp.array([1., -2., 3.])))")
C("vmap_grad_grad_cond", "vmap", COND_LAX + "out = jax.vmap(jax.grad(jax.grad(cond_lax)))(jnp.linspace(-2., 2., 5))")
C("vmap_switch_batched_index", "vmap", """
branches = [lambda x: x + 1, lambda x: x * 2, lambda x: -x]
out = jax.vmap(lambda i, x: lax.switch(i, branches, x))(jnp.array([0, 1, 2, 5]), jnp.arange(4.))
""")
C("vmap_switch_batched_index_jaxpr", "vmap", """
branches = [lambda x: x + 1, lambda x: x * 2]
out = str(jax.make_jaxpr(jax.vmap(lambda i, x: lax.switch(i, branches, x)))(jnp.array([0, 1]), jnp.arange(2.)))
""")
C("vmap_cond_batched_pred_x64", "vmap", COND_LAX + """
jax.config.update('jax_enable_x64', True)
out = jax.jit(jax.vmap(cond_lax))(jnp.array([1., -2., 3.]))
""")
C("vmap_cond_pred_only", "vmap", "out = jax.vmap(lambda p: lax.cond(p, lambda: 1., lambda: 2.))(jnp.array([True, False]))")

# ---------------------------------------------------------------- take: JAX's out-of-bounds modes
TAKE_I = "x = jnp.arange(5.)\ni = jnp.array([0, 4, 5, -1, -6, 10])\n"
C("take_default_fill_nan", "indexing", TAKE_I + "out = jnp.take(x, i)")
C("take_fill_nan", "indexing", TAKE_I + "out = jnp.take(x, i, mode='fill')")
C("take_fill_value", "indexing", TAKE_I + "out = jnp.take(x, i, mode='fill', fill_value=-1.)")
C("take_fill_int_min", "indexing", "out = jnp.take(jnp.arange(5), jnp.array([0, 5, -6]), mode='fill')")
C("take_fill_axis1", "indexing", "out = jnp.take(jnp.arange(6.).reshape(2, 3), jnp.array([[0, 3], [-1, 2]]), axis=1)")
C("take_clip_raw_index", "indexing", TAKE_I + "out = jnp.take(x, i, mode='clip')")
C("take_wrap_mod", "indexing", TAKE_I + "out = jnp.take(x, i, mode='wrap')")
C("take_method_fill", "indexing", TAKE_I + "out = x.take(i)")
C("take_jaxpr_fill", "indexing", TAKE_I + "out = jax.jit(lambda x, i: jnp.take(x, i))(x, i)")
C("take_empty_indices", "indexing", "out = jnp.take(jnp.arange(6.).reshape(2, 3), jnp.zeros((0,), jnp.int32), axis=1)")
E("take_mode_raise", "indexing", TAKE_I + "out = jnp.take(x, i, mode='raise')")
E("take_mode_invalid", "indexing", TAKE_I + "out = jnp.take(x, i, mode='foo')")
C("take_along_axis_default_fill", "indexing",
  "out = jnp.take_along_axis(jnp.arange(6.).reshape(2, 3), jnp.array([[0, 3], [-1, -4]]), axis=1)")
C("take_along_axis_clip", "indexing",
  "out = jnp.take_along_axis(jnp.arange(6.).reshape(2, 3), jnp.array([[0, 3], [-1, -4]]), axis=1, mode='clip')")
C("interp_outside_range", "indexing",
  "out = jnp.interp(jnp.array([-1., 0., 0.5, 2., 3.]), jnp.array([0., 1., 2.]), jnp.array([0., 10., 5.]))")

# ---------------------------------------------------------------- Python ints and unsigned dtypes
C("uint32_scalar_type_big", "dtypes", "out = jnp.uint32(2998342421)")
C("asarray_uint32_big", "dtypes", "out = (jnp.asarray(2998342421, dtype=jnp.uint32), jnp.asarray(2**32 - 1, dtype=jnp.uint32))")
C("full_uint32_big", "dtypes", "out = (jnp.full(2, 2998342421, dtype=jnp.uint32), jnp.full_like(jnp.zeros(2, jnp.uint32), 2998342421))")
C("lax_full_int_wraps", "dtypes", "out = (lax.full(2, 300, jnp.uint8), lax.full(2, 2**31, jnp.int32))")
C("convert_big_python_int", "dtypes",
  "out = (lax.convert_element_type(2**31, jnp.uint32), lax.convert_element_type(2**70, jnp.float32))")
C("uint8_array_plus_300_wraps", "dtypes", "out = jnp.zeros(2, jnp.uint8) + 300")
E("uint32_scalar_type_negative", "dtypes", "out = jnp.uint32(-1)")
E("uint8_scalar_type_300", "dtypes", "out = jnp.uint8(300)")
E("asarray_int_too_large", "dtypes", "out = jnp.asarray(2**31)")
E("asarray_int_too_small", "dtypes", "out = jnp.asarray(-2**31 - 1)")
E("asarray_int_huge", "dtypes", "out = jnp.asarray(2**70)")
E("int32_scalar_type_too_large", "dtypes", "out = jnp.int32(2**31)")
E("float_array_times_big_int", "dtypes", "out = jnp.arange(3.) * 2**40", msg_prefix=0)
E("int_array_plus_big_int", "dtypes", "out = jnp.arange(3) + 2**31", msg_prefix=0)
E("jit_big_int_argument", "dtypes", "out = jax.jit(lambda x: x)(2**31)", msg_prefix=0)

# ---------------------------------------------------------------- 0-d .at, cond's operand=None
C("at_0d_set", "indexing", "out = jnp.array(1.).at[()].set(5.)")
C("at_0d_ellipsis_add", "indexing", "out = jnp.array(1.).at[...].add(2)")
C("at_0d_int_mul", "indexing", "out = jnp.array(3).at[()].mul(4)")
C("at_0d_get", "indexing", "out = jnp.array(1.).at[()].get()")
C("at_0d_set_jit_grad", "indexing", """
out = (jax.jit(lambda x: x.at[()].set(5.))(jnp.array(1.)), jax.grad(lambda x: x.at[()].mul(3.))(2.),
       jax.vmap(lambda x: x.at[()].set(5.))(jnp.ones(3)))
""")
C("at_0d_set_jaxpr", "indexing", "out = str(jax.make_jaxpr(lambda x: x.at[()].set(5.))(jnp.array(1.)))")
C("cond_operand_none", "control_flow", """
out = (lax.cond(True, lambda x: x is None, lambda x: x is None, operand=None),
       lax.cond(False, lambda x: 1., lambda x: 2., operand=None),
       jax.jit(lambda p: lax.cond(p, lambda _: 1., lambda _: 2., operand=None))(True))
""")
C("cond_operand_keyword", "control_flow", "out = lax.cond(False, lambda x: x + 1, lambda x: x - 1, operand=jnp.float32(1))")
E("cond_operand_and_positional", "control_flow", "out = lax.cond(False, lambda x: x, lambda x: x, 1., operand=2.)")
E("switch_operand_and_positional", "control_flow",
  "out = lax.switch(1, [lambda x: 1., lambda x: 2.], 1., operand=None)")
E("switch_branch_not_callable", "control_flow", "out = lax.switch(1, [lambda x: 1., 3], 1.)")
C("switch_operand_none", "control_flow", "out = lax.switch(1, [lambda x: 1., lambda x: 2.], operand=None)")

# ---------------------------------------------------------------- jax.Array: tracers are instances
C("isinstance_tracer_jax_array", "api", """
out = (jax.jit(lambda x: jnp.array(isinstance(x, jax.Array)))(1.),
       jax.grad(lambda x: x * isinstance(x, jax.Array))(1.),
       jax.vmap(lambda x: x * isinstance(x, jnp.ndarray))(jnp.ones(2)),
       jax.jvp(lambda x: x * isinstance(x, jax.Array), (1.,), (1.,)))
""")
C("isinstance_jax_array_non_arrays", "api", """
out = (isinstance(1.0, jax.Array), isinstance(np.ones(1), jax.Array), isinstance(jnp.float32(1), jax.Array),
       jnp.ndarray is jax.Array, issubclass(type(jnp.ones(1)), jax.Array), repr(jax.Array))
""")
E("jax_array_not_constructible", "api", "out = jax.Array([1])")
C("tracer_type_names", "api", """
names = []
jax.jit(lambda x: names.append(type(x).__name__) or x)(1.)
jax.make_jaxpr(lambda x: names.append(type(x).__name__) or x)(1.)
jax.grad(lambda x: names.append(type(x).__name__) or x)(1.)
jax.vmap(lambda x: names.append(type(x).__name__) or x)(jnp.ones(2))
jax.jvp(lambda x: names.append(type(x).__name__) or x, (1.,), (1.,))
out = names
""")
E("tracer_setitem_message", "errors", """
def f(x):
    x[0] = 1.
    return x
out = jax.jit(f)(jnp.ones(2))
""")
E("grad_tracer_setitem_message", "errors", "out = jax.grad(lambda x: x.__setitem__(0, 1))(1.)")
E("jit_tracer_unhashable", "errors", "out = jax.jit(lambda x: {x: 1})(1.)")

# ---------------------------------------------------------------- weak types: comparisons, custom_jvp outputs
C("weak_type_comparisons", "dtypes", """
x = jnp.array(1.)
out = (x < 2., jnp.equal(1., 2.), jax.jit(lambda x: x < 2.)(1.), jax.jit(lambda x: x < 2.)(jnp.float32(1.)),
       jnp.arange(3) == 1, lax.lt(1., 2.), jnp.isnan(x), jnp.isfinite(2.), jnp.logical_not(x < 2.),
       jnp.logical_and(x < 2., x > 0.), jnp.not_equal(jnp.array(1), 2), (x < 2.) * 3., jnp.sum(x < 2.))
""")
CJVP = """
@jax.custom_jvp
def f(x):
    return jnp.sin(x)

@f.defjvp
def f_jvp(primals, tangents):
    x, = primals
    t, = tangents
    return f(x), jnp.cos(x) * t
"""
C("custom_jvp_weak_outputs", "custom_jvp", CJVP + """
out = (f(1.), f(jnp.float32(1.)), jax.grad(f)(1.), jax.jvp(f, (1.,), (1.,)), jax.jit(f)(1.),
       jax.jit(jax.grad(f))(1.), jax.vmap(f)(jnp.ones(2)))
""", rtol=1e-6)
C("custom_jvp_nn_relu_weak", "custom_jvp", """
out = (jax.nn.relu(1.), jax.grad(jax.nn.relu)(1.), jax.jit(jax.nn.relu)(-1.), jax.nn.relu(jnp.float32(1.)))
""")
C("custom_jvp_jaxpr_weak_int_arg", "custom_jvp", """
@jax.custom_jvp
def g(x, y):
    return x * y + 1.0
g.defjvp(lambda p, t: (g(*p), t[0]))
out = (str(jax.make_jaxpr(g)(1., 2)), str(jax.make_jaxpr(lambda x: g(x, 2.))(jnp.float32(1.))), jax.jit(g)(1., 2.))
""")
C("logaddexp_jit_weak", "custom_jvp", "out = (jax.jit(lambda x: jnp.logaddexp(x, 1.))(1.), jnp.logaddexp(1., 1.))")

# ---------------------------------------------------------------- *_like of duck-typed arrays, named_scope
C("zeros_like_shape_dtype_struct", "numpy", """
sd = jax.ShapeDtypeStruct((2,), jnp.int32)
out = (jnp.zeros_like(sd), jnp.full_like(sd, 3), jnp.empty_like(jax.ShapeDtypeStruct((2,), jnp.float32)),
       jnp.zeros_like(sd, dtype=jnp.float32, shape=(3,)), lax.full_like(sd, 2),
       jnp.zeros_like(jax.ShapeDtypeStruct((2,), jnp.float32, weak_type=True)))
""")
C("ones_like_duck_array", "numpy", """
class Duck:
    shape = (2, 1)
    dtype = np.dtype('float64')
out = jnp.ones_like(Duck())
""")
E("zeros_like_list_rejected", "numpy", "out = jnp.zeros_like([1., 2.])")
C("named_scope_decorator", "api", """
@jax.named_scope("layer")
def layer(w, x):
    return jnp.tanh(w * x)
out = (layer(2., 1.), str(jax.make_jaxpr(layer)(2., 1.)), jax.grad(layer, argnums=1)(2., 1.),
       jax.jit(jax.named_scope("foo")(lambda x: x + 1))(1.))
""")
E("named_scope_name_not_str", "api", "out = jax.named_scope(3)")
C("effects_barrier", "api", "out = (jax.effects_barrier(), jnp.ones(2))")

# ---------------------------------------------------------------- vmap: in_axes/out_axes prefixes of any pytree node
BOX = """
@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def tree_flatten(self):
        return (self.x, self.y), None
    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
"""
C("vmap_in_axes_custom_node_prefix", "vmap", BOX + """
out = jax.vmap(lambda bx: bx.x * bx.y, in_axes=(Box(0, None),))(Box(jnp.arange(3.), 2.))
""")
C("vmap_out_axes_custom_node_prefix", "vmap", BOX + """
r = jax.vmap(lambda x: Box(x, x), out_axes=Box(0, 1))(jnp.ones((2, 3)))
out = (r.x.shape, r.y.shape)
""")
C("vmap_in_axes_namedtuple_dict_prefix", "vmap", """
class P(NamedTuple):
    a: object
    b: object
out = (jax.vmap(lambda p: p.a + p.b, in_axes=(P(0, None),))(P(jnp.arange(3.), 1.)),
       jax.vmap(lambda d: d['a'] * d['b'], in_axes=({'a': 0, 'b': None},))({'a': jnp.arange(3.), 'b': 2.}))
""")
E("vmap_in_axes_custom_node_top_level", "vmap", BOX + """
out = jax.vmap(lambda bx: bx.x * bx.y, in_axes=Box(0, None))(Box(jnp.arange(3.), 2.))
""", msg_prefix=120)
E("vmap_in_axes_not_a_prefix", "vmap", BOX + """
out = jax.vmap(lambda bx: bx, in_axes=(Box(0, None),))({'x': jnp.arange(3.)})
""")
E("vmap_in_axes_dict_keys_differ", "vmap", "out = jax.vmap(lambda d: d, in_axes=({'a': 0},))({'b': jnp.arange(3.)})")
E("vmap_out_axes_tuple_for_leaf", "vmap", "out = jax.vmap(lambda d: d, out_axes=(0, 0))(jnp.arange(3.))")

# ---------------------------------------------------------------- first lines of error messages
X23 = "x = jnp.arange(6.).reshape(2, 3)\n"
E("reshape_int_shape_message", "errors", X23 + "out = x.reshape(5)")
E("reshape_tuple_shape_message", "errors", X23 + "out = x.reshape((4, 2))")
E("reshape_args_shape_message", "errors", X23 + "out = x.reshape(4, 2)")
E("reshape_list_shape_message", "errors", X23 + "out = jnp.reshape(x, [5])")
E("reshape_minus_one_not_dividing", "errors", X23 + "out = x.reshape(-1, 4)")
E("reshape_two_minus_ones", "errors", X23 + "out = x.reshape(-1, -1)")
E("reshape_to_scalar_message", "errors", X23 + "out = x.reshape(())")
E("reshape_under_jit_message", "errors", X23 + "out = jax.jit(lambda y: y.reshape(5))(x)")
C("reshape_0d_array_shape", "numpy", X23 + "out = (x.reshape(jnp.int32(6)).shape, x.reshape(np.array([3, 2])).shape, x.reshape(3, -1))")
E("lax_add_rank_mismatch_jit", "errors", X23 + "out = jax.jit(lambda a, b: lax.add(a, b))(x, jnp.ones(3))")
E("lax_select_which_shape", "errors", X23 + "out = lax.select(jnp.ones(3) > 0, x, x)")
E("lax_select_n_case_shapes", "errors", "out = lax.select_n(True, jnp.ones(2), jnp.ones(3))")
for _mod in ("jnp", "jax.nn", "jax.tree_util", "jnp.linalg", "jax.tree", "jax.scipy.special", "jax.errors",
             "jax.dtypes", "jax.debug", "jnp.fft", "lax", "jax", "jax.random", "jax.scipy", "jax.scipy.stats",
             "lax.linalg"):
    E(f"missing_attribute_{_mod.replace('.', '_')}", "errors", f"out = {_mod}.no_such_name")

# ---------------------------------------------------------------- integer power, signbit, argsort, cumulative sums, arange
C("int_power_0d_base_broadcast", "numpy", """
out = (jnp.power(jnp.array(2), jnp.array([1, 2, 3])), jnp.array(2) ** jnp.array([[1, 2], [3, 4]]),
       2 ** jnp.array([1, 2, 3]), jnp.power(jnp.array([[2], [3]]), jnp.array([1, 2])))
""")
C("int_power_low_six_bits", "numpy", """
out = (jnp.power(jnp.array([3, 3, 0, 0, -2]), jnp.array([100, -1, 0, 3, 5])),
       jnp.power(jnp.array([2, 3], jnp.uint8), jnp.array([7, 200], jnp.uint8)), jnp.array([2, 3]) ** jnp.array(70))
""")
C("int_power_bool_promotes", "numpy", "out = jnp.power(jnp.array([True, False]), jnp.array([True, True]))")
C("int_power_jit_vmap", "numpy", """
out = (jax.jit(jnp.power)(jnp.array([2, 3]), jnp.array([3, 4])), jax.vmap(jnp.power)(jnp.array([2, 3]), jnp.array([3, 4])))
""")
SIGNS = "v = jnp.array([-1., 0., -0., 2., -jnp.inf, jnp.nan, -jnp.nan])\n"
C("signbit_float32", "numpy", SIGNS + "out = (jnp.signbit(v), jnp.signbit(jnp.array([-1, 0, 2])), jnp.signbit(jnp.array([True])), jnp.signbit(-1.), jnp.signbit(-1))")
C("signbit_float64_x64", "numpy", "jax.config.update('jax_enable_x64', True)\n" + SIGNS +
  "out = (jnp.signbit(v), jnp.copysign(jnp.array([1., 2.]), jnp.array([-0., 3.])))")
C("signbit_float16", "numpy", "out = jnp.signbit(jnp.array([-1., 1.], jnp.float16))")
E("signbit_complex", "numpy", "out = jnp.signbit(jnp.array([1j]))")
C("argsort_descending_unsigned", "numpy", """
out = (jnp.argsort(jnp.array([3, 1, 2, 0], dtype=jnp.uint8), descending=True),
       jnp.argsort(jnp.array([3, 1, 2, 0], dtype=jnp.uint32), descending=True),
       jnp.argsort(jnp.array([-2**31, 2**31 - 1, 0]), descending=True))
""")
C("argsort_descending_ties_nan", "numpy", """
out = (jnp.argsort(jnp.array([3, 1, 2, 3, 1]), descending=True),
       jnp.argsort(jnp.array([3, 1, 2, 3, 1]), descending=True, stable=False),
       jnp.argsort(jnp.array([3., jnp.nan, 1., 2., -jnp.inf]), descending=True),
       jnp.argsort(jnp.array([[3, 1], [0, 5]]), axis=0, descending=True),
       jnp.argsort(jnp.array([True, False, True]), descending=True), jnp.argsort(jnp.array([3, 1]), dtype=jnp.int16))
""")
E("argsort_kind_rejected", "numpy", "out = jnp.argsort(jnp.array([3, 1]), kind='quicksort')")
E("sort_order_rejected", "numpy", "out = jnp.sort(jnp.array([3, 1]), order='x')")
C("cumulative_sum_dtypes", "numpy", """
out = (jnp.cumulative_sum(jnp.array([100, 100], dtype=jnp.int8)), jnp.cumulative_sum(jnp.array([1, 2], dtype=jnp.uint8)),
       jnp.cumulative_sum(jnp.array([True, True])), jnp.cumulative_sum(jnp.array([1, 2]), dtype=jnp.float32),
       jnp.cumulative_prod(jnp.array([100, 3], jnp.int8)), jnp.cumulative_sum(jnp.array([True, False]), dtype=bool))
""")
C("cumulative_sum_include_initial", "numpy", """
out = (jnp.cumulative_sum(jnp.array([1., 2., 3.]), include_initial=True),
       jnp.cumulative_sum(jnp.ones((2, 2)), axis=1, include_initial=True),
       jnp.cumulative_prod(jnp.array([1., 2., 3.]), include_initial=True),
       jnp.cumulative_sum(jnp.ones((2, 0)), axis=1, include_initial=True),
       jax.grad(lambda x: jnp.cumulative_sum(x, include_initial=True).sum())(jnp.ones(3)),
       str(jax.make_jaxpr(lambda x: jnp.cumulative_sum(x, include_initial=True))(jnp.ones(3))))
""")
E("cumulative_sum_needs_axis", "numpy", "out = jnp.cumulative_sum(jnp.ones((2, 2)))")
E("cumulative_prod_needs_axis", "numpy", "out = jnp.cumulative_prod(jnp.ones((2, 2)))")
E("cumulative_sum_scalar", "numpy", "out = jnp.cumulative_sum(3.)")
C("cumsum_keeps_int_dtype", "numpy", """
out = (jnp.cumsum(jnp.array([100, 100], dtype=jnp.int8)), jnp.cumprod(jnp.array([True, True])),
       jnp.cumsum(jnp.array([-1, 1, 0]), dtype=bool), jnp.cumsum(3.), jnp.cumsum(jnp.ones((2, 2))),
       jnp.cumsum(jnp.array([1, 2], jnp.uint16)), jnp.arange(4).cumsum())
""")
E("cumsum_out_rejected", "numpy", "out = jnp.cumsum(jnp.arange(3), out=1)")
C("arange_stop_none", "numpy", """
out = (jnp.arange(0, None, 1), jnp.arange(5, None), jnp.arange(5, None, 2), jnp.arange(-3), jnp.arange(5.5),
       jnp.arange(jnp.int32(4)), jnp.arange(np.uint8(3)))
""")
C("arange_int32_scalar_x64", "numpy", """
jax.config.update('jax_enable_x64', True)
out = (jnp.arange(jnp.int32(4)), jnp.arange(0, None, 1), jnp.arange(3))
""")
E("arange_non_scalar", "numpy", "out = jnp.arange(jnp.ones(2))")
E("arange_bool", "numpy", "out = jnp.arange(True)")

# ---------------------------------------------------------------- unstack, bitwise shifts, dict keys
C("unstack_axes", "numpy", """
x = jnp.arange(6).reshape(2, 3)
out = (jnp.unstack(x), jnp.unstack(x, axis=1), jnp.unstack(x, axis=-1), jnp.unstack(jnp.ones((2, 0)), axis=1),
       lax.unstack(jnp.ones((1, 2))), jnp.unstack(jnp.arange(3.) + 1.))
""")
C("unstack_transforms", "numpy", """
out = (str(jax.make_jaxpr(lambda x: jnp.unstack(x))(jnp.ones((2, 3)))),
       jax.grad(lambda x: jnp.unstack(x)[1].sum())(jnp.ones((2, 2))),
       jax.vmap(lambda x: jnp.unstack(x, axis=1))(jnp.arange(8.).reshape(2, 2, 2)),
       jax.jit(jnp.unstack)(jnp.arange(4.).reshape(2, 2)))
""")
E("unstack_scalar", "numpy", "out = jnp.unstack(jnp.array(1.))")
E("unstack_list_rejected", "numpy", "out = jnp.unstack([1, 2])")
C("bitwise_shift_aliases", "numpy", """
out = (jnp.bitwise_left_shift(jnp.array([1, 2]), 2), jnp.bitwise_right_shift(jnp.array([8, -8]), 1),
       jnp.bitwise_right_shift(jnp.array([8, 255], jnp.uint8), 1))
""")
E("tree_flatten_mixed_key_types", "pytree", "out = jax.tree_util.tree_flatten({1: 1., 'a': 2.})")
E("tree_map_mixed_key_types", "pytree", "out = jax.tree_util.tree_map(lambda x: x, {1: 1., 'a': 2.})")

# ---------------------------------------------------------------- eye, concat axis=None, repeat, slices, expand_dims
C("eye_huge_offsets", "numpy", """
out = (jnp.eye(0, None, k=2**63), jnp.eye(2, None, k=2**63), jnp.eye(2, 3, k=-2**70), jnp.eye(3, k=jnp.int32(-1)))
""")
E("eye_float_offset", "numpy", "out = jnp.eye(2, k=1.5)")
C("concat_0d_axis_none", "numpy", """
out = (jnp.concat([jnp.uint8(0), jnp.uint8(0)], axis=None), jnp.concatenate([jnp.array(1.), jnp.array(2.)], axis=None))
""")
E("concat_0d_axis_0", "numpy", "out = jnp.concatenate([jnp.array(1.), jnp.array(2.)])")
C("repeat_total_repeat_length", "numpy", """
out = (jnp.repeat(jnp.array([1, 2]), 2, total_repeat_length=3), jnp.repeat(jnp.array([1, 2]), jnp.array([1, 2]), total_repeat_length=5),
       jnp.repeat(jnp.array([[1, 2], [3, 4]]), jnp.array([2, 1]), axis=1, total_repeat_length=4),
       jax.jit(lambda r: jnp.repeat(jnp.array([1, 2, 3]), r, total_repeat_length=6))(jnp.array([3, 0, 2])),
       jnp.repeat(jnp.array([1, 2]), 2, total_repeat_length=0))
""")
C("repeat_0d_repeats", "numpy", """
out = (jnp.repeat(jnp.array([1, 2]), jnp.array(2)), jnp.repeat(jnp.array([[1, 2]]), jnp.array(2), axis=1), jnp.repeat(jnp.array(3), 2))
""")
C("slice_bounds_0d_arrays", "indexing", """
x = jnp.arange(5)
out = (x[0:jnp.array(2)], x[jnp.array(1):jnp.int32(4):np.int64(2)], x[np.array(3):])
""")
C("expand_dims_axes", "numpy", """
x = jnp.ones((1, 2, 3))
out = (jnp.expand_dims(x, 3).shape, jnp.expand_dims(x, (0, 4)).shape, jnp.expand_dims(x, -1).shape, lax.expand_dims(x, (0,)).shape)
""")
E("expand_dims_repeated_axis", "numpy", "out = jnp.expand_dims(jnp.ones((1, 2, 3)), (1, 1))")
E("expand_dims_repeated_after_canon", "numpy", "out = jnp.expand_dims(jnp.ones((1, 2, 3)), (1, -4))")
E("expand_dims_out_of_bounds", "numpy", "out = jnp.expand_dims(jnp.ones((1, 2, 3)), 4)")
E("lax_expand_dims_out_of_bounds", "numpy", "out = lax.expand_dims(jnp.ones((1, 2, 3)), (7,))")

# ---------------------------------------------------------------- power with integer exponents, histogram, round
C("power_int_exponent_grad_at_zero", "grad", """
out = (jax.grad(lambda x: jnp.power(x, jnp.array(3)))(0.), jax.grad(lambda x: jnp.power(x, jnp.array(0)))(0.),
       jax.grad(lambda x: (x ** jnp.array([0, 1, 2])).sum())(0.),
       jax.jvp(lambda x: x ** jnp.array([0, 1, 2, -1]), (jnp.array([0., 0., 0., 2.]),), (jnp.ones(4),)))
""")
C("power_float_exponent_grad_strong", "grad", "out = (jax.grad(lambda x: x ** jnp.array(2.))(3.), jax.grad(lambda x: x ** 2.5)(3.))")
C("power_int_exponent_jaxpr", "jaxpr", """
out = (str(jax.make_jaxpr(lambda x, n: jnp.power(x, n))(jnp.ones(2), jnp.array([1, 2]))),
       str(jax.make_jaxpr(lambda n: jnp.power(2., n))(jnp.array([1, 2]))))
""")
C("power_float_base_int_exponent_values", "numpy", """
out = (jnp.power(2., jnp.array([1, 2])), jnp.power(jnp.float32(2.), jnp.array([1, 2])), 2. ** jnp.array([1, 2]),
       jnp.power(2., 3), jax.vmap(lambda x, n: x ** n)(jnp.array([2., 3.]), jnp.array([2, 3])),
       jax.jit(lambda x: x ** jnp.arange(4))(2.), jnp.power(True, jnp.array([1, 2])), jnp.power(jnp.array([True]), 2),
       jnp.array(2.) ** jnp.array(3), jnp.power(jnp.array([2.], jnp.float16), jnp.array([3])))
""")
C("lax_pow_int_exponent", "numpy", "out = (lax.pow(2., jnp.array([1, 2])), lax.pow(jnp.ones(2), jnp.array([1, 2])))")
E("lax_pow_mixed_floats", "numpy", "out = lax.pow(jnp.ones(2), jnp.ones(2, jnp.float16))")
C("histogram_weights_density", "numpy", """
out = (jnp.histogram(jnp.arange(5.), bins=3), jnp.histogram(jnp.arange(5), bins=2, density=True),
       jnp.histogram(jnp.arange(5), bins=2, weights=jnp.arange(5)), jnp.histogram(jnp.array([1., 2, 1]), bins=jnp.array([0., 1.5, 3])),
       jnp.histogram(jnp.array([3., 3.]), bins=2), jnp.histogram(jnp.arange(5.), bins=2, range=(1, 3)),
       jax.jit(lambda x: jnp.histogram(x, bins=4))(jnp.arange(6.)), jnp.histogram_bin_edges(jnp.arange(4), 3))
""")
E("histogram_weights_shape", "numpy", "out = jnp.histogram(jnp.arange(3.), weights=jnp.ones(2))")
E("round_int_negative_decimals", "numpy", "out = jnp.round(jnp.array([15, 25]), -1)")
C("round_int_positive_decimals", "numpy", "out = jnp.round(jnp.array([15, 25]), 1)")
C("reduction_initial_on_empty", "numpy", """
out = (jnp.min(jnp.array([], jnp.float32), initial=3.), jnp.max(jnp.array([], jnp.int32), initial=3),
       jnp.min(jnp.ones((0, 2)), axis=0, initial=1.), jnp.max(jnp.ones((2, 0)), axis=0, initial=1.),
       jnp.max(jnp.ones((0, 2)), axis=0, initial=5., keepdims=True), jnp.prod(jnp.zeros(0), initial=4.),
       jnp.max(jnp.array([1., 5.]), initial=3.), jnp.min(jnp.array([], jnp.uint8), initial=300))
""")
E("reduction_min_empty_no_initial", "numpy", "out = jnp.min(jnp.array([], jnp.float32))")

# ---------------------------------------------------------------- lax's shape rules also hold eagerly
E("lax_add_rank_mismatch_eager", "errors", "out = lax.add(jnp.ones((2, 3)), jnp.ones(3))")
E("lax_mul_rank_mismatch_eager", "errors", "out = lax.mul(jnp.ones(3), jnp.ones((3, 1)))")
E("lax_lt_rank_mismatch_eager", "errors", "out = lax.lt(jnp.ones((2, 3)), jnp.ones(3))")
E("lax_add_incompatible_sizes_eager", "errors", "out = lax.add(jnp.ones(3), jnp.ones(4))")
C("lax_add_size_one_and_scalar_broadcast", "numpy", """
x = jnp.arange(6.).reshape(2, 3)
out = (lax.add(x, jnp.ones((1, 3))), lax.add(x, 1.), lax.add(x, jnp.float32(1)), lax.max(x, jnp.ones((2, 1))))
""")

# ---------------------------------------------------------------- float -> int saturation, signed zeros
C("float_to_int_saturates", "dtypes", """
v = jnp.array([1.7, -1.7, 300., -300., 3e9, -3e9, jnp.nan, jnp.inf, -jnp.inf, 255.9, -0.9, 127.5, 2147483520.])
out = tuple((lax.convert_element_type(v, dt), jax.jit(lambda v: v.astype(dt))(v))
            for dt in (jnp.int8, jnp.uint8, jnp.int16, jnp.uint16, jnp.int32, jnp.uint32))
""")
C("float_to_int64_saturates_x64", "dtypes", """
jax.config.update('jax_enable_x64', True)
w = jnp.array([1e19, -1e19, jnp.nan, 3e9])
out = (w.astype(jnp.int64), w.astype(jnp.uint64), w.astype(jnp.int32))
""")
C("sign_keeps_signed_zero", "numpy", """
out = (lax.sign(jnp.array([-0., 0., -2., 3., jnp.nan])), jnp.sign(jnp.array([-0., 0.])), jax.jit(jnp.sign)(jnp.array([-0., 1.])),
       1 / jnp.sign(jnp.array([-0.])), jnp.sign(jnp.array([-3, 0, 2])))
""")

# ---------------------------------------------------------------- custom_vjp staged under jit
C("custom_vjp_grad_of_jit", "custom_vjp", CLIP + """
f = lambda x: clip_gradient(-0.75, 0.75, jnp.sin(x))
t = jnp.linspace(0, 10, 4)
out = (jax.vmap(jax.grad(jax.jit(f)))(t), jax.jit(jax.vmap(jax.grad(f)))(t), jax.value_and_grad(jax.jit(f))(0.3))
""")
C("custom_vjp_jaxpr", "custom_vjp", """
@jax.custom_vjp
def f(x):
    return jnp.sin(x)
f.defvjp(lambda x: (f(x), x), lambda r, g: (g * 2,))
out = (str(jax.make_jaxpr(f)(1.)), jax.jit(f)(1.), jax.grad(jax.jit(f))(1.), jax.vmap(jax.jit(f))(jnp.ones(2)))
""", rtol=1e-6)
C("custom_vjp_jit_closure_const", "custom_vjp", """
c = jnp.array(3.)
@jax.custom_vjp
def g(x, y):
    return x * c + y
g.defvjp(lambda x, y: (g(x, y), (x, y)), lambda r, ct: (ct * 10., None))
out = (jax.grad(jax.jit(g), argnums=(0, 1))(1., 2.), jax.jit(jax.grad(g))(1., 2.), jax.jit(g)(1., 2.))
""")

# vmap of select with one boolean per example choosing between vectors (the condition is broadcast)
C("vmap_select_scalar_which_vector_cases", "vmap", """
f = lambda c, a, b: lax.select(c, a, b)
c = jnp.array([True, False, True])
a, b = jnp.arange(12.).reshape(3, 4), -jnp.arange(12.).reshape(3, 4)
out = (jax.vmap(f)(c, a, b), jax.vmap(f, in_axes=(0, 1, 1))(c, a.T, b.T),
       jax.vmap(lambda c, a, b: jnp.where(c, a, b))(c, a, b))
""")
