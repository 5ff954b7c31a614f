"""lax control flow (cond, switch, while_loop, fori_loop, scan, map) under jit, grad, vmap and
their compositions, compared with real JAX 0.10.2 (CPU).

Each case is (name, code, expected): `code` was run verbatim with real JAX (`jax`, `jnp`, `lax`
bound as usual) and `expected` is what it returned, encoded as {dtype, weak, shape, v}; jaxpr
cases hold JAX's text. More control-flow cases live in tests/golden (run
`pytest tests/test_golden.py -k "cond or switch or while or fori or scan or map or jaxpr_lax"`).
"""

import pytest

import core as jax
import core.numpy as jnp
from core import lax
from tests.jax_case_check import run, run_case

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
    ('vmap_scan_reverse_dim1',
     'out = jax.vmap(lambda xs: lax.scan(lambda c, x: (c * 0.5 + x, c), 0.0, xs, reverse=True), in_axes=1)(jnp.arange(6.0).reshape(3, 2))',
     '[{"dtype": "float32", "weak": false, "shape": [2], "v": [2.0, 3.75]}, {"dtype": "float32", "weak": true, "shape": [2, 3], "v": [[4.0, 4.0, 0.0], [5.5, 5.0, 0.0]]}]'),
    ('vmap_cond_unbatched_pred',
     'out = jax.vmap(lambda x, y: lax.cond(True, lambda a, b: a * b, lambda a, b: a, x, y), in_axes=(0, None))(jnp.arange(3.0), 2.0)',
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [0.0, 2.0, 4.0]}'),
    ('jit_vmap_switch',
     'out = jax.jit(jax.vmap(lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, lambda v: v * 0.0 + 5.0], x)))(jnp.array([2, 0, 1]), jnp.arange(3.0))',
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [5.0, 0.8414709568023682, -0.416146844625473]}'),
    ('grad_vmap_fori',
     'out = jax.grad(lambda x: jnp.sum(jax.vmap(lambda v: lax.fori_loop(0, 3, lambda i, c: jnp.sin(c) * v, v))(x)))(jnp.array([0.1, 0.5]))',
     '{"dtype": "float32", "weak": false, "shape": [2], "v": [0.0039898729883134365, 0.4577304720878601]}'),
    ('cond_const_branch_grad',
     'out = jax.grad(lambda x: lax.cond(x > 0, lambda v: 3.0, lambda v: v * v, x))(jnp.float32(-2.0))',
     '{"dtype": "float32", "weak": false, "shape": [], "v": -4.0}'),
    ('cond_branch_consts_grad',
     'a = jnp.array([1.0, 2.0]); b = jnp.array([3.0, 4.0])\nout = jax.grad(lambda x, p: lax.cond(p, lambda v: jnp.dot(v, a), lambda v: jnp.dot(v * v, b), x), argnums=0)(jnp.array([1.0, 1.0]), False)',
     '{"dtype": "float32", "weak": false, "shape": [2], "v": [6.0, 8.0]}'),
    ('scan_unroll2',
     'out = lax.scan(lambda c, x: (c + x, c * x), 1.0, jnp.arange(5.0), unroll=2)',
     '[{"dtype": "float32", "weak": false, "shape": [], "v": 11.0}, {"dtype": "float32", "weak": false, "shape": [5], "v": [0.0, 1.0, 4.0, 12.0, 28.0]}]'),
    ('map_under_grad_jit',
     'out = jax.jit(jax.grad(lambda w: jnp.sum(lax.map(lambda x: jnp.tanh(w * x), jnp.arange(3.0)))))(0.3)',
     '{"dtype": "float32", "weak": true, "shape": [], "v": 2.338292360305786}'),
    ('while_vmap_body_consts',
     'out = jax.vmap(lambda s: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * s), (0, 1.0)))(jnp.array([2.0, 3.0]))',
     '[{"dtype": "int32", "weak": true, "shape": [2], "v": [3, 3]}, {"dtype": "float32", "weak": false, "shape": [2], "v": [8.0, 27.0]}]'),
    ('scan_in_cond_grad',
     'out = jax.grad(lambda x: lax.cond(x > 0, lambda v: lax.scan(lambda c, _: (c * v, None), 1.0, None, length=3)[0], lambda v: v, x))(2.0)',
     '{"dtype": "float32", "weak": true, "shape": [], "v": 12.0}'),
    ('hessian_cond',
     'out = jax.hessian(lambda x: lax.cond(x[0] > 0, lambda v: jnp.sum(v ** 3), lambda v: jnp.sum(v ** 2), x))(jnp.array([1.0, 2.0]))',
     '{"dtype": "float32", "weak": false, "shape": [2, 2], "v": [[6.0, 0.0], [0.0, 12.0]]}'),
    ('jacrev_vmap_switch',
     'out = jax.jacrev(lambda x: jax.vmap(lambda i, v: lax.switch(i, [jnp.sin, jnp.exp], v))(jnp.array([0, 1]), x))(jnp.array([0.5, 0.25]))',
     '{"dtype": "float32", "weak": false, "shape": [2, 2], "v": [[0.8775825500488281, 0.0], [0.0, 1.2840254306793213]]}'),
    ('vmap_vmap_scan',
     'out = jax.vmap(jax.vmap(lambda x: lax.scan(lambda c, y: (c + y * x, c), 0.0, jnp.arange(3.0))))(jnp.arange(4.0).reshape(2, 2))',
     '[{"dtype": "float32", "weak": false, "shape": [2, 2], "v": [[0.0, 3.0], [6.0, 9.0]]}, {"dtype": "float32", "weak": true, "shape": [2, 2, 3], "v": [[[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]], [[0.0, 0.0, 2.0], [0.0, 0.0, 3.0]]]}]'),
    ('linearize_scan',
     'y, f = jax.linearize(lambda x: lax.scan(lambda c, z: (jnp.sin(c) * z, c), x, jnp.arange(1.0, 4.0)), 0.7)\nout = (y, f(1.0))',
     '[[{"dtype": "float32", "weak": false, "shape": [], "v": 2.797361373901367}, {"dtype": "float32", "weak": true, "shape": [3], "v": [0.699999988079071, 0.6442176699638367, 1.2011462450027466]}], [{"dtype": "float32", "weak": false, "shape": [], "v": 1.3256670236587524}, {"dtype": "float32", "weak": true, "shape": [3], "v": [1.0, 0.7648422122001648, 1.223089575767517]}]]'),
    ('vjp_scan_int_carry',
     'y, f = jax.vjp(lambda x: lax.scan(lambda c, z: ((c[0] + 1, c[1] * z * x), c[1]), (0, 1.0), jnp.arange(1.0, 4.0))[0][1], 2.0)\nout = (y, f(1.0))',
     '[{"dtype": "float32", "weak": false, "shape": [], "v": 48.0}, [{"dtype": "float32", "weak": true, "shape": [], "v": 72.0}]]'),
    ('jnp_select',
     'out = jax.vmap(jax.grad(lambda x: jnp.select([x < 0, x < 1], [x ** 2, jnp.sin(x)], x * 3)))(jnp.array([-1.0, 0.5, 2.0]))',
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [-2.0, 0.8775825500488281, 3.0]}'),
    ('jnp_piecewise',
     'out = jax.jit(lambda x: jnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2]))(jnp.array([-2.0, 3.0]))',
     '{"dtype": "float32", "weak": false, "shape": [2], "v": [2.0, 9.0]}'),
    ('jaxpr_scan_vmap_consts',
     'out = str(jax.make_jaxpr(jax.vmap(lambda w: lax.scan(lambda c, x: (c * w + x, c), 0.0, jnp.arange(3.0))))(jnp.ones(2)))',
     '"{ lambda ; a:f32[2]. let\\n    b:f32[3] = iota[dimension=0 dtype=float32 shape=(3,) sharding=None] \\n    c:f32[2] = broadcast_in_dim 0.0:f32[]\\n    d:f32[2] e:f32[3,2] = scan[\\n      jaxpr={ lambda ; f:f32[2] g:f32[2] h:f32[]. let\\n          i:f32[2] = convert_element_type[new_dtype=float32 weak_type=False] g\\n          j:f32[2] = mul i f\\n          k:f32[2] = add j h\\n        in (k, g) }\\n      length=3\\n      num_carry=1\\n      num_consts=1\\n      reverse=False\\n      unroll=1\\n    ] a c b\\n    l:f32[2,3] = transpose[permutation=(1, 0)] e\\n  in (d, l) }"'),
    ('jaxpr_while_jvp',
     'out = str(jax.make_jaxpr(lambda x: jax.jvp(lambda y: lax.while_loop(lambda v: v < 10.0, lambda v: v * y, y), (x,), (1.0,)))(2.0))',
     '"{ lambda ; a:f32[]. let\\n    b:f32[] c:f32[] = while[\\n      body_jaxpr={ lambda ; d:f32[] e:f32[] f:f32[] g:f32[]. let\\n          h:f32[] = mul f d\\n          i:f32[] = mul g d\\n          j:f32[] = mul f e\\n          k:f32[] = add_any i j\\n        in (h, k) }\\n      body_nconsts=2\\n      cond_jaxpr={ lambda ; l:f32[] m:f32[]. let\\n          n:bool[] = lt l 10.0:f32[]\\n        in (n,) }\\n      cond_nconsts=0\\n    ] a 1.0:f32[] a 1.0:f32[]\\n  in (b, c) }"'),
    ('jaxpr_cond_jvp',
     'out = str(jax.make_jaxpr(lambda x: jax.jvp(lambda y: lax.cond(y > 0, jnp.sin, jnp.cos, y), (x,), (1.0,)))(2.0))',
     '"{ lambda ; a:f32[]. let\\n    b:bool[] = gt a 0.0:f32[]\\n    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b\\n    d:f32[] e:f32[] = cond[\\n      branches=(\\n        { lambda ; f:f32[] g:f32[]. let\\n            h:f32[] = cos f\\n            i:f32[] = sin f\\n            j:f32[] = mul g i\\n            k:f32[] = neg j\\n          in (h, k) }\\n        { lambda ; l:f32[] m:f32[]. let\\n            n:f32[] = sin l\\n            o:f32[] = cos l\\n            p:f32[] = mul m o\\n          in (n, p) }\\n      )\\n    ] c a 1.0:f32[]\\n  in (d, e) }"'),
    ('jaxpr_map_grad',
     'out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sum(lax.map(jnp.sin, x))))(jnp.ones(2)))',
     '"{ lambda ; a:f32[2]. let\\n    b:f32[2] c:f32[2] = scan[\\n      jaxpr={ lambda ; d:f32[]. let e:f32[] = sin d; f:f32[] = cos d in (e, f) }\\n      length=2\\n      num_carry=0\\n      num_consts=0\\n      reverse=False\\n      unroll=1\\n    ] a\\n    _:f32[] = reduce_sum[axes=(0,) out_sharding=None] b\\n    g:f32[2] = broadcast_in_dim 1.0:f32[]\\n    h:f32[2] = scan[\\n      jaxpr={ lambda ; i:f32[] j:f32[]. let k:f32[] = mul i j in (k,) }\\n      length=2\\n      num_carry=0\\n      num_consts=0\\n      reverse=True\\n      unroll=1\\n    ] g c\\n  in (h,) }"'),
    ('fori_loop_negative_range',
     'out = lax.fori_loop(5, 2, lambda i, c: c + i, 0)',
     '{"dtype": "int32", "weak": true, "shape": [], "v": 0}'),
    ('scan_length0',
     'out = lax.scan(lambda c, x: (c + x, c), 0.0, jnp.zeros((0,)))',
     '[{"dtype": "float32", "weak": false, "shape": [], "v": 0.0}, {"dtype": "float32", "weak": true, "shape": [0], "v": []}]'),
    ('associative_scan_max_rev',
     'out = lax.associative_scan(jnp.maximum, jnp.array([1.0, 5.0, 2.0, 4.0, 3.0]), reverse=True)',
     '{"dtype": "float32", "weak": false, "shape": [5], "v": [5.0, 5.0, 4.0, 4.0, 3.0]}'),
    ('reduce_mul_tuple',
     'out = lax.reduce(jnp.arange(1.0, 7.0).reshape(2, 3), 1.0, lax.mul, (0, 1))',
     '{"dtype": "float32", "weak": false, "shape": [], "v": 720.0}'),
    ('map_batch_size_remainder',
     'out = lax.map(lambda x: (x * 2, x.sum()), jnp.arange(10.0).reshape(5, 2), batch_size=2)',
     '[{"dtype": "float32", "weak": false, "shape": [5, 2], "v": [[0.0, 2.0], [4.0, 6.0], [8.0, 10.0], [12.0, 14.0], [16.0, 18.0]]}, {"dtype": "float32", "weak": false, "shape": [5], "v": [1.0, 5.0, 9.0, 13.0, 17.0]}]'),
    ('scan_python_scalar_ys',
     'out = lax.scan(lambda c, x: (c + x, 1.0), 0.0, jnp.arange(3.0))',
     '[{"dtype": "float32", "weak": false, "shape": [], "v": 3.0}, {"dtype": "float32", "weak": true, "shape": [3], "v": [1.0, 1.0, 1.0]}]'),
    ('grad_scan_weak_carry',
     'out = jax.grad(lambda x: lax.scan(lambda c, y: (c * y, None), x, jnp.arange(1.0, 4.0))[0])(1.5)',
     '{"dtype": "float32", "weak": false, "shape": [], "v": 6.0}'),
]




