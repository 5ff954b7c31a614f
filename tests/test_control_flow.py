"""lax control flow (cond, switch, while_loop, fori_loop, scan, map) under jit, grad, vmap and
their compositions, compared with real JAX 0.10.2 (CPU).

Each case is (name, code, expected): `code` was run verbatim with real JAX (`jax`, `jnp`, `lax`
bound as usual) and `expected` is what it returned, encoded as {dtype, weak, shape, v}; jaxpr
cases hold JAX's text. More control-flow cases live in tests/golden (run
`pytest tests/test_golden.py -k "cond or switch or while or fori or scan or map or jaxpr_lax"`).
"""
import builtins
import json

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax

CASES = [
    ('switch_jvp',
     'out = jax.jvp(lambda x: lax.switch(2, [jnp.sin, jnp.cos, lambda v: v ** 3], x), (2.0,), (1.0,))',
     '[{"dtype": "float32", "weak": true, "shape": [], "v": 8.0}, {"dtype": "float32", "weak": true, "shape": [], "v": 12.0}]'),
    ('cond_grad_vmap',
     'out = jax.vmap(jax.grad(lambda x: lax.cond(x > 0, lambda v: v ** 3, lambda v: jnp.sin(v), x)))(jnp.array([-1.0, 2.0]))',
     '{"dtype": "float32", "weak": false, "shape": [2], "v": [0.5403022766113281, 12.0]}'),
    ('cond_closure_grad',
     'w = jnp.array([1.0, 2.0])\nout = jax.grad(lambda x: lax.cond(x.sum() > 0, lambda v: jnp.sum(v * w), lambda v: jnp.sum(v ** 2), x))(jnp.array([0.5, 1.5]))',
     '{"dtype": "float32", "weak": false, "shape": [2], "v": [1.0, 2.0]}'),
    ('scan_grad_xs',
     'out = jax.grad(lambda xs: lax.scan(lambda c, x: (c * x + jnp.sin(x), c), 1.0, xs)[0])(jnp.array([0.5, 1.0, 2.0]))',
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [3.7551651000976562, 3.0394556522369385, 1.4047496318817139]}'),
    ('scan_grad_consts_and_init',
     'out = jax.grad(lambda w, c0: jnp.sum(lax.scan(lambda c, x: (jnp.tanh(c * w + x), c * c), c0, jnp.arange(4.0))[1]), argnums=(0, 1))(0.5, 0.3)',
     '[{"dtype": "float32", "weak": true, "shape": [], "v": 0.31669655442237854}, {"dtype": "float32", "weak": true, "shape": [], "v": 0.8932293057441711}]'),
    ('scan_jit_grad',
     'out = jax.jit(jax.grad(lambda w: lax.scan(lambda c, x: (c + w * x, None), 0.0, jnp.arange(4.0))[0] ** 2))(1.5)',
     '{"dtype": "float32", "weak": true, "shape": [], "v": 108.0}'),
    ('scan_vmap_consts',
     'out = jax.vmap(lambda w: lax.scan(lambda c, x: (c * w + x, c), 0.0, jnp.arange(3.0)))(jnp.array([1.0, 2.0]))',
     '[{"dtype": "float32", "weak": false, "shape": [2], "v": [3.0, 4.0]}, {"dtype": "float32", "weak": true, "shape": [2, 3], "v": [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]}]'),
    ('scan_nested',
     'out = lax.scan(lambda c, row: (c + lax.scan(lambda d, x: (d * x, d), 1.0, row)[0], c), 0.0, jnp.arange(1.0, 7.0).reshape(2, 3))',
     '[{"dtype": "float32", "weak": false, "shape": [], "v": 126.0}, {"dtype": "float32", "weak": true, "shape": [2], "v": [0.0, 6.0]}]'),
    ('scan_jacfwd',
     'out = jax.jacfwd(lambda x: lax.scan(lambda c, y: (c * y, c), x, jnp.array([1.0, 2.0, 3.0]))[1])(2.0)',
     '{"dtype": "float32", "weak": true, "shape": [3], "v": [1.0, 1.0, 2.0]}'),
    ('scan_hessian',
     'out = jax.hessian(lambda x: lax.scan(lambda c, y: (c * jnp.sin(y * c), None), x, jnp.array([0.5, 1.0]))[0])(1.2)',
     '{"dtype": "float32", "weak": true, "shape": [], "v": 2.03062105178833}'),
    ('while_jvp_tuple',
     'out = jax.jvp(lambda x: lax.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * x), (0, 1.0))[1], (1.5,), (1.0,))',
     '[{"dtype": "float32", "weak": true, "shape": [], "v": 5.0625}, {"dtype": "float32", "weak": true, "shape": [], "v": 13.5}]'),
    ('while_linearize',
     'y, f = jax.linearize(lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 3.0, x), 2.0)\nout = (y, f(1.0))',
     '[{"dtype": "float32", "weak": true, "shape": [], "v": 18.0}, {"dtype": "float32", "weak": true, "shape": [], "v": 9.0}]'),
    ('while_vmap_batched_pred_consts',
     'out = jax.vmap(lambda x, lim: lax.while_loop(lambda v: v < lim, lambda v: v * 2.0, x))(jnp.array([1.0, 3.0, 0.5]), jnp.array([5.0, 100.0, 1.0]))',
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [8.0, 192.0, 1.0]}'),
    ('fori_vmap_traced_bound',
     'out = jax.vmap(lambda n: lax.fori_loop(0, n, lambda i, acc: acc + i, 0))(jnp.array([3, 5, 0]))',
     '{"dtype": "int32", "weak": true, "shape": [3], "v": [3, 10, 0]}'),
    ('fori_jacrev',
     'out = jax.jacrev(lambda x: lax.fori_loop(0, 3, lambda i, v: v * x + i, x))(jnp.array([1.0, 2.0]))',
     '{"dtype": "float32", "weak": false, "shape": [2, 2], "v": [[5.0, 0.0], [0.0, 33.0]]}'),
    ('map_grad',
     'out = jax.grad(lambda x: jnp.sum(lax.map(lambda v: jnp.sin(v) * x[0], x)))(jnp.array([0.3, 0.7]))',
     '{"dtype": "float32", "weak": false, "shape": [2], "v": [1.2263388633728027, 0.22945266962051392]}'),
    ('jaxpr_switch_grad',
     'out = str(jax.make_jaxpr(jax.grad(lambda x: lax.switch(1, [jnp.sin, jnp.cos], x)))(1.0))',
     '"{ lambda ; a:f32[]. let\\n    b:i32[] = clamp 0:i32[] 1:i32[] 1:i32[]\\n    _:f32[] c:f32[] = cond[\\n      branches=(\\n        { lambda ; d:f32[]. let\\n            e:f32[] = sin d\\n            f:f32[] = cos d\\n            g:f32[] = empty2[dtype=float32 memory_space=MemorySpace.Device] \\n          in (e, f) }\\n        { lambda ; h:f32[]. let\\n            i:f32[] = cos h\\n            j:f32[] = sin h\\n            k:f32[] = empty2[dtype=float32 memory_space=MemorySpace.Device] \\n          in (i, j) }\\n      )\\n    ] b a\\n    l:f32[] = cond[\\n      branches=(\\n        { lambda ; m:f32[] n:f32[]. let o:f32[] = mul n m in (o,) }\\n        { lambda ; p:f32[] q:f32[]. let\\n            r:f32[] = neg q\\n            s:f32[] = mul r p\\n          in (s,) }\\n      )\\n    ] b c 1.0:f32[]\\n  in (l,) }"'),
    ('jaxpr_fori_vmap',
     'out = str(jax.make_jaxpr(jax.vmap(lambda x: lax.fori_loop(0, 2, lambda i, v: v * x, 1.0)))(jnp.ones(3)))',
     '"{ lambda ; a:f32[3]. let\\n    b:f32[3] = broadcast_in_dim 1.0:f32[]\\n    _:i32[] c:f32[3] = scan[\\n      jaxpr={ lambda ; d:f32[3] e:i32[] f:f32[3]. let\\n          g:i32[] = add e 1:i32[]\\n          h:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] f\\n          i:f32[3] = mul h d\\n        in (g, i) }\\n      length=2\\n      num_carry=2\\n      num_consts=1\\n      reverse=False\\n      unroll=1\\n    ] a 0:i32[] b\\n  in (c,) }"'),
    ('jaxpr_scan_jvp',
     'out = str(jax.make_jaxpr(lambda x, t: jax.jvp(lambda y: lax.scan(lambda c, z: (c * y, c), 1.0, None, length=2), (x,), (t,)))(2.0, 1.0))',
     '"{ lambda ; a:f32[] b:f32[]. let\\n    c:f32[] d:f32[] e:f32[2] f:f32[2] = scan[\\n      jaxpr={ lambda ; g:f32[] h:f32[] i:f32[] j:f32[]. let\\n          k:f32[] = mul i g\\n          l:f32[] = mul j g\\n          m:f32[] = mul i h\\n          n:f32[] = add_any l m\\n        in (k, n, i, j) }\\n      length=2\\n      num_carry=2\\n      num_consts=2\\n      reverse=False\\n      unroll=1\\n    ] a b 1.0:f32[] 0.0:f32[]\\n  in (c, e, d, f) }"'),
]

