"""Equations' source info (core/_engine/base/source_info.py): the cached frame lookups must tell apart code
objects that compare equal but come from different files (the playground re-runs the same text
under new names), and the annotation text is JAX's (golden: tests/golden/cases_teachui.py)."""
import core as jax
import core.numpy as jnp
from core.extend import source_info_util

SRC = "def f(x):\n    return jnp.sin(x) * 2.0\n"


def traced_from(filename: str):
    ns = {"jnp": jnp}
    exec(compile(SRC, filename, "exec"), ns)
    return jax.make_jaxpr(ns["f"])(1.0).jaxpr


def test_equal_code_from_two_files_keeps_each_file():
    a, b = traced_from("<one>"), traced_from("<two>")
    assert [source_info_util.summarize(e.source_info) for e in a.eqns] == ["<one>:2:11 (f)"] * 2
    assert [source_info_util.summarize(e.source_info) for e in b.eqns] == ["<two>:2:11 (f)"] * 2


def test_frames_are_jax_shaped_and_plain_printing_is_unchanged():
    j = traced_from("<three>")
    frame = source_info_util.user_frame(j.eqns[0].source_info)
    assert (frame.file_name, frame.function_name, frame.start_line, frame.start_column) == ("<three>", "f", 2, 11)
    # JAX: str(jaxpr) has no source info; pretty_print(source_info=True) ends lines with '# file:line:col (fn)'
    assert "#" not in str(j)
    assert j.pretty_print(source_info=True).splitlines()[1].endswith("# <three>:2:11 (f)")
