"""The edit that `python build.py bench page` makes to the analysed function (tools.bench_page
.f_edit): a numeric literal in f nudged where the code still runs, else a line in its body;
rows and columns as the editor (ace) counts them."""
from __future__ import annotations

from tools.bench_page import apply_change, f_edit, still_runs

CODE = """import jax.numpy as jnp

def other(x):
    return x * 5.0

def f(x):
    s = "é"  # a non-ASCII character before the literal: ace counts characters, ast bytes
    return jnp.sin(x) * 2.0 + other(x)
"""


def test_the_first_float_literal_in_f_is_nudged_and_nothing_else():
    change = f_edit(CODE, "f", 0)
    assert change["how"] == "literal" and change["row"] == 7
    edited = apply_change(CODE, change)
    assert edited == CODE.replace("* 2.0 +", "* 1.998 +")  # other()'s 5.0 is not f's


def test_an_int_operand_is_nudged_when_there_is_no_float_but_never_an_index():
    code = "import jax.numpy as jnp\n\ndef f(x):\n    return x[0] ** 2 + jnp.sum(x)\nf(jnp.ones(3))\n"
    change = f_edit(code, "f", 0)
    assert change["how"] == "int literal" and apply_change(code, change) == code.replace("** 2", "** 3")


def test_an_edit_that_breaks_the_code_is_not_taken():
    # 2 -> 3 makes the reshape fail: the line put first in f is taken instead
    code = "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sum(x.reshape(2 * 2))\nf(jnp.ones(4))\n"
    change = f_edit(code, "f", 4, still_runs("f"))
    assert change["how"] == "line"
    assert apply_change(code, change) == code.replace("    return", "    _edit = 4\n    return")


def test_no_edit_for_a_lambda_without_literals():
    assert f_edit("f = lambda x: x + x\n", "f", 0) is None
    assert f_edit("f = lambda x: x * 3.0\n", "f", 0)["text"] == "2.997"
