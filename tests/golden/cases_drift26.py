"""Case definitions for drift26_cases.json: engine drift seen in issue 26's walk (a learner's first
minutes), recorded from real JAX 0.10.2 (area "drift26")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- Python scalars of size-1 arrays
# JAX converts only 0-d arrays with int/float/complex (numpy once allowed any size-1 array, and
# the page's numpy still may); bool() of a size-1 array is allowed; operator.index needs a 0-d
# integer array.
E("drift26_int_of_shape_1", "drift26", "out = int(jnp.ones(1))\n")
E("drift26_float_of_shape_1", "drift26", "out = float(jnp.array([2.5]))\n")
E("drift26_complex_of_shape_1_1", "drift26", "out = complex(jnp.ones((1, 1)))\n")
E("drift26_int_of_int32_shape_1", "drift26", "out = int(jnp.ones(1, jnp.int32))\n")
E("drift26_index_of_float_scalar", "drift26", "out = [10, 20, 30][jnp.float32(1)]\n")
E("drift26_index_of_int_shape_1", "drift26", "out = [10, 20, 30][jnp.ones(1, jnp.int32)]\n")
C("drift26_scalar_conversions_that_work", "drift26", """
x = jnp.float32(2.5)
i = jnp.int32(2)
out = (int(x), float(x), complex(x), bool(jnp.ones(1)), bool(jnp.ones((1, 1))), [10, 20, 30][i],
       int(jnp.ones((), jnp.int32)), float(jnp.array(3)))
""")
C("drift26_scalar_conversion_messages", "drift26", """
msgs = []
for conv in (int, float, complex):
    for shape in ((1,), (1, 1), (3,)):
        try:
            conv(jnp.ones(shape))
        except TypeError as e:
            msgs.append(str(e))
out = msgs
""")

# ---------------------------------------------------------------- x.device() (a property in JAX)
E("drift26_device_call", "drift26", "out = jnp.ones(3).device()\n")
C("drift26_device_property", "drift26", "out = str(jnp.ones(3).device.platform)\n")
