"""Which jaxpr equations have effects (debug prints, callbacks, io_callback), looking inside the
sub-jaxprs of control flow and calls: a `cond` or `scan` whose body prints has an effect too, so
the compiler must neither drop it when its outputs are unused nor run it at compile time."""
from __future__ import annotations


def _sub_jaxprs(params):
    for p in params.values():
        for item in (p if isinstance(p, (tuple, list)) else (p,)):
            inner = getattr(item, "jaxpr", None)   # a ClosedJaxpr
            if inner is not None and hasattr(inner, "eqns"):
                yield inner
            elif hasattr(item, "eqns"):            # a Jaxpr
                yield item


def eqn_effectful(eqn) -> bool:
    if getattr(eqn.primitive, "effectful", False):
        return True
    return any(jaxpr_effectful(j) for j in _sub_jaxprs(eqn.params)) if eqn.params else False


def jaxpr_effectful(jaxpr) -> bool:
    return any(eqn_effectful(e) for e in jaxpr.eqns)
