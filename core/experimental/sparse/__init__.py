"""`jax.experimental.sparse`: the batched-COO sparse array (BCOO), the part numpyro uses (its CAR
distribution keeps an adjacency matrix as a BCOO), with batch and dense dimensions for construction,
conversion and products.

A BCOO holds `data` (*batch, nse, *dense) and `indices` (*batch, nse, n_sparse) int32, possibly with
duplicates (they add up); padding entries hold zeros at the out-of-range index `sparse_shape`, as
JAX's fromdense writes them. Its operations are written with the engine's jnp (scatter-add, gather,
segment sums), so they jit, grad and vmap as any jnp code; JAX binds its own bcoo_* primitives
instead, so a jaxpr of a BCOO computation reads differently here (docs/compatibility.md). With
batch or dense dimensions: fromdense, todense, products with dense arrays (through the dense form),
scalar arithmetic; transpose, sum and elementwise products with arrays need n_batch = n_dense = 0.
BCSR: 2-d, through the BCOO form. Not here: sparsify, sparse linalg.
"""
from __future__ import annotations

import numpy as np

from ... import numpy as jnp
from ...tree_util import register_pytree_node_class


@register_pytree_node_class
class BCOO:
    """A sparse array: `BCOO((data, indices), shape=shape)`."""

    def __init__(self, args, *, shape, indices_sorted=False, unique_indices=False):
        self.data, self.indices = (jnp.asarray(a) for a in args)
        self.shape = tuple(int(d) for d in shape)
        self.indices_sorted, self.unique_indices = indices_sorted, unique_indices
        nb = self.indices.ndim - 2
        nd = self.data.ndim - 1 - nb
        if nb < 0 or nd < 0 or nb + self.indices.shape[-1] + nd != len(self.shape) or \
                self.data.shape[:nb + 1] != self.indices.shape[:nb + 1]:
            raise ValueError(f"BCOO takes data (*batch, nse, *dense) and indices (*batch, nse, n_sparse) with "
                             f"n_batch + n_sparse + n_dense = {len(self.shape)} for shape {self.shape}, got data "
                             f"{self.data.shape} and indices {self.indices.shape}")
        self.n_batch, self.n_dense = nb, nd

    dtype = property(lambda self: self.data.dtype)
    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape)))
    nse = property(lambda self: self.data.shape[self.n_batch])
    n_sparse = property(lambda self: self.indices.shape[-1])
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
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32, n_batch=0, n_dense=0, **_):
        return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype, n_batch=n_batch, n_dense=n_dense)

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

    def _plain(self, what):
        if self.n_batch or self.n_dense:
            raise NotImplementedError(f"BCOO.{what} with batch or dense dimensions is not supported in gradpad "
                                      f"(n_batch={self.n_batch}, n_dense={self.n_dense}); use .todense() first")

    def transpose(self, axes=None):
        self._plain("transpose")
        axes = tuple(range(self.ndim))[::-1] if axes is None else tuple(axes)
        return BCOO((self.data, self.indices[:, list(axes)]), shape=tuple(self.shape[a] for a in axes))

    def sum(self, axis=None, keepdims=False):
        """All axes: a dense scalar; some axes: a BCOO over the others (entries that meet add up)."""
        if axis is None:
            return self.data.sum()
        self._plain("sum over some axes")
        axes = {a % self.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
        keep = [d for d in range(self.ndim) if d not in axes or keepdims]
        shape = tuple(1 if d in axes else self.shape[d] for d in keep)
        indices = self.indices[:, keep] * jnp.asarray([0 if d in axes else 1 for d in keep], self.indices.dtype)
        return BCOO((self.data, indices), shape=shape)

    # ---- arithmetic
    def __matmul__(self, other):
        return _bcoo_matmul(self, other)

    def __rmatmul__(self, other):  # other @ self = (self.T @ other.T).T
        other = jnp.asarray(other)
        if self.n_batch or self.n_dense:
            return jnp.matmul(other, self.todense())
        if other.ndim == 1:
            return _bcoo_matmul(self.T, other)
        return jnp.swapaxes(_bcoo_matmul(self.T, jnp.swapaxes(other, -1, -2)), -1, -2)

    def __mul__(self, other):
        if jnp.ndim(other) == 0:
            return BCOO((self.data * other, self.indices), shape=self.shape)
        self._plain("__mul__ by an array")
        other = jnp.broadcast_to(jnp.asarray(other), self.shape)
        return BCOO((self.data * other[tuple(self.indices.T)], self.indices), shape=self.shape)

    __rmul__ = __mul__

    def __neg__(self):
        return BCOO((-self.data, self.indices), shape=self.shape)

    def __truediv__(self, other):
        return self * (1 / jnp.asarray(other))


def bcoo_fromdense(mat, *, nse=None, index_dtype=np.int32, n_batch=0, n_dense=0, **_):
    """The nonzero entries of a concrete dense array, per batch (the leading `n_batch` axes), each a
    block over the trailing `n_dense` axes, in row-major order as JAX's; padded to `nse` (default:
    the most any batch has) with zeros at the out-of-range index `sparse_shape`."""
    mat = jnp.asarray(mat)
    host = np.asarray(mat)
    nb, nd = int(n_batch), int(n_dense)
    ns = host.ndim - nb - nd
    if nb < 0 or nd < 0 or ns < 0:
        raise ValueError(f"n_batch={nb} and n_dense={nd} do not fit an array of {host.ndim} dimensions")
    batch_shape, sparse_shape = host.shape[:nb], host.shape[nb:nb + ns]
    mask = host != 0
    if nd:
        mask = mask.any(axis=tuple(range(nb + ns, host.ndim)))
    per_batch = [np.argwhere(m) for m in mask.reshape((-1,) + sparse_shape)]
    n = max((len(p) for p in per_batch), default=0) if nse is None else int(nse)
    idx = np.empty((len(per_batch), n, ns), index_dtype)
    idx[...] = np.asarray(sparse_shape, index_dtype)
    valid = np.zeros((len(per_batch), n), bool)
    for b, p in enumerate(per_batch):
        k = min(len(p), n)
        idx[b, :k], valid[b, :k] = p[:k], True
    idx, valid = idx.reshape(batch_shape + (n, ns)), valid.reshape(batch_shape + (n,))
    where = tuple(np.indices(batch_shape + (n,))[:nb]) + tuple(
        np.minimum(idx[..., i], max(d - 1, 0)) for i, d in enumerate(sparse_shape))
    data = mat[where] if n and host.size else jnp.zeros(batch_shape + (n,) + host.shape[nb + ns:], mat.dtype)
    data = jnp.where(valid.reshape(valid.shape + (1,) * nd), data, 0)
    return BCOO((data, jnp.asarray(idx)), shape=mat.shape)


def bcoo_todense(mat, *args, **_):
    """A dense array with every stored entry (a dense block per entry with n_dense) added at its
    index; entries at an out-of-range index (padding) are dropped."""
    if not isinstance(mat, BCOO):  # bcoo_todense(data, indices, spinfo=...) is JAX's other form
        data, indices = mat, args[0]
        mat = BCOO((data, indices), shape=_.get("spinfo").shape)
    nb = mat.n_batch
    batch = tuple(np.indices(mat.indices.shape[:nb + 1])[:nb])
    where = batch + tuple(mat.indices[..., i] for i in range(mat.n_sparse))
    return jnp.zeros(mat.shape, mat.dtype).at[where].add(mat.data, mode="drop")


def bcoo_dot_general(lhs: BCOO, rhs, *, dimension_numbers=None, **_):
    """`dot_general` of a BCOO and a dense array. Here only lhs's last axis against rhs's first, no
    batch axes (a 2-d BCOO: each entry scales a row of rhs and adds into its row of the result);
    other dimension numbers raise rather than contract the wrong axes."""
    rhs = jnp.asarray(rhs)
    if dimension_numbers is not None:
        (lc, rc), (lb, rb) = dimension_numbers
        if (tuple(lb), tuple(rb)) != ((), ()) or tuple(lc) != (lhs.ndim - 1,) or tuple(rc) != (0,):
            raise NotImplementedError(f"bcoo_dot_general here contracts lhs's last axis with rhs's first, no "
                                      f"batch axes; got dimension_numbers={dimension_numbers} (use .todense() "
                                      "and lax.dot_general)")
    return _bcoo_rows_times(lhs, rhs)


def _bcoo_rows_times(lhs: BCOO, rhs):
    if lhs.n_dense:   # (lhs @ rhs contracts lhs's last axis, a dense one: JAX has no rule for it)
        raise NotImplementedError("bcoo_dot_general: contracting over dense dimensions.")
    if lhs.n_batch:
        return jnp.matmul(lhs.todense(), rhs)
    if lhs.ndim != 2:
        raise ValueError(f"BCOO @ dense here needs a 2-d BCOO, got shape {lhs.shape}")
    rows, cols = lhs.indices[:, 0], lhs.indices[:, 1]
    contrib = lhs.data.reshape((-1,) + (1,) * (rhs.ndim - 1)) * rhs[cols]
    out_dtype = jnp.result_type(lhs.dtype, rhs.dtype)
    return jnp.zeros((lhs.shape[0],) + rhs.shape[1:], out_dtype).at[rows].add(contrib.astype(out_dtype), mode="drop")


def _bcoo_matmul(lhs: BCOO, rhs):
    """`lhs @ rhs` with matmul's semantics, as JAX's: a rhs of more than 2 dimensions is a stack of
    matrices (its rows are axis -2, its leading axes broadcast), not one array contracted on axis 0."""
    rhs = jnp.asarray(rhs)
    if lhs.n_batch or lhs.n_dense or rhs.ndim <= 2:
        return _bcoo_rows_times(lhs, rhs)
    return jnp.moveaxis(_bcoo_rows_times(lhs, jnp.moveaxis(rhs, -2, 0)), 0, -2)


@register_pytree_node_class
class BCSR:
    """A 2-d sparse matrix in compressed rows: `BCSR((data, indices, indptr), shape=shape)`; row r
    holds entries indptr[r]:indptr[r + 1] (column `indices`, value `data`). Padding entries (past
    indptr[-1]) hold zeros at column n_cols, as JAX's fromdense writes them. No batch or dense
    dimensions here; its operations go through the BCOO form."""

    n_batch = 0
    n_dense = 0

    def __init__(self, args, *, shape, indices_sorted=False, unique_indices=False):
        self.data, self.indices, self.indptr = (jnp.asarray(a) for a in args)
        self.shape = tuple(int(d) for d in shape)
        self.indices_sorted, self.unique_indices = indices_sorted, unique_indices
        if len(self.shape) != 2 or self.data.ndim != 1 or self.indices.shape != self.data.shape or \
                self.indptr.shape != (self.shape[0] + 1,):
            raise ValueError(f"BCSR here takes data (nse,), indices (nse,) and indptr (n_rows + 1,) for a 2-d "
                             f"shape, got shape {self.shape}, data {self.data.shape}, indices {self.indices.shape}"
                             f" and indptr {self.indptr.shape} (batch and dense dimensions are not supported in "
                             "gradpad)")

    dtype = property(lambda self: self.data.dtype)
    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape)))
    nse = property(lambda self: self.data.shape[0])
    n_sparse = property(lambda self: 2)

    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), {"shape": self.shape, "indices_sorted": self.indices_sorted,
                                                        "unique_indices": self.unique_indices}

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(tuple(children), **aux)

    def __repr__(self):
        return f"BCSR({self.dtype.name}[{', '.join(map(str, self.shape))}], nse={self.nse})"

    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32, n_batch=0, n_dense=0, **_):
        if n_batch or n_dense:
            raise NotImplementedError("BCSR with batch or dense dimensions is not supported in gradpad")
        return cls.from_bcoo(bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype))

    @classmethod
    def from_bcoo(cls, arr: BCOO):
        """From a 2-d BCOO whose entries are in row order (as fromdense makes them)."""
        if arr.ndim != 2 or arr.n_batch or arr.n_dense:
            raise NotImplementedError("BCSR.from_bcoo here takes a 2-d BCOO without batch or dense dimensions")
        rows = arr.indices[:, 0]
        counts = jnp.zeros((arr.shape[0] + 1,), arr.indices.dtype).at[rows + 1].add(1, mode="drop")
        return cls((arr.data, arr.indices[:, 1], jnp.cumsum(counts).astype(arr.indices.dtype)), shape=arr.shape)

    def to_bcoo(self):
        # each entry's row: how many row starts lie at or before it (padding: row n_rows, out of range)
        rows = jnp.searchsorted(self.indptr, jnp.arange(self.nse, dtype=self.indptr.dtype), side="right") - 1
        rows = jnp.where(jnp.arange(self.nse) < self.indptr[-1], rows, self.shape[0]).astype(self.indices.dtype)
        return BCOO((self.data, jnp.stack([rows, self.indices], axis=1)), shape=self.shape)

    def todense(self):
        return self.to_bcoo().todense()

    def __matmul__(self, other):
        return self.to_bcoo() @ other

    def __rmatmul__(self, other):   # (as JAX: no dense @ BCSR rule)
        raise NotImplementedError("bcsr_dot_general currently implemented for BCSR lhs and ndarray rhs.")


def todense(arr):
    """A dense array from a BCOO (other values pass through)."""
    return arr.todense() if isinstance(arr, (BCOO, BCSR)) else arr


def fromdense(mat, *, nse=None, index_dtype=np.int32, n_batch=0, n_dense=0):
    return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype, n_batch=n_batch, n_dense=n_dense)


def is_sparse(x) -> bool:
    return isinstance(x, (BCOO, BCSR))


JAXSparse = BCOO
__all__ = ["BCOO", "BCSR", "JAXSparse", "bcoo_dot_general", "bcoo_fromdense", "bcoo_todense", "fromdense", "is_sparse",
           "todense"]
