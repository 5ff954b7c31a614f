"""jaxpr text of jax.numpy / jax.nn functions, and Array repr/str/format, against real JAX 0.10.2.

JAX stages many jnp functions as nested `jit`s (`jit[name=_where ...]`, `jit[name=clip ...]`) and
its reductions convert weak inputs to strong dtypes first; the expected strings below are
`str(jax.make_jaxpr(f)(*args))` / `repr(x)` / `str(x)` / `format(x, spec)` under real JAX.
"""
import numpy as np
import pytest

import core as jax
import core.numpy as jnp

JAXPRS = [
    # jax.make_jaxpr(lambda x: jnp.where(x > 1, x, 0.0))(*(jnp.arange(3.0),))
    ('jnp.where', 'lambda x: jnp.where(x > 1, x, 0.0)', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:bool[3] = gt a 1.0:f32[]\n    c:f32[3] = jit[\n      name=_where\n      jaxpr={ lambda ; b:bool[3] a:f32[3] d:f32[]. let\n          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d\n          f:f32[3] = broadcast_in_dim e\n          c:f32[3] = select_n b f a\n        in (c,) }\n    ] b a 0.0:f32[]\n  in (c,) }'),
    # jax.make_jaxpr(lambda x: jnp.clip(x, 0.0, 1.0))(*(jnp.arange(3.0),))
    ('jnp.clip', 'lambda x: jnp.clip(x, 0.0, 1.0)', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[3] = jit[\n      name=clip\n      jaxpr={ lambda ; a:f32[3] c:f32[] d:f32[]. let\n          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c\n          f:f32[3] = max e a\n          g:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d\n          b:f32[3] = min g f\n        in (b,) }\n    ] a 0.0:f32[] 1.0:f32[]\n  in (b,) }'),
    # jax.make_jaxpr(jnp.sort)(*(jnp.arange(3.0),))
    ('jnp.sort', 'jnp.sort', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[3] = jit[\n      name=sort\n      jaxpr={ lambda ; a:f32[3]. let\n          b:f32[3] = sort[dimension=0 is_stable=True num_keys=1] a\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(jnp.argsort)(*(jnp.arange(3.0),))
    ('jnp.argsort', 'jnp.argsort', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:i32[3] = jit[\n      name=argsort\n      jaxpr={ lambda ; a:f32[3]. let\n          c:i32[3] = iota[dimension=0 dtype=int32 shape=(3,) sharding=None] \n          d:f32[3] b:i32[3] = sort[dimension=0 is_stable=True num_keys=1] a c\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: x // 2)(*(jnp.arange(3),))
    ('floor_divide int', 'lambda x: x // 2', '(jnp.arange(3),)',
     '{ lambda ; a:i32[3]. let\n    b:i32[3] = jit[\n      name=floor_divide\n      jaxpr={ lambda ; a:i32[3] c:i32[]. let\n          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] c\n          e:i32[3] = div a d\n          f:i32[3] = sign a\n          g:i32[] = sign d\n          h:bool[3] = ne f g\n          i:i32[3] = rem a d\n          j:bool[3] = ne i 0:i32[]\n          k:bool[3] = and h j\n          l:i32[3] = sub e 1:i32[]\n          b:i32[3] = jit[\n            name=_where\n            jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let\n                b:i32[3] = select_n k e l\n              in (b,) }\n          ] k l e\n        in (b,) }\n    ] a 2:i32[]\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: x // 2.0)(*(jnp.arange(3.0),))
    ('floor_divide float', 'lambda x: x // 2.0', '(jnp.arange(3.0),)',
     'let floor_divide = { lambda ; a:f32[3] b:f32[]. let\n    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b\n    d:f32[3] = rem a c\n    e:bool[] = eq c 0.0:f32[]\n    f:f32[3] = sub a d\n    g:f32[3] = jit[\n      name=_where\n      jaxpr={ lambda ; e:bool[] a:f32[3] f:f32[3]. let\n          g:f32[3] = select_n e f a\n        in (g,) }\n    ] e a f\n    h:f32[3] = div g c\n    i:bool[3] = ne d 0.0:f32[]\n    j:f32[] = sign c\n    k:f32[3] = sign d\n    l:bool[3] = ne j k\n    m:bool[3] = and i l\n    n:f32[3] = add d c\n    o:f32[3] = select_n m d n\n    p:f32[3] = sub h 1.0:f32[]\n    q:f32[3] = select_n m h p\n    r:f32[3] = round[rounding_method=0] q\n  in (r,) } in\n{ lambda ; s:f32[3]. let\n    t:f32[3] = jit[name=floor_divide jaxpr=floor_divide] s 2.0:f32[]\n  in (t,) }'),
    # jax.make_jaxpr(lambda x: x % 2)(*(jnp.arange(3),))
    ('remainder', 'lambda x: x % 2', '(jnp.arange(3),)',
     'let remainder = { lambda ; a:i32[3] b:i32[]. let\n    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b\n    d:bool[] = eq c 0:i32[]\n    e:i32[] = jit[\n      name=_where\n      jaxpr={ lambda ; d:bool[] f:i32[] c:i32[]. let\n          e:i32[] = select_n d c f\n        in (e,) }\n    ] d 1:i32[] c\n    g:i32[3] = rem a e\n    h:bool[3] = ne g 0:i32[]\n    i:bool[3] = lt g 0:i32[]\n    j:bool[] = lt e 0:i32[]\n    k:bool[3] = ne i j\n    l:bool[3] = and k h\n    m:i32[3] = add g e\n    n:i32[3] = select_n l g m\n  in (n,) } in\n{ lambda ; o:i32[3]. let\n    p:i32[3] = jit[name=remainder jaxpr=remainder] o 2:i32[]\n  in (p,) }'),
    # jax.make_jaxpr(lambda x: jnp.stack([x, x], axis=1))(*(jnp.arange(3.0),))
    ('jnp.stack', 'lambda x: jnp.stack([x, x], axis=1)', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let b:f32[3,2] = stack[axis=1] a a in (b,) }'),
    # jax.make_jaxpr(jnp.sum)(*(2.0,))
    ('jnp.sum weak', 'jnp.sum', '(2.0,)',
     '{ lambda ; a:f32[]. let\n    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a\n    c:f32[] = reduce_sum[axes=() out_sharding=None] b\n  in (c,) }'),
    # jax.make_jaxpr(lambda x: jnp.sum(x, axis=1, keepdims=True))(*(jnp.ones((2, 3)),))
    ('jnp.sum axis', 'lambda x: jnp.sum(x, axis=1, keepdims=True)', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[2] = reduce_sum[axes=(1,) out_sharding=None] a\n    c:f32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] b\n  in (c,) }'),
    # jax.make_jaxpr(jnp.mean)(*(jnp.ones((2, 3)),))
    ('jnp.mean', 'jnp.mean', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a\n    c:f32[] = div b 6.0:f32[]\n  in (c,) }'),
    # jax.make_jaxpr(lambda x: jnp.max(x, axis=0))(*(jnp.ones((2, 3)),))
    ('jnp.max', 'lambda x: jnp.max(x, axis=0)', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let b:f32[3] = reduce_max[axes=(0,)] a in (b,) }'),
    # jax.make_jaxpr(jnp.any)(*(jnp.ones((2, 3)),))
    ('jnp.any', 'jnp.any', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:bool[2,3] = convert_element_type[new_dtype=bool weak_type=False] a\n    c:bool[] = reduce_or[axes=(0, 1)] b\n  in (c,) }'),
    # jax.make_jaxpr(jnp.cumsum)(*(jnp.ones((2, 3)),))
    ('jnp.cumsum', 'jnp.cumsum', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[6] = jit[\n      name=cumsum\n      jaxpr={ lambda ; a:f32[2,3]. let\n          c:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a\n          b:f32[6] = cumsum[axis=0 reverse=False] c\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(jnp.round)(*(jnp.ones(3),))
    ('jnp.round', 'jnp.round', '(jnp.ones(3),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[3] = jit[\n      name=round\n      jaxpr={ lambda ; a:f32[3]. let\n          b:f32[3] = round[rounding_method=1] a\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(jnp.flip)(*(jnp.ones(3),))
    ('jnp.flip', 'jnp.flip', '(jnp.ones(3),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[3] = jit[\n      name=_flip\n      jaxpr={ lambda ; a:f32[3]. let b:f32[3] = rev[dimensions=(0,)] a in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: jnp.linspace(0.0, x, 3))(*(1.0,))
    ('jnp.linspace', 'lambda x: jnp.linspace(0.0, x, 3)', '(1.0,)',
     'let _linspace = { lambda ; a:f32[] b:f32[]. let\n    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a\n    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b\n    e:f32[] = sub d c\n    f:f32[] = div e 2.0:f32[]\n    g:f32[2] = iota[dimension=0 dtype=float32 shape=(2,) sharding=None] \n    h:f32[2] = div g 2.0:f32[]\n    i:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] c\n    j:f32[2] = sub 1.0:f32[] h\n    k:f32[2] = mul i j\n    l:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] d\n    m:f32[2] = mul l h\n    n:f32[2] = add k m\n    o:f32[1] = broadcast_in_dim d\n    p:f32[3] = concatenate[dimension=0] n o\n  in (p,) } in\n{ lambda ; q:f32[]. let\n    r:f32[3] = jit[name=_linspace jaxpr=_linspace] 0.0:f32[] q\n  in (r,) }'),
    # jax.make_jaxpr(lambda x: jnp.dot(x, x.T))(*(jnp.ones((2, 3)),))
    ('jnp.dot', 'lambda x: jnp.dot(x, x.T)', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = transpose[permutation=(1, 0)] a\n    c:f32[2,2] = dot_general[\n      dimension_numbers=(([1], [0]), ([], []))\n      preferred_element_type=float32\n    ] a b\n  in (c,) }'),
    # jax.make_jaxpr(lambda x: x @ x.T)(*(jnp.ones((2, 3)),))
    ('matmul', 'lambda x: x @ x.T', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = transpose[permutation=(1, 0)] a\n    c:f32[2,2] = dot_general[\n      dimension_numbers=(([1], [0]), ([], []))\n      preferred_element_type=float32\n    ] a b\n  in (c,) }'),
    # jax.make_jaxpr(lambda x: x.reshape(3, 2))(*(jnp.ones((2, 3)),))
    ('jnp.reshape', 'lambda x: x.reshape(3, 2)', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = reshape[dimensions=None new_sizes=(3, 2) sharding=None] a\n  in (b,) }'),
    # jax.make_jaxpr(jnp.transpose)(*(jnp.ones((2, 3)),))
    ('jnp.transpose', 'jnp.transpose', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = transpose[permutation=(1, 0)] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: jnp.concatenate([x, x]))(*(jnp.ones(2),))
    ('jnp.concatenate', 'lambda x: jnp.concatenate([x, x])', '(jnp.ones(2),)',
     '{ lambda ; a:f32[2]. let b:f32[4] = concatenate[dimension=0] a a in (b,) }'),
    # jax.make_jaxpr(jnp.exp)(*(jnp.ones(2),))
    ('jnp.exp', 'jnp.exp', '(jnp.ones(2),)',
     '{ lambda ; a:f32[2]. let b:f32[2] = exp a in (b,) }'),
    # jax.make_jaxpr(lambda x: x + 1.5)(*(jnp.arange(2),))
    ('int promote', 'lambda x: x + 1.5', '(jnp.arange(2),)',
     '{ lambda ; a:i32[2]. let\n    b:f32[2] = convert_element_type[new_dtype=float32 weak_type=True] a\n    c:f32[2] = add b 1.5:f32[]\n  in (c,) }'),
    # jax.make_jaxpr(jax.nn.softmax)(*(jnp.ones(3),))
    ('jax.nn.softmax', 'jax.nn.softmax', '(jnp.ones(3),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[] = reduce_max[axes=(0,)] a\n    c:f32[] = max -inf:f32[] b\n    d:f32[1] = broadcast_in_dim c\n    e:f32[1] = stop_gradient d\n    f:f32[3] = sub a e\n    g:f32[3] = exp f\n    h:f32[] = reduce_sum[axes=(0,) out_sharding=None] g\n    i:f32[1] = broadcast_in_dim h\n    j:f32[3] = div g i\n  in (j,) }'),
    # jax.make_jaxpr(jax.nn.log_softmax)(*(jnp.ones(3),))
    ('jax.nn.log_softmax', 'jax.nn.log_softmax', '(jnp.ones(3),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[3] = jit[\n      name=log_softmax\n      jaxpr={ lambda ; a:f32[3]. let\n          c:f32[] = reduce_max[axes=(0,)] a\n          d:f32[] = max -inf:f32[] c\n          e:f32[1] = broadcast_in_dim d\n          f:f32[1] = stop_gradient e\n          g:f32[3] = sub a f\n          h:f32[3] = exp g\n          i:f32[] = reduce_sum[axes=(0,) out_sharding=None] h\n          j:f32[1] = broadcast_in_dim i\n          k:f32[1] = log j\n          b:f32[3] = sub g k\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: jax.nn.logsumexp(x, axis=1))(*(jnp.ones((2, 3)),))
    ('jax.nn.logsumexp', 'lambda x: jax.nn.logsumexp(x, axis=1)', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[2] = reduce_max[axes=(1,)] a\n    c:f32[2] = max -inf:f32[] b\n    d:bool[2] = is_finite c\n    e:f32[2] = broadcast_in_dim 0.0:f32[]\n    f:f32[2] = select_n d e c\n    g:f32[2] = stop_gradient f\n    h:f32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] g\n    i:f32[2,3] = sub a h\n    j:f32[2,3] = exp i\n    k:f32[2] = reduce_sum[axes=(1,) out_sharding=None] j\n    _:f32[2] = sign k\n    l:f32[2] = abs k\n    m:f32[2] = log l\n    n:f32[2] = add m g\n  in (n,) }'),
    # jax.make_jaxpr(lambda i: jax.nn.one_hot(i, 3))(*(jnp.arange(2),))
    ('jax.nn.one_hot', 'lambda i: jax.nn.one_hot(i, 3)', '(jnp.arange(2),)',
     '{ lambda ; a:i32[2]. let\n    b:f32[2,3] = jit[\n      name=_one_hot\n      jaxpr={ lambda ; a:i32[2]. let\n          c:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] a\n          d:i32[1,3] = iota[dimension=1 dtype=int32 shape=(1, 3) sharding=None] \n          e:bool[2,3] = eq c d\n          b:f32[2,3] = convert_element_type[new_dtype=float32 weak_type=False] e\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(jax.nn.silu)(*(1.0,))
    ('jax.nn.silu', 'jax.nn.silu', '(1.0,)',
     '{ lambda ; a:f32[]. let\n    b:f32[] = jit[\n      name=silu\n      jaxpr={ lambda ; a:f32[]. let\n          c:f32[] = logistic a\n          b:f32[] = mul a c\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(jax.nn.gelu)(*(1.0,))
    ('jax.nn.gelu', 'jax.nn.gelu', '(1.0,)',
     '{ lambda ; a:f32[]. let\n    b:f32[] = integer_pow[y=3] a\n    c:f32[] = mul 0.044715:f32[] b\n    d:f32[] = add a c\n    e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d\n    f:f32[] = mul 0.7978845834732056:f32[] e\n    g:f32[] = tanh f\n    h:f32[] = add 1.0:f32[] g\n    i:f32[] = mul 0.5:f32[] h\n    j:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a\n    k:f32[] = mul j i\n  in (k,) }'),
    # jax.make_jaxpr(jax.nn.sigmoid)(*(1.0,))
    ('jax.nn.sigmoid', 'jax.nn.sigmoid', '(1.0,)',
     '{ lambda ; a:f32[]. let b:f32[] = logistic a in (b,) }'),
    # jax.make_jaxpr(jnp.var)(*(jnp.arange(3.0),))
    ('jnp.var', 'jnp.var', '(jnp.arange(3.0),)',
     'let _var = { lambda ; a:f32[3] b:i32[]. let\n    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] a\n    d:f32[1] = broadcast_in_dim c\n    e:f32[1] = div d 3.0:f32[]\n    f:f32[3] = sub a e\n    g:f32[3] = square f\n    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b\n    i:f32[] = sub 3.0:f32[] h\n    j:f32[] = reduce_sum[axes=(0,) out_sharding=None] g\n    k:f32[] = div j i\n    l:bool[] = gt i 0.0:f32[]\n    m:f32[] = jit[\n      name=_where\n      jaxpr={ lambda ; l:bool[] k:f32[] n:f32[]. let\n          o:f32[] = convert_element_type[new_dtype=float32 weak_type=False] n\n          m:f32[] = select_n l o k\n        in (m,) }\n    ] l k nan:f32[]\n  in (m,) } in\n{ lambda ; p:f32[3]. let q:f32[] = jit[name=_var jaxpr=_var] p 0:i32[] in (q,) }'),
    # jax.make_jaxpr(lambda x: jnp.std(x, ddof=1))(*(jnp.arange(3.0),))
    ('jnp.std ddof', 'lambda x: jnp.std(x, ddof=1)', '(jnp.arange(3.0),)',
     'let _var = { lambda ; a:f32[3] b:i32[]. let\n    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] a\n    d:f32[1] = broadcast_in_dim c\n    e:f32[1] = div d 3.0:f32[]\n    f:f32[3] = sub a e\n    g:f32[3] = square f\n    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b\n    i:f32[] = sub 3.0:f32[] h\n    j:f32[] = reduce_sum[axes=(0,) out_sharding=None] g\n    k:f32[] = div j i\n    l:bool[] = gt i 0.0:f32[]\n    m:f32[] = jit[\n      name=_where\n      jaxpr={ lambda ; l:bool[] k:f32[] n:f32[]. let\n          o:f32[] = convert_element_type[new_dtype=float32 weak_type=False] n\n          m:f32[] = select_n l o k\n        in (m,) }\n    ] l k nan:f32[]\n  in (m,) } in\n{ lambda ; p:f32[3]. let\n    q:f32[] = jit[\n      name=_std\n      jaxpr={ lambda ; p:f32[3] r:i32[]. let\n          s:f32[] = jit[name=_var jaxpr=_var] p r\n          q:f32[] = sqrt s\n        in (q,) }\n    ] p 1:i32[]\n  in (q,) }'),
    # jax.make_jaxpr(lambda x: jnp.isclose(x, x))(*(jnp.arange(3.0),))
    ('jnp.isclose', 'lambda x: jnp.isclose(x, x)', '(jnp.arange(3.0),)',
     'let isclose = { lambda ; a:f32[3] b:f32[3]. let\n    c:bool[3] = ne a a\n    d:bool[3] = ne b b\n    e:bool[3] = and c d\n    f:bool[3] = is_finite b\n    g:f32[3] = sub a b\n    h:f32[3] = abs g\n    i:f32[3] = abs b\n    j:f32[3] = mul 9.999999747378752e-06:f32[] i\n    k:f32[3] = add 9.99999993922529e-09:f32[] j\n    l:bool[3] = le h k\n    m:bool[3] = eq a b\n    n:bool[3] = and f l\n    o:bool[3] = or m n\n  in (o,) } in\n{ lambda ; p:f32[3]. let\n    q:bool[3] = jit[name=isclose jaxpr=isclose] p p\n  in (q,) }'),
    # jax.make_jaxpr(lambda x: jnp.allclose(x, x))(*(jnp.arange(3.0),))
    ('jnp.allclose', 'lambda x: jnp.allclose(x, x)', '(jnp.arange(3.0),)',
     'let isclose = { lambda ; a:f32[3] b:f32[3] c:f32[] d:f32[]. let\n    e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c\n    f:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d\n    g:bool[3] = ne a a\n    h:bool[3] = ne b b\n    i:bool[3] = and g h\n    j:bool[3] = is_finite b\n    k:f32[3] = sub a b\n    l:f32[3] = abs k\n    m:f32[3] = abs b\n    n:f32[3] = mul e m\n    o:f32[3] = add f n\n    p:bool[3] = le l o\n    q:bool[3] = eq a b\n    r:bool[3] = and j p\n    s:bool[3] = or q r\n  in (s,) } in\n{ lambda ; t:f32[3]. let\n    u:bool[] = jit[\n      name=allclose\n      jaxpr={ lambda ; t:f32[3] v:f32[3]. let\n          w:bool[3] = jit[name=isclose jaxpr=isclose] t v 1e-05:f32[] 1e-08:f32[]\n          u:bool[] = reduce_and[axes=(0,)] w\n        in (u,) }\n    ] t t\n  in (u,) }'),
    # jax.make_jaxpr(lambda x: jnp.select([x < 1, x > 1], [x, -x]))(*(jnp.arange(3.0),))
    ('jnp.select', 'lambda x: jnp.select([x < 1, x > 1], [x, -x])', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:bool[3] = lt a 1.0:f32[]\n    c:bool[3] = gt a 1.0:f32[]\n    d:f32[3] = neg a\n    e:bool[3] = broadcast_in_dim False:bool[]\n    f:bool[3,3] = stack[axis=0] e b c\n    g:i32[3] = argmax[axes=(0,) index_dtype=int32] f\n    h:f32[3] = broadcast_in_dim 0.0:f32[]\n    i:f32[3] = select_n g h a d\n  in (i,) }'),
    # jax.make_jaxpr(jnp.trace)(*(jnp.ones((2, 3)),))
    ('jnp.trace', 'jnp.trace', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[] = jit[\n      name=trace\n      jaxpr={ lambda ; a:f32[2,3]. let\n          c:i32[2,3] = iota[dimension=0 dtype=int32 shape=(2, 3) sharding=None] \n          d:i32[2,3] = iota[dimension=1 dtype=int32 shape=(2, 3) sharding=None] \n          e:i32[2,3] = add c 0:i32[]\n          f:bool[2,3] = eq e d\n          g:f32[2,3] = broadcast_in_dim 0.0:f32[]\n          h:f32[2,3] = jit[\n            name=_where\n            jaxpr={ lambda ; f:bool[2,3] a:f32[2,3] g:f32[2,3]. let\n                h:f32[2,3] = select_n f g a\n              in (h,) }\n          ] f a g\n          b:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] h\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(jnp.tril)(*(jnp.ones((2, 3)),))
    ('jnp.tril', 'jnp.tril', '(jnp.ones((2, 3)),)',
     '{ lambda ; a:f32[2,3]. let\n    b:f32[2,3] = jit[\n      name=tril\n      jaxpr={ lambda ; a:f32[2,3]. let\n          c:i32[2,3] = iota[dimension=0 dtype=int32 shape=(2, 3) sharding=None] \n          d:i32[2,3] = add c 0:i32[]\n          e:i32[2,3] = iota[dimension=1 dtype=int32 shape=(2, 3) sharding=None] \n          f:bool[2,3] = ge d e\n          g:f32[2,3] = broadcast_in_dim 0.0:f32[]\n          b:f32[2,3] = select_n f g a\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: jnp.eye(3) * x)(*(1.0,))
    ('jnp.eye', 'lambda x: jnp.eye(3) * x', '(1.0,)',
     '{ lambda ; a:f32[]. let\n    b:i32[3,3] = iota[dimension=0 dtype=int32 shape=(3, 3) sharding=None] \n    c:i32[3,3] = iota[dimension=1 dtype=int32 shape=(3, 3) sharding=None] \n    d:i32[3,3] = add b 0:i32[]\n    e:bool[3,3] = eq d c\n    f:f32[3,3] = convert_element_type[new_dtype=float32 weak_type=False] e\n    g:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a\n    h:f32[3,3] = mul f g\n  in (h,) }'),
    # jax.make_jaxpr(jnp.diff)(*(jnp.arange(3.0),))
    ('jnp.diff', 'jnp.diff', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[2] = jit[\n      name=diff\n      jaxpr={ lambda ; a:f32[3]. let\n          c:f32[2] = slice[limit_indices=(3,) start_indices=(1,) strides=None] a\n          d:f32[2] = slice[limit_indices=(2,) start_indices=(0,) strides=None] a\n          b:f32[2] = sub c d\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: jnp.roll(x, 1))(*(jnp.arange(3.0),))
    ('jnp.roll', 'lambda x: jnp.roll(x, 1)', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[3] = jit[\n      name=_roll_static\n      jaxpr={ lambda ; a:f32[3]. let\n          c:f32[1] = slice[limit_indices=(3,) start_indices=(2,) strides=(1,)] a\n          d:f32[2] = slice[limit_indices=(2,) start_indices=(0,) strides=(1,)] a\n          b:f32[3] = concatenate[dimension=0] c d\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: jnp.pad(x, 1))(*(jnp.arange(3.0),))
    ('jnp.pad', 'lambda x: jnp.pad(x, 1)', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[5] = jit[\n      name=_pad\n      jaxpr={ lambda ; a:f32[3] c:i32[]. let\n          d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c\n          b:f32[5] = pad[padding_config=((np.int64(1), np.int64(1), 0),)] a d\n        in (b,) }\n    ] a 0:i32[]\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: jnp.split(x, 3))(*(jnp.arange(3.0),))
    ('jnp.split', 'lambda x: jnp.split(x, 3)', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[1] c:f32[1] d:f32[1] = split[\n      axis=0\n      sizes=(np.int64(1), np.int64(1), np.int64(1))\n    ] a\n  in (b, c, d) }'),
    # jax.make_jaxpr(jnp.atleast_2d)(*(jnp.arange(3.0),))
    ('jnp.atleast_2d', 'jnp.atleast_2d', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:f32[1,3] = jit[\n      name=atleast_2d\n      jaxpr={ lambda ; a:f32[3]. let\n          b:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(jnp.nan_to_num)(*(jnp.arange(3.0),))
    ('jnp.nan_to_num', 'jnp.nan_to_num', '(jnp.arange(3.0),)',
     'let _where = { lambda ; a:bool[3] b:f32[] c:f32[3]. let\n    d:f32[3] = broadcast_in_dim b\n    e:f32[3] = select_n a c d\n  in (e,) } in\n{ lambda ; f:f32[3]. let\n    g:f32[3] = jit[\n      name=nan_to_num\n      jaxpr={ lambda ; f:f32[3]. let\n          h:bool[3] = ne f f\n          i:f32[3] = jit[name=_where jaxpr=_where] h 0.0:f32[] f\n          j:bool[3] = eq i inf:f32[]\n          k:f32[3] = jit[name=_where jaxpr=_where] j 3.4028234663852886e+38:f32[]\n            i\n          l:bool[3] = eq k -inf:f32[]\n          g:f32[3] = jit[name=_where jaxpr=_where] l -3.4028234663852886e+38:f32[]\n            k\n        in (g,) }\n    ] f\n  in (g,) }'),
    # jax.make_jaxpr(jnp.count_nonzero)(*(jnp.arange(3.0),))
    ('jnp.count_nonzero', 'jnp.count_nonzero', '(jnp.arange(3.0),)',
     '{ lambda ; a:f32[3]. let\n    b:i32[] = jit[\n      name=count_nonzero\n      jaxpr={ lambda ; a:f32[3]. let\n          c:bool[3] = ne a 0.0:f32[]\n          d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] c\n          b:i32[] = reduce_sum[axes=(0,) out_sharding=None] d\n        in (b,) }\n    ] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67))(*(jnp.ones(3),))
    ('selu-like where', 'lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67)', '(jnp.ones(3),)',
     '{ lambda ; a:f32[3]. let\n    b:bool[3] = gt a 0.0:f32[]\n    c:f32[3] = exp a\n    d:f32[3] = mul 1.6699999570846558:f32[] c\n    e:f32[3] = sub d 1.6699999570846558:f32[]\n    f:f32[3] = jit[\n      name=_where\n      jaxpr={ lambda ; b:bool[3] a:f32[3] e:f32[3]. let\n          f:f32[3] = select_n b e a\n        in (f,) }\n    ] b a e\n    g:f32[3] = mul 1.0499999523162842:f32[] f\n  in (g,) }'),
]
REPRS = {
    'jnp.array(2.0)': ('Array(2., dtype=float32, weak_type=True)', '2.0'),
    'jnp.array([1, 2])': ('Array([1, 2], dtype=int32)', '[1 2]'),
    'jnp.arange(3.0)': ('Array([0., 1., 2.], dtype=float32)', '[0. 1. 2.]'),
    'jnp.array(True)': ('Array(True, dtype=bool)', 'True'),
    'jnp.ones((2, 2))': ('Array([[1., 1.],\n       [1., 1.]], dtype=float32)', '[[1. 1.]\n [1. 1.]]'),
    'jnp.array(1)': ('Array(1, dtype=int32, weak_type=True)', '1'),
    'jnp.int8(3)': ('Array(3, dtype=int8)', '3'),
    'jnp.array([1.5e10, 1.0])': ('Array([1.5e+10, 1.0e+00], dtype=float32)', '[1.5e+10 1.0e+00]'),
    'jnp.zeros((0, 3))': ('Array([], shape=(0, 3), dtype=float32)', '[]'),
    'jnp.arange(20.0)': ('Array([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12.,\n       13., 14., 15., 16., 17., 18., 19.], dtype=float32)', '[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n 18. 19.]'),
    'jnp.array([1.0, jnp.nan, jnp.inf])': ('Array([ 1., nan, inf], dtype=float32)', '[ 1. nan inf]'),
    'jnp.arange(3) > 1': ('Array([False, False,  True], dtype=bool)', '[False False  True]'),
    'jnp.array([0.1, 0.25])': ('Array([0.1 , 0.25], dtype=float32)', '[0.1  0.25]'),
    'jnp.array(2.0, dtype=jnp.float16)': ('Array(2., dtype=float16)', '2.0'),
}
FORMATS = {
    ('jnp.array(1.5)', '.2f'): '1.50',
    ('jnp.array(3)', 'd'): '3',
    ('jnp.array(2.0)', ''): '2.0',
}

@pytest.mark.parametrize("case", JAXPRS, ids=[c[0] for c in JAXPRS])
def test_jnp_jaxpr_text_matches_jax(case):
    _, f, args, expected = case
    assert str(jax.make_jaxpr(eval(f))(*eval(args))) == expected


@pytest.mark.parametrize("expr", list(REPRS))
def test_array_repr_and_str_match_jax(expr):
    x = eval(expr)
    assert (repr(x), str(x)) == REPRS[expr]


def test_array_format_device_and_numpy_conversion():
    for (expr, spec), expected in FORMATS.items():
        assert format(eval(expr), spec) == expected
    x = jnp.arange(3.0)
    assert str(x.device) == str(jax.devices()[0])
    a = np.asarray(x)
    assert isinstance(a, np.ndarray) and a.dtype == np.float32 and a.tolist() == [0.0, 1.0, 2.0]
    assert type(x).__name__ == "ArrayImpl"        # type(jnp.zeros(2)).__name__ under JAX
    assert isinstance(x, jax.Array) and isinstance(x, jnp.ndarray)
    assert float(jnp.array(2.5)) == 2.5 and int(jnp.array(3)) == 3 and x.tolist() == [0.0, 1.0, 2.0]
