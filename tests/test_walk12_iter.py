"""Unpacking a traced array (`w, b = theta`, linear regression in every course) stages what JAX
0.10.2 stages: one `slice` with explicit unit strides and one `squeeze` per row, every row at
once. Found walking the page with a course's linear regression (walk12): the Jaxpr pane showed
`strides=None`, the equations of indexing, not of iteration."""
import core as jax
import core.numpy as jnp


def test_unpacking_a_traced_vector_stages_jaxs_slices():
    def model(theta, x):
        w, b = theta
        return w * x + b
    # JAX: print(jax.make_jaxpr(model)(jnp.ones(2), jnp.ones(3)))
    assert str(jax.make_jaxpr(model)(jnp.ones(2), jnp.ones(3))) == """{ lambda ; a:f32[2] b:f32[3]. let
    c:f32[1] = slice[limit_indices=(1,) start_indices=(0,) strides=(1,)] a
    d:f32[] = squeeze[dimensions=(0,)] c
    e:f32[1] = slice[limit_indices=(2,) start_indices=(1,) strides=(1,)] a
    f:f32[] = squeeze[dimensions=(0,)] e
    g:f32[3] = mul d b
    h:f32[3] = add g f
  in (h,) }"""


def test_iterating_a_traced_matrix_stages_every_row_even_unused():
    # JAX: print(jax.make_jaxpr(lambda t: [a for a in t][1])(jnp.ones((3, 2))))
    assert str(jax.make_jaxpr(lambda t: [a for a in t][1])(jnp.ones((3, 2)))) == """{ lambda ; a:f32[3,2]. let
    b:f32[1,2] = slice[limit_indices=(1, 2) start_indices=(0, 0) strides=(1, 1)] a
    _:f32[2] = squeeze[dimensions=(0,)] b
    c:f32[1,2] = slice[limit_indices=(2, 2) start_indices=(1, 0) strides=(1, 1)] a
    d:f32[2] = squeeze[dimensions=(0,)] c
    e:f32[1,2] = slice[limit_indices=(3, 2) start_indices=(2, 0) strides=(1, 1)] a
    _:f32[2] = squeeze[dimensions=(0,)] e
  in (d,) }"""


def test_unpacking_keeps_values_and_gradients():
    def loss(theta):
        w, b = theta
        return (w * 3.0 + b - 1.0) ** 2
    theta = jnp.array([1.0, 2.0])
    # JAX: jax.grad(loss)(theta) -> [24. 8.]; jax.vmap(loss)(jnp.ones((2, 2))) -> [9. 9.]
    assert jax.grad(loss)(theta).tolist() == [24.0, 8.0]
    assert jax.jit(jax.vmap(loss))(jnp.ones((2, 2))).tolist() == [9.0, 9.0]
    assert [float(v) for v in jnp.array([4.0, 5.0])] == [4.0, 5.0]


def test_grad_of_fori_loop_saves_no_residual_for_the_index():
    from core import lax

    def newton_sqrt(a):
        return lax.fori_loop(0, 20, lambda i, x: 0.5 * (x + a / x), a)
    # JAX: print(jax.make_jaxpr(jax.grad(newton_sqrt))(2.0)); before, a stacked `d:i32[20]` of
    # `0:i32[]` (the int index's zero tangent) was a residual of the forward scan
    text = str(jax.make_jaxpr(jax.grad(newton_sqrt))(2.0))
    assert text.startswith("""{ lambda ; a:f32[]. let
    _:i32[] _:f32[] b:f32[20] c:f32[20] = scan[
      jaxpr={ lambda ; d:f32[] e:i32[] f:f32[]. let
          g:i32[] = add e 1:i32[]
          h:f32[] = div d f
          i:f32[] = integer_pow[y=-2] f
          j:f32[] = add f h
          k:f32[] = mul 0.5:f32[] j
        in (g, k, f, i) }"""), text
    assert text.endswith("""    ] a 0.0:f32[] 1.0:f32[] b c
    z:f32[] = add_any l m
  in (z,) }"""), text
    assert abs(float(jax.grad(newton_sqrt)(2.0)) - 0.35355335) < 1e-6  # JAX: 0.35355335
