"""Host adapters: the thin, host-specific layer under the WebGPU backend.

Both hosts expose the same promise-shaped surface, mirroring the WebGPU JS API:

    await host.request_adapter()  -> adapter info (dict) or raises RuntimeError(reason)
    await host.request_device(limits, features)
    host.create_buffer(size, usage) / host.write_buffer(buf, bytes)
    host.pipeline(wgsl)            -> compiled compute pipeline (cached by the backend)
    host.submit(dispatches, copies)
    await host.map_read(staging, size) -> bytes        (staging-buffer readback)
    await host.work_done()

`run_sync(awaitable)` turns one of those promises into a value where the host allows it:
CPython (wgpu-py) always can; Pyodide only through JSPI (`pyodide.ffi.run_sync`).
"""
from __future__ import annotations

import os
import sys

# WebGPU's default limits: kernels are written to fit them so CI results hold in browsers.
DEFAULT_LIMITS = {
    "max-compute-invocations-per-workgroup": 256,
    "max-compute-workgroup-storage-size": 16384,
    "max-storage-buffers-per-shader-stage": 8,
}

STORAGE, COPY_SRC, COPY_DST, MAP_READ = 0x80, 0x04, 0x08, 0x01


def is_pyodide() -> bool:
    return sys.platform == "emscripten"


class SyncUnavailable(RuntimeError):
    """A synchronous wait for the GPU (a readback, block_until_ready) where the host cannot block."""


SYNC_READ_NEEDS_JSPI = (
    "Reading a WebGPU array synchronously needs WebAssembly stack switching (JSPI, through "
    "pyodide.ffi.run_sync), which this page's Python cannot use here. Use "
    "`await x.block_until_ready_async()` or `await jax.device_get_async(x)` instead.")
# what Pyodide's run_sync raises where its runtime was started without JSPI (a RuntimeError, told
# apart only by its text); can_run_sync() can still say True there (see BrowserHost.run_sync)
PYODIDE_NO_STACK_SWITCHING = "stack switching not supported"


class WgpuHost:
    """CPython host through wgpu-py (Vulkan/Metal/D3D12; lavapipe in CI). Its promise-shaped calls
    resolve at once: inside they use wgpu-py's blocking variants."""
    name = "wgpu-py"

    def __init__(self):
        os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
        try:
            import wgpu  # noqa: F401
        except ImportError as e:
            raise RuntimeError("the `wgpu` package is not installed (pip install 'gradpad[webgpu]')") from e
        self.wgpu = __import__("wgpu")
        self.adapter = self.device = None

    async def request_adapter(self):
        self.adapter = self.wgpu.gpu.request_adapter_sync(power_preference="high-performance")
        if self.adapter is None:
            raise RuntimeError("navigator.gpu.requestAdapter() returned no adapter")
        info = dict(self.adapter.info)
        return {"description": f"{info.get('device', '?')} ({info.get('backend_type', '?')})",
                "features": set(self.adapter.features), "limits": dict(self.adapter.limits),
                "software": info.get("adapter_type") == "CPU"}

    async def request_device(self, limits, features):
        self.device = self.adapter.request_device_sync(required_limits=limits, required_features=list(features))
        self.queue = self.device.queue

    def create_buffer(self, size, usage):
        return self.device.create_buffer(size=size, usage=usage)

    def destroy_buffer(self, buf):
        buf.destroy()

    def write_buffer(self, buf, data):
        self.queue.write_buffer(buf, 0, data)

    def pipeline(self, wgsl):
        module = self.device.create_shader_module(code=wgsl)
        return self.device.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": "main"})

    def submit(self, dispatches, copies=()):
        """dispatches: [(pipeline, [buffers], (gx, gy, gz))]; copies: [(src, dst, size[, dst_offset])],
        recorded after the dispatches."""
        enc = self.device.create_command_encoder()
        for pipe, bufs, groups in dispatches:
            bg = self.device.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
                {"binding": i, "resource": {"buffer": b, "offset": 0, "size": b.size}} for i, b in enumerate(bufs)])
            cp = enc.begin_compute_pass()
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, bg)
            cp.dispatch_workgroups(*groups)
            cp.end()
        for src, dst, size, *off in copies:
            enc.copy_buffer_to_buffer(src, 0, dst, off[0] if off else 0, size)
        self.queue.submit([enc.finish()])

    async def map_read(self, staging, size):
        staging.map_sync(self.wgpu.MapMode.READ, 0, size)
        data = bytes(staging.read_mapped(0, size))
        staging.unmap()
        return data

    async def work_done(self):
        self.queue.on_submitted_work_done_sync()

    def run_sync(self, awaitable):
        # The coroutines above use wgpu-py's blocking calls inside, so one step completes them
        # (no event loop needed, and it works when one is already running, as in Jupyter).
        try:
            awaitable.send(None)
        except StopIteration as stop:
            return stop.value
        raise RuntimeError("wgpu host coroutine suspended unexpectedly")


