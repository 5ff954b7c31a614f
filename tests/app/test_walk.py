"""Programs a new user pastes (JAX's docs and the shapes a learner writes, hostile ones too) that
the panes showed wrong: each test pins one fix in CPython; tests/browser/test_walk.py loads a
compact set of them in the built page."""
import pytest

from app import analysis

SYS_EXIT = """
import jax.numpy as jnp

def f(x):
    return jnp.sin(x)

print(f(1.0))
import sys
sys.exit()
print("never")
"""


@pytest.mark.parametrize("ending, status", [("sys.exit()", ""), ("exit(2)", " with status 2"), ("quit()", "")])
def test_sys_exit_ends_the_run_with_a_message_and_keeps_what_ran(ending, status):
    a = analysis.analyse(SYS_EXIT.replace("sys.exit()", ending), with_timing=False)
    # Python: the script prints 0.841471 (jnp.sin(1.0)), then SystemExit ends it
    assert a.run.stdout == "0.841471\n"
    assert a.run.error.type == "SystemExit" and a.run.error.line == 9
    assert a.run.error.message == "sys.exit() (or exit() / quit()) ended the run" + status
    assert "the panes analyse what the code defined before it" in a.run.error.hint
    assert a.function.name == "f" and a.plot_kind == "scalar"


def test_sys_exit_inside_the_function_fails_that_call_only():
    code = "import sys\ndef f(x):\n    sys.exit(1)\n"
    a = analysis.analyse(code, with_timing=False)  # never called: the panes call f on a guess
    assert a.run.error is None and a.function.name == "f"
    assert a.jaxprs["f"].error.type == "SystemExit"


def test_input_says_the_page_has_no_keyboard_input():
    a = analysis.analyse("name = input('name? ')\nprint('hi', name)\n", with_timing=False)
    assert a.run.stdout == "name? "
    assert a.run.error.type == "EOFError" and a.run.error.line == 1  # Python's error for input() with no input
    assert a.run.error.message.startswith("input() cannot read a line here: the page has no terminal")
