"""tools/move_to_layers.py: the script that puts core/'s modules in one folder per layer (the lead
re-runs it after merging branches). Checked on a small synthetic engine (moves, faces, the rewrite
of relative and split imports, a module it cannot place, a second run doing nothing) and on the
real tree (every module placeable before the move; nothing naming an old path after it)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tools import move_to_layers as move

REAL_ROOT = move.ROOT

CONTRACT = '''\
LAYERS: list = [
    ("base", ("core.dtypes", "core._public")),
    ("tracing", ("core.tracing",)),
    ("primitives", ("core.primitives",)),
    ("lax", ("core.lax",)),
    ("api", ("core.api",)),
    ("public", ("core", "core.jax_names", "core.jax_module_list")),
]
'''

FILES = {
    "core/__init__.py": '''\
        """toy engine"""
        from . import dtypes, lax
        from .api import jit
        _SUBMODULES = ("lax", "dtypes")
        ''',
    "core/_public.py": '''\
        def missing_attribute(name, public=None):
            def __getattr__(attr):
                raise AttributeError(f"module {public or name!r} has no attribute {attr!r}")
            return __getattr__
        ''',
    "core/jax_module_list.py": 'JAX_MODULES = (\n    "jax.lax",\n    "jax.dtypes",\n)\n',
    "core/jax_names.py": 'SUBMODULE_FILES = {}\n',
    "core/dtypes.py": '''\
        """dtypes"""
        float32 = "float32"
        from ._public import missing_attribute as _missing_attribute
        __getattr__ = _missing_attribute(__name__)
        ''',
    "core/tracing.py": '''\
        from . import dtypes
        def bind(p, x):
            return (p, x, dtypes.float32)
        ''',
    "core/primitives/__init__.py": '',
    "core/primitives/sin.py": '''\
        from .. import tracing, dtypes  # noqa: F401  (both)
        def sin(x):
            from ..lax import neg      # the documented upward arrow
            return tracing.bind("sin", neg(x))
        ''',
    "core/lax.py": '''\
        """lax: wrappers"""
        from .primitives.sin import sin
        def neg(x):
            return -x
        def _private():
            return 1
        ''',
    "core/api.py": '''\
        import importlib
        def jit(f):
            importlib.import_module("core.lax")
            return f
        ''',
    "tests/test_toy.py": '''\
        import core.lax as lax
        from core import lax as lax2
        from core.primitives.sin import sin
        # see core/primitives/sin.py and core.tracing
        def test_it():
            assert lax._private() == 1 and lax2.neg(1) == -1 and sin(1)[1] == -1
        ''',
}


# a module's body beside its imports (git pairs a move with its file by similarity)
BODY = "".join(f"def helper_{i}(x):\n    return x + {i}\n" for i in range(12))


def _toy(tmp_path: Path) -> Path:
    for rel, text in FILES.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text) + (BODY if rel.startswith("core/") and "jax_" not in rel else ""))
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "import_contract.py").write_text(CONTRACT)
    for cmd in (["init", "-q"], ["add", "-A"], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "toy"]):
        subprocess.run(["git", *cmd], cwd=tmp_path, check=True)
    return tmp_path


@pytest.fixture
def toy(tmp_path, monkeypatch):
    root = _toy(tmp_path)
    monkeypatch.setattr(move, "ROOT", root)
    return root


def test_the_toy_engine_moves_into_layer_folders_with_faces(toy, capsys):
    assert move.main(["--commit"]) == 0
    assert (toy / "core/_engine/primitives/sin.py").exists() and not (toy / "core/primitives").exists()
    assert (toy / "core/_engine/tracing/tracing.py").exists()
    # relative imports from the new place, split where the modules now live apart; comments kept
    sin = (toy / "core/_engine/primitives/sin.py").read_text()
    assert "from ..tracing import tracing  # noqa: F401  (both)\nfrom ..base import dtypes  # noqa" in sin
    assert "    from ..lax.lax import neg" in sin
    # faces at JAX's paths: re-exports only, and the engine's __init__ keeps importing the faces
    face = (toy / "core/lax.py").read_text()
    assert face.startswith(move.FACE_MARK) and "from core._engine.lax.lax import (helper_0 as helper_0" in face
    assert "def " not in face
    init = (toy / "core/__init__.py").read_text()
    assert "from . import dtypes, lax" in init and "from ._engine.api.api import jit" in init
    # a string naming a module, and the test's private use of lax (bound to the implementation)
    assert 'importlib.import_module("core._engine.lax.lax")' in (toy / "core/_engine/api/api.py").read_text()
    test = (toy / "tests/test_toy.py").read_text()
    assert "import core._engine.lax.lax as lax\n" in test and "from core import lax as lax2" in test
    assert "from core._engine.primitives.sin import sin" in test
    assert "# see core/_engine/primitives/sin.py and core._engine.tracing.tracing" in test
    # the contract now reads the layers from the folders
    assert '("tracing", ("core._engine.tracing",))' in (toy / "tools/import_contract.py").read_text()
    # history: nothing left uncommitted, and `git log --follow` crosses the move (faces included)
    assert subprocess.run(["git", "status", "--porcelain"], cwd=toy, capture_output=True, text=True).stdout == ""
    for path in ("core/_engine/primitives/sin.py", "core/_engine/lax/lax.py"):
        log = subprocess.run(["git", "log", "--follow", "--format=%s", "--", path], cwd=toy,
                             capture_output=True, text=True).stdout.splitlines()
        assert log[-1] == "toy" and len(log) == 2, (path, log)
    # it still runs, and `lax.neg is` the implementation's
    r = subprocess.run([sys.executable, "-c", "import core, core.lax as l, core._engine.lax.lax as i; "
                        "assert l.neg is i.neg and core.lax is l; "
                        "print(core.jit(l.sin)(2))"], cwd=toy, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "('sin', -2, 'float32')", r.stderr
    assert move.main(["--check"]) == 0
    # a second run does nothing
    capsys.readouterr()
    before = subprocess.run(["git", "status", "--porcelain"], cwd=toy, capture_output=True, text=True).stdout
    assert move.main([]) == 0
    assert "nothing to move" in capsys.readouterr().out
    assert subprocess.run(["git", "status", "--porcelain"], cwd=toy, capture_output=True, text=True).stdout == before


def test_a_module_in_no_layer_stops_the_run_naming_it(toy, capsys):
    (toy / "core" / "newthing.py").write_text("x = 1\n")
    assert move.main([]) == 2
    err = capsys.readouterr().err
    assert "core/newthing.py (core.newthing)" in err and "nothing changed" in err
    assert (toy / "core" / "lax.py").read_text() == textwrap.dedent(FILES["core/lax.py"]) + BODY


def test_a_new_module_in_a_layer_package_follows_its_package(toy):
    (toy / "core" / "primitives" / "cos.py").write_text("from .. import tracing\n")
    assert move.main([]) == 0
    assert (toy / "core/_engine/primitives/cos.py").read_text() == "from ..tracing import tracing\n"
    assert move.main(["--check"]) == 0


def test_commit_refuses_a_tree_with_changes_it_would_sweep_in(toy, capsys):
    (toy / "core" / "tracing.py").write_text((toy / "core" / "tracing.py").read_text() + "# edited\n")
    assert move.main(["--commit"]) == 2
    assert "clean tree" in capsys.readouterr().err and (toy / "core" / "tracing.py").exists()


def test_check_names_a_reference_to_an_old_path(toy, capsys):
    assert move.main([]) == 0
    (toy / "tests" / "test_late.py").write_text("from core.primitives.sin import sin\n")
    capsys.readouterr()
    assert move.main(["--check"]) == 1
    assert "tests/test_late.py:1: core.primitives.sin (now core._engine.primitives.sin)" in capsys.readouterr().out


def test_the_real_tree_is_placed_or_placeable():
    # before the move every module of core/ has a layer (so the lead's run cannot stop half-way);
    # after it nothing in core/, app/, tests/, tools/, docs names a path that moved
    move.ROOT = REAL_ROOT
    plan = move.Plan()
    if plan.rename:
        assert all(new.startswith(move.ENGINE + ".") for new in plan.rename.values())
    else:
        assert move.check() == 0
