"""The Jaxpr pane's "Diff two views" card (app.jaxpr_diff, app.panes.jaxpr_diff): two views of f
as a line diff aligned by code line, compared modulo variable names, with equation counts."""
import pytest

from app import analysis, jaxpr_diff, main

CODE = """import jax
import jax.numpy as jnp

def f(x):
    y = jnp.sin(x) * 2.0
    return y + jnp.cos(x)

f(1.0)
"""


@pytest.fixture(scope="module")
def a():
    return analysis.analyse(CODE, with_vmap=False, with_timing=False, with_plot=False)


def changed(c):
    return [(tag, text) for tag, text in jaxpr_diff.summary(c)["rows"]]


def test_f_vs_jit_adds_only_the_jit_call(a):
    # JAX: make_jaxpr(jit(f)) is one `jit[name=f jaxpr={...}]` equation whose body is f's four
    c = jaxpr_diff.compare(a, "f", "jit")
    s = jaxpr_diff.summary(c)
    assert (s["added"], s["removed"], s["same"]) == (1, 0, 4)
    rows = changed(c)
    assert all(tag == "added" for tag, _ in rows)
    assert [t for _, t in rows if " = " in t] == ["b:f32[] = jit[name=f jaxpr={…}] a"]
    # the body's equations keep their code lines (5: sin, mul; 6: cos, add) and match f's
    same = [(r.line.src, r.line.text.split(" = ")[1].split()[0]) for r in c.diff.rows if r.tag == "same" and r.line.eqn]
    assert same == [(5, "sin"), (5, "mul"), (6, "cos"), (6, "add")]


def test_names_do_not_count_as_changes(a):
    # jit's body names its variables c, d, e...; f's are a, b, c...: only the wrapper differs
    c = jaxpr_diff.compare(a, "jit", "jit")
    assert jaxpr_diff.summary(c)["rows"] == []
    left = jaxpr_diff.listing(a.jaxprs["f"].closed)
    body = [ln for ln in jaxpr_diff.compare(a, "f", "jit").right.lines if ln.depth >= 3]
    assert [ln.key.strip() for ln in left] == [ln.key.strip() for ln in body]
    assert [ln.text.strip() for ln in left] != [ln.text.strip() for ln in body]


def test_grad_after_a_code_edit_shows_the_changed_constant(a):
    # an edit changes 2.0 to 3.0 and puts a comment line above f: every line moves down one
    edited = CODE.replace("2.0", "3.0").replace("def f", "# scaled by 3 now\ndef f")
    b = analysis.analyse(edited, with_vmap=False, with_timing=False, with_plot=False)
    c = jaxpr_diff.compare(b, "prev_grad", "grad", previous=a)
    s = jaxpr_diff.summary(c)
    assert (s["added"], s["removed"]) == (2, 2)
    assert changed(c) == [("removed", "d:f32[] = mul b 2.0:f32[]"), ("added", "d:f32[] = mul b 3.0:f32[]"),
                          ("removed", "i:f32[] = mul 1.0:f32[] 2.0:f32[]"), ("added", "i:f32[] = mul 1.0:f32[] 3.0:f32[]")]
    # matched across the moved lines: sin(x) of old line 5 is that of new line 6; cos's jvp
    # (a sin) of old line 6 is that of new line 7
    sins = [r for r in c.diff.rows if r.line.eqn and " sin " in r.line.text]
    assert [(r.tag, r.left.src, r.right.src) for r in sins] == [("same", 5, 6), ("same", 6, 7)]


def test_no_previous_run_says_why(a):
    c = jaxpr_diff.compare(a, "prev_f", "f")
    assert c.diff is None and "no earlier run" in c.left.error


def test_vmap_in_axes_1_of_a_scalar_names_the_problem(a):
    c = jaxpr_diff.compare(a, "vmap0", "vmap1")
    assert c.diff is None and "in_axes=1 needs every input to have at least 1 axis" in c.right.error


def test_vmap_in_axes_0_vs_1_on_a_matrix():
    code = "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sum(jnp.tanh(x) * 2.0)\n\nf(jnp.ones(4))\n"
    a = analysis.analyse(code, with_vmap=False, with_timing=False, with_plot=False)
    s = jaxpr_diff.summary(jaxpr_diff.compare(a, "vmap0", "vmap1"))
    assert "error" not in s
    assert any(tag == "removed" and "f32[3,4]" in text for tag, text in s["rows"])
    assert any(tag == "added" and "f32[4,3]" in text for tag, text in s["rows"])


