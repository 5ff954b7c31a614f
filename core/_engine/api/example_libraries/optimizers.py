"""`jax.example_libraries.optimizers`: first-order optimizers as (init, update, get_params) triples.

An optimizer is written for one array (`init(x) -> state`, `update(i, g, state) -> state`,
`get_params(state) -> x`); the `optimizer` decorator lifts it to pytrees of parameters. The lifted
state is an `OptimizerState` pytree: the flattened per-leaf states, the parameters' treedef, and
each leaf state's treedef, so it passes through jit and lax control flow like any pytree.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, NamedTuple

from ...libraries import numpy as jnp
from ...base.tree_util import register_pytree_node, tree_flatten, tree_leaves, tree_map, tree_unflatten

Schedule = Callable
Step = int


class OptimizerState(NamedTuple):
    packed_state: Any
    tree_def: Any
    subtree_defs: Any


# a pytree node whose aux data are the treedefs: only the packed arrays are leaves
register_pytree_node(OptimizerState, lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
                     lambda aux, kids: OptimizerState(kids[0], aux[0], aux[1]))


class Optimizer(NamedTuple):
    init_fn: Callable
    update_fn: Callable
    params_fn: Callable


def optimizer(opt_maker):
    """Lift a single-array optimizer maker to one that works on pytrees of parameters."""
    @functools.wraps(opt_maker)
    def tree_opt_maker(*args, **kwargs):
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree):
            x0_flat, tree = tree_flatten(x0_tree)
            states = [tree_flatten(init(x0)) for x0 in x0_flat]
            packed = tuple(s for s, _ in states)
            return OptimizerState(packed, tree, tuple(d for _, d in states))

        @functools.wraps(update)
        def tree_update(i, grad_tree, opt_state):
            packed, tree, subtrees = opt_state
            grad_flat, tree2 = tree_flatten(grad_tree)
            if tree2 != tree:
                raise TypeError("optimizer update function was passed a gradient tree that did not match "
                                f"the parameter tree structure with which it was initialized: parameter "
                                f"tree {tree} and grad tree {tree2}.")
            states = [tree_unflatten(d, s) for d, s in zip(subtrees, packed)]
            new = [tree_flatten(update(i, g, s)) for g, s in zip(grad_flat, states)]
            return OptimizerState(tuple(s for s, _ in new), tree, tuple(d for _, d in new))

        @functools.wraps(get_params)
        def tree_get_params(opt_state):
            packed, tree, subtrees = opt_state
            states = [tree_unflatten(d, s) for d, s in zip(subtrees, packed)]
            return tree_unflatten(tree, [get_params(s) for s in states])
        return Optimizer(tree_init, tree_update, tree_get_params)
    return tree_opt_maker


# ---- the optimizers (one array each) ------------------------------------------------------

@optimizer
def sgd(step_size):
    step_size = make_schedule(step_size)
    return (lambda x0: x0), (lambda i, g, x: x - step_size(i) * g), (lambda x: x)


@optimizer
def momentum(step_size, mass):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * velocity, velocity
    return (lambda x0: (x0, jnp.zeros_like(x0))), update, (lambda state: state[0])


@optimizer
def nesterov(step_size, mass):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * (mass * velocity + g), velocity
    return (lambda x0: (x0, jnp.zeros_like(x0))), update, (lambda state: state[0])


@optimizer
def adagrad(step_size, momentum=0.9):
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        g_sq_inv_sqrt = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * g_sq_inv_sqrt) + momentum * m
        return x - step_size(i) * m, g_sq, m
    return init, update, (lambda state: state[0])


@optimizer
def rmsprop(step_size, gamma=0.9, eps=1e-8):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq_grad + eps), avg_sq_grad
    return (lambda x0: (x0, jnp.zeros_like(x0))), update, (lambda state: state[0])


@optimizer
def rmsprop_momentum(step_size, gamma=0.9, eps=1e-8, momentum=0.9):
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, avg_sq_grad, mom = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq_grad + eps)
        return x - mom, avg_sq_grad, mom
    return init, update, (lambda state: state[0])


@optimizer
def adam(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """Adam (Kingma and Ba): bias-corrected first and second moment estimates."""
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        t = jnp.asarray(i, m.dtype) + 1
        m_hat = m / (1 - jnp.asarray(b1, m.dtype) ** t)
        v_hat = v / (1 - jnp.asarray(b2, m.dtype) ** t)
        return x - step_size(i) * m_hat / (jnp.sqrt(v_hat) + eps), m, v
    return init, update, (lambda state: state[0])


@optimizer
def adamax(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """Adamax: Adam with the infinity norm in place of the second moment."""
    step_size = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        t = jnp.asarray(i, m.dtype) + 1
        return x - (step_size(i) / (1 - jnp.asarray(b1, m.dtype) ** t)) * m / (u + eps), m, u
    return init, update, (lambda state: state[0])


@optimizer
def sm3(step_size, momentum=0.9):
    """SM3 (Anil et al.): one accumulator per axis; each entry's second-moment estimate is the
    minimum over its axes' accumulators."""
    step_size = make_schedule(step_size)

    def splice(seq, i, x):
        lst = list(seq)
        lst[i:i + 1] = x
        return lst

    def broadcast_into(ndim, x, axis):
        idx = splice([None] * ndim, axis, [slice(None)])
        return x[tuple(idx)]

    def init(x0):
        x_shape = x0.shape
        x0 = jnp.atleast_1d(x0)
        vs = [jnp.zeros(sz, dtype=x0.dtype) for sz in x0.shape]
        return x0, jnp.zeros_like(x0), vs, x_shape

    def update(i, g, state):
        x, m, vs, x_shape = state
        vs = [broadcast_into(g.ndim, v, a) for a, v in enumerate(vs)]
        accum = functools.reduce(jnp.minimum, vs) + jnp.square(g)
        accum_inv_sqrt = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = (1.0 - momentum) * (g * accum_inv_sqrt) + momentum * m
        x = x - step_size(i) * m
        vs = [accum.max(splice(range(x.ndim), j, [])) for j in range(x.ndim)]
        return x, m, vs, x_shape
    return init, update, (lambda state: state[0].reshape(state[3]))


