"""A run's output as it happens (app/run_progress.py): the page shows the line the running code
printed last beside "Running… N s", and the Console pane shows a progress bar's final line once,
as a terminal would, not every redraw (issue 24: a long numpyro MCMC run with progress_bar=True)."""
from __future__ import annotations

import time

import pytest

from app import run_progress, sandbox

TICKING = """
import sys, time
for i in range(1, 6):
    sys.stderr.write(f"\\rsample: {20 * i}%| {i}/5")
    time.sleep(0.3)
sys.stderr.write("\\n")
print("done")
"""


@pytest.fixture
def sent(monkeypatch):
    seen = []  # (seconds since the run started, line)
    t0 = time.monotonic()
    monkeypatch.setattr(sandbox, "output_reporter",
                        lambda: run_progress.Reporter(send=lambda line: seen.append((time.monotonic() - t0, line))))
    return seen


def test_the_page_hears_each_progress_line_while_the_run_goes_on(sent):
    res = sandbox.run(TICKING, seconds=None)
    assert res.error is None, res.error
    lines = [line for _, line in sent]
    assert lines[0] == "sample: 20%| 1/5" and "sample: 100%| 5/5" in lines and lines[-1] == "done", lines
    # reported during the run, not all at its end
    assert sent[0][0] < sent[-1][0] - 0.5, sent


def test_the_console_keeps_a_redrawn_line_once():
    res = sandbox.run(TICKING, seconds=None)
    assert res.stderr == "sample: 100%| 5/5\n", repr(res.stderr)
    assert res.stdout == "done\n"


def test_reports_are_spaced_out():
    got = []
    note = run_progress.Reporter(send=got.append)
    for i in range(1000):
        note(f"\r{i}/1000")
    assert got == ["0/1000"]  # the rest came within REPORT_S of it


def test_numpyro_progress_bar_shows_while_mcmc_runs(sent, monkeypatch):
    from tests.app.conftest import ROOT
    import sys
    sys.path.insert(0, str(ROOT / "tests" / "ecosystem"))
    from install import ensure_installed, ensure_ring2_installed
    for target in (ensure_installed(), ensure_ring2_installed()):
        if str(target) not in sys.path:
            sys.path.insert(0, str(target))
    monkeypatch.setattr(run_progress, "REPORT_S", 0.0)
    # numpyro turns its bar off when it sees CI or a pytest-xdist worker in the environment
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    code = """
import jax, numpyro, numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS
def model():
    numpyro.sample("x", dist.Normal(0.0, 1.0))
mcmc = MCMC(NUTS(model), num_warmup=20, num_samples=30, progress_bar=True)
mcmc.run(jax.random.key(0))
float(mcmc.get_samples()["x"].mean())
"""
    res = sandbox.run(code, seconds=None)
    assert res.error is None, res.error
    lines = [line for _, line in sent]
    # the page heard the bar while the run went on (how many redraws tqdm makes depends on speed)
    assert len(lines) >= 2 and "%|" in lines[0] and "100%" not in lines[0], lines
    assert lines[-1].startswith("sample: 100%"), lines
    final = res.stderr.strip().splitlines()
    assert final[-1].startswith("sample: 100%") and "\r" not in res.stderr, repr(res.stderr[-300:])
