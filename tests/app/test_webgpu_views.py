"""The playground's WebGPU views: fused kernels planned without a GPU (`plan_kernels`) and shown
as coloured groups in the dataflow graph, and the Timing pane measuring CPU and WebGPU side by
side (WebGPU on lavapipe, as tests/test_webgpu.py)."""
import asyncio
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from app import analysis, sandbox
from app.panes import jaxpr as jaxpr_pane
from app.panes import timing as timing_pane

sandbox.install_jax()
import jax  # noqa: E402  (the engine)
import jax.numpy as jnp  # noqa: E402
from core._engine.backends.webgpu import plan_kernels  # noqa: E402

pytestmark = pytest.mark.timeout(300)


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


def mlp(params, x):
    for w, b in params:
        x = jnp.tanh(x @ w + b)
    return jnp.sum(x ** 2)


PARAMS = [(jnp.ones((4, 8)), jnp.ones(8)), (jnp.ones((8, 2)), jnp.ones(2))]
X = jnp.ones((5, 4))


def test_selu_elementwise_chain_is_one_kernel():
    # jax.make_jaxpr(selu)(x): gt, exp, mul, sub, jit(_where: select_n), mul -> 6 equations
    cj = jax.make_jaxpr(selu)(jnp.ones(64))
    kernels = plan_kernels(cj)
    assert len(cj.jaxpr.eqns) == 6
    assert [(k.kind, k.eqns) for k in kernels] == [("elementwise", (0, 1, 2, 3, 4, 5))]


def test_mlp_kernels_by_kind():
    cj = jax.make_jaxpr(mlp)(PARAMS, X)
    prims = [e.primitive.name for e in cj.jaxpr.eqns]
    kernels = plan_kernels(cj)
    assert [k.kind for k in kernels] == ["matmul", "elementwise", "matmul", "reduction"]
    for k in kernels:
        if k.kind == "matmul":
            assert [prims[i] for i in k.eqns] == ["dot_general"]
    # bias add + tanh fuse; the last layer's bias, tanh and square fuse into the sum's prologue
    assert [prims[i] for i in kernels[1].eqns] == ["broadcast_in_dim", "add", "tanh"]
    assert prims[kernels[3].eqns[-1]] == "reduce_sum" and "tanh" in [prims[i] for i in kernels[3].eqns]
    assert sorted(i for k in kernels for i in k.eqns) == list(range(len(prims)))  # each eqn once


def test_long_reduction_is_one_two_pass_kernel():
    # jax.make_jaxpr(lambda x: jnp.sum(jnp.exp(x)))(x) with 100000 elements: exp, reduce_sum
    kernels = plan_kernels(jax.make_jaxpr(lambda x: jnp.sum(jnp.exp(x)))(jnp.ones(100000)))
    assert [(k.kind, k.eqns) for k in kernels] == [("reduction", (0, 1))]
    assert "partials" in kernels[0].label and "final" in kernels[0].label


