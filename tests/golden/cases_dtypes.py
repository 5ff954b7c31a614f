"""Case definitions for dtypes_cases.json: bfloat16 and float16 as JAX 0.10.2 has them (names,
promotion with weak types, rounding after each op, float32 accumulation in reductions, finfo,
printing, jaxpr text, grad, PRNG bits), and JAX's message for a Python int that overflows a jitted
function's argument.

Each snippet runs with jax, jnp, lax, random, np, partial, NamedTuple predefined and sets `out`.
"""
from casebook import recorder

CASES, C, E = recorder()

BF = "x = jnp.array([1.1, 2.2, -3.3], jnp.bfloat16)\n"
H = "h = jnp.array([1.1, 2.2, -3.3], jnp.float16)\n"

# ---- names and reprs
C("bf16_scalar_type_repr", "dtypes", "out = repr(jnp.bfloat16)")
C("bf16_dtypes_module_repr", "dtypes", "out = repr(jax.dtypes.bfloat16)")
C("bf16_dtype_repr", "dtypes", "out = repr(jnp.dtype('bfloat16'))")
C("bf16_scalar_call", "dtypes", "out = jnp.bfloat16(1.5)")
C("bf16_dtype_eq", "dtypes", "out = (jnp.ones(2, jnp.bfloat16).dtype == jnp.bfloat16, jnp.ones(2, 'bfloat16').dtype.name)")
C("bf16_issubdtype", "dtypes", "out = (jnp.issubdtype(jnp.bfloat16, jnp.floating), jnp.issubdtype(jnp.bfloat16, jnp.inexact), jnp.issubdtype(jnp.bfloat16, jnp.integer))")
C("bf16_array_repr", "dtypes", BF + "out = repr(x)")
C("bf16_array_str", "dtypes", BF + "out = str(x)")
C("bf16_ones_repr", "dtypes", "out = repr(jnp.ones(3, jnp.bfloat16))")
C("f16_array_repr", "dtypes", H + "out = repr(h)")
C("bf16_astype_rounds", "dtypes", "out = jnp.array([1.1, 2.2, 1e30, 3.0e38], jnp.float32).astype(jnp.bfloat16)")
C("f16_astype_overflows_to_inf", "dtypes", "out = jnp.array([1.1, 1e30], jnp.float32).astype(jnp.float16)")
C("bf16_astype_back", "dtypes", BF + "out = (x.astype(jnp.float32), x.astype(jnp.int32), x.astype(jnp.float16))")
C("bf16_tolist", "dtypes", BF + "out = (x.tolist(), float(x[0]))")

# ---- finfo / iinfo
C("bf16_finfo_repr", "dtypes", "out = repr(jnp.finfo(jnp.bfloat16))")
C("bf16_finfo_str", "dtypes", "out = str(jnp.finfo(jnp.bfloat16))")
C("bf16_finfo_fields", "dtypes", "fi = jnp.finfo(jnp.bfloat16)\nout = (float(fi.eps), float(fi.max), float(fi.tiny), fi.bits, fi.nmant, fi.nexp)")
C("f16_finfo_repr", "dtypes", "out = repr(jnp.finfo(jnp.float16))")
C("iinfo_int8_repr", "dtypes", "out = repr(jnp.iinfo(jnp.int8))")

# ---- the promotion lattice with weak types
for a, b in [("bfloat16", "float16"), ("bfloat16", "float32"), ("bfloat16", "int8"), ("bfloat16", "uint8"),
             ("bfloat16", "int32"), ("float16", "int16"), ("bfloat16", "bool_"), ("bfloat16", "complex64")]:
    C(f"promote_{a}_{b}", "dtypes", f"out = str(jnp.promote_types(jnp.{a}, jnp.{b}))")
    C(f"add_{a}_{b}", "dtypes", f"out = jnp.ones(2, jnp.{a}) + jnp.ones(2, jnp.{b})")
C("bf16_plus_python_float", "dtypes", BF + "out = x + 1.0")
C("bf16_plus_python_int", "dtypes", BF + "out = x + 1")
C("python_float_times_bf16", "dtypes", BF + "out = 2.5 * x")
C("f16_plus_python_float", "dtypes", H + "out = h + 1.0")
C("weak_f32_plus_bf16", "dtypes", BF + "out = jnp.asarray(1.0) + x")
C("bf16_result_type_weak", "dtypes", "out = str(jnp.result_type(jnp.bfloat16, 1.0, 2))")

