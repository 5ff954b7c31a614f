"""Captures and time budgets held across awaits by different tasks (the CPU timing yields to the
event loop between samples; the WebGPU timing awaits its readbacks; the next edit's timing starts
meanwhile). With process-wide swaps closed out of order, sys.stdout was left on a finished
buffer and a loop deadline on whichever budget closed last."""
from __future__ import annotations

import asyncio
import sys
import threading
import time

import pytest

from app import sandbox


def run_in_thread(coro_fn):
    """asyncio.run in a thread of its own (browser tests may leave a loop running in this one)."""
    box = {}

    def target():
        try:
            box["value"] = asyncio.run(coro_fn())
        except BaseException as e:  # noqa: BLE001 - re-raised below
            box["error"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join(30)
    if "error" in box:
        raise box["error"]
    return box["value"]


def real_stream(stream):
    return stream.fallback if isinstance(stream, sandbox._TaskRoutedStream) else stream


def test_quiet_tasks_closing_out_of_order_leave_stdout_where_it_was():
    original = real_stream(sys.stdout)
    order = []

    async def timing(name, first_wait, second_wait, holder):
        with sandbox.quiet_task() as (out, err):
            print(f"{name} one")
            await asyncio.sleep(first_wait)
            print(f"{name} two")
            print(f"{name} to stderr", file=sys.stderr)
            await asyncio.sleep(second_wait)
            holder[name] = (out.getvalue(), err.getvalue())
        order.append(name)

    async def main():
        holder = {}
        # first opened, first closed while the second is still open: the out-of-order case
        a = asyncio.create_task(timing("a", 0.01, 0.0, holder))
        await asyncio.sleep(0)
        b = asyncio.create_task(timing("b", 0.05, 0.0, holder))
        await asyncio.sleep(0.02)
        with sandbox.captured() as (between, _, _):  # a run between the timings' awaits
            print("the run's print")
        await asyncio.gather(a, b)
        return holder, between.getvalue()

    holder, between = run_in_thread(main)
    assert order == ["a", "b"]
    assert holder["a"] == ("a one\na two\n", "a to stderr\n")
    assert holder["b"] == ("b one\nb two\n", "b to stderr\n")
    assert between == "the run's print\n"
    assert real_stream(sys.stdout) is original
    assert sandbox._task_streams.get() is None


def test_a_budget_held_across_awaits_neither_caps_nor_outlives_another_tasks_run():
    async def timing():
        # the loop deadline alone, as the page's Pyodide has it (CPython adds a watchdog thread,
        # which raises in the thread, not the task)
        with sandbox._LoopDeadline(0.03):
            await asyncio.sleep(0.06)
            with pytest.raises(sandbox.TimeBudgetExceeded):
                sandbox.tick()  # its own deadline has passed

    async def run_meanwhile():
        await asyncio.sleep(0.045)
        sandbox.tick()  # past the timing's deadline, but this task set none
        with sandbox._LoopDeadline(5.0):
            sandbox.tick()

    async def main():
        await asyncio.gather(timing(), run_meanwhile())

    run_in_thread(main)
    assert sandbox._deadline.get() is None
    sandbox.tick()


def test_quiet_task_exit_from_another_context_is_harmless():
    async def held():
        with sandbox.quiet_task():
            await asyncio.sleep(10)

    async def main():
        coro = held()
        task = asyncio.ensure_future(coro)
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return sandbox._task_streams.get()

    assert run_in_thread(main) is None
    print("still printing", file=sys.stdout)
    time.sleep(0)
