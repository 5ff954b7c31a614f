"""Write core/_engine/base/jax_module_list.py: every public module path of the installed real JAX.

Run with the oracle's Python (never where gradpad plays `jax`):
    /path/to/jax-venv/bin/python tools/record_jax_modules.py
core/jax_names.py uses the list to tell "JAX has this module, gradpad does not (yet)" apart from a
typo, and tests/test_jax_modules.py imports every entry.
"""
from __future__ import annotations

import pkgutil
from pathlib import Path

import jax

names = sorted(m.name for m in pkgutil.walk_packages(jax.__path__, "jax.", onerror=lambda n: None)
               if not any(p.startswith("_") for p in m.name.split(".")[1:]))
out = Path(__file__).resolve().parents[1] / "core/_engine/base/jax_module_list.py"
body = "".join(f"    {n!r},\n" for n in names)
out.write_text(f'"""Every public module path of JAX {jax.__version__} (written by tools/record_jax_modules.py)."""\n'
               f"JAX_VERSION = {jax.__version__!r}\n\nJAX_MODULES = (\n{body})\n")
print(f"{out}: {len(names)} modules of JAX {jax.__version__}")
