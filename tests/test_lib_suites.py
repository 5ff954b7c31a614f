"""A curated, fast part of optax 0.2.8's and chex 0.1.92's own test suites (shipped in their
wheels; tools/lib_tests.py runs all 63 files) must pass with gradpad playing jax. The libraries
come from the same installer as tests/test_ecosystem.py; these files need nothing else.

Each group runs in one pytest subprocess (tools/lib_tests.run_file); the minimum counts guard
against a file silently collecting or running nothing."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lib_tests  # noqa: E402

# group -> (files run together in one process, tests that must pass at least). chex's fake
# set-up fixes the CPU device count once per process, so fake_set_n_cpu_devices runs alone.
CURATED = {
    "chex_fake_variants": (["chex/_src/fake_test.py", "chex/_src/variants_test.py"], 130),
    "chex_set_n_cpu_devices": (["chex/_src/fake_set_n_cpu_devices_test.py"], 1),
    "optax_core": (["optax/_src/base_test.py", "optax/_src/combine_test.py", "optax/_src/update_test.py",
                    "optax/_src/float64_test.py", "optax/_src/sharding_test.py"], 82),
}
TIMEOUT = 300


@pytest.fixture(scope="module")
def gradpad_env():
    return lib_tests.environment(oracle=False, test_deps=False)


@pytest.mark.parametrize("group", sorted(CURATED))
def test_library_suite_passes_on_gradpad(gradpad_env, group):
    python, env, libs = gradpad_env
    files, at_least = CURATED[group]
    result = lib_tests.run_file(python, env, libs, [libs / f for f in files], TIMEOUT, oracle=False)
    assert result["status"] == "ok", result["status"]
    bad = {k: v for k, v in result["tests"].items() if v[0] in ("failed", "error")}
    assert not bad, "\n".join(f"{k}: {v[1]}" for k, v in sorted(bad.items()))
    tally = lib_tests.counts(result["tests"])
    assert tally["passed"] >= at_least, tally
