"""Case definitions for xlamath_cases.json (issue 24): float32 exp, log, log1p and tanh bit for bit
against real JAX on the CPU device. XLA inlines its own polynomials for these (not the C
library's, not numpy's: numpy's exp rounds ~30% of inputs the other way), flushes denormals, and
the engine emulates that for arrays of up to _xla_f32.EXACT_MAX elements (4 by default: scalars and
the few-element vectors of an MCMC state or a Dirichlet; GRADPAD_XLA_MATH_MAX raises it), so the
inputs go in pieces of 4 (`ch`). Compared as bit patterns, eager and under jit."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()


def _bits(expr):
    return f"lax.bitcast_convert_type({expr}, jnp.uint32)"


CPU = on_cpu(C)


# Inputs: every 4099th float32 bit pattern (signs, denormals, inf, nan, the whole exponent range),
# a grid over exp's finite range, and the edges where exp overflows / flushes to zero.
PATTERNS = "lax.bitcast_convert_type(jnp.asarray(np.arange(0, 2**32, 4099 * 4099, dtype=np.uint32)), jnp.float32)"
SPECIALS = ("jnp.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-39, 1.1754944e-38, 1.0, -1.0, "
            "88.72, 88.7228, 88.72284, 88.7229, 88.8, 89.0, -87.33, -87.3365, -87.34, -87.8, -103.9, -104.0, "
            "3.4e38, -3.4e38, 0.5, 2.0, 1e-4, 3.9e-4, 4e-4, 7.99, 8.0, 19.99, 20.0], jnp.float32)")

# (a nan's bits are not compared: XLA's log gives 0xffffffff or 0xffc00000 by the position in its
# vector loop; `no_nan` zeroes them and the case records where they are)
NO_NAN = ("no_nan = lambda y: (jnp.where(jnp.isnan(y), 0.0, y), jnp.isnan(y))\n"
          "ch = lambda f, x: jnp.concatenate([f(x[i:i + 4]) for i in range(0, x.shape[0], 4)])\n")


def _bits_no_nan(expr):
    return f"(lambda y: ({_bits('y[0]')}, y[1]))(no_nan({expr}))"


for fn in ("exp", "log", "log1p", "tanh"):
    CPU(f"{fn}_f32_bits_patterns", "xlamath", NO_NAN + f"x = {PATTERNS}\n"
        f"out = ({_bits_no_nan(f'ch(jnp.{fn}, x)')}, {_bits_no_nan(f'ch(jax.jit(jnp.{fn}), x)')})")
    CPU(f"{fn}_f32_bits_specials", "xlamath", NO_NAN + f"x = {SPECIALS}\n"
        f"out = ({_bits_no_nan(f'ch(jnp.{fn}, x)')}, {_bits_no_nan(f'ch(jax.jit(jnp.{fn}), x)')}, "
        f"{_bits_no_nan(f'jnp.{fn}(x[:4])')})")
    # one element at a time (the Python-float path) and a grid of 400 (the vectorized path)
    CPU(f"{fn}_f32_bits_scalars_and_grid", "xlamath", NO_NAN +
        "g = jnp.asarray(np.linspace(-30.0, 30.0, 400, dtype=np.float32))\n"
        f"out = ({_bits(f'ch(jnp.{fn}, g)')}, {_bits(f'jax.vmap(jnp.{fn})(g[::100])')}, "
        f"[{_bits(f'jnp.{fn}(g[i])')} for i in range(0, 400, 37)])")

CPU("exp_f32_bits_overflow_underflow_edges", "xlamath", NO_NAN +
    "x = jnp.asarray(np.concatenate([np.linspace(88.3, 88.8, 500, dtype=np.float32), "
    "np.linspace(-88.0, -87.0, 500, dtype=np.float32)]))\n"
    f"out = ({_bits('ch(jnp.exp, x)')}, {_bits('ch(jax.jit(lambda v: jnp.exp(v)), x)')})")
CPU("log_f32_bits_near_one_and_denormals", "xlamath", NO_NAN +
    "x = jnp.asarray(np.concatenate([np.linspace(0.5, 2.0, 895, dtype=np.float32), "
    "np.array([1e-45, 1e-40, 1.17e-38, 1.1754944e-38, 1e-40], np.float32)]))\n"
    f"out = ({_bits('ch(jnp.log, x)')}, {_bits('ch(jnp.log1p, x - 1.0)')}, {_bits('ch(jax.jit(jnp.log), x)')})")
# what a sampler or an MCMC step computes with them: logsumexp, a log-density, a gradient
# (eager: under jit XLA also fuses the gradient's multiply-adds, which the engine does not)
CPU("logsumexp_logpdf_f32_bits", "xlamath", NO_NAN +
    "x = jnp.asarray(np.linspace(-5.0, 7.0, 12, dtype=np.float32).reshape(3, 4))\n"
    f"out = ({_bits('jax.nn.logsumexp(x, axis=1)')}, "
    f"{_bits('jax.scipy.stats.norm.logpdf(x, 0.5, jnp.exp(0.3))')}, {_bits('ch(jnp.exp, x.ravel()) - 1.0')})")
CPU("grad_of_exp_log_tanh_f32_bits", "xlamath",
    "f = lambda v: jnp.sum(jnp.tanh(jnp.exp(v) * 0.1) + jnp.log(v * v + 1.0))\n"
    "x = jnp.asarray(np.linspace(-3.0, 3.0, 4, dtype=np.float32))\n"
    f"out = {_bits('jax.grad(f)(x)')}")
# beyond EXACT_MAX elements numpy's kernels run (faster; the last bit may differ): values only
C("exp_log_f32_large_arrays_close", "xlamath",
  "x = jnp.asarray(np.linspace(0.01, 20.0, 1500, dtype=np.float32))\nout = (jnp.exp(x), jnp.log(x), jnp.tanh(x))",
  rtol=6e-6, atol=0)  # WebGPU runs this case too: WGSL's exp is specified to 3 + 2|x| ULP (43 at x = 20)
