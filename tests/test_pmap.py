"""Collectives over named axes (vmap axis_name, pmap) and pmap over virtual CPU devices, compared
with real JAX 0.10.2 (CPU). 8-device cases were recorded with
XLA_FLAGS=--xla_force_host_platform_device_count=8; here the device count comes from
`jax.config.update('jax_num_cpu_devices', 8)`.

Each case is (name, code, expected): `code` ran verbatim with real JAX; `expected` is its result
encoded as {dtype, weak, shape, v} (or JAX's jaxpr text, or the error class).
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax
from tests.jax_case_check import run, run_case

NAMED_AXIS_CASES = [
    ('vmap_all_gather_tiled',
     "out = jax.vmap(lambda x: lax.all_gather(x, 'b', tiled=True), axis_name='b')(jnp.arange(6.0).reshape(3, 2))",
     '{"dtype": "float32", "weak": false, "shape": [3, 6], "v": [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]}'),
    ('vmap_pmin',
     "out = jax.vmap(lambda x: lax.pmin(x, 'b'), axis_name='b')(jnp.array([3.0, -1.0, 2.0]))",
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [-1.0, -1.0, -1.0]}'),
    ('vmap_psum_const',
     "out = jax.vmap(lambda x: x * lax.psum(1, 'b'), axis_name='b')(jnp.ones(3))",
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [3.0, 3.0, 3.0]}'),
    ('vmap_psum_grad',
     "out = jax.grad(lambda x: jnp.sum(jax.vmap(lambda v: v * lax.psum(v, 'b'), axis_name='b')(x)))(jnp.array([1.0, 2.0, 3.0]))",
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [12.0, 12.0, 12.0]}'),
    ('vmap_psum_tuple_axes',
     "out = jax.vmap(jax.vmap(lambda x: lax.psum(x, ('i', 'j')), axis_name='j'), axis_name='i')(jnp.arange(6.0).reshape(2, 3))",
     '{"dtype": "float32", "weak": false, "shape": [2, 3], "v": [[15.0, 15.0, 15.0], [15.0, 15.0, 15.0]]}'),
    ('jaxpr_vmap_psum',
     "out = str(jax.make_jaxpr(jax.vmap(lambda x: x / lax.psum(x, 'b'), axis_name='b'))(jnp.ones(3)))",
     '"{ lambda ; a:f32[3]. let\\n    b:f32[] = psum[axes=(0,) axis_index_groups=None] a\\n    c:f32[3] = div a b\\n  in (c,) }"'),
    ('vmap_jit_psum',
     "out = jax.vmap(jax.jit(lambda x: x / lax.psum(x, 'i')), axis_name='i')(jnp.arange(1.0, 4.0))",
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [0.1666666716337204, 0.3333333432674408, 0.5]}'),
    ('vmap_jit_axis_index',
     "out = jax.vmap(jax.jit(lambda x: x * lax.axis_index('i')), axis_name='i')(jnp.ones(3))",
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [0.0, 1.0, 2.0]}'),
    ('grad_vmap_jit_psum',
     "out = jax.grad(lambda x: jax.vmap(jax.jit(lambda v: v * lax.psum(v, 'i')), axis_name='i')(x).sum())(jnp.arange(3.0))",
     '{"dtype": "float32", "weak": false, "shape": [3], "v": [6.0, 6.0, 6.0]}'),
    ('jaxpr_vmap_pmean',
     "out = str(jax.make_jaxpr(jax.vmap(lambda x: lax.pmean(x, 'i'), axis_name='i'))(jnp.arange(4.0)))",
     '"{ lambda ; a:f32[4]. let\\n    b:f32[] = psum[axes=(0,) axis_index_groups=None] a\\n    c:f32[] = div b 4.0:f32[]\\n    d:f32[4] = broadcast_in_dim c\\n  in (d,) }"'),
    ('vmap_pmean_int',
     "out = jax.vmap(lambda x: lax.pmean(x, 'i'), axis_name='i')(jnp.arange(4))",
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [1.5, 1.5, 1.5, 1.5]}'),
]

EIGHT_DEVICE_CASES = [
    ('pmap8_psum',
     "out = jax.pmap(lambda x: x / lax.psum(x, 'i'), axis_name='i')(jnp.arange(1.0, 9.0))",
     '{"dtype": "float32", "weak": false, "shape": [8], "v": [0.02777777798473835, 0.0555555559694767, 0.0833333358168602, 0.1111111119389534, 0.1388888955116272, 0.1666666716337204, 0.1944444477558136, 0.2222222238779068]}'),
    ('pmap8_axis_index',
     "out = jax.pmap(lambda x: x + lax.axis_index('i'), axis_name='i')(jnp.zeros((8, 2), jnp.int32))",
     '{"dtype": "int32", "weak": false, "shape": [8, 2], "v": [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]]}'),
    ('pmap8_all_gather',
     "out = jax.pmap(lambda x: lax.all_gather(x, 'i'), axis_name='i')(jnp.arange(4.0))",
     '{"dtype": "float32", "weak": false, "shape": [4, 4], "v": [[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0]]}'),
    ('pmap8_static',
     'out = jax.pmap(lambda x, n: x ** n, static_broadcasted_argnums=1)(jnp.arange(4.0), 3)',
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [0.0, 1.0, 8.0, 27.0]}'),
    ('pmap8_out_axes',
     'out = jax.pmap(lambda x: x * 2, out_axes=1)(jnp.arange(8.0).reshape(4, 2))',
     '{"dtype": "float32", "weak": false, "shape": [2, 4], "v": [[0.0, 4.0, 8.0, 12.0], [2.0, 6.0, 10.0, 14.0]]}'),
    ('pmap8_in_axes_1',
     'out = jax.pmap(lambda x: x.sum(), in_axes=1)(jnp.arange(8.0).reshape(2, 4))',
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [4.0, 6.0, 8.0, 10.0]}'),
    ('pmap8_too_many',
     'out = jax.pmap(lambda x: x)(jnp.ones(9))',
     '{"error": "ValueError"}'),
    ('pmap8_count',
     'out = (jax.device_count(), len(jax.devices()), jax.local_device_count())',
     '[8, 8, 8]'),
    ('pmap8_pmax_vmap',
     "out = jax.vmap(jax.pmap(lambda x: lax.pmax(x, 'i'), axis_name='i'), axis_name='j')(jnp.arange(8.0).reshape(2, 4))",
     '{"dtype": "float32", "weak": false, "shape": [2, 4], "v": [[3.0, 3.0, 3.0, 3.0], [7.0, 7.0, 7.0, 7.0]]}'),
    ('pmap8_grad_pmean',
     "out = jax.pmap(jax.grad(lambda w, x: lax.pmean(jnp.sum((w * x) ** 2), 'i')), axis_name='i', in_axes=(None, 0))(1.5, jnp.arange(4.0).reshape(4, 1))",
     '{"dtype": "float32", "weak": true, "shape": [4], "v": [0.0, 3.0, 12.0, 27.0]}'),
    ('grad_of_pmap',
     'out = jax.grad(lambda x: jax.pmap(jnp.sin)(x).sum())(jnp.arange(4.0))',
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [1.0, 0.5403022766113281, -0.416146844625473, -0.9899924993515015]}'),
    ('grad_of_pmap_psum',
     "out = jax.grad(lambda x: jax.pmap(lambda v: v * lax.psum(v, 'i'), axis_name='i')(x).sum())(jnp.arange(4.0))",
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [12.0, 12.0, 12.0, 12.0]}'),
    ('grad_of_pmap_replicated',
     'out = jax.grad(lambda w: jax.pmap(lambda x, w: jnp.sum(x * w), in_axes=(0, None))(jnp.arange(8.0).reshape(4, 2), w).sum())(jnp.array([1.0, 2.0]))',
     '{"dtype": "float32", "weak": false, "shape": [2], "v": [12.0, 16.0]}'),
    ('jvp_of_pmap',
     "out = jax.jvp(jax.pmap(lambda v: jnp.sin(v) * lax.pmean(v, 'i'), axis_name='i'), (jnp.arange(4.0),), (jnp.ones(4),))",
     '[{"dtype": "float32", "weak": false, "shape": [4], "v": [0.0, 1.2622064352035522, 1.3639460802078247, 0.21167999505996704]}, {"dtype": "float32", "weak": false, "shape": [4], "v": [1.5, 1.6519243717193604, 0.28507715463638306, -1.3438687324523926]}]'),
    ('vmap_of_pmap_psum',
     "out = jax.vmap(jax.pmap(lambda x: x / lax.psum(x, 'i'), axis_name='i'))(jnp.arange(1.0, 9.0).reshape(2, 4))",
     '{"dtype": "float32", "weak": false, "shape": [2, 4], "v": [[0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645], [0.19230769574642181, 0.23076923191547394, 0.26923078298568726, 0.3076923191547394]]}'),
    ('vmap_of_pmap_axis1',
     "out = jax.vmap(jax.pmap(lambda x: x * lax.axis_index('i'), axis_name='i'), in_axes=1, out_axes=1)(jnp.ones((4, 3)))",
     '{"dtype": "float32", "weak": false, "shape": [4, 3], "v": [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]}'),
    ('jit_of_pmap',
     "out = jax.jit(lambda x: jax.pmap(lambda v: v ** 2 + lax.axis_index('i'), axis_name='i')(x) * 2)(jnp.arange(4.0))",
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [0.0, 4.0, 12.0, 24.0]}'),
    ('pmap_scan',
     "out = jax.pmap(lambda x: lax.scan(lambda c, y: (c + y, c * y), 0.0, x), axis_name='i')(jnp.arange(8.0).reshape(4, 2))",
     '[{"dtype": "float32", "weak": false, "shape": [4], "v": [1.0, 5.0, 9.0, 13.0]}, {"dtype": "float32", "weak": false, "shape": [4, 2], "v": [[0.0, 0.0], [0.0, 6.0], [0.0, 20.0], [0.0, 42.0]]}]'),
    ('pmap_all_gather_grad',
     "out = jax.grad(lambda x: jax.pmap(lambda v: jnp.sum(lax.all_gather(v, 'i') ** 2), axis_name='i')(x).sum())(jnp.arange(4.0))",
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [0.0, 8.0, 16.0, 24.0]}'),
    ('jaxpr_pmap_psum',
     "out = str(jax.make_jaxpr(jax.pmap(lambda x: x / lax.psum(x, 'i'), axis_name='i'))(jnp.ones((4, 3))))",
     '"{ lambda ; a:f32[4,3]. let\\n    b:f32[4,3] = jit[\\n      name=_fun\\n      jaxpr={ lambda ; a:f32[4,3]. let\\n          b:f32[4,3] = shard_map[\\n            check_vma=False\\n            in_specs=(P(\'i\',),)\\n            jaxpr={ lambda ; c:f32[1,3]. let\\n                d:f32[3] = squeeze[dimensions=(0,)] c\\n                e:f32[3] = psum[axes=(\'i\',) axis_index_groups=None] d\\n                f:f32[3] = div d e\\n                g:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] f\\n              in (g,) }\\n            mesh=Mesh(\'i\': 4, axis_types=(Auto,))\\n            newly_manual_axes=frozenset({\'i\'})\\n            out_specs=(P(\'i\',),)\\n          ] a\\n        in (b,) }\\n    ] a\\n  in (b,) }"'),
    ('jaxpr_pmap_in_axes_none',
     "out = str(jax.make_jaxpr(jax.pmap(lambda x, c: x * c + lax.axis_index('i'), axis_name='i', in_axes=(0, None)))(jnp.ones((4, 3)), 2.0))",
     '"{ lambda ; a:f32[4,3] b:f32[]. let\\n    c:f32[4,3] = jit[\\n      name=_fun\\n      jaxpr={ lambda ; a:f32[4,3] b:f32[]. let\\n          c:f32[4,3] = shard_map[\\n            check_vma=False\\n            in_specs=(P(\'i\',), P())\\n            jaxpr={ lambda ; d:f32[1,3] e:f32[]. let\\n                f:f32[3] = squeeze[dimensions=(0,)] d\\n                g:f32[] = convert_element_type[\\n                  new_dtype=float32\\n                  weak_type=False\\n                ] e\\n                h:f32[3] = mul f g\\n                i:i32[] = axis_index[axis_name=i] \\n                j:f32[] = convert_element_type[\\n                  new_dtype=float32\\n                  weak_type=False\\n                ] i\\n                k:f32[3] = add h j\\n                l:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] k\\n              in (l,) }\\n            mesh=Mesh(\'i\': 4, axis_types=(Auto,))\\n            newly_manual_axes=frozenset({\'i\'})\\n            out_specs=(P(\'i\',),)\\n          ] a b\\n        in (c,) }\\n    ] a b\\n  in (c,) }"'),
    ('jaxpr_pmap_pytree_out',
     'out = str(jax.make_jaxpr(jax.pmap(lambda x: (x, x.sum())))(jnp.ones((2, 3))))',
     '"{ lambda ; a:f32[2,3]. let\\n    b:f32[2,3] c:f32[2] = jit[\\n      name=_fun\\n      jaxpr={ lambda ; a:f32[2,3]. let\\n          b:f32[2,3] c:f32[2] = shard_map[\\n            check_vma=False\\n            in_specs=(P(\'_internal_pmap_axis_name\',),)\\n            jaxpr={ lambda ; d:f32[1,3]. let\\n                e:f32[3] = squeeze[dimensions=(0,)] d\\n                f:f32[] = reduce_sum[axes=(0,) out_sharding=None] e\\n                g:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] e\\n                h:f32[1] = broadcast_in_dim f\\n              in (g, h) }\\n            mesh=Mesh(\'_internal_pmap_axis_name\': 2, axis_types=(Auto,))\\n            newly_manual_axes=frozenset({\'_internal_pmap_axis_name\'})\\n            out_specs=(P(\'_internal_pmap_axis_name\',), P(\'_internal_pmap_axis_name\',))\\n          ] a\\n        in (b, c) }\\n    ] a\\n  in (b, c) }"'),
    ('jaxpr_pmap_pmean',
     "out = str(jax.make_jaxpr(jax.pmap(lambda x: lax.pmean(x, 'd'), axis_name='d'))(jnp.ones(4)))",
     '"{ lambda ; a:f32[4]. let\\n    b:f32[4] = jit[\\n      name=_fun\\n      jaxpr={ lambda ; a:f32[4]. let\\n          b:f32[4] = shard_map[\\n            check_vma=False\\n            in_specs=(P(\'d\',),)\\n            jaxpr={ lambda ; c:f32[1]. let\\n                d:f32[] = squeeze[dimensions=(0,)] c\\n                e:f32[] = psum[axes=(\'d\',) axis_index_groups=None] d\\n                f:f32[] = div e 4.0:f32[]\\n                g:f32[1] = broadcast_in_dim f\\n              in (g,) }\\n            mesh=Mesh(\'d\': 4, axis_types=(Auto,))\\n            newly_manual_axes=frozenset({\'d\'})\\n            out_specs=(P(\'d\',),)\\n          ] a\\n        in (b,) }\\n    ] a\\n  in (b,) }"'),
    ('pmap_out_axes_none',
     "out = jax.pmap(lambda x: lax.psum(x, 'i'), axis_name='i', out_axes=None)(jnp.arange(4.0))",
     '{"dtype": "float32", "weak": false, "shape": [], "v": 6.0}'),
    ('pmap_kwargs_closure',
     'w = jnp.array([1.0, 2.0])\nout = jax.pmap(lambda x: x @ w)(jnp.arange(8.0).reshape(4, 2))',
     '{"dtype": "float32", "weak": false, "shape": [4], "v": [2.0, 8.0, 14.0, 20.0]}'),
]




@pytest.fixture
def eight_devices():
    jax.config.update("jax_num_cpu_devices", 8)
    try:
        yield
    finally:
        jax.config.update("jax_num_cpu_devices", 1)


@pytest.mark.parametrize("name,code,expected", NAMED_AXIS_CASES, ids=[c[0] for c in NAMED_AXIS_CASES])
def test_named_axis_matches_jax(name, code, expected):
    run_case(code, expected)


@pytest.mark.parametrize("name,code,expected", EIGHT_DEVICE_CASES, ids=[c[0] for c in EIGHT_DEVICE_CASES])
def test_pmap_eight_devices_matches_jax(name, code, expected, eight_devices):
    run_case(code, expected)


def test_pmap_refuses_more_devices_than_available():
    # jax.pmap(lambda x: x)(jnp.ones((2, 3))) on 1 CPU device raises ValueError ("compiling
    # computation that requires 2 logical devices, but only 1 XLA devices are available")
    with pytest.raises(ValueError, match="requires 2 logical devices, but only 1 XLA devices"):
        jax.pmap(lambda x: x)(jnp.ones((2, 3)))


def test_unbound_axis_name_is_a_name_error():
    # jax.vmap(lambda x: lax.psum(x, 'nope'), axis_name='b')(jnp.ones(2)) raises NameError:
    # Found an unbound axis name: nope. To fix this, please call psum under `jax.shard_map`.
    with pytest.raises(NameError, match="Found an unbound axis name: nope"):
        jax.vmap(lambda x: lax.psum(x, "nope"), axis_name="b")(jnp.ones(2))


SEED_REGRESSION = """
from typing import NamedTuple
from functools import partial
class Params(NamedTuple):
    weight: object
    bias: object
