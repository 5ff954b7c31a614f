"""Libraries shipped in dist/ but not loaded with the page (optax, chex, equinox, flax, numpyro,
blackjax, diffrax, jaxopt, haiku, distrax and their dependencies; scipy and OpenBLAS come with blackjax and
jaxopt; distrax's dm-tree is gradpad's pure-Python tools/pure_tree/tree.py): the first
`import flax` in user code fetches that library's wheels, checks each against the sha256 of the site's lock, and unpacks them into site-packages, all synchronously
(a worker may make synchronous requests), so it works from every way code runs: runPython, the
app's Run, autorun. A top-level import that nothing provides says in one line what the page ships.

The table comes from the build (tools/site.py `lazy_imports`): {"imports": import name -> lock
names, dependencies first; "wheels": lock name -> {file, sha256}}. Fetching is injectable so that CPython tests run the same code on local files.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from contextlib import contextmanager
from typing import Callable

# the worker installs the finders before the first run: what only an install needs (hashlib,
# zipfile, importlib.metadata, sysconfig, app.sandbox) is imported then, not at boot

# the page's own top-level packages, named in the "not shipped" message besides the lazy ones
BOOTED = ("numpy", "jax", "panel", "bokeh", "pandas")
# the lazy libraries the "not shipped" message names (their dependencies install with them)
SHOWN = ("optax", "chex", "equinox", "flax", "numpyro", "blackjax", "diffrax", "optimistix", "lineax",
         "jaxopt", "haiku", "distrax")
# libraries gradpad runs in CPython but the page cannot: what a top-level import of one says
CANNOT_RUN: dict[str, str] = {}  # import name -> why (distrax was one until the page got a pure-Python dm-tree)


def fetch_sync(url: str) -> bytes:
    """GET `url` synchronously: allowed in a Web Worker, where gradpad's Python runs."""
    import js  # Pyodide only

    xhr = js.XMLHttpRequest.new()
    xhr.open("GET", url, False)
    xhr.responseType = "arraybuffer"
    xhr.send(None)
    if xhr.status != 200:
        raise ImportError(f"gradpad could not fetch {url}: HTTP {xhr.status}")
    return bytes(js.Uint8Array.new(xhr.response).to_py())


def is_installed(dist: str) -> bool:
    import importlib.metadata
    try:
        importlib.metadata.distribution(dist)
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


class LazyWheels(importlib.abc.MetaPathFinder):
    """First in sys.meta_path: installs a lazy library's wheels, then lets the normal finders find it."""

    def __init__(self, table: dict, base_url: str, fetch: Callable[[str], bytes] = fetch_sync,
                 site_packages: str | None = None, dynlib_dir: str = "/usr/lib"):
        self.imports, self.wheels = table["imports"], table["wheels"]
        self.deferred = set(table.get("deferred", ()))
        self.base_url, self.fetch = base_url, fetch
        self.site_packages = site_packages
        self.dynlib_dir = dynlib_dir  # Pyodide's /usr/lib: where loadPackage puts shared libraries
        self.installed: list[str] = []  # lock names, in the order they were installed
        self._finding: set[str] = set()  # the names find_spec is looking up in the other finders

    def install(self, names: list[str]) -> None:
        import hashlib
        import io
        import sysconfig
        import zipfile
        site_packages = self.site_packages or sysconfig.get_paths()["purelib"]
        for name in names:
            if name in self.installed or is_installed(name):
                continue
            w = self.wheels[name]
            data = self.fetch(self.base_url + w["file"])
            got = hashlib.sha256(data).hexdigest()
            if got != w["sha256"]:
                raise ImportError(f"{w['file']} has sha256 {got}, the site's lock says {w['sha256']}: "
                                  "reload the page (a newer build may be deployed)")
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                if w.get("dynlib"):
                    self._load_shared_library(zf)
                else:
                    zf.extractall(site_packages)
            self.installed.append(name)
        importlib.invalidate_caches()

    def _load_shared_library(self, zf) -> None:
        """A shared library package (OpenBLAS for scipy): its .so files go where Pyodide keeps them
        and are loaded with their symbols global, as pyodide.loadPackage does, so that the extension
        modules that link against them find them when they are imported."""
        import ctypes
        import os
        libdir = self.dynlib_dir
        os.makedirs(libdir, exist_ok=True)
        zf.extractall(libdir)
        for member in zf.namelist():
            if member.endswith(".so") or ".so." in member.rsplit("/", 1)[-1]:
                path = os.path.join(libdir, member)
                ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
                _known_by_basename(path)

    def find_spec(self, fullname, path=None, target=None):
        names = self.imports.get(fullname)  # top-level names only: submodules follow their package
        if names is None:
            return None
        if fullname in self.deferred:
            if all(n in self.installed or is_installed(n) for n in names):
                return None
            # a page dependency left out of the load (pandas ...): libraries probe for it with
            # find_spec (bokeh's uses_pandas on every property set), so the wheels are fetched
            # only when the module is really imported
            return importlib.util.spec_from_loader(fullname, _InstallOnImport(self, names))
        if fullname in self._finding:
            return None  # the lookup below, for the real module
        with uncharged(_doing(self, names, fullname)):
            self.install(names)
        self._finding.add(fullname)
        try:  # the finders after this one, as the import system would ask them next
            spec = next((s for f in sys.meta_path if not isinstance(f, (LazyWheels, NotShipped))
                         for s in [f.find_spec(fullname, path, target)] if s is not None), None)
        finally:
            self._finding.discard(fullname)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _Uncharged(spec.loader, fullname)  # its first import: the library's time
        return spec


