"""JAX's generic call primitives `call` (params: call_jaxpr, a Jaxpr) and `closed_call` (call_jaxpr,
a ClosedJaxpr). The engine stages its calls as `jit`, so it never emits these; they exist so that
code walking jaxprs (numpyro's provenance tracking keys its rules on them) finds the real objects
in jax.extend.core.primitives, and binding one evaluates its jaxpr."""
from __future__ import annotations

from ..transforms.staging import eval_jaxpr
from . import define


def _call_abstract(*avals, call_jaxpr, **_):
    return [v.aval for v in call_jaxpr.outvars]


def _call_impl(*args, call_jaxpr, **_):
    return eval_jaxpr(call_jaxpr, [], *args)


def _closed_call_abstract(*avals, call_jaxpr, **_):
    return list(call_jaxpr.out_avals)


def _closed_call_impl(*args, call_jaxpr, **_):
    return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


call_p = define("call", abstract_eval=_call_abstract, impl=_call_impl, multiple_results=True)
closed_call_p = define("closed_call", abstract_eval=_closed_call_abstract, impl=_closed_call_impl,
                       multiple_results=True)
