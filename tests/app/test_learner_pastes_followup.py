"""Learner pastes left over by tests/app/test_learner_pastes.py (issue 14, follow-up): pytree
in_axes, integer arguments in the plots, has_aux losses."""
from app import analysis

# docs/automatic-vectorization.md style: per-example parameters as a dict, only some leaves batched
DICT_IN_AXES = """
import jax
import jax.numpy as jnp

def predict(params, x):
    return jnp.tanh(params['w'] @ x + params['b'])

params = {'w': jnp.arange(24.).reshape(4, 2, 3) / 10, 'b': jnp.array([0.5, -0.5])}
xs = jnp.arange(12.).reshape(4, 3) / 10
print(jax.vmap(predict, in_axes=({'w': 0, 'b': None}, 0))(params, xs))
"""


def test_dict_in_axes_take_one_example_along_every_mapped_leaf():
    a = analysis.analyse(DICT_IN_AXES, with_timing=False)
    assert a.run.error is None
    assert a.function.name == "predict" and not a.args_guessed
    assert a.args_source == "{'w': params['w'][0], 'b': params['b']}, xs[0]"
    # JAX: jax.make_jaxpr(predict)({'w': params['w'][0], 'b': params['b']}, xs[0]) ->
    #   { lambda ; a:f32[2] b:f32[2,3] c:f32[3]. let d:f32[2] = dot_general[...] b c; ... }
    view = a.jaxprs["f"]
    assert view.error is None and view.text.startswith("{ lambda ; a:f32[2] b:f32[2,3] c:f32[3]. let"), view.text
    # JAX: predict(that example) -> [ 0.5005202  -0.34521404], the first row of the vmap's print
    import numpy as np
    np.testing.assert_allclose(np.asarray(a.function.fn(*a.args)), [0.5005202, -0.34521404], rtol=1e-6)
    assert a.vmap["vmap"]["error"] is None


def test_pytree_in_axes_nest_and_a_top_level_dict_gives_no_guess():
    calls = analysis.last_calls(
        "jax.vmap(g, in_axes=((0, {'a': None}),))(p)\n"
        "jax.vmap(h, in_axes={'w': 0})(p, x)\n"       # JAX: TypeError "vmap in_axes must be an int, None, or a tuple"
        "jax.vmap(k, in_axes=({'w': 1}, 0))(p, x)\n")  # another axis than 0 in a leaf: sliced along it
    assert calls["g"] == "(p[0][0], {'a': p[1]['a']})"
    assert "h" not in calls and calls["k"] == "{'w': p['w'][:, 0]}, x[0]"


# docs/control-flow.md: lax.switch picks a branch by an integer index
SWITCH = """
import jax
from jax import lax

def f(i, x):
    branches = [lambda x: x + 1.0, lambda x: x * 2.0, lambda x: jax.numpy.sin(x)]
    return lax.switch(i, branches, x)

print(f(1, 3.0))
"""


def test_an_integer_argument_is_held_at_the_input_in_the_plots():
    import numpy as np
    a = analysis.analyse(SWITCH, with_timing=False)
    assert a.run.stdout == "6.0\n" and a.args_source == "1, 3.0"  # JAX: f(1, 3.0) -> 6.0
    # the index stays 1 (was varied as the surface's first axis: "Index type must be an integer")
    assert a.plot_kind == "scalar" and "error" not in a.plot
    assert a.plot["varied"] == ["x"] and a.plot["held"] == ("i = 1 (an integer)",)
    assert a.plot["code"].startswith("# varied: x; held at your input: i = 1 (an integer)\n")
    # JAX: g = lambda x: f(1, x); xs = jnp.linspace(0, 6, 201)
    #   jax.vmap(g)(xs)[:3] -> [0. 0.06 0.12]; jax.vmap(jax.grad(g))(xs)[:3] -> [2. 2. 2.]
    np.testing.assert_allclose(a.plot["f"][:3], [0.0, 0.06, 0.12], atol=1e-6)
    np.testing.assert_allclose(a.plot["df"][:3], [2.0, 2.0, 2.0])
    # JAX: jax.grad(f)(1, 3.0) -> TypeError "grad requires real- or complex-valued inputs ..., but got int32";
    # jax.grad(f, argnums=1)(1, 3.0) -> 2.0, which the hint names
    err = a.jaxprs["grad"].error
    assert err.type == "TypeError" and err.message.startswith("grad requires real- or complex-valued inputs")
    assert "jax.grad(f, argnums=1)" in err.hint
    assert a.vmap["vmap"]["error"] is None  # vmap may batch the index: JAX's switch takes a batched one


