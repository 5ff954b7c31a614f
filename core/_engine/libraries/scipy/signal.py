"""`jax.scipy.signal`: n-d convolution and correlation as a sum of shifted slices of the padded
input (one per kernel element: right for the small kernels of tutorials, and traceable), and
detrend."""
from __future__ import annotations

import itertools


from ...lax import lax
from .. import numpy as jnp
from ...tracing.tracing import get_aval


def _full(in1, in2):
    s1, s2 = get_aval(in1).shape, get_aval(in2).shape
    padded = jnp.pad(in1, [(k - 1, k - 1) for k in s2])
    out_shape = tuple(n + k - 1 for n, k in zip(s1, s2))
    out = jnp.zeros(out_shape, get_aval(in1).dtype)
    for offset in itertools.product(*(range(k) for k in s2)):
        # out[i] += in2[offset] * in1[i - offset]  <=>  padded[i + (k - 1 - offset)]
        start = tuple(k - 1 - o for k, o in zip(s2, offset))
        window = lax.slice(padded, start, tuple(st + n for st, n in zip(start, out_shape)))
        out = out + in2[offset] * window
    return out


def _crop(full, s1, s2, mode):
    if mode == "full":
        return full
    if mode == "same":
        starts = tuple((f - n) // 2 for f, n in zip(get_aval(full).shape, s1))
        return lax.slice(full, starts, tuple(st + n for st, n in zip(starts, s1)))
    if mode == "valid":
        if not (all(a >= b for a, b in zip(s1, s2)) or all(b >= a for a, b in zip(s1, s2))):
            raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
        sizes = tuple(max(a, b) - min(a, b) + 1 for a, b in zip(s1, s2))
        starts = tuple(min(a, b) - 1 for a, b in zip(s1, s2))
        return lax.slice(full, starts, tuple(st + n for st, n in zip(starts, sizes)))
    raise ValueError("mode must be one of ['full', 'same', 'valid']")


def _convolve(name, in1, in2, mode, flip):
    in1, in2 = jnp._promote_dtypes_inexact(jnp.asarray(in1), jnp.asarray(in2))
    if get_aval(in1).ndim != get_aval(in2).ndim:
        raise ValueError("in1 and in2 must have the same number of dimensions")
    s1, s2 = get_aval(in1).shape, get_aval(in2).shape
    if not (all(a >= b for a, b in zip(s1, s2)) or all(a <= b for a, b in zip(s1, s2))):
        raise ValueError("One input must be smaller than the other in every dimension.")  # JAX's, any mode
    if get_aval(in1).ndim == 0:
        return in1 * (jnp.conj(in2) if flip else in2)
    if flip:
        in2 = jnp.conj(jnp.flip(in2))
    return _crop(_full(in1, in2), get_aval(in1).shape, get_aval(in2).shape, mode)


def convolve(in1, in2, mode="full", method="auto", precision=None):
    return _convolve("convolve", in1, in2, mode, False)


def correlate(in1, in2, mode="full", method="auto", precision=None):
    return _convolve("correlate", in1, in2, mode, True)


def _check_2d(name, in1, in2, boundary, fillvalue):
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{name}() only supports boundary='fill', fillvalue=0")
    if jnp.ndim(in1) != 2 or jnp.ndim(in2) != 2:
        raise ValueError(f"{name}() only supports 2-dimensional inputs.")


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    _check_2d("convolve2d", in1, in2, boundary, fillvalue)
    return convolve(in1, in2, mode)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    _check_2d("correlate2d", in1, in2, boundary, fillvalue)
    s1, s2 = jnp.shape(in1), jnp.shape(in2)
    if mode in ("full", "valid") and all(a <= b for a, b in zip(s1, s2)) and (mode == "full" or s1 != s2):
        # JAX's swaps a smaller in1 into a convolution of flip(in2) with conj(in1) (conjugated for
        # 'full'); for complex inputs that differs from correlate's, and gradpad follows JAX
        swapped = convolve(jnp.flip(jnp.asarray(in2)), jnp.conj(jnp.asarray(in1)), mode)
        return jnp.conj(swapped) if mode == "full" else swapped
    if mode != "same":
        return correlate(in1, in2, mode)
    # JAX's 'same' is a flipped 'same' convolution of the flipped in1: its window of the full
    # correlation starts at ceil((full - n) / 2), not floor as correlate's
    full = correlate(in1, in2, "full")
    s1 = jnp.shape(in1)
    starts = tuple(-((n - f) // 2) for f, n in zip(get_aval(full).shape, s1))
    return lax.slice(full, starts, tuple(st + n for st, n in zip(starts, s1)))


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=None):
    if overwrite_data is not None:
        raise NotImplementedError("overwrite_data argument not implemented.")
    if type not in ("constant", "linear"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    (data,) = jnp._promote_dtypes_inexact(jnp.asarray(data))
    if type == "constant":
        return data - jnp.mean(data, axis, keepdims=True)
    if bp != 0:
        raise NotImplementedError("detrend(bp=...) is not supported by gradpad")
    data = jnp.moveaxis(data, axis, -1)
    n = get_aval(data).shape[-1]
    t = jnp.arange(n, dtype=get_aval(data).dtype)
    t_c = t - t.mean()
    slope = jnp.sum((data - data.mean(-1, keepdims=True)) * t_c, axis=-1, keepdims=True) / jnp.sum(t_c * t_c)
    fit = data.mean(-1, keepdims=True) + slope * t_c
    return jnp.moveaxis(data - fit, -1, axis)


# ---- issue 11, area "special" ---------------------------------------------------------------------
from ._signal_fft import fftconvolve  # noqa: E402,F401
# ---- end of area "special" ------------------------------------------------------------------------

# ---- issue 11, area "signal" ----------------------------------------------------------------------
from ._spectral import csd, istft, stft, welch  # noqa: E402,F401
# ---- end of area "signal" -------------------------------------------------------------------------
