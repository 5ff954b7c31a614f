"""jax.scipy.signal's spectral estimators (issue 11, area "signal"): stft, istft, welch, csd.

Everything is built from one windowed-segment FFT (`_segment_ffts`) as JAX 0.10.2 does, keeping
its choices where they differ from SciPy: `nperseg=None` means the whole input (not 256), a
segment longer than the input is shortened with a warning, and istft's quirks (`noverlap=0`
means the default; `t` counts along the first axis of the result) are kept on purpose."""
from __future__ import annotations

import warnings

import numpy as _np

from .. import numpy as jnp


# ---------------------------------------------------------------- windows
def _cosine_sum(*coefs):
    """A periodic (FFT-bin) generalised cosine window, as scipy.signal.get_window builds it."""
    def window(n):
        phase = 2 * _np.pi * _np.arange(n) / n
        return sum(c * _np.cos(k * phase) for k, c in enumerate(coefs))
    return window


# Named windows gradpad builds itself (JAX asks scipy.signal.get_window for all but 'hann').
_WINDOWS = {
    "hann": lambda n: _np.sin(_np.linspace(0, _np.pi, n, endpoint=False)) ** 2,
    "hamming": _cosine_sum(0.54, -0.46),
    "blackman": _cosine_sum(0.42, -0.5, 0.08),
    "boxcar": _np.ones,
}


def _named_window(name, n, dtype):
    if n == 1:
        return jnp.array([1.0], dtype=dtype)
    if not isinstance(name, str) or name not in _WINDOWS:
        raise NotImplementedError(
            f"window={name!r} is not supported by gradpad; use one of {sorted(_WINDOWS)} "
            "or pass the window itself as a 1-d array")
    return jnp.asarray(_WINDOWS[name](n), dtype=dtype)


def _window_and_length(window, nperseg, input_length, dtype):
    """The window array and the segment length, from a window name or array and nperseg."""
    if isinstance(window, (str, tuple)):
        n = input_length if nperseg is None else int(nperseg)
        if n > input_length:
            warnings.warn(f"nperseg={n} is greater than input_length={input_length}, using nperseg={input_length}")
            n = input_length
        return _named_window(window, n, dtype), n
    win = jnp.asarray(window, dtype=dtype)
    n = win.size if nperseg is None else int(nperseg)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if input_length < win.size:
        raise ValueError("window is longer than input signal")
    if n != win.size:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, n


# ---------------------------------------------------------------- boundary extensions (last axis)
def _mirror(x, n):
    """x's n points after the first and before the last, each run reversed (reflect padding)."""
    return jnp.flip(x[..., 1:n + 1], -1), jnp.flip(x[..., -n - 1:-1], -1)


def _extend_even(x, n):
    left, right = _mirror(x, n)
    return jnp.concatenate([left, x, right], -1)


def _extend_odd(x, n):
    if n > x.shape[-1] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. "
                         f"It must not exceed x.shape[axis]-1, which is {x.shape[-1] - 1}.")
    left, right = _mirror(x, n)
    return jnp.concatenate([2 * x[..., :1] - left, x, 2 * x[..., -1:] - right], -1)


def _extend_constant(x, n):
    edge = lambda e: jnp.broadcast_to(e, (*x.shape[:-1], n))   # noqa: E731
    return jnp.concatenate([edge(x[..., :1]), x, edge(x[..., -1:])], -1)


def _extend_zeros(x, n):
    return jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)])


_BOUNDARIES = {"even": _extend_even, "odd": _extend_odd, "constant": _extend_constant,
               "zeros": _extend_zeros, None: lambda x, n: x}


def _zero_pad_end(x, n):
    return jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n)])


# ---------------------------------------------------------------- the shared helper
def _detrend_function(detrend_type, axis):
    from .signal import detrend
    if isinstance(detrend_type, str):
        return lambda d: detrend(d, axis=-1, type=detrend_type)
    if callable(detrend_type):
        if axis == -1:
            return detrend_type
        # JAX hands the callable segments with the time axis moved back where the user had it.
        return lambda d: jnp.moveaxis(detrend_type(jnp.moveaxis(d, axis, -1)), -1, axis)
    if not detrend_type:
        return lambda d: d
    raise ValueError(f"Unsupported detrend type: {detrend_type}")


def _segment_ffts(x, win, detrend_func, nperseg, noverlap, nfft, twosided):
    """FFTs of the detrended, windowed segments of x's last axis: shape (..., segments, freqs)."""
    if jnp.issubdtype(x.dtype, jnp.integer):
        x = x.astype(win.dtype)
    starts = _np.arange(0, x.shape[-1] - nperseg + 1, nperseg - noverlap)
    segments = x[..., starts[:, None] + _np.arange(nperseg)]
    segments = detrend_func(segments)
    if jnp.iscomplexobj(win) and not jnp.iscomplexobj(segments):
        segments = segments.astype(win.dtype)
    segments = win * segments
    return jnp.fft.fft(segments, n=nfft) if twosided else jnp.fft.rfft(segments.real, n=nfft)


