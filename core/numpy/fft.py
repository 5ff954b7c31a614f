"""`jax.numpy.fft` on concrete values (numpy's FFT)."""
from __future__ import annotations

import numpy as _np

from ..array import Array


def _wrap(fn):
    def f(a, *args, **kw):
        out = fn(_np.asarray(a), *args, **kw)
        return Array(out.astype(_np.complex64 if _np.iscomplexobj(out) else _np.float32))
    f.__name__ = fn.__name__
    return f


fft = _wrap(_np.fft.fft)
ifft = _wrap(_np.fft.ifft)
rfft = _wrap(_np.fft.rfft)
irfft = _wrap(_np.fft.irfft)
fftfreq = _wrap(_np.fft.fftfreq)


from .._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