class BrowserHost:
    """Pyodide host: `navigator.gpu` through the JS bridge. Same WGSL, same calls."""
    name = "browser"

    def __init__(self):
        import js  # type: ignore
        from pyodide.ffi import to_js  # type: ignore
        self.js, self.to_js = js, to_js
        gpu = getattr(js.navigator, "gpu", None)
        if gpu is None:
            raise RuntimeError("navigator.gpu is undefined: this browser has no WebGPU "
                               "(Chromium: serve over localhost/https; headless needs --enable-unsafe-webgpu)")
        self.gpu = gpu
        self.adapter = self.device = None
        self._submit = self._wait = None

    def _obj(self, d):
        return self.to_js(d, dict_converter=self.js.Object.fromEntries)

    async def request_adapter(self):
        self.adapter = await self.gpu.requestAdapter()
        if self.adapter is None:
            raise RuntimeError("navigator.gpu.requestAdapter() returned null (WebGPU disabled or blocklisted)")
        feats = set(getattr(self.js.Array, "from")(self.adapter.features).to_py())
        lim = self.adapter.limits
        limits = {k: getattr(lim, _camel(k)) for k in DEFAULT_LIMITS}
        info = getattr(self.adapter, "info", None)
        desc = f"{getattr(info, 'vendor', '')} {getattr(info, 'architecture', '')}".strip() if info else "browser adapter"
        return {"description": desc or "browser adapter", "features": feats, "limits": limits,
                "software": "swiftshader" in desc.lower()}

    async def request_device(self, limits, features):
        desc = {"requiredLimits": {_camel(k): v for k, v in limits.items()}, "requiredFeatures": list(features)}
        self.device = await self.adapter.requestDevice(self._obj(desc))
        self.queue = self.device.queue

    def create_buffer(self, size, usage):
        return self.device.createBuffer(self._obj({"size": size, "usage": usage}))

    def destroy_buffer(self, buf):
        buf.destroy()

    def write_buffer(self, buf, data):
        self.queue.writeBuffer(buf, 0, self.to_js(memoryview(data)))

    def pipeline(self, wgsl):
        module = self.device.createShaderModule(self._obj({"code": wgsl}))
        return self.device.createComputePipeline(self._obj(
            {"layout": "auto", "compute": {"module": module, "entryPoint": "main"}}))

    def submit(self, dispatches, copies=()):
        # One call into JS per submit: each Python -> JS call costs microseconds in Pyodide, and
        # a dispatch needs about ten of them. Bind groups are cached there (pooled buffers recur).
        if self._submit is None:
            self._submit = _js_function(SUBMIT_JS)
        work = [[pipe, bufs, *groups] for pipe, bufs, groups in dispatches]
        self._submit(self.device, self.to_js(work), self.to_js([list(c) for c in copies]))

    async def map_read(self, staging, size):
        await staging.mapAsync(MAP_READ_MODE, 0, size)
        data = self.js.Uint8Array.new(staging.getMappedRange(0, size)).to_bytes()
        staging.unmap()
        return data

    async def work_done(self):
        # a 4-byte copy mapped for reading, after the work: its promise settles sooner than
        # onSubmittedWorkDone's in Chromium (measured with SwiftShader: ~0.4-0.9 ms less per wait)
        if self._wait is None:
            self._wait = _js_function(WAIT_JS)
        await self._wait(self.device)

    def run_sync(self, awaitable):
        try:
            from pyodide.ffi import can_run_sync, run_sync  # type: ignore
        except ImportError:
            can_run_sync = None
        if can_run_sync is None or not can_run_sync():
            awaitable.close() if hasattr(awaitable, "close") else None
            raise SyncUnavailable(SYNC_READ_NEEDS_JSPI)
        try:
            return run_sync(awaitable)
        except RuntimeError as e:
            # A Python started from a snapshot made where JSPI was missing (the build's bare
            # snapshot, made under Node) keeps Pyodide's refusing run_sync, though this browser
            # has JSPI and can_run_sync() says True inside a task.
            if PYODIDE_NO_STACK_SWITCHING not in str(e):
                raise
            awaitable.close() if hasattr(awaitable, "close") else None
            raise SyncUnavailable(SYNC_READ_NEEDS_JSPI) from None


