"""tools/doc_cells.py (JAX's tutorials cell by cell) and the small JAX surfaces its runs turned up."""
import pytest

from tools import doc_cells


def test_myst_cells_drop_options_and_keep_code():
    text = ("intro\n```{code-cell}\n:tags: [raises-exception]\n\nx = 1\nx + 1\n```\nprose\n"
            "```{code-cell} ipython3\n---\ntags: [hide-output]\n---\nprint(2)\n```\n```python\nnot_a_cell()\n```\n")
    assert doc_cells.myst_cells(text) == ["x = 1\nx + 1", "print(2)"]


def test_doctest_cells_group_prompt_lines():
    text = "Text\n\n>>> def f(x):\n...   return x\n>>> print(f(1))\n1\n\n>>> y = 2\n"
    assert doc_cells.doctest_cells(text) == ["def f(x):\n  return x\nprint(f(1))", "y = 2"]


def test_myst_page_without_code_cells_runs_its_python_fences():
    # docs/buffer_donation.md, docs/aot.md: the code is in ```python fences (a doctest fence gives its examples)
    text = ("```python\nx = 1\nprint(x)\n```\ntext\n```bash\npip install jax\n```\n"
            "  ```python\n  >>> y = 2\n  >>> y\n  2\n  ```\n")
    assert doc_cells.myst_cells(text) == ["x = 1\nprint(x)", "y = 2\ny"]


def test_rst_cells_read_code_blocks_doctests_and_nested_directives():
    text = ("Intro\n\n>>> a = 1\n\n.. code-block:: python\n\n   with ctx():\n     z = 2\n\n"
            ".. code-block:: bash\n\n   export X=1\n\n.. admonition:: Example\n\n    text\n\n"
            "    .. code-block:: python\n\n        p = 3\n\n.. code-block:: python\n\n   >>> b = 4\n   >>> b\n   4\n")
    assert doc_cells.rst_cells(text) == ["a = 1", "with ctx():\n  z = 2", "p = 3", "b = 4\nb"]


def test_rst_tagged_block_and_autoclass_read_the_repository():
    script = "import jax\n# tag: step\ndef f(x):\n  y = x + 1\n  return y  # tag: step\n"
    source = 'class Boom(Exception):\n  """Raised.\n\n  >>> raise Boom()\n  """\n'
    files = {"docs/demo.py": script, "jax/_src/errors.py": source}
    text = (".. tagged-block:: demo.py step\n   :hl_lines: 2\n\n.. tagged-block:: demo.py step 2:3\n\n"
            ".. currentmodule:: jax.errors\n.. autoclass:: Boom\n")
    assert doc_cells.rst_cells(text, files.__getitem__) == [
        "def f(x):\n  y = x + 1\n  return y", "y = x + 1\nreturn y", "raise Boom()"]


def test_magics_run_their_statement_once():
    assert doc_cells.strip_magics("%timeit f(x).block_until_ready()\n!pip install jax\ny = 1") == \
        "f(x).block_until_ready()\ny = 1"
    assert doc_cells.strip_magics("%timeit -n 10 -r 3 g()") == "g()"


def test_run_cell_shows_last_expression_stdout_and_error_class():
    ns = {}
    out = doc_cells.run_cell("print('hi')\n1 + 1", ns)
    assert out == {"stdout": "hi\n", "display": "2", "error": None}
    out = doc_cells.run_cell("None", ns)
    assert out["display"] is None
    out = doc_cells.run_cell("print('before')\n{}['k']", ns)
    assert out["stdout"] == "before\n" and out["error"]["type"] == "KeyError"


@pytest.mark.parametrize("a, b, same", [
    ("Array([1.0000001, 2.], dtype=float32)", "Array([1.       , 2.], dtype=float32)", True),
    ("0.6890297", "0.6914139", False),                               # a 0.3% difference is a difference
    ("<function f at 0x7f01>", "<function f at 0x5a22>", True),      # addresses are blanked
    ("Var(id=140020897664640):int32[]", "Var(id=5):int32[]", True),  # so are object ids
    ("Array([1, 2], dtype=int32)", "Array([1, 2], dtype=float32)", False),
    ("[nan 1.]", "[nan 1.]", True),
])
def test_texts_match(a, b, same):
    assert doc_cells.texts_match(a, b) is same


