"""The first call of a jitted function (issue 15): work a first call does not need is not done,
and what it skips still behaves as JAX's."""
import inspect

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core._engine.api import api


def test_jit_reads_the_signature_only_when_static_arguments_or_an_error_need_it(monkeypatch):
    calls = []
    real = inspect.signature
    monkeypatch.setattr(api.inspect, "signature", lambda f: calls.append(f) or real(f))

    def f(x, name):
        return x * 2

    # jax.jit(f)(jnp.ones(2), 3.0) -> [6., 6.]: no static arguments, no signature read
    np.testing.assert_array_equal(jax.jit(f)(jnp.ones(2), 3.0), [2.0, 2.0])
    assert calls == []
    # JAX 0.10.2: jax.jit(f, static_argnames="name")(x, name=1) makes `name` (position 1) static
    g = jax.jit(f, static_argnames="name")
    assert g.static_argnums == (1,) and calls == [f]
    # JAX 0.10.2: jax.jit(f)(jnp.ones(2), "a") raises TypeError "... passed to the function at
    # path name." (the parameter's name, from the signature)
    with pytest.raises(TypeError, match="at path name\\."):
        jax.jit(f)(jnp.ones(2), "a")


def test_bad_argument_under_varargs_is_named_as_jax_names_it():
    def g(x, *rest):
        return x
    # JAX 0.10.2: jax.jit(g)(jnp.ones(2), 1.0, "b") -> "... at path rest[1]."
    with pytest.raises(TypeError, match="at path rest\\[1\\]\\."):
        jax.jit(g)(jnp.ones(2), 1.0, "b")


def test_first_call_runs_the_jaxpr_as_traced_and_later_calls_the_compiled_code():
    from core._engine.backends import cpu
    x = jnp.asarray(np.linspace(-3, 3, 64, dtype=np.float32))

    def f(x):
        y = jnp.sin(x) * (2.0 * 3.0)          # a literal product the compiler folds
        unused = jnp.exp(y) * 5.0             # dead code: neither call computes it
        del unused
        return y + jnp.sin(x), jnp.tanh(y) - x   # sin(x) twice: one after CSE
    g = jax.jit(f)
    before = cpu.stats["compiles"]
    first = [np.asarray(o) for o in g(x)]
    assert cpu.stats["compiles"] == before     # no compiler pass on the first call
    for _ in range(2):                          # then the generated code, with the same bits
        for a, b in zip(first, g(x)):
            np.testing.assert_array_equal(a, np.asarray(b))
    assert cpu.stats["compiles"] == before + 1
    for a, b in zip(first, f(x)):
        np.testing.assert_allclose(a, np.asarray(b), rtol=1e-6, atol=1e-6)


def test_first_call_keeps_xla_rewrites_that_change_values():
    # JAX's FAQ: jnp.log(jnp.exp(x)) is inf op by op at x = 100., and 100. under jit (XLA
    # rewrites it to x), from the first call on: jax.jit(lambda x: jnp.log(jnp.exp(x)))(100.)
    # -> Array(100., dtype=float32, weak_type=True)
    g = jax.jit(lambda x: (jnp.log(jnp.exp(x)), jnp.sqrt(x * x)))
    for _ in range(3):
        a, b = g(jnp.float32(100.0))
        assert float(a) == 100.0 and float(b) == 100.0
    # jax.jit(lambda x: jnp.sqrt(x * x))(jnp.float32(1e-30)) -> 1e-30 (|x|: no underflow)
    assert float(jax.jit(lambda x: jnp.sqrt(x * x))(jnp.float32(1e-30))) == np.float32(1e-30)


