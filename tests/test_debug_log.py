"""jax.debug.log writes jax.debug.print's text as INFO records of the logger 'jax._src.debugging'
(JAX 0.10.2: with a handler on that logger, `jax.debug.log('x={x}', x=jnp.arange(2))`,
`jax.jit(lambda x: jax.debug.log('hello {}', x))(1.0)` and
`jax.vmap(lambda x: jax.debug.log('v {}', x))(jnp.arange(2.))` log
'x=[0 1]', 'hello 1.0', 'v 0.0', 'v 1.0' and print nothing)."""
from __future__ import annotations

import logging

import core as jax
import core.numpy as jnp


def test_debug_log_goes_to_jax_logger(caplog, capsys):
    with caplog.at_level(logging.INFO, logger="jax._src.debugging"):
        jax.debug.log('x={x}', x=jnp.arange(2))
        jax.jit(lambda x: jax.debug.log('hello {}', x))(1.0)
        jax.vmap(lambda x: jax.debug.log('v {}', x))(jnp.arange(2.))
    records = [r for r in caplog.records if r.name == "jax._src.debugging"]
    assert [r.getMessage() for r in records] == ['x=[0 1]', 'hello 1.0', 'v 0.0', 'v 1.0']
    assert all(r.levelno == logging.INFO and r.pathname == __file__ for r in records)
    assert capsys.readouterr().out == ""


def test_skip_format_check_prints_the_arguments_after(capsys):
    # JAX 0.10.2: jax.debug.print('plain', 3, skip_format_check=True) prints "plain 3"
    jax.debug.print('plain', 3, skip_format_check=True)
    assert capsys.readouterr().out == "plain 3\n"
