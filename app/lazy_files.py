"""Data files of core/ that the site ships apart from the wheel loaded with the page (the packed
float32 normal table, 1.1 MB, decoded only after ~86 draws): fetched synchronously from the
worker when core first reads one, and checked against the sha256 the build recorded.

The table comes from the build (tools/site.py `SHIPPED_APART`, manifest["lazy"]["files"]):
path in the repository -> {file (beside the wheels), sha256}. Each file's reader in core/ has a
hook (core can not import app/), set here; a failed fetch or other bytes give None, and core
then keeps its exact path.
"""
from __future__ import annotations

from typing import Callable


def checked_fetch(spec: dict, base_url: str, fetch: Callable[[str], bytes]) -> Callable[[], bytes | None]:
    def read() -> bytes | None:
        import hashlib
        try:
            data = fetch(base_url + spec["file"])
        except Exception:
            return None
        return data if hashlib.sha256(data).hexdigest() == spec["sha256"] else None
    return read


def _normal_table(read) -> None:
    from core._engine.libraries import normal_table_pack
    normal_table_pack.FETCH = read


def _core_sources(read) -> None:
    from app import rules_view
    rules_view.FETCH_SOURCES = read


# repository path -> where its reader takes the hook
HOOKS = {"core/normal_table_f32.bin": _normal_table, "core-sources.zip": _core_sources}


def install(files: dict, base_url: str, fetch: Callable[[str], bytes]) -> None:
    for path, spec in files.items():
        HOOKS[path](checked_fetch(spec, base_url, fetch))
