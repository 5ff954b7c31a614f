"""jax.config (x64, debug_nans/infs, unknown flags) and jax.debug.print, against real JAX 0.10.2.

Each expected value/message was produced by real JAX 0.10.2 running the quoted code.
"""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def flags():
    names = ("jax_enable_x64", "jax_debug_nans", "jax_debug_infs", "jax_threefry_partitionable")
    saved = {k: jax.config.read(k) for k in names}
    yield jax.config
    for k, v in saved.items():
        jax.config.update(k, v)


# ---- x64 ------------------------------------------------------------------------------------

def test_float64_request_without_x64_warns_and_truncates(flags):
    # jnp.array([1., 2.], dtype=jnp.float64) -> Array([1., 2.], dtype=float32) + UserWarning
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        x = jnp.array([1.0, 2.0], dtype=jnp.float64)
    assert x.dtype == np.float32
    assert any(issubclass(i.category, UserWarning) and str(i.message).startswith(
        "Explicitly requested dtype float64 requested in array is not available, and will be "
        "truncated to dtype float32.") for i in w)


def test_enable_x64_by_config(flags):
    # jax.config.update('jax_enable_x64', True); jnp.array([1., 2.]) -> float64, jnp.arange(3) -> int64
    flags.update("jax_enable_x64", True)
    assert jax.config.jax_enable_x64 is True
    assert jnp.array([1.0, 2.0]).dtype == np.float64
    assert jnp.arange(3).dtype == np.int64
    assert (jnp.ones(2) + 1).dtype == np.float64
    flags.update("jax_enable_x64", False)
    assert jnp.array([1.0, 2.0]).dtype == np.float32


@pytest.mark.parametrize("value", ["1", "True"])
def test_enable_x64_by_environment(value):
    # JAX_ENABLE_X64=1 python -c "import jax.numpy as jnp; print(repr(jnp.array([1., 2.])))"
    #   -> Array([1., 2.], dtype=float64)
    code = "import core.numpy as jnp; print(repr(jnp.array([1., 2.])), repr(jnp.arange(3)))"
    env = dict(os.environ, JAX_ENABLE_X64=value, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Array([1., 2.], dtype=float64) Array([0, 1, 2], dtype=int64)"


def test_unknown_flag(flags):
    # jax.config.update('jax_bogus', 1) -> AttributeError: Unrecognized config option: jax_bogus
    with pytest.raises(AttributeError, match="Unrecognized config option: jax_bogus"):
        jax.config.update("jax_bogus", 1)


def test_threefry_flag_default(flags):
    # jax.config.jax_threefry_partitionable -> True (default since JAX 0.5.0)
    assert jax.config.jax_threefry_partitionable is True


# ---- debug_nans / debug_infs -----------------------------------------------------------------

def test_debug_nans_eager(flags):
    # jax.config.update('jax_debug_nans', True); jnp.log(-1.0)
    #   -> FloatingPointError: invalid value (nan) encountered in log
    flags.update("jax_debug_nans", True)
    with pytest.raises(FloatingPointError, match=r"invalid value \(nan\) encountered in log"):
        jnp.log(-1.0)
    assert float(jnp.log(0.0)) == -np.inf  # infs pass unless jax_debug_infs


def test_debug_nans_jit_reruns_op_by_op(flags, capsys):
    # jax.jit(f)(-1.0) with f = lambda x: jnp.log(x) * 2 prints JAX's notice, then
    #   FloatingPointError: invalid value (nan) encountered in log
    flags.update("jax_debug_nans", True)
    with pytest.raises(FloatingPointError, match=r"invalid value \(nan\) encountered in log"):
        jax.jit(lambda x: jnp.log(x) * 2)(-1.0)
    assert "Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized " \
           "version." in capsys.readouterr().out
    assert float(jax.jit(lambda x: jnp.log(x) * 2)(2.0)) == pytest.approx(1.3862944)


def test_debug_nans_under_grad(flags):
    # jax.grad(jnp.sqrt)(-1.0) -> FloatingPointError: invalid value (nan) encountered in sqrt
    flags.update("jax_debug_nans", True)
    with pytest.raises(FloatingPointError, match=r"invalid value \(nan\) encountered in sqrt"):
        jax.grad(lambda x: jnp.sqrt(x))(-1.0)


def test_debug_infs(flags):
    # jax.config.update('jax_debug_infs', True); jnp.log(0.) -> invalid value (inf) encountered in log
    flags.update("jax_debug_infs", True)
    with pytest.raises(FloatingPointError, match=r"invalid value \(inf\) encountered in log"):
        jnp.log(0.0)


def test_debug_nans_off_by_default():
    assert np.isnan(float(jnp.log(-1.0)))


# ---- jax.debug.print --------------------------------------------------------------------------

def _f(x):
    jax.debug.print("x = {}", x)
    jax.debug.print("y = {y}", y=x * 2)
    return x + 1


def test_debug_print_runs_at_run_time_in_jit(capsys):
    # jax.jit(f)(jnp.arange(3.)) prints "x = [0. 1. 2.]" / "y = [0. 2. 4.]" on every call
    g = jax.jit(_f)
    g(jnp.arange(3.0))
    g(jnp.arange(3.0) + 1)
    assert capsys.readouterr().out.splitlines() == ["x = [0. 1. 2.]", "y = [0. 2. 4.]",
                                                    "x = [1. 2. 3.]", "y = [2. 4. 6.]"]


def test_debug_print_under_vmap_and_grad(capsys):
    # jax.vmap(f)(jnp.arange(2.)) prints one line per example; jax.grad(f)(1.0) prints the primal
    jax.vmap(_f)(jnp.arange(2.0))
    assert capsys.readouterr().out.splitlines() == ["x = 0.0", "x = 1.0", "y = 0.0", "y = 2.0"]
    assert float(jax.grad(_f)(1.0)) == 1.0
    assert capsys.readouterr().out.splitlines() == ["x = 1.0", "y = 2.0"]


def test_debug_print_eager_and_jaxpr(capsys):
    jax.debug.print("plain {} {}", 1, jnp.float32(2.5))
    assert capsys.readouterr().out == "plain 1 2.5\n"
    # str(jax.make_jaxpr(f)(1.0)) starts with these lines in JAX 0.10.2
    text = str(jax.make_jaxpr(_f)(1.0))
    assert text.splitlines()[:4] == ["{ lambda ; a:f32[]. let", "    debug_print[", "      fmt=x = {}",
                                     "      has_placeholders=True"]
    assert "      in_tree=PyTreeDef(((*,), {}))" in text and "    c:f32[] = add a 1.0:f32[]" in text


def test_debug_callback(capsys):
    jax.jit(lambda x: jax.debug.callback(lambda v: print("cb", v), x))(jnp.ones(2))
    assert capsys.readouterr().out == "cb [1. 1.]\n"