def _known_by_basename(path: str) -> None:
    """Extension modules name the library they link by its file name (scipy's: libopenblas.so), and
    the dynamic linker finds a loaded library only by the path it was loaded with: file it under its
    base name too, as Pyodide's own loadDynlib does."""
    try:
        import pyodide_js
        from js import Reflect
    except ImportError:  # CPython (tests): the system's linker finds libraries itself
        return
    import os
    by_name = pyodide_js._module.LDSO.loadedLibsByName
    base = os.path.basename(path)
    if Reflect.get(by_name, base) is None and Reflect.get(by_name, path) is not None:
        Reflect.set(by_name, base, Reflect.get(by_name, path))


class _InstallOnImport(importlib.abc.Loader):
    """Loads a deferred module: installs its wheels, then imports the real module in its place."""

    def __init__(self, lazy: LazyWheels, names: list[str]):
        self.lazy, self.names = lazy, names

    def create_module(self, spec):
        with uncharged(_doing(self.lazy, self.names, spec.name)):
            self.lazy.install(self.names)
            module = importlib.import_module(spec.name)
        spec.loader_state = module.__spec__
        return module

    def exec_module(self, module):
        real_spec = getattr(module.__spec__, "loader_state", None)
        if real_spec is not None:  # the import system stamped this spec on the real module
            module.__spec__ = real_spec


_depth = 0  # `uncharged` blocks open (a library's import imports the next)


@contextmanager
def uncharged(what: str):
    """Fetching, installing and importing a library is not the learner's code: its time does not
    count against the run's time budget (app.sandbox.uncharged), and the page's progress line
    beside "Running… N s" says what is going on meanwhile."""
    global _depth
    from app import sandbox
    _depth += 1
    try:
        with sandbox.uncharged(what):
            yield
    finally:
        _depth -= 1
        if _depth == 0:
            from app import env
            env.run_output("")  # done: the progress line shows what the code prints next


def _doing(lazy: LazyWheels, names: list[str], fullname: str) -> str:
    """The progress line for the import of `fullname`: installing the wheels it still needs."""
    todo = [n for n in names if n not in lazy.installed and not is_installed(n)]
    if not todo:
        return ""
    others = [n for n in todo if n != fullname]
    return f"installing {fullname}" + (f" with {', '.join(others)}" if others else "") + "…"


class _Uncharged(importlib.abc.Loader):
    """A lazy library's own loader, its module's code run under `uncharged` (its first import,
    with the libraries it imports in turn); the module keeps the real loader."""

    def __init__(self, loader, fullname: str):
        self.loader, self.fullname = loader, fullname

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = self.loader  # the library sees its own loader (importlib.resources ...)
        if getattr(module, "__spec__", None) is not None:
            module.__spec__.loader = self.loader
        with uncharged(f"importing {self.fullname}…"):
            self.loader.exec_module(module)

    def __getattr__(self, name):  # get_data, get_resource_reader, is_package ...: the real loader's
        return getattr(self.loader, name)


def imported_by_user_code() -> bool:
    """Whether the import statement being resolved is in the learner's code: libraries probe for
    optional modules (try/except, importlib.util.find_spec) and must keep getting None."""
    from app.sandbox import USER_FILE
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename == USER_FILE


class NotShipped(importlib.abc.MetaPathFinder):
    """Last in sys.meta_path: a top-level module that no finder found, imported by user code."""

    def __init__(self, lazy: list[str]):
        self.available = sorted({*BOOTED, *lazy})

    def find_spec(self, fullname, path=None, target=None):
        if "." in fullname or not imported_by_user_code():
            return None
        if fullname in CANNOT_RUN:
            raise ModuleNotFoundError(f"No module named {fullname!r} in the page: {CANNOT_RUN[fullname]}",
                                      name=fullname)
        raise ModuleNotFoundError(f"No module named {fullname!r}: gradpad's page ships only "
                                  f"{', '.join(self.available)} (and the Python standard library)",
                                  name=fullname)


def install(table: dict, base_url: str, **kw) -> LazyWheels:
    """Put the two finders in place (once). `table` may be the manifest's JSON text."""
    if isinstance(table, str):
        import json
        table = json.loads(table)
    for f in [f for f in sys.meta_path if isinstance(f, (LazyWheels, NotShipped))]:
        sys.meta_path.remove(f)
    lazy = LazyWheels(table, base_url, **kw)
    sys.meta_path.insert(0, lazy)
    shown = [name for name in table["imports"] if name in SHOWN]
    sys.meta_path.append(NotShipped(shown))
    # core's data files shipped apart from its wheel (the normal table): fetched when core reads them
    from app import lazy_files
    lazy_files.install(table.get("files", {}), base_url, kw.get("fetch", fetch_sync))
    return lazy
