# face: re-exports core._engine.libraries.numpy.fft (written by tools/move_to_layers.py; no logic here)
"""`jax.numpy.fft`. Concrete arrays go through numpy's FFT (exact, then cast to JAX's dtype:
complex64, or complex128 for float64 input under x64); traced ones (jit, grad, vmap) through a
dense DFT matrix product, so every transformation composes without an FFT primitive.

`jax.numpy.fft`'s public face: the implementation is core/_engine/libraries/numpy/fft.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.numpy.fft import (fft as fft, fft2 as fft2, fftfreq as fftfreq, fftn as fftn,
    fftshift as fftshift, hfft as hfft, ifft as ifft, ifft2 as ifft2, ifftn as ifftn, ifftshift as ifftshift,
    ihfft as ihfft, irfft as irfft, irfft2 as irfft2, irfftn as irfftn, rfft as rfft, rfft2 as rfft2,
    rfftfreq as rfftfreq, rfftn as rfftn)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
