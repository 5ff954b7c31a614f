# face: re-exports core._engine.libraries.scipy.signal (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.signal`: n-d convolution and correlation as a sum of shifted slices of the padded
input (one per kernel element: right for the small kernels of tutorials, and traceable), and
detrend.

`jax.scipy.signal`'s public face: the implementation is core/_engine/libraries/scipy/signal.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.signal import (convolve as convolve, convolve2d as convolve2d,
    correlate as correlate, correlate2d as correlate2d, csd as csd, detrend as detrend,
    fftconvolve as fftconvolve, istft as istft, stft as stft, welch as welch)
