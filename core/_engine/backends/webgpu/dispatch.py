"""Where work runs: the engine's eager and jit hooks send it here when an input lives on the
WebGPU device or the default device is WebGPU. Anything the GPU cannot do (float64, a failed
adapter, a lost device) falls back to the numpy backend with a warning saying why."""
from __future__ import annotations

import warnings
import weakref

import numpy as np

from ...base import dtypes
from ...tracing import jit_cache, tracing
from ...base.devices import dispatch_hooks
from ...tracing.array import Array, to_numpy
from ...base.avals import ShapedArray
from ...base.config import config
from ...tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from ...tracing.rules import abstract_eval_rules
from ...base.tree_util import tree_structure, tree_unflatten
from .compiler import Plan, Unsupported
from .device import WebGpuArray
from .runtime import debug_level, log, runtime

_jit_plans: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_eager_plans: dict = {}
_warned: set = set()
stats = {"jit_compiles": 0, "eager_compiles": 0}


def warn_fallback(reason: str) -> None:
    if reason not in _warned:
        _warned.add(reason)
        warnings.warn(f"WebGPU backend: running on CPU instead: {reason}", RuntimeWarning, stacklevel=4)


def default_is_webgpu() -> bool:
    from ...base.devices import configured_default_device
    dev = configured_default_device()
    if dev is not None:
        return getattr(dev, "platform", None) == "webgpu"
    return config.read("jax_platforms").split(",")[0] == "webgpu"


def to_device(value, weak_type=None) -> WebGpuArray:
    if isinstance(value, WebGpuArray):
        return value
    arr = to_numpy(value)
    weak = getattr(value, "weak_type", type(value) in (int, float, complex)) if weak_type is None else weak_type
    rt = runtime()
    if not _dtype_ok(arr.dtype):
        raise TypeError(_dtype_message(arr.dtype))
    return WebGpuArray(rt.upload(arr), ShapedArray(arr.shape, arr.dtype, bool(weak)), arr)


def _dtype_ok(dt):
    from .compiler import gpu_dtype_ok
    return gpu_dtype_ok(dt)


def _dtype_message(dt) -> str:
    name = dt if isinstance(dt, str) else dtypes.dtype_name(np.dtype(dt))  # [dtypes] the emulated bf16 too
    if name == "float64":
        return ("float64 has no WebGPU representation (WGSL has no f64), so float64 arrays stay on the CPU; "
                "disable jax_enable_x64 or cast to float32 to run on the GPU")
    if name == "bfloat16":
        return ("bfloat16 has no WebGPU representation (WGSL has no bf16), so bfloat16 work runs on the CPU; "
                "cast to float32 (or float16 where the adapter has shader-f16) to run on the GPU")
    return f"dtype {name} is not supported on WebGPU (float32, int32, uint32, bool, float16)"


def _wants_gpu(vals) -> bool:
    for v in vals:
        if type(v) is WebGpuArray:
            return True
    return default_is_webgpu()


def _buffer_of(rt, v):
    if type(v) is WebGpuArray:
        if v._buf is None:   # deleted: its stand-in host value says so
            v._host._refuse()
        return v._buf
    return rt.upload(to_numpy(v))


def _run(plan, vals, out_weak):
    rt = runtime()
    bufs = plan.run(rt, [_buffer_of(rt, v) for v in vals])
    return [WebGpuArray(b, ShapedArray(a.shape, a.dtype, w)) for b, a, w in zip(bufs, plan.out_avals, out_weak)]


