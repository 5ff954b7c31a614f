"""What an edit of f costs the timing panes (issue 14, latency): every call they make is one the
numbers need. The Timing pane traces f once for jit's first call (its trace, then compile and run,
timed apart on the same jit); the vmap pane's methods take no warm-up call when their values'
call was already their first; the loop method slices each element out as iterating over the
batch does (a static slice), not with a gather per element."""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
from app import analysis
from app.analysis import timing as analysis_timing


def test_timings_trace_f_once_and_split_the_first_call_into_trace_and_compile_and_run():
    traced = []

    def f(x):
        if isinstance(x, jax.core.Tracer):
            traced.append(type(x).__name__)
        return jax.numpy.sin(x) * 2.0 + 1.0

    t = analysis.timings(f, (np.ones(8, np.float32),), repeats=3, backends=["cpu"])
    # jax.jit(f).trace(x) then jax.jit(f)(x): one trace (a fresh jit's .lower() traced f again)
    assert len(traced) == 1 and t["retraces"] == 1
    first = t["jit_first"]
    assert first["trace"] > 0 and first["compile_and_run"] > 0
    assert first["total"] == pytest.approx(first["trace"] + first["compile_and_run"])
    assert t["eqn_count"] == 3  # sin, mul, add: from the one trace's jaxpr


def test_the_vmap_methods_are_timed_without_a_warm_up_call_when_their_value_was_one(monkeypatch):
    calls: dict = {}
    sampled: dict = {}
    sample = analysis_timing._sample

    async def recorded(call, wait, n, pause=analysis_timing._no_pause):
        sampled[call] = sampled.get(call, 0) + n
        return await sample(call, wait, n, pause)
    monkeypatch.setattr(analysis_timing, "_sample", recorded)

    r = analysis.vmap_comparison(lambda x: jax.numpy.tanh(x) * 3.0, (np.ones(3, np.float32),), timed=False)
    counted = {}
    for name in ("loop", "vmap", "jit(vmap)", "manual"):
        run = r[name].get("run")
        if run is None:
            continue

        def counting(run=run, name=name):
            calls[name] = calls.get(name, 0) + 1
            return run()
        r[name]["run"] = counting
        counted[name] = counting
    assert {"loop", "vmap", "jit(vmap)"} <= set(counted)
    analysis.time_vmap(r)
    for name, run in counted.items():
        assert r[name]["time"]["median"] > 0
        # every call was in a timed sample; jit(vmap), never called before, adds its first call
        # (trace) and one warm-up call (the code generated on the second call)
        extra = 2 if name == "jit(vmap)" else 0
        assert calls[name] == sampled[run] + extra, name


@pytest.mark.parametrize("in_axes", [(0,), (1,), (-1,)])
def test_the_loop_method_gives_vmaps_answer_along_any_batch_axis(in_axes):
    # jax.vmap(f, in_axes=a)(xs) against [f(x) for x in the slices of xs along a], stacked
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = analysis.vmap_comparison(lambda d: d["a"] * 2.0 + d["b"].sum(), ({"a": x, "b": x + 1.0},),
                                 in_axes=in_axes, timed=False)
    assert r["loop"]["error"] is None and r["loop"]["matches_vmap"] is True
