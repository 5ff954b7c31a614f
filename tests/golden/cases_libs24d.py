"""Case definitions for libs24d_cases.json (issue 24, stop 36): engine behaviour that the rest of
distrax's own test suite (tools/lib_tests.py --libraries distrax) showed gradpad doing differently
from real JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()

# an axis given as a numpy integer (TFP's JAX substrate passes np.int32 to expand_dims: distrax's
# hmm_test) or a concrete 0-d array is one axis, as JAX's _ensure_index_tuple takes it
C("libs24d_expand_dims_and_flip_take_numpy_integer_axes", "numpy", """
x = jnp.arange(6.0).reshape(2, 3)
out = (jnp.expand_dims(x, np.int32(1)), jnp.expand_dims(x, (np.int64(0), 3)), jnp.expand_dims(x, jnp.array(2)),
       jnp.flip(x, np.int32(1)), jnp.flip(x, (np.int64(0), 1)), jnp.flip(x, jnp.array(0)),
       jax.jit(lambda a: jnp.expand_dims(a, np.int32(0)))(x))
""")

# is_leaf_takes_path (distrax's Joint: jax.tree.leaves_with_path(..., is_leaf_takes_path=False)); with True,
# is_leaf gets (key path, node) and the treedef stops where it says
C("libs24d_is_leaf_takes_path", "pytree", """
tree = {"a": (1.0, [2.0, 3.0]), "b": {"c": 4.0}}
stop = lambda path, x: len(path) == 2 and isinstance(x, list)
leaves, td = jax.tree.flatten_with_path(tree, stop, is_leaf_takes_path=True)
out = ([(jax.tree_util.keystr(p), l) for p, l in leaves], str(td),
       [jax.tree_util.keystr(p) for p, _ in jax.tree.leaves_with_path(tree, lambda x: isinstance(x, tuple),
                                                                     is_leaf_takes_path=False)],
       jax.tree.map_with_path(lambda p, x: len(p), tree, is_leaf=stop, is_leaf_takes_path=True),
       [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_leaves_with_path(tree, lambda p, x: p == (),
                                                                               is_leaf_takes_path=True)],
       str(jax.tree_util.tree_flatten_with_path((1, None, [2]), lambda p, x: False, True)[1]))
""")

# under x64 a float32 argument keeps float32 through log_ndtr's far-left series and erfcx's asymptotic
# branch (their constants were numpy float64 scalars, which promote: distrax normal_float64_test)
C("libs24d_log_ndtr_erfcx_keep_float32_under_x64", "special", """
jax.config.update("jax_enable_x64", True)
x = jnp.array([-30.0, -9.0, -1.0, 0.5, 7.0], jnp.float32)
out = (jax.scipy.special.log_ndtr(x), jax.scipy.special.erfcx(x), jax.scipy.special.ndtr(x),
       jax.jit(jax.scipy.special.log_ndtr)(x).dtype == jnp.float32)
""")

# vmap passes an unmapped (in_axes None) leaf to the function as it is, whatever it is (distrax's
# Multinomial vmaps its sampler with the dtype `int` unmapped); a mapped one must be an array
C("libs24d_vmap_unmapped_leaves_pass_through", "vmap", """
f = jax.vmap(lambda x, t, s: x.astype(t) + len(s), in_axes=(0, None, None))
out = (f(jnp.arange(3.0), int, "abc"), jax.vmap(lambda x, t: x.astype(t), in_axes=(0, None))(jnp.arange(3.0), jnp.int32),
       jax.jit(f, static_argnums=(1, 2))(jnp.arange(3.0), float, "ab"))
""")
E("libs24d_vmap_mapped_leaf_must_be_an_array", "vmap", """
out = jax.vmap(lambda x, t: x, in_axes=(0, 0))(jnp.arange(3.0), "abc")
""", msg_prefix=0)
