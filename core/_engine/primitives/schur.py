"""lax.linalg.schur's primitive: the Schur form T and Schur vectors Z of a batch of square
matrices, computed by LAPACK gees' steps (schur_kernel.py) as JAX does on the CPU. Like JAX's it
has no derivative rule (grad raises "Differentiation rule for 'schur' not implemented") and
returns NaNs where the QR iteration does not converge."""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules
from ..transforms.batching import moveaxis
from . import define
from .schur_kernel import schur as _schur_one

_SUPPORTED = {np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128)}


def _abstract(a, *, compute_schur_vectors, sort_eig_vals, select_callable):
    if a.ndim < 2:
        raise TypeError(f"Input 0 to schur must have rank at least 2, but got shape={a.shape}")
    if a.dtype.kind not in "fc":
        raise TypeError(f"schur does not accept dtype {a.dtype.name} at position 0. Accepted dtypes at "
                        f"position 0 are subtypes of floating, complexfloating.")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"The input to schur must be a square matrix. Got shape {a.shape[-2:]}.")
    out = ShapedArray(a.shape, a.dtype)
    return [out, out] if compute_schur_vectors else [out]


def _scipy_gees(a):
    """scipy's LAPACK gees where scipy is importable: the routine jaxlib's CPU kernel calls (jaxlib
    takes its LAPACK from scipy's cython_lapack), so T and Z are JAX's to the bit. The numpy kernel
    takes gees' steps too, but its BLAS products round differently on some CPUs, and the QR
    iteration can turn that into another (equally valid) Schur form. None: use the kernel."""
    try:
        from scipy.linalg import LinAlgError, schur
    except ImportError:
        return None

    def one(m):
        try:
            t, z = schur(m, output="complex" if m.dtype.kind == "c" else "real", check_finite=False)
        except LinAlgError:   # gees' info > 0 (no convergence)
            return m, m, False
        return t.astype(m.dtype), z.astype(m.dtype), True
    return one


def _impl(a, *, compute_schur_vectors, sort_eig_vals, select_callable):
    a = np.asarray(a)
    if a.dtype not in _SUPPORTED:     # JAX's CPU lowering has no half-precision gees
        raise NotImplementedError((KeyError(a.dtype.type), f"Unsupported dtype {a.dtype.name}."))
    if sort_eig_vals:
        raise NotImplementedError("The sort feature of LAPACK's gees routine is not implemented.")
    t, z = np.empty_like(a), np.empty_like(a)
    gees = _scipy_gees(a)
    for idx in np.ndindex(*a.shape[:-2]):
        ti, zi, ok = _schur_one(a[idx]) if gees is None else gees(a[idx])
        if not ok:       # gees' info > 0: JAX replaces the outputs with NaNs
            ti, zi = np.full_like(ti, np.nan), np.full_like(zi, np.nan)
        t[idx], z[idx] = ti, zi
    return [t, z] if compute_schur_vectors else [t]


schur_p = define("schur", abstract_eval=_abstract, impl=_impl, multiple_results=True,
                 weak_type_rule=lambda w, **p: [False] * (1 + p["compute_schur_vectors"]),
                 pp_params=lambda params: sorted(params.items()))


def _batch(axis_data, vals, dims, **p):
    outs = schur_p.bind(moveaxis(vals[0], dims[0], 0), **p)
    return outs, [0] * len(outs)


batch_rules[schur_p] = _batch


def schur(x, *, compute_schur_vectors=True, sort_eig_vals=False, select_callable=None):
    """lax.linalg.schur: [T, Z] with x = Z T Z^H ([T] without compute_schur_vectors); a list, as JAX's."""
    outs = schur_p.bind(x, compute_schur_vectors=bool(compute_schur_vectors),
                        sort_eig_vals=bool(sort_eig_vals), select_callable=select_callable)
    return list(outs)
