"""The argument finder (where the app guesses f's example input from the learner's code) for a
function called only through jax.vmap: an example is taken along the mapped axis whatever it is,
and a whole pytree mapped with one axis gives one example from every leaf."""
import numpy as np

from app import analysis

# in_axes=1: the batch runs along the columns
VMAP_AXIS_1 = """
import jax
import jax.numpy as jnp

def f(x):
    return jnp.sum(x ** 2)

x = jnp.arange(6.).reshape(2, 3)
print(jax.vmap(f, in_axes=1)(x))
"""


def test_in_axes_1_takes_one_example_along_the_mapped_axis():
    a = analysis.analyse(VMAP_AXIS_1, with_timing=False)
    assert a.run.error is None and a.function.name == "f" and not a.args_guessed
    assert a.args_source == "x[:, 0]"  # was no guess: f analysed at a made-up 1.0
    # JAX: jax.make_jaxpr(f)(x[:, 0]) -> { lambda ; a:f32[2]. let b:f32[2] = integer_pow[y=2] a; ... }
    assert a.jaxprs["f"].text.startswith("{ lambda ; a:f32[2]. let"), a.jaxprs["f"].text
    # JAX: f(x[:, 0]) -> 9.0, the first entry of jax.vmap(f, in_axes=1)(x) -> [ 9. 17. 29.]
    assert float(a.function.fn(*a.args)) == 9.0


VMAP_NONE_1 = """
import jax
import jax.numpy as jnp

def predict(W, x):
    return jnp.tanh(W @ x)

W = jnp.arange(6.).reshape(2, 3) / 10
batch = jnp.arange(12.).reshape(3, 4) / 10
print(jax.vmap(predict, in_axes=(None, 1))(W, batch))
"""


def test_in_axes_none_1_keeps_the_unmapped_argument_and_slices_the_other():
    a = analysis.analyse(VMAP_NONE_1, with_timing=False)
    assert a.function.name == "predict" and a.args_source == "W, batch[:, 0]"
    # JAX: jax.make_jaxpr(predict)(W, batch[:, 0]) -> { lambda ; a:f32[2,3] b:f32[3]. let c:f32[2] = dot_general[...] a b; ...
    assert a.jaxprs["f"].text.startswith("{ lambda ; a:f32[2,3] b:f32[3]. let"), a.jaxprs["f"].text
    # JAX: predict(W, batch[:, 0]) -> [0.19737528 0.5079774 ], the first row of the vmap's print
    np.testing.assert_allclose(np.asarray(a.function.fn(*a.args)), [0.19737528, 0.5079774], rtol=1e-6)


# a dict of per-example parameters, every leaf mapped (in_axes=0, the default)
VMAP_WHOLE_DICT = """
import jax
import jax.numpy as jnp

def predict(params, x):
    return jnp.tanh(params['w'] @ x + params['b'])

params = {'w': jnp.arange(24.).reshape(4, 2, 3) / 10, 'b': jnp.arange(8.).reshape(4, 2) / 10}
xs = jnp.arange(12.).reshape(4, 3) / 10
print(jax.vmap(predict)(params, xs))
"""


def test_a_whole_dict_mapped_with_one_axis_gives_one_example_of_every_leaf():
    a = analysis.analyse(VMAP_WHOLE_DICT, with_timing=False)
    assert a.run.error is None and a.function.name == "predict" and not a.args_guessed
    # was "params[0], xs[0]": JAX: predict(params[0], xs[0]) -> KeyError 0
    assert a.args_source == "{'w': params['w'][0], 'b': params['b'][0]}, xs[0]"
    # JAX: jax.make_jaxpr(predict)({'w': params['w'][0], 'b': params['b'][0]}, xs[0])
    #   -> { lambda ; a:f32[2] b:f32[2,3] c:f32[3]. let ...  (leaves in key order: b, then w)
    assert a.jaxprs["f"].text.startswith("{ lambda ; a:f32[2] b:f32[2,3] c:f32[3]. let"), a.jaxprs["f"].text
    # JAX: that call -> [0.04995837 0.23549576], the first row of jax.vmap(predict)(params, xs)
    np.testing.assert_allclose(np.asarray(a.function.fn(*a.args)), [0.04995837, 0.23549576], rtol=1e-6)


def test_axes_are_sliced_as_written_and_pytrees_follow_their_values():
    calls = analysis.last_calls(
        "jax.vmap(h, in_axes=-1)(a)\n"
        "jax.vmap(k, in_axes=(2, None))(a, b)\n"
        "jax.vmap(m, in_axes=({'w': 1}, 0))(p, x)\n"
        "jax.vmap(n)(pair, t)\n", ns={"p": {"w": np.zeros((2, 3))}, "pair": (np.zeros(3), {"u": np.zeros(3), "v": None}),
                                     "t": (np.zeros(2),)})
    assert calls["h"] == "a[..., 0]" and calls["k"] == "a[:, :, 0], b" and calls["m"] == "{'w': p['w'][:, 0]}, x[0]"
    # a tuple of an array and a dict, every leaf mapped; a None leaf stays (JAX: an empty subtree)
    assert calls["n"] == "(pair[0][0], {'u': pair[1]['u'][0], 'v': pair[1]['v']}), (t[0][0],)"
