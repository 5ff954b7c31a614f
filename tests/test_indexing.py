"""Indexing (gather/scatter) semantics, checked against numpy and against values/jaxprs quoted
from real JAX 0.10.2 (CPU). Each JAX-quoted expectation names the JAX call that produced it."""
import warnings

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax
from core.errors import NonConcreteBooleanIndexError

X = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)

# ---- reads agree with numpy (in-bounds), eagerly and under jit --------------------------------
READ_INDICES = [
    0, -1, (1, 2), (slice(None), 1), (Ellipsis, 2), (None, 1), (slice(1, None), None, slice(None, None, -2)),
    np.array([1, 0, 1]), (np.array([0, 1]), np.array([2, 0])), (slice(None), np.array([[0, 2], [1, 1]])),
    (np.array([0, 1]), slice(None), np.array([1, 3])),          # non-adjacent advanced: axes go first
    (1, slice(None), np.array([3, 0, -1])), (np.array([-1, -2]),), (Ellipsis, np.array([0, 3])),
    (np.array([[1], [0]]), np.array([0, 2, 1])),                  # broadcasting index arrays
    (slice(None), slice(0, 3, 2), np.array([1, 2])), (X[..., 0] > 4,), (X > 10,), (True,),
]


@pytest.mark.parametrize("idx", READ_INDICES, ids=[repr(i)[:40] for i in READ_INDICES])
def test_getitem_matches_numpy(idx):
    x = jnp.asarray(X)
    jidx = tuple(jnp.asarray(i) if isinstance(i, np.ndarray) else i for i in idx) if isinstance(idx, tuple) else (
        jnp.asarray(idx) if isinstance(idx, np.ndarray) else idx)
    expected = X[idx]
    np.testing.assert_array_equal(np.asarray(x[jidx]), expected)
    arrays = [i for i in (jidx if isinstance(jidx, tuple) else (jidx,)) if isinstance(i, jax.Array)
              and i.dtype != np.bool_]
    if arrays:   # the same index with its integer arrays traced
        def f(x, *arrs):
            it = iter(arrs)
            full = tuple(next(it) if isinstance(i, jax.Array) and i.dtype != np.bool_ else i
                         for i in (jidx if isinstance(jidx, tuple) else (jidx,)))
            return x[full]
        np.testing.assert_array_equal(np.asarray(jax.jit(f)(x, *arrays)), expected)


UPDATE_INDICES = [0, (1, slice(1, 3)), (slice(None), 2, np.array([0, 3])), np.array([1, 1]),
                  (np.array([0, 1, 0]), np.array([2, 2, 2])), (Ellipsis, np.array([-1]))]


@pytest.mark.parametrize("idx", UPDATE_INDICES, ids=[repr(i)[:40] for i in UPDATE_INDICES])
def test_at_add_and_set_match_numpy(idx):
    x = jnp.asarray(X)
    jidx = tuple(jnp.asarray(i) if isinstance(i, np.ndarray) else i for i in idx) if isinstance(idx, tuple) else (
        jnp.asarray(idx) if isinstance(idx, np.ndarray) else idx)
    shape = X[idx].shape
    vals = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape)
    added = X.copy()
    np.add.at(added, idx, vals)
    np.testing.assert_array_equal(np.asarray(x.at[jidx].add(jnp.asarray(vals))), added)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda x, v: x.at[jidx].add(v))(x, vals)), added)
    set_ = X.copy()
    set_[idx] = 7.0
    np.testing.assert_array_equal(np.asarray(x.at[jidx].set(7.0)), set_)


# ---- values quoted from real JAX ------------------------------------------------------------------
def _eq(got, expected, dtype):
    assert np.asarray(got).dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected, dtype))


def test_out_of_bounds_reads_clamp():
    _eq(jnp.arange(5)[10], 4, np.int32)                                   # jnp.arange(5)[10]
    _eq(jnp.arange(5)[-9], 0, np.int32)                                   # jnp.arange(5)[-9]
    _eq(jnp.arange(5)[jnp.array([0, 7, -9])], [0, 4, 0], np.int32)        # jnp.arange(5)[jnp.array([0, 7, -9])]
    _eq(jax.jit(lambda x, i: x[i])(jnp.arange(5), 7), 4, np.int32)       # jax.jit(lambda x, i: x[i])(jnp.arange(5), 7)
    _eq(jax.jit(lambda x, i: x[i])(jnp.arange(5), -7), 0, np.int32)      # ... (jnp.arange(5), -7)


