"""jax.numpy's products: dot, matmul, vdot, inner, outer, tensordot, kron, cross, einsum, and
the batched vector products vecdot, matvec, vecmat (conjugating the first vector, as JAX's do)."""
from __future__ import annotations

import builtins

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.tracing import get_aval
from ._util import _broadcast_shapes, _check_arraylike, _convert_if_needed, _promote_dtypes, _staged
from ._dtypes import _dtype_arg


def _dot_dtype(a, b):
    a, b = _promote_dtypes(a, b)
    return a, b, get_aval(a).dtype


def _dot_with_a_scalar(a, b, precision, preferred_element_type):
    """jnp.dot with a 0-d operand, as JAX writes it: a dot_general contracting nothing, on the
    operands as they are (mixed dtypes included), then the result's weak type (`w.dot(x)` on
    scalars in the debugging tutorial is `dot_general[dimension_numbers=(([], []), ([], []))]`)."""
    a, = _promote_dtypes(a)  # arrays of their own dtypes (a Python scalar stays weak)
    b, = _promote_dtypes(b)
    dt, weak = _dt.result_type_weak(_dt.dtype_and_weak(a), _dt.dtype_and_weak(b))
    pet = _dtype_arg(preferred_element_type)
    if pet is not None:
        dt, weak = pet, False
    out = lax.dot_general(a, b, (((), ()), ((), ())), precision=precision, preferred_element_type=dt)
    return _convert_if_needed(out, dt, weak)


def dot(a, b, *, precision=None, preferred_element_type=None):
    _check_arraylike("dot", a, b)
    if get_aval(a).ndim == 0 or get_aval(b).ndim == 0:
        return _dot_with_a_scalar(a, b, precision, preferred_element_type)
    a, b, dt = _dot_dtype(a, b)
    pet = _dtype_arg(preferred_element_type) or dt
    aa, ba = get_aval(a), get_aval(b)
    if ba.ndim == 1:
        contract = ((aa.ndim - 1,), (0,))
    else:
        contract = ((aa.ndim - 1,), (ba.ndim - 2,))
    # the result keeps a requested preferred_element_type (jnp.dot(i8, i8, preferred_element_type=int32)
    # is int32 in JAX)
    return lax.dot_general(a, b, (contract, ((), ())), precision=precision, preferred_element_type=pet)


def matmul(a, b, *, precision=None, preferred_element_type=None):
    _check_arraylike("matmul", a, b)
    a, b, dt = _dot_dtype(a, b)
    pet = _dtype_arg(preferred_element_type) or dt
    aa, ba = get_aval(a), get_aval(b)
    if aa.ndim == 0 or ba.ndim == 0:
        raise ValueError(f"matmul operand {0 if aa.ndim == 0 else 1} must have ndim at least 1, "
                         f"got {builtins.min(aa.ndim, ba.ndim)}")
    a_is_vec, b_is_vec = aa.ndim == 1, ba.ndim == 1
    if aa.ndim <= 2 and ba.ndim <= 2:
        dn = (((aa.ndim - 1,), (0,)), ((), ()))
        return lax.dot_general(a, b, dn, precision=precision, preferred_element_type=pet)
    if a_is_vec:
        a = lax.expand_dims(a, (0,))
    if b_is_vec:
        b = lax.expand_dims(b, (1,))
    aa, ba = get_aval(a), get_aval(b)
    batch = _broadcast_shapes(aa.shape[:-2], ba.shape[:-2])
    a = broadcast_to(a, batch + aa.shape[-2:])
    b = broadcast_to(b, batch + ba.shape[-2:])
    nb = len(batch)
    dn = (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb))))
    out = lax.dot_general(a, b, dn, precision=precision, preferred_element_type=pet)
    if a_is_vec:
        out = lax.squeeze(out, (nb,))
    if b_is_vec:
        out = lax.squeeze(out, (get_aval(out).ndim - 1,))
    return out


def vdot(a, b, *, precision=None):
    return dot(ravel(conjugate(a)), ravel(b), precision=precision)


def inner(a, b, *, precision=None):
    _check_arraylike("inner", a, b)
    a, b, dt = _dot_dtype(a, b)
    aa, ba = get_aval(a), get_aval(b)
    if aa.ndim == 0 or ba.ndim == 0:
        return lax.mul(a, b)
    return lax.dot_general(a, b, (((aa.ndim - 1,), (ba.ndim - 1,)), ((), ())), precision=precision,
                           preferred_element_type=dt)


def outer(a, b, out=None):
    _check_arraylike("outer", a, b)
    a, b = _promote_dtypes(a, b)
    # both operands given their axis (a[:, None] * b[None, :], as JAX): no rank promotion, which
    # jax_numpy_rank_promotion='raise' refuses (optimistix's BFGS updates under its test config)
    a = lax.expand_dims(ravel(a), (1,))
    return multiply(a, lax.expand_dims(ravel(b), (0,)))


