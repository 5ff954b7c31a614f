"""Case definitions for bits_cases.json (issue 11, speed): PRNG samples and the special functions
behind them, bit for bit against real JAX on the CPU device. Samples are compared as bit patterns
(`bitcast_convert_type` to unsigned ints), so any changed last bit fails. Bit-exactness is the
CPU backend's promise, so each case runs on the CPU device, also when the golden suite reruns
everything with WebGPU as the default."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()

X64 = "jax.config.update('jax_enable_x64', True)\n"


def _bits(expr, uint="jnp.uint64"):
    return f"lax.bitcast_convert_type({expr}, {uint})"


CPU = on_cpu(C)


# ---------------------------------------------------------------- float64 samplers under x64
# random.normal(float64) is sqrt(2) * erf_inv(u) with XLA's double-precision erf_inv (Giles'
# three polynomials over XLA's log1p); the others go through float64 log / log1p.
for seed, shape in ((0, "(1000,)"), (1, "(3, 7)"), (42, "()"), (2**31 - 1, "(2000,)")):
    tag = shape.strip("()").replace(", ", "x").replace(",", "") or "scalar"
    CPU(f"normal_f64_bits_seed{seed}_{tag}", "random",
        X64 + f"out = {_bits(f'random.normal(random.PRNGKey({seed}), {shape}, jnp.float64)')}")
CPU("normal_f64_bits_legacy_threefry", "random", X64 + "jax.config.update('jax_threefry_partitionable', False)\n"
    f"out = {_bits('random.normal(random.PRNGKey(3), (500,), jnp.float64)')}")
CPU("normal_f64_bits_default_dtype_jit_vmap", "random", X64 +
    "ks = random.split(random.PRNGKey(8), 3)\n"
    f"out = {_bits('jax.jit(jax.vmap(lambda k: random.normal(k, (200,))))(ks)')}")
for sampler in ("exponential", "logistic", "gumbel", "laplace", "cauchy"):
    CPU(f"{sampler}_f64_bits", "random",
        X64 + f"out = {_bits(f'random.{sampler}(random.PRNGKey(11), (2000,), jnp.float64)')}")

# ---------------------------------------------------------------- float64 erf_inv, log, log1p
# erf_inv's three branches (w = -log1p(-x*x) below 6.25, below 16, beyond), its edges and signs.
CPU("erf_inv_f64_bits_branches", "lax", X64 + "x = jnp.array([0.0, -0.0, 1e-300, 0.25, -0.5, 0.9, 0.99, -0.998, "
    "0.999, 0.9999, 0.99999, -0.999999, 0.9999999, 1 - 1e-9, 1 - 1e-12, 1 - 2**-52, -(1 - 2**-53), 1.0, -1.0], "
    "jnp.float64)\n" f"out = {_bits('lax.erf_inv(x)')}")
C("erf_inv_f64_out_of_domain", "lax", X64 + "out = lax.erf_inv(jnp.array([1.5, -2.0, jnp.nan, jnp.inf]))")
CPU("erf_inv_f64_bits_grid", "lax", X64 + "x = jnp.asarray(np.linspace(-1.0, 1.0, 4001))\n"
    f"out = {_bits('lax.erf_inv(x)')}")
# float64 log is the C library's: numpy's AVX-512 log rounds these inputs the other way
LOG_INPUTS = ("[0.9999999999999998, 0.9999999999999987, 0.9999999999999956, 0.9999999999999938, "
              "0.9764623219360444, 0.8203077943609558, 0.6018248802352766, 0.9961861755797514, "
              "0.9699284384611542, 0.9947412270301161, 0.8279477502797665, 0.9988649245287295]")
CPU("log_f64_bits_libm_rounding", "lax", X64 + f"x = jnp.array({LOG_INPUTS})\n"
    f"out = ({_bits('jnp.log(x)')}, {_bits('jax.jit(jnp.log)(x)')})")
CPU("log1p_f64_bits_both_branches", "lax", X64 +
    "x = jnp.array([-0.0, 0.0, 1e-300, -1e-10, 2.220446049250313e-16, 0.1, -0.3, 0.4142, -0.4142, 0.4143, "
    "-0.5, 0.75, 3.0, -0.9999999999, 1e10, -1.0, np.inf])\n"
    f"out = ({_bits('jnp.log1p(x)')}, {_bits('jax.jit(lambda v: -jnp.log1p(-v))(-x)')})")
CPU("tan_f64_bits_libm_rounding", "lax", X64 + "x = jnp.asarray(np.linspace(-1.5, 1.5, 1001))\n"
    f"out = ({_bits('jnp.tan(x)')}, {_bits('jax.jit(lambda v: jnp.tan(v * 2.0))(x / 2.0)')})")
C("tan_f64_specials", "lax", X64 + "out = jnp.tan(jnp.array([0.0, -0.0, np.inf, -np.inf, np.nan]))")
CPU("log_tan_log1p_f64_bits_scalars", "lax", X64 + "x = jnp.float64(0.8203077943609558)\n"
    f"out = ({_bits('jnp.log(x)')}, {_bits('jnp.tan(x)')}, {_bits('jnp.log1p(-x)')}, {_bits('lax.erf_inv(x)')}, "
    f"{_bits('jax.grad(jnp.log)(x)')})")
C("log_log1p_f64_specials", "lax", X64 + "x = jnp.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan])\n"
  "out = (jnp.log(x), jnp.log1p(x - 1.0))")

# ---------------------------------------------------------------- float32 erf_inv: the log it uses
# Inputs where XLA's float32 log (inside log1p, inside erf_inv) fuses `y * x**3 + q1 * e` into one
# multiply-add; an emulation rounding the two apart was 1 ulp off on these (1 sample in ~35000).
ERF_INV_F32_INPUTS = (
    "[-0.9973041415214539, -0.9972092509269714, -0.9948891997337341, -0.9947716593742371, "
    "-0.9945756793022156, -0.9901577830314636, -0.9882630705833435, -0.9872674345970154, "
    "-0.9799498915672302, -0.9798585772514343, -0.9791826605796814, -0.9780446887016296, "
    "-0.9776744246482849, -0.9746050238609314, -0.9617318511009216, -0.9604138731956482, "
    "-0.9597448706626892, -0.9591845870018005, -0.9581381678581238, -0.9579247832298279, "
    "-0.9575034976005554, -0.9573778510093689, -0.9565381407737732, -0.9562649130821228, "
    "-0.9562303423881531, -0.9551267027854919, -0.9528965353965759, -0.9506635069847107, "
    "-0.9504916071891785, -0.9500245451927185, -0.948117196559906, -0.9449087977409363, "
    "-0.9271907210350037, -0.9238645434379578, -0.922771155834198, -0.9220933318138123]")
CPU("erf_inv_f32_bits_log_fma", "lax", f"x = jnp.array({ERF_INV_F32_INPUTS}, jnp.float32)\n"
    f"out = ({_bits('lax.erf_inv(x)', 'jnp.uint32')}, {_bits('jax.jit(lambda v: jnp.sqrt(2.0) * lax.erf_inv(v))(x)', 'jnp.uint32')})")
