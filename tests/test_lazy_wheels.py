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
