"""`jax.interpreters.partial_eval`: splitting a function into what is known before it runs and
what depends on its (unknown) inputs."""
from __future__ import annotations

from typing import Any, NamedTuple

from .._engine.tracing.tracing import get_aval, new_main
from .._engine.transforms.staging import JaxprBuilder, JaxprTrace, JaxprTracer


class PartialVal(NamedTuple):
    """(aval, None) for an unknown value of that type, (None, const) for a known one."""
    pv: Any
    const: Any

    @classmethod
    def unknown(cls, aval) -> "PartialVal":
        return cls(aval, None)

    @classmethod
    def known(cls, const) -> "PartialVal":
        return cls(None, const)

    def is_known(self) -> bool:
        return self.pv is None

    def get_aval(self):
        return get_aval(self.const) if self.pv is None else self.pv


def trace_to_jaxpr_nounits(fun, pvals, instantiate=False):
    """Run `fun` (a linear_util WrappedFun over flat inputs) with the unknown inputs traced and
    the known ones as values: (jaxpr of the unknown outputs, output PartialVals, constants).
    An output computed from known values only comes back known (unless `instantiate`)."""
    builder = JaxprBuilder()
    with new_main(JaxprTrace, builder, dynamic=False) as main:
        trace = JaxprTrace(main)
        ins = [trace.new_arg(pv.pv) if not pv.is_known() else pv.const for pv in pvals]
        outs = fun.call_wrapped(*ins)
        inst = instantiate if isinstance(instantiate, (list, tuple)) else [instantiate] * len(outs)
        unknown = [(isinstance(o, JaxprTracer) and o._trace.main is main) or bool(i) for o, i in zip(outs, inst)]
        staged = [trace.full_raise(o) for o, u in zip(outs, unknown) if u]
        jaxpr, consts = builder.to_jaxpr([t for t in ins if isinstance(t, JaxprTracer)], staged)
        builder.release()
    out_pvals = [PartialVal.unknown(get_aval(o)) if u else PartialVal.known(o) for o, u in zip(outs, unknown)]
    return jaxpr, out_pvals, consts


__all__ = ["PartialVal", "trace_to_jaxpr_nounits"]
