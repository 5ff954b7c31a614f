"""Record ecosystem_golden.json from REAL JAX: run with the JAX venv's Python and the pinned
libraries importable, e.g.

    python tests/ecosystem/install.py          # (any Python) installs the pins into .ecosystem
    PYTHONPATH=.ecosystem /work/jax-venv/bin/python tests/ecosystem/record.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import jax  # noqa: E402

if "gradpad" in getattr(jax, "__version__", ""):
    sys.exit("record.py must run with real JAX, not gradpad's engine")

from workloads import run_all  # noqa: E402

results = run_all()
errors = {k: v["error"] for k, v in results.items() if "error" in v}
if errors:
    sys.exit(f"workloads failed on real JAX: {errors}")
(HERE / "ecosystem_golden.json").write_text(json.dumps({"jax_version": jax.__version__, "results": results},
                                                       indent=1, sort_keys=True) + "\n")
print(f"wrote {len(results)} workloads (jax {jax.__version__})")
