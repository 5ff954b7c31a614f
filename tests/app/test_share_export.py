"""app.share (URL state) and app.export (.py / .ipynb)."""
import json
import os
import subprocess
from pathlib import Path

import pytest

from app import examples, export, share

ROOT = Path(__file__).resolve().parents[2]
REAL_JAX = ROOT / ".cache" / "jax-venv" / "bin" / "python"


def test_share_state_round_trip():
    state = share.ShareState(code="import jax\nf = lambda x: x ** 2  # ünïcode ✓\n" * 20, function="f",
                             args="3.0", panes=["jaxpr", "plot"], backend="cpu", view="grad")
    token = share.encode_state(state)
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert len(token) < len(state.code)  # compressed
    assert share.decode_state(token) == state
    assert share.parse_hash(share.state_hash(state)) == state


def test_damaged_link_is_a_value_error():
    token = share.encode_state(share.ShareState(code="x = 1"))
    with pytest.raises(ValueError, match="damaged"):
        share.decode_state(token[:-5])


def test_example_hash_and_embed_query():
    assert share.parse_hash("#example=pytrees") == share.ShareState(example="pytrees")
    assert share.parse_hash("") is None
    opts = share.parse_query("?embed=1&panes=jaxpr,plot,bogus&autorun=1&readonly=1")
    assert opts == share.EmbedOptions(embed=True, panes=["jaxpr", "plot"], autorun=True, readonly=True)
    assert share.parse_query("").embed is False


def test_embed_snippet_points_at_the_embed_view():
    snippet = share.iframe_snippet("http://127.0.0.1:8000/", share.ShareState(code="x = 1"))
    # the default embed shows the code (editable, readonly=0) above the jaxpr, plot and console
    assert snippet.startswith('<iframe src="http://127.0.0.1:8000/?embed=1&panes=jaxpr,plot,console&autorun=1'
                              '&readonly=0#s=')
    assert 'width="700" height="600"' in snippet


def test_embed_snippet_keeps_the_frame_in_its_box():
    """Issue 29: the frame runs and keeps its origin, opens "open in gradpad" as a tab, and can
    never navigate the host page; a cross-origin isolated host can pass its isolation on."""
    import re
    snippet = share.iframe_snippet("https://gradpad.example/", share.ShareState(code="x = 1"))
    sandbox = re.search(r'sandbox="([^"]*)"', snippet).group(1).split()
    assert {"allow-scripts", "allow-same-origin", "allow-popups", "allow-popups-to-escape-sandbox"} <= set(sandbox)
    assert not [t for t in sandbox if "top-navigation" in t], sandbox
    assert 'allow="cross-origin-isolated"' in snippet


def test_py_export_adds_a_shim_only_for_removed_names():
    assert "tree_map" not in export.to_py("import jax\nprint(1)\n")
    py = export.to_py("import jax\njax.tree_map(lambda x: x, [1])\n")
    assert "if not hasattr(jax, 'tree_map'): jax.tree_map = jax.tree_util.tree_map" in py


def test_ipynb_export_is_a_valid_v4_notebook():
    nb = json.loads(export.to_ipynb("import jax\n# %% second cell\nprint(jax.numpy.ones(2))\n", title="t"))
    assert nb["nbformat"] == 4 and nb["nbformat_minor"] == 5
    kinds = [c["cell_type"] for c in nb["cells"]]
    assert kinds == ["markdown", "code", "code"]
    assert all("id" in c for c in nb["cells"])
    assert "".join(nb["cells"][2]["source"]) == "print(jax.numpy.ones(2))"


@pytest.mark.parametrize("name", ["grad_value_and_grad_has_aux", "vmap_in_axes", "pytrees"])
def test_exported_examples_run_on_python(name, tmp_path):
    """The export runs unchanged on real JAX 0.10.2 (the oracle venv) when it is present,
    otherwise on the engine installed as `jax`."""
    path = tmp_path / f"{name}.py"
    path.write_text(export.to_py(examples.load(name).code))
    if REAL_JAX.exists():
        cmd = [str(REAL_JAX), str(path)]
    else:
        cmd = [str(ROOT / ".venv" / "bin" / "python"), "-c",
               f"import core; core.install_as_jax(); exec(open({str(path)!r}).read())"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT,
                       env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-2000:]


def test_ipynb_without_markers_splits_at_top_level_blocks():
    code = ("import jax\nimport jax.numpy as jnp\n\n# a helper\n@jax.jit\ndef f(x):\n    # inside f\n\n"
            "    return x * 2\n\ndef g(x):\n    return f(x) + 1\n\nprint(g(1.0))\ny = 2\n\n# the end\nprint(y)\n")
    cells = export.split_cells(code)
    assert cells == ["import jax\nimport jax.numpy as jnp",
                     "# a helper\n@jax.jit\ndef f(x):\n    # inside f\n\n    return x * 2",
                     "def g(x):\n    return f(x) + 1",
                     "print(g(1.0))\ny = 2",
                     "# the end\nprint(y)"]
    nb = json.loads(export.to_ipynb(code))
    assert [c["cell_type"] for c in nb["cells"]] == ["markdown"] + ["code"] * 5


def test_ipynb_of_code_that_does_not_parse_is_one_cell():
    assert export.split_cells("def f(:\n    pass\n\n# x\nprint(1)\n") == ["def f(:\n    pass\n\n# x\nprint(1)"]