def test_integer_arguments_alone_are_still_plotted_as_numbers():
    # f(3) of a learner who wrote an int: the curve of x**2 around 3, as before
    a = analysis.analyse("def f(x):\n    return x ** 2\nprint(f(3))\n", with_timing=False)
    assert a.plot_kind == "scalar" and a.plot["held"] == () and not a.plot["code"].startswith("#")


def test_a_static_argument_is_named_as_held_in_the_plot():
    from tests.app.test_learner_pastes import STATIC_ARGS
    a = analysis.analyse(STATIC_ARGS, with_timing=False)
    # g(x, n) with n static: plotted over x (10 is an int, but the only argument left)
    assert a.plot["varied"] == ["x"] and a.plot["held"] == ("n (static)",)
    assert a.plot["code"].startswith("# varied: x; held at your input: n (static)\n")


# docs/automatic-differentiation.md: "Auxiliary data" with value_and_grad(..., has_aux=True)
HAS_AUX = """
import jax
import jax.numpy as jnp

def loss(w, x):
    pred = jnp.tanh(x @ w)
    return jnp.mean(pred ** 2), pred

w = jnp.array([0.5, -0.25])
x = jnp.array([[1.0, 2.0], [3.0, 4.0]])
(l, pred), g = jax.value_and_grad(loss, has_aux=True)(w, x)
print(l)
"""

# JAX: print(jax.make_jaxpr(jax.grad(loss, has_aux=True))(w, x)), its first and last lines
GRAD_AUX_HEAD, GRAD_AUX_TAIL = "{ lambda ; a:f32[2] b:f32[2,2]. let\n    c:f32[2] = dot_general[", "  in (o, d) }"


def test_a_has_aux_loss_is_analysed_with_has_aux():
    a = analysis.analyse(HAS_AUX, with_timing=False)
    assert a.run.stdout == "0.10677614\n"  # JAX prints 0.10677614 (float32 tanh as XLA computes it; before: ...15)
    assert a.function.name == "loss" and a.has_aux
    view = a.jaxprs["grad"]  # was JAX's "Gradient only defined for scalar-output functions"
    assert view.error is None and view.text.startswith(GRAD_AUX_HEAD) and view.text.endswith(GRAD_AUX_TAIL)
    assert analysis.view_code("grad", a.args_source, a.has_aux) == "jax.make_jaxpr(jax.grad(f, has_aux=True))(w, x)"
    # the plots show the loss; the note names aux at the input (JAX: pred -> [0. 0.46211717])
    assert a.plot_kind == "rn" and "error" not in a.plot
    assert a.plot["code"].startswith("# f returns (value, aux), differentiated with has_aux=True: the plots show "
                                     "the value; aux = Array([0. , 0.46211717], dtype=float32)\n")
    import numpy as np
    assert abs(a.plot["f"][len(a.plot["f"]) // 2] - 0.10677614) < 1e-6  # t = 0: the loss at the input
    # JAX: jax.grad(loss, has_aux=True)(w, x)[0] -> [1.090293 1.453724], the gradient bars' values
    np.testing.assert_allclose(np.concatenate([leaf["values"] for leaf in a.plot["leaves"]])[:2],
                               [1.090293, 1.453724], rtol=1e-5)
    assert all(s.text for s in a.stages[:3])  # grad's stages of the loss, not of the pair


def test_a_pair_output_without_has_aux_keeps_jax_error_and_names_has_aux():
    code = HAS_AUX.replace("(l, pred), g = jax.value_and_grad(loss, has_aux=True)(w, x)", "l, pred = loss(w, x)")
    a = analysis.analyse(code, with_timing=False)
    assert a.function.name == "loss" and not a.has_aux
    # JAX: jax.grad(loss)(w, x) -> TypeError: Gradient only defined for scalar-output functions. Output was (...)
    err = a.jaxprs["grad"].error
    assert err.type == "TypeError" and err.message.startswith("Gradient only defined for scalar-output functions.")
    assert "jax.grad(f, has_aux=True)" in err.hint
    assert analysis.view_code("grad", a.args_source, a.has_aux) == "jax.make_jaxpr(jax.grad(f))(w, x)"


def test_has_aux_is_read_from_grad_family_calls_only():
    assert analysis.aux_functions(
        "jax.value_and_grad(loss, has_aux=True)\ngrad(g, has_aux=True)\njax.grad(h)\n"
        "jax.jacrev(k, has_aux=False)\njax.vmap(m, has_aux=True)\n") == {"loss", "g"}