def test_out_of_bounds_updates_drop_and_modes():
    _eq(jnp.arange(5).at[10].set(99), [0, 1, 2, 3, 4], np.int32)          # jnp.arange(5).at[10].set(99)
    # jnp.arange(5).at[jnp.array([1, 8, -7])].add(100)
    _eq(jnp.arange(5).at[jnp.array([1, 8, -7])].add(100), [0, 101, 2, 3, 4], np.int32)
    # jnp.arange(5.0).at[jnp.array([1, 9, -9])].get(mode='fill', fill_value=-1.0)
    _eq(jnp.arange(5.0).at[jnp.array([1, 9, -9])].get(mode="fill", fill_value=-1.0), [1, -1, -1], np.float32)
    # jnp.arange(5.0).at[jnp.array([1, 9])].get(mode='fill') -> [1., nan]
    _eq(jnp.arange(5.0).at[jnp.array([1, 9])].get(mode="fill"), [1, np.nan], np.float32)
    # jnp.arange(5).at[jnp.array([1, 9])].get(mode='fill') -> [1, -2147483648]
    _eq(jnp.arange(5).at[jnp.array([1, 9])].get(mode="fill"), [1, -2147483648], np.int32)
    # jnp.arange(5).at[jnp.array([1, 9])].set(-1, mode='clip')
    _eq(jnp.arange(5).at[jnp.array([1, 9])].set(-1, mode="clip"), [0, -1, 2, 3, -1], np.int32)


def test_at_methods():
    _eq(jnp.zeros(3).at[jnp.array([0, 0, 2])].add(1.0), [2, 0, 1], np.float32)
    _eq(jnp.zeros(3).at[jnp.array([0, 2])].set(jnp.array([5.0, 6.0])), [5, 0, 6], np.float32)
    _eq(jnp.arange(5).at[jnp.array([1, 3])].min(0), [0, 0, 2, 0, 4], np.int32)
    _eq(jnp.arange(5).at[0].max(3), [3, 1, 2, 3, 4], np.int32)
    _eq(jnp.arange(1.0, 6.0).at[jnp.array([0, 0])].multiply(2.0), [4, 2, 3, 4, 5], np.float32)
    _eq(jnp.arange(5.0).at[jnp.array([1, 3])].apply(jnp.negative), [0, -1, 2, -3, 4], np.float32)
    _eq(jnp.arange(1.0, 4.0).at[0].divide(2.0), [0.5, 2, 3], np.float32)
    _eq(jnp.arange(1.0, 4.0).at[1].power(2), [1, 4, 3], np.float32)
    with warnings.catch_warnings(record=True) as w:   # JAX: FutureWarning "scatter inputs have incompatible types"
        warnings.simplefilter("always")
        _eq(jnp.arange(3).at[0].set(2.7), [2, 1, 2], np.int32)
    assert any(issubclass(x.category, FutureWarning) for x in w)


