"""Engine fixes found by running optax's and chex's own test suites (tools/lib_tests.py) that the
golden cases cannot express (they need `inspect`, environment variables or a fresh process)."""
from __future__ import annotations

import inspect
import os
import subprocess
import sys

import core as jax


def test_jit_has_the_wrapped_signature_without_unwrapping():
    # real JAX 0.10.2: inspect.signature(jax.jit(lambda x, y=2: x), follow_wrapped=False) -> (x, y=2)
    # (PjitFunction.__signature__); chex's fake_pmap asks exactly this
    jitted = jax.jit(lambda x, y=2: x)
    assert str(inspect.signature(jitted, follow_wrapped=False)) == "(x, y=2)"
    assert str(inspect.signature(jax.jit(lambda a, *rest, k: a))) == "(a, *rest, k)"


FRESH = """
import core; core.install_as_jax()
import jax, jax._src.xla_bridge
started_before = dict(jax._src.xla_bridge._backends)
n = jax.device_count()
print(started_before == {}, n, 'cpu' in jax._src.xla_bridge._backends)
"""


def _fresh(env_extra):
    env = dict(os.environ, **env_extra)
    env.pop("GRADPAD_DEVICES", None)
    proc = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.split()


def test_xla_flags_host_device_count_decides_cpu_devices():
    # XLA_FLAGS=--xla_force_host_platform_device_count=4 python -c 'import jax; print(jax.device_count())' -> 4
    # in real JAX; chex.set_n_cpu_devices sets it and reads jax._src.xla_bridge._backends to know
    # whether the CPU backend already started (then the count is fixed)
    assert _fresh({"XLA_FLAGS": "--xla_force_host_platform_device_count=4"}) == ["True", "4", "True"]
    assert _fresh({"XLA_FLAGS": ""}) == ["True", "1", "True"]


def test_tree_map_dict_prefix_mismatch_names_the_keys():
    # real JAX 0.10.2: jax.tree.map(lambda m, g: g, {"layer1": [True]}, {"layer1": [1.0], "layer2": 2.0, "misc": 3.0})
    # raises ValueError with exactly this text (optax's freezing tests match parts of it)
    import pytest
    with pytest.raises(ValueError) as info:
        jax.tree.map(lambda m, g: g, {"layer1": [True]}, {"layer1": [1.0], "layer2": 2.0, "misc": 3.0})
    assert str(info.value) == (
        "pytree structure error: different numbers of pytree children at key path\n    tree_map tree\n"
        "At that key path, the prefix pytree tree_map tree has a subtree of type\n    <class 'dict'>\n"
        "with 1 child keys\n    layer1\nbut at the same key path the full pytree has a subtree of the same type "
        "but with 3 child keys\n    layer1 layer2 misc\nso the symmetric difference on key sets is\n    layer2 misc")


def test_compiler_ir_says_there_is_no_xla():
    # real JAX: jax.jit(f).lower(x).compiler_ir(dialect="hlo") is XLA's HLO module (optax's numerics
    # tests print it); gradpad has none and says so, naming what to read instead
    import pytest
    with pytest.raises(NotImplementedError, match="does not compile through XLA.*make_jaxpr"):
        jax.jit(lambda x: x * x).lower(1.0).compiler_ir(dialect="hlo")


def test_tracers_take_weak_references():
    # real JAX 0.10.2: weakref.ref(tracer) works under jit, grad, vmap and jvp (Tracer's __slots__ hold
    # __weakref__); TensorFlow Probability's JAX substrate caches on them, and every distrax bijector
    # test under jit failed with "cannot create weak reference to 'DynamicJaxprTracer' object"
    import weakref
    kinds = []

    def f(x):
        for t in (x, x * 2):
            kinds.append(type(weakref.ref(t)()).__name__)
        return x
    jax.jit(f)(1.0)
    jax.grad(f)(1.0)
    jax.vmap(f)(jax.numpy.ones(2))
    jax.jvp(f, (1.0,), (1.0,))
    assert len(kinds) == 8 and all(k.endswith("Tracer") for k in kinds), kinds