def test_output_rebuilder_is_generated_on_the_second_call_only(monkeypatch):
    made = []
    real = api._rebuilder
    monkeypatch.setattr(api, "_rebuilder", lambda t, w: made.append(t) or real(t, w))

    def step(p, x):
        return (p[0] * x, [p[1] + x, 2 * x]), jnp.sum(x)
    f = jax.jit(step)
    p, x = (jnp.float32(2.0), jnp.float32(1.0)), jnp.arange(3.0)
    # jax.jit(step)(p, x) -> ((Array([0., 2., 4.]), [Array([1., 2., 3.]), Array([0., 2., 4.])]), Array(3.))
    want = [[0.0, 2.0, 4.0], [1.0, 2.0, 3.0], [0.0, 2.0, 4.0], 3.0]
    for n_made in (0, 1, 1, 1):
        (a, [b, c]), s = f(p, x)
        assert [np.asarray(v).tolist() for v in (a, b, c, s)] == want
        assert len(made) == n_made
        assert isinstance(a, jax.Array) and isinstance(s, jax.Array) and not s.weak_type


def _cell_jaxpr(blank_lines: int):
    lines = [""] * blank_lines + ["def f(x):"] + [
        "    x = jnp.sin(x) * 1.5" if i % 2 else "    x = jnp.cos(x)" for i in range(6)] + ["    return x"]
    g = {"jnp": jnp}
    exec(compile("\n".join(lines), "<cell>", "exec"), g)   # new code objects, as each edit on the page
    return jax.make_jaxpr(g["f"])(1.0)


def test_source_lines_of_new_code_objects():
    from core._engine.base import source_info
    # JAX 0.10.2: [source_info_util.summarize(e.source_info) for e in make_jaxpr(f)(1.0).jaxpr.eqns]
    # for the cell above (no blank lines) ->
    want = ["<cell>:2:8 (f)", "<cell>:3:8 (f)", "<cell>:3:8 (f)", "<cell>:4:8 (f)", "<cell>:5:8 (f)",
            "<cell>:5:8 (f)", "<cell>:6:8 (f)", "<cell>:7:8 (f)", "<cell>:7:8 (f)"]
    for blank in (0, 3, 0, 5):   # each cell's own lines, though a freed code object's id may come back
        got = [source_info.summarize(e.source_info) for e in _cell_jaxpr(blank).jaxpr.eqns]
        assert got == [w.replace(f":{w.split(':')[1]}:", f":{int(w.split(':')[1]) + blank}:") for w in want]


W = np.cos(np.arange(64 * 16) * 0.37).astype(np.float32).reshape(64, 16) * 3.0
BIG = (np.cos(np.arange(256 * 64) * 0.37) * 1e3).astype(np.float32).reshape(256, 64)   # (summed by BLAS when compiled)


@pytest.mark.parametrize("name,f", [
    ("relu mlp grad", jax.grad(lambda w, x: jnp.mean(jax.nn.relu(x @ w) ** 2))),
    ("clip and where", lambda w, x: jnp.where(x @ w > 0, jnp.clip(x @ w, -1.0, 2.5), -0.0 * x[:, :16])),
    ("sum of a closed-over array", lambda w, x: x @ w + jnp.sum(jnp.asarray(BIG) * 1.5, axis=0)[:16]),
    ("std", lambda w, x: jnp.std(x @ w, axis=0)),
    ("uniform (fused multiply-add)", lambda w, x: jax.random.uniform(jax.random.key(3), (16,), minval=-2.0, maxval=3.0) * w[0]),
])
def test_first_call_gives_the_later_calls_bits(name, f):
    # JAX compiles once, so every call of a jitted function returns the same bits; here the first
    # call may run the jaxpr as traced and later ones the compiled code: they must agree
    w = jnp.asarray(W[:32])
    x = jnp.asarray(np.sin(np.arange(8 * 32) * 0.91).astype(np.float32).reshape(8, 32) * 1e3)
    g = jax.jit(f)
    first = [np.asarray(o) for o in jax.tree_util.tree_leaves(g(w, x))]
    for _ in range(2):
        for a, b in zip(first, jax.tree_util.tree_leaves(g(w, x))):
            assert a.tobytes() == np.asarray(b).tobytes(), name
    eager = jax.tree_util.tree_leaves(f(w, x))
    for a, b in zip(first, eager):
        np.testing.assert_allclose(a, np.asarray(b), rtol=1e-5, atol=1e-4)
