"""jit / grad / vmap / jvp / vjp / linearize / jacobians / make_jaxpr behave and print as JAX 0.10.2.

Each case is a snippet (the JAX call) run with `jax`, `jnp`, `np` bound to our engine; EXPECTED
holds what the same snippet gave with real JAX 0.10.2 (CPU), recorded with
`.cache/jax-venv/bin/python` (`jax`, `jnp` = the real modules). Covered: jaxpr text of nested
jit (inner vars named after the outer ones, known/transposed calls of grad(jit(f))), shared
jaxprs hoisted as `let`, numpy ints that batching puts into params, jacfwd/jacrev/hessian
jaxprs, custom_jvp staging, tracer reprs, JAX's error messages, jit caching and static arguments, pytrees.
"""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import tree_util

CASES = {
    'jaxpr_grad_of_jit': 'out = str(jax.make_jaxpr(jax.grad(jax.jit(lambda x: jnp.sin(x) * x)))(1.0))',
    'jaxpr_jit_names_inner_vars': 'def f(x): return jnp.tanh(x) ** 2\nout = str(jax.make_jaxpr(jax.jit(f))(jnp.ones(3)))',
    'jaxpr_jit_of_grad_of_jit': 'def f(x): return jnp.sin(x) * x\nout = str(jax.make_jaxpr(jax.jit(jax.grad(jax.jit(f))))(1.0))',
    'jaxpr_shared_hoisted': 'def f(x):\n    for i in range(11): x = jnp.sin(x)\n    return x\nout = str(jax.make_jaxpr(lambda x: jax.jit(f)(x))(1.0))',
    'jaxpr_same_jit_twice': 'g = jax.jit(lambda x: x * 2.0)\nout = str(jax.make_jaxpr(lambda x: g(x) + g(x))(1.0))',
    'jaxpr_vmap_of_grad': 'def f(x): return jnp.tanh(x) ** 2\nout = str(jax.make_jaxpr(jax.vmap(jax.grad(f)))(jnp.ones(3)))',
    'jaxpr_nested_vmap_numpy_ints': 'out = str(jax.make_jaxpr(jax.vmap(jax.vmap(lambda x, y: x * y), in_axes=(0, None)))(jnp.ones((2, 3)), jnp.ones(3)))',
    'jaxpr_vmap_in_axes_1_sum': 'out = str(jax.make_jaxpr(jax.vmap(lambda x: x.sum(), in_axes=1))(jnp.ones((2, 3))))',
    'jaxpr_jacfwd_sin': 'out = str(jax.make_jaxpr(jax.jacfwd(jnp.sin))(jnp.ones(2)))',
    'jaxpr_jacrev_sin': 'out = str(jax.make_jaxpr(jax.jacrev(jnp.sin))(jnp.ones(2)))',
    'jaxpr_hessian_cube': 'out = str(jax.make_jaxpr(jax.hessian(lambda x: jnp.sum(x ** 3)))(jnp.ones(2)))',
    'jaxpr_grad_tanh_matmul': 'out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.tanh(x @ x.T))))(jnp.ones((2, 2))))',
    'jaxpr_value_and_grad_two_args': 'out = str(jax.make_jaxpr(jax.value_and_grad(lambda x, y: jnp.sum(x * y), argnums=(0, 1)))(jnp.ones(3), jnp.ones(3)))',
    'jaxpr_jvp_of_jit': 'out = str(jax.make_jaxpr(lambda x: jax.jvp(jax.jit(jnp.sin), (x,), (x,)))(1.0))',
    'jaxpr_grad_relu_mlp': 'def mlp(p, x):\n    w1, b1, w2 = p\n    h = jnp.maximum(x @ w1 + b1, 0.0)\n    return jnp.mean((h @ w2) ** 2)\nout = str(jax.make_jaxpr(jax.grad(mlp))((jnp.ones((3, 4)), jnp.ones(4), jnp.ones((4, 1))), jnp.ones((2, 3))))',
    'jaxpr_unused_outputs': 'def f(x):\n    y = jnp.exp(x)\n    z = jnp.log(y)\n    return x * 2.0\nout = str(jax.make_jaxpr(f)(1.0))',
    'tracer_reprs': "seen = []\nkeep = lambda x: (seen.append(repr(x)), x)[1]\njax.jit(keep)(jnp.ones((2, 3)))\njax.jit(keep)(1.0)\njax.vmap(keep)(jnp.ones((2, 3)))\njax.grad(keep)(1.0)\njax.jvp(keep, (1.0,), (1.0,))\njax.vmap(jax.grad(keep))(jnp.ones(2))\nout = '\\n'.join(seen)",
    'err_vmap_sizes': 'try:\n    jax.vmap(lambda x, y: x + y)(jnp.ones(3), jnp.ones(4))\nexcept ValueError as e:\n    out = str(e)',
    'err_vmap_sizes_pytree': "try:\n    jax.vmap(lambda d: d['a'] + d['b'])({'a': jnp.ones(3), 'b': jnp.ones(4)})\nexcept ValueError as e:\n    out = str(e)",
    'err_vmap_axis_size': 'try:\n    jax.vmap(lambda x: x, axis_size=2)(jnp.ones(3))\nexcept ValueError as e:\n    out = str(e)',
    'err_jit_str_arg': "try:\n    jax.jit(lambda x, s: x)(1.0, 'hello')\nexcept TypeError as e:\n    out = str(e).replace(repr(e).split(' at 0x')[0], '')[:0] + str(e).split(' as an abstract array.')[1]",
    'err_grad_nonscalar': 'try:\n    jax.grad(lambda x: x * 2)(jnp.ones(3))\nexcept TypeError as e:\n    out = str(e)',
    'err_grad_int': 'try:\n    jax.grad(lambda x: x * 2)(3)\nexcept TypeError as e:\n    out = str(e)',
    'err_has_aux_not_pair': "try:\n    jax.grad(lambda x: x.sum(), has_aux=True)(jnp.ones(2))\nexcept TypeError as e:\n    out = str(e).split(' but got type')[0]",
    'err_jvp_shapes': 'try:\n    jax.jvp(jnp.sin, (1.0,), (jnp.ones(2),))\nexcept ValueError as e:\n    out = str(e)',
    'grad_allow_int_float0': 'g = jax.grad(lambda x, y: x * y, argnums=1, allow_int=True)(2.0, 3)\nout = (str(g.dtype), g.shape)',
    'jacrev_pytree': "out = jax.jacrev(lambda p: {'y': p['a'] * p['b'], 'z': jnp.sin(p['a'])})({'a': jnp.arange(2.0), 'b': jnp.ones(2)})",
    'jacfwd_pytree_argnums': 'out = jax.jacfwd(lambda x, y: (x * y, x.sum()), argnums=(0, 1))(jnp.arange(2.0), jnp.ones(2))',
    'hessian_value': 'out = jax.hessian(lambda x: jnp.sum(x ** 3) + x[0] * x[1])(jnp.array([1.0, 2.0]))',
    'per_example_grads': 'def loss(w, x): return jnp.sum(jnp.tanh(x @ w)) ** 2\nw = jnp.arange(6.0).reshape(3, 2) / 10\nxs = jnp.arange(12.0).reshape(4, 3) / 10\nout = jax.vmap(jax.grad(loss), in_axes=(None, 0))(w, xs)',
    'vmap_dict_out_axes': "out = jax.vmap(lambda d: {'s': d['x'] * 2, 't': d['y'].sum()}, in_axes=({'x': 1, 'y': 0},), out_axes={'s': 1, 't': 0})({'x': jnp.arange(6.0).reshape(2, 3), 'y': jnp.ones((3, 2))})",
    'vmap_negative_axes': 'out = jax.vmap(lambda x: x * 2, in_axes=-1, out_axes=-1)(jnp.arange(6.0).reshape(2, 3))',
    'jit_retrace_count': 'n = [0]\n@jax.jit\ndef f(x):\n    n[0] += 1\n    return x + 1\nf(jnp.ones(2)); f(jnp.ones(2)); f(jnp.ones(3)); f(1.0); f(2.0); f(jnp.ones(2, jnp.int32))\nout = n[0]',
    'jit_static_argnames': "f = jax.jit(lambda x, n: x * n, static_argnames='n')\nout = (f(jnp.ones(2), n=3), f(jnp.ones(2), n=4))",
    'grad_of_grad_of_jit': 'def f(x): return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))\nout = jax.jit(jax.grad(jax.jit(jax.grad(jax.jit(f)))))(1.0)',
    'linearize_sin': 'y, f_jvp = jax.linearize(jnp.sin, 1.0)\nout = (y, f_jvp(2.0))',
    'vjp_tuple_out': 'y, pb = jax.vjp(lambda x, y: (x * y, x + y), 2.0, 3.0)\nout = pb((1.0, 1.0))',
    'jit_weak_type_is_part_of_the_key': 'n = [0]\n@jax.jit\ndef f(x):\n    n[0] += 1\n    return x * 2\nf(1.0); f(jnp.asarray(1.0)); f(2.0); f(jnp.asarray(3.0))\nout = n[0]',
    'jit_pytree_args_and_outputs': "f = jax.jit(lambda d, t: {'sum': d['a'] + t[0], 'prod': d['b'] * t[1]})\nout = f({'a': jnp.ones(2), 'b': 2.0}, (jnp.arange(2.0), 3.0))",
    'jit_static_argnums_retrace': 'n = [0]\ndef g(x, k):\n    n[0] += 1\n    return x ** k\nf = jax.jit(g, static_argnums=1)\nr = (f(2.0, 2), f(3.0, 2), f(2.0, 3))\nout = (r, n[0])',
    'grad_has_aux': "out = jax.grad(lambda x: (jnp.sum(x ** 2), {'n': x.sum()}), has_aux=True)(jnp.arange(3.0))",
    'value_and_grad_argnums_tuple': 'out = jax.value_and_grad(lambda x, y: jnp.sum(x * y) ** 2, argnums=(0, 1))(jnp.arange(2.0), jnp.ones(2))',
    'jvp_pytree': "out = jax.jvp(lambda p: p['w'] * p['b'], ({'w': 2.0, 'b': 3.0},), ({'w': 1.0, 'b': 0.5},))",
    'vmap_axis_size_no_mapped_args': 'out = jax.vmap(lambda: jnp.ones(2), axis_size=3)()',
    'vmap_nested_out_axes': 'out = jax.vmap(jax.vmap(lambda x, y: x * y, in_axes=(None, 0)), in_axes=(0, None), out_axes=1)(jnp.arange(2.0), jnp.arange(3.0))',
    'jaxpr_custom_jvp_relu': 'out = str(jax.make_jaxpr(jax.nn.relu)(jnp.ones(3)))',
    'jaxpr_custom_jvp_user': '@jax.custom_jvp\ndef f(x):\n    return jnp.sin(x)\n@f.defjvp\ndef f_jvp(primals, tangents):\n    (x,), (t,) = primals, tangents\n    return f(x), 2.0 * t\nout = str(jax.make_jaxpr(f)(1.0))',
    'grad_jit_custom_jvp_uses_rule': '@jax.custom_jvp\ndef f(x):\n    return jnp.sin(x)\n@f.defjvp\ndef f_jvp(primals, tangents):\n    (x,), (t,) = primals, tangents\n    return f(x), 2.0 * t\nout = (jax.grad(jax.jit(f))(1.0), jax.jit(jax.grad(f))(1.0), jax.grad(jax.jit(jax.nn.relu))(0.0))',
    'jaxpr_vmap_custom_jvp_relu': 'out = str(jax.make_jaxpr(jax.vmap(jax.nn.relu))(jnp.ones((2, 3))))',
    'grad_vmap_relu_at_zero_jit': 'out = jax.jit(jax.grad(lambda x: jax.vmap(jax.nn.relu)(x).sum()))(jnp.array([[-1.0, 0.0, 2.0]]))',
}