def tensordot(a, b, axes=2, *, precision=None, preferred_element_type=None):
    _check_arraylike("tensordot", a, b)
    a, b, dt = _dot_dtype(a, b)
    aa, ba = get_aval(a), get_aval(b)
    if isinstance(axes, int):
        if axes > builtins.min(aa.ndim, ba.ndim):
            raise TypeError(f"Number of tensordot axes (axes {axes}) exceeds input ranks ({aa.shape} and {ba.shape})")
        contract = (tuple(range(aa.ndim - axes, aa.ndim)), tuple(range(axes)))
    else:
        ax, bx = axes
        ax = (ax,) if isinstance(ax, int) else tuple(ax)
        bx = (bx,) if isinstance(bx, int) else tuple(bx)
        contract = (tuple(_canon_one(i, aa.ndim) for i in ax), tuple(_canon_one(i, ba.ndim) for i in bx))
    return lax.dot_general(a, b, (contract, ((), ())), precision=precision,
                           preferred_element_type=_dtype_arg(preferred_element_type) or dt)


def kron(a, b):
    a, b = _promote_dtypes(asarray(a), asarray(b))
    nd = builtins.max(get_aval(a).ndim, get_aval(b).ndim)  # the smaller gets leading axes of 1
    a, b = lax.broadcast_to_rank(a, nd), lax.broadcast_to_rank(b, nd)
    out = multiply(lax.expand_dims(a, tuple(range(1, 2 * get_aval(a).ndim, 2))),
                   lax.expand_dims(b, tuple(range(0, 2 * get_aval(b).ndim, 2))))
    return reshape(out, tuple(x * y for x, y in zip(get_aval(a).shape, get_aval(b).shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    _check_arraylike("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    return _cross(asarray(a), asarray(b), axisa=axisa, axisb=axisb, axisc=axisc)


@_staged(static_argnames=("axisa", "axisb", "axisc"), name="cross")
def _cross(a, b, axisa, axisb, axisc):
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    na, nb = get_aval(a).shape[-1], get_aval(b).shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if na == 2 and nb == 2:
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    a0, a1 = a[..., 0], a[..., 1]
    a2 = a[..., 2] if na == 3 else zeros_like(a0)
    b0, b1 = b[..., 0], b[..., 1]
    b2 = b[..., 2] if nb == 3 else zeros_like(b0)
    c = array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
    return moveaxis(c, 0, axisc)


def einsum(subscripts, /, *operands, out=None, optimize="auto", precision=None, preferred_element_type=None,
           _dot_general=None, out_sharding=None):
    from ._einsum import einsum as _einsum
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.einsum is not supported.")
    return _einsum(subscripts, *operands, optimize=optimize, precision=precision,
                   preferred_element_type=preferred_element_type, _dot_general=_dot_general)


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    from ._util import _check_arraylike
    from ._products import _dot_dtype
    from ._dtypes import _dtype_arg
    from ._shapes import broadcast_arrays, moveaxis
    from ._ufuncs import conjugate
    _check_arraylike("jnp.vecdot", x1, x2)
    x1, x2, dt = _dot_dtype(x1, x2)
    n1, n2 = get_aval(x1).shape[axis], get_aval(x2).shape[axis]
    if n1 != n2:
        raise ValueError(f"axes must match; got shapes {get_aval(x1).shape} and {get_aval(x2).shape} with axis={axis}")
    x1, x2 = moveaxis(x1, axis, -1), moveaxis(x2, axis, -1)
    x1, x2 = broadcast_arrays(x1, x2)
    nd = get_aval(x1).ndim
    batch = tuple(range(nd - 1))
    return lax.dot_general(conjugate(x1), x2, (((nd - 1,), (nd - 1,)), (batch, batch)), precision=precision,
                           preferred_element_type=_dtype_arg(preferred_element_type) or dt)


def matvec(x1, x2, /):
    from ._util import _check_arraylike
    from ._creation import asarray
    from ._products import matmul
    _check_arraylike("jnp.matvec", x1, x2)
    return matmul(x1, asarray(x2)[..., None])[..., 0]


def vecmat(x1, x2, /):
    from ._util import _check_arraylike
    from ._creation import asarray
    from ._ufuncs import conjugate
    from ._products import matmul
    _check_arraylike("jnp.vecmat", x1, x2)
    return matmul(conjugate(asarray(x1))[..., None, :], x2)[..., 0, :]



def einsum_path(subscripts, /, *operands, optimize="auto"):
    """(contraction path, a printable report): the order in which einsum would contract its operands,
    chosen as JAX's opt_einsum chooses it; only the operands' shapes matter, so traced operands are fine."""
    from . import _einsum_path
    from ._einsum import _shape
    from ._einsum_report import PathInfo
    if isinstance(optimize, bool):
        optimize = "optimal" if optimize else _einsum_path.UNOPTIMIZED
    ops, path, steps, (ins, out, sizes) = _einsum_path.contract_path(subscripts, operands, optimize, _shape)
    return path, PathInfo(ins, out, sizes, path, steps)

# jax.numpy's modules call one another: imported after this module's definitions, so that the
# import order of the package does not matter (these names are only used at call time)
from ._ufuncs import conjugate, multiply  # noqa: E402
from ._creation import array, asarray, zeros_like  # noqa: E402
from ._shapes import broadcast_to, moveaxis, ravel, reshape  # noqa: E402
from ._reductions import _canon_one  # noqa: E402
