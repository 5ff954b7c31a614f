"""jax.ad_checkpoint.print_saved_residuals prints what JAX prints for the examples of JAX's
"gradient checkpointing" guide (docs/gradient-checkpointing.md, jax-v0.10.2).

JAX 0.10.2 printed, for these same functions in a file /tmp/tr_ck.py whose `g` starts on line 2
(`y = jnp.dot(W, x)` on line 3, `return jnp.sin(y)` on line 4):

    print_saved_residuals(f, W1, W2, W3, x)
      f32[5,4] from the argument W1
      f32[6,5] from the argument W2
      f32[7,6] from the argument W3
      f32[4] from the argument x
      f32[5] output of sin from /tmp/tr_ck.py:4:9 (g)
      f32[5] output of cos from /tmp/tr_ck.py:4:9 (g)
      f32[6] output of sin from /tmp/tr_ck.py:4:9 (g)
      f32[6] output of cos from /tmp/tr_ck.py:4:9 (g)
      f32[7] output of cos from /tmp/tr_ck.py:4:9 (g)
    with each g checkpointed: the four arguments, then only the sin outputs (f32[5], f32[6]);
    with jax.checkpoint(f, policy=dots_with_no_batch_dims_saveable): the arguments, then
      f32[5] output of dot_general from /tmp/tr_ck.py:3:6 (g)   (and f32[6], f32[7])
    predict with save_only_these_names('layer0_output'):
      f32[3,3] from the argument params[0][0]
      f32[3,3] from the argument params[1][0]
      f32[3] from the argument params[1][1]
      f32[3] from the argument x
      f32[3] named 'layer0_output' from /tmp/tr_ck.py:27:8 (predict)
"""
from __future__ import annotations

import core as jax
import core.numpy as jnp
from core.ad_checkpoint import checkpoint_name, print_saved_residuals

HERE = __file__


def g(W, x):
    y = jnp.dot(W, x)
    return jnp.sin(y)


def f(W1, W2, W3, x):
    x = g(W1, x)
    x = g(W2, x)
    x = g(W3, x)
    return x


def f_each_checkpointed(W1, W2, W3, x):
    x = jax.checkpoint(g)(W1, x)
    x = jax.checkpoint(g)(W2, x)
    x = jax.checkpoint(g)(W3, x)
    return x


def predict(params, x):
    for i, (W, b) in enumerate(params):
        x = jnp.dot(W, x) + b
        x = checkpoint_name(x, name=f'layer{i}_output')
        x = jnp.sin(x)
    return x


W1, W2, W3, X = jnp.ones((5, 4)), jnp.ones((6, 5)), jnp.ones((7, 6)), jnp.ones(4)
ARGS = ["f32[5,4] from the argument W1", "f32[6,5] from the argument W2", "f32[7,6] from the argument W3",
        "f32[4] from the argument x"]
DOT = f"{HERE}:{g.__code__.co_firstlineno + 1}:8 (g)"   # y = jnp.dot(W, x)  (4-space indent here)
SIN = f"{HERE}:{g.__code__.co_firstlineno + 2}:11 (g)"  # return jnp.sin(y)  (4-space indent here)


def _printed(capsys, fn, *args):
    print_saved_residuals(fn, *args)
    return capsys.readouterr().out.splitlines()


def test_no_checkpoint_saves_sin_and_cos(capsys):
    assert _printed(capsys, f, W1, W2, W3, X) == ARGS + [
        f"f32[5] output of sin from {SIN}", f"f32[5] output of cos from {SIN}",
        f"f32[6] output of sin from {SIN}", f"f32[6] output of cos from {SIN}",
        f"f32[7] output of cos from {SIN}"]


def test_each_layer_checkpointed_saves_only_its_inputs(capsys):
    assert _printed(capsys, f_each_checkpointed, W1, W2, W3, X) == ARGS + [
        f"f32[5] output of sin from {SIN}", f"f32[6] output of sin from {SIN}"]


def test_dots_with_no_batch_dims_saveable_saves_the_dots(capsys):
    policy = jax.checkpoint_policies.dots_with_no_batch_dims_saveable
    assert _printed(capsys, jax.checkpoint(f, policy=policy), W1, W2, W3, X) == ARGS + [
        f"f32[{n}] output of dot_general from {DOT}" for n in (5, 6, 7)]


def test_save_only_these_names_saves_the_named_value(capsys):
    params = [(jnp.ones((3, 3)), jnp.ones(3))] * 2
    policy = jax.checkpoint_policies.save_only_these_names('layer0_output')
    named = f"{HERE}:{predict.__code__.co_firstlineno + 3}:12 (predict)"
    assert _printed(capsys, jax.checkpoint(predict, policy=policy), params, jnp.ones(3)) == [
        "f32[3,3] from the argument params[0][0]", "f32[3,3] from the argument params[1][0]",
        "f32[3] from the argument params[1][1]", "f32[3] from the argument x",
        f"f32[3] named 'layer0_output' from {named}"]


def test_print_saved_residuals_leaves_no_source_context_behind():
    # equations always carry their source line now (core/_engine/base/source_info.py); printing residuals
    # re-emits equations under their primal's line and must pop every context it pushed
    from core._engine.base import source_info
    depth = len(source_info._current)
    print_saved_residuals(f, W1, W2, W3, X)
    assert len(source_info._current) == depth
    assert all(source_info.summarize(e.source_info).startswith(__file__)
               for e in jax.make_jaxpr(f)(W1, W2, W3, X).jaxpr.eqns)


def test_removed_ad_checkpoint_spellings_warn_and_work():
    # JAX 0.10.2: jax.ad_checkpoint.checkpoint -> AttributeError ("deprecated in JAX v0.8.2 and removed in
    # JAX v0.10.0; use jax.checkpoint instead"); gradpad accepts the older tutorials' spelling with a warning.
    import pytest
    import core.ad_checkpoint as ac
    from core._engine.base.compat import LegacyNameWarning, _warned
    _warned.discard("jax.ad_checkpoint.remat")
    with pytest.warns(LegacyNameWarning, match="Use `jax.remat` instead"):
        remat = ac.remat
    assert float(jax.grad(remat(lambda x: jnp.sin(x) * x))(2.0)) == pytest.approx(float(jax.grad(lambda x: jnp.sin(x) * x)(2.0)))
