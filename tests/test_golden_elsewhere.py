"""A golden case may hold real JAX's output from more than one machine (`expected_elsewhere`,
recorded by `generate.py --elsewhere NAMES`): jaxlib's LAPACK kernels depend on the CPU, so an
eigenvector's sign or a Schur form's eigenvalue order can differ between machines. The engine must
match one of the recorded outputs, and nothing else."""
from __future__ import annotations

import json

import numpy as np

from tests.test_golden import CASES, G


def _flat(values):
    return json.loads(json.dumps(G.flatten(np.array(values, "float32"))))


def test_an_output_recorded_on_another_machine_passes_and_a_third_does_not():
    recorded = _flat([1.0, -2.0])
    alt = {"machine": "x86_64 avx512f (test)", "out": _flat([-1.0, 2.0])}
    case = {"name": "t", "code": "", "rtol": 1e-6, "atol": 1e-7, "expected": {"out": recorded}}
    assert G.compare_result(case, {"out": recorded}) == []
    assert G.compare_result(case, {"out": alt["out"]}) != []  # without the second recording: a mismatch
    case["expected_elsewhere"] = [alt]
    assert G.compare_result(case, {"out": alt["out"]}) == []
    third = _flat([1.0, 2.0])
    errs = G.compare_result(case, {"out": third})
    assert errs and "x86_64 avx512f (test)" in errs[-1], errs


def test_the_cases_with_other_machines_outputs_are_the_lapack_ones():
    # only results that LAPACK's kernels decide (signs, eigenvalue order) may carry a second output
    named = sorted(c["name"] for c in CASES if c.get("expected_elsewhere"))
    assert named and all(("eigh" in n or "schur" in n or "eig" in n or "svd" in n) for n in named), named
    for c in CASES:
        for alt in c.get("expected_elsewhere", ()):
            assert alt["machine"] and "out" in alt, c["name"]
