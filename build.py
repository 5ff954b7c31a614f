#!/usr/bin/env python3
"""gradpad's one entry point: set-up, site build, serve, test, bench.

    python build.py test          # venv + deps, then the whole pytest suite
    python build.py serve         # build dist/ and serve it on 127.0.0.1
    python build.py site          # build dist/ only
    python build.py bench [core|site|webgpu]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
CACHE = ROOT / ".cache"


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd, **kw) -> None:
    log(" ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv(extras: str = "test") -> Path:
    """Create .venv and install the project with its extras (idempotent, fast when done)."""
    py = venv_python()
    if not py.exists():
        log(f"creating virtualenv {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{extras}"
    pyproject = ROOT / "pyproject.toml"
    if not stamp.exists() or stamp.stat().st_mtime < pyproject.stat().st_mtime:
        run([py, "-m", "pip", "install", "-q", "-e", f".[{extras}]"], cwd=ROOT)
        stamp.touch()
    return py


def cmd_test(args) -> int:
    py = ensure_venv("test")
    env = dict(os.environ)
    cmd = [str(py), "-m", "pytest", *args.pytest_args]
    log(" ".join(cmd))
    return subprocess.call(cmd, cwd=ROOT, env=env)


def cmd_serve(args) -> int:
    log("the site build lands with the site issue; nothing to serve yet")
    return 1


def cmd_site(args) -> int:
    return cmd_serve(args)


def cmd_bench(args) -> int:
    py = ensure_venv("test")
    return subprocess.call([str(py), "-m", "tests.bench", *args.what], cwd=ROOT)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="verb", required=True)
    t = sub.add_parser("test", help="set up and run the test suite")
    t.add_argument("pytest_args", nargs=argparse.REMAINDER)
    t.set_defaults(fn=cmd_test)
    s = sub.add_parser("serve", help="build dist/ and serve it")
    s.set_defaults(fn=cmd_serve)
    s = sub.add_parser("site", help="build dist/")
    s.set_defaults(fn=cmd_site)
    b = sub.add_parser("bench", help="benchmarks")
    b.add_argument("what", nargs="*")
    b.set_defaults(fn=cmd_bench)
    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
