"""A Stop's KeyboardInterrupt is the learner's own doing: on a guessed input the panes do not
call it an error "on the guessed input 1.0" with a hint to type arguments (seen after a Stop
in the 1e6 selu's timing loop, where the run ended before the code called selu itself)."""
from __future__ import annotations

import types

from app import sandbox
from app.panes import common


def test_a_stop_is_not_blamed_on_the_guessed_input():
    a = types.SimpleNamespace(function=types.SimpleNamespace(name="selu"), args_source="1.0", args_guessed=True)
    stop = sandbox.describe_error(KeyboardInterrupt())
    other = sandbox.describe_error(TypeError("bad operand"))
    with common.guessed_input(a):
        stopped, failed = common.error_block(stop).object, common.error_block(other).object
    assert "KeyboardInterrupt" in stopped and "guessed input" not in stopped, stopped
    assert "(on the guessed input 1.0)" in failed  # other errors on a guess still say so
