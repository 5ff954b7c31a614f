"""What JAX's own docs paste that the golden runner cannot express (it has no imports): the
tutorial "How JAX primitives work" (docs/jax-primitives.md at jax-v0.10.2). Expected values are
real JAX 0.10.2's, quoted with the call that gave them."""
from __future__ import annotations

import pytest

import core as jax
from core.extend import core as ec


def _bare_primitive():
    p = ec.Primitive("multiply_add")
    return p, (lambda x: p.bind(x, x, x))


def test_primitive_without_impl_or_abstract_eval_raises_jax_errors():
    _, f = _bare_primitive()
    # JAX: f(2.) -> NotImplementedError: Evaluation rule for 'multiply_add' not implemented
    with pytest.raises(NotImplementedError, match="^Evaluation rule for 'multiply_add' not implemented$"):
        f(2.0)
    # JAX: jax.jit(f)(2.) / jax.make_jaxpr(f)(2.) -> Abstract evaluation for 'multiply_add' not implemented
    for staged in (jax.jit(f), jax.make_jaxpr(f)):
        with pytest.raises(NotImplementedError, match="^Abstract evaluation for 'multiply_add' not implemented$"):
            staged(2.0)


def test_primitive_with_impl_lacks_jvp_and_batching_rules():
    p, f = _bare_primitive()
    p.def_impl(lambda x, y, z: x * y + z)
    p.def_abstract_eval(lambda x, y, z: x)
    assert float(f(2.0)) == 6.0  # JAX: 6.0
    # JAX: jax.grad(f)(2.) -> NotImplementedError: Differentiation rule for 'multiply_add' not implemented
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'multiply_add' not implemented"):
        jax.grad(f)(2.0)
    # JAX: jax.vmap(f)(jnp.ones(2)) -> NotImplementedError: Batching rule for 'multiply_add' not implemented
    with pytest.raises(NotImplementedError, match="Batching rule for 'multiply_add' not implemented"):
        jax.vmap(f)(jax.numpy.ones(2))


def test_tutorial_private_imports_are_the_public_functions():
    # docs/jax-primitives.md: `from jax._src.lax import lax; from jax._src import api`
    from core._src import api
    from core._src.lax import lax

    def square_add_lax(a, b):
        return lax.add(lax.mul(a, a), b)
    # JAX: square_add_lax(2., 10.) -> 14.0; api.grad(square_add_lax, argnums=0)(2.0, 10.) -> 4.0
    assert float(square_add_lax(2.0, 10.0)) == 14.0
    assert float(api.grad(square_add_lax, argnums=0)(2.0, 10.0)) == 4.0
    assert api.jit is jax.jit and api.vmap is jax.vmap
