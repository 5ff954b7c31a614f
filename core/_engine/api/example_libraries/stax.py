"""`jax.example_libraries.stax`: neural networks as (init_fun, apply_fun) pairs.

`init_fun(rng, input_shape) -> (output_shape, params)` and `apply_fun(params, inputs, **kwargs)`;
combinators (`serial`, `parallel`, `FanOut`, ...) build networks from layers. Layers draw their
parameters with jax.nn.initializers and split the key as JAX's stax does, so a seeded network's
weights are JAX's.
"""
from __future__ import annotations

import functools
import math

from ...lax import lax
from ...libraries import random
from ...libraries import numpy as jnp
from ...libraries.nn import elu, gelu, leaky_relu, log_softmax, relu, selu, sigmoid, softmax, softplus, standardize  # noqa: F401
from ...libraries.nn.initializers import glorot_normal, normal, ones, zeros

logsoftmax = log_softmax  # (the name stax exported first)
glorot = glorot_normal
randn = normal


# ---- layers ------------------------------------------------------------------------------

def Dense(out_dim, W_init=glorot_normal(), b_init=normal()):
    """A fully connected layer: inputs @ W + b."""
    def init_fun(rng, input_shape):
        output_shape = input_shape[:-1] + (out_dim,)
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,)))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return jnp.dot(inputs, W) + b
    return init_fun, apply_fun


def _conv_param_shapes(dimension_numbers, out_chan, filter_shape, input_shape):
    """(kernel shape, bias shape) of a convolution layer, in the layouts `dimension_numbers` names."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    filter_shape_iter = iter(filter_shape)
    kernel_shape = [out_chan if c == "O" else input_shape[lhs_spec.index("C")] if c == "I"
                    else next(filter_shape_iter) for c in rhs_spec]
    return kernel_shape, [out_chan if c == "C" else 1 for c in out_spec]


def GeneralConv(dimension_numbers, out_chan, filter_shape, strides=None, padding="VALID", W_init=None,
                b_init=normal(1e-6)):
    """A convolution with the layouts in `dimension_numbers`, e.g. ('NHWC', 'HWIO', 'NHWC')."""
    rhs_spec = dimension_numbers[1]
    one = (1,) * len(filter_shape)
    strides = strides or one
    W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

    def init_fun(rng, input_shape):
        kernel_shape, bias_shape = _conv_param_shapes(dimension_numbers, out_chan, filter_shape, input_shape)
        output_shape = lax.conv_general_shape_tuple(input_shape, kernel_shape, strides, padding, dimension_numbers)
        k1, k2 = random.split(rng)
        W, b = W_init(k1, kernel_shape), b_init(k2, bias_shape)
        return output_shape, (W, b)

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return lax.conv_general_dilated(inputs, W, strides, padding, one, one,
                                        dimension_numbers=dimension_numbers) + b
    return init_fun, apply_fun


Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))


def GeneralConvTranspose(dimension_numbers, out_chan, filter_shape, strides=None, padding="VALID", W_init=None,
                         b_init=normal(1e-6)):
    """A transposed convolution (the gradient of a convolution, used to upsample)."""
    rhs_spec = dimension_numbers[1]
    one = (1,) * len(filter_shape)
    strides = strides or one
    W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

    def init_fun(rng, input_shape):
        kernel_shape, bias_shape = _conv_param_shapes(dimension_numbers, out_chan, filter_shape, input_shape)
        output_shape = lax.conv_transpose_shape_tuple(input_shape, kernel_shape, strides, padding, dimension_numbers)
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, kernel_shape), b_init(k2, bias_shape))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return lax.conv_transpose(inputs, W, strides, padding, dimension_numbers=dimension_numbers) + b
    return init_fun, apply_fun


Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(axis=(0, 1, 2), epsilon=1e-5, center=True, scale=True, beta_init=zeros, gamma_init=ones):
    """Normalise over `axis` with the batch's own statistics (no running averages, as in stax)."""
    _beta_init = lambda rng, shape: beta_init(rng, shape) if center else ()  # noqa: E731
    _gamma_init = lambda rng, shape: gamma_init(rng, shape) if scale else ()  # noqa: E731
    axis = (axis,) if jnp.isscalar(axis) else axis

    def init_fun(rng, input_shape):
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axis)
        k1, k2 = random.split(rng)
        return input_shape, (_beta_init(k1, shape), _gamma_init(k2, shape))

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        ed = tuple(None if i in axis else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axis, epsilon=epsilon)
        if center and scale:
            return gamma[ed] * z + beta[ed]
        if center:
            return z + beta[ed]
        if scale:
            return gamma[ed] * z
        return z
    return init_fun, apply_fun


