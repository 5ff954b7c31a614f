"""`jax.experimental.pjit`: pjit is jit with shardings (one device here, so the shardings only
describe where values would live)."""
from __future__ import annotations

from .._engine.api.api import jit


def pjit(fun, in_shardings=None, out_shardings=None, static_argnums=None, static_argnames=None,
         donate_argnums=None, donate_argnames=None, keep_unused=False, device=None, backend=None,
         inline=False, compiler_options=None):
    return jit(fun, in_shardings=in_shardings, out_shardings=out_shardings,
               static_argnums=static_argnums or (), static_argnames=static_argnames or (),
               donate_argnums=donate_argnums or (), donate_argnames=donate_argnames or (),
               keep_unused=keep_unused, device=device, backend=backend, inline=inline)
