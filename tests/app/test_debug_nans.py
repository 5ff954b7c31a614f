"""jax_debug_nans in the playground: a function that makes a NaN at the input the panes use
shows JAX's FloatingPointError in the console (the panes failed with nothing printed), and a
flag the code set does not outlive it (a run starts from the defaults, as a fresh Python)."""
from app import analysis
from app.panes import console

# JAX's "Debugging NaNs" switch, and a function the code never calls: the panes use f(1.0)
NAN_AT_THE_INPUT = """
import jax
import jax.numpy as jnp
jax.config.update("jax_debug_nans", True)

def f(x):
    return jnp.log(x - 2.0)
"""


def html_of(parts) -> str:
    return "\n".join(str(p.object) for p in parts)


def test_a_nan_at_the_panes_input_shows_jaxs_floating_point_error_in_the_console():
    a = analysis.analyse(NAN_AT_THE_INPUT, with_timing=False)
    assert a.run.error is None and a.function.name == "f" and a.args_source == "1.0"
    # JAX: jax.config.update("jax_debug_nans", True); f(1.0)
    #   -> FloatingPointError: invalid value (nan) encountered in log
    text = console.console_text(a.run, a)
    assert text == ("f(1.0), the input the panes use, raises with jax_debug_nans on:\n"
                    "FloatingPointError: invalid value (nan) encountered in log"), text
    for compact in (False, True):  # the Console tab and the strip under the editor
        shown = html_of(console.render(a, compact=compact))
        assert "FloatingPointError: invalid value (nan) encountered in log" in shown and "(no output)" not in shown


def test_a_typed_input_is_checked_too_and_a_clean_one_adds_nothing():
    code = NAN_AT_THE_INPUT + "print(f(3.0))\n"  # JAX: f(3.0) -> 0.0
    a = analysis.analyse(code, with_timing=False)
    assert console.console_text(a.run, a) == "0.0"
    a = analysis.analyse(code, args_source="-1.0", with_timing=False)
    assert console.console_text(a.run, a).endswith("FloatingPointError: invalid value (nan) encountered in log")


def test_an_error_the_run_already_shows_is_not_repeated():
    # JAX: f(-1.0) at the top level prints its note for jnp.log's jit, then raises
    #   Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.
    #   FloatingPointError: invalid value (nan) encountered in log
    a = analysis.analyse(NAN_AT_THE_INPUT + "print(f(-1.0))\n", with_timing=False)
    assert a.run.error.type == "FloatingPointError"
    assert console.console_text(a.run, a) == (
        "Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.\n"
        "FloatingPointError: invalid value (nan) encountered in log")


def test_a_flag_set_by_the_previous_code_does_not_outlive_it():
    analysis.analyse(NAN_AT_THE_INPUT + 'jax.config.update("jax_enable_x64", True)\n', with_timing=False)
    # a fresh Python: JAX: jnp.log(-1.0) -> Array(nan, dtype=float32, weak_type=True), no error
    a = analysis.analyse("import jax.numpy as jnp\nprint(jnp.log(-1.0), jnp.ones(2).dtype)\n", with_timing=False)
    assert a.run.error is None and a.run.stdout == "nan float32\n", (a.run.stdout, a.run.error)