def test_private_safe_map_and_safe_zip_as_jax():
    # JAX 0.10.2: safe_map(f, [1, 2], [1]) -> ValueError 'safe_map() argument 2 is shorter than argument 1';
    # safe_zip([1, 2], [1]) -> ValueError 'safe_zip() argument 1 has length 1 but argument 0 has length 2.
    # All lengths: (2, 1)'; safe_map(lambda a, b: a + b, [1, 2], [3, 4]) -> [4, 6]
    from core._src.util import safe_map, safe_zip
    assert safe_map(lambda a, b: a + b, [1, 2], [3, 4]) == [4, 6]
    assert safe_zip([1], (2,)) == [(1, 2)]
    with pytest.raises(ValueError, match=r"^safe_map\(\) argument 2 is shorter than argument 1$"):
        safe_map(lambda a, b: a, [1, 2], [1])
    with pytest.raises(ValueError, match=r"^safe_zip\(\) argument 1 has length 1 but argument 0 has length 2\. "
                                         r"All lengths: \(2, 1\)$"):
        safe_zip([1, 2], [1])


def test_dot_general_params_repr_as_jax():
    # JAX 0.10.2: make_jaxpr(jnp.dot)(ones((5, 10)), ones(10)).eqns[0].params['dimension_numbers']
    # repr -> (((1,), (0,)), ((), ())); the jaxpr text shows it as (([1], [0]), ([], []))
    import core as jax
    import core.numpy as jnp
    j = jax.make_jaxpr(jnp.dot)(jnp.ones((5, 10)), jnp.ones(10))
    eqn = [e for e in j.eqns if e.primitive.name == "dot_general"][0]
    assert repr(eqn.params["dimension_numbers"]) == "(((1,), (0,)), ((), ()))"
    assert "dimension_numbers=(([1], [0]), ([], []))" in str(j)


def test_xla_modules_name_why_they_are_missing():
    # autodidax: `from jax.extend.mlir import ir` imports in JAX; gradpad has no MLIR/XLA, so the
    # import fails (ModuleNotFoundError, as for any missing module) with the reason in the message
    import subprocess
    import sys
    code = ("import core; core.install_as_jax()\n"
            "for stmt in ['from jax.extend.mlir import ir', 'from jax._src.lib import xla_client', 'import jax.nope']:\n"
            "    try:\n        exec(stmt)\n    except ModuleNotFoundError as e:\n        print(e.name, '|', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("jax.extend.mlir | No module named 'jax.extend.mlir': gradpad has no XLA/MLIR compiler")
    assert out[1].startswith("jax._src.lib | No module named 'jax._src.lib': gradpad has no XLA/MLIR")
    assert out[2] == "jax.nope | No module named 'jax.nope'"


def test_xla_flags_host_device_count_is_read_when_devices_are_first_used():
    # JAX 0.10.2 (docs/notebooks/shard_map.md's first cell): with XLA_FLAGS set after `import jax`
    # and before any device use, len(jax.devices()) -> 8; set after the first use, it stays 1
    import os
    import subprocess
    import sys
    code = ("import core; core.install_as_jax()\nimport jax, os\n"
            "os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=' + os.environ['N_EARLY']\n"
            "n1 = len(jax.devices())\n"
            "os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=4'\n"
            "print(n1, len(jax.devices()))\n")
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "GRADPAD_DEVICES")}
    out = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=dict(env, N_EARLY=n)).stdout.split() for n in ("8", "1")]
    assert out == [["8", "8"], ["1", "1"]]


def test_jax_ref_names_exist_and_say_why_they_cannot_run():
    # JAX 0.10.2: dir(jax.ref) public names are AbstractRef, Ref, addupdate, empty_ref, free_ref, freeze,
    # get, new_ref, set, swap (docs/the-training-cookbook.rst maps jax.ref.get over its train state)
    import core
    from core import ref
    assert sorted(ref.__all__) == ["AbstractRef", "Ref", "addupdate", "empty_ref", "free_ref", "freeze", "get",
                                   "new_ref", "set", "swap"]
    assert core.ref is ref and ref.new_ref is core.new_ref
    for call in (lambda: ref.get(None), lambda: ref.set(None, (), 1), lambda: ref.AbstractRef()):
        with pytest.raises(NotImplementedError, match="no mutable array references"):
            call()