MAP_READ_MODE = 1  # GPUMapMode.READ

# work: [[pipeline, [buffers], gx, gy, gz], ...]; copies: [[src, dst, size(, dst_offset)], ...]
SUBMIT_JS = """
(() => {
  const groupsOf = new WeakMap();  // pipeline -> Map(buffer ids -> bind group)
  let nextId = 1;
  const idOf = (b) => b.__gradpadId || (b.__gradpadId = nextId++);
  return (device, work, copies) => {
    const enc = device.createCommandEncoder();
    for (const [pipe, bufs, gx, gy, gz] of work) {
      let cache = groupsOf.get(pipe);
      if (!cache) groupsOf.set(pipe, cache = new Map());
      const key = bufs.map(idOf).join(",");
      let bg = cache.get(key);
      if (!bg) {
        if (cache.size > 256) cache.clear();
        bg = device.createBindGroup({layout: pipe.getBindGroupLayout(0),
          entries: bufs.map((buffer, binding) => ({binding, resource: {buffer}}))});
        cache.set(key, bg);
      }
      const pass = enc.beginComputePass();
      pass.setPipeline(pipe);
      pass.setBindGroup(0, bg);
      pass.dispatchWorkgroups(gx, gy, gz);
      pass.end();
    }
    for (const [src, dst, size, off] of copies) enc.copyBufferToBuffer(src, 0, dst, off || 0, size);
    device.queue.submit([enc.finish()]);
  };
})()
"""

# The wait for all submitted work: copy 4 bytes into a small MAP_READ buffer and map it (the queue
# runs in order, so the map settles after every earlier submit). A pool, so that concurrent waits
# never map one buffer twice; should the map fail (a lost device), onSubmittedWorkDone decides.
WAIT_JS = """
(() => {
  const free = [];
  let src = null;
  return async (device) => {
    if (src === null) src = device.createBuffer({size: 4, usage: 0x80 | 0x04});  // STORAGE | COPY_SRC
    const st = free.pop() || device.createBuffer({size: 4, usage: 0x01 | 0x08});  // MAP_READ | COPY_DST
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, st, 0, 4);
    device.queue.submit([enc.finish()]);
    try {
      await st.mapAsync(1, 0, 4);  // GPUMapMode.READ
    } catch (e) {
      await device.queue.onSubmittedWorkDone();
      return;
    }
    st.unmap();
    free.push(st);
  };
})()
"""


def _js_function(source: str):
    from pyodide.code import run_js  # type: ignore
    return run_js(source)


def _camel(k):
    head, *rest = k.split("-")
    return head + "".join(w.title() for w in rest)


def make_host():
    return BrowserHost() if is_pyodide() else WgpuHost()
