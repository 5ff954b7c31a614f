"""Record, from real JAX, the `__module__` of every public class whose home JAX names as a public
module (`jax.errors`, `jax.sharding`, ...: JAX's set_module), for tests/test_public_class_modules.py.

    /work/jax-venv/bin/python tests/golden/record_class_modules.py   # rewrites public_class_modules.json

The names come from the public API list (../shared/reference/jax_0.10.2_public_api.json); classes
JAX keeps in jax._src, jaxlib or ml_dtypes are left out (their module is not public)."""
from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "public_class_modules.json"
API = [HERE.parents[1] / "../shared/reference/jax_0.10.2_public_api.json",
       Path("/work/shared/reference/jax_0.10.2_public_api.json")]


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
    return 0


if __name__ == "__main__":
    sys.exit(main())
