"""jax.scipy.signal.fftconvolve (issue 11, area "special"): n-d convolution through the FFT."""
from __future__ import annotations

from ...lax import lax
from .. import numpy as jnp


def _fftconvolve_one(in1, in2, mode):
    """The transform-multiply-invert convolution of two same-rank arrays, cropped to mode's
    centre (full: everything; same: in1's shape; valid: where the two overlap completely)."""
    full_shape = tuple(a + b - 1 for a, b in zip(in1.shape, in2.shape))
    if mode == "valid":
        in1_bigger = all(a >= b for a, b in zip(in1.shape, in2.shape))
        in2_bigger = all(a <= b for a, b in zip(in1.shape, in2.shape))
        if not (in1_bigger or in2_bigger):
            raise ValueError("For 'valid' mode, One input must be at least as large as the other in every dimension.")
        if in2_bigger:
            in1, in2 = in2, in1
    if all(a == 1 or b == 1 for a, b in zip(in1.shape, in2.shape)):
        conv = in1 * in2          # an outer product: nothing to transform
    else:
        forward, inverse = (jnp.fft.fftn, jnp.fft.ifftn) if jnp.iscomplexobj(in1) else (jnp.fft.rfftn, jnp.fft.irfftn)
        conv = inverse(forward(in1, full_shape) * forward(in2, full_shape), full_shape)
    out_shape = {"full": full_shape, "same": in1.shape,
                 "valid": tuple(a - b + 1 for a, b in zip(in1.shape, in2.shape))}[mode]
    starts = tuple((f - o) // 2 for f, o in zip(full_shape, out_shape))
    return lax.dynamic_slice(conv, starts, out_shape)


def fftconvolve(in1, in2, mode="full", axes=None):
    in1, in2 = jnp._promote_dtypes_inexact(jnp.asarray(in1), jnp.asarray(in2))
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if mode not in ("same", "full", "valid"):
        raise ValueError("mode must be one of ['same', 'full', 'valid']")
    if axes is None:
        return _fftconvolve_one(in1, in2, mode)
    from ...api.api import vmap  # INHERENT: up to the api
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    axes = tuple(a + in1.ndim if a < 0 else a for a in axes)
    mapped = sorted(set(range(in1.ndim)) - set(axes))
    if any(in1.shape[i] != in2.shape[i] for i in mapped):
        raise ValueError(f"mapped axes must have same shape; got in1.shape={in1.shape} in2.shape={in2.shape} axes={axes}")
    fn = lambda a, b: _fftconvolve_one(a, b, mode)   # noqa: E731
    for ax in mapped:
        fn = vmap(fn, in_axes=ax, out_axes=ax)
    return fn(in1, in2)
