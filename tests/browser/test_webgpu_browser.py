"""The WebGPU backend inside headless Chromium (SwiftShader adapter, `--enable-unsafe-webgpu`):
the same checks as tests/test_webgpu.py, run through Pyodide's JS bridge to `navigator.gpu`,
with results read back by `await jax.device_get_async(...)` (the main thread cannot block)."""
from __future__ import annotations

import json

CHECKS = r'''
import json
import numpy as np
import core as jax
import core.numpy as jnp
from core import lax
from core._engine.backends import webgpu

await webgpu.init_async()
dev = jax.devices("webgpu")[0]
rng = np.random.RandomState(0)
F = rng.uniform(-2, 2, (3, 5)).astype(np.float32)
G = rng.uniform(-2, 2, (3, 5)).astype(np.float32)
I = rng.randint(-50, 50, (3, 5)).astype(np.int32)

def selu(x):
    return 1.0507009873554805 * jnp.where(x > 0, x, 1.6732632423543772 * jnp.exp(x) - 1.6732632423543772)

CASES = {
    "sin": (jnp.sin, F), "exp_add": (lambda a, b: jnp.exp(a) + b, F, G),
    "selu": (selu, rng.randn(4096).astype(np.float32)),
    "int_bits": (lambda a: ((a << 3) ^ a) & 0xFF, I), "compare": (lambda a, b: a < b, F, G),
    "transpose_slice": (lambda a: a.T[1:, ::2] * 2, F),
    "sum_rows": (lambda a: a.sum(axis=1), F), "max_all": (jnp.max, F),
    "big_sum": (jnp.sum, rng.randn(50000).astype(np.float32)),
    "matmul": (jnp.matmul, rng.randn(8, 16).astype(np.float32), rng.randn(16, 12).astype(np.float32)),
    # matrix @ vector, 4 rows a thread (mat4x4 loads); a product of 8 x 16 outputs a thread
    "matvec_rows": (jnp.matmul, rng.randn(600, 32).astype(np.float32), rng.randn(32).astype(np.float32)),
    "matmul_block": (jnp.matmul, rng.randn(128, 16).astype(np.float32), rng.randn(16, 128).astype(np.float32)),
    "random": (lambda k: (jax.random.bits(k, (4, 5)), jax.random.uniform(k, (9,))), jax.random.PRNGKey(1)),
    "while": (lambda a: jax.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, a))[1], F),
    "inf_literal": (lambda a: jnp.where(a > 0, a, -jnp.inf).max(axis=0), F),
    "softmax": (lambda a: jnp.exp(a) / jnp.exp(a).sum(axis=-1, keepdims=True), F),
    "outer": (lambda a, b: a[:, 0][:, None] * b[0][None, :], F, G),
    "scan": (lambda a: lax.scan(lambda c, x: (c * 0.5 + x, (c, c > 0)), a[0], a), F),
}
out = {"adapter": webgpu.runtime().info["description"], "errors": {}}
for name, (fn, *args) in CASES.items():
    wants = jax.tree_util.tree_leaves(jax.jit(fn)(*[jnp.asarray(a) for a in args]))
    try:
        jf, dargs = jax.jit(fn), [jax.device_put(a, dev) for a in args]
        firsts = jax.tree_util.tree_leaves(jf(*dargs))
        # the second call of a signature runs the cached plan (dispatch.jit_call); both must agree
        gots = jax.tree_util.tree_leaves(jf(*dargs))
        await gots[0].block_until_ready_async()
        assert all(g.device == dev for g in gots), [g.device for g in gots]
        for first, got, want in zip(await jax.device_get_async(firsts), await jax.device_get_async(gots), wants):
            if first.dtype != got.dtype or first.shape != got.shape or first.tobytes() != got.tobytes():
                out["errors"][name] = f"second call differs: {got!r} vs {first!r}"
            want = np.asarray(want)
            if want.dtype.kind == "f":
                ok = got.dtype == want.dtype and np.allclose(got, want, rtol=2e-5, atol=2e-4)
            else:
                ok = got.dtype == want.dtype and np.array_equal(got, want)
            if not ok:
                out["errors"][name] = f"mismatch: {got!r} vs {want!r}"
    except Exception as e:
        out["errors"][name] = f"{type(e).__name__}: {e}"
x = jax.device_put(F, dev) * 2
await x.block_until_ready_async()
try:
    np.asarray(x + 1)
    out["sync_read"] = "ok (JSPI)"
except RuntimeError as e:
    out["sync_read"] = str(e)
json.dumps(out)
'''


def test_webgpu_in_chromium(gp):
    has_gpu = gp.page.evaluate("() => !!navigator.gpu")
    assert has_gpu, "navigator.gpu missing: Chromium needs --enable-unsafe-webgpu"
    raw = gp.page.evaluate("code => window.gradpad.pyodide.runPythonAsync(code).then(String, e => 'ERROR: ' + e)",
                           CHECKS)
    assert not raw.startswith("ERROR"), raw
    res = json.loads(raw)
    print("\n[webgpu browser] adapter:", res["adapter"], "| sync read:", res["sync_read"])
    assert res["errors"] == {}, res["errors"]
    # synchronous readback either works (JSPI) or says which async call to use
    assert res["sync_read"].startswith("ok") or "device_get_async" in res["sync_read"], res["sync_read"]
