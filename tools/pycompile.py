"""Precompile the pure-Python files of a wheel to CPython 3.12 bytecode (legacy layout).

Run with a Python 3.12 interpreter (Pyodide 0.27 is CPython 3.12): the magic number must match.
``foo/bar.py`` becomes ``foo/bar.pyc`` next to where the source was, the source is dropped and
RECORD is rewritten, so Pyodide imports the wheel without compiling anything at page load.
This is what ``pyodide py-compile`` (pyodide-build) does; it is stdlib-only so it runs on any
host 3.12 without installing pyodide-build's dependency tree.

    python3.12 tools/pycompile.py IN.whl OUT.whl [IN2.whl OUT2.whl ...]
"""
from __future__ import annotations

import base64
import hashlib
import importlib.util
import sys
import zipfile

SITE = "/lib/python3.12/site-packages/"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compile_wheel(src: str, dst: str) -> tuple[int, int]:
    assert sys.version_info[:2] == (3, 12), "bytecode for Pyodide 0.27 needs a Python 3.12 host"
    compiled = kept = 0
    out: list[tuple[str, bytes]] = []
    record_name = None
    with zipfile.ZipFile(src) as zin:
        for info in zin.infolist():
            name = info.filename
            if name.endswith("/"):
                continue
            data = zin.read(info)
            if name.endswith(".dist-info/RECORD"):
                record_name = name
                continue
            if name.endswith(".py") and ".dist-info/" not in name:
                try:
                    code = compile(data, SITE + name, "exec", dont_inherit=True)
                except SyntaxError:
                    out.append((name, data))  # e.g. py2-only helper files: keep source
                    kept += 1
                    continue
                source_hash = importlib.util.source_hash(data)
                from importlib._bootstrap_external import _code_to_hash_pyc

                pyc = bytes(_code_to_hash_pyc(code, source_hash, checked=False))
                out.append((name[:-3] + ".pyc", pyc))
                compiled += 1
            else:
                out.append((name, data))
    if record_name is None:
        raise SystemExit(f"{src}: no RECORD, not a wheel?")
    lines = [_record_line(n, d) for n, d in out] + [f"{record_name},,"]
    out.append((record_name, ("\n".join(lines) + "\n").encode()))
    with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for name, data in out:
            zi = zipfile.ZipInfo(name, date_time=(2020, 2, 2, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            zout.writestr(zi, data, compresslevel=9)  # the site's WHEEL_LEVEL (tools/site.py)
    return compiled, kept


def main(argv: list[str]) -> int:
    if len(argv) % 2:
        raise SystemExit(__doc__)
    for src, dst in zip(argv[::2], argv[1::2]):
        c, k = compile_wheel(src, dst)
        print(f"pycompile {src.rsplit('/', 1)[-1]}: {c} compiled, {k} kept as source", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