def _safe(fn, what):
    """Run `fn` on the GPU; NotImplemented (-> the CPU path) when the GPU cannot."""
    try:
        rt = runtime()
    except RuntimeError as e:
        warn_fallback(str(e))
        return NotImplemented
    try:
        return fn(rt)
    except Unsupported as e:
        warn_fallback(_dtype_message(str(e)) if str(e) in ("float64", "bfloat16") else f"{what}: {e}")
        return NotImplemented
    except MemoryError as e:
        warn_fallback(f"out of GPU memory in {what}: {e}")
        return NotImplemented
    except Exception as e:  # device lost, out of memory, a kernel the driver rejects
        if not _is_gpu_error(e):
            raise
        warn_fallback(f"{what} failed on the GPU ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
        return NotImplemented


def _is_gpu_error(e) -> bool:
    """Errors raised by the WebGPU implementation (wgpu-py's GPUError family, or a JS exception
    in the browser), as opposed to user errors (shape/dtype TypeErrors) that must propagate."""
    mod = type(e).__module__ or ""
    return mod.startswith("wgpu") or mod.startswith("pyodide") or type(e).__name__.startswith("GPU") \
        or type(e).__name__ == "JsException"


def _plan_variant():
    # what a plan's kernels depend on besides the jaxpr: the PRNG counter layout decides whether
    # random primitives become GPU kernels (partitionable) or host steps
    return bool(config.read("jax_threefry_partitionable"))


def _plan_for(cj: ClosedJaxpr):
    variants = _jit_plans.get(cj)
    if variants is None:
        variants = _jit_plans[cj] = {}
    plan = variants.get(_plan_variant())
    if plan is None:
        plan = variants[_plan_variant()] = Plan(cj)
        stats["jit_compiles"] += 1
        if debug_level() >= 2:
            log(f"jit plan: {len(plan.steps)} steps\n{plan.describe()}")
    return plan


def jit_dispatch(cj, consts, flat):
    """Hook for jitted calls at top level."""
    vals = [*consts, *flat]
    if not _wants_gpu(vals):
        return NotImplemented

    def go(rt):
        plan = _plan_for(cj)
        return _run(plan, vals, [a.weak_type for a in cj.out_avals])
    return _safe(go, "jit")


def jit_call(jitted, args, kwargs):
    """`jax.jit(f)(*arrays)` at top level with WebGPU arrays only: the cached plan runs straight
    away, skipping the argument flattening and signature building of the general path (in
    Pyodide they cost more than the dispatch itself). The first call of a signature takes the
    general path (it traces) and records what later calls need; NotImplemented -> general path."""
    if not args or kwargs or jitted.static_argnums or tracing.dynamic_trace is not None or len(tracing.trace_stack) != 1:
        return NotImplemented
    key = ["webgpu", jit_cache.context[0], _plan_variant()]
    for a in args:
        if type(a) is not WebGpuArray:
            return NotImplemented
        key.append(a._aval)
    key = tuple(key)
    hit = jitted._fast.get(key)
    if hit is None:
        if not config.read("jax_disable_jit"):
            (cj, consts, out_tree), _ = jitted._get(args, kwargs)
            single = out_tree.num_leaves == 1 and out_tree == tree_structure(0)
            jitted._fast[key] = (cj, consts, out_tree, single, [a.weak_type for a in cj.out_avals])
        return NotImplemented
    if config.read("jax_disable_jit"):
        return NotImplemented
    cj, consts, out_tree, single, weaks = hit
    outs = _safe(lambda rt: _run(_plan_for(cj), [*consts, *args], weaks), "jit")
    if outs is NotImplemented:
        return outs
    return outs[0] if single else tree_unflatten(out_tree, outs)


def _hkey(v):
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def eager_dispatch(prim, vals, params):
    """Hook for primitives applied to concrete values (one cached kernel per primitive+shapes)."""
    if not _wants_gpu(vals):
        return NotImplemented
    from ...primitives.call import jit_p
    if prim is jit_p:
        cj = params["jaxpr"]
        return _safe(lambda rt: _run(_plan_for(cj), vals, [a.weak_type for a in cj.out_avals]), "jit")
    avals = [v.aval if isinstance(v, Array) else ShapedArray(np.shape(v), to_numpy(v).dtype) for v in vals]
    key = (prim, tuple(sorted((k, _hkey(p)) for k, p in params.items())),
           tuple((a.shape, a.dtype) for a in avals), _plan_variant())
    weak = prim.weak_type_rule([getattr(v, "weak_type", type(v) in (int, float, complex)) for v in vals], **params)

    def go(rt):
        plan = _eager_plans.get(key)
        if plan is None:
            plan = _eager_plans[key] = Plan(_one_eqn(prim, avals, params))
            stats["eager_compiles"] += 1
            if debug_level() >= 2:
                log(f"eager kernel for {prim.name}\n{plan.describe()}")
        n = len(plan.out_avals)
        ws = list(weak) if isinstance(weak, (list, tuple)) else [weak] * n
        outs = _run(plan, vals, ws)
        return outs if prim.multiple_results else outs[0]
    return _safe(go, prim.name)


def _one_eqn(prim, avals, params) -> ClosedJaxpr:
    ins = [Var(ShapedArray(a.shape, a.dtype)) for a in avals]
    out = abstract_eval_rules[prim](*avals, **params)
    outs = [Var(ShapedArray(o.shape, o.dtype)) for o in (out if prim.multiple_results else [out])]
    return ClosedJaxpr(Jaxpr([], ins, outs, [JaxprEqn(prim, ins, outs, params)]), [])


def install() -> None:
    from ...base.devices import refresh_dispatch_claims
    dispatch_hooks.eager = eager_dispatch
    dispatch_hooks.jit = jit_dispatch
    dispatch_hooks.jit_call = jit_call
    refresh_dispatch_claims()
