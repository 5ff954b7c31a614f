"""Case definitions for docs14_cases.json: code from JAX's documentation and its variations that a
learner pastes, where gradpad's output differed from real JAX 0.10.2 (area "docs14")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- one body per checkpointed/jitted function
# docs/gradient-checkpointing.md and docs/notebooks/autodiff_remat.md print jaxprs of functions that call
# one @jax.checkpoint function several times. JAX traces a function once per input types and caches each
# derivation of its body (jvp, linearized halves, transpose, batching), so every call binds the same body
# and jaxpr text prints it once, `let jaxpr = {...} in` (`let h = ... in` for a jit named h); gradpad
# traced and derived each call anew and printed one inline copy per call.
G = ("@jax.checkpoint\n"
     "def g(x):\n"
     "    return jnp.sin(jnp.sin(x))\n"
     "def f(x):\n"
     "    return g(g(g(x)))\n")
H = ("@jax.jit\n"
     "def h(x):\n"
     "    return jnp.sin(x) * 2\n")
C("docs14_checkpoint_shared_body", "docs14", G + "out = str(jax.make_jaxpr(f)(2.0))")
C("docs14_checkpoint_grad_shared_body", "docs14", G + "out = str(jax.make_jaxpr(jax.grad(f))(2.0))")
C("docs14_checkpoint_jvp_shared_body", "docs14",
  G + "out = str(jax.make_jaxpr(lambda x: jax.jvp(f, (x,), (1.0,)))(2.0))")
C("docs14_checkpoint_vmap_grad_shared_body", "docs14",
  G + "out = str(jax.make_jaxpr(jax.vmap(jax.grad(f)))(jnp.ones(2)))")
C("docs14_checkpoint_two_types_two_bodies", "docs14",
  G + "out = str(jax.make_jaxpr(lambda x: g(x) + g(x.astype(jnp.float16)).astype(jnp.float32))(jnp.ones(2)))")
C("docs14_checkpoint_policy_grad_shared_body", "docs14",
  "g2 = jax.checkpoint(lambda x: jnp.sin(x) * jnp.cos(x), policy=jax.checkpoint_policies.dots_saveable)\n"
  "out = str(jax.make_jaxpr(jax.grad(lambda x: g2(g2(x))))(2.0)).replace(' at 0x', '@').split('@')[0]")
C("docs14_checkpoint_cached_values", "docs14",
  G + "out = (f(2.0), jax.grad(f)(2.0), jax.vmap(jax.grad(f))(jnp.arange(3.0)))")
C("docs14_jit_grad_shared_body", "docs14", H + "out = str(jax.make_jaxpr(jax.grad(lambda x: h(h(x))))(2.0))")
C("docs14_jit_jvp_shared_body", "docs14",
  H + "out = str(jax.make_jaxpr(lambda x: jax.jvp(lambda y: h(h(y)), (x,), (1.0,)))(2.0))")
C("docs14_jit_vmap_shared_body", "docs14", H + "out = str(jax.make_jaxpr(jax.vmap(lambda x: h(h(x))))(jnp.ones(2)))")
C("docs14_jit_vmap_grad_bodies", "docs14",
  H + "out = str(jax.make_jaxpr(jax.vmap(jax.grad(lambda x: h(h(x)))))(jnp.ones(2)))")
# a checkpointed function closing over a traced value: each trace is its own (nothing stale reused)
C("docs14_checkpoint_closure_over_tracer", "docs14",
  "def outer(a):\n"
  "    g = jax.checkpoint(lambda x: jnp.sin(x) * a)\n"
  "    return g(g(a))\n"
  "out = (jax.grad(outer)(1.5), jax.grad(outer)(0.5), str(jax.make_jaxpr(jax.grad(outer))(1.5)))")
C("docs14_checkpoint_global_captured_once", "docs14",
  "scale = [2.0]\n"
  "@jax.checkpoint\n"
  "def gs(x):\n"
  "    return x * scale[0]\n"
  "first = gs(1.0)\n"
  "scale[0] = 3.0\n"
  "out = (first, gs(1.0), gs(jnp.ones(2)))")

# ---------------------------------------------------------------- where/select grads: the zero is a residual
# jnp.where's jvp (select_n's rule) stands `full_like(t, 0)` in for a zero tangent. Inside a jit
# (`_where` is one) JAX's partial evaluation keeps that 0-d zero on the known side: the known call
# returns it (`in (_, 0.0:f32[])`) and the tangent call takes it as an argument (`] c e 1.0:f32[]`),
# never reading it once transposed. gradpad inlined the literal (docs/lib_tests.md left it open).
for name, code in [
        ("where_log", "jax.make_jaxpr(jax.grad(lambda x: jnp.where(x > 0, jnp.log(x), 0.0)))(1.0)"),
        ("where_two_args", "jax.make_jaxpr(jax.grad(lambda x, y: jnp.where(x > 0, x * y, y)))(1.0, 2.0)"),
        ("where_argnums1", "jax.make_jaxpr(jax.grad(lambda x, y: jnp.where(x > 0, x * y, y), argnums=1))(1.0, 2.0)"),
        ("jit_select", "jax.make_jaxpr(jax.grad(jax.jit(lambda x: lax.select(x > 0, x, 0.0))))(0.5)"),
        ("vmap_grad_where", "jax.make_jaxpr(jax.vmap(jax.grad(lambda x: jnp.where(x > 0, x, 0.0))))(jnp.ones(3))"),
        ("linearize_where", "jax.make_jaxpr(lambda x: jax.linearize(lambda x: jnp.where(x > 0, x, 0.0), x))(1.0)"),
        ("linearize_where_two", "jax.make_jaxpr(lambda x, y: jax.linearize(lambda x: jnp.where(x > 0, x * y, y), x)[1](1.0))(1.0, 2.0)"),
        ("hessian_where", "jax.make_jaxpr(jax.hessian(lambda x: jnp.where(x > 0, x ** 3, 0.0)))(1.0)"),
        ("sum_where_scalar", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.where(x > 0, x, 0.0))))(1.0)"),
        ("where_array", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.where(x > 0, x, 0.0))))(jnp.ones(3))"),
        ("clip", "jax.make_jaxpr(jax.grad(lambda x: jnp.clip(x, 0.0, 1.0)))(0.5)"),
        ("clamp", "jax.make_jaxpr(jax.grad(lambda x: lax.clamp(0.0, x, 1.0)))(0.5)")]:
    C(f"docs14_grad_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_grad_where_values", "docs14",
  "out = (jax.grad(lambda x: jnp.where(x > 0, jnp.log(x), 0.0))(1.0),\n"
  "       jax.hessian(lambda x: jnp.where(x > 0, x ** 3, 0.0))(2.0),\n"
  "       jax.jit(jax.grad(lambda x, y: jnp.where(x > 0, x * y, y)))(1.0, 2.0),\n"
  "       jax.linearize(lambda x: jnp.where(x > 0, x * 3.0, 0.0), 2.0)[1](1.0),\n"
  "       jax.vmap(jax.grad(lambda x: jnp.where(x > 0, x, 0.0)))(jnp.array([-1.0, 2.0])))")

# ---------------------------------------------------------------- zeros jvp rules make are residuals
# Not only select_n's: any 0-d zero a jvp rule instantiates for a zero tangent (pad's padding value,
# a linear primitive's zero operand) is a residual of the known call; a primal constant the tangent
# work reads (`mul t 0.0` of `x * 0.0`) stays a literal.
for name, code in [
        ("pad_zero_value", "jax.make_jaxpr(jax.grad(jax.jit(lambda x: lax.pad(x, 0.0, [(1, 1, 0)]).sum())))(jnp.ones(2))"),
        ("pad_traced_value", "jax.make_jaxpr(jax.grad(jax.jit(lambda x, y: lax.pad(x, y, [(1, 1, 0)]).sum())))(jnp.ones(2), 3.0)"),
        ("jnp_pad", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.pad(x, 1))))(jnp.ones(3))"),
        ("mul_zero_literal", "jax.make_jaxpr(jax.grad(jax.jit(lambda x: x * 0.0 + x * 2.0)))(1.0)"),
        ("mul_array_const", "jax.make_jaxpr(jax.grad(jax.jit(lambda x: x * jnp.zeros(()))))(1.0)")]:
    C(f"docs14_resid_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_resid_pad_values", "docs14",
  "out = (jax.grad(jax.jit(lambda x, y: (lax.pad(x, y, [(1, 2, 1)]) ** 2).sum()), argnums=(0, 1))(jnp.arange(3.0), 2.0),\n"
  "       jax.grad(lambda x: jnp.sum(jnp.pad(x, 2) * jnp.arange(7.0)))(jnp.ones(3)))")

# ---------------------------------------------------------------- concatenate's transpose is one split
# JAX transposes concatenate into one `split[axis sizes]` of the cotangent (gradpad: a slice per operand)
for name, code in [
        ("concat", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.concatenate([x, x ** 2]))))(jnp.ones(3))"),
        ("concat_const", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.concatenate([x, jnp.ones(2)]))))(jnp.ones(3))"),
        ("stack", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.stack([x, 2 * x]) ** 2)))(jnp.ones(3))"),
        ("concat_axis1", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.concatenate([x, x], axis=1))))(jnp.ones((2, 2)))"),
        ("linear_transpose", "jax.make_jaxpr(lambda x: jax.linear_transpose(lambda y: jnp.concatenate([y, y]), x)(jnp.ones(6)))(jnp.ones(3))"),
        ("vmap_grad_concat", "jax.make_jaxpr(jax.vmap(jax.grad(lambda x: jnp.sum(jnp.concatenate([x, x ** 2])))))(jnp.ones((2, 3)))")]:
    C(f"docs14_split_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_split_concat_values", "docs14",
  "out = (jax.grad(lambda x: jnp.sum(jnp.concatenate([x, x ** 2, 3 * x]) ** 2))(jnp.arange(3.0)),\n"
  "       jax.jacrev(lambda x: jnp.concatenate([x[:1], jnp.zeros(2), x]))(jnp.arange(2.0)))")

# ---------------------------------------------------------------- a nested jit under grad
# A call inside a jit splits like the outer one: a residual that is one of its known inputs is
# passed on from outside rather than returned (jax.nn.leaky_relu's inner `_where`), and the two
# halves of one body are shared by its calls (`let f2 = ... let f21 = ...`).
NJ = ("@jax.jit\n"
      "def inner(x, y):\n"
      "    return jnp.where(x > 0, x * y, y)\n"
      "@jax.jit\n"
      "def outer(x, y):\n"
      "    return inner(x, y) * 2\n"
      "@jax.jit\n"
      "def f2(x):\n"
      "    return jnp.sin(x) * x\n")
for name, code in [
        ("leaky_relu", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jax.nn.leaky_relu(x))))(jnp.ones(3))"),
        ("elu", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jax.nn.elu(x))))(jnp.ones(3))"),
        ("hard_tanh", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jax.nn.hard_tanh(x))))(jnp.ones(3))"),
        ("outer_inner", "jax.make_jaxpr(jax.grad(outer))(1.0, 2.0)"),
        ("shared_halves", "jax.make_jaxpr(jax.grad(jax.jit(lambda x: f2(x) + f2(2 * x))))(1.0)")]:
    C(f"docs14_nested_{name}_jaxpr", "docs14", NJ + f"out = str({code})")
C("docs14_nested_values", "docs14", NJ +
  "out = (jax.grad(outer, argnums=(0, 1))(1.5, -2.0), jax.grad(jax.jit(lambda x: f2(x) + f2(2 * x)))(0.7),\n"
  "       jax.grad(lambda x: jnp.sum(jax.nn.hard_tanh(x)))(jnp.array([-2.0, 0.5, 3.0])))")

# ---------------------------------------------------------------- sort's jvp indices
# JAX sorts an unsigned iota alongside (uint32: the smallest unsigned dtype that holds the indices) and
# gathers the tangent batched over the other axes, numbered with numpy ints
C("docs14_sort_grad_jaxpr", "docs14", "out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sort(x)[0]))(jnp.ones(3)))")
C("docs14_sort_axis0_grad_jaxpr", "docs14",
  "out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sort(x, axis=0)[0, 1]))(jnp.ones((2, 3))))")
C("docs14_sort_grad_values", "docs14",
  "out = (jax.grad(lambda x: jnp.sort(x)[0] * 2 + jnp.sort(x)[2])(jnp.array([3.0, 1.0, 2.0])),\n"
  "       jax.jacfwd(lambda x: jnp.sort(x, axis=1))(jnp.array([[2.0, 1.0], [0.0, 5.0]])))")

# ---------------------------------------------------------------- calls with a division split too
# A jit whose tangent work divides by a primal (`div t y`) splits into known and tangent calls like
# any other (gradpad linearized such bodies equation by equation, inlining jnp.var's `_var`,
# jnp.hypot, jax.nn.log_softmax under grad); tangent work no output needs (under stop_gradient) is
# not staged, nor the residuals only it reads (log_softmax's max).
for name, code in [
        ("var", "jax.make_jaxpr(jax.grad(jnp.var))(jnp.ones(3))"),
        ("std", "jax.make_jaxpr(jax.grad(lambda x: jnp.std(x)))(jnp.ones(3))"),
        ("hypot", "jax.make_jaxpr(jax.grad(lambda x: jnp.hypot(x, 2.0)))(1.0)"),
        ("log_softmax", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jax.nn.log_softmax(x))))(jnp.ones(3))"),
        ("jit_div", "jax.make_jaxpr(jax.grad(jax.jit(lambda x, y: x / y + y / x)))(1.0, 2.0)"),
        ("jit_stop_gradient", "jax.make_jaxpr(jax.grad(jax.jit(lambda x: jnp.sin(x) * lax.stop_gradient(jnp.cos(x) / x))))(1.0)")]:
    C(f"docs14_divsplit_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_divsplit_values", "docs14",
  "out = (jax.grad(jnp.var)(jnp.arange(4.0)), jax.grad(lambda x: jnp.std(x))(jnp.array([1.0, 3.0, 7.0])),\n"
  "       jax.grad(lambda x: jnp.sum(jax.nn.log_softmax(x) * jnp.arange(3.0)))(jnp.array([0.5, -1.0, 2.0])),\n"
  "       jax.grad(jax.jit(lambda x, y: x / y + y / x), argnums=(0, 1))(1.5, 2.0),\n"
  "       jax.hessian(lambda x: jnp.var(x))(jnp.arange(3.0)))")

# ---------------------------------------------------------------- checkpoint's trace cache ignores the policy
# docs/notebooks/autodiff_remat.md: after redefining `predict` with checkpoint_name, JAX's
# `jax.checkpoint(loss, policy=save_any_names_but_these('layer1_output'))` reuses the trace of `loss` an
# earlier `jax.checkpoint(loss, policy=dots_with_no_batch_dims_saveable)` made (the cache is keyed by the
# function and input types, not the policy), so no name is seen and only the arguments are saved.
REMAT = ("def loss(params, x):\n"
         "    return jnp.sum(predict(params, x) ** 2)\n"
         "def predict(params, x):\n"
         "    return jnp.sin(jnp.dot(params, x))\n"
         "params, x = jnp.ones((2, 2)), jnp.ones(2)\n"
         "first = jax.checkpoint(loss, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)(params, x)\n"
         "def predict(params, x):\n"
         "    return jnp.cos(jnp.dot(params, x))\n")
C("docs14_remat_cache_ignores_policy", "docs14", REMAT +
  "p2 = jax.checkpoint_policies.nothing_saveable\n"
  "second = jax.checkpoint(loss, policy=p2)(params, x)\n"
  "text = str(jax.make_jaxpr(jax.checkpoint(loss, policy=p2))(params, x))\n"
  "fresh = jax.checkpoint(lambda *a: loss(*a), policy=p2)(params, x)\n"
  "out = (first, second, fresh, 'sin' in text, 'cos' in text, jax.grad(jax.checkpoint(loss, prevent_cse=False))(params, x))")

# ---------------------------------------------------------------- jnp/jax.nn functions JAX stages as jits
# jnp.take (`_take`), jnp.append, jax.nn.standardize and jax.nn.glu are jits in JAX 0.10: their jaxprs
# show `jit[name=...]`, and a list argument is no array (TypeError naming the function); meshgrid
# broadcasts y before x for indexing="xy" and checks its arguments as JAX does.
for name, code in [
        ("take", "jax.make_jaxpr(lambda x: jnp.take(x, jnp.array([0, 2])))(jnp.ones(3))"),
        ("take_wrap", "jax.make_jaxpr(lambda x: jnp.take(x, 1, axis=0, mode='wrap'))(jnp.ones(3))"),
        ("take_grad", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.take(x, jnp.array([0, 2])))))(jnp.ones(3))"),
        ("append", "jax.make_jaxpr(jnp.append)(jnp.ones(3), 1.0)"),
        ("append_axis", "jax.make_jaxpr(lambda x: jnp.append(x, x, axis=0))(jnp.ones((2, 2)))"),
        ("append_grad", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.append(x, 1.0))))(jnp.ones(3))"),
        ("meshgrid", "jax.make_jaxpr(jnp.meshgrid)(jnp.ones(2), jnp.ones(3))"),
        ("meshgrid_sparse", "jax.make_jaxpr(lambda a, b, c: jnp.meshgrid(a, b, c, sparse=True))(jnp.ones(2), jnp.ones(3), jnp.ones(4))"),
        ("standardize", "jax.make_jaxpr(jax.nn.standardize)(jnp.ones(3))"),
        ("standardize_stable", "jax.make_jaxpr(lambda x: jax.nn.standardize(x, algorithm='stable'))(jnp.ones((2, 3)))"),
        ("glu", "jax.make_jaxpr(jax.nn.glu)(jnp.ones(4))")]:
    C(f"docs14_staged_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_staged_values", "docs14",
  "x = jnp.array([[1., 2., 3.], [4., 5., 6.]])\n"
  "out = (jnp.take(x, jnp.array([2, 0])), jnp.take(x, jnp.array([2, 0]), axis=1), jnp.take(x, jnp.array([5, -1]), axis=1),\n"
  "       jnp.take(x, jnp.array([5]), axis=1, mode='clip'), jnp.take(x, jnp.array([5]), axis=1, fill_value=-1.0),\n"
  "       jnp.append(jnp.arange(2), 3), jnp.append(x, x[:1], axis=0), jnp.meshgrid(jnp.arange(2), jnp.arange(3)),\n"
  "       jnp.meshgrid(jnp.arange(2), jnp.arange(3), sparse=True, indexing='ij'), jnp.meshgrid(jnp.arange(2)), jnp.meshgrid(),\n"
  "       jax.nn.glu(jnp.arange(4.0)), jax.nn.standardize(jnp.array([1.0, 2.0, 4.0]), algorithm='stable'))", rtol=1e-6)
for name, code in [("take_list", "jnp.take([1, 2, 3], 0)"), ("take_list_indices", "jnp.take(jnp.arange(3), [0, 1])"),
                   ("append_list", "jnp.append([1, 2], 3)"), ("meshgrid_list", "jnp.meshgrid([1, 2], [3])"),
                   ("meshgrid_2d", "jnp.meshgrid(jnp.ones((2, 2)))"), ("meshgrid_indexing", "jnp.meshgrid(jnp.ones(2), indexing='xx')"),
                   ("meshgrid_copy", "jnp.meshgrid(jnp.ones(2), copy=False)"), ("glu_odd", "jax.nn.glu(jnp.ones(3))"),
                   ("standardize_list", "jax.nn.standardize([1.0, 2.0])"),
                   ("standardize_algorithm", "jax.nn.standardize(jnp.ones(2), algorithm='x')")]:
    E(f"docs14_staged_{name}_error", "docs14", f"out = {code}")

# ---------------------------------------------------------------- more jnp functions JAX stages as jits
# jnp.acosh/arccosh, angle, fmod, isinf, signbit, trunc, sinc, heaviside, copysign, rint, around (a jit
# around round's) and ptp (`_ptp`) are jits in JAX 0.10; heaviside asks `ne x1 x1` for NaNs. A jit whose
# output tangent is known to be zero (trunc's) returns no instantiated zero from its known call.
for name, code in [
        ("acosh", "jax.make_jaxpr(jnp.acosh)(jnp.arange(1.0, 4.0))"),
        ("angle", "jax.make_jaxpr(jnp.angle)(jnp.arange(1.0, 4.0))"),
        ("angle_deg", "jax.make_jaxpr(jnp.angle, static_argnums=1)(jnp.ones(3), True)"),
        ("fmod", "jax.make_jaxpr(jnp.fmod)(jnp.arange(1.0, 4.0), jnp.arange(2.0, 5.0))"),
        ("isinf", "jax.make_jaxpr(jnp.isinf)(jnp.arange(1.0, 4.0))"),
        ("signbit", "jax.make_jaxpr(jnp.signbit)(jnp.arange(1.0, 4.0))"),
        ("trunc", "jax.make_jaxpr(jnp.trunc)(jnp.arange(1.0, 4.0))"),
        ("sinc", "jax.make_jaxpr(jnp.sinc)(jnp.arange(1.0, 4.0))"),
        ("heaviside", "jax.make_jaxpr(jnp.heaviside)(jnp.arange(1.0, 4.0), jnp.arange(2.0, 5.0))"),
        ("copysign", "jax.make_jaxpr(jnp.copysign)(jnp.arange(1.0, 4.0), jnp.arange(2.0, 5.0))"),
        ("rint", "jax.make_jaxpr(jnp.rint)(jnp.arange(1.0, 4.0))"),
        ("rint_complex", "jax.make_jaxpr(jnp.rint)(jnp.ones(3, dtype=jnp.complex64))"),
        ("around", "jax.make_jaxpr(jnp.around)(jnp.arange(1.0, 4.0))"),
        ("around_2", "jax.make_jaxpr(lambda x: jnp.around(x, 2))(jnp.ones(3))"),
        ("ptp", "jax.make_jaxpr(jnp.ptp)(jnp.arange(1.0, 4.0))"),
        ("vmap_ptp", "jax.make_jaxpr(jax.vmap(jnp.ptp))(jnp.ones((2, 3)))"),
        ("grad_mix", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.sinc(x) + jnp.trunc(x) + jnp.copysign(x, -1.0))))(jnp.ones(3))"),
        ("grad_trunc_jit", "jax.make_jaxpr(jax.grad(jax.jit(lambda x: jnp.floor(x) * 2 + x)))(1.5)")]:
    C(f"docs14_staged2_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_staged2_values", "docs14",
  "out = (jnp.heaviside(jnp.array([-1.0, 0.0, 2.0, jnp.nan]), 0.5), jnp.heaviside(0.0, 0.5), jnp.heaviside(jnp.array([-2, 0, 3]), 0.5),\n"
  "       jnp.isinf(jnp.array([1.0, jnp.inf, -jnp.inf])), jnp.isinf(1), jnp.isinf(jnp.array([1+1j, jnp.inf])),\n"
  "       jnp.signbit(jnp.array([-0.0, 1.0, -2])), jnp.signbit(3), jnp.trunc(jnp.array([-1.5, 2.7])), jnp.trunc(3),\n"
  "       jnp.rint(jnp.array([0.5, 1.5, 2.5])), jnp.rint(2), jnp.rint(jnp.array([1.5+2.5j])),\n"
  "       jnp.around(jnp.array([1.234, 5.678]), 1), jnp.around(jnp.array([1.5, 2.5])),\n"
  "       jnp.ptp(jnp.arange(6.0).reshape(2, 3)), jnp.ptp(jnp.arange(6.0).reshape(2, 3), axis=1),\n"
  "       jnp.ptp(jnp.arange(6).reshape(2, 3), axis=[0, 1], keepdims=True), jnp.angle(jnp.array([1+1j, -1.0])),\n"
  "       jnp.angle(jnp.array([1+1j]), deg=True), jnp.angle(2.0), jnp.sinc(jnp.array([0.0, 0.5])), jax.grad(jnp.sinc)(0.0),\n"
  "       jnp.copysign(jnp.array([1.0, -2.0]), -1.0), jnp.fmod(jnp.array([-3, 3]), 2), jnp.fmod(-3.5, 2.0),\n"
  "       jnp.acosh(jnp.array([1.0, 2.0])), jnp.arccosh(2), jnp.acosh(jnp.array([0.5+0j])),\n"
  "       jax.grad(jax.jit(lambda x: jnp.floor(x) * 2 + jnp.trunc(x) * x))(1.5))")
for name, code in [("isinf", "jnp.isinf([1.0])"), ("trunc", "jnp.trunc([1.5])"), ("ptp", "jnp.ptp([1, 2])"),
                   ("rint", "jnp.rint([1.0])"), ("angle", "jnp.angle([1.0])"), ("sinc", "jnp.sinc([0.0])"),
                   ("heaviside", "jnp.heaviside([1.0], 0.5)"), ("signbit", "jnp.signbit([1.0])"),
                   ("acosh", "jnp.acosh([1.0])"), ("fmod", "jnp.fmod([1.0], 2.0)"), ("copysign", "jnp.copysign([1.0], 2.0)")]:
    E(f"docs14_staged2_{name}_list_error", "docs14", f"out = {code}")
C("docs14_staged2_angle_rint_dtypes", "docs14",
  "out = (jnp.angle(jnp.array([1, -2])), jnp.angle(3), jnp.angle(True), jnp.angle(jnp.float16(-1)),\n"
  "       str(jax.make_jaxpr(jnp.angle)(2.0)), str(jax.make_jaxpr(jnp.angle)(jnp.ones(2, jnp.int32))),\n"
  "       str(jax.make_jaxpr(jnp.rint)(jnp.ones(2, jnp.int32))), jnp.rint(jnp.array([1, 2])), jnp.rint(True))")

# ---------------------------------------------------------------- jnp.array of a traced value copies it
# JAX's jnp.array(x) (copy=True, the default), jnp.copy(x) and x.copy() on a tracer bind `copy` (then
# convert_element_type if a dtype is asked); jnp.asarray and copy=False do not; grad transposes copy to copy.
for name, code in [
        ("array", "jax.make_jaxpr(lambda x: jnp.array(x))(jnp.ones(3))"),
        ("array_nocopy", "jax.make_jaxpr(lambda x: jnp.array(x, copy=False))(jnp.ones(3))"),
        ("array_dtype", "jax.make_jaxpr(lambda x: jnp.array(x, dtype=jnp.int32))(jnp.ones(3))"),
        ("array_same_dtype", "jax.make_jaxpr(lambda x: jnp.array(x, dtype=jnp.float32))(jnp.ones(3))"),
        ("asarray", "jax.make_jaxpr(lambda x: jnp.asarray(x))(jnp.ones(3))"),
        ("copy", "jax.make_jaxpr(lambda x: (jnp.copy(x), x.copy()))(jnp.ones(3))"),
        ("list", "jax.make_jaxpr(lambda x: jnp.array([x, x]))(jnp.ones(3))"),
        ("nested_list", "jax.make_jaxpr(lambda x: jnp.array([[x, 1.0], [2.0, x]]))(3.0)"),
        ("ndmin", "jax.make_jaxpr(lambda x: jnp.array(x, ndmin=2))(jnp.ones(3))"),
        ("weak_scalar", "jax.make_jaxpr(lambda x: jnp.array(x))(2.0)"),
        ("grad", "jax.make_jaxpr(jax.grad(lambda x: jnp.array(x).sum()))(jnp.ones(3))"),
        ("vmap", "jax.make_jaxpr(jax.vmap(lambda x: jnp.array(x)))(jnp.ones(3))")]:
    C(f"docs14_copy_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_copy_values", "docs14",
  "out = (jax.jit(lambda x: jnp.array(x))(2.0), jax.jit(lambda x: jnp.array(x, copy=False))(2),\n"
  "       jax.grad(lambda x: jnp.array(x) * 2)(1.0), jax.jit(lambda x: jnp.array([x, 2 * x], dtype=jnp.int32))(1.5))")

# ---------------------------------------------------------------- hessian jaxprs: numpy ints, no 1-operand concatenate
# broadcast_in_dim's batching rule shifts the dimensions with numpy (`(0, np.int64(1))` in JAX's hessians of
# indexed parameters), and split's transpose of a single cotangent is that cotangent (lax.concatenate of one
# operand is the operand: jacrev(jacfwd(f)) shows none).
for name, code in [
        ("indexed_params", "jax.make_jaxpr(jax.hessian(lambda p: jnp.sum((p[0] * jnp.arange(3.0) + p[1] - jnp.ones(3)) ** 2)))(jnp.ones(2))"),
        ("indexed_poly", "jax.make_jaxpr(jax.hessian(lambda x: x[0] ** 2 * x[1] + jnp.exp(x[1])))(jnp.ones(2))"),
        ("softmax", "jax.make_jaxpr(jax.hessian(lambda x: jnp.sum(jax.nn.softmax(x) * jnp.arange(3.0))))(jnp.ones(3))"),
        ("norm", "jax.make_jaxpr(jax.hessian(lambda x: jnp.linalg.norm(x)))(jnp.ones(3))"),
        ("jacrev_jacfwd", "jax.make_jaxpr(jax.jacrev(jax.jacfwd(lambda x: jnp.sin(x) * x)))(jnp.ones(2))"),
        ("vmap_broadcast", "jax.make_jaxpr(jax.vmap(lambda x: jnp.broadcast_to(x, (2, 3))))(jnp.ones((4, 3)))")]:
    C(f"docs14_hess_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_hess_values", "docs14",
  "out = (jax.hessian(lambda x: x[0] ** 2 * x[1] + jnp.exp(x[1]))(jnp.array([1.0, 0.5])),\n"
  "       jax.jacrev(jax.jacfwd(lambda x: jnp.sin(x) * x))(jnp.array([0.3, 1.2])),\n"
  "       jax.grad(lambda x: jnp.sum(jnp.split(x, 1)[0] ** 2))(jnp.arange(3.0)))")

# ---------------------------------------------------------------- reshape with dimensions: grads and vmap
# lax.reshape(x, shape, dimensions) transposes x before reshaping. Its transpose rule and batching rule
# dropped the permutation: grad and vmap gave silently wrong values (grad of sum(reshape(x, (6,), (1, 0)) * w)
# was w reshaped without the transpose).
RS = "x = jnp.arange(6.0).reshape(2, 3)\nw = jnp.arange(6.0)\n"
C("docs14_reshape_dims_grad", "docs14", RS + "out = jax.grad(lambda x: jnp.sum(lax.reshape(x, (6,), (1, 0)) * w))(x)")
C("docs14_reshape_dims_vmap", "docs14", RS +
  "out = (jax.vmap(lambda x: lax.reshape(x, (6,), (1, 0)))(jnp.stack([x, x + 1])),\n"
  "       jax.vmap(lambda x: lax.reshape(x, (6,), (1, 0)), in_axes=1)(jnp.stack([x, x + 1], axis=1)))")
C("docs14_reshape_dims_jacrev", "docs14", RS + "out = jax.jacrev(lambda x: lax.reshape(x, (3, 2), (1, 0)))(x)")
C("docs14_reshape_dims_grad_jaxpr", "docs14", RS +
  "out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sum(lax.reshape(x, (6,), (1, 0)) * w)))(x))")

# ---------------------------------------------------------------- reduce_prod's jvp: JAX's pairwise tree
# JAX differentiates a product by reducing the (moved, flattened) axes as a tree of pairwise products
# under vmap and jvp: its jaxprs show slices (strides=(1,)), pads with 1 and np.int64 pad configs
# in the transposes; exact where x has zeros.
for name, code in [
        ("prod", "jax.make_jaxpr(jax.grad(lambda x: jnp.prod(x)))(jnp.ones(3))"),
        ("prod_axis0", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.prod(x, axis=0))))(jnp.ones((3, 2)))"),
        ("prod_axis1", "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.prod(x, axis=1))))(jnp.ones((3, 4)))"),
        ("prod_jvp5", "jax.make_jaxpr(lambda x: jax.jvp(jnp.prod, (x,), (x,)))(jnp.ones(5))"),
        ("prod_hessian", "jax.make_jaxpr(jax.hessian(jnp.prod))(jnp.ones(3))"),
        ("slice_in_dim", "jax.make_jaxpr(lambda x: lax.slice_in_dim(x, 1, 3))(jnp.ones(4))")]:
    C(f"docs14_prod_{name}_jaxpr", "docs14", f"out = str({code})")
C("docs14_prod_values", "docs14",
  "out = (jax.grad(jnp.prod)(jnp.array([1.0, 0.0, 3.0, 2.0])), jax.grad(jnp.prod)(jnp.array([0.0, 0.0, 3.0])),\n"
  "       jax.grad(jnp.prod)(jnp.arange(1.0, 6.0)),\n"
  "       jax.grad(lambda x: jnp.sum(jnp.prod(x, axis=(0, 2))))(jnp.arange(1.0, 13.0).reshape(2, 3, 2)),\n"
  "       jax.jacfwd(lambda x: jnp.prod(x, axis=1))(jnp.arange(1.0, 7.0).reshape(2, 3)),\n"
  "       jax.grad(jnp.prod)(jnp.ones(1)), jax.vmap(jax.grad(jnp.prod))(jnp.arange(1.0, 7.0).reshape(2, 3)),\n"
  "       jax.grad(lambda z: jnp.prod(z).real)(jnp.array([1+1j, 2-1j])), jax.hessian(jnp.prod)(jnp.array([1.0, 2.0, 3.0])))")
