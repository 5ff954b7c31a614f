"""`jax.numpy.fft`: each axis's transform is one `lax.fft` primitive (its impl is numpy's FFT, cast
to JAX's dtype: complex64, or complex128 for float64 input under x64), eager and traced alike, so
jit, grad and vmap see the same primitive and give the eager bits."""
from __future__ import annotations

import operator

import numpy as _np

from ...tracing.array import Array
from ...tracing.tracing import get_aval
from ._util import _staged

_NORMS = ("backward", "ortho", "forward")


def _scale(norm, n, inverse):
    """Factor applied after the unnormalised transform (numpy's conventions)."""
    if norm is None or norm == "backward":
        return 1.0 / n if inverse else 1.0
    if norm == "ortho":
        return 1.0 / _np.sqrt(n)
    if norm == "forward":
        return 1.0 if inverse else 1.0 / n
    raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


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
    if kind == "rfft" and aval.dtype.kind == "c":
        raise ValueError("only real valued inputs supported for rfft")
    given = n is not None
    if n is None:
        n = 2 * (aval.shape[axis] - 1) if kind == "irfft" else aval.shape[axis]
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    _scale(norm, n, False)   # refuses an unknown norm with numpy's message
    # As JAX: the axis moves last, is trimmed or zero-padded to n (the kept half for irfft), one
    # `fft` primitive transforms it, and the norm is a multiplication after. The primitive's impl is
    # numpy's FFT, eager and under jit alike, so both give the same bits.
    from ._shapes import moveaxis
    from ...primitives.fft import FftType
    a = moveaxis(a, axis, -1)
    if given:   # as JAX: an explicit length crops, then pads (even by nothing), in the input's dtype
        from ._pad import pad
        m = n // 2 + 1 if kind == "irfft" else n
        a = a[..., :m]
        a = pad(a, [(0, 0)] * (aval.ndim - 1) + [(0, m - get_aval(a).shape[-1])])
    out = _fft_staged(a, FftType[kind.upper()], (n,))
    if norm not in (None, "backward"):
        out = out * _norm_factor(norm, n, kind.startswith("i"), get_aval(out).dtype)
    return moveaxis(out, -1, axis)


def _lax_fft(x, fft_type, fft_lengths):
    from ...primitives.fft import fft as lax_fft
    return lax_fft(x, fft_type, fft_lengths)


_fft_staged = _staged(_lax_fft, static_argnames=("fft_type", "fft_lengths"), name="fft")


def _norm_factor(norm, n, inverse, dtype):
    """JAX's factor after the unnormalised (forward) or 1/n-normalised (inverse) transform, computed
    as JAX computes it: from the lengths as an array of the output's dtype."""
    from ._creation import array
    from ._reductions import prod
    from ._ufuncs import sqrt
    size = prod(array([n], dtype=dtype))
    if norm == "ortho":
        size = sqrt(size)
    return size if inverse else 1 / size


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


def _nd(name, kind, a, s, axes, norm):
    """fftn/ifftn/rfftn/irfftn as JAX computes them: the axes asked for move last (only when given),
    an explicit `s` crops then zero-pads (the kept half's length for irfftn's last axis), ONE `fft`
    primitive transforms up to three trailing axes (XLA's limit; more take several, four as two
    2-d transforms), the norm multiplies after, and the axes move back. One primitive per call
    keeps the eager bits equal to jit's: both run numpy's n-d FFT in the impl."""
    from ._util import _promote_dtypes_inexact
    from ._creation import array, asarray
    from ._shapes import moveaxis
    from ...primitives.fft import FftType
    full_name = f"jax.numpy.fft.{name}"
    (a,) = _promote_dtypes_inexact(asarray(a))
    nd = get_aval(a).ndim
    if s is not None:
        s = tuple(operator.index(v) for v in s)
        if any(v <= 0 for v in s):
            raise ValueError("Shape should be positive.")
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    given_axes = axes
    if axes is None:
        axes = tuple(range(nd)) if s is None else tuple(range(nd - len(s), nd))
    axes = tuple(operator.index(ax) for ax in axes)
    if len(axes) != len(set(axes)):
        raise ValueError(f"{full_name} does not support repeated axes. Got axes {axes}.")
    if kind == "rfft" and get_aval(a).dtype.kind == "c":
        raise ValueError("only real valued inputs supported for rfft")
    if given_axes is not None:
        axes, given_axes = tuple(range(nd - len(axes), nd)), axes
        a = moveaxis(a, given_axes, axes)
    shape = get_aval(a).shape
    if s is not None:
        from ._pad import pad
        in_s = list(shape)
        for ax, v in zip(axes, s):
            in_s[ax] = v
        if kind == "irfft":
            in_s[-1] = in_s[-1] // 2 + 1
        a = a[tuple(slice(v) for v in in_s)]
        a = pad(a, [(0, v - w) for v, w in zip(in_s, get_aval(a).shape)])
    elif kind == "irfft":
        s = tuple(shape[ax] for ax in axes[:-1]) + ((max(0, 2 * (shape[axes[-1]] - 1)),) if axes else ())
    else:
        s = tuple(shape[ax] for ax in axes)
    out = _nd_core(a, FftType[kind.upper()], tuple(s))
    if norm is not None:
        if norm == "backward":
            factor = array(1)
        elif norm in ("ortho", "forward"):
            from ._reductions import prod
            from ._ufuncs import sqrt
            size = prod(array(s, dtype=get_aval(out).dtype))
            size = sqrt(size) if norm == "ortho" else size
            factor = size if kind.startswith("i") else 1 / size
        else:
            raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
        out = out * factor
    if given_axes is not None:
        out = moveaxis(out, axes, given_axes)
    return out


def _nd_core(a, fft_type, s):
    from ._shapes import moveaxis
    from ...primitives.fft import FftType
    if len(s) <= 3:
        return _fft_staged(a, fft_type, s)
    n = 2 if len(s) == 4 else 3
    nd = get_aval(a).ndim
    src = tuple(range(nd - len(s), nd - n))
    dst = tuple(range(nd - len(s) + n, nd))
    if fft_type in (FftType.RFFT, FftType.FFT):
        a = _fft_staged(a, fft_type, s[-n:])
        a = moveaxis(a, src, dst)
        a = _nd_core(a, FftType.FFT, s[:-n])
        return moveaxis(a, dst, src)
    a = moveaxis(a, src, dst)
    a = _nd_core(a, FftType.IFFT, s[:-n])
    a = moveaxis(a, dst, src)
    return _fft_staged(a, fft_type, s[-n:])


def fftn(a, s=None, axes=None, norm=None):
    return _nd("fftn", "fft", a, s, axes, norm)


def ifftn(a, s=None, axes=None, norm=None):
    return _nd("ifftn", "ifft", a, s, axes, norm)


def rfftn(a, s=None, axes=None, norm=None):
    return _nd("rfftn", "rfft", a, s, axes, norm)


def irfftn(a, s=None, axes=None, norm=None):
    return _nd("irfftn", "irfft", a, s, axes, norm)


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
