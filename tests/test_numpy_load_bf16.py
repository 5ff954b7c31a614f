"""jnp.load restores bfloat16 arrays that np.save wrote as 2-byte voids (JAX 0.10.2's jnp.load docstring)."""
import io

import numpy as np

import core.numpy as jnp


def test_load_bfloat16_round_trip():
    # JAX: f = io.BytesIO(); jnp.save(f, jnp.array([2, 4, 6, 8], dtype='bfloat16')); f.seek(0)
    #      jnp.load(f) -> Array([2, 4, 6, 8], dtype=bfloat16)
    f = io.BytesIO()
    jnp.save(f, jnp.array([2, 4, 6, 8], dtype="bfloat16"))
    f.seek(0)
    out = jnp.load(f)
    assert str(out.dtype) == "bfloat16"
    assert np.asarray(out, np.float32).tolist() == [2.0, 4.0, 6.0, 8.0]


def test_load_other_dtypes_unchanged():
    # JAX: jnp.load of an np.save'd float32 array -> Array([0., 1., 2.], dtype=float32)
    f = io.BytesIO()
    np.save(f, np.arange(3, dtype=np.float32))
    f.seek(0)
    out = jnp.load(f)
    assert str(out.dtype) == "float32" and np.asarray(out).tolist() == [0.0, 1.0, 2.0]
