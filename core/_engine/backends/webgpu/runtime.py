"""The WebGPU device layer shared by both hosts: adapter/device set-up with WebGPU's default limits,
a size-bucketed buffer pool, pipelines cached by WGSL source, kernel launches and readback."""
from __future__ import annotations

import os
import sys
import weakref

import numpy as np

from .host import COPY_DST, COPY_SRC, DEFAULT_LIMITS, MAP_READ, STORAGE, SyncUnavailable, make_host

# dtype <-> WGSL storage type. bool is stored as u32 (WGSL storage buffers cannot hold bool).
WGSL_TYPE = {np.dtype("float32"): "f32", np.dtype("int32"): "i32", np.dtype("uint32"): "u32",
             np.dtype("bool"): "bool", np.dtype("float16"): "f16"}
STORAGE_DTYPE = {np.dtype("bool"): np.dtype("uint32")}
try:  # typed PRNG keys (two uint32 words, a structured numpy dtype) are vec2<u32> in WGSL
    from ...primitives.random_bits import KEY_DTYPE
    WGSL_TYPE[KEY_DTYPE] = "vec2<u32>"
except ImportError:  # pragma: no cover
    KEY_DTYPE = None


def debug_level() -> int:
    try:
        return int(os.environ.get("GRADPAD_DEBUG", "0"))
    except ValueError:
        return 0


def log(msg: str) -> None:
    print(f"[gradpad webgpu] {msg}", file=sys.stderr if not _pyodide() else sys.stdout, flush=True)


def _pyodide():
    return sys.platform == "emscripten"


class GpuBuffer:
    """One pooled storage buffer. Returned to the pool when its owner is garbage collected."""
    __slots__ = ("handle", "bucket", "nbytes", "__weakref__")

    def __init__(self, handle, bucket, nbytes):
        self.handle, self.bucket, self.nbytes = handle, bucket, nbytes


def _bucket(nbytes: int) -> int:
    # powers of two from 256 bytes: at most 2x waste, few distinct sizes to reuse
    n = max(256, nbytes)
    return 1 << (n - 1).bit_length()


class Runtime:
    """One adapter + device for the process (one device per test session)."""

    def __init__(self, host):
        self.host = host
        self.limits = dict(DEFAULT_LIMITS)
        self.pool: dict = {}        # bucket size -> [free handles]
        self.staging: dict = {}     # bucket size -> [free MAP_READ handles]
        self.pipelines: dict = {}   # WGSL source -> pipeline
        self.pending: list = []     # dispatches recorded but not yet submitted
        self.stats = {"kernels": 0, "pipelines": 0, "allocs": 0, "reuses": 0, "readbacks": 0}

    async def start(self):
        self.info = await self.host.request_adapter()
        self.f16 = "shader-f16" in self.info["features"]
        # WebGPU's default limits, always: what passes here then runs in any browser
        await self.host.request_device(dict(DEFAULT_LIMITS), ["shader-f16"] if self.f16 else [])

    # ---- memory ---------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> GpuBuffer:
        b = _bucket(nbytes)
        free = self.pool.get(b)
        if free:
            self.stats["reuses"] += 1
            handle = free.pop()
        else:
            self.stats["allocs"] += 1
            handle = self.host.create_buffer(b, STORAGE | COPY_SRC | COPY_DST)
        buf = GpuBuffer(handle, b, nbytes)
        weakref.finalize(buf, self._release, handle, b)
        return buf

    def _release(self, handle, bucket):
        # Safe to hand out again at once: pending dispatches keep their GpuBuffers alive, and the
        # queue runs a later write or dispatch after every earlier submit.
        self.pool.setdefault(bucket, []).append(handle)

    def upload(self, arr: np.ndarray) -> GpuBuffer:
        arr = np.ascontiguousarray(arr, STORAGE_DTYPE.get(arr.dtype, arr.dtype))
        buf = self.alloc(arr.nbytes)
        if arr.nbytes:
            data = arr.tobytes()
            pad = (-len(data)) % 4
            self.host.write_buffer(buf.handle, data + b"\0" * pad)
        return buf

    # ---- kernels --------------------------------------------------------------------------
    def pipeline(self, wgsl: str):
        p = self.pipelines.get(wgsl)
        if p is None:
            self.stats["pipelines"] += 1
            p = self.pipelines[wgsl] = self.host.pipeline(wgsl)
        return p

    def launch(self, wgsl: str, buffers, groups, label="kernel"):
        """Record one dispatch; it is submitted with the others at the next flush."""
        self.stats["kernels"] += 1
        if debug_level() >= 1:
            log(f"launch {label} groups={groups} buffers={len(buffers)}")
        self.pending.append((self.pipeline(wgsl), [b.handle for b in buffers], groups, buffers))

    def copy(self, src: GpuBuffer, dst: GpuBuffer, dst_offset: int, nbytes: int):
        """Copy src's first nbytes into dst at dst_offset (both multiples of 4), after every
        dispatch recorded so far."""
        self.flush()
        self.host.submit([], [(src.handle, dst.handle, nbytes, dst_offset)])

    def flush(self):
        if self.pending:
            work, self.pending = self.pending, []
            self.host.submit([(p, h, g) for p, h, g, _ in work])

    # ---- readback -------------------------------------------------------------------------
    async def read_async(self, buf: GpuBuffer, dtype, shape):
        self.flush()
        self.stats["readbacks"] += 1
        size = (buf.nbytes + 3) // 4 * 4
        if size == 0:
            return np.zeros(shape, dtype)
        b = _bucket(size)
        free = self.staging.get(b)
        staging = free.pop() if free else self.host.create_buffer(b, MAP_READ | COPY_DST)
        self.host.submit([], [(buf.handle, staging, size)])
        data = await self.host.map_read(staging, size)
        self.staging.setdefault(b, []).append(staging)
        sd = STORAGE_DTYPE.get(np.dtype(dtype), np.dtype(dtype))
        out = np.frombuffer(data, sd, count=int(np.prod(shape, dtype=np.int64))).reshape(shape)
        return out.astype(dtype) if sd != dtype else out.copy()

    def read(self, buf, dtype, shape):
        return self.host.run_sync(self.read_async(buf, dtype, shape))

    async def wait_async(self):
        self.flush()
        await self.host.work_done()

    def wait(self):
        self.host.run_sync(self.wait_async())