def test_planning_needs_no_gpu_adapter():
    # with wgpu unimportable there is no adapter at all; planning still works
    code = ("import sys; sys.modules['wgpu'] = None\n"
            "import core as jax, core.numpy as jnp\n"
            "from core._engine.backends.webgpu import plan_kernels\n"
            "print(len(plan_kernels(jax.make_jaxpr(lambda x: jnp.exp(x) * 2 + 1)(jnp.ones(3)))))\n"
            "try:\n    jax.devices('webgpu')\nexcept RuntimeError as e:\n    print('no adapter')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["1", "no", "adapter"], out.stderr


def test_graph_nodes_grouped_by_kernel():
    view = analysis.jaxpr_view(mlp, (PARAMS, X), "f")
    g = analysis.dataflow_graph(view.closed.jaxpr, view.kernels)
    by_label = {}
    for n in g["nodes"]:
        if n["kind"] == "eqn":
            by_label.setdefault(n["label"], []).append(n["group"])
    assert by_label["dot_general"] == [0, 2]
    assert by_label["tanh"] == [1, 3] and by_label["reduce_sum"] == [3]
    assert all(n["group"] is None for n in g["nodes"] if n["kind"] != "eqn")
    assert all(n["group"] is None for n in analysis.dataflow_graph(view.closed.jaxpr)["nodes"])


def test_graph_pane_legend_and_colours():
    a = analysis.analyse("import jax.numpy as jnp\ndef selu(x):\n    return 1.05 * jnp.where(x > 0, x, "
                         "1.67 * jnp.exp(x) - 1.67)\nselu(jnp.ones(8))\n", with_vmap=False, with_timing=False)
    parts = jaxpr_pane.render(a, "f")
    legend = [p.object for p in parts if "kernel" in str(getattr(p, "object", ""))]
    assert legend and "1 kernel for 6 equations" in legend[0] and "elementwise" in legend[0]
    fig = jaxpr_pane.graph_figure(a.jaxprs["f"].closed.jaxpr, "t", kernels=a.jaxprs["f"].kernels)
    data = fig.renderers[0].node_renderer.data_source.data
    eqn_colours = {c for c, k in zip(data["colour"], data["kind"]) if k == "eqn"}
    assert eqn_colours == {jaxpr_pane.kernel_colour(0)}


def test_float64_jaxpr_has_no_plan_and_says_why():
    with _x64():  # jax.config.update("jax_enable_x64", True): np.ones(3) stays float64
        view = analysis.jaxpr_view(lambda x: x * 2, (np.ones(3),), "f")
    assert view.kernels is None and "float64" in view.kernels_note


class _x64:
    def __enter__(self):
        jax.config.update("jax_enable_x64", True)

    def __exit__(self, *exc):
        jax.config.update("jax_enable_x64", False)


# ---------------------------------------------------------------- timings (need lavapipe)
@pytest.fixture(scope="module")
def gpu():
    from tools.sysdeps import ensure_vulkan
    ensure_vulkan()
    return jax.devices("webgpu")[0]


def test_timings_per_backend_with_kernel_counts(gpu):
    from core._engine.backends.webgpu import dispatch
    before = dispatch.stats["jit_compiles"]
    t = analysis.timings(mlp, (PARAMS, X), repeats=3)
    assert set(t["backends"]) == {"cpu", "webgpu"} and t["backend"] == "cpu"
    cpu, web = t["backends"]["cpu"], t["backends"]["webgpu"]
    for r in (cpu, web):
        assert r["eager"]["min"] <= r["eager"]["median"] <= r["eager"]["max"]
        assert r["jit_steady"]["median"] > 0 and r["retraces"] == 1 and r["eqn_count"] == 10
    assert cpu["kernels"] == 1 and web["kernels"] == 4 and web["host_steps"] == 0
    assert web["device"] == "WebGpuDevice(id=0)" and cpu["device"] == "CpuDevice(id=0)"
    assert dispatch.stats["jit_compiles"] > before  # the jitted calls really ran on the GPU


def test_selected_backend_on_top_and_cpu_stays_cpu(gpu):
    from core._engine.backends.webgpu import dispatch
    jax.config.update("jax_platforms", "webgpu")
    try:
        t = analysis.timings(selu, (np.ones(16, np.float32),), repeats=3)
        assert t["backend"] == "webgpu" and t["kernels"] == 1
        before = dict(dispatch.stats)
        cpu_only = analysis.timings(selu, (np.ones(16, np.float32),), repeats=3, backends=["cpu"])
        assert cpu_only["backend"] == "cpu" and dispatch.stats == before  # nothing went to the GPU
    finally:
        jax.config.update("jax_platforms", "cpu")


def test_async_timings_use_async_readback(gpu, monkeypatch):
    def no_sync(*a, **k):
        raise AssertionError("blocking readback in the async path")
    monkeypatch.setattr(jax, "block_until_ready", no_sync)
    with ThreadPoolExecutor(1) as pool:  # its own event loop, like the browser's
        t = pool.submit(lambda: asyncio.run(analysis.timings_async(selu, (np.ones(8, np.float32),), "webgpu", 3))).result()
    assert t.get("error") is None and t["backend"] == "webgpu" and t["kernels"] == 1


def test_timing_pane_side_by_side(gpu):
    a = analysis.analyse("import jax.numpy as jnp\ndef f(x):\n    return jnp.tanh(x) * 3.0\nf(jnp.ones(4))\n",
                         with_vmap=False)
    row = timing_pane.render(a)[0]
    assert len(row.objects) == 2
    heads = [col.objects[0].object for col in row.objects]
    assert "CPU (numpy)" in heads[0] and "WebGPU" in heads[1]
    assert "2 equations → 1 kernel" in heads[1]
    figs = [col.objects[1].object for col in row.objects]
    assert figs[0].x_range is figs[1].x_range  # one scale for both backends


def test_pending_backend_shows_measuring():
    col = timing_pane.backend_column({"pending": True, "backend": "webgpu"})
    assert "measuring" in col.objects[0].object


def test_missing_adapter_is_a_note_not_an_error():
    err = sandbox.describe_error(RuntimeError("Unable to initialize backend 'webgpu': no navigator.gpu"))
    col = timing_pane.backend_column({"error": err, "backend": "webgpu"})
    assert len(col.objects) == 1 and "not available" in col.objects[0].object


def test_float64_inputs_time_on_cpu_and_say_why_not_on_webgpu(gpu):
    with _x64():
        t = analysis.timings(lambda x: x * 2, (np.ones(3),), repeats=3)
    assert "eager" in t["backends"]["cpu"]
    err = t["backends"]["webgpu"]["error"]
    assert err.type == "TypeError" and "float64 has no WebGPU representation" in err.message
    col = timing_pane.backends_row(t["backends"]).objects[1]
    assert "float64" in col.objects[1].object


def test_a_backend_that_needs_a_synchronous_gpu_wait_is_one_grey_line(monkeypatch):
    """In a page whose Python cannot wait for the GPU synchronously (no JSPI), f that reads a value
    back while it runs (an `if` on an array) cannot be timed on WebGPU: the pane says so in one
    grey line, never a red RuntimeError."""
    from core._engine.backends import webgpu
    from core._engine.backends.webgpu.host import SYNC_READ_NEEDS_JSPI, SyncUnavailable

    async def started():
        return None

    async def reads_back(*a, **k):  # what f's `if x > 0` does there (BrowserHost.run_sync)
        raise SyncUnavailable(SYNC_READ_NEEDS_JSPI)

    monkeypatch.setattr(webgpu, "init_async", started)
    monkeypatch.setattr(analysis.timing, "_measure", reads_back)
    t = asyncio.run(analysis.timings_async(selu, (np.ones(4, np.float32),), "webgpu", 3))
    assert t.get("error") is None and "JSPI" in t["unavailable"], t
    col = timing_pane.backend_column(t)
    assert len(col.objects) == 1, col.objects  # the head only: no error block
    head = col.objects[0].object
    assert "WebGPU" in head and "not measured" in head and "gp-muted" in head and "gp-err" not in head


def test_pyodides_refused_run_sync_becomes_sync_unavailable(monkeypatch):
    """Pyodide's run_sync raises a bare RuntimeError ("WebAssembly stack switching not supported in
    this JavaScript runtime") in a Python started from a snapshot made without JSPI, though
    can_run_sync() says True: the host names it as SyncUnavailable, with what to use instead."""
    import types

    from core._engine.backends.webgpu.host import BrowserHost, SyncUnavailable

    def refuse(awaitable):
        raise RuntimeError("WebAssembly stack switching not supported in this JavaScript runtime")

    ffi = types.SimpleNamespace(can_run_sync=lambda: True, run_sync=refuse)
    monkeypatch.setitem(sys.modules, "pyodide", types.SimpleNamespace(ffi=ffi))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)

    async def read():
        return 1

    host = object.__new__(BrowserHost)  # no navigator.gpu here: run_sync needs none
    coro = read()
    with pytest.raises(SyncUnavailable, match="block_until_ready_async"):
        host.run_sync(coro)
    assert coro.cr_frame is None  # closed: no "never awaited" warning
