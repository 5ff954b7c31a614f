"""Which kernels a jaxpr becomes on WebGPU, without a GPU: the compiler's own plan, read back as
plain data for views (the playground colours the dataflow graph by kernel) and kernel counts.

    plan_kernels(jax.make_jaxpr(f)(x))
    -> [PlannedKernel(kind='elementwise', eqns=(0, 1, 2, 3), label='fused[exp,mul,...]'), ...]

`eqns` are indices into the top-level `closed_jaxpr.jaxpr.eqns` (a nested jit call is one
equation there, though its body is inlined into the kernels). Planning only generates WGSL text;
nothing is uploaded or launched, and no adapter is asked for (except to learn whether float16
is supported, for float16 jaxprs).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...tracing.jaxpr import ClosedJaxpr
from .compiler import ControlStep, HostStep, Kernel, Plan, ScanStep, TwoPassReduce, Unsupported

KINDS = ("elementwise", "reduction", "matmul", "control", "host")


@dataclass(frozen=True)
class PlannedKernel:
    kind: str            # one of KINDS; 'control' = cond/while/scan driven from the host
    eqns: tuple          # indices of the top-level equations it computes (sorted)
    label: str           # the compiler's label, as GRADPAD_DEBUG=1 logs it


def plan_kernels(closed_jaxpr: ClosedJaxpr) -> list:
    """The WebGPU kernels (and host steps) for `closed_jaxpr`, in launch order.

    An equation recomputed inside several kernels (a fused value read by two of them) is listed
    under each. Raises `Unsupported` when the jaxpr cannot run on the GPU at all (float64...)."""
    plan = Plan(closed_jaxpr)
    top_of = _top_level_index(closed_jaxpr.jaxpr, plan.eqns)
    out = []
    for step in plan.steps:
        covered = _covered(step)
        eqns = tuple(sorted({top_of[id(e)] for e in covered if id(e) in top_of}))
        out.append(PlannedKernel(_kind_of(step), eqns, _label(step)))
    return out


def _label(step) -> str:
    if isinstance(step, TwoPassReduce):  # one reduction, launched as two kernels
        return f"{step.first.label} + {step.second.label}"
    return step.label


def _kind_of(step) -> str:
    if isinstance(step, HostStep):
        return "host"
    if isinstance(step, (ControlStep, ScanStep)):
        return "control"
    if isinstance(step, TwoPassReduce) or step.label.startswith("reduce_"):
        return "reduction"
    if step.label.startswith("dot_general"):
        return "matmul"
    return "elementwise"


def _covered(step) -> list:
    if isinstance(step, TwoPassReduce):
        return [*step.first.covered, *step.second.covered]
    if isinstance(step, Kernel):
        return list(step.covered)
    return [step.eqn]


def _top_level_index(jaxpr, inlined_eqns) -> dict:
    """id(inlined equation) -> index of the top-level equation it came from. The compiler's
    inlining keeps the order and emits, per call equation, every equation of its body."""
    index, pos = {}, 0
    for i, eqn in enumerate(jaxpr.eqns):
        for e in inlined_eqns[pos:pos + _inlined_count(eqn)]:
            index[id(e)] = i
        pos += _inlined_count(eqn)
    return index


def _inlined_count(eqn) -> int:
    from ...primitives.call import jit_p
    param = "jaxpr" if eqn.primitive is jit_p else getattr(eqn.primitive, "inline_jaxpr_param", None)
    if param is None:
        return 1
    return sum(_inlined_count(e) for e in eqn.params[param].jaxpr.eqns)


__all__ = ["KINDS", "PlannedKernel", "Unsupported", "plan_kernels"]
