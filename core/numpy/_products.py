"""jnp.vecdot / matvec / vecmat: batched vector products (conjugating the first vector, as JAX's do)."""
from __future__ import annotations

from .. import lax
from ..tracing import get_aval


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    from . import _check_arraylike, _dot_dtype, _dtype_arg, broadcast_arrays, conjugate, moveaxis
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
    from . import _check_arraylike, asarray, matmul
    _check_arraylike("jnp.matvec", x1, x2)
    return matmul(x1, asarray(x2)[..., None])[..., 0]


def vecmat(x1, x2, /):
    from . import _check_arraylike, asarray, conjugate, matmul
    _check_arraylike("jnp.vecmat", x1, x2)
    return matmul(conjugate(asarray(x1))[..., None, :], x2)[..., 0, :]
