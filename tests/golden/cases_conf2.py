"""Case definitions for conf2_cases.json: what the extra documentation pages (tools/doc_cells.py
--extra: aot, the debugging guides, type promotion, ...) showed differing, recorded from real
JAX 0.10.2 (area "conf2")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- AOT stages with static arguments
# docs/aot.md: `jax.jit(f, static_argnums=0).trace(7, 8).lower().compile()(5)` -> Array(19, weak):
# the compiled function takes only the dynamic arguments; the traced static value stays baked in.
C("conf2_aot_compiled_static_args", "conf2",
  "f = lambda x, y, z=1: 2 * x + y - z\n"
  "out = (jax.jit(f, static_argnums=0).trace(7, 8).lower().compile()(5), "
  "jax.jit(f, static_argnames='y').trace(7, y=8).lower().compile()(5), "
  "jax.jit(f, static_argnums=(2, 0)).trace(1, 2, 3).lower().compile()(10))")
E("conf2_aot_compiled_static_arg_passed_again", "conf2",
  "f = lambda x, y: 2 * x + y\n"
  "out = jax.jit(f, static_argnums=0).trace(7, 8).lower().compile()(7, 5)", msg_prefix=0)
