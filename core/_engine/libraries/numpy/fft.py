"""`jax.numpy.fft`. Concrete arrays go through numpy's FFT (exact, then cast to JAX's dtype:
complex64, or complex128 for float64 input under x64); traced ones (jit, grad, vmap) through a
dense DFT matrix product, so every transformation composes without an FFT primitive."""
from __future__ import annotations

import operator

import numpy as _np

from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer, get_aval

_NORMS = ("backward", "ortho", "forward")


def _complex_of(dtype):
    return _np.dtype(_np.complex128) if _np.dtype(dtype) in (_np.float64, _np.complex128) else _np.dtype(_np.complex64)


def _real_of(dtype):
    return _np.dtype(_np.float64) if _np.dtype(dtype) in (_np.float64, _np.complex128) else _np.dtype(_np.float32)


def _scale(norm, n, inverse):
    """Factor applied after the unnormalised transform (numpy's conventions)."""
    if norm is None or norm == "backward":
        return 1.0 / n if inverse else 1.0
    if norm == "ortho":
        return 1.0 / _np.sqrt(n)
    if norm == "forward":
        return 1.0 if inverse else 1.0 / n
    raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _resize(x, axis, n):
    """Trim or zero-pad x to length n along axis (numpy's `n=` semantics)."""
    from ._pad import pad
    size = get_aval(x).shape[axis]
    if n == size:
        return x
    if n < size:
        return lax.slice_in_dim(x, 0, n, axis=axis)
    widths = [(0, 0)] * get_aval(x).ndim
    widths[axis] = (0, n - size)
    return pad(x, widths)


def _apply_matrix(x, axis, mat):
    """Contract x's `axis` with the first axis of the constant matrix `mat`; the result axis stays in place."""
    from ._creation import asarray
    from ._shapes import moveaxis
    m = asarray(mat)
    nd = get_aval(x).ndim
    out = lax.dot_general(x, m, (((axis,), (0,)), ((), ())))
    return moveaxis(out, nd - 1, axis)


