"""Record ring2_golden.json from REAL JAX 0.10.2 (the second ring's workloads, ring2_workloads.py):

    python tests/ecosystem/install.py      # (any Python) installs .ecosystem and .ecosystem-ring2
    PYTHONPATH=.ecosystem-ring2:.ecosystem /work/jax-venv/bin/python tests/ecosystem/record_ring2.py
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
warnings.simplefilter("ignore")

import jax  # noqa: E402

if "gradpad" in getattr(jax, "__version__", ""):
    sys.exit("record_ring2.py must run with real JAX, not gradpad's engine")

from ring2_workloads import WORKLOADS, run  # noqa: E402

results = run(list(WORKLOADS))
errors = {k: v["error"] for k, v in results.items() if "error" in v}
if errors:
    sys.exit(f"workloads failed on real JAX: {errors}")
(HERE / "ring2_golden.json").write_text(json.dumps({"jax_version": jax.__version__, "results": results},
                                                   indent=1, sort_keys=True) + "\n")
print(f"wrote {len(results)} workloads (jax {jax.__version__})")