def test_cpu_passes_fold_the_constant_backward_equations(a):
    # grad(f)'s `neg 1.0` and `mul 1.0 2.0` are constants: jit's CPU compiler folds them, and
    # drops the primal `add` nothing reads (dead code)
    c = jaxpr_diff.compare(a, "grad", "grad_compiled")
    removed = [t for tag, t in changed(c) if tag == "removed" and " = " in t]
    assert "g:f32[] = neg 1.0:f32[]" in removed and "i:f32[] = mul 1.0:f32[] 2.0:f32[]" in removed
    assert "_:f32[] = add d e" in removed
    consts = [ln.text.strip() for ln in c.right.lines if ln.text.strip().startswith("const ")]
    assert consts == ["const a:f32[] = -1.0", "const b:f32[] = 2.0"]
    # the kept equations keep their code lines through the compiler (core/_engine/backends/cpu.py)
    assert all(ln.src in (5, 6) for ln in c.right.lines if ln.eqn)


def test_card_follows_each_run_and_shows_what_an_edit_changed():
    pg = main.create_app(code=CODE).playground
    card = pg.jaxpr_kept.views_diff
    assert card is not None and card.card.collapsed and pg.snapshot()["jaxpr_diff"] is None  # closed: nothing traced
    card.card.collapsed = False
    assert pg.snapshot()["jaxpr_diff"]["added"] == 1
    card.preset.value = "prev_f|f"
    assert (card.left.value, card.right.value) == ("prev_f", "f")
    assert "no earlier run" in pg.snapshot()["jaxpr_diff"]["error"]
    pg.editor.value = CODE.replace("jnp.cos(x)", "jnp.cos(x) ** 2")
    pg.run()
    s = pg.snapshot()["jaxpr_diff"]
    assert (s["added"], s["removed"]) == (1, 0)
    assert [tag for tag, _ in s["rows"]] == ["added"] and "= integer_pow[y=2] " in s["rows"][0][1]
    assert "integer_pow" in card.body.object and 'class="gp-jd-add"' in card.body.object
    # a run of the same code again: the diff still compares with the code before the edit
    pg.run()
    assert pg.snapshot()["jaxpr_diff"]["added"] == 1
    card.card.collapsed = True  # closed: nothing kept, nothing traced
    assert pg.snapshot()["jaxpr_diff"] is None and card.body.object == ""


COND = """import jax.numpy as jnp
from jax import lax

def cond_lax(x):
    return lax.cond(x < 0.0, lambda x: x ** 2.0, lambda x: x ** 3.0, x)

cond_lax(2.0)
"""


def test_a_line_with_a_code_line_on_one_side_only_is_the_same_line():
    # the gallery's static_args_and_control_flow: grad(f)'s cond branches end in an `empty2` with no
    # code line, grad(jit(f))'s in the same `empty2` from line 5; the card said "+2 added, -2 removed"
    # for two pairs of identical lines
    a = analysis.analyse(COND, with_vmap=False, with_timing=False, with_plot=False)
    c = jaxpr_diff.compare(a, "grad", "grad_jit")
    s = jaxpr_diff.summary(c)
    assert not any("empty2" in text for _, text in changed(c)), changed(c)
    same = [r for r in c.diff.rows if r.tag == "same" and "empty2" in r.line.text]
    assert len(same) == 2 and {(r.left.src, r.right.src) for r in same} == {(None, 5)}, same
    # the rest is the same too (grad of a jit inlines its body): no change at all
    assert (s["added"], s["removed"]) == (0, 0) and s["same"] == c.diff.left_eqns == c.diff.right_eqns, s
    # and a line whose code line differs on both sides still counts as changed (f, last run vs f)
    left = [jaxpr_diff.Line("b:f32[] = sin a", "%0:f32[] = sin %1", 4, True)]
    right = [jaxpr_diff.Line("b:f32[] = sin a", "%0:f32[] = sin %1", 7, True)]
    d = jaxpr_diff.diff(left, right)
    assert (d.added, d.removed, d.same) == (1, 1, 0)
