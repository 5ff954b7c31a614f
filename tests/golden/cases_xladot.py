"""Case definitions for xladot_cases.json (issue 24, drift): short float32 dot products, bit for
bit against XLA's CPU backend (core/_engine/primitives/_xla_dot.py: one chain of fused
multiply-adds per output element). Results are compared as uint32 bit patterns; each product
runs eagerly and under jit three times (the first jitted call is interpreted, the later ones run
the generated code). optimistix's BFGS (a 2x2 inverse Hessian times a gradient) took another
path from JAX's at its first such product."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()


CPU = on_cpu(C)


# deterministic float32 operands of mixed signs and magnitudes (no np.random in cases)
DATA = ("def data(shape, seed):\n"
        "    n = int(np.prod(shape))\n"
        "    v = np.sin(np.arange(1, n + 1) * 12.9898 + seed * 78.233) * 43758.5453\n"
        "    return jnp.asarray(((v - np.floor(v)) * 4.0 - 2.0).reshape(shape), jnp.float32)\n"
        "def bits(f, *a):\n"
        "    jf = jax.jit(f)\n"
        "    return [lax.bitcast_convert_type(r, jnp.uint32) for r in [f(*a)] + [jf(*a) for _ in range(3)]]\n")

CPU("xladot_vector_dot_vector", "lax", DATA +
    "out = [bits(jnp.dot, data((k,), k), data((k,), 100 + k)) for k in (2, 3, 4, 5, 7, 8, 13, 16, 32)]")
CPU("xladot_matrix_times_vector", "lax", DATA +
    "out = [bits(jnp.matmul, data((m, k), 10 * m + k), data((k,), 7 * k)) for m in (1, 2, 3, 9, 40) for k in (2, 3, 5, 7)]")
CPU("xladot_transposed_matrix_times_vector", "lax", DATA +
    "f = lambda a, v: lax.dot_general(a, v, (([0], [0]), ([], [])))\n"
    "out = [bits(f, data((k, m), m + k), data((k,), 3 * k)) for m, k in ((1, 2), (1, 7), (2, 2), (3, 2), (3, 4), (3, 7), (4, 4), (8, 7), (9, 2))]")
CPU("xladot_vector_times_matrix", "lax", DATA +
    "out = [bits(jnp.matmul, data((k,), k), data((k, n), n * k)) for n in (1, 3, 4, 8) for k in (2, 3, 6)]\n"
    "out += [bits(jnp.matmul, data((2,), 1), data((2, n), n)) for n in (2, 9)]")
CPU("xladot_vector_times_matrix_transpose", "lax", DATA +
    "f = lambda v, a: lax.dot_general(v, a, (([0], [1]), ([], [])))\n"
    "out = [bits(f, data((k,), k), data((m, k), m)) for m in (2, 3, 4) for k in (2, 3, 7)]")
CPU("xladot_bfgs_inverse_hessian_times_gradient", "lax", DATA +
    "h = jnp.array([[0.15726995468139648, -0.36318153142929077], [-0.36318153142929077, 0.8439217805862427]], jnp.float32)\n"
    "g = jnp.array([38.33802795410156, 21.384000778198242], jnp.float32)\n"
    "out = bits(jnp.matmul, h, g) + bits(lambda h, g: -(h @ g), h, g)")