# ---- arithmetic rounds to the narrow type after each op
C("bf16_div_rounds", "dtypes", "out = jnp.array([1.0, 3.0], jnp.bfloat16) / 3")
C("bf16_add_below_ulp", "dtypes", "out = jnp.array(1.0, jnp.bfloat16) + jnp.array(1 / 256, jnp.bfloat16)")
C("f16_add_below_ulp", "dtypes", "out = jnp.array(1.0, jnp.float16) + jnp.array(1 / 4096, jnp.float16)")
C("f16_overflow_inf", "dtypes", "out = jnp.array(65504.0, jnp.float16) * 2")
C("bf16_chain", "dtypes", BF + "out = (x * 3.1 + 0.7) / 1.3 - x")
C("bf16_unary", "dtypes", BF + "out = (jnp.sin(x), jnp.exp(x / 4), jnp.tanh(x), jnp.sqrt(jnp.abs(x)), jnp.log1p(jnp.abs(x)))")
C("f16_unary", "dtypes", H + "out = (jnp.sin(h), jnp.exp(h / 4), jnp.tanh(h))")
C("bf16_compare_where", "dtypes", BF + "out = (x > 1.5, jnp.maximum(x, 2.0), jnp.where(x > 0, x, 0.0))")
C("bf16_power", "dtypes", "out = jnp.array([1, 2, 3], jnp.bfloat16) ** 2")
C("bf16_matmul", "dtypes", "a = jnp.arange(6.0, dtype=jnp.bfloat16).reshape(2, 3) / 7\nout = (a @ a.T, jnp.dot(a[0], a[1]))")
C("bf16_linspace", "dtypes", "out = jnp.linspace(0, 1, 5, dtype=jnp.bfloat16)")
C("bf16_nn", "dtypes", BF + "out = (jax.nn.relu(x), jax.nn.softmax(x), jax.nn.log_softmax(x), jax.nn.sigmoid(x))")

# ---- reductions accumulate in float32 and round once (jnp's upcast_f16_for_computation)
R = "r = jnp.arange(100.0, dtype=jnp.bfloat16)\n"
C("bf16_sum_accumulates_f32", "dtypes", R + "out = (jnp.sum(r), r.sum(), jnp.sum(r.reshape(10, 10), axis=1))")
C("f16_sum_accumulates_f32", "dtypes", "out = (jnp.sum(jnp.arange(3000.0, dtype=jnp.float16)), jnp.sum(jnp.arange(100.0, dtype=jnp.float16)))")
C("bf16_mean_var_std", "dtypes", R + "out = (jnp.mean(r), jnp.var(r), jnp.std(r))")
C("f16_mean_var", "dtypes", "r = jnp.arange(100.0, dtype=jnp.float16)\nout = (jnp.mean(r), jnp.var(r))")
C("bf16_prod_cumsum_max", "dtypes", R + "out = (jnp.prod(r[:10] + 1), jnp.cumsum(r)[-1], jnp.max(r))")
C("lax_reduce_sum_bf16_accumulates_bf16", "dtypes", R + "out = lax.reduce_sum_p.bind(r, axes=(0,), out_sharding=None)")
C("jaxpr_bf16_sum", "dtypes", R + "out = str(jax.make_jaxpr(jnp.sum)(r))")
C("jaxpr_bf16_mean", "dtypes", R + "out = str(jax.make_jaxpr(jnp.mean)(r))")

# ---- jaxpr text
C("jaxpr_bf16_sin_mul", "dtypes", "out = str(jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(jnp.ones(3, jnp.bfloat16)))")
C("jaxpr_bf16_literal_rounded", "dtypes", "out = str(jax.make_jaxpr(lambda x: x * 1.1)(jnp.bfloat16(1)))")
C("jaxpr_f16_literal_rounded", "dtypes", "out = str(jax.make_jaxpr(lambda x: x * 1.1)(jnp.float16(1)))")
C("jaxpr_astype_bf16", "dtypes", "out = str(jax.make_jaxpr(lambda x: x.astype(jnp.bfloat16))(1.0))")

