"""bfloat16 without ml_dtypes (as in the page: ml_dtypes has no Pyodide build).

The engine then brings its own bfloat16 (core/_engine/base/bf16_emulated.py): float32 storage tagged by a
non-native byte order, rounded to nearest even after every primitive. These tests force that
fallback in CPython and hold it to real JAX 0.10.2's answers: the golden cases that use bfloat16
(recorded from JAX) run against it, and its rounding is compared bit for bit with ml_dtypes'.
"""
import os
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np

from core._engine.base import bf16_emulated

ROOT = Path(__file__).resolve().parents[1]

# the golden cases that touch bfloat16 or the promotion lattice it sits in (recorded from JAX)
GOLDEN_SELECTION = ("bf16 or bfloat16 or f16 or promote or add_ or dt_ or random_uniform or random_normal "
                    "or eager_mixed or jaxpr_ or finfo")


def _fallback_env(**extra):
    return {**os.environ, "GRADPAD_NO_ML_DTYPES": "1", **extra}


def test_golden_bfloat16_cases_pass_on_the_emulated_bfloat16():
    probe = subprocess.run([sys.executable, "-c", "import core.dtypes as d; print(d.EMULATED_BF16)"],
                           capture_output=True, text=True, env=_fallback_env(), cwd=ROOT, timeout=120)
    assert probe.stdout.strip() == "True", probe.stderr[-2000:]
    out = subprocess.run([sys.executable, "-m", "pytest", "tests/test_golden.py", "-q", "-p", "no:cacheprovider",
                          "-k", GOLDEN_SELECTION], capture_output=True, text=True, env=_fallback_env(),
                         cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stdout[-4000:]
    assert " passed" in out.stdout and "deselected" in out.stdout, out.stdout[-2000:]
    assert int(out.stdout.rsplit(" passed", 1)[0].split()[-1]) >= 300, out.stdout[-500:]  # the selection ran


PROBE = r"""
import sys
sys.modules["ml_dtypes"] = None          # `import ml_dtypes` raises ImportError, as in Pyodide
import core as jax, core.numpy as jnp
assert jax.dtypes.EMULATED_BF16
# JAX 0.10.2: jnp.ones(2, jnp.float16) + 1.0 -> Array([2., 2.], dtype=float16) (float16 is numpy's, unchanged)
r = jnp.ones(2, jnp.float16) + 1.0
assert repr(r) == "Array([2., 2.], dtype=float16)", r
# JAX: x = jnp.array([1.1, 2.2, -3.3], jnp.bfloat16); repr(x * 3)
#   -> Array([3.3125, 6.625, -9.875], dtype=bfloat16)
x = jnp.array([1.1, 2.2, -3.3], jnp.bfloat16)
assert repr(x * 3) == "Array([3.3125, 6.625, -9.875], dtype=bfloat16)", repr(x * 3)
# eager jnp calls take the same path as operators (not numpy's float32 fast path). JAX:
# jnp.add(x, x) -> Array([2.20312, 4.40625, -6.59375], dtype=bfloat16);
# jnp.sin(x) -> Array([0.890625, 0.808594, 0.154297], dtype=bfloat16); jnp.sum(x) -> Array(0.0078125, dtype=bfloat16)
# jnp.max(x) -> Array(2.20312, dtype=bfloat16); jnp.argmax(x) -> Array(1, dtype=int32)
assert repr(jnp.add(x, x)) == "Array([2.20312, 4.40625, -6.59375], dtype=bfloat16)", repr(jnp.add(x, x))
assert repr(jnp.sin(x)) == "Array([0.890625, 0.808594, 0.154297], dtype=bfloat16)", repr(jnp.sin(x))
assert repr(jnp.sum(x)) == "Array(0.0078125, dtype=bfloat16)", repr(jnp.sum(x))
assert repr(jnp.max(x)) == "Array(2.20312, dtype=bfloat16)", repr(jnp.max(x))
assert repr(jnp.argmax(x)) == "Array(1, dtype=int32)", repr(jnp.argmax(x))
# JAX: jax.jit(lambda x: x * 3 + 1)(x) -> [4.3125, 7.625, -8.875], on every call (the second one
# runs the cached program directly)
j = jax.jit(lambda x: x * 3 + 1)
assert j(x).tolist() == j(x).tolist() == j(x).tolist() == [4.3125, 7.625, -8.875], j(x)
# JAX: str of the aval and repr of the tracer name bfloat16, not its float32 storage:
# print(jax.make_jaxpr(lambda a: a)(x).jaxpr.invars[0].aval) -> bfloat16[3];
# jax.jit(lambda a: print(a) or a)(x) prints JitTracer(bfloat16[3])
assert str(jax.make_jaxpr(lambda a: a)(x).jaxpr.invars[0].aval) == "bfloat16[3]"
seen = []
jax.jit(lambda a: seen.append(repr(a)) or a)(x)
assert seen == ["JitTracer(bfloat16[3])"], seen
# JAX: jax.dtypes.bfloat16(1.1) -> 1.10156; float(...) -> 1.1015625
s = jax.dtypes.bfloat16(1.1)
assert repr(s) == "1.10156" and float(s) == 1.1015625, s
# JAX: jnp.sort(jnp.array([2.0, -1.0, 0.5, -0.0, nan, -3.0], jnp.bfloat16))
#   -> Array([-3, -1, -0, 0.5, 2, nan], dtype=bfloat16)
# (the storage's bits are byte-swapped: a total order must not read them natively)
so = jnp.sort(jnp.array([2.0, -1.0, 0.5, -0.0, float("nan"), -3.0], jnp.bfloat16))
assert repr(so) == "Array([-3, -1, -0, 0.5, 2, nan], dtype=bfloat16)", repr(so)
print("ok")
"""


def test_pyodide_like_import_uses_the_emulated_bfloat16_and_keeps_float16():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def _bits_ml_dtypes(f32):
    with np.errstate(invalid="ignore"):  # (NaNs)
        return f32.astype(ml_dtypes.bfloat16).view(np.uint16)


def _bits_emulated(x):
    return (np.asarray(bf16_emulated.round_to_bf16(x), np.float32).view(np.uint32) >> 16).astype(np.uint16)


def test_rounding_is_ml_dtypes_bit_for_bit():
    # every rounding case: ties (low half 0x8000) to even both ways, just below and above them,
    # subnormals, infinities, NaNs of both signs, the largest finite values (which overflow to inf)
    high = np.arange(2 ** 16, dtype=np.uint32) << 16
    lows = np.array([0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF], dtype=np.uint32)
    u = (high[:, None] | lows[None, :]).ravel()
    f = u.view(np.float32)
    a, b = _bits_ml_dtypes(f), _bits_emulated(f)
    assert np.array_equal(a, b), (f[a != b][:5], a[a != b][:5], b[a != b][:5])


def test_float64_inputs_round_as_ml_dtypes_does():
    rng = np.random.default_rng(0)
    d = rng.normal(size=20000) * np.exp(rng.normal(size=20000) * 20)
    with np.errstate(over="ignore"):  # (beyond bfloat16's range: inf)
        want = d.astype(ml_dtypes.bfloat16).astype(np.float64)
    assert np.array_equal(want, np.asarray(bf16_emulated.round_to_bf16(d), np.float64))


def test_accumulating_reductions_round_each_step_as_numpy_with_ml_dtypes():
    rng = np.random.default_rng(1)
    for shape, axes in [((100,), (0,)), ((7, 13), (1,)), ((4, 5, 6), (0, 2)), ((0, 3), (0,))]:
        x = rng.normal(size=shape).astype(np.float32)
        for ufunc, data in ((np.add, x * 3), (np.multiply, 1 + x / 10)):
            want = ufunc.reduce(data.astype(ml_dtypes.bfloat16), axis=axes).astype(np.float32)
            got = np.asarray(bf16_emulated.reduce_rounding(ufunc, bf16_emulated.round_to_bf16(data), axes),
                             np.float32)
            assert np.array_equal(want, got), (shape, axes, ufunc)


def test_bitcast_is_the_upper_half_of_float32():
    f = np.array([1.0, -2.5, np.inf, 1.1015625], np.float32)
    bits = bf16_emulated.bitcast(bf16_emulated.round_to_bf16(f), np.dtype(np.uint16))
    assert bits.tolist() == _bits_ml_dtypes(f).tolist()
    back = bf16_emulated.bitcast(bits, bf16_emulated.STORAGE)
    assert np.asarray(back, np.float32).tolist() == f.tolist()


WEBGPU_PROBE = r"""
import warnings
from tools.sysdeps import ensure_vulkan
ensure_vulkan()
import core as jax, core.numpy as jnp
assert jax.dtypes.EMULATED_BF16
dev = jax.devices("webgpu")[0]
x = jax.device_put(jnp.array([1.1, 2.2, -3.3], jnp.float32), dev)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    # JAX: jax.jit(lambda x: x.astype(jnp.bfloat16).astype(jnp.float32) * 2)(x) -> [2.203125, 4.40625, -6.59375]
    f = jax.jit(lambda x: x.astype(jnp.bfloat16).astype(jnp.float32) * 2)
    assert f(x).tolist() == f(x).tolist() == [2.203125, 4.40625, -6.59375], f(x)
    # JAX: the same rounding inside a cond branch -> [1.1015625, 2.203125, -3.296875]
    g = jax.jit(lambda x: jax.lax.cond(x[0] > 0, lambda y: y.astype(jnp.bfloat16).astype(jnp.float32),
                                       lambda y: y, x))
    assert g(x).tolist() == [1.1015625, 2.203125, -3.296875], g(x)
    # JAX: jax.jit(lambda x: x * 3 + 1)(x.astype(jnp.bfloat16)) -> [4.3125, 7.625, -8.875]
    with jax.default_device(dev):
        h = jax.jit(lambda x: x * 3 + 1)(x.astype(jnp.bfloat16))
    assert repr(h) == "Array([4.3125, 7.625, -8.875], dtype=bfloat16)", repr(h)
assert any("bfloat16 has no WebGPU representation" in str(w.message) for w in caught), [str(w.message) for w in caught]
print("ok")
"""


def test_webgpu_runs_emulated_bfloat16_on_the_cpu_and_says_why():
    out = subprocess.run([sys.executable, "-c", WEBGPU_PROBE], capture_output=True, text=True, timeout=300,
                         cwd=ROOT, env=_fallback_env(PYTHONPATH=str(ROOT)))
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stdout[-1000:] + out.stderr[-3000:]
