"""Public classes name their public module, as JAX's do (set_module): a traceback prints
`jax.errors.ConcretizationTypeError`, not the engine's file `core._engine.base.errors`. The expected
values are real JAX 0.10.2's (tests/golden/record_public_names.py wrote public_class_modules.json)."""
from __future__ import annotations

import importlib
import json
import traceback
from pathlib import Path

import pytest

import core

RECORDED = json.loads((Path(__file__).parent / "golden" / "public_class_modules.json").read_text())["modules"]


def _ours(path: str):
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module("core" + module[len("jax"):]), name)


def _engine_classes():
    # classes the engine defines itself (jnp's scalar types are objects here, numpy's bool is numpy's)
    return [p for p in RECORDED if isinstance(_ours(p), type) and _ours(p).__module__ != "numpy"
            and not _ours(p).__module__.startswith("ml_dtypes")]


def test_the_recording_covers_the_errors_and_the_sharding_classes():
    checked = _engine_classes()
    assert {p for p in RECORDED if p.startswith("jax.errors.")} <= set(checked)
    assert {"jax.ShapeDtypeStruct", "jax.sharding.NamedSharding", "jax.P", "jax.tree_util.Partial"} <= set(checked)


@pytest.mark.parametrize("path", _engine_classes())
def test_public_class_names_jaxs_public_module(path):
    assert _ours(path).__module__ == RECORDED[path], path


def test_a_traceback_names_jax_errors():
    import core.numpy as jnp

    def f(x):
        return int(x)

    with pytest.raises(core.errors.ConcretizationTypeError) as info:
        core.jit(f)(jnp.float32(1.0))
    last = traceback.format_exception_only(info.type, info.value)[-1]
    assert last.startswith("jax.errors.TracerIntegerConversionError: ") or \
        last.startswith("jax.errors.ConcretizationTypeError: "), last
