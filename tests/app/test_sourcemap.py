"""Source <-> jaxpr: each equation of the jaxpr pane is marked with the line of code it came
from, as JAX's source_info records it (golden: tests/golden/cases_teachui.py)."""
import re

import pytest

from app import main, sourcemap
from app.panes import jaxpr as jaxpr_pane

sandbox = __import__("app.sandbox", fromlist=["install_jax"])
sandbox.install_jax()
import jax  # noqa: E402  (the engine)

CODE = """import jax.numpy as jnp

def f(x):
    y = jnp.sin(x)
    z = y * 2.0
    return jnp.sum(z ** 2)

f(jnp.ones(3))
"""


@pytest.fixture(scope="module")
def pg():
    return main.create_app(code=CODE).playground


def marked(html: str) -> list:
    """(line of code, primitive) for every equation span of the pane's HTML."""
    return [(int(n), prim) for n, prim in
            re.findall(r'<span class="gp-eqn" data-gp-src="(\d+)"[^>]*>[^\n]*?class="gp-jp">(\w+)<', html)]


def test_each_equation_points_at_its_line(pg):
    # JAX: make_jaxpr(f)(ones(3)).pretty_print(source_info=True) ends the lines with
    # <file>:4:8 (f) sin, :5:8 mul, :6:19 integer_pow, :6:11 reduce_sum
    html = jaxpr_pane.jaxpr_html(pg.analysis.jaxprs["f"])
    assert marked(html) == [(4, "sin"), (5, "mul"), (6, "integer_pow"), (6, "reduce_sum")]
    assert pg.snapshot()["source_map"] == {"4": 1, "5": 1, "6": 2}


def test_grad_cotangent_equations_point_at_their_primal_line(pg):
    # JAX: make_jaxpr(grad(f)) — the backward mul by 2.0 (transpose of `y * 2.0`) carries 5:8,
    # the mul by cos (transpose of sin's jvp) carries 4:8
    lines = sourcemap.mapped_lines(pg.analysis.jaxprs["grad"].closed.jaxpr)
    eqns = [(ln.src, ln.text.split(" = ")[1].split()[0]) for ln in lines if ln.src is not None]
    assert eqns[-2:] == [(5, "mul"), (4, "mul")]
    assert [src for src, prim in eqns if prim == "cos"] == [4]
    assert sourcemap.plain_text(lines) == str(jax.make_jaxpr(jax.grad(pg.analysis.function.fn))(jax.numpy.ones(3)))


def test_library_code_has_no_line(pg):
    # JAX: the equations inside jnp.where's own jit carry no user frame
    code = "import jax.numpy as jnp\n\ndef g(x):\n    return jnp.where(x > 0, x, 0.0)\n\ng(1.0)\n"
    a = main.create_app(code=code).playground.analysis
    lines = sourcemap.mapped_lines(a.jaxprs["f"].closed.jaxpr)
    srcs = [(ln.src, ln.text.strip().split(" = ")[-1].split("[")[0].split()[0]) for ln in lines if " = " in ln.text]
    assert srcs == [(4, "gt"), (4, "jit"), (None, "select_n")]


def test_grad_stages_link_their_equations_too(pg):
    # JAX: in vjp's backward jaxpr (make_jaxpr(f_vjp)), the mul by 2.0 is the transpose of
    # `z = y * 2.0` (line 5) and the mul by cos(x) that of `y = jnp.sin(x)` (line 4)
    from app.panes import stages as stages_pane
    transposed = next(s for s in pg.analysis.stages if s.name == "transposed")
    assert len(transposed.sources) == len(transposed.text.splitlines())
    html = stages_pane.stage_html(transposed)
    linked = re.findall(r'data-gp-src="(\d+)"[^>]*>[^\n]*?class="gp-jp">(\w+)<', html)
    assert ("5", "mul") in linked and ("4", "mul") in linked and ("6", "integer_pow") not in linked


def test_each_top_level_equation_line_carries_its_index_for_the_stepper():
    """data-gp-eqn="k" on the first line of top-level equation k (the stepper lights the current
    one and runs to a clicked one); a scan's body equations and continuation lines carry none."""
    from app import analysis
    code = ("import jax\nimport jax.numpy as jnp\n\ndef f(x):\n"
            "    c, ys = jax.lax.scan(lambda c, v: (c * jnp.sin(v), c), 1.0, x)\n    return c + ys.sum()\n\nf(jnp.ones(3))\n")
    a = analysis.analyse(code, views=("f",), with_timing=False, with_stages=False, with_plot=False, with_vmap=False)
    jv = a.jaxprs["f"]
    html = jaxpr_pane.jaxpr_html(jv)
    marks = re.findall(r'data-gp-eqn="(\d+)"[^>]*>(.*)', html)
    assert [int(k) for k, _ in marks] == list(range(len(jv.closed.jaxpr.eqns)))
    prims = [re.search(r'class="gp-jp">(\w+)<', line).group(1) for _, line in marks]
    assert prims == [e.primitive.name for e in jv.closed.jaxpr.eqns] and prims[0] == "scan"
    assert html.count("data-gp-eqn") == len(prims)  # the body's sin/mul are not marked


def test_a_long_jaxpr_is_shown_in_blocks_that_keep_its_text_and_marks():
    """Over 128 lines the pane's jaxpr text comes in blocks of 64 lines (CSS content-visibility:
    the page renders only the blocks near the view, and a step of the stepper repaints one block):
    the text read with a block's end as a line break is the jaxpr printed, every equation still
    carries its index."""
    from app import analysis
    code = ("import jax.numpy as jnp\n\ndef f(x):\n    for _ in range(150):\n"
            "        x = jnp.sin(x) * 1.5\n    return x.sum()\n\nf(jnp.ones(3))\n")
    a = analysis.analyse(code, views=("f",), with_timing=False, with_stages=False, with_plot=False, with_vmap=False)
    jv = a.jaxprs["f"]
    html = jaxpr_pane.jaxpr_html(jv)
    blocks = re.findall(r'<span class="gp-lines">(.*?)</span>(?=<span class="gp-lines">|</pre>)', html, re.S)
    n_lines = len(jv.text.split("\n"))
    assert len(blocks) == -(-n_lines // jaxpr_pane.BLOCK_LINES) and n_lines > 300
    assert [b.count("\n") + 1 for b in blocks[:-1]] == [jaxpr_pane.BLOCK_LINES] * (len(blocks) - 1)
    import html as html_lib
    text = "\n".join(html_lib.unescape(re.sub(r"<[^>]+>", "", b)) for b in blocks)
    assert text == jv.text
    assert [int(k) for k in re.findall(r'data-gp-eqn="(\d+)"', html)] == list(range(len(jv.closed.jaxpr.eqns)))
    # a short jaxpr stays one block of text
    assert "gp-lines" not in jaxpr_pane.jaxpr_html(analysis.analyse(
        CODE, views=("f",), with_timing=False, with_stages=False, with_plot=False, with_vmap=False).jaxprs["f"])
