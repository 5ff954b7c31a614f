"""`jax.image`: resize and scale_and_translate. Every spatial dimension whose size changes is
contracted with a (input, output) weight matrix built from the method's kernel (widened by
1/scale when downsampling with antialias, as JAX does); 'nearest' gathers instead."""
from __future__ import annotations

import enum

import numpy as _np

from . import numpy as jnp
from ..tracing.tracing import get_aval


class ResizeMethod(enum.Enum):
    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4

    @staticmethod
    def from_string(s: str):
        names = {"nearest": ResizeMethod.NEAREST, "linear": ResizeMethod.LINEAR, "bilinear": ResizeMethod.LINEAR,
                 "trilinear": ResizeMethod.LINEAR, "triangle": ResizeMethod.LINEAR, "lanczos3": ResizeMethod.LANCZOS3,
                 "lanczos5": ResizeMethod.LANCZOS5, "cubic": ResizeMethod.CUBIC, "bicubic": ResizeMethod.CUBIC,
                 "tricubic": ResizeMethod.CUBIC}
        if s not in names:
            raise ValueError(f'Unknown resize method "{s}"')
        return names[s]


def _triangle(x):
    return jnp.maximum(0, 1 - jnp.abs(x))


def _keys_cubic(x):
    """Keys' cubic kernel with a = -0.5."""
    x = jnp.abs(x)
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return jnp.where(x >= 2.0, 0.0, jnp.where(x >= 1.0, far, near))


def _lanczos(radius):
    def kernel(x):
        y = radius * jnp.sin(_np.pi * x) * jnp.sin(_np.pi * x / radius)
        safe = jnp.where(x == 0, 1.0, x)
        out = jnp.where(x > 1e-3, y / (_np.pi ** 2 * safe ** 2), 1)
        return jnp.where(x > radius, 0.0, out)
    return kernel


_KERNELS = {ResizeMethod.LINEAR: _triangle, ResizeMethod.LANCZOS3: _lanczos(3.0),
            ResizeMethod.LANCZOS5: _lanczos(5.0), ResizeMethod.CUBIC: _keys_cubic}


def _weights(in_size, out_size, scale, translation, kernel, antialias, dtype):
    """(in_size, out_size): how much input sample i contributes to output sample j."""
    inv_scale = 1.0 / scale
    kernel_scale = jnp.maximum(inv_scale, 1.0) if antialias else 1.0
    sample_f = (jnp.arange(out_size, dtype=dtype) + 0.5) * inv_scale - translation * inv_scale - 0.5
    x = jnp.abs(sample_f[None, :] - jnp.arange(in_size, dtype=dtype)[:, None]) / kernel_scale
    w = kernel(x)
    total = jnp.sum(w, axis=0, keepdims=True)
    w = jnp.where(jnp.abs(total) > 1000.0 * float(_np.finfo(_np.float32).eps),
                  w / jnp.where(total != 0, total, 1), 0)
    inside = (sample_f >= -0.5) & (sample_f <= in_size - 0.5)
    return jnp.where(inside[None, :], w, 0).astype(dtype)


def _contract(x, dims, out_shape, scale, translation, kernel, antialias):
    dtype = get_aval(x).dtype
    wdt = dtype if dtype.kind in "fc" else jnp.float32
    for k, d in enumerate(dims):
        w = _weights(get_aval(x).shape[d], out_shape[d], scale[k], translation[k], kernel, antialias,
                     _np.dtype(_np.float64) if wdt == _np.float64 else _np.dtype(_np.float32))
        x = jnp.moveaxis(jnp.tensordot(x, w.astype(wdt), axes=([d], [0])), -1, d)
    return x


def scale_and_translate(image, shape, spatial_dims, scale, translation, method, antialias=True,
                        precision=None):
    shape = tuple(int(s) for s in shape)
    image = jnp.asarray(image)
    if len(shape) != get_aval(image).ndim:
        raise ValueError("shape must have length equal to the number of dimensions of x; "
                         f" {shape} vs {get_aval(image).shape}")
    m = method if isinstance(method, ResizeMethod) else ResizeMethod.from_string(method)
    if m == ResizeMethod.NEAREST:
        raise NotImplementedError("scale_and_translate does not support method='nearest' (as in JAX)")
    if get_aval(image).dtype.kind not in "fc":
        image = image.astype(jnp.float32)
    scale = jnp.asarray(scale, dtype=get_aval(image).dtype)
    translation = jnp.asarray(translation, dtype=get_aval(image).dtype)
    return _contract(image, tuple(spatial_dims), shape, scale, translation, _KERNELS[m], antialias)


def _nearest(x, shape):
    for d, (n_in, n_out) in enumerate(zip(get_aval(x).shape, shape)):
        if n_in == n_out:
            continue
        idx = _np.floor((_np.arange(n_out) + 0.5) * (n_in / n_out)).astype(_np.int32)
        x = jnp.take(x, jnp.asarray(_np.minimum(idx, n_in - 1)), axis=d)
    return x


def resize(image, shape, method, antialias=True, precision=None):
    shape = tuple(int(s) for s in shape)
    image = jnp.asarray(image)
    if len(shape) != get_aval(image).ndim:
        raise ValueError("shape must have length equal to the number of dimensions of x; "
                         f" {shape} vs {get_aval(image).shape}")
    m = method if isinstance(method, ResizeMethod) else ResizeMethod.from_string(method)
    if m == ResizeMethod.NEAREST:
        return _nearest(image, shape)
    in_shape = get_aval(image).shape
    dims = tuple(d for d in range(len(shape)) if in_shape[d] != shape[d])
    if not dims:
        return image
    dtype = get_aval(image).dtype
    if dtype.kind not in "fc":
        image = image.astype(jnp.float32)
    scale = [shape[d] / in_shape[d] for d in dims]
    translation = [0.0] * len(dims)
    return _contract(image, dims, shape, scale, translation, _KERNELS[m], antialias)