@pytest.mark.parametrize("name,code,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_jax(name, code, expected):
    run_case(code, expected)


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
    # "scan body function carry input and carry output must have equal types, but they differ: ..."
    with pytest.raises(TypeError, match="scan body function carry input and carry output must have equal types"):
        lax.scan(lambda c, x: (c.astype(jnp.int32), x), 0.0, jnp.arange(3.0))


def test_cond_branches_are_compiled_once_per_branch():
    from core._engine.backends import cpu
    f = jax.jit(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))
    f(1.0), f(-1.0), f(1.0), f(-1.0)  # each branch is compiled by its second run (the first one is interpreted)
    before = cpu.stats["compiles"]
    for v in (2.0, -1.0, 3.0, -2.0):
        f(v)
    assert cpu.stats["compiles"] == before


ERRORS = [
    # (code run with real JAX 0.10.2, its exception class, the start of its message)
    ("lax.while_loop(lambda x: x, lambda x: x + 1, 1)", TypeError,
     "cond_fun must return a boolean scalar, but got output type(s) [ShapedArray(int32[], weak_type=True)]."),
    ("lax.cond(jnp.array([True, False]), lambda: 1.0, lambda: 2.0)", TypeError,
     "Pred must be a scalar, got [ True False] of shape (2,)."),
    ("lax.scan(lambda c, x: (c, x), 0.0, None)", ValueError,
     "scan got no values to scan over and `length` not provided."),
    ("lax.scan(lambda c, x: (c, x), 0.0, jnp.ones(3), length=4)", ValueError,
     "scan got `length` argument of 4 which disagrees with leading axis sizes [3]."),
    ("lax.scan(lambda c, x: (c, x), 0.0, [jnp.ones(3), jnp.ones(4)])", ValueError,
     "scan got values with different leading axis sizes: 3, 4."),
    ("lax.switch(1.0, [lambda: 1.0])", TypeError, "Index type must be an integer, got 1.0 as float32"),
    ("lax.cond(True, lambda: (1.0, 2.0), lambda: 1.0)", TypeError,
     "cond branch outputs must have the same pytree structure, but they differ:"),
    ("lax.while_loop(lambda x: x < 3, lambda x: (x, x), 1)", TypeError,
     "while_loop body function carry input and carry output must have the same pytree structure, but they differ:"),
    ("lax.fori_loop(0.0, 3, lambda i, x: x, 1)", TypeError,
     "lower and upper arguments to fori_loop must have equal types, got float32 and int32"),
    ("lax.scan(lambda c, x: c, 0.0, jnp.ones(3))", TypeError, "scan body output must be a pair, got ~float32[]."),
    ("lax.scan(lambda c, x: (jnp.stack([c, c]), x), 0.0, jnp.arange(3.0))", TypeError,
     "scan body function carry input and carry output must have equal types, but they differ:\n\nThe input carry c "
     "has type float32[] but the corresponding output carry component has type float32[2], so the shapes do not "
     "match.\n\nRevise the function so that all output types match the corresponding input types."),
    ("lax.while_loop(lambda x: x < 10, lambda x: x * 2.0, jnp.int32(1))", TypeError,
     "while_loop body function carry input and carry output must have equal types, but they differ:\n\nThe input "
     "carry x has type int32[] but the corresponding output carry component has type float32[], so the dtypes do "
     "not match."),
    ("lax.fori_loop(0, 3, lambda i, c: {'a': c['a'] * 2.0}, {'a': jnp.int32(1)})", TypeError,
     "scan body function carry input and carry output must have equal types, but they differ:\n\nThe input carry "
     "component loop_carry[1]['a'] has type int32[] but the corresponding output carry component has type "
     "float32[], so the dtypes do not match."),
]