def _check(got, exp, path="out"):
    """Compare our result with the encoded JAX result: containers, dtype, weak type, shape,
    values (rtol 1e-5), jaxpr text exactly."""
    if isinstance(exp, str):
        assert str(got) == exp, f"{path}: jaxpr text differs\n--- ours\n{got}\n--- JAX\n{exp}"
    elif isinstance(exp, list):
        assert isinstance(got, (tuple, list)) and len(got) == len(exp), f"{path}: {got!r}"
        for i, (g, e) in enumerate(zip(got, exp)):
            _check(g, e, f"{path}[{i}]")
    elif isinstance(exp, int):
        assert got == exp, f"{path}: {got} != {exp}"
    else:
        a = np.asarray(got)
        assert str(a.dtype) == exp["dtype"], f"{path}: dtype {a.dtype} != {exp['dtype']}"
        assert list(a.shape) == exp["shape"], f"{path}: shape {a.shape} != {exp['shape']}"
        assert bool(getattr(got, "weak_type", False)) == exp["weak"], f"{path}: weak_type differs"
        np.testing.assert_allclose(a, np.asarray(exp["v"], a.dtype), rtol=1e-5, atol=1e-6, err_msg=path)


def _run(code):
    env = {"jax": jax, "jnp": jnp, "lax": lax, "np": np}
    exec(code, env)
    return env["out"]