# Real JAX 0.10.2's results for CASES: {'kind': 'str'|'int'|'tree', 'treedef', 'value'}
EXPECTED = {'jaxpr_grad_of_jit': {'kind': 'str',
                       'treedef': None,
                       'value': '{ lambda ; a:f32[]. let\n'
                                '    _:f32[] b:f32[] c:f32[] = jit[\n'
                                '      name=<lambda>\n'
                                '      jaxpr={ lambda ; a:f32[]. let\n'
                                '          c:f32[] = sin a\n'
                                '          b:f32[] = cos a\n'
                                '          _:f32[] = mul c a\n'
                                '        in (_, b, c) }\n'
                                '    ] a\n'
                                '    d:f32[] = jit[\n'
                                '      name=<lambda>\n'
                                '      jaxpr={ lambda ; b:f32[] a:f32[] c:f32[] e:f32[]. let\n'
                                '          f:f32[] = mul c e\n'
                                '          g:f32[] = mul e a\n'
                                '          h:f32[] = mul g b\n'
                                '          d:f32[] = add_any f h\n'
                                '        in (d,) }\n'
                                '    ] b a c 1.0:f32[]\n'
                                '  in (d,) }'},
 'jaxpr_jit_names_inner_vars': {'kind': 'str',
                                'treedef': None,
                                'value': '{ lambda ; a:f32[3]. let\n'
                                         '    b:f32[3] = jit[\n'
                                         '      name=f\n'
                                         '      jaxpr={ lambda ; a:f32[3]. let\n'
                                         '          c:f32[3] = tanh a\n'
                                         '          b:f32[3] = integer_pow[y=2] c\n'
                                         '        in (b,) }\n'
                                         '    ] a\n'
                                         '  in (b,) }'},
 'jaxpr_jit_of_grad_of_jit': {'kind': 'str',
                              'treedef': None,
                              'value': '{ lambda ; a:f32[]. let\n'
                                       '    b:f32[] = jit[\n'
                                       '      name=f\n'
                                       '      jaxpr={ lambda ; a:f32[]. let\n'
                                       '          c:f32[] d:f32[] e:f32[] = jit[\n'
                                       '            name=f\n'
                                       '            jaxpr={ lambda ; a:f32[]. let\n'
                                       '                e:f32[] = sin a\n'
                                       '                d:f32[] = cos a\n'
                                       '                c:f32[] = mul e a\n'
                                       '              in (c, d, e) }\n'
                                       '          ] a\n'
                                       '          b:f32[] = jit[\n'
                                       '            name=f\n'
                                       '            jaxpr={ lambda ; d:f32[] a:f32[] e:f32[] f:f32[]. let\n'
                                       '                g:f32[] = mul e f\n'
                                       '                h:f32[] = mul f a\n'
                                       '                i:f32[] = mul h d\n'
                                       '                b:f32[] = add_any g i\n'
                                       '              in (b,) }\n'
                                       '          ] d a e 1.0:f32[]\n'
                                       '        in (b,) }\n'
                                       '    ] a\n'
                                       '  in (b,) }'},
 'jaxpr_shared_hoisted': {'kind': 'str',
                          'treedef': None,
                          'value': 'let f = { lambda ; a:f32[]. let\n'
                                   '    b:f32[] = sin a\n'
                                   '    c:f32[] = sin b\n'
                                   '    d:f32[] = sin c\n'
                                   '    e:f32[] = sin d\n'
                                   '    g:f32[] = sin e\n'
                                   '    h:f32[] = sin g\n'
                                   '    i:f32[] = sin h\n'
                                   '    j:f32[] = sin i\n'
                                   '    k:f32[] = sin j\n'
                                   '    l:f32[] = sin k\n'
                                   '    m:f32[] = sin l\n'
                                   '  in (m,) } in\n'
                                   '{ lambda ; n:f32[]. let o:f32[] = jit[name=f jaxpr=f] n in (o,) }'},
 'jaxpr_same_jit_twice': {'kind': 'str',
                          'treedef': None,
                          'value': 'let lambda = { lambda ; a:f32[]. let b:f32[] = mul a 2.0:f32[] in (b,) } '
                                   'in\n'
                                   '{ lambda ; c:f32[]. let\n'
                                   '    d:f32[] = jit[name=<lambda> jaxpr=lambda] c\n'
                                   '    e:f32[] = jit[name=<lambda> jaxpr=lambda] c\n'
                                   '    f:f32[] = add d e\n'
                                   '  in (f,) }'},
 'jaxpr_vmap_of_grad': {'kind': 'str',
                        'treedef': None,
                        'value': '{ lambda ; a:f32[3]. let\n'
                                 '    b:f32[3] = tanh a\n'
                                 '    c:f32[3] = sub 1.0:f32[] b\n'
                                 '    _:f32[3] = integer_pow[y=2] b\n'
                                 '    d:f32[3] = mul 2.0:f32[] b\n'
                                 '    e:f32[3] = mul 1.0:f32[] d\n'
                                 '    f:f32[3] = mul e c\n'
                                 '    g:f32[3] = mul f b\n'
                                 '    h:f32[3] = add_any f g\n'
                                 '  in (h,) }'},
 'jaxpr_nested_vmap_numpy_ints': {'kind': 'str',
                                  'treedef': None,
                                  'value': '{ lambda ; a:f32[2,3] b:f32[3]. let\n'
                                           '    c:f32[1,3] = '
                                           'broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] b\n'
                                           '    d:f32[2,3] = mul a c\n'
                                           '  in (d,) }'},
 'jaxpr_vmap_in_axes_1_sum': {'kind': 'str',
                              'treedef': None,
                              'value': '{ lambda ; a:f32[2,3]. let\n'
                                       '    b:f32[3] = reduce_sum[axes=(np.int64(0),) out_sharding=None] a\n'
                                       '  in (b,) }'},
 'jaxpr_jacfwd_sin': {'kind': 'str',
                      'treedef': None,
                      'value': '{ lambda ; a:f32[2]. let\n'
                               '    b:i32[2,2] = iota[dimension=0 dtype=int32 shape=(2, 2) sharding=None] \n'
                               '    c:i32[2,2] = iota[dimension=1 dtype=int32 shape=(2, 2) sharding=None] \n'
                               '    d:i32[2,2] = add b 0:i32[]\n'
                               '    e:bool[2,2] = eq d c\n'
                               '    f:f32[2,2] = convert_element_type[new_dtype=float32 weak_type=False] e\n'
                               '    g:f32[2,2] = split[axis=1 sizes=(np.int64(2),)] f\n'
                               '    h:f32[2,2] = convert_element_type[new_dtype=float32 weak_type=False] g\n'
                               '    _:f32[2] = sin a\n'
                               '    i:f32[2] = cos a\n'
                               '    j:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] i\n'
                               '    k:f32[2,2] = mul h j\n'
                               '    l:f32[2,2] = transpose[permutation=(1, 0)] k\n'
                               '    m:f32[2,2] = split[axis=1 sizes=(np.int64(2),)] l\n'
                               '  in (m,) }'},
 'jaxpr_jacrev_sin': {'kind': 'str',
                      'treedef': None,
                      'value': '{ lambda ; a:f32[2]. let\n'
                               '    _:f32[2] = sin a\n'
                               '    b:f32[2] = cos a\n'
                               '    c:i32[2,2] = iota[dimension=0 dtype=int32 shape=(2, 2) sharding=None] \n'
                               '    d:i32[2,2] = iota[dimension=1 dtype=int32 shape=(2, 2) sharding=None] \n'
                               '    e:i32[2,2] = add c 0:i32[]\n'
                               '    f:bool[2,2] = eq e d\n'
                               '    g:f32[2,2] = convert_element_type[new_dtype=float32 weak_type=False] f\n'
                               '    h:f32[2,2] = split[axis=1 sizes=(np.int64(2),)] g\n'
                               '    i:f32[2,2] = convert_element_type[new_dtype=float32 weak_type=False] h\n'
                               '    j:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] b\n'
                               '    k:f32[2,2] = mul i j\n'
                               '    l:f32[2,2] = split[axis=0 sizes=(np.int64(2),)] k\n'
                               '  in (l,) }'},
 'jaxpr_hessian_cube': {'kind': 'str',
                        'treedef': None,
                        'value': '{ lambda ; a:f32[2]. let\n'
                                 '    b:i32[2,2] = iota[dimension=0 dtype=int32 shape=(2, 2) '
                                 'sharding=None] \n'
                                 '    c:i32[2,2] = iota[dimension=1 dtype=int32 shape=(2, 2) '
                                 'sharding=None] \n'
                                 '    d:i32[2,2] = add b 0:i32[]\n'
                                 '    e:bool[2,2] = eq d c\n'
                                 '    f:f32[2,2] = convert_element_type[new_dtype=float32 weak_type=False] '
                                 'e\n'
                                 '    g:f32[2,2] = split[axis=1 sizes=(np.int64(2),)] f\n'
                                 '    h:f32[2,2] = convert_element_type[new_dtype=float32 weak_type=False] '
                                 'g\n'
                                 '    i:f32[2] = integer_pow[y=3] a\n'
                                 '    j:f32[2] = integer_pow[y=2] a\n'
                                 '    k:f32[2] = mul 3.0:f32[] j\n'
                                 '    l:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] k\n'
                                 '    m:f32[2,2] = mul h l\n'
                                 '    n:f32[2] = integer_pow[y=2] a\n'
                                 '    o:f32[2] = mul 2.0:f32[] a\n'
                                 '    p:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] o\n'
                                 '    q:f32[2,2] = mul h p\n'
                                 '    r:f32[2] = mul 3.0:f32[] n\n'
                                 '    s:f32[2,2] = mul 3.0:f32[] q\n'
                                 '    _:f32[] = reduce_sum[axes=(0,) out_sharding=None] i\n'
                                 '    _:f32[2] = reduce_sum[axes=(np.int64(1),) out_sharding=None] m\n'
                                 '    t:i32[1,1] = iota[dimension=0 dtype=int32 shape=(1, 1) '
                                 'sharding=None] \n'
                                 '    u:i32[1,1] = iota[dimension=1 dtype=int32 shape=(1, 1) '
                                 'sharding=None] \n'
                                 '    v:i32[1,1] = add t 0:i32[]\n'
                                 '    w:bool[1,1] = eq v u\n'
                                 '    x:f32[1,1] = convert_element_type[new_dtype=float32 weak_type=False] '
                                 'w\n'
                                 '    y:f32[1,1] = split[axis=1 sizes=(np.int64(1),)] x\n'
                                 '    z:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] y\n'
                                 '    ba:f32[1] = convert_element_type[new_dtype=float32 weak_type=False] z\n'
                                 '    bb:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(0,)] ba\n'
                                 '    bc:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] r\n'
                                 '    bd:f32[2,1,2] = broadcast_in_dim[broadcast_dimensions=(0, '
                                 'np.int64(2))] s\n'
                                 '    be:f32[1,2] = mul bb bc\n'
                                 '    bf:f32[1,1,2] = broadcast_in_dim[\n'
                                 '      broadcast_dimensions=(np.int64(1), np.int64(2))\n'
                                 '    ] bb\n'
                                 '    bg:f32[2,1,2] = mul bf bd\n'
                                 '    bh:f32[1,2] = split[axis=0 sizes=(np.int64(1),)] be\n'
                                 '    bi:f32[2,1,2] = split[axis=1 sizes=(np.int64(1),)] bg\n'
                                 '    _:f32[2] = reshape[dimensions=None new_sizes=(2,) sharding=None] bh\n'
                                 '    bj:f32[2,2] = reshape[dimensions=None new_sizes=(2, 2) sharding=None] '
                                 'bi\n'
                                 '    bk:f32[2,2] = transpose[permutation=(1, 0)] bj\n'
                                 '    bl:f32[2,2] = split[axis=1 sizes=(np.int64(2),)] bk\n'
                                 '  in (bl,) }'},
 'jaxpr_grad_tanh_matmul': {'kind': 'str',
                            'treedef': None,
                            'value': '{ lambda ; a:f32[2,2]. let\n'
                                     '    b:f32[2,2] = transpose[permutation=(1, 0)] a\n'
                                     '    c:f32[2,2] = dot_general[\n'
                                     '      dimension_numbers=(([1], [0]), ([], []))\n'
                                     '      preferred_element_type=float32\n'
                                     '    ] a b\n'
                                     '    d:f32[2,2] = tanh c\n'
                                     '    e:f32[2,2] = sub 1.0:f32[] d\n'
                                     '    _:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] d\n'
                                     '    f:f32[2,2] = broadcast_in_dim 1.0:f32[]\n'
                                     '    g:f32[2,2] = mul f e\n'
                                     '    h:f32[2,2] = mul g d\n'
                                     '    i:f32[2,2] = add_any g h\n'
                                     '    j:f32[2,2] = dot_general[\n'
                                     '      dimension_numbers=(([0], [0]), ([], []))\n'
                                     '      preferred_element_type=float32\n'
                                     '    ] i a\n'
                                     '    k:f32[2,2] = transpose[permutation=(1, 0)] j\n'
                                     '    l:f32[2,2] = dot_general[\n'
                                     '      dimension_numbers=(([1], [1]), ([], []))\n'
                                     '      preferred_element_type=float32\n'
                                     '    ] i b\n'
                                     '    m:f32[2,2] = transpose[permutation=(1, 0)] k\n'
                                     '    n:f32[2,2] = add_any l m\n'
                                     '  in (n,) }'},
 'jaxpr_value_and_grad_two_args': {'kind': 'str',
                                   'treedef': None,
                                   'value': '{ lambda ; a:f32[3] b:f32[3]. let\n'
                                            '    c:f32[3] = mul a b\n'
                                            '    d:f32[] = reduce_sum[axes=(0,) out_sharding=None] c\n'
                                            '    e:f32[3] = broadcast_in_dim 1.0:f32[]\n'
                                            '    f:f32[3] = mul a e\n'
                                            '    g:f32[3] = mul e b\n'
                                            '  in (d, g, f) }'},
 'jaxpr_jvp_of_jit': {'kind': 'str',
                      'treedef': None,
                      'value': '{ lambda ; a:f32[]. let\n'
                               '    b:f32[] c:f32[] = jit[\n'
                               '      name=sin\n'
                               '      jaxpr={ lambda ; a:f32[] d:f32[]. let\n'
                               '          b:f32[] = sin a\n'
                               '          e:f32[] = cos a\n'
                               '          c:f32[] = mul d e\n'
                               '        in (b, c) }\n'
                               '    ] a a\n'
                               '  in (b, c) }'},
 'jaxpr_grad_relu_mlp': {'kind': 'str',
                         'treedef': None,
                         'value': '{ lambda ; a:f32[3,4] b:f32[4] c:f32[4,1] d:f32[2,3]. let\n'
                                  '    e:f32[2,4] = dot_general[\n'
                                  '      dimension_numbers=(([1], [0]), ([], []))\n'
                                  '      preferred_element_type=float32\n'
                                  '    ] d a\n'
                                  '    f:f32[1,4] = broadcast_in_dim[broadcast_dimensions=(1,)] b\n'
                                  '    g:f32[2,4] = add e f\n'
                                  '    h:f32[2,4] = max g 0.0:f32[]\n'
                                  '    i:bool[2,4] = eq g h\n'
                                  '    j:f32[2,4] = broadcast_in_dim 1.0:f32[]\n'
                                  '    k:f32[2,4] = broadcast_in_dim 0.0:f32[]\n'
                                  '    l:f32[2,4] = select_n i k j\n'
                                  '    m:bool[2,4] = eq 0.0:f32[] h\n'
                                  '    n:f32[2,4] = broadcast_in_dim 2.0:f32[]\n'
                                  '    o:f32[2,4] = broadcast_in_dim 1.0:f32[]\n'
                                  '    p:f32[2,4] = select_n m o n\n'
                                  '    q:f32[2,4] = div l p\n'
                                  '    r:f32[2,1] = dot_general[\n'
                                  '      dimension_numbers=(([1], [0]), ([], []))\n'
                                  '      preferred_element_type=float32\n'
                                  '    ] h c\n'
                                  '    s:f32[2,1] = integer_pow[y=2] r\n'
                                  '    t:f32[2,1] = mul 2.0:f32[] r\n'
                                  '    u:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] s\n'
                                  '    _:f32[] = div u 2.0:f32[]\n'
                                  '    v:f32[] = div 1.0:f32[] 2.0:f32[]\n'
                                  '    w:f32[2,1] = broadcast_in_dim v\n'
                                  '    x:f32[2,1] = mul w t\n'
                                  '    y:f32[1,4] = dot_general[\n'
                                  '      dimension_numbers=(([0], [0]), ([], []))\n'
                                  '      preferred_element_type=float32\n'
                                  '    ] x h\n'
                                  '    z:f32[4,1] = transpose[permutation=(1, 0)] y\n'
                                  '    ba:f32[2,4] = dot_general[\n'
                                  '      dimension_numbers=(([1], [1]), ([], []))\n'
                                  '      preferred_element_type=float32\n'
                                  '    ] x c\n'
                                  '    bb:f32[2,4] = mul ba q\n'
                                  '    bc:f32[4] = reduce_sum[axes=(0,) out_sharding=None] bb\n'
                                  '    bd:f32[1,4] = reshape[dimensions=None new_sizes=(1, 4) sharding=None] '
                                  'bc\n'
                                  '    be:f32[4] = reduce_sum[axes=(0,) out_sharding=None] bd\n'
                                  '    bf:f32[4,3] = dot_general[\n'
                                  '      dimension_numbers=(([0], [0]), ([], []))\n'
                                  '      preferred_element_type=float32\n'
                                  '    ] bb d\n'
                                  '    bg:f32[3,4] = transpose[permutation=(1, 0)] bf\n'
                                  '  in (bg, be, z) }'},
 'jaxpr_unused_outputs': {'kind': 'str',
                          'treedef': None,
                          'value': '{ lambda ; a:f32[]. let\n'
                                   '    b:f32[] = exp a\n'
                                   '    _:f32[] = log b\n'
                                   '    c:f32[] = mul a 2.0:f32[]\n'
                                   '  in (c,) }'},
 'tracer_reprs': {'kind': 'str',
                  'treedef': None,
                  'value': 'JitTracer(float32[2,3])\n'
                           'JitTracer(~float32[])\n'
                           'VmapTracer(aval=float32[3], batched=float32[2,3])\n'
                           'GradTracer(primal=1.0, typeof(tangent)=f32[])\n'
                           'JVPTracer(primal=1.0, tangent=1.0)\n'
                           'GradTracer(primal=VmapTracer(aval=float32[], batched=float32[2]), '
                           'typeof(tangent)=f32[])'},
 'err_vmap_sizes': {'kind': 'str',
                    'treedef': None,
                    'value': 'vmap got inconsistent sizes for array axes to be mapped:\n'
                             '  * one axis had size 3: axis 0 of argument x of type float32[3];\n'
                             '  * one axis had size 4: axis 0 of argument y of type float32[4]'},
 'err_vmap_sizes_pytree': {'kind': 'str',
                           'treedef': None,
                           'value': 'vmap got inconsistent sizes for array axes to be mapped:\n'
                                    "  * one axis had size 3: axis 0 of argument d['a'] of type float32[3];\n"
                                    "  * one axis had size 4: axis 0 of argument d['b'] of type float32[4]"},
 'err_vmap_axis_size': {'kind': 'str',
                        'treedef': None,
                        'value': 'vmap got inconsistent sizes for array axes to be mapped:\n'
                                 '  * the `axis_size` argument was 2;\n'
                                 '  * one axis had size 3: axis 0 of argument x of type float32[3]'},
 'err_jit_str_arg': {'kind': 'str',
                     'treedef': None,
                     'value': " The problematic value is of type <class 'str'> and was passed to the "
                              'function at path s.\n'
                              'This typically means that a jit-wrapped function was called with a non-array '
                              'argument, and this argument was not marked as static using the static_argnums '
                              'or static_argnames parameters of jax.jit.'},
 'err_grad_nonscalar': {'kind': 'str',
                        'treedef': None,
                        'value': 'Gradient only defined for scalar-output functions. Output had shape: '
                                 '(3,).'},
 'err_grad_int': {'kind': 'str',
                  'treedef': None,
                  'value': 'grad requires real- or complex-valued inputs (input dtype that is a sub-dtype of '
                           'np.inexact), but got int32. If you want to use Boolean- or integer-valued '
                           'inputs, use vjp or set allow_int to True.'},
 'err_has_aux_not_pair': {'kind': 'str',
                          'treedef': None,
                          'value': 'expected function with aux output to return a two-element tuple,'},
 'err_jvp_shapes': {'kind': 'str',
                    'treedef': None,
                    'value': 'jvp called with different primal and tangent shapes;Got primal shape () and '
                             'tangent shape as (2,)'},
 'grad_allow_int_float0': {'kind': 'tree',
                           'treedef': 'PyTreeDef((*, ()))',
                           'value': ["[('float0', 'V')]", []]},
 'jacrev_pytree': {'kind': 'tree',
                   'treedef': "PyTreeDef({'y': {'a': *, 'b': *}, 'z': {'a': *, 'b': *}})",
                   'value': {'y': {'a': [[1.0, 0.0], [0.0, 1.0]], 'b': [[0.0, 0.0], [0.0, 1.0]]},
                             'z': {'a': [[1.0, 0.0], [0.0, 0.5403022766113281]],
                                   'b': [[0.0, 0.0], [0.0, 0.0]]}}},
 'jacfwd_pytree_argnums': {'kind': 'tree',
                           'treedef': 'PyTreeDef(((*, *), (*, *)))',
                           'value': [[[[1.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 1.0]]],
                                     [[1.0, 1.0], [0.0, 0.0]]]},
 'hessian_value': {'kind': 'tree', 'treedef': 'PyTreeDef(*)', 'value': [[6.0, 1.0], [1.0, 12.0]]},
 'per_example_grads': {'kind': 'tree',
                       'treedef': 'PyTreeDef(*)',
                       'value': [[[0.0, 0.0],
                                  [0.04533326253294945, 0.04502292722463608],
                                  [0.0906665250658989, 0.09004585444927216]],
                                 [[0.36253881454467773, 0.3351643681526184],
                                  [0.4833850860595703, 0.4468858242034912],
                                  [0.6042313575744629, 0.558607280254364]],
                                 [[0.992766261100769, 0.8012492656707764],
                                  [1.1582272052764893, 0.9347907304763794],
                                  [1.3236883878707886, 1.068332314491272]],
                                 [[1.593428373336792, 1.0752094984054565],
                                  [1.7704758644104004, 1.1946772336959839],
                                  [1.9475234746932983, 1.3141449689865112]]]},
 'vmap_dict_out_axes': {'kind': 'tree',
                        'treedef': "PyTreeDef({'s': *, 't': *})",
                        'value': {'s': [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]], 't': [2.0, 2.0, 2.0]}},
 'vmap_negative_axes': {'kind': 'tree',
                        'treedef': 'PyTreeDef(*)',
                        'value': [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]},
 'jit_retrace_count': {'kind': 'int', 'treedef': None, 'value': 4},
 'jit_static_argnames': {'kind': 'tree', 'treedef': 'PyTreeDef((*, *))', 'value': [[3.0, 3.0], [4.0, 4.0]]},
 'grad_of_grad_of_jit': {'kind': 'tree', 'treedef': 'PyTreeDef(*)', 'value': -0.09085775166749954},
 'linearize_sin': {'kind': 'tree',
                   'treedef': 'PyTreeDef((*, *))',
                   'value': [0.8414709568023682, 1.0806045532226562]},
 'vjp_tuple_out': {'kind': 'tree', 'treedef': 'PyTreeDef((*, *))', 'value': [4.0, 3.0]},
 'jit_weak_type_is_part_of_the_key': {'kind': 'int', 'treedef': None, 'value': 1},
 'jit_pytree_args_and_outputs': {'kind': 'tree',
                                 'treedef': "PyTreeDef({'prod': *, 'sum': *})",
                                 'value': {'prod': 6.0, 'sum': [1.0, 2.0]}},
 'jit_static_argnums_retrace': {'kind': 'tree',
                                'treedef': 'PyTreeDef(((*, *, *), *))',
                                'value': [[4.0, 9.0, 8.0], 2]},
 'grad_has_aux': {'kind': 'tree',
                  'treedef': "PyTreeDef((*, {'n': *}))",
                  'value': [[0.0, 2.0, 4.0], {'n': 3.0}]},
 'value_and_grad_argnums_tuple': {'kind': 'tree',
                                  'treedef': 'PyTreeDef((*, (*, *)))',
                                  'value': [1.0, [[2.0, 2.0], [0.0, 2.0]]]},
 'jvp_pytree': {'kind': 'tree', 'treedef': 'PyTreeDef((*, *))', 'value': [6.0, 4.0]},
 'vmap_axis_size_no_mapped_args': {'kind': 'tree',
                                   'treedef': 'PyTreeDef(*)',
                                   'value': [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]},
 'vmap_nested_out_axes': {'kind': 'tree',
                          'treedef': 'PyTreeDef(*)',
                          'value': [[0.0, 0.0], [0.0, 1.0], [0.0, 2.0]]},
 'jaxpr_custom_jvp_relu': {'kind': 'str',
                           'treedef': None,
                           'value': '{ lambda ; a:f32[3]. let\n'
                                    '    b:f32[3] = custom_jvp_call[\n'
                                    '      name=relu\n'
                                    '      call_jaxpr={ lambda ; c:f32[3]. let\n'
                                    '          d:f32[3] = jit[\n'
                                    '            name=relu\n'
                                    '            jaxpr={ lambda ; c:f32[3]. let d:f32[3] = max c 0.0:f32[] '
                                    'in (d,) }\n'
                                    '          ] c\n'
                                    '        in (d,) }\n'
                                    '      jvp=jvp\n'
                                    '      symbolic_zeros=False\n'
                                    '    ] a\n'
                                    '  in (b,) }'},
 'jaxpr_custom_jvp_user': {'kind': 'str',
                           'treedef': None,
                           'value': '{ lambda ; a:f32[]. let\n'
                                    '    b:f32[] = custom_jvp_call[\n'
                                    '      name=f\n'
                                    '      call_jaxpr={ lambda ; c:f32[]. let d:f32[] = sin c in (d,) }\n'
                                    '      jvp=f_jvp\n'
                                    '      symbolic_zeros=False\n'
                                    '    ] a\n'
                                    '  in (b,) }'},
 'grad_jit_custom_jvp_uses_rule': {'kind': 'tree',
                                   'treedef': 'PyTreeDef((*, *, *))',
                                   'value': [2.0, 2.0, 0.0]},
 'jaxpr_vmap_custom_jvp_relu': {'kind': 'str',
                                'treedef': None,
                                'value': '{ lambda ; a:f32[2,3]. let\n'
                                         '    b:f32[2,3] = custom_jvp_call[\n'
                                         '      name=relu\n'
                                         '      call_jaxpr={ lambda ; c:f32[2,3]. let\n'
                                         '          d:f32[2,3] = jit[\n'
                                         '            name=relu\n'
                                         '            jaxpr={ lambda ; c:f32[2,3]. let\n'
                                         '                d:f32[2,3] = max c 0.0:f32[]\n'
                                         '              in (d,) }\n'
                                         '          ] c\n'
                                         '        in (d,) }\n'
                                         '      jvp=jvp\n'
                                         '      symbolic_zeros=False\n'
                                         '    ] a\n'
                                         '  in (b,) }'},
 'grad_vmap_relu_at_zero_jit': {'kind': 'tree', 'treedef': 'PyTreeDef(*)', 'value': [[0.0, 0.0, 1.0]]}}


def _run(code):
    ns = dict(jax=jax, jnp=jnp, np=np)
    exec(code, ns)
    return ns["out"]


def _plain(x):
    a = np.asarray(x)
    return None if a.dtype.kind == "V" else a.tolist()  # float0 has no values


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name):
    out = _run(CASES[name])
    exp = EXPECTED[name]
    if exp["kind"] in ("str", "int"):
        assert out == exp["value"], f"{name}:\n--- ours\n{out}\n--- JAX\n{exp['value']}"
        return
    assert str(tree_util.tree_structure(out)) == exp["treedef"]
    got = tree_util.tree_leaves(tree_util.tree_map(_plain, out))
    want = tree_util.tree_leaves(exp["value"])
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, str) or isinstance(g, str):
            assert g == w
        else:
            np.testing.assert_allclose(np.asarray(g, float), np.asarray(w, float), rtol=1e-5, atol=1e-6)
