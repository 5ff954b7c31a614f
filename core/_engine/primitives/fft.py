"""lax.fft: XLA's FFT over the trailing `len(fft_lengths)` axes (FFT, IFFT, RFFT, IRFFT) as one
primitive, with jvp (it is linear), transposes (FFT and IFFT are symmetric; the real ones carry
the Hermitian mask, as JAX's) and vmap."""
from __future__ import annotations

import enum
import math

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from ..transforms.batching import bdim_at_front
from . import define


def _lax():
    from ..lax import lax  # INHERENT: up to lax; lax wraps this primitive (a layer above)
    return lax


class FftType(enum.IntEnum):
    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128),
            np.dtype(np.complex64): np.dtype(np.complex64), np.dtype(np.complex128): np.dtype(np.complex128)}
_REAL = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64),
         np.dtype(np.float32): np.dtype(np.float32), np.dtype(np.float64): np.dtype(np.float64)}


def _fft_abstract(x, fft_type, fft_lengths):
    n = len(fft_lengths)
    if n > x.ndim:
        raise ValueError(f"FFT input shape {x.shape} must have at least as many input dimensions as fft_lengths "
                         f"{fft_lengths}.")
    lead, tail = x.shape[:x.ndim - n], x.shape[x.ndim - n:]
    if fft_type == FftType.RFFT:
        if x.dtype not in (np.float32, np.float64):
            raise ValueError(f"RFFT input must be float32 or float64, got {x.dtype}")
        if tail != tuple(fft_lengths):
            raise ValueError(f"RFFT input shape {x.shape} minor dimensions must be equal to fft_lengths "
                             f"{fft_lengths}")
        return ShapedArray(lead + tuple(fft_lengths[:-1]) + (fft_lengths[-1] // 2 + 1,), _COMPLEX[x.dtype],
                           x.weak_type)
    if x.dtype.kind != "c":
        raise ValueError(f"{FftType(fft_type).name} input must be complex64 or complex128, got {x.dtype}")
    if fft_type == FftType.IRFFT:
        want = tuple(fft_lengths[:-1]) + (fft_lengths[-1] // 2 + 1,)
        if tail != want:
            raise ValueError(f"IRFFT input shape {x.shape} minor dimensions must follow fft_lengths {fft_lengths}")
        return ShapedArray(lead + tuple(fft_lengths), _REAL[x.dtype], x.weak_type)
    if tail != tuple(fft_lengths):
        raise ValueError(f"FFT input shape {x.shape} minor dimensions must be equal to fft_lengths {fft_lengths}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


_NUMPY = {FftType.FFT: np.fft.fftn, FftType.IFFT: np.fft.ifftn, FftType.RFFT: np.fft.rfftn,
          FftType.IRFFT: np.fft.irfftn}


def _fft_impl(x, fft_type, fft_lengths):
    x = np.asarray(x)
    out = _fft_abstract(ShapedArray(x.shape, x.dtype), fft_type, fft_lengths)
    axes = tuple(range(x.ndim - len(fft_lengths), x.ndim))
    return _NUMPY[FftType(fft_type)](x, s=fft_lengths, axes=axes).astype(out.dtype)


fft_p = define("fft", abstract_eval=_fft_abstract, impl=_fft_impl)


def _hermitian_mask(m, n_last, dtype):
    """Weights of an rfft's kept half: 1 for DC (and Nyquist when even), 2 for the rest."""
    mask = np.full((m,), 2.0, dtype)
    mask[0] = 1.0
    if n_last % 2 == 0:
        mask[-1] = 1.0
    return mask


def _along_last(mask, shape):
    from ..tracing.array import Array
    return _lax().broadcast_in_dim(Array(mask), tuple(shape), (len(shape) - 1,))


def _fft_transpose(ct, x, fft_type, fft_lengths):
    if type(ct) is ad.Zero:
        return [None]
    lax = _lax()
    ct_aval = get_aval(ct)
    fft_type = FftType(fft_type)
    if fft_type == FftType.RFFT:
        dtype = _REAL[np.dtype(ct_aval.dtype)]
        mask = _hermitian_mask(ct_aval.shape[-1], fft_lengths[-1], dtype)
        scaled = lax.div(lax.conj(ct), _along_last(mask.astype(ct_aval.dtype), ct_aval.shape))
        out = fft(scaled, FftType.IRFFT, fft_lengths)
        out = lax.mul(out, lax.full(get_aval(out).shape, math.prod(fft_lengths), dtype))
        return [out]
    if fft_type == FftType.IRFFT:
        y = fft(ct, FftType.RFFT, fft_lengths)
        cdt = _COMPLEX[np.dtype(ct_aval.dtype)]
        mask = _hermitian_mask(get_aval(y).shape[-1], fft_lengths[-1], cdt)
        yshape = get_aval(y).shape
        out = lax.mul(lax.mul(y, _along_last(mask, yshape)), lax.full(yshape, 1 / math.prod(fft_lengths), cdt))
        return [lax.conj(out)]
    return [fft(ct, fft_type, fft_lengths)]


ad.deflinear(fft_p, _fft_transpose)


def _fft_batch(axis_data, vals, dims, fft_type, fft_lengths):
    x = bdim_at_front(vals[0], dims[0], axis_data.size)
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=fft_lengths), 0


batch_rules[fft_p] = _fft_batch


def fft(x, fft_type, fft_lengths):
    """FFT of the trailing len(fft_lengths) axes of x; `fft_type` an FftType or its name."""
    from ..base import dtypes
    lax = _lax()
    if isinstance(fft_type, str):
        try:
            fft_type = FftType[fft_type.upper()]
        except KeyError:
            raise ValueError(f"Unknown FFT type '{fft_type}'") from None
    elif not isinstance(fft_type, FftType):
        raise TypeError(f"Unknown FFT type value '{fft_type}'")
    from .shaping import _as_array
    x = _as_array(x)
    dt = get_aval(x).dtype
    if fft_type == FftType.RFFT:
        if dt.kind == "c":
            raise ValueError("only real valued inputs supported for rfft")
        target = dt if dt.kind == "f" else dtypes.canonicalize_dtype(np.float64)
    else:
        target = _COMPLEX.get(dt) or _COMPLEX[np.dtype(dtypes.canonicalize_dtype(np.float64))]
    x = lax.convert_element_type(x, target)
    if not fft_lengths:
        return x
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=tuple(int(n) for n in fft_lengths))


LAX_EXPORTS = {"fft": fft, "fft_p": fft_p, "FftType": FftType}
