"""`jax.flatten_util.ravel_pytree`: a pytree of arrays as one flat vector, and the way back."""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..lax import lax
from . import numpy as jnp
from ..base.tree_util import tree_flatten, tree_unflatten


def ravel_pytree(pytree):
    """(flat, unravel): `flat` concatenates the raveled leaves in the promoted dtype; `unravel(flat)`
    rebuilds the pytree with each leaf's own shape and dtype."""
    leaves, treedef = tree_flatten(pytree)
    flat, unravel_list = _ravel_list(leaves)
    return flat, lambda v: tree_unflatten(treedef, unravel_list(v))


def _ravel_list(leaves):
    if not leaves:
        return jnp.zeros(0, dtypes.default_float_dtype()), lambda _: []
    shapes = [jnp.shape(x) for x in leaves]
    from_dtypes = [dtypes.dtype_and_weak(x)[0] for x in leaves]
    to_dtype = dtypes.result_type(*leaves)
    sizes = [int(np.prod(s)) for s in shapes]
    # leaves already of the result dtype are raveled as they are (keeping a weak type, as JAX does)
    flat = jnp.concatenate([jnp.ravel(x if dt == to_dtype else lax.convert_element_type(x, to_dtype))
                            for x, dt in zip(leaves, from_dtypes)])

    def unravel(v):
        if jnp.shape(v) != (sum(sizes),):
            raise ValueError(f"Sum of sizes {sum(sizes)} must be equal to dimension 0 of the operand shape "
                             f"{list(jnp.shape(v))}")
        parts = jnp.split(v, np.cumsum(sizes)[:-1])
        return [lax.convert_element_type(p.reshape(s), dt) for p, s, dt in zip(parts, shapes, from_dtypes)]
    return flat, unravel
