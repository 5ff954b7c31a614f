"""`jax.experimental.rnn`: LSTMs with cuDNN's flat weight layout.

The weights are one flat vector, laid out as cuDNN (and PyTorch's nn.LSTM) keep them: for every
pseudo-layer (layer l, direction d; index l * num_directions + d) the input matrix W_ih (4H, in) and
the recurrent matrix W_hh (4H, H), then for every pseudo-layer the biases b_ih and b_hh (4H,); the four
gate blocks of each are input, forget, cell, output. `in` is input_size for the first layer and
num_directions * H after it.

`lstm_ref` runs the recurrence with `lax.scan` (batch-first x, per-example `seq_lengths`: outputs past
a sequence's end are 0 and its final state is the one at its last step; the backward direction reads
each sequence reversed within its length). `lstm` is JAX's cuDNN call (GPU only: JAX 0.10.2 fails on
CPU); here it computes the same recurrence through `lstm_ref`, without dropout.
"""
from __future__ import annotations

import math

import numpy as np

from .. import lax
from .. import numpy as jnp
from .. import random
from ..nn import sigmoid

__all__ = ["get_num_params_in_lstm", "init_lstm_weight", "lstm", "lstm_ref", "swap_lstm_gates", "unpack_lstm_weights"]


def _shapes(input_size, hidden_size, num_layers, bidirectional):
    """The flat vector's pieces in order: all (W_ih, W_hh) pairs, then all (b_ih, b_hh) pairs."""
    nd = 2 if bidirectional else 1
    mats, biases = [], []
    for p in range(num_layers * nd):
        fan_in = input_size if p < nd else nd * hidden_size
        mats += [(4 * hidden_size, fan_in), (4 * hidden_size, hidden_size)]
        biases += [(4 * hidden_size,), (4 * hidden_size,)]
    return mats + biases


def get_num_params_in_lstm(input_size: int, hidden_size: int, num_layers: int, bidirectional: bool) -> int:
    """How many numbers the flat weight vector holds."""
    return sum(math.prod(s) for s in _shapes(input_size, hidden_size, num_layers, bidirectional))


def init_lstm_weight(rng, input_size: int, hidden_size: int, num_layers: int, bidirectional: bool):
    """A flat weight vector drawn from U(-k, k), k = sqrt(1 / hidden_size)."""
    n = get_num_params_in_lstm(input_size, hidden_size, num_layers, bidirectional)
    k = np.sqrt(1.0 / hidden_size)
    return random.uniform(rng, shape=(n,), dtype=jnp.float32, minval=-k, maxval=k)


def _pieces(weights, shapes):
    out, at = [], 0
    for s in shapes:
        n = math.prod(s)
        out.append(weights[at:at + n].reshape(s))
        at += n
    return out


def unpack_lstm_weights(weights, input_size: int, hidden_size: int, num_layers: int, bidirectional: bool):
    """(W_ih, W_hh, b_ih, b_hh): dicts from pseudo-layer index to that layer's matrix/bias."""
    pieces = _pieces(weights, _shapes(input_size, hidden_size, num_layers, bidirectional))
    n = num_layers * (2 if bidirectional else 1)
    mats, biases = pieces[:2 * n], pieces[2 * n:]
    return ({p: mats[2 * p] for p in range(n)}, {p: mats[2 * p + 1] for p in range(n)},
            {p: biases[2 * p] for p in range(n)}, {p: biases[2 * p + 1] for p in range(n)})


def swap_lstm_gates(weights, input_size, hidden_size, num_layers, bidirectional):
    """The flat weights with the last two gate blocks (cell, output) of every piece exchanged."""
    weights = jnp.asarray(weights)
    out = []
    for piece in _pieces(weights, _shapes(input_size, hidden_size, num_layers, bidirectional)):
        q = piece.shape[0] // 4
        out.append(jnp.concatenate([piece[:2 * q], piece[3 * q:], piece[2 * q:3 * q]], axis=0).reshape(-1))
    return jnp.concatenate(out) if out else weights


def _run_direction(xs, h0, c0, w_ih, w_hh, b_ih, b_hh, lengths):
    """One direction over time-first xs (T, B, in): (outputs (T, B, H) zero past each length, h_T, c_T)."""
    def step(carry, x):
        h, c = carry
        z = x @ w_ih.T + b_ih[None] + h @ w_hh.T + b_hh[None]
        i, f, g, o = jnp.split(z, 4, axis=-1)
        c = sigmoid(f) * c + sigmoid(i) * jnp.tanh(g)
        h = sigmoid(o) * jnp.tanh(c)
        return (h, c), (h, c)
    _, (hs, cs) = lax.scan(step, (h0, c0), xs)
    batch = jnp.arange(xs.shape[1])
    last = lengths - 1
    alive = jnp.arange(xs.shape[0], dtype=jnp.int32)[:, None] < lengths[None]
    return jnp.where(alive[..., None], hs, 0), hs[last, batch], cs[last, batch]


def _reverse_within(xs, lengths):
    """Each sequence (axis 1) reversed over its first `length` steps, padding kept at the end."""
    steps = xs.shape[0]
    # step t of sequence b reads step (length_b - 1 - t) mod T: the reversed sequence, then its padding
    idx = (lengths[None, :] - 1 - jnp.arange(steps, dtype=jnp.int32)[:, None]) % steps
    return xs[idx, jnp.arange(xs.shape[1])[None, :]]


def lstm_ref(x, h_0, c_0, W_ih, W_hh, b_ih, b_hh, seq_lengths, input_size: int, hidden_size: int,
             num_layers: int, dropout: float, bidirectional: bool):
    """The LSTM on batch-first x (B, T, input_size): (y (B, T, nd * H), h_n, c_n (nd * layers, B, H))."""
    if seq_lengths.dtype != jnp.dtype("int32"):
        raise NotImplementedError("`seq_lengths` can only be int32.")
    if dropout != 0.0:
        raise NotImplementedError("Dropout not supported in LSTM reference because we cannot determine CUDNN "
                                  "dropout mask.")
    nd = 2 if bidirectional else 1
    seq = jnp.swapaxes(x, 0, 1)
    hs, cs = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(nd):
            p = layer * nd + d
            xs = seq if d == 0 else _reverse_within(seq, seq_lengths)
            y, h, c = _run_direction(xs, h_0[p], c_0[p], W_ih[p], W_hh[p], b_ih[p], b_hh[p], seq_lengths)
            outs.append(y if d == 0 else _reverse_within(y, seq_lengths))
            hs.append(h)
            cs.append(c)
        seq = outs[0] if nd == 1 else jnp.concatenate(outs, axis=-1)
    return jnp.swapaxes(seq, 0, 1), jnp.stack(hs), jnp.stack(cs)


def lstm(x, h_0, c_0, weights, seq_lengths, input_size: int, hidden_size: int, num_layers: int, dropout: float,
         bidirectional: bool, precision=None):
    """JAX's cuDNN LSTM on the flat weights: here through lstm_ref (same layout and results, no dropout)."""
    if dropout != 0.0:
        raise NotImplementedError(f"jax.experimental.rnn.lstm with dropout={dropout}: cuDNN draws its own dropout "
                                  "masks; gradpad computes the LSTM through lstm_ref, which has no dropout")
    w_ih, w_hh, b_ih, b_hh = unpack_lstm_weights(weights, input_size, hidden_size, num_layers, bidirectional)
    return lstm_ref(x, h_0, c_0, w_ih, w_hh, b_ih, b_hh, seq_lengths, input_size, hidden_size, num_layers, 0.0,
                    bidirectional)