def test_debug_nans_notes_the_jit_of_an_eager_jnp_function(capsys):
    # JAX 0.10.2 with jax_debug_nans: jnp.log(-1.) prints "Invalid nan value encountered in the output of a
    # jax.jit function. Calling the de-optimized version." then raises FloatingPointError 'invalid value (nan)
    # encountered in log'; lax.log(-1.) raises with no note; jit(lambda x: jnp.log(x))(-1.) prints it twice
    import core
    from core import lax, numpy as jnp
    note = "Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version."
    core.config.update("jax_debug_nans", True)
    try:
        for fn, notes in ((lambda: jnp.log(-1.0), 1), (lambda: lax.log(-1.0), 0),
                          (lambda: core.jit(lambda x: jnp.log(x))(-1.0), 2)):
            with pytest.raises(FloatingPointError, match=r"^invalid value \(nan\) encountered in log$"):
                fn()
            assert capsys.readouterr().out.splitlines() == [note] * notes
    finally:
        core.config.update("jax_debug_nans", False)


def test_as_text_says_it_is_not_xla_text():
    # docs/aot.md: print(jax.jit(f).trace(3, 4).lower().as_text()) shows StableHLO in JAX
    # (`module @jit_f ...`); gradpad has no XLA, so its text opens by saying what it is instead
    import core
    lowered = core.jit(lambda x, y: 2 * x + y).trace(3, 4).lower()
    for text in (lowered.as_text(), lowered.compile().as_text()):
        assert text.startswith("# gradpad has no XLA, so there is no StableHLO/HLO text")
        assert "def " in text


def test_debug_nans_context_manager_survives_the_nan_note(capsys):
    # docs/debugging/flags.md: after a nan was caught, `with jax.debug_nans(False): print(jax.jit(f)(5.))`
    # prints nan in JAX 0.10.2 (jax.debug_nans is the flag's context manager, not a module)
    import core
    from core import numpy as jnp
    core.config.update("jax_debug_nans", True)
    try:
        with pytest.raises(FloatingPointError):
            jnp.log(-1.0)
        with core.debug_nans(False):
            print(core.jit(lambda x: jnp.log(-x))(5.0))
    finally:
        core.config.update("jax_debug_nans", False)
    assert capsys.readouterr().out.splitlines()[-1] == "nan"


def test_an_array_placed_over_several_devices_keeps_its_values_and_carries_the_sharding():
    # docs/parallel.md, shard_map.md on XLA_FLAGS=--xla_force_host_platform_device_count=8. Real JAX 0.10.2:
    #   mesh = jax.make_mesh((4, 2), ('x', 'y'))
    #   x = jax.device_put(arange(32.).reshape(8, 4), NamedSharding(mesh, P('x', 'y')))
    #   jax.typeof(x) -> float32[8@x,4@y]; x.addressable_shards[1]: device cpu:1, index (slice(0, 2), slice(2, 4)),
    #   replica_id 0, data x[0:2, 2:4]; with P(None, 'y') the shard on cpu:2 is (slice(None), slice(0, 2)), replica 1;
    #   jnp.zeros((8, 4), out_sharding=NamedSharding(mesh, P('x'))).sharding.spec == P('x');
    #   device_put(arange(5.), NamedSharding(mesh, P('x'))) -> ValueError
    #   "... should be divisible by 4, but it is equal to 5"
    import os
    import subprocess
    import sys
    code = """
import numpy as np
import core as jax
jnp = jax.numpy
from core.sharding import NamedSharding, PartitionSpec as P
mesh = jax.make_mesh((4, 2), ('x', 'y'))
v = jnp.arange(32.).reshape(8, 4)
x = jax.device_put(v, NamedSharding(mesh, P('x', 'y')))
same = x.sharding == NamedSharding(mesh, P("x", "y"))
print(np.array_equal(np.asarray(x), np.asarray(v)), same, len(x.devices()), x.is_fully_replicated)
print(jax.typeof(x))
s = x.addressable_shards[1]
print(s.device.id, s.index, s.replica_id, np.array_equal(np.asarray(s.data), np.asarray(v)[0:2, 2:4]))
z = jax.device_put(v, NamedSharding(mesh, P(None, 'y')))
print(z.global_shards[2].index, z.global_shards[2].replica_id)
print(jnp.zeros((8, 4), out_sharding=NamedSharding(mesh, P('x'))).sharding.spec)
jax.debug.visualize_array_sharding(z)
try:
    jax.device_put(jnp.arange(5.), NamedSharding(mesh, P('x')))
except ValueError as e:
    print(str(e)[-65:])
"""
    env = dict(os.environ, GRADPAD_DEVICES="8")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.splitlines() == [
        "True True 8 False",
        "float32[8@x,4@y]",
        "1 (slice(0, 2, None), slice(2, 4, None)) 0 True",
        "(slice(None, None, None), slice(0, 2, None)) 1",
        "P('x',)",
        "┌─────────────┬─────────────┐",
        "│ CPU 0,2,4,6 │ CPU 1,3,5,7 │",
        "└─────────────┴─────────────┘",
        "should be divisible by 4, but it is equal to 5 (full shape: (5,))"]


