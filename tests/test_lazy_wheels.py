"""app/lazy_wheels.py: the page installs optax/chex/equinox/flax on their first import (wheels
checked against the lock's sha256), and a top-level import of something the page does not ship,
from user code, says in one line what it ships. Run here with local bytes instead of the page's
synchronous fetch."""
from __future__ import annotations

import hashlib
import importlib.util
import io
import sys
import zipfile

import pytest

from app import lazy_wheels
from app.sandbox import USER_FILE


def make_wheel(module: str, dist: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(f"{module}/__init__.py", "VALUE = 42\n")
        zf.writestr(f"{dist.replace('-', '_')}-1.0.dist-info/METADATA",
                    f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    return buf.getvalue()


@pytest.fixture
def finders(tmp_path):
    wheel = make_wheel("gp_lazy_demo", "gp-lazy-demo")
    served = {"https://site/pyodide/gp_lazy_demo-1.0-py3-none-any.whl": wheel}
    fetched = []

    def fetch(url):
        fetched.append(url)
        return served[url]
    table = {"imports": {"gp_lazy_demo": ["gp-lazy-demo"], "flax": []},
             "wheels": {"gp-lazy-demo": {"file": "gp_lazy_demo-1.0-py3-none-any.whl",
                                         "sha256": hashlib.sha256(wheel).hexdigest()}}}
    sys.path.insert(0, str(tmp_path))
    before = list(sys.meta_path)
    lazy = lazy_wheels.install(table, "https://site/pyodide/", fetch=fetch, site_packages=str(tmp_path))
    yield lazy, fetched, table
    sys.meta_path[:] = before
    sys.path.remove(str(tmp_path))
    sys.modules.pop("gp_lazy_demo", None)


def test_first_import_fetches_checks_and_installs_once(finders):
    lazy, fetched, _ = finders
    assert importlib.util.find_spec("gp_lazy_demo") is not None
    import gp_lazy_demo
    assert gp_lazy_demo.VALUE == 42
    assert lazy.installed == ["gp-lazy-demo"] and len(fetched) == 1
    sys.modules.pop("gp_lazy_demo")
    import gp_lazy_demo  # noqa: F811  (installed: not fetched again)
    assert len(fetched) == 1


def test_a_wheel_with_other_bytes_is_refused(finders):
    lazy, _, table = finders
    table["wheels"]["gp-lazy-demo"]["sha256"] = "0" * 64
    with pytest.raises(ImportError, match="sha256 .* the site's lock says 0000"):
        import gp_lazy_demo  # noqa: F401
    assert lazy.installed == []


def test_user_import_of_an_unshipped_module_names_what_is_shipped(finders):
    with pytest.raises(ModuleNotFoundError) as e:
        exec(compile("import gp_no_such_library", USER_FILE, "exec"), {})
    msg = str(e.value)
    assert "'gp_no_such_library'" in msg and "ships only" in msg and "flax" in msg and "numpy" in msg
    assert "\n" not in msg and e.value.name == "gp_no_such_library"


@pytest.mark.parametrize("library, needs", [("gp_needs_c_ext", "a C extension")])
def test_user_import_of_a_library_the_page_cannot_run_says_why(finders, monkeypatch, library, needs):
    # distrax was the one such library until the page shipped a pure-Python dm-tree: the mechanism stays
    monkeypatch.setitem(lazy_wheels.CANNOT_RUN, library, f"{library} needs {needs}; it runs on gradpad's jax in "
                                                         "CPython, and numpyro ships in the page")
    # only the page's two finders: the library may be importable in this process (the second ring)
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path
                                           if isinstance(f, (lazy_wheels.LazyWheels, lazy_wheels.NotShipped))])
    monkeypatch.delitem(sys.modules, library, raising=False)
    with pytest.raises(ModuleNotFoundError) as e:
        exec(compile(f"import {library}", USER_FILE, "exec"), {})
    msg = str(e.value)
    assert msg.startswith(f"No module named {library!r} in the page: ") and needs in msg, msg
    assert "CPython" in msg and "numpyro" in msg and "\n" not in msg and e.value.name == library


def test_libraries_probing_for_optional_modules_still_get_none(finders):
    assert importlib.util.find_spec("gp_no_such_library") is None
    with pytest.raises(ModuleNotFoundError) as e:
        exec(compile("import gp_no_such_library", "library.py", "exec"), {})
    assert "ships only" not in str(e.value)


def test_a_deferred_page_package_is_fetched_on_import_not_on_a_probe(finders):
    """pandas & co. (tools/site.py DEFERRED) are left out of the page's load: bokeh probes for
    pandas with find_spec on every property set, which must not fetch 7 MB; an import does."""
    lazy, fetched, table = finders
    table["deferred"] = ["gp_lazy_demo"]
    lazy.deferred = {"gp_lazy_demo"}
    spec = importlib.util.find_spec("gp_lazy_demo")
    assert spec is not None and fetched == [] and lazy.installed == []
    import gp_lazy_demo
    assert gp_lazy_demo.VALUE == 42 and len(fetched) == 1
    # the real module, with its own spec (its submodules and importlib.reload find it)
    assert gp_lazy_demo.__spec__.origin.endswith("gp_lazy_demo/__init__.py")
    assert importlib.util.find_spec("gp_lazy_demo").origin == gp_lazy_demo.__spec__.origin


def test_a_shared_library_package_is_loaded_with_global_symbols_not_unpacked_as_a_wheel(finders, tmp_path,
                                                                                       monkeypatch):
    """scipy's extension modules link against OpenBLAS, which Pyodide ships as a zip of .so files
    (package_type shared_library): it goes to the dynamic library folder and is loaded with its
    symbols global before scipy, as pyodide.loadPackage does."""
    import ctypes
    lazy, _, table = finders
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("libgpdemo.so", b"\0asm")
    blob = buf.getvalue()
    lazy.fetch = lambda url: blob
    table["wheels"]["gpdemo"] = {"file": "gpdemo-1.0.zip", "sha256": hashlib.sha256(blob).hexdigest(),
                                 "dynlib": True}
    lazy.dynlib_dir = str(tmp_path / "usr_lib")
    loaded = []
    monkeypatch.setattr(ctypes, "CDLL", lambda path, mode=0: loaded.append((path, mode)))
    lazy.install(["gpdemo"])
    so = tmp_path / "usr_lib" / "libgpdemo.so"
    assert so.read_bytes() == b"\0asm"
    assert loaded == [(str(so), ctypes.RTLD_GLOBAL)]
    assert lazy.installed == ["gpdemo"]


def test_the_slimmed_numpy_keeps_every_submodule_that_numpy_all_names():
    """`from numpy import *` (user code, scipy's array_api_compat) imports each name in
    numpy.__all__, subpackages included: a subpackage the site build drops breaks it."""
    import numpy
    from tools import site
    subpackages = [n for n in numpy.__all__ if importlib.util.find_spec(f"numpy.{n}") is not None]
    assert "f2py" in subpackages and "linalg" in subpackages
    dropped = [n for n in subpackages if f"numpy/{n}/" in site.SLIM["numpy"]]
    assert dropped == [], f"the site build drops numpy subpackages that numpy.__all__ names: {dropped}"