# ---- transformations
C("bf16_grad_scalar", "dtypes", "out = jax.grad(lambda x: jnp.sin(x) * x)(jnp.bfloat16(1.5))")
C("bf16_grad_sum_squares", "dtypes", "out = jax.grad(lambda x: (x ** 2).sum())(jnp.arange(3.0, dtype=jnp.bfloat16))")
C("bf16_value_and_grad_mean", "dtypes",
  "out = jax.value_and_grad(lambda w: jnp.mean((w * jnp.arange(4.0, dtype=jnp.bfloat16) - 1.0) ** 2))(jnp.bfloat16(0.5))")
C("f16_grad", "dtypes", "out = jax.grad(lambda x: jnp.tanh(x) * x)(jnp.float16(0.7))")
C("bf16_jit", "dtypes", BF + "out = jax.jit(lambda x: x * 3 + 1)(x)")
C("bf16_vmap", "dtypes", BF + "out = jax.vmap(lambda x: x * 2 - 0.3)(x)")
C("bf16_jit_grad_vmap", "dtypes", BF + "out = jax.jit(jax.vmap(jax.grad(lambda x: jnp.exp(x / 3))))(x)")

# ---- random: bit-exact in the narrow dtypes
K = "k = random.PRNGKey(0)\n"
C("random_uniform_bf16", "random", K + "out = random.uniform(k, (6,), dtype=jnp.bfloat16)")
C("random_normal_bf16", "random", K + "out = random.normal(k, (6,), dtype=jnp.bfloat16)")
C("random_uniform_f16_dtypes", "random", K + "out = random.uniform(k, (6,), dtype=jnp.float16)")
C("random_normal_f16_dtypes", "random", K + "out = random.normal(k, (6,), dtype=jnp.float16)")
C("random_uniform_bf16_range", "random", K + "out = random.uniform(k, (4,), minval=-2.0, maxval=3.0, dtype=jnp.bfloat16)")

# ---- a Python int argument of a jitted function that overflows the default int (JAX's message)
C("jit_int_arg_overflow", "errors", "out = jax.jit(lambda x: x)(2 ** 31)", raises=True)
C("jit_int_arg_overflow_negative", "errors", "out = jax.jit(lambda x: x)(-2 ** 31 - 1)", raises=True)
C("jit_int_arg_overflow_kwarg", "errors", "def f(x, y=0):\n    return x\nout = jax.jit(f)(1, y=2 ** 40)", raises=True)
C("jit_int_arg_overflow_pytree", "errors", "def f(x):\n    return x\nout = jax.jit(f)((1, {'a': 2 ** 31}))", raises=True)
C("jit_int_arg_overflow_varargs", "errors", "out = jax.jit(lambda x, *a: a[0])(1, 2, 2 ** 31)", raises=True)
C("jit_int_arg_fits", "errors", "out = jax.jit(lambda x: x + 1)(2 ** 31 - 2)")

