"""tools/doc_examples.py: JAX's docstring examples run under gradpad, each function in a fresh namespace."""
import sys

from tools import doc_examples


def test_each_function_runs_in_a_fresh_namespace_with_jax_doctest_names():
    groups = {"a.f": ["x = jnp.arange(3)\nprint(lax.neg(x))", "x.sum()"],
              "a.g": ["x"]}  # x was defined by a.f's examples, not a.g's
    out = doc_examples.run_side(sys.executable, groups, str(doc_examples.ROOT), timeout=300)
    assert out["a.f"][0]["stdout"] == "[ 0 -1 -2]\n"
    assert out["a.f"][1]["display"] == "Array(3, dtype=int32)"
    assert out["a.g"][0]["error"]["type"] == "NameError"


def test_a_crashing_function_is_isolated():
    groups = {"a.ok": ["1 + 1"], "a.crash": ["import os\nos._exit(3)"]}
    out = doc_examples.run_side(sys.executable, groups, str(doc_examples.ROOT), timeout=300)
    assert out["a.ok"][0]["display"] == "2"
    assert out["a.crash"][0]["error"]["type"] == "RunnerCrashed"