def test_grad_through_indexing():
    # jax.grad(lambda x: x[jnp.array([0, 0, 2])].sum())(jnp.arange(4.0))
    _eq(jax.grad(lambda x: x[jnp.array([0, 0, 2])].sum())(jnp.arange(4.0)), [2, 0, 1, 0], np.float32)
    # jax.grad(lambda x: jnp.sum(x.at[0].set(5.0) ** 2))(jnp.arange(3.0))
    _eq(jax.grad(lambda x: jnp.sum(x.at[0].set(5.0) ** 2))(jnp.arange(3.0)), [0, 2, 4], np.float32)
    # jax.grad(lambda y: jnp.sum(jnp.zeros(3).at[jnp.array([0, 2])].set(y) ** 2))(jnp.array([1.0, 2.0]))
    _eq(jax.grad(lambda y: jnp.sum(jnp.zeros(3).at[jnp.array([0, 2])].set(y) ** 2))(jnp.array([1.0, 2.0])),
        [2, 4], np.float32)
    # jax.grad(lambda x, y: jnp.sum(x.at[jnp.array([0, 0])].add(y) * jnp.arange(3.0)), argnums=(0, 1))(...)
    gx, gy = jax.grad(lambda x, y: jnp.sum(x.at[jnp.array([0, 0])].add(y) * jnp.arange(3.0)), argnums=(0, 1))(
        jnp.ones(3), jnp.array([1.0, 2.0]))
    _eq(gx, [0, 1, 2], np.float32)
    _eq(gy, [0, 0], np.float32)
    # jax.grad(lambda x, i: x[i] * 2.0)(jnp.arange(3.0), 1)
    _eq(jax.grad(lambda x, i: x[i] * 2.0)(jnp.arange(3.0), 1), [0, 2, 0], np.float32)
    # jax.grad(lambda x: jnp.sum(x.at[1].multiply(3.0)))(jnp.arange(3.0))
    _eq(jax.grad(lambda x: jnp.sum(x.at[1].multiply(3.0)))(jnp.arange(3.0)), [1, 3, 1], np.float32)
    # jax.grad(lambda y: jnp.sum(jnp.zeros(3).at[1].max(y)))(2.0)
    _eq(jax.grad(lambda y: jnp.sum(jnp.zeros(3).at[1].max(y)))(2.0), 1.0, np.float32)
    # gather under jit(grad) agrees with eager
    f = jax.grad(lambda x: (x[jnp.array([2, 2, 1])] ** 2).sum())
    np.testing.assert_array_equal(np.asarray(jax.jit(f)(jnp.arange(3.0))), np.asarray(f(jnp.arange(3.0))))


def test_vmap_of_indexing():
    x = jnp.arange(12.0).reshape(3, 4)
    # jax.vmap(lambda x, i: x[i])(x, jnp.array([0, 3, 1]))
    _eq(jax.vmap(lambda r, i: r[i])(x, jnp.array([0, 3, 1])), [0, 7, 9], np.float32)
    # jax.vmap(lambda r: r[jnp.array([0, 2])])(x)
    _eq(jax.vmap(lambda r: r[jnp.array([0, 2])])(x), [[0, 2], [4, 6], [8, 10]], np.float32)
    # jax.vmap(lambda i: x[i])(jnp.array([2, 0]))
    _eq(jax.vmap(lambda i: x[i])(jnp.array([2, 0])), [[8, 9, 10, 11], [0, 1, 2, 3]], np.float32)
    # jax.vmap(lambda x, i: x.at[i].set(-1.0))(jnp.zeros((3, 3)), jnp.arange(3))
    _eq(jax.vmap(lambda r, i: r.at[i].set(-1.0))(jnp.zeros((3, 3)), jnp.arange(3)), -np.eye(3), np.float32)
    # jax.vmap(lambda r, u: r.at[jnp.array([1, 1])].add(u))(x, jnp.arange(6.0).reshape(3, 2))
    _eq(jax.vmap(lambda r, u: r.at[jnp.array([1, 1])].add(u))(x, jnp.arange(6.0).reshape(3, 2)),
        [[0, 2, 2, 3], [4, 10, 6, 7], [8, 18, 10, 11]], np.float32)
    # vmap of a gather with both operand and index batched, on a non-leading axis
    xs = jnp.arange(24.0).reshape(4, 3, 2)
    idx = jnp.array([[0, 2], [1, 1]])
    got = jax.vmap(lambda r, i: r[i], in_axes=(2, 0))(xs, idx)
    np.testing.assert_array_equal(np.asarray(got), np.stack([np.asarray(xs)[:, :, b][np.asarray(idx)[b]]
                                                             for b in range(2)]))


def test_lax_gather_scatter_direct():
    x = jnp.arange(12.0).reshape(3, 4)
    dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,),
                                    operand_batching_dims=(0,), start_indices_batching_dims=(0,))
    # lax.gather(x, jnp.array([[1], [3], [0]]), dn, (1, 1)) -> [1., 7., 8.]
    _eq(lax.gather(x, jnp.array([[1], [3], [0]]), dn, (1, 1)), [1, 7, 8], np.float32)
    sdn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                      scatter_dims_to_operand_dims=(0,))
    # lax.scatter_add(jnp.zeros(5), jnp.array([[1], [1], [4]]), jnp.array([1.0, 2.0, 3.0]), sdn)
    _eq(lax.scatter_add(jnp.zeros(5), jnp.array([[1], [1], [4]]), jnp.array([1.0, 2.0, 3.0]), sdn),
        [0, 3, 0, 0, 3], np.float32)
    assert str(lax.GatherScatterMode.CLIP) == "GatherScatterMode.CLIP"
    _eq(jnp.take(jnp.arange(10.0), jnp.array([1, 12]), mode="clip"), [1, 9], np.float32)
    _eq(jnp.take_along_axis(x, jnp.array([[0], [1], [3]]), axis=1), [[0], [5], [11]], np.float32)


