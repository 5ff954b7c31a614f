"""ruff over the project's Python (rules in pyproject.toml [tool.ruff]: pyflakes' errors and syntax
errors): an undefined name, an unused import or variable, or a redefinition fails the test command."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["core", "app", "tests", "tools", "build.py"]


def ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=cwd, capture_output=True, text=True)


def test_ruff_finds_nothing():
    out = ruff("check", "--no-cache", "--output-format", "concise", *CHECKED)
    assert "No module named ruff" not in out.stderr, "ruff is missing: `pip install -e .[test]` installs it"
    assert out.returncode == 0, f"ruff check {' '.join(CHECKED)}:\n{out.stdout}{out.stderr}"


def test_ruff_reports_an_unused_import_and_an_undefined_name(tmp_path):
    # the rule set is live: the project's own config reports what it promises to
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "bad.py").write_text("import os\n\n\ndef f():\n    return undefined_thing\n")
    out = ruff("check", "--no-cache", "--output-format", "concise", "bad.py", cwd=tmp_path)
    assert out.returncode == 1
    assert "F401" in out.stdout and "`os` imported but unused" in out.stdout
    assert "F821" in out.stdout and "undefined_thing" in out.stdout