# ---- cells of JAX's tutorials that printed something else (tools/doc_cells.py)
# thinking_in_jax: type(x_jnp)
C("doc_type_of_array", "doc_cells", "out = (str(type(jnp.arange(3.0))), type(jnp.arange(3.0)).__name__)")
# custom derivatives tutorial: jvp of a custom_vjp function runs fwd (which calls f) before it fails
C("doc_custom_vjp_jvp_runs_fwd_first", "doc_cells", """
log = []
@jax.custom_vjp
def f(x):
    log.append("called f!")
    return jnp.sin(x)
def f_fwd(x):
    log.append("called f_fwd!")
    return f(x), jnp.cos(x)
def f_bwd(cos_x, y_bar):
    log.append("called f_bwd!")
    return (cos_x * y_bar,)
f.defvjp(f_fwd, f_bwd)
try:
    jax.jvp(f, (3.,), (1.,))
    msg = None
except TypeError as e:
    msg = str(e)
out = (log, msg)
""")
C("doc_custom_vjp_jacfwd_raises", "doc_cells", """
@jax.custom_vjp
def f(x):
    return jnp.sin(x)
f.defvjp(lambda x: (f(x), jnp.cos(x)), lambda c, g: (c * g,))
out = jax.jacfwd(f)(3.)
""", raises=True)
# debugging guide: a breakpoint in a cond branch that is not taken does nothing
C("doc_breakpoint_in_untaken_cond_branch", "doc_cells", """
def breakpoint_if_nonfinite(x):
    is_finite = jnp.isfinite(x).all()
    def true_fn(x):
        pass
    def false_fn(x):
        jax.debug.breakpoint()
    jax.lax.cond(is_finite, true_fn, false_fn, x)
@jax.jit
def f(x, y):
    z = x / y
    breakpoint_if_nonfinite(z)
    return z
out = f(2., 1.)
""")
# effects inside control flow under jit run where execution reaches them (they were dropped as dead code)
C("debug_callback_in_cond_under_jit", "doc_cells", """
log = []
@jax.jit
def f(x):
    lax.cond(x > 0, lambda x: jax.debug.callback(lambda v: log.append(("pos", float(v))), x),
             lambda x: jax.debug.callback(lambda v: log.append(("neg", float(v))), x), x)
    return x * 2
out = (f(1.), f(-3.), log)
""")
C("debug_callback_in_scan_under_jit", "doc_cells", """
log = []
@jax.jit
def f(xs):
    def body(c, x):
        jax.debug.callback(lambda v: log.append(float(v)), x)
        return c + x, None
    return lax.scan(body, 0., xs)[0]
out = (f(jnp.arange(3.)), log)
""")
# external callbacks guide: ShapeDtypeStruct.like
C("doc_shape_dtype_struct_like", "doc_cells", """
out = (repr(jax.ShapeDtypeStruct.like(jnp.arange(5.0))), repr(jax.ShapeDtypeStruct.like(jnp.asarray(1.0) + 1.0)),
       repr(jax.ShapeDtypeStruct.like(np.zeros((2, 3)))), repr(jax.ShapeDtypeStruct.like(jax.ShapeDtypeStruct((2,), jnp.int32))))
""")
C("doc_pure_callback_with_like", "doc_cells", """
def f_host(x):
    return np.sin(x).astype(x.dtype)
def f(x):
    return jax.pure_callback(f_host, jax.ShapeDtypeStruct.like(x), x, vmap_method='sequential')
x = jnp.arange(5.0)
out = (f(x), jax.jit(f)(x), jax.vmap(f)(x), lax.scan(lambda c, v: (c, f(v)), None, x)[1])
""")
E("doc_pure_callback_grad_error", "doc_cells", """
def f(x):
    return jax.pure_callback(lambda x: np.sin(x).astype(x.dtype), jax.ShapeDtypeStruct.like(x), x, vmap_method='sequential')
out = jax.grad(f)(1.0)
""")
# FAQ: XLA's algebraic simplifications change values under jit (log(exp(x)) -> x; sqrt(x*x) -> |x|)
C("doc_faq_jit_log_exp", "doc_cells", """
def f(x):
    return jnp.log(jnp.exp(x))
out = (f(100.0), jax.jit(f)(100.0), jax.jit(f)(jnp.array([0.3, -2.0, 100.0])))
""")
C("jit_sqrt_of_square_is_abs", "doc_cells", """
f = lambda x: jnp.sqrt(x * x)
x = jnp.array([1e-30, -3.0, 2.5e-20])
out = (f(x), jax.jit(f)(x))
""")
C("jit_log_exp_other_use_kept", "doc_cells", """
f = lambda x: (jnp.log(jnp.exp(x)), jnp.exp(x) - 1.0)
out = jax.jit(f)(jnp.array([100.0, 1.0]))
""")
# custom interpreters guide: Var reprs (`Var(id=<id>):int32[]`) and ClosedJaxpr.literals
C("doc_var_repr_and_literals", "doc_cells", """
j = jax.make_jaxpr(lambda x, w: (x + 1, jnp.dot(w, w)))(5, jnp.ones(3))
v = repr(j.jaxpr.invars[0])
out = (v[:7], v.split(")", 1)[1], repr(j.jaxpr.invars[1]).split(")", 1)[1], repr(j.jaxpr.eqns[0].invars[1]), j.literals)
""")
# object dtypes are refused as JAX refuses them (numpy would make object arrays, the page's numpy
# even for a dtype name it cannot read)
E("dtype_object_zeros", "dtypes", "out = jnp.zeros(2, object)")
E("dtype_object_astype", "dtypes", "out = jnp.ones(2).astype(object)")
E("dtype_object_convert_element_type", "dtypes", "out = lax.convert_element_type(1., object)")
E("dtype_object_array", "dtypes", "out = jnp.array([1.], dtype=object)")
