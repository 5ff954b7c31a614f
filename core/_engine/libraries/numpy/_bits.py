"""jnp.packbits / jnp.unpackbits: booleans packed eight to a uint8 and back, as JAX's."""
from __future__ import annotations

import numpy as _np

from ...lax import lax
from ._util import _check_arraylike, _staged


def _check_bitorder(bitorder):
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")


@_staged(static_argnames=("axis", "bitorder"))
def packbits(a, axis=None, bitorder="big"):
    from ._creation import arange, asarray
    from ._shapes import expand_dims, ravel, swapaxes
    _check_arraylike("packbits", a)
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    _check_bitorder(bitorder)
    bits = lax.ne(a, lax._const(a, 0)).astype("uint8")
    weights = arange(8, dtype="uint8")
    if bitorder == "big":
        weights = weights[::-1]
    if axis is None:
        bits, axis = ravel(bits), 0
    bits = swapaxes(bits, axis, -1)
    short = bits.shape[-1] % 8
    if short:  # the last byte is completed with zeros
        bits = lax.pad(bits, _np.uint8(0), [(0, 0, 0)] * (bits.ndim - 1) + [(0, 8 - short, 0)])
    bits = bits.reshape(bits.shape[:-1] + (bits.shape[-1] // 8, 8))
    packed = (bits << expand_dims(weights, tuple(range(bits.ndim - 1)))).sum(-1).astype("uint8")
    return swapaxes(packed, axis, -1)


@_staged(static_argnames=("axis", "count", "bitorder"))
def unpackbits(a, axis=None, count=None, bitorder="big"):
    from ._creation import arange, asarray
    from ._pad import pad
    from ._shapes import expand_dims, ravel, swapaxes
    _check_arraylike("unpackbits", a)
    a = asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    _check_bitorder(bitorder)
    masks = asarray(1) << arange(8, dtype="uint8")
    if bitorder == "big":
        masks = masks[::-1]
    if axis is None:
        a, axis = ravel(a), 0
    a = swapaxes(a, axis, -1)
    bits = ((a[..., None] & expand_dims(masks, tuple(range(a.ndim)))) > 0).astype("uint8")
    bits = bits.reshape(bits.shape[:-2] + (-1,))
    if count is not None:
        if count > bits.shape[-1]:
            bits = pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, count - bits.shape[-1])])
        else:
            bits = bits[..., :count]
    return swapaxes(bits, axis, -1)