_runtime = None
_failure: str | None = None


def runtime() -> Runtime:
    """The process's runtime, created on first use; raises RuntimeError naming why there is none."""
    if _runtime is None:
        _start(sync=True)
    return _runtime


async def init_async() -> Runtime:
    """Start the backend without blocking (the browser's main thread must do this before use:
    `await core._engine.backends.webgpu.init_async()`)."""
    if _runtime is None:
        await _start(sync=False)
    return _runtime


def _start(sync: bool):
    global _runtime, _failure
    if _failure is not None:
        raise RuntimeError(_failure)
    try:
        rt = Runtime(make_host())
    except Exception as e:  # no wgpu package, no navigator.gpu
        _failure = f"Unable to initialize backend 'webgpu': {e}"
        raise RuntimeError(_failure) from e

    def done():
        global _runtime
        if _runtime is not None:
            # another start finished first (the page's panes and the user's code both awaiting
            # init_async, or a synchronous runtime() meanwhile): keep that device. Replacing it
            # would leave every array made so far on a device the new pools and queue cannot
            # use: copies from it are dropped and reads come back as zeros.
            return
        _runtime = rt
        if debug_level() >= 1:
            log(f"adapter: {rt.info['description']} via {rt.host.name}; shader-f16={rt.f16}")

    def failed(e):
        global _failure
        _failure = f"Unable to initialize backend 'webgpu': {e}"
        raise RuntimeError(_failure) from e

    if sync:
        try:
            rt.host.run_sync(rt.start())
        except SyncUnavailable:
            raise RuntimeError("The WebGPU backend starts asynchronously on this page: run "
                               "`await core._engine.backends.webgpu.init_async()` once before using it") from None
        except Exception as e:  # no adapter, device request refused
            failed(e)
        done()
        return None

    async def go():
        try:
            await rt.start()
        except Exception as e:
            # one retry: a browser's first adapter request has been seen to fail spuriously
            log(f"adapter/device request failed ({type(e).__name__}: {e}); retrying once")
            try:
                await rt.start()
            except Exception as e2:
                failed(e2)
        done()
    return go()
