"""bfloat16 without ml_dtypes (as in the page: ml_dtypes has no Pyodide build).

The engine must import, float16 must still work, and every use of bfloat16 must raise
NotImplementedError saying why, never compute silently in float32 (what gradpad did before).
"""
import subprocess
import sys

PROBE = r"""
import sys
sys.modules["ml_dtypes"] = None          # `import ml_dtypes` raises ImportError, as in Pyodide
import core as jax, core.numpy as jnp
# JAX: jnp.ones(2, jnp.float16) + 1.0 -> Array([2., 2.], dtype=float16)
r = jnp.ones(2, jnp.float16) + 1.0
assert r.dtype == jnp.float16 and r.tolist() == [2.0, 2.0], r
for use in (lambda: jnp.ones(2, jnp.bfloat16), lambda: jnp.bfloat16(1.0),
            lambda: jnp.zeros(2).astype(jnp.bfloat16), lambda: jax.dtypes.bfloat16(1.0)):
    try:
        use()
    except NotImplementedError as e:
        assert "ml_dtypes" in str(e) and "Pyodide" in str(e), e
    else:
        raise AssertionError("bfloat16 without ml_dtypes did not raise")
print("ok")
"""


def test_bfloat16_without_ml_dtypes_raises_clearly():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
