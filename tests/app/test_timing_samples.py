"""How long one timing sample lasts follows the timer's step (app.analysis.sample_target): 2 ms
with a page's 100 µs timer, 0.5 ms with a 5 µs one (a cross-origin isolated page) or CPython's,
so an edit's timings cost a quarter of what fixed 2 ms samples cost, and no per-call time is
ever below what the timer resolves."""
from __future__ import annotations

import math
import time

import numpy as np
import pytest

from app import analysis
from app.analysis import timing as analysis_timing


def stepped_clock(monkeypatch, step):
    monkeypatch.setattr(analysis_timing, "clock", lambda: math.floor(time.perf_counter() / step) * step)


def test_a_sample_spans_twenty_timer_steps_and_at_least_half_a_millisecond():
    assert analysis.sample_target(1e-4) == pytest.approx(2e-3)    # 20 steps of 100 µs: within 5 %
    assert analysis.sample_target(5e-6) == pytest.approx(5e-4)    # 100 steps of 5 µs: within 1 %
    assert analysis.sample_target(1e-7) == pytest.approx(5e-4)    # CPython: the floor
    assert analysis.sample_target(1e-3) == pytest.approx(2e-2)    # a 1 ms timer: longer samples, still resolved


@pytest.mark.parametrize("step, target", [(1e-4, 2e-3), (5e-6, 5e-4)])
def test_the_timings_take_samples_as_long_as_the_timer_needs(monkeypatch, step, target):
    stepped_clock(monkeypatch, step)
    seen = []
    sample = analysis_timing._sample

    async def recorded(call, wait, n, pause=analysis_timing._no_pause):
        elapsed = await sample(call, wait, n, pause)
        seen.append((n, elapsed))
        return elapsed
    monkeypatch.setattr(analysis_timing, "_sample", recorded)
    t = analysis.timings(lambda x: x * 2.0 + 1.0, (np.ones(4, np.float32),), repeats=3, backends=["cpu"])
    assert t["clock_step"] == pytest.approx(step, rel=1e-3) and t["sample_s"] == pytest.approx(target, rel=1e-3)
    for key in ("eager", "jit_steady"):
        r = t[key]
        # each sample of `calls` calls spans the target (half of it at least: one timer step
        # either side), so the per-call time is resolved, never 0
        assert r["median"] > 0 and r["median"] * r["calls"] >= target / 2
        assert r["min"] * r["calls"] >= step
    # and no sample of many calls ran much past the target: the short samples are what is cheap
    many = [elapsed for n, elapsed in seen if n > 1]
    assert many and np.median(many) < 4 * target


def test_the_pane_states_the_calls_per_sample_and_how_long_a_sample_lasts(monkeypatch):
    from app.panes import timing as timing_pane
    stepped_clock(monkeypatch, 1e-4)
    t = analysis.timings(lambda x: x * 2.0, (np.ones(4, np.float32),), repeats=3, backends=["cpu"])
    note = timing_pane.sample_note(t)
    assert f"× {t['eager']['calls']} calls (eager)" in note and "samples sized to last ≥ 2.00 ms" in note