@pytest.mark.parametrize("code,exc,message", ERRORS, ids=[e[0][:40] for e in ERRORS])
def test_errors_match_jax(code, exc, message):
    with pytest.raises(exc) as info:
        run(code)
    assert str(info.value).startswith(message)


def test_float_predicate_is_allowed_like_jax():
    # lax.cond(1.5, lambda: 1.0, lambda: 2.0) -> Array(1., dtype=float32, weak_type=True) in JAX
    out = lax.cond(1.5, lambda: 1.0, lambda: 2.0)
    assert float(out) == 1.0 and out.weak_type


def test_branch_type_error_message_is_jax_s():
    # lax.switch(0, [lambda x: x, lambda x: 2], 1.0) in JAX 0.10.2 raises TypeError:
    # "switch branches must have equal output types but they differ.\n\nbranch 0 is <lambda> at ...
    #  The output of branch 0 has type float32[] but the corresponding output of branch1 has type
    #  int32[], so the dtypes do not match.\n\nRevise branch 0 and/or branch1 so that all output types match."
    with pytest.raises(TypeError) as info:
        lax.switch(0, [lambda x: x, lambda x: 2], 1.0)
    msg = str(info.value)
    assert msg.startswith("switch branches must have equal output types but they differ.\n\nbranch 0 is <lambda> at ")
    assert ("The output of branch 0 has type float32[] but the corresponding output of branch1 has type int32[], "
            "so the dtypes do not match.\n\nRevise branch 0 and/or branch1 so that all output types match.") in msg
    # x = jnp.array([1., 2., 3.]); lax.cond(True, lambda x: x, lambda x: 0, x) (the jit tutorial)
    with pytest.raises(TypeError, match="type float32\\[3\\] but the corresponding output of false_fun has type "
                                        "int32\\[\\], so the dtypes do not match, and the shapes do not match"):
        lax.cond(True, lambda x: x, lambda x: 0, jnp.array([1., 2., 3.]))


@pytest.mark.parametrize("code,weak", [
    # JAX 0.10.2: the output type is that of branches[0] (cond: the false branch), weak type included
    ("lax.cond(True, lambda x: jnp.float32(1), lambda x: 2.0, 1.0)", True),
    ("lax.cond(True, lambda x: 2.0, lambda x: jnp.float32(1), 1.0)", False),
    ("lax.switch(1, [lambda x: 2.0, lambda x: jnp.float32(1)], 1.0)", True),
    ("lax.switch(0, [lambda x: jnp.float32(1), lambda x: 2.0], 1.0)", False),
])
def test_output_weak_type_follows_first_branch(code, weak):
    assert run("out = " + code).weak_type is weak
