"""`import jax.X.Y` for any engine module `core.X.Y`, once `install_as_jax()` has run.

A meta-path finder hands back the engine's own module objects (never a second copy), so
`jax.extend.core.Primitive is core.extend.core.Primitive`, and a name that is an attribute
module (`jax.nn.initializers`) imports too.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types


class JaxNameFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, engine: str):
        self.engine = engine

    def _resolve(self, fullname: str):
        rest = fullname[len("jax."):]
        try:
            return importlib.import_module(f"{self.engine}.{rest}")
        except ModuleNotFoundError as e:
            if e.name is None or not f"{self.engine}.{rest}".startswith(e.name):
                raise
        parent, _, leaf = rest.rpartition(".")
        owner = importlib.import_module(f"{self.engine}.{parent}" if parent else self.engine)
        mod = getattr(owner, leaf, None)
        return mod if isinstance(mod, types.ModuleType) else None

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("jax.") or fullname in sys.modules:
            return None
        mod = self._resolve(fullname)
        if mod is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=getattr(mod, "__file__", None),
                                               is_package=hasattr(mod, "__path__"))

    def create_module(self, spec):
        mod = self._resolve(spec.name)
        spec.loader_state = getattr(mod, "__spec__", None)  # the import system overwrites __spec__
        return mod

    def exec_module(self, module):
        module.__spec__ = module.__spec__.loader_state or module.__spec__


def install(engine: str) -> None:
    if not any(isinstance(f, JaxNameFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, JaxNameFinder(engine))
