"""`jax.scipy.ndimage`: map_coordinates, sampling an array at fractional coordinates (order 0: the
nearest point; order 1: linear between the 2^ndim neighbours), with scipy's boundary modes."""
from __future__ import annotations

import functools
import itertools
import operator

import numpy as np

from ...lax import lax
from .. import numpy as jnp
from ...api.api import jit  # INHERENT: up to the api


def _mirror(index, size):
    # reflect about the edge points themselves: ... 2 1 | 0 1 2 ... n-1 | n-2 ...
    period = size - 1
    return jnp.abs((index + period) % (2 * period) - period)


def _reflect(index, size):
    # reflect about the half-way points beyond the edges: ... 1 0 | 0 1 ... n-1 | n-1 n-2 ...
    return jnp.floor_divide(_mirror(2 * index + 1, 2 * size + 1) - 1, 2)


# mode -> how an index outside [0, size) is brought back inside (constant: left as is, masked later)
_BOUNDARY = {
    "constant": lambda index, size: index,
    "nearest": lambda index, size: jnp.clip(index, 0, size - 1),
    "wrap": lambda index, size: index % size,
    "mirror": _mirror,
    "reflect": _reflect,
}


def _round(a):
    # lax.round rounds half away from zero (scipy's rule for order 0 and integer outputs)
    return a if jnp.issubdtype(a.dtype, np.integer) else lax.round(a)


def _nearest(coordinate):
    """[(index, weight)] of the one point order 0 reads."""
    return [(_round(coordinate).astype(np.int32), coordinate.dtype.type(1))]


def _linear(coordinate):
    """[(index, weight)] of the two points order 1 mixes: floor(c) and floor(c) + 1."""
    below = jnp.floor(coordinate)
    frac = coordinate - below
    index = below.astype(np.int32)
    return [(index, 1 - frac), (index + 1, frac)]


@functools.partial(jit, static_argnums=(2, 3, 4))
def _map_coordinates(input, coordinates, order, mode, cval):
    values = jnp.asarray(input)
    coords = [jnp.asarray(c) for c in coordinates]
    cval = jnp.asarray(cval, values.dtype)
    if len(coordinates) != values.ndim:
        raise ValueError("coordinates must be a sequence of length input.ndim, but "
                         f"{len(coordinates)} != {values.ndim}")
    fix = _BOUNDARY.get(mode)
    if fix is None:
        raise NotImplementedError(f"jax.scipy.ndimage.map_coordinates does not yet support mode {mode}. "
                                  f"Currently supported modes are {set(_BOUNDARY)}.")
    if order == 0:
        nodes_of = _nearest
    elif order == 1:
        nodes_of = _linear
    else:
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates currently requires order<=1")

    per_axis = []   # for each axis: [(index inside the array, in bounds?, weight)]
    for coordinate, size in zip(coords, values.shape):
        nodes = []
        for index, weight in nodes_of(coordinate):
            in_bounds = (0 <= index) & (index < size) if mode == "constant" else True
            nodes.append((fix(index, size), in_bounds, weight))
        per_axis.append(nodes)

    terms = []
    for corner in itertools.product(*per_axis):
        indices = tuple(node[0] for node in corner)
        in_bounds = [node[1] for node in corner]
        weight = functools.reduce(operator.mul, [node[2] for node in corner])
        if all(b is True for b in in_bounds):
            picked = values[indices]
        else:
            picked = jnp.where(functools.reduce(operator.and_, in_bounds), values[indices], cval)
        terms.append(weight * picked)
    result = functools.reduce(operator.add, terms)
    if jnp.issubdtype(values.dtype, np.integer):
        result = _round(result)
    return result.astype(values.dtype)


def map_coordinates(input, coordinates, order, mode="constant", cval=0.0):
    """The value of `input` at each point of `coordinates` (one array per axis of `input`, all of one
    shape: the output's), by interpolation of `order` 0 or 1. Outside the array, `mode` says what is
    read: 'constant' (cval), 'nearest', 'wrap', 'mirror' or 'reflect' (scipy.ndimage's meanings)."""
    return _map_coordinates(input, coordinates, order, mode, cval)