def _one_axis(kind, a, n, axis, norm):
    """One transform along one axis: kind is 'fft', 'ifft', 'rfft' or 'irfft'."""
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    (a,) = _promote_dtypes_inexact(asarray(a))
    aval = get_aval(a)
    if aval.ndim == 0:
        raise ValueError(f"jnp.fft.{kind} requires an array of at least one dimension; got a scalar")
    axis = operator.index(axis)
    if not -aval.ndim <= axis < aval.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {aval.ndim}")
    axis %= aval.ndim
    cdt, rdt = _complex_of(aval.dtype), _real_of(aval.dtype)
    if kind == "rfft" and aval.dtype.kind == "c":
        raise ValueError("only real valued inputs supported for rfft")
    if n is None:
        n = 2 * (aval.shape[axis] - 1) if kind == "irfft" else aval.shape[axis]
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    inverse = kind in ("ifft", "irfft")
    scale = _scale(norm, n, inverse)
    out_dtype = rdt if kind == "irfft" else cdt
    if not isinstance(a, Tracer):
        fn = {"fft": _np.fft.fft, "ifft": _np.fft.ifft, "rfft": _np.fft.rfft, "irfft": _np.fft.irfft}[kind]
        v = fn(_np.asarray(a._value), n=n, axis=axis, norm="backward")
        # numpy's inverse transforms divide by n already; undo that and apply the requested norm
        v = v * (n if inverse else 1) * scale
        return Array(_np.asarray(v).astype(out_dtype))
    if kind == "irfft":
        half = n // 2 + 1
        a = _resize(lax.convert_element_type(a, cdt), axis, half)
        k = _np.arange(half)[:, None]
        t = _np.arange(n)[None, :]
        weights = _np.where((k == 0) | ((n % 2 == 0) & (k == n // 2)), 1.0, 2.0)
        mat = (weights * _np.exp(2j * _np.pi * k * t / n) * scale).astype(cdt)
        return lax.real(_apply_matrix(a, axis, mat))
    a = _resize(lax.convert_element_type(a, rdt if kind == "rfft" else cdt), axis, n)
    if kind == "rfft":
        a = lax.convert_element_type(a, cdt)
    cols = n // 2 + 1 if kind == "rfft" else n
    sign = 1.0 if inverse else -1.0
    mat = (_np.exp(sign * 2j * _np.pi * _np.arange(n)[:, None] * _np.arange(cols)[None, :] / n) * scale).astype(cdt)
    return _apply_matrix(a, axis, mat)


def fft(a, n=None, axis=-1, norm=None):
    return _one_axis("fft", a, n, axis, norm)


def ifft(a, n=None, axis=-1, norm=None):
    return _one_axis("ifft", a, n, axis, norm)


def rfft(a, n=None, axis=-1, norm=None):
    return _one_axis("rfft", a, n, axis, norm)


def irfft(a, n=None, axis=-1, norm=None):
    return _one_axis("irfft", a, n, axis, norm)


def hfft(a, n=None, axis=-1, norm=None):
    """FFT of a Hermitian-symmetric signal given by its first half: irfft of the conjugate, rescaled."""
    from ._creation import asarray
    from ._ufuncs import conjugate
    a = asarray(a)
    nn = 2 * (get_aval(a).shape[axis] - 1) if n is None else operator.index(n)
    swapped = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}
    if norm not in swapped:
        _scale(norm, 1, False)
    return irfft(conjugate(a), nn, axis=axis, norm=swapped[norm])


def ihfft(a, n=None, axis=-1, norm=None):
    from ._ufuncs import conjugate
    swapped = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}
    if norm not in swapped:
        _scale(norm, 1, False)
    return conjugate(rfft(a, n, axis=axis, norm=swapped[norm]))


def _nd_args(a, s, axes, name):
    from ._creation import asarray
    a = asarray(a)
    nd = get_aval(a).ndim
    if s is not None:
        s = tuple(operator.index(v) for v in s)
        if axes is None:
            axes = tuple(range(-len(s), 0))
    if axes is None:
        axes = tuple(range(nd))
    axes = tuple(operator.index(ax) for ax in axes)
    if s is not None and len(s) != len(axes):
        raise ValueError(f"jnp.fft.{name}: shape and axes have different lengths: s={s}, axes={axes}")
    if len(set(ax % nd for ax in axes)) != len(axes):
        raise ValueError(f"jnp.fft.{name} does not support repeated axes. Got axes {axes}.")
    return a, (s if s is not None else (None,) * len(axes)), axes


def fftn(a, s=None, axes=None, norm=None):
    a, s, axes = _nd_args(a, s, axes, "fftn")
    for n, ax in zip(s[::-1], axes[::-1]):
        a = fft(a, n, ax, norm)
    return a


def ifftn(a, s=None, axes=None, norm=None):
    a, s, axes = _nd_args(a, s, axes, "ifftn")
    for n, ax in zip(s[::-1], axes[::-1]):
        a = ifft(a, n, ax, norm)
    return a


def rfftn(a, s=None, axes=None, norm=None):
    a, s, axes = _nd_args(a, s, axes, "rfftn")
    a = rfft(a, s[-1], axes[-1], norm)
    for n, ax in zip(s[-2::-1], axes[-2::-1]):
        a = fft(a, n, ax, norm)
    return a


def irfftn(a, s=None, axes=None, norm=None):
    a, s, axes = _nd_args(a, s, axes, "irfftn")
    for n, ax in zip(s[:-1], axes[:-1]):
        a = ifft(a, n, ax, norm)
    return irfft(a, s[-1], axes[-1], norm)


def fft2(a, s=None, axes=(-2, -1), norm=None):
    return fftn(a, s, axes, norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    return ifftn(a, s, axes, norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    return rfftn(a, s, axes, norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    return irfftn(a, s, axes, norm)


def _freq_dtype(dtype):
    from ...base import dtypes as _dt
    from ._dtypes import _canonical_request
    dt = _canonical_request(dtype)
    return _dt.canonicalize_dtype(dt if dt is not None else _dt.default_float_dtype())


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    n = operator.index(n)
    dt = _freq_dtype(dtype)
    return Array(_np.asarray(_np.fft.fftfreq(n, d)).astype(dt))


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    n = operator.index(n)
    dt = _freq_dtype(dtype)
    return Array(_np.asarray(_np.fft.rfftfreq(n, d)).astype(dt))


def _shift(x, axes, sign):
    from ._creation import asarray
    from ._shapes import roll
    x = asarray(x)
    shape = get_aval(x).shape
    if axes is None:
        axes = tuple(range(len(shape)))
    elif isinstance(axes, int):
        axes = (axes,)
    shifts = tuple(sign * (shape[ax] // 2) for ax in axes)
    return roll(x, shifts, tuple(axes))


def fftshift(x, axes=None):
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    return _shift(x, axes, -1)


from ...base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