def _as_int(value, what):
    try:
        return int(value)
    except Exception as err:
        raise TypeError(f"{what} must be a concrete Python integer, got {value!r}") from err


def _spectral_helper(x, y, fs, window, nperseg, noverlap, nfft, detrend_type, return_onesided,
                     scaling, axis, mode, boundary=None, padded=False):
    """Frequencies, segment times and the per-segment spectra (x alone, or x against y)."""
    if boundary not in _BOUNDARIES:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARIES)}")
    axis = _as_int(axis, "axis of windowed-FFT")
    x = jnp.asarray(x)
    if not -x.ndim <= axis < max(x.ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {x.ndim}")
    axis %= max(x.ndim, 1)
    if y is None:
        (x,) = jnp._promote_dtypes_inexact(x)
        outer = x.shape[:axis] + x.shape[axis + 1:]
    else:
        x, y = jnp._promote_dtypes_inexact(x, jnp.asarray(y))
        if x.ndim != y.ndim:
            raise ValueError(f"two-arguments must have the same rank ({x.ndim} vs {y.ndim}).")
        try:
            outer = _np.broadcast_shapes(x.shape[:axis] + x.shape[axis + 1:], y.shape[:axis] + y.shape[axis + 1:])
        except ValueError as err:
            raise ValueError("x and y cannot be broadcast together.") from err
    complex_dtype = jnp.result_type(x.dtype, jnp.complex64)
    real_dtype = jnp.finfo(complex_dtype).dtype

    if nperseg is not None:
        nperseg = _as_int(nperseg, "nperseg of windowed-FFT")
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _window_and_length(window, nperseg, x.shape[axis], x.dtype)
    noverlap = nperseg // 2 if noverlap is None else _as_int(noverlap, "noverlap of windowed-FFT")
    nfft = nperseg if nfft is None else _as_int(nfft, "nfft of windowed-FFT")

    if x.size == 0 or (y is not None and y.size == 0):
        shape = x.shape if y is None else outer[:axis] + (min(x.shape[axis], y.shape[axis]),) + outer[axis:]
        return jnp.zeros(shape, real_dtype), jnp.zeros(shape, real_dtype), jnp.zeros(shape, complex_dtype)

    x = jnp.moveaxis(x, axis, -1)
    if y is not None:
        y = jnp.moveaxis(y, axis, -1)
        longest = max(x.shape[-1], y.shape[-1])
        x, y = _zero_pad_end(x, longest - x.shape[-1]), _zero_pad_end(y, longest - y.shape[-1])
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap

    extend = _BOUNDARIES[boundary]
    x = extend(x, nperseg // 2)
    y = None if y is None else extend(y, nperseg // 2)
    if padded:   # a whole number of segments: length nperseg + k * nstep
        missing = (-(x.shape[-1] - nperseg) % nstep) % nperseg
        x = _zero_pad_end(x, missing)
        y = None if y is None else _zero_pad_end(y, missing)

    detrend_func = _detrend_function(detrend_type, axis)
    scales = {"density": lambda: 1.0 / (fs * (win * win).sum()), "spectrum": lambda: 1.0 / win.sum() ** 2}
    if scaling not in scales:
        raise ValueError(f"Unknown scaling: {scaling}")
    scale = scales[scaling]()
    if mode == "stft":
        scale = jnp.sqrt(scale)

    twosided = not return_onesided
    if return_onesided and (jnp.iscomplexobj(x) or (y is not None and jnp.iscomplexobj(y))):
        twosided = True
        warnings.warn("Input data is complex, switching to return_onesided=False")
    freqs = (jnp.fft.fftfreq if twosided else jnp.fft.rfftfreq)(nfft, 1 / fs, dtype=real_dtype)

    spectra = _segment_ffts(x, win, detrend_func, nperseg, noverlap, nfft, twosided)
    if y is not None:
        spectra = jnp.conj(spectra) * _segment_ffts(y, win, detrend_func, nperseg, noverlap, nfft, twosided)
    elif mode == "psd":
        spectra = jnp.conj(spectra) * spectra
    spectra = spectra * scale
    if mode == "psd" and not twosided:   # fold the negative frequencies onto the positive ones
        doubled = slice(1, None if nfft % 2 else -1)
        spectra = spectra.at[..., doubled].mul(2)

    times = jnp.asarray(_np.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nstep), real_dtype) / fs
    if boundary is not None:
        times = times - (nperseg / 2) / fs
    spectra = spectra.astype(complex_dtype)
    if y is None and mode != "stft":
        spectra = spectra.real
    return freqs, times, jnp.moveaxis(spectra, -1, axis)


# ---------------------------------------------------------------- public functions
def stft(x, fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None, detrend=False,
         return_onesided=True, boundary="zeros", padded=True, axis=-1):
    """Short-time Fourier transform of x along axis: (f, t, Zxx), Zxx complex with the
    frequencies at `axis` and the segments last."""
    return _spectral_helper(x, None, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                            "spectrum", axis, "stft", boundary, padded)


def _median_bias(n):
    """How much the median of n periodograms underestimates their mean (FINDCHIRP, appendix B)."""
    evens = _np.arange(2.0, n, 2)
    return 1 + _np.sum(1.0 / (evens + 1) - 1.0 / evens)


def _average_segments(pxy, average):
    if average == "median":
        bias = _median_bias(pxy.shape[-1])
        if jnp.iscomplexobj(pxy):
            med = jnp.median(pxy.real, axis=-1) + 1j * jnp.median(pxy.imag, axis=-1)
        else:
            med = jnp.median(pxy, axis=-1)
        return med / jnp.asarray(bias, pxy.dtype)
    if average == "mean":
        return pxy.mean(axis=-1)
    raise ValueError(f'average must be "median" or "mean", got {average}')


def csd(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
        return_onesided=True, scaling="density", axis=-1, average="mean"):
    """Cross power spectral density of x and y by Welch's method: (f, Pxy), Pxy complex
    (y=None: x against itself, real)."""
    freqs, _, pxy = _spectral_helper(x, y, fs, window, nperseg, noverlap, nfft, detrend,
                                     return_onesided, scaling, axis, "psd")
    if y is not None:
        pxy = pxy + 0j
    if pxy.ndim >= 2 and pxy.size > 0:
        pxy = _average_segments(pxy, average) if pxy.shape[-1] > 1 else pxy.reshape(pxy.shape[:-1])
    return freqs, pxy


def welch(x, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
          return_onesided=True, scaling="density", axis=-1, average="mean"):
    """Power spectral density of x by Welch's method (averaged windowed periodograms): (f, Pxx)."""
    freqs, pxx = csd(x, None, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                     detrend=detrend, return_onesided=return_onesided, scaling=scaling, axis=axis,
                     average=average)
    return freqs, pxx.real


def _overlap_add(frames, step):
    """Sum frames (..., n, length) into one signal, frame i starting at i * step.

    Each frame is cut into `step`-long chunks; chunk k of frame i lands on output chunk i + k, so
    the output is a sum of a few shifted (n, step) blocks: dense adds, no scatter."""
    nframes, length = frames.shape[-2:]
    nchunks = -(-length // step)
    batch = frames.shape[:-2]
    chunks = jnp.pad(frames, [(0, 0)] * len(batch) + [(0, 0), (0, nchunks * step - length)])
    chunks = chunks.reshape((*batch, nframes, nchunks, step))
    out = sum(jnp.pad(chunks[..., k, :], [(0, 0)] * len(batch) + [(k, nchunks - 1 - k), (0, 0)])
              for k in range(nchunks))
    out = out.reshape((*batch, (nframes + nchunks - 1) * step))
    return out[..., :step * (nframes - 1) + length]


def istft(Zxx, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, input_onesided=True,
          boundary=True, time_axis=-1, freq_axis=-2):
    """Inverse of stft by windowed overlap-add: (t, x)."""
    Zxx = jnp.asarray(Zxx)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    freq_axis, time_axis = freq_axis % Zxx.ndim, time_axis % Zxx.ndim
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    Zxx = Zxx.astype(jnp.result_type(Zxx.dtype, jnp.complex64))
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    nperseg = _as_int(nperseg or n_default, "nperseg: segment length of STFT")
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft_int = n_default + (1 if input_onesided and nperseg == n_default + 1 else 0)
    else:
        nfft_int = _as_int(nfft, "nfft of STFT")
    if nfft_int < nperseg:
        raise ValueError(f"FFT length ({nfft_int}) must be longer than nperseg ({nperseg}).")
    noverlap = _as_int(noverlap or nperseg // 2, "noverlap of STFT")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")

    # Frames along the last axis but one, frequencies last: the inverse FFT then yields the
    # (..., frames, nperseg) layout that overlap-add wants.
    outer = tuple(i for i in range(Zxx.ndim) if i not in (time_axis, freq_axis))
    Zxx = jnp.transpose(Zxx, outer + (time_axis, freq_axis))
    inverse = jnp.fft.irfft if input_onesided else jnp.fft.ifft
    # JAX passes the user's nfft (not the inferred one) to the inverse FFT.
    segments = inverse(Zxx, n=nfft, axis=-1)[..., :nperseg]

    if isinstance(window, (str, tuple)):
        win = _named_window(window, nperseg, segments.dtype)
    else:
        win = jnp.asarray(window)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    segments = segments * win.sum()        # undoes stft's 'spectrum' scaling
    x = _overlap_add(segments * win, nperseg - noverlap)
    norm = _overlap_add(jnp.broadcast_to(win * win, (segments.shape[-2], nperseg)), nperseg - noverlap)
    if boundary:
        half = nperseg // 2
        x, norm = x[..., half:-half], norm[..., half:-half]
    x = x / jnp.where(norm > 1e-10, norm, 1.0)

    if x.ndim > 1 and time_axis != Zxx.ndim - 1:
        x = jnp.moveaxis(x, -1, time_axis - 1 if freq_axis < time_axis else time_axis)
    # JAX counts the times along the result's first axis (the signal itself only for 1-d input).
    times = jnp.arange(x.shape[0], dtype=jnp.finfo(x.dtype).dtype) / fs
    return times, x