def test_index_errors():
    with pytest.raises(NonConcreteBooleanIndexError) as e:   # jax.jit(lambda x: x[x > 0])(jnp.ones(3))
        jax.jit(lambda x: x[x > 0])(jnp.ones(3))
    assert isinstance(e.value, IndexError)
    assert str(e.value).splitlines()[0] == "Array boolean indices must be concrete; got bool[3]"
    with pytest.raises(TypeError, match=r"^Indexer must have integer or boolean type, got indexer with type float64$"):
        jnp.arange(3)[1.5]
    with pytest.raises(IndexError, match=r"^Too many indices: array is 1-dimensional, but 2 were indexed$"):
        jnp.arange(3)[0, 1]
    with pytest.raises(TypeError, match=r"Using a non-tuple sequence for multidimensional indexing is not allowed"):
        jnp.arange(12.0).reshape(3, 4)[[0, 1]]
    # JAX: TypeError "JAX arrays are immutable and do not support in-place item assignment. ..."
    with pytest.raises(TypeError, match=r"^JAX arrays are immutable and do not support in-place item assignment"):
        x = jnp.arange(3)
        x[0] = 1


# ---- jaxpr text quoted from real JAX (jax.make_jaxpr(f)(*args)) --------------------------------
JAXPRS = {
    # jax.make_jaxpr(lambda x: x[0])(*(x,))
    'x[0]': ('lambda x: x[0]', '(x,)',
        '{ lambda ; a:f32[3,4]. let\n    b:f32[1,4] = slice[limit_indices=(1, 4) start_indices=(0, 0) strides=None] a\n    c:f32[4] = squeeze[dimensions=(0,)] b\n  in (c,) }'),
    # jax.make_jaxpr(lambda x: x[1:3])(*(x,))
    'x[1:3]': ('lambda x: x[1:3]', '(x,)',
        '{ lambda ; a:f32[3,4]. let\n    b:f32[2,4] = slice[limit_indices=(3, 4) start_indices=(1, 0) strides=None] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: x[::-1])(*(x,))
    'x[::-1]': ('lambda x: x[::-1]', '(x,)',
        '{ lambda ; a:f32[3,4]. let b:f32[3,4] = rev[dimensions=(0,)] a in (b,) }'),
    # jax.make_jaxpr(lambda v: v[::-2])(*(v,))
    'v[::-2]': ('lambda v: v[::-2]', '(v,)',
        '{ lambda ; a:f32[5]. let\n    b:f32[3] = slice[limit_indices=(5,) start_indices=(0,) strides=(2,)] a\n    c:f32[3] = rev[dimensions=(0,)] b\n  in (c,) }'),
    # jax.make_jaxpr(lambda x: x[None])(*(x,))
    'x[None]': ('lambda x: x[None]', '(x,)',
        '{ lambda ; a:f32[3,4]. let\n    b:f32[1,3,4] = broadcast_in_dim[broadcast_dimensions=(1, 2)] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda x: x[..., None])(*(x,))
    'x[..., None]': ('lambda x: x[..., None]', '(x,)',
        '{ lambda ; a:f32[3,4]. let\n    b:f32[3,4,1] = broadcast_in_dim[broadcast_dimensions=(0, 1)] a\n  in (b,) }'),
    # jax.make_jaxpr(lambda v, i: v[i])(*(v, 1))
    'v[i] traced': ('lambda v, i: v[i]', '(v, 1)',
        '{ lambda ; a:f32[5] b:i32[]. let\n    c:bool[] = lt b 0:i32[]\n    d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b\n    e:i32[] = add d 5:i32[]\n    f:i32[] = select_n c b e\n    g:f32[1] = dynamic_slice[slice_sizes=(1,)] a f\n    h:f32[] = squeeze[dimensions=(0,)] g\n  in (h,) }'),
    # jax.make_jaxpr(lambda x, i: x[i])(*(x, 1))
    'x[i] traced': ('lambda x, i: x[i]', '(x, 1)',
        '{ lambda ; a:f32[3,4] b:i32[]. let\n    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b\n    d:bool[] = lt c 0:i32[]\n    e:i32[] = add c 3:i32[]\n    f:i32[] = select_n d c e\n    g:bool[] = lt 0:i32[] 0:i32[]\n    h:i32[] = add 0:i32[] 4:i32[]\n    i:i32[] = select_n g 0:i32[] h\n    j:f32[1,4] = dynamic_slice[slice_sizes=(1, 4)] a f i\n    k:f32[4] = squeeze[dimensions=(0,)] j\n  in (k,) }'),
    # jax.make_jaxpr(lambda x, i: x[i])(*(x, jnp.array([0, 2])))
    'x[idx]': ('lambda x, i: x[i]', '(x, jnp.array([0, 2]))',
        '{ lambda ; a:f32[3,4] b:i32[2]. let\n    c:bool[2] = lt b 0:i32[]\n    d:i32[2] = add b 3:i32[]\n    e:i32[2] = select_n c b d\n    f:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] e\n    g:f32[2,4] = gather[\n      dimension_numbers=GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,), operand_batching_dims=(), start_indices_batching_dims=())\n      fill_value=None\n      indices_are_sorted=False\n      mode=GatherScatterMode.PROMISE_IN_BOUNDS\n      slice_sizes=(1, 4)\n      unique_indices=False\n    ] a f\n  in (g,) }'),
    # jax.make_jaxpr(lambda x, i: x[1, i])(*(x, jnp.array([0, 2])))
    'x[1, idx]': ('lambda x, i: x[1, i]', '(x, jnp.array([0, 2]))',
        '{ lambda ; a:f32[3,4] b:i32[2]. let\n    c:bool[2] = lt b 0:i32[]\n    d:i32[2] = add b 4:i32[]\n    e:i32[2] = select_n c b d\n    f:i32[2] = broadcast_in_dim 1:i32[]\n    g:i32[2] = convert_element_type[new_dtype=int32 weak_type=False] f\n    h:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] g\n    i:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] e\n    j:i32[2,2] = concatenate[dimension=1] h i\n    k:f32[2] = gather[\n      dimension_numbers=GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1), operand_batching_dims=(), start_indices_batching_dims=())\n      fill_value=None\n      indices_are_sorted=False\n      mode=GatherScatterMode.PROMISE_IN_BOUNDS\n      slice_sizes=(1, 1)\n      unique_indices=False\n    ] a j\n  in (k,) }'),
    # jax.make_jaxpr(lambda x: x.at[0].set(1.0))(*(x,))
    'x.at[0].set': ('lambda x: x.at[0].set(1.0)', '(x,)',
        '{ lambda ; a:f32[3,4]. let\n    b:i32[1] = broadcast_in_dim 0:i32[]\n    c:f32[4] = broadcast_in_dim 1.0:f32[]\n    d:f32[3,4] = scatter[\n      dimension_numbers=ScatterDimensionNumbers(update_window_dims=(0,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,), operand_batching_dims=(), scatter_indices_batching_dims=())\n      indices_are_sorted=True\n      mode=GatherScatterMode.FILL_OR_DROP\n      unique_indices=True\n      update_consts=()\n      update_jaxpr=None\n    ] a b c\n  in (d,) }'),
    # jax.make_jaxpr(lambda x, i: x.at[i].add(1.0))(*(x, jnp.array([0, 2])))
    'x.at[idx].add': ('lambda x, i: x.at[i].add(1.0)', '(x, jnp.array([0, 2]))',
        '{ lambda ; a:f32[3,4] b:i32[2]. let\n    c:bool[2] = lt b 0:i32[]\n    d:i32[2] = add b 3:i32[]\n    e:i32[2] = select_n c b d\n    f:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] e\n    g:f32[2,4] = broadcast_in_dim 1.0:f32[]\n    h:f32[3,4] = scatter-add[\n      dimension_numbers=ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,), operand_batching_dims=(), scatter_indices_batching_dims=())\n      indices_are_sorted=False\n      mode=GatherScatterMode.FILL_OR_DROP\n      unique_indices=False\n      update_consts=()\n      update_jaxpr={ lambda ; i:f32[] j:f32[]. let k:f32[] = add i j in (k,) }\n    ] a f g\n  in (h,) }'),
    # jax.make_jaxpr(lambda v, i: v.at[i].get(mode='fill', fill_value=-1.0))(*(v, jnp.array([0, 2])))
    'v.at[idx].get fill': ("lambda v, i: v.at[i].get(mode='fill', fill_value=-1.0)", '(v, jnp.array([0, 2]))',
        '{ lambda ; a:f32[5] b:i32[2]. let\n    c:bool[2] = lt b 0:i32[]\n    d:i32[2] = add b 5:i32[]\n    e:i32[2] = select_n c b d\n    f:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] e\n    g:f32[2] = gather[\n      dimension_numbers=GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,), operand_batching_dims=(), start_indices_batching_dims=())\n      fill_value=-1.0\n      indices_are_sorted=False\n      mode=GatherScatterMode.FILL_OR_DROP\n      slice_sizes=(1,)\n      unique_indices=False\n    ] a f\n  in (g,) }'),
    # jax.make_jaxpr(jax.grad(lambda v, i: v[i].sum()))(*(v, jnp.array([0, 2])))
    'grad v[idx]': ('jax.grad(lambda v, i: v[i].sum())', '(v, jnp.array([0, 2]))',
        '{ lambda ; a:f32[5] b:i32[2]. let\n    c:bool[2] = lt b 0:i32[]\n    d:i32[2] = add b 5:i32[]\n    e:i32[2] = select_n c b d\n    f:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] e\n    g:f32[2] = gather[\n      dimension_numbers=GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,), operand_batching_dims=(), start_indices_batching_dims=())\n      fill_value=None\n      indices_are_sorted=False\n      mode=GatherScatterMode.PROMISE_IN_BOUNDS\n      slice_sizes=(1,)\n      unique_indices=False\n    ] a f\n    _:f32[] = reduce_sum[axes=(0,) out_sharding=None] g\n    h:f32[2] = broadcast_in_dim 1.0:f32[]\n    i:f32[5] = broadcast_in_dim 0.0:f32[]\n    j:f32[5] = scatter-add[\n      dimension_numbers=ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,), operand_batching_dims=(), scatter_indices_batching_dims=())\n      indices_are_sorted=False\n      mode=GatherScatterMode.PROMISE_IN_BOUNDS\n      unique_indices=False\n      update_consts=()\n      update_jaxpr={ lambda ; k:f32[] l:f32[]. let m:f32[] = add k l in (m,) }\n    ] i f h\n  in (j,) }'),
    # jax.make_jaxpr(jax.vmap(lambda r, i: r[i]))(*(x, jnp.array([0, 2, 1])))
    'vmap x[i]': ('jax.vmap(lambda r, i: r[i])', '(x, jnp.array([0, 2, 1]))',
        '{ lambda ; a:f32[3,4] b:i32[3]. let\n    c:bool[3] = lt b 0:i32[]\n    d:i32[3] = add b 4:i32[]\n    e:i32[3] = select_n c b d\n    f:i32[3,1] = broadcast_in_dim[broadcast_dimensions=(0,)] e\n    g:f32[3,1] = gather[\n      dimension_numbers=GatherDimensionNumbers(offset_dims=(np.int64(1),), collapsed_slice_dims=(), start_index_map=(np.int64(1),), operand_batching_dims=(0,), start_indices_batching_dims=(0,))\n      fill_value=None\n      indices_are_sorted=True\n      mode=GatherScatterMode.CLIP\n      slice_sizes=(1, 1)\n      unique_indices=True\n    ] a f\n    h:f32[3] = squeeze[dimensions=(1,)] g\n  in (h,) }'),
}


@pytest.mark.parametrize("name", list(JAXPRS))
def test_indexing_jaxpr_text_matches_jax(name):
    f, args, expected = JAXPRS[name]
    x = jnp.arange(12.0).reshape(3, 4)  # noqa: F841  (used by eval'd args)
    v = jnp.arange(5.0)  # noqa: F841
    assert str(jax.make_jaxpr(eval(f))(*eval(args))) == expected
