"""The WebGPU kernels of a jaxpr with their WGSL and the equations each covers: what
`GRADPAD_DEBUG=2` prints, as data for the jaxpr pane. The WGSL is written by gradpad's compiler
in Python (`core/_engine/backends/webgpu/compiler.py`), so it exists without a GPU: the page shows it
even where WebGPU is not available. Built on demand (the pane asks when a kernel is chosen).
"""
from __future__ import annotations

from dataclasses import dataclass

STEP_NOTES = {  # steps without WGSL of their own: what the host does instead
    "host": "no WGSL: the host reads the inputs back, runs numpy, and uploads the result",
    "control": "no WGSL of its own: the host drives the loop or branch over kernels compiled for its body",
}


@dataclass(frozen=True)
class KernelSource:
    index: int
    kind: str                 # elementwise / reduction / matmul / host / control (PlannedKernel.kind)
    label: str                # the compiler's label (GRADPAD_DEBUG=1 logs it)
    eqns: tuple               # indices of the top-level equations it computes
    wgsl: str                 # '' for host and control steps
    note: str = ""


def kernel_sources(closed, planned) -> list[KernelSource]:
    """One KernelSource per planned kernel (`planned` from plan_kernels(closed), same order)."""
    from core._engine.backends.webgpu.compiler import Kernel, Plan, TwoPassReduce
    plan = Plan(closed)
    out = []
    for i, (step, pk) in enumerate(zip(plan.steps, planned)):
        parts = [step.first, step.second] if isinstance(step, TwoPassReduce) else [step]
        wgsl = "\n\n".join(f"// pass {n + 1}: {k.label}\n{k.wgsl}" if len(parts) > 1 else k.wgsl
                           for n, k in enumerate(parts) if isinstance(k, Kernel))
        out.append(KernelSource(i, pk.kind, pk.label, tuple(pk.eqns), wgsl, STEP_NOTES.get(pk.kind, "")))
    return out


def equation_texts(jaxpr, text: str) -> list[str]:
    """Each top-level equation of `jaxpr` as the jaxpr pane prints it (`text`: JAX's text of
    it), one entry per equation, continuation lines joined."""
    lines = text.splitlines()
    start = max(i for i, ln in enumerate(lines) if ln.startswith("{ lambda"))
    body = lines[start:]
    if len(body) == 1:  # the one-line form: { lambda ; a:f32[]. let b = ...; c = ... in (c,) }
        inner = body[0].split(". let ", 1)[-1].rsplit(" in (", 1)[0]
        eqns = [e.strip() for e in inner.split("; ")] if jaxpr.eqns else []
    else:
        eqns = []
        header = next(i for i, ln in enumerate(body) if ln.endswith(". let"))  # invars may wrap
        for ln in body[header + 1:]:
            if ln.startswith("  in ("):
                break
            if ln.startswith("    ") and not ln.startswith("     ") and not ln.lstrip().startswith(("]", ")")):
                eqns.append(ln.strip())
            elif eqns:
                eqns[-1] += "\n" + ln[4:]
    return eqns if len(eqns) == len(jaxpr.eqns) else [e.primitive.name for e in jaxpr.eqns]
