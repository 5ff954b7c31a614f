"""jax.nn.dot_product_attention, the 'xla' implementation's semantics: grouped-query heads, bias,
boolean masks, causal and local-window masks, sequence-length padding, the log-sum-exp residual."""
from __future__ import annotations

import numpy as _np

from ...lax import lax
from .. import numpy as jnp


def _ensure_4d(t):
    t = jnp.asarray(t)
    missing = 4 - t.ndim
    return jnp.expand_dims(t, tuple(range(missing))) if missing > 0 else t


def _check(t, shape, dtype, name):
    if t is None:
        return
    if t.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {t.ndim}")
    if dtype is not None and t.dtype != dtype:
        raise ValueError(f"{name} dtype should be {dtype}, but got {t.dtype}")
    if any(want != -1 and got != want for want, got in zip(shape, t.shape)):
        raise ValueError(f"{name} shape should be {shape}: but got {t.shape}")


def _large_negative(dtype):
    """-0.7 * the largest finite value (capped at float32's: softmax runs in float32)."""
    biggest = min(float(jnp.finfo(dtype).max), float(jnp.finfo(_np.float32).max))
    return jnp.asarray(-0.7 * biggest, dtype=dtype)


def _combined_mask(T, S, mask, is_causal, q_seqlen, kv_seqlen, window):
    """One boolean (B|1, N|1, T, S) mask from every masking option, or None when there is none."""
    masks = [] if mask is None else [mask]
    if is_causal:
        masks.append(jnp.tril(jnp.ones((T, S), dtype=bool))[None, None])
    if window is not None:
        left, right = window
        q_pos, k_pos = jnp.arange(T)[:, None], jnp.arange(S)[None, :]
        masks.append(jnp.logical_and(q_pos >= k_pos - right, q_pos <= k_pos + left)[None, None])
    if q_seqlen is not None or kv_seqlen is not None:
        pad = True
        if q_seqlen is not None:
            pad = jnp.arange(T)[None, :, None] < q_seqlen[:, None, None]
        if kv_seqlen is not None:
            pad = jnp.logical_and(pad, jnp.arange(S)[None, None, :] < kv_seqlen[:, None, None])
        masks.append(pad[:, None])
    if not masks:
        return None
    out = masks[0]
    for m in masks[1:]:
        out = jnp.logical_and(out, m)
    return out


def dot_product_attention(query, key, value, bias=None, mask=None, *, scale=None, is_causal=False,
                          query_seq_lengths=None, key_value_seq_lengths=None, local_window_size=None,
                          implementation=None, return_residual=False):
    """softmax(Q K^T * scale + bias, masked) V per head; shapes BTNH (or TNH), key/value BSKH with
    N a multiple of K (grouped-query attention). The softmax runs in float32."""
    output_shape = jnp.asarray(query).shape
    residual_shape = output_shape[:-1]
    q, k, v = _ensure_4d(query), _ensure_4d(key), _ensure_4d(value)
    bias = _ensure_4d(bias) if bias is not None else None
    mask = _ensure_4d(mask) if mask is not None else None
    q_len = jnp.asarray(query_seq_lengths) if query_seq_lengths is not None else None
    kv_len = jnp.asarray(key_value_seq_lengths) if key_value_seq_lengths is not None else None
    if isinstance(local_window_size, int):
        local_window_size = (local_window_size, local_window_size)
    B, S, K, H = k.shape
    _check(v, [B, S, K, H], k.dtype, "value")
    _check(q, [B, -1, -1, H], k.dtype, "query")
    _check(mask, [-1] * 4, _np.dtype(bool), "mask")
    _check(bias, [-1] * 4, None, "bias")
    _check(q_len, [B], _np.dtype("int32"), "query_seq_lengths")
    _check(kv_len, [B], _np.dtype("int32"), "key_value_seq_lengths")
    if q.shape[-2] % K != 0:
        raise ValueError(f"The number of query heads must be a multiple of key/value heads, but got "
                         f"{q.shape[-2]} vs {K}")
    if implementation not in (None, "xla", "cudnn"):
        raise ValueError(f"Unsupported implementation option: {implementation}")
    if implementation == "cudnn":
        raise NotImplementedError("implementation='cudnn' needs cuDNN on an NVIDIA GPU; use implementation='xla' "
                                  "(or None), which computes the same attention.")
    scale = (1.0 / _np.sqrt(H)) if scale is None else scale
    T, N = q.shape[1], q.shape[2]
    G = N // K
    logits_dtype = jnp.promote_types(q.dtype, _np.float32)
    grouped = jnp.reshape(q, (B, T, K, G, H))
    logits = jnp.einsum("BTKGH,BSKH->BKGTS", grouped, k, preferred_element_type=logits_dtype)
    logits = jnp.reshape(logits, (B, N, T, S)) * jnp.array(scale, dtype=logits_dtype)
    if bias is not None:
        logits = (logits + bias).astype(logits_dtype)
    combined = _combined_mask(T, S, mask, is_causal, q_len, kv_len, local_window_size)
    if combined is not None:
        logits = jnp.where(combined, logits, _large_negative(logits_dtype))
    logits32 = logits.astype(_np.float32)
    from . import logsumexp, softmax
    probs = softmax(logits32, axis=-1).astype(k.dtype)
    encoded = jnp.einsum("BKGTS,BSKH->BTKGH", jnp.reshape(probs, (B, K, G, T, S)), v)
    encoded = jnp.reshape(encoded, (B, T, N, H))
    if q_len is not None:
        encoded = encoded * (jnp.arange(T)[None, :] < q_len[:, None])[:, :, None, None].astype(encoded.dtype)
    out = jnp.reshape(encoded, output_shape)
    if not return_residual:
        return out
    lse = jnp.transpose(logsumexp(logits32, axis=-1).astype(k.dtype), (0, 2, 1))  # B N T -> B T N
    return out, jnp.reshape(lax.stop_gradient(lse), residual_shape)
