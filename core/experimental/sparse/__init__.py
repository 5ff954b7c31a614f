"""`jax.experimental.sparse`: the batched-COO sparse array (BCOO) with no batch or dense dimensions,
the part numpyro uses (its CAR distribution keeps an adjacency matrix as a BCOO).

A BCOO holds `data` (nse,) and `indices` (nse, ndim) int32, possibly with duplicates (they add up).
Its operations are written with the engine's jnp (scatter-add, gather, segment sums), so they jit,
grad and vmap as any jnp code; JAX binds its own bcoo_* primitives instead, so a jaxpr of a BCOO
computation reads differently here (docs/compatibility.md). Not here: batch and dense dimensions
(n_batch, n_dense), BCSR, sparsify, sparse linalg.
"""
from __future__ import annotations

import numpy as np

from ... import numpy as jnp
from ...tree_util import register_pytree_node_class


@register_pytree_node_class
class BCOO:
    """A sparse array: `BCOO((data, indices), shape=shape)`."""

    n_batch = 0
    n_dense = 0

    def __init__(self, args, *, shape, indices_sorted=False, unique_indices=False):
        self.data, self.indices = (jnp.asarray(a) for a in args)
        self.shape = tuple(int(d) for d in shape)
        self.indices_sorted, self.unique_indices = indices_sorted, unique_indices
        if self.indices.ndim != 2 or self.indices.shape[-1] != len(self.shape) or \
                self.data.shape != self.indices.shape[:1]:
            raise ValueError(f"BCOO here takes data (nse,) and indices (nse, {len(self.shape)}) for shape "
                             f"{self.shape}, got data {self.data.shape} and indices {self.indices.shape} "
                             "(batch and dense dimensions are not supported in gradpad)")

    dtype = property(lambda self: self.data.dtype)
    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape)))
    nse = property(lambda self: self.data.shape[0])
    n_sparse = property(lambda self: len(self.shape))
    T = property(lambda self: self.transpose())

    def tree_flatten(self):
        return (self.data, self.indices), {"shape": self.shape, "indices_sorted": self.indices_sorted,
                                           "unique_indices": self.unique_indices}

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(tuple(children), **aux)

    def __repr__(self):
        return f"BCOO({self.dtype.name}[{', '.join(map(str, self.shape))}], nse={self.nse})"

    # ---- construction
    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32, **_):
        return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype)

    @classmethod
    def from_scipy_sparse(cls, mat, *, index_dtype=None, **_):
        coo = mat.tocoo()
        indices = np.stack([coo.row, coo.col], axis=1).astype(index_dtype or np.int32)
        return cls((jnp.asarray(coo.data), jnp.asarray(indices)), shape=coo.shape)

    # ---- conversion
    def todense(self):
        return bcoo_todense(self)

    def astype(self, dtype):
        return BCOO((self.data.astype(dtype), self.indices), shape=self.shape)

    def transpose(self, axes=None):
        axes = tuple(range(self.ndim))[::-1] if axes is None else tuple(axes)
        return BCOO((self.data, self.indices[:, list(axes)]), shape=tuple(self.shape[a] for a in axes))

    def sum(self, axis=None, keepdims=False):
        """All axes: a dense scalar; some axes: a BCOO over the others (entries that meet add up)."""
        if axis is None:
            return self.data.sum()
        axes = {a % self.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
        keep = [d for d in range(self.ndim) if d not in axes or keepdims]
        shape = tuple(1 if d in axes else self.shape[d] for d in keep)
        indices = self.indices[:, keep] * jnp.asarray([0 if d in axes else 1 for d in keep], self.indices.dtype)
        return BCOO((self.data, indices), shape=shape)

    # ---- arithmetic
    def __matmul__(self, other):
        return bcoo_dot_general(self, other)

    def __rmatmul__(self, other):  # other @ self = (self.T @ other.T).T
        other = jnp.asarray(other)
        if other.ndim == 1:
            return bcoo_dot_general(self.T, other)
        return jnp.swapaxes(bcoo_dot_general(self.T, jnp.swapaxes(other, -1, -2)), -1, -2)

    def __mul__(self, other):
        if jnp.ndim(other) == 0:
            return BCOO((self.data * other, self.indices), shape=self.shape)
        other = jnp.broadcast_to(jnp.asarray(other), self.shape)
        return BCOO((self.data * other[tuple(self.indices.T)], self.indices), shape=self.shape)

    __rmul__ = __mul__

    def __neg__(self):
        return BCOO((-self.data, self.indices), shape=self.shape)

    def __truediv__(self, other):
        return self * (1 / jnp.asarray(other))


def bcoo_fromdense(mat, *, nse=None, index_dtype=np.int32, **_):
    """The nonzero entries of a concrete dense array (with `nse`, padded with zeros at index 0)."""
    mat = jnp.asarray(mat)
    host = np.asarray(mat)
    idx = np.argwhere(host != 0).astype(index_dtype)
    if nse is not None:
        idx = np.concatenate([idx, np.zeros((int(nse) - len(idx), host.ndim), index_dtype)])[:int(nse)]
    data = mat[tuple(jnp.asarray(idx).T)] if len(idx) else jnp.zeros((0,), mat.dtype)
    if nse is not None:
        data = jnp.where(jnp.arange(len(idx)) < int(np.count_nonzero(host)), data, 0)
    return BCOO((data, jnp.asarray(idx)), shape=mat.shape)


def bcoo_todense(mat, *args, **_):
    """A dense array with every stored entry added at its index."""
    if not isinstance(mat, BCOO):  # bcoo_todense(data, indices, spinfo=...) is JAX's other form
        data, indices = mat, args[0]
        mat = BCOO((data, indices), shape=_.get("spinfo").shape)
    return jnp.zeros(mat.shape, mat.dtype).at[tuple(mat.indices.T)].add(mat.data)


def bcoo_dot_general(lhs: BCOO, rhs, **_):
    """`lhs @ rhs` for a 2-d BCOO and a dense vector or matrix: each entry scales a row of rhs and
    adds into its row of the result."""
    rhs = jnp.asarray(rhs)
    if lhs.ndim != 2:
        raise ValueError(f"BCOO @ dense here needs a 2-d BCOO, got shape {lhs.shape}")
    rows, cols = lhs.indices[:, 0], lhs.indices[:, 1]
    contrib = lhs.data.reshape((-1,) + (1,) * (rhs.ndim - 1)) * rhs[cols]
    out_dtype = jnp.result_type(lhs.dtype, rhs.dtype)
    return jnp.zeros((lhs.shape[0],) + rhs.shape[1:], out_dtype).at[rows].add(contrib.astype(out_dtype))


def todense(arr):
    """A dense array from a BCOO (other values pass through)."""
    return arr.todense() if isinstance(arr, BCOO) else arr


def fromdense(mat, *, nse=None, index_dtype=np.int32):
    return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype)


def is_sparse(x) -> bool:
    return isinstance(x, BCOO)


JAXSparse = BCOO
__all__ = ["BCOO", "JAXSparse", "bcoo_dot_general", "bcoo_fromdense", "bcoo_todense", "fromdense", "is_sparse",
           "todense"]