def test_mesh_subset_and_unreduced_specs():
    # docs/shard_map.md, parallel.md on 8 CPU devices. Real JAX 0.10.2: jax.make_mesh((2,), ('i',)) takes the first
    # two devices; repr(jax.P('X', None, unreduced={'Y'})) ->
    # P('X', None, unreduced={'Y'}); a device_put with that spec gives each device a partial sum, which gradpad
    # (values whole in one buffer) refuses by name rather than hand back shards holding the wrong values.
    import os
    import subprocess
    import sys
    code = """
import core as jax
print(list(jax.make_mesh((2,), ('i',)).devices.flat) == jax.devices()[:2])
spec = jax.P('X', None, unreduced={'Y'})
print(repr(spec))
try:
    jax.device_put(jax.numpy.ones((8, 4)), jax.NamedSharding(jax.make_mesh((4, 2), ('X', 'Y')), spec))
except NotImplementedError as e:
    print(str(e)[:60])
"""
    env = dict(os.environ, GRADPAD_DEVICES="8")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.splitlines() == ["True", "P('X', None, unreduced={'Y'})",
                                "jax.device_put: gradpad keeps an array's values whole, so it"]


def test_docstring_cells_read_every_docstring_in_source_order():
    # the API reference (`--api`) shows each function's docstring examples: a module's, then its
    # classes', methods' and functions' in the order they appear in the file
    source = ('"""Mod.\n\n>>> m = 0\n"""\n'
              'def g():\n  """G.\n\n  >>> g_ex = 1\n  >>> print(g_ex)\n  1\n  """\n'
              'class K:\n  """K.\n\n  >>> k = 2\n  """\n  def meth(self):\n    """>>> k + 1\n    3\n    """\n'
              'def h():\n  return 1\n')
    assert doc_cells.docstring_cells(source) == ["m = 0", "g_ex = 1\nprint(g_ex)", "k = 2", "k + 1"]
    assert doc_cells.cells_of("jax/_src/x.py", source)[0] == "m = 0"


def test_strict_compares_error_messages_and_numbers_to_float32_precision():
    err = lambda msg: {"stdout": "", "display": None, "error": {"type": "ValueError", "message": msg}}  # noqa: E731
    shown = lambda text: {"stdout": "", "display": text, "error": None}  # noqa: E731
    assert doc_cells.outputs_match(err("bad axis 1"), err("axis out of range"))
    assert not doc_cells.outputs_match(err("bad axis 1"), err("axis out of range"), strict=True)
    assert doc_cells.outputs_match(err("bad axis 1"), err("bad axis 1"), strict=True)
    assert doc_cells.outputs_match(shown("Array(1.00001, dtype=float32)"), shown("Array(1.00002, dtype=float32)"))
    assert not doc_cells.outputs_match(shown("Array(1.00001, dtype=float32)"), shown("Array(1.00002, dtype=float32)"),
                                       strict=True)
    assert doc_cells.outputs_match(shown("Array(1.0000001, dtype=float32)"), shown("Array(1.0000002, dtype=float32)"),
                                   strict=True)