def _run_case(code, expected):
    exp = json.loads(expected)
    if isinstance(exp, dict) and "error" in exp:
        with pytest.raises(getattr(builtins, exp["error"])):
            _run(code)
        return
    _check(_run(code), exp)


@pytest.mark.parametrize("name,code,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_jax(name, code, expected):
    _run_case(code, expected)


def test_grad_of_while_loop_raises_like_jax():
    # jax.grad(lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, x))(1.0) raises
    # ValueError: Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop
    # with dynamic start/stop values. Try using lax.scan, or using fori_loop with static start/stop.
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"):
        jax.grad(lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, x))(1.0)
    # the same for a fori_loop whose bound is traced (it becomes a while loop):
    # jax.jit(jax.grad(lambda x, n: lax.fori_loop(0, n, lambda i, v: v * x, 1.0)))(2.0, 3)
    with pytest.raises(ValueError, match="fori_loop with static start/stop"):
        jax.jit(jax.grad(lambda x, n: lax.fori_loop(0, n, lambda i, v: v * x, 1.0)))(2.0, 3)


def test_fori_loop_concrete_bounds_lower_to_scan_traced_to_while():
    # jax.make_jaxpr(lambda x: lax.fori_loop(0, 3, lambda i, v: v + i, x))(1.0) has one `scan`;
    # jax.make_jaxpr(lambda n: lax.fori_loop(0, n, lambda i, v: v + i, 0))(3) has one `while`
    concrete = jax.make_jaxpr(lambda x: lax.fori_loop(0, 3, lambda i, v: v + i, x))(1.0)
    traced = jax.make_jaxpr(lambda n: lax.fori_loop(0, n, lambda i, v: v + i, 0))(3)
    assert [e.primitive.name for e in concrete.eqns] == ["scan"]
    assert [e.primitive.name for e in traced.eqns] == ["while"]


def test_scan_carry_type_error_names_the_problem():
    # lax.scan(lambda c, x: (c.astype(jnp.int32), x), 0.0, jnp.arange(3.0)) raises TypeError:
    # "scan body function carry input and carry output must have equal types ..."
    with pytest.raises(TypeError, match="scan body function carry input and carry output must have equal types"):
        lax.scan(lambda c, x: (c.astype(jnp.int32), x), 0.0, jnp.arange(3.0))


def test_cond_branches_are_compiled_once_per_branch():
    from core.backends import cpu
    f = jax.jit(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))
    f(1.0), f(-1.0)  # each branch is compiled the first time it runs
    before = cpu.stats["compiles"]
    for v in (2.0, -1.0, 3.0, -2.0):
        f(v)
    assert cpu.stats["compiles"] == before
