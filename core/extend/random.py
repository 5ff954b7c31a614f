"""`jax.extend.random`: PRNG implementations for library authors, as far as gradpad has them.

gradpad has one PRNG, threefry2x32 (JAX's default): `threefry_prng_impl` names it and is accepted
wherever JAX takes an `impl`; `seed_with_impl`/`random_seed` make typed keys with it, and
`threefry_2x32`/`threefry2x32_p` are the engine's hash. The RBG implementations exist as names (so
`impl=` comparisons work) but making keys with them is refused, and `define_prng_impl` (a new PRNG)
is not supported.
"""
from __future__ import annotations

from .. import numpy as jnp
from .._engine.api.api import vmap
from .._engine.primitives.random_bits import threefry2x32_p  # noqa: F401
from ..random import key as _key, threefry_2x32  # noqa: F401

__all__ = ["define_prng_impl", "random_seed", "rbg_prng_impl", "seed_with_impl", "threefry2x32_p", "threefry_2x32",
           "threefry_prng_impl", "unsafe_rbg_prng_impl"]


class PRNGImpl:
    """A PRNG implementation's name (gradpad computes threefry2x32 only)."""

    def __init__(self, name, tag, key_shape):
        self.name, self.tag, self.key_shape = name, tag, key_shape

    def __str__(self):
        return self.tag

    def __repr__(self):
        return f"PRNGImpl({self.name})"

    def pprint(self):
        return f"{self.name} (tag {self.tag}, key_shape {self.key_shape})"


threefry_prng_impl = PRNGImpl("threefry2x32", "fry", (2,))
rbg_prng_impl = PRNGImpl("rbg", "rbg", (4,))
unsafe_rbg_prng_impl = PRNGImpl("unsafe_rbg", "urbg", (4,))


def _check(impl):
    if impl is not threefry_prng_impl and str(impl) not in ("fry", "threefry2x32"):
        raise ValueError(f"gradpad implements only the threefry2x32 PRNG (jax.extend.random.threefry_prng_impl, "
                         f"JAX's default), not {impl!r}")


def seed_with_impl(impl, seed):
    """A typed key (dtype key<fry>) from an integer seed."""
    _check(impl)
    return _key(seed)


def random_seed(seeds, impl):
    """Typed keys from an array of integer seeds (one key per seed, same shape)."""
    _check(impl)
    seeds = jnp.asarray(seeds)
    if seeds.ndim == 0:
        return _key(seeds)
    return vmap(_key)(seeds.reshape(-1)).reshape(seeds.shape)


def define_prng_impl(*args, **kwargs):
    raise NotImplementedError("jax.extend.random.define_prng_impl: gradpad computes only the threefry2x32 PRNG; "
                              "a new PRNG implementation cannot be registered")
