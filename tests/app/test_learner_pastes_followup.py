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
        "jax.vmap(k, in_axes=({'w': 1}, 0))(p, x)\n")  # another axis than 0 in a leaf: no guess
    assert calls["g"] == "(p[0][0], {'a': p[1]['a']})"
    assert "h" not in calls and "k" not in calls
