"""Case definitions for engine_cases.json: issue 11's silent wrong answers and error texts
(custom_vjp bwd structure, vmap of cond/switch, take fill, uint32 literals, 0-d .at, dtype
comparisons, first lines of error messages).

Each snippet runs with jax, jnp, lax, random, np, partial, NamedTuple predefined and sets `out`.
"""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


def E(name, area, code, **kw):
    C(name, area, code, raises=True, **kw)


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
