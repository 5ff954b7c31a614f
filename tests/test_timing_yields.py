"""The CPU timings that yield to a waiting edit (app.analysis.timings_yielding, used by the page's
Timing pane): the same numbers as `timings`, and they stop at the first sample after newer code
is waiting instead of timing the old code to its end."""
from __future__ import annotations

import asyncio
import concurrent.futures

import pytest

from app import analysis
from app.analysis import timing as analysis_timing


def _run(coro):
    """asyncio.run in a thread of its own: browser tests earlier in the session leave an event loop
    running in this one (playwright's sync API), where asyncio.run refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def f(x):
    return x * 2.0 + 1.0


def test_timings_yielding_answers_like_timings():
    ours = _run(analysis.timings_yielding(f, (1.5,), superseded=lambda: False))
    ref = analysis.timings(f, (1.5,))
    assert set(ours) == set(ref) and set(ours["backends"]) == set(ref["backends"])
    cpu = ours["backends"]["cpu"]
    assert cpu["eager"]["median"] > 0 and cpu["jit_steady"]["median"] > 0 and cpu["retraces"] == 1


def test_timings_yielding_stops_at_the_first_sample_after_newer_code_waits(monkeypatch):
    monkeypatch.setattr(analysis_timing, "YIELD_EVERY_S", 0.0)  # a turn of the event loop before every sample
    calls, turns = [0], [0]

    def counted(x):
        calls[0] += 1
        return x * 2.0

    def superseded():
        turns[0] += 1
        return calls[0] >= 3  # an edit arrived while the third call ran

    sleeps = [0]
    sleep = asyncio.sleep

    async def counted_sleep(delay, *args, **kwargs):
        sleeps[0] += 1
        return await sleep(delay, *args, **kwargs)
    monkeypatch.setattr(asyncio, "sleep", counted_sleep)

    with pytest.raises(analysis.Superseded):
        _run(analysis.timings_yielding(counted, (1.5,), superseded))
    assert calls[0] == 3, calls  # not one more call of the old code after that
    assert turns[0] == 3, turns  # asked before each sample (the first eager call, warm, autorange)
    assert sleeps[0] == 3, sleeps  # YIELD_EVERY_S = 0 reached the code: the loop got a turn each time
