"""The core benchmark's own checks (its timings are never asserted: targets live in its output)."""
import numpy as np
import pytest

from tests import bench_core


def test_results_are_compared_leaf_by_leaf_with_dtypes():
    ok = ([np.float32(1.5), np.ones(2, np.float32)], {"a": np.int32(3)})
    bench_core.check_same("row", ok, ([np.float32(1.5), np.ones(2, np.float32)], {"a": np.int32(3)}), None)
    with pytest.raises(AssertionError, match="row: float32\\[\\] here, JAX gives float64\\[\\]"):
        bench_core.check_same("row", np.float32(1.0), np.float64(1.0), None)
    with pytest.raises(AssertionError, match="row: 1 leaves here, JAX has 2"):
        bench_core.check_same("row", [np.ones(2)], [np.ones(2), np.ones(2)], None)
    with pytest.raises(AssertionError):   # bit for bit when no tolerance is given
        bench_core.check_same("row", np.float32(1.0), np.nextafter(np.float32(1.0), np.float32(2.0)), None)
    bench_core.check_same("row", np.float32(1.0), np.nextafter(np.float32(1.0), np.float32(2.0)), (1e-6, 0))


def test_missing_jax_environment_names_how_to_create_one(tmp_path, monkeypatch):
    import sys
    monkeypatch.delenv("GRADPAD_JAX_PYTHON", raising=False)
    monkeypatch.delitem(sys.modules, "jax", raising=False)   # (the app's tests install ours as jax)
    jax, note = bench_core.load_jax(str(tmp_path / "no-venv" / "bin" / "python"))
    assert jax is None
    assert "pip install jax" in note and "JAX column omitted" in note


def test_every_target_names_a_benchmarked_row():
    rows = {r for r, *_ in bench_core.STEADY} | {r for r, *_ in bench_core.ONCE}
    assert set(bench_core.TARGETS) <= rows


def test_cpu_clock_option_times_process_cpu_time(capsys, monkeypatch):
    import time
    monkeypatch.setattr(bench_core, "clock", bench_core.clock)   # restored after the test
    monkeypatch.setattr(bench_core, "load_jax", lambda _: (None, "no JAX here"))
    assert bench_core.main(["--clock", "cpu", "-k", "no row has this name"]) == 0
    assert bench_core.clock is time.process_time
    assert "(cpu clock)" in capsys.readouterr().out
    busy = bench_core._batch_time(lambda: sum(range(20000)), 5)
    assert busy > 0


def test_own_clock_option_times_our_calls_on_the_calling_thread(capsys, monkeypatch):
    # JAX's XLA pool threads keep burning CPU after its call; the process clock charged that to
    # the next (our) call. `--clock own`: ours by thread time, JAX's by process time.
    import time
    monkeypatch.setattr(bench_core, "clock", bench_core.clock)
    monkeypatch.setattr(bench_core, "ours_clock", bench_core.ours_clock)
    monkeypatch.setattr(bench_core, "load_jax", lambda _: (None, "no JAX here"))
    assert bench_core.main(["--clock", "own", "-k", "no row has this name"]) == 0
    assert bench_core.clock is time.process_time and bench_core.ours_clock is time.thread_time
    assert "(own clock)" in capsys.readouterr().out
    ticks = {"ours": 0.0, "theirs": 0.0}

    def ticking(side, step):
        def clk():
            ticks[side] += step
            return ticks[side]
        return clk
    monkeypatch.setattr(bench_core, "ours_clock", ticking("ours", 1.0))
    monkeypatch.setattr(bench_core, "clock", ticking("theirs", 10.0))
    t_ours, t_theirs, ratio = bench_core.paired_once(lambda engine, r: None, "ours", "theirs", 3)
    assert (t_ours, t_theirs, ratio) == (1.0, 10.0, 0.1)
