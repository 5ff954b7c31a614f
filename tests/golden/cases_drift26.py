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
C("drift26_device_property", "drift26", "d = jnp.ones(3).device\nout = (hasattr(d, \"platform\"), hasattr(d, \"id\"), str(type(d.id).__name__))\n")

# ---------------------------------------------------------------- concretization errors inside jit
# JAX names the function being traced (its definition's file:line) and the arguments the value
# depends on. LINES keeps JAX's own lines of the message (gradpad adds a hint of its own).
LINES = """
def lines(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:
        keep = ("Abstract tracer", "Attempted boolean", "The problem arose", "This occurred", "The error occurred")
        return [type(e).__name__] + [ln for ln in str(e).splitlines() if ln.startswith(keep)]
    return "no error"
"""
C("drift26_jit_if_and_int", "drift26", LINES + """
@jax.jit
def f_if(x):
    if x > 0:
        return x
    return -x

@jax.jit
def f_int(x):
    return x * int(x)

@jax.jit
def f_derived(x):
    y = x * 2
    if y > 0:
        return x
    return -x

out = [lines(f_if, 1.0), lines(f_int, 1.0), lines(f_derived, 1.0),
       lines(jax.jit(lambda x: bool(x)), 1.0), lines(jax.jit(lambda x: x.item()), 1.0),
       lines(jax.jit(lambda x: complex(x)), 1.0)]
""")
C("drift26_jit_argument_names", "drift26", LINES + """
@jax.jit
def two(x, y):
    if x + y > 0:
        return x
    return y

@jax.jit
def three(x, y, z):
    return float(x + y + z)

@jax.jit
def var(*args):
    return int(args[1])

@partial(jax.jit, static_argnums=1)
def static(x, n):
    return int(x) * n

def tree(x, t):
    return float(t['w'][0])

out = [lines(two, 1.0, 2.0), lines(three, 1.0, 2.0, 3.0), lines(var, 1.0, 2.0), lines(static, 1.0, 2),
       lines(jax.jit(tree), 1.0, {'w': [2.0, 3.0]}), lines(jax.jit(lambda x, y: int(y)), 1.0, y=2.0),
       lines(jax.jit(lambda d: int(d['a'])), {'a': 1.0})]
""")
C("drift26_make_jaxpr_nested_jit_and_grad", "drift26", LINES + """
@jax.jit
def inner(z):
    return int(z)

@jax.jit
def outer(x):
    return inner(x * 2)

out = [lines(jax.make_jaxpr(lambda x: int(x)), 1.0), lines(outer, 1.0),
       lines(jax.jit(jax.grad(lambda x: x * int(x))), 1.0)]
""")