def elementwise(fun, **fun_kwargs):
    """A parameter-free layer applying `fun` to each element."""
    return (lambda rng, input_shape: (input_shape, ())), (lambda params, inputs, **kw: fun(inputs, **fun_kwargs))


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _pooling_layer(reducer, init_val, rescaler=None):
    def PoolingLayer(window_shape, strides=None, padding="VALID", spec=None):
        """Pool over windows of the spatial dimensions (NHWC unless `spec` says otherwise)."""
        strides = strides or (1,) * len(window_shape)
        rescale = rescaler(window_shape, strides, padding) if rescaler else None
        if spec is None:
            non_spatial_axes = 0, len(window_shape) + 1
        else:
            non_spatial_axes = spec.index("N"), spec.index("C")
        for i in sorted(non_spatial_axes):
            window_shape = window_shape[:i] + (1,) + window_shape[i:]
            strides = strides[:i] + (1,) + strides[i:]

        def init_fun(rng, input_shape):
            padding_vals = lax.padtype_to_pads(input_shape, window_shape, strides, padding)
            ones_ = (1,) * len(window_shape)
            out_shape = lax.reduce_window_shape_tuple(input_shape, window_shape, strides, padding_vals, ones_, ones_)
            return out_shape, ()

        def apply_fun(params, inputs, **kwargs):
            out = lax.reduce_window(inputs, init_val, reducer, window_shape, strides, padding)
            return rescale(out, inputs, spec) if rescale else out
        return init_fun, apply_fun
    return PoolingLayer


MaxPool = _pooling_layer(lax.max, -jnp.inf)
SumPool = _pooling_layer(lax.add, 0.0)


def _normalize_by_window_size(dims, strides, padding):
    def rescale(outputs, inputs, spec):
        if spec is None:
            non_spatial_axes = 0, inputs.ndim - 1
        else:
            non_spatial_axes = spec.index("N"), spec.index("C")
        spatial_shape = tuple(inputs.shape[i] for i in range(inputs.ndim) if i not in non_spatial_axes)
        one = jnp.ones(spatial_shape, dtype=inputs.dtype)
        window_sizes = lax.reduce_window(one, 0.0, lax.add, dims, strides, padding)
        for i in sorted(non_spatial_axes):
            window_sizes = jnp.expand_dims(window_sizes, i)
        return outputs / window_sizes
    return rescale


AvgPool = _pooling_layer(lax.add, 0.0, _normalize_by_window_size)


def _flatten_init(rng, input_shape):
    return (input_shape[0], math.prod(input_shape[1:])), ()


def _flatten_apply(params, inputs, **kwargs):
    return jnp.reshape(inputs, (inputs.shape[0], -1))


Flatten = (_flatten_init, _flatten_apply)
Identity = ((lambda rng, input_shape: (input_shape, ())), (lambda params, inputs, **kwargs: inputs))


def FanOut(num):
    """Copy the input `num` times (for parallel branches)."""
    return (lambda rng, input_shape: ([input_shape] * num, ())), (lambda params, inputs, **kw: [inputs] * num)


FanInSum = ((lambda rng, input_shape: (input_shape[0], ())), (lambda params, inputs, **kwargs: sum(inputs)))


def FanInConcat(axis=-1):
    """Concatenate a list of inputs along `axis`."""
    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        concat_size = sum(shape[ax] for shape in input_shape)
        out_shape = input_shape[0][:ax] + (concat_size,) + input_shape[0][ax + 1:]
        return out_shape, ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.concatenate(inputs, axis)
    return init_fun, apply_fun


def Dropout(rate, mode="train"):
    """Keep each input with probability `rate` (stax's `rate` is the keep rate) and rescale."""
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng", None)
        if rng is None:
            raise ValueError("Dropout layer requires apply_fun to be called with a PRNG key argument. That is, "
                             "instead of `apply_fun(params, inputs)`, call it like `apply_fun(params, inputs, rng)` "
                             "where `rng` is a PRNG key (e.g. from `jax.random.key`).")
        if mode == "train":
            keep = random.bernoulli(rng, rate, inputs.shape)
            return jnp.where(keep, inputs / rate, 0)
        return inputs
    return init_fun, apply_fun


# ---- combinators -------------------------------------------------------------------------

def serial(*layers):
    """Layers one after another; each gets its own key, split from the one given."""
    nlayers = len(layers)
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, nlayers) if rng is not None else (None,) * nlayers
        for fun, param, r in zip(apply_funs, params, rngs):
            inputs = fun(param, inputs, rng=r, **kwargs)
        return inputs
    return init_fun, apply_fun


def parallel(*layers):
    """Layers side by side: a list of inputs in, a list of outputs out."""
    nlayers = len(layers)
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        rngs = random.split(rng, nlayers)
        return zip(*[init(r, shape) for init, r, shape in zip(init_funs, rngs, input_shape)])

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, nlayers) if rng is not None else (None,) * nlayers
        return [f(p, x, rng=r, **kwargs) for f, p, x, r in zip(apply_funs, params, inputs, rngs)]
    return init_fun, apply_fun


def shape_dependent(make_layer):
    """A layer built only once the input shape is known: `make_layer(input_shape)`."""
    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)
    return init_fun, apply_fun
