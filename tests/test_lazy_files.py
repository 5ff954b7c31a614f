"""app/lazy_files.py: the page fetches core's data files shipped apart from its wheel (the packed
normal table) only when core reads one, and hands core the bytes only if their sha256 is the
build's. Run here with local bytes instead of the page's synchronous fetch."""
from __future__ import annotations

import hashlib
import sys

import pytest

from app import lazy_files, lazy_wheels
from core._engine.libraries import normal_table_pack

DATA = b"GPNT and some bytes"
SPEC = {"file": "normal_table_f32-0123456789ab.bin", "sha256": hashlib.sha256(DATA).hexdigest()}
URL = "https://site/pyodide/normal_table_f32-0123456789ab.bin"


@pytest.fixture
def hook(monkeypatch):
    monkeypatch.setattr(normal_table_pack, "FETCH", None)
    yield lambda: normal_table_pack.FETCH


def test_install_sets_cores_hook_and_fetches_nothing_yet(hook):
    fetched, before = [], list(sys.meta_path)
    lazy_wheels.install({"imports": {}, "wheels": {}, "files": {"core/normal_table_f32.bin": SPEC}},
                        "https://site/pyodide/", fetch=lambda url: fetched.append(url) or DATA)
    try:
        assert fetched == [] and hook() is not None
        assert hook()() == DATA and fetched == [URL]
    finally:
        sys.meta_path[:] = before


def test_other_bytes_or_a_failed_fetch_give_none(hook):
    lazy_files.install({"core/normal_table_f32.bin": SPEC}, "https://site/pyodide/", lambda url: DATA + b"!")
    assert hook()() is None

    def fails(url):
        raise ImportError(f"gradpad could not fetch {url}: HTTP 404")
    lazy_files.install({"core/normal_table_f32.bin": SPEC}, "https://site/pyodide/", fails)
    assert hook()() is None


def test_a_build_without_data_files_sets_no_hook(hook):
    lazy_files.install({}, "https://site/pyodide/", lambda url: DATA)
    assert hook() is None
