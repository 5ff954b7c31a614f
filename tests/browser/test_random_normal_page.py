"""random.normal in the built site (Pyodide): the float32 table shipped packed
(core/_engine/libraries/normal_table_pack.py) is not in the page's wheel but beside it in dist/; it is fetched
(app/lazy_files.py, sha256 from the build) and decoded once the exact path has cost about what
decoding does (core/_engine/libraries/normal_table.py SHIPPED_AFTER: ~86 draws of 1000), and draws through it are
JAX's bits.

JAX 0.10.2: `jax.random.normal(jax.random.PRNGKey(0), (3,))` -> [1.6226422, 2.0252647, -0.43359444]
(float32 bit patterns 0x3fcfb2bd, 0x40019df0, 0xbede0017 below)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(900)

CODE = """import os, time
import numpy as np
import jax
from core._engine.libraries import normal_table, normal_table_pack
# the page is shared by every browser test: one of them may already have drawn enough normals to
# decide about the table. Say what this session had done, then start this test from a fresh count.
import importlib
devices, tracing = (importlib.import_module(m) for m in ('core._engine.base.devices', 'core._engine.tracing.tracing'))  # (core._engine.base.devices is jax.devices)
print("before:", normal_table.source(), normal_table._state.looked_shipped, normal_table._state.credit,
      jax.config.jax_platforms, devices.dispatch_hooks.claims_host_arrays, devices._open_accelerator_scopes,
      tracing.eager_fast_path_ok(), flush=True)
normal_table.reset()
# and an earlier test may have left the Backend menu on WebGPU (it sets jax_platforms): the table
# is the CPU backend's, so this test draws there
platforms_before = jax.config.jax_platforms
jax.config.update("jax_platforms", "cpu")
calls = []
real_fetch = normal_table_pack.FETCH
normal_table_pack.FETCH = lambda: calls.append(len(calls)) or real_fetch()
k = jax.random.PRNGKey(0)
first = jax.random.normal(k, (3,))      # the exact path
exact_draws = 1
t0 = time.perf_counter()
while normal_table.source() is None and exact_draws < 300:
    jax.random.normal(k, (1000,))
    exact_draws += 1
t1 = time.perf_counter()
for _ in range(20):
    jax.random.normal(k, (1000,))
t2 = time.perf_counter()
second = jax.random.normal(k, (3,))     # the table
print("exact draws", exact_draws, "ms", round((t1 - t0) * 1e3), "then f32[1000] ms", round((t2 - t1) / 20 * 1e3, 3),
      flush=True)
normal_table_pack.FETCH = real_fetch
jax.config.update("jax_platforms", platforms_before)
(normal_table.source(), 60 <= exact_draws <= 120, os.path.exists(normal_table_pack.FILE), calls, [hex(int(v)) for v in np.asarray(first).view(np.uint32)],
 np.array_equal(np.asarray(first).view(np.uint32), np.asarray(second).view(np.uint32)))
"""


def test_the_shipped_table_decodes_in_the_page_with_jax_bits(gp):
    # the shared page as the earlier tests left it (no restart: a long session must keep eager
    # draws on their path; a WebGPU timing still in flight once held them off it, see test_longrun.py)
    r = gp.run(CODE, timeout_ms=300_000)
    assert r.get("error") is None, r
    print(r.get("stdout", ""))
    assert r["result"] == "('shipped', True, False, [0], ['0x3fcfb2bd', '0x40019df0', '0xbede0017'], True)", r
