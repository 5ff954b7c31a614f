"""Record, from real JAX, what the engine's public modules must look like:
- public_class_modules.json: the `__module__` of every public class whose home JAX names as a public
  module (`jax.errors`, `jax.sharding`, ...: JAX's set_module), for tests/test_public_class_modules.py;
- public_module_names.json: each public module's names (dir() without underscores, plus its
  submodules), for tests/test_faces.py: a face exports these and its documented extras only.

    /work/jax-venv/bin/python tests/golden/record_public_names.py   # rewrites both files

The names come from the public API list (../shared/reference/jax_0.10.2_public_api.json); classes
JAX keeps in jax._src, jaxlib or ml_dtypes are left out (their module is not public)."""
from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "public_class_modules.json"
NAMES = HERE / "public_module_names.json"
API = [HERE.parents[1] / "../shared/reference/jax_0.10.2_public_api.json",
       Path("/work/shared/reference/jax_0.10.2_public_api.json")]


# public modules the API list leaves out (it lists modules with non-module names of their own)
EXTRA_MODULES = {"jax.example_libraries", "jax.example_libraries.optimizers", "jax.example_libraries.stax",
                 "jax.dlpack", "jax.monitoring", "jax.ref", "jax.scipy", "jax.scipy.fft", "jax.scipy.sparse",
                 "jax.scipy.sparse.linalg", "jax.version", "jax.lax.linalg", "jax.scipy.stats.truncnorm",
                 # issue 24 (mods14): the rest of jax.scipy
                 "jax.scipy.cluster", "jax.scipy.cluster.vq", "jax.scipy.interpolate", "jax.scipy.ndimage",
                 "jax.scipy.spatial", "jax.scipy.spatial.transform",
                 *(f"jax.scipy.stats.{d}" for d in ("betabinom", "gennorm", "geom", "gumbel_l", "gumbel_r",
                                                      "multinomial", "nbinom", "pareto", "vonmises", "wrapcauchy"))}


def main() -> int:
    import jax
    api = json.loads(next(p for p in API if p.exists()).read_text())["modules"]
    out = {}
    for module, names in sorted(api.items()):
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        for name, kind in sorted(names.items()):
            obj = getattr(mod, name, None)
            home = getattr(obj, "__module__", None) if kind == "class" and isinstance(obj, type) else None
            if home and (home == "jax" or home.startswith("jax.")) and not home.startswith("jax._src"):
                out[f"{module}.{name}"] = home
    OUT.write_text(json.dumps({"jax_version": jax.__version__, "modules": out}, indent=1, sort_keys=True) + "\n")
    print(f"{len(out)} classes -> {OUT}")
    names = {}
    for module in sorted(set(api) | EXTRA_MODULES):
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        subs = [m.name for m in pkgutil.iter_modules(getattr(mod, "__path__", []))]
        names[module] = sorted({n for n in dir(mod) if not n.startswith("_")} | {n for n in subs if not n.startswith("_")})
    NAMES.write_text(json.dumps({"jax_version": jax.__version__, "modules": names}, indent=0, sort_keys=True) + "\n")
    print(f"{len(names)} modules -> {NAMES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
