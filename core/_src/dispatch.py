"""`jax._src.dispatch` (equinox's filter_jit waits on runtime tokens; gradpad runs in order)."""


def wait_for_tokens() -> None:
    return None
