"""jax_debug_nans' note for an eager `jnp` call. In JAX nearly every `jax.numpy` function is a
`jit` (inlined when traced), so a nan made eagerly inside one first takes the jit path: JAX prints
"Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized
version." and re-runs it op by op, whose primitive then raises FloatingPointError. A bare
`lax` primitive is no jit: no note. gradpad's jnp functions are plain Python, so the note is
printed when the failing eager primitive was reached from one (docs/debugging/flags.md)."""
from __future__ import annotations

import sys

_NUMPY_PACKAGE = __name__.rsplit(".", 2)[0] + ".libraries.numpy"  # core._engine.base.jit_nan_note -> core._engine.libraries.numpy
NOTE = "Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version."


def note_if_inside_jnp() -> None:
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module == _NUMPY_PACKAGE or module.startswith(_NUMPY_PACKAGE + "."):
            print(NOTE)
            return
        frame = frame.f_back
