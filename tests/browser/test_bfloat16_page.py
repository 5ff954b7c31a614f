"""bfloat16 in the built site (Pyodide has no ml_dtypes: the engine's own bfloat16 runs there).

A gallery-like program in bfloat16 goes through the page API on the suite's shared page; its
printed values, its jaxpr and the app's panes are JAX 0.10.2's (quoted below)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(900)

CODE = """import jax
import jax.numpy as jnp

def loss(w):
    x = jnp.linspace(-1, 1, 8, dtype=jnp.bfloat16)
    return jnp.mean((jnp.tanh(w * x) - 0.5 * x) ** 2)

w = jnp.bfloat16(0.7)
print(jax.value_and_grad(loss)(w))
print(jax.jit(jax.grad(loss))(w))
print(jax.random.uniform(jax.random.PRNGKey(0), (3,), dtype=jnp.bfloat16))
loss(w)
"""

# JAX 0.10.2, CODE's prints (CPython, ml_dtypes)
PRINTED = ["(Array(0.00726318, dtype=bfloat16), Array(0.0805664, dtype=bfloat16))",
           "0.0805664",
           "[0.648438 0.570312 0.15625]"]
# JAX 0.10.2: print(jax.make_jaxpr(loss)(w)), the main jaxpr (after its `let _linspace = ...` block)
JAXPR_BODY = """{ lambda ; q:bf16[]. let
    r:bf16[8] = jit[name=_linspace jaxpr=_linspace] -1:i32[] 1:i32[]
    s:bf16[8] = mul q r
    t:bf16[8] = tanh s
    u:bf16[8] = mul 0.5:bf16[] r
    v:bf16[8] = sub t u
    w:bf16[8] = integer_pow[y=2] v
    x:f32[8] = convert_element_type[new_dtype=float32 weak_type=False] w
    y:f32[] = reduce_sum[axes=(0,) out_sharding=None] x
    z:f32[] = div y 8.0:f32[]
    ba:bf16[] = convert_element_type[new_dtype=bfloat16 weak_type=False] z
  in (ba,) }"""


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    return gp


def test_a_bfloat16_program_runs_in_the_page_with_jax_values(app_page):
    app_page.page.set_default_timeout(180_000)
    snap = app_page.page.evaluate("opts => window.gradpad.load(opts)", {"code": CODE})
    assert snap["error"] is None, snap
    assert snap["function"] == "loss", snap
    for line in PRINTED:
        assert line in snap["console"], snap["console"]
    assert snap["jaxpr"].endswith(JAXPR_BODY), snap["jaxpr"]
    assert "NotImplementedError" not in snap["console"], snap["console"]
    assert snap["plots"] == {"f": 201, "df": 201, "d2f": 201}, snap["plots"]  # loss and its derivatives plotted
