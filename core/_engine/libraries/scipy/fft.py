"""`jax.scipy.fft`: the type-2 discrete cosine transform and its inverse, over jnp.fft.

DCT-II through one complex FFT of the even/odd interleaved input (Makhoul's method): with
v = (x[0], x[2], ..., x[3], x[1]) and V = fft(v), y[k] = 2 Re(V[k] exp(-i pi k / 2N)). The inverse
undoes each step: V[k] = (y[k] - i y[N-k]) / 2 * exp(i pi k / 2N), v = ifft(V), then de-interleave.
Everything is jnp/lax, so jit, grad and vmap go through it. As in JAX, only type 2 exists.
"""
from __future__ import annotations

import numpy as np

from ...lax import lax
from .. import numpy as jnp
from ..numpy import fft as _jfft

_NORMS = (None, "backward", "ortho")


def _check(name: str, x, type: int, norm):
    x = jnp.asarray(x)
    if type != 2:
        raise NotImplementedError("Only DCT type 2 is implemented.")
    if norm not in _NORMS:
        raise ValueError(f"jax.scipy.fft.{name}: norm={norm!r} is not implemented")
    return x


def _resize(x, n, axis):
    """Zero-pad or truncate `x` along `axis` to length n, as scipy's `n=` does."""
    if n is None or n == x.shape[axis]:
        return x
    if n < x.shape[axis]:
        return lax.slice_in_dim(x, 0, n, axis=axis)
    pads = [(0, n - x.shape[axis] if a == axis else 0, 0) for a in range(x.ndim)]
    return lax.pad(x, jnp.zeros((), x.dtype), pads)


def _ortho_scale(N, axis, ndim, dtype, inverse: bool):
    """Per-coefficient factors of norm='ortho': sqrt(1/4N) for k = 0, sqrt(1/2N) otherwise."""
    s = np.full(N, np.sqrt(1.0 / (2 * N)))
    s[0] = np.sqrt(1.0 / (4 * N))
    if inverse:
        s = 1.0 / s
    return jnp.asarray(s.reshape([N if a == axis else 1 for a in range(ndim)]), dtype)


def _phase(N, axis, ndim, sign, dtype):
    k = np.arange(N)
    w = np.exp(sign * 1j * np.pi * k / (2 * N))
    return jnp.asarray(w.reshape([N if a == axis else 1 for a in range(ndim)]), dtype)


def _interleave_order(N):
    return np.concatenate([np.arange(0, N, 2), np.arange(N - 1 - (N % 2 == 1), 0, -2)]) if N > 1 else np.zeros(1, int)


def _real_dtype(x):
    return jnp.result_type(x.dtype, jnp.float32) if not jnp.issubdtype(x.dtype, jnp.inexact) else x.dtype


def dct(x, type=2, n=None, axis=-1, norm=None):
    """The type-2 DCT of `x` along `axis` (scipy.fft.dct's definition and norms)."""
    x = _check("dct", x, type, norm)
    if jnp.iscomplexobj(x):
        return lax.complex(dct(x.real, type, n, axis, norm), dct(x.imag, type, n, axis, norm))
    x = x.astype(_real_dtype(x))
    axis = axis % x.ndim
    x = _resize(x, n, axis)
    N = x.shape[axis]
    v = jnp.take(x, jnp.asarray(_interleave_order(N)), axis=axis)
    V = _jfft.fft(v, axis=axis)
    out = 2 * (V * _phase(N, axis, x.ndim, -1, V.dtype)).real
    if norm == "ortho":
        out = out * _ortho_scale(N, axis, x.ndim, out.dtype, inverse=False)
    return out


def idct(x, type=2, n=None, axis=-1, norm=None):
    """The inverse of the type-2 DCT along `axis` (scipy.fft.idct with type=2)."""
    x = _check("idct", x, type, norm)
    if jnp.iscomplexobj(x):
        return lax.complex(idct(x.real, type, n, axis, norm), idct(x.imag, type, n, axis, norm))
    x = x.astype(_real_dtype(x))
    axis = axis % x.ndim
    x = _resize(x, n, axis)
    N = x.shape[axis]
    if norm == "ortho":
        x = x * _ortho_scale(N, axis, x.ndim, x.dtype, inverse=True)
    # y[N-k] for k = 1..N-1, and 0 where k = 0
    flipped = jnp.concatenate([jnp.zeros_like(lax.slice_in_dim(x, 0, 1, axis=axis)),
                               jnp.flip(lax.slice_in_dim(x, 1, N, axis=axis), axis=axis)], axis=axis)
    V = (x - 1j * flipped) * 0.5 * _phase(N, axis, x.ndim, 1, jnp.result_type(x.dtype, jnp.complex64))
    v = _jfft.ifft(V, axis=axis).real
    inverse_order = np.argsort(_interleave_order(N))
    return jnp.take(v, jnp.asarray(inverse_order), axis=axis)


def _axes_and_sizes(name, x, s, axes):
    if axes is None:
        axes = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
    axes = tuple(axes)
    if s is not None and len(s) != len(axes):
        raise ValueError(f"jax.scipy.fft.{name}: shape s={s} and axes={axes} must have the same length")
    return axes, (s if s is not None else (None,) * len(axes))


def dctn(x, type=2, s=None, axes=None, norm=None):
    """The type-2 DCT over several axes (each axis in turn)."""
    x = _check("dctn", x, type, norm)
    axes, sizes = _axes_and_sizes("dctn", x, s, axes)
    for ax, size in zip(axes, sizes):
        x = dct(x, type, size, ax, norm)
    return x


def idctn(x, type=2, s=None, axes=None, norm=None):
    """The inverse type-2 DCT over several axes."""
    x = _check("idctn", x, type, norm)
    axes, sizes = _axes_and_sizes("idctn", x, s, axes)
    for ax, size in zip(axes, sizes):
        x = idct(x, type, size, ax, norm)
    return x


__all__ = ["dct", "dctn", "idct", "idctn"]