def init(rng):
    weights_key, bias_key = jax.random.split(rng)
    return Params(jax.random.normal(weights_key, ()), jax.random.normal(bias_key, ()))
def loss_fn(params, xs, ys):
    pred = params.weight * xs + params.bias
    return jnp.mean((pred - ys) ** 2)
LEARNING_RATE = 0.005
@partial(jax.pmap, axis_name='num_devices')
def update(params, xs, ys):
    loss, grads = jax.value_and_grad(loss_fn)(params, xs, ys)
    grads = jax.lax.pmean(grads, axis_name='num_devices')
    loss = jax.lax.pmean(loss, axis_name='num_devices')
    new_params = jax.tree_util.tree_map(lambda param, g: param - g * LEARNING_RATE, params, grads)
    return new_params, loss
xs = jnp.linspace(-2, 2, 16).reshape(16, 1)
ys = xs * 2 - 1 + 0.1 * jnp.sin(7 * xs)
params = init(jax.random.PRNGKey(123))
n_devices = jax.local_device_count()
replicated_params = jax.tree_util.tree_map(lambda x: jnp.array([x] * n_devices), params)
def split(arr):
    return arr.reshape(n_devices, arr.shape[0] // n_devices, *arr.shape[1:])
losses = []
for i in range(20):
    replicated_params, loss = update(replicated_params, split(xs), split(ys))
    losses.append(loss[0])
params = jax.device_get(jax.tree_util.tree_map(lambda x: x[0], replicated_params))
out = (n_devices, replicated_params.weight.shape, params, jnp.stack(losses))
"""


def _seed_regression(devices):
    jax.config.update("jax_num_cpu_devices", devices)
    try:
        return run(SEED_REGRESSION)
    finally:
        jax.config.update("jax_num_cpu_devices", 1)


def test_seed_data_parallel_regression_same_on_1_and_8_devices():
    # The pmap tutorial's linear regression (seeds/000), as recorded from real JAX on 1 device
    # (tests/golden case pmap_seed_linear_regression): params (0.16516301, -0.8223549), losses
    # start 9.490318, 9.2062998. On 8 devices the same computation is split 8 ways; only float32
    # rounding of the means may differ.
    n1, shape1, p1, l1 = _seed_regression(1)
    n8, shape8, p8, l8 = _seed_regression(8)
    assert (n1, shape1, n8, shape8) == (1, (1,), 8, (8,))
    assert isinstance(p1.weight, np.ndarray) and isinstance(p8.weight, np.ndarray)  # device_get
    np.testing.assert_allclose([p1.weight, p1.bias], [0.16516301, -0.8223549], rtol=1e-4)
    np.testing.assert_allclose(l1[:2], [9.490318298339844, 9.206299781799316], rtol=1e-4)
    np.testing.assert_allclose([p8.weight, p8.bias], [p1.weight, p1.bias], rtol=1e-5)
    np.testing.assert_allclose(np.asarray(l8), np.asarray(l1), rtol=1e-5)


def test_device_count_from_environment():
    # GRADPAD_DEVICES=8 plays the role of XLA_FLAGS=--xla_force_host_platform_device_count=8:
    # jax.device_count() == 8 and a pmap over 8 devices runs.
    code = ("import core as jax, core.numpy as jnp; from core import lax; "
            "print(jax.device_count(), jax.pmap(lambda x: lax.psum(x, 'i'), axis_name='i')(jnp.ones(8)).tolist())")
    env = dict(os.environ, GRADPAD_DEVICES="8")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split(None, 1)[0] == "8"
    assert out.stdout.split(None, 1)[1].strip() == str([8.0] * 8)