# ---- learning-rate schedules ----------------------------------------------------------------

def constant(step_size) -> Schedule:
    return lambda i: step_size


def exponential_decay(step_size, decay_steps, decay_rate):
    return lambda i: step_size * decay_rate ** (i / decay_steps)


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase=False):
    if staircase:
        return lambda i: step_size / (1 + decay_rate * jnp.floor(i / decay_steps))
    return lambda i: step_size / (1 + decay_rate * i / decay_steps)


def polynomial_decay(step_size, decay_steps, final_step_size, power=1.0):
    def schedule(step_num):
        step_num = jnp.minimum(step_num, decay_steps)
        step_mult = (1 - step_num / decay_steps) ** power
        return step_mult * (step_size - final_step_size) + final_step_size
    return schedule


def piecewise_constant(boundaries, values):
    boundaries = jnp.array(boundaries)
    values = jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")
    return lambda i: values[jnp.sum(i > boundaries)]


def make_schedule(scalar_or_schedule) -> Schedule:
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


# ---- utilities ------------------------------------------------------------------------------

def l2_norm(tree):
    """The l2 norm of all the leaves of a pytree together."""
    leaves = tree_leaves(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree, max_norm):
    """Scale the gradient pytree down so its l2 norm is at most max_norm."""
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


class JoinPoint:
    """Marks where a parameter leaf's own state subtree starts in an unpacked optimizer state."""

    def __init__(self, subtree):
        self.subtree = subtree

    def __iter__(self):  # (JAX's unpacked states are compared as sequences in tests)
        yield self.subtree


def unpack_optimizer_state(opt_state):
    """The optimizer state as a pytree of plain values (for saving): JoinPoints at the leaves."""
    states, tree_def, subtree_defs = opt_state
    subtrees = [JoinPoint(tree_unflatten(d, s)) for d, s in zip(subtree_defs, states)]
    return tree_unflatten(tree_def, subtrees)


def pack_optimizer_state(marked_pytree):
    """The inverse of unpack_optimizer_state."""
    sentinels, tree_def = tree_flatten(marked_pytree, is_leaf=lambda x: isinstance(x, JoinPoint))
    if not all(isinstance(s, JoinPoint) for s in sentinels):
        raise TypeError("pack_optimizer_state expects a pytree whose leaves are JoinPoints")
    subtrees = [s.subtree for s in sentinels]
    states, subtree_defs = zip(*[tree_flatten(s) for s in subtrees]) if subtrees else ((), ())
    return OptimizerState(tuple(states), tree_def, tuple(subtree_defs))


__all__ = ["JoinPoint", "Optimizer", "OptimizerState", "adagrad", "adam", "adamax", "clip_grads", "constant",
           "exponential_decay", "inverse_time_decay", "l2_norm", "make_schedule", "momentum", "nesterov",
           "optimizer", "pack_optimizer_state", "piecewise_constant", "polynomial_decay", "rmsprop",
           "rmsprop_momentum", "sgd", "sm3", "unpack_optimizer_state"]
