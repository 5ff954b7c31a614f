"""Shared helpers for the golden tests: run a case, flatten its output, compare.

Used by both ``generate.py`` (with real JAX) and ``tests/test_golden.py`` (with our
engine, or with real JAX when GRADPAD_GOLDEN_ENGINE=jax).  This module must not
import jax or core: the namespace is passed in.
"""
from __future__ import annotations

import builtins
import json
import math
import os
import warnings
from functools import partial
from typing import NamedTuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# every `cases_<area>.py` next to this file records into `<area>_cases.json` (one JSON file per
# case module, so areas are regenerated and reviewed independently)
def case_files() -> list:
    return sorted(f"{fn[len('cases_'):-3]}_cases.json" for fn in os.listdir(HERE)
                  if fn.startswith("cases_") and fn.endswith(".py"))


CASE_FILES = tuple(case_files())

DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-6

_SKIP_MRO = {"object", "BaseException", "Exception"}


class GoldenEngineMissing(Exception):
    """Raised when a snippet touches a module the engine failed to import."""


class UnflattenableOutput(Exception):
    """`out` contains something the flattener cannot record."""


class MissingModule:
    """Stand-in for an engine module that could not be imported."""

    def __init__(self, name, err):
        self._name = name
        self._err = err

    def __getattr__(self, attr):
        raise GoldenEngineMissing(
            f"engine module {self._name!r} failed to import ({self._err!r}); "
            f"snippet wanted .{attr}")

    def __call__(self, *a, **k):
        raise GoldenEngineMissing(
            f"engine module {self._name!r} failed to import ({self._err!r})")


def make_namespace(jax, jnp, lax, random):
    return {
        "jax": jax, "jnp": jnp, "lax": lax, "random": random, "np": np,
        "partial": partial, "NamedTuple": NamedTuple,
        "__name__": "golden_snippet", "__builtins__": builtins,
    }


# ----------------------------------------------------------------------------- values
def _enc_float(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _dec_float(v):
    if isinstance(v, str):
        return float(v)
    return float(v)


def _encode_values(a: np.ndarray):
    kind = a.dtype.kind
    if kind == "b":
        return a.tolist()
    if kind in "iu":
        return a.astype(object).tolist() if a.ndim else int(a)
    if kind == "f" or a.dtype.name == "bfloat16":
        af = a.astype(np.float64)
        if af.ndim == 0:
            return _enc_float(af)
        return np.vectorize(_enc_float, otypes=[object])(af).tolist()
    if kind == "c":
        ac = a.astype(np.complex128)
        if ac.ndim == 0:
            return [_enc_float(ac.real), _enc_float(ac.imag)]
        return [_encode_values(np.asarray(x)) for x in ac]
    raise TypeError(f"cannot encode array of dtype {a.dtype}")


def _dtype_name(dt):
    name = getattr(dt, "name", None)
    return str(name if name is not None else dt)


def flatten(x):
    """Recursive structural encoding of ``out``; no jax.tree_util involved."""
    if x is None:
        return {"kind": "none"}
    if isinstance(x, bool):
        return {"kind": "py", "type": "bool", "value": x}
    if isinstance(x, int):
        return {"kind": "py", "type": "int", "value": x}
    if isinstance(x, float):
        return {"kind": "py", "type": "float", "value": _enc_float(x)}
    if isinstance(x, complex):
        return {"kind": "py", "type": "complex", "value": [_enc_float(x.real), _enc_float(x.imag)]}
    if isinstance(x, str):
        return {"kind": "str", "value": x}
    if isinstance(x, dict):
        keys = list(x.keys())
        return {"kind": "dict", "keys": [str(k) for k in keys],
                "items": [flatten(x[k]) for k in keys]}
    if isinstance(x, tuple):
        return {"kind": "tuple", "items": [flatten(v) for v in x]}
    if isinstance(x, list):
        return {"kind": "list", "items": [flatten(v) for v in x]}
    if isinstance(x, np.ndarray):
        return {"kind": "ndarray", "shape": list(x.shape), "dtype": _dtype_name(x.dtype),
                "value": _encode_values(x)}
    if isinstance(x, np.generic):
        a = np.asarray(x)
        return {"kind": "npscalar", "dtype": _dtype_name(a.dtype), "value": _encode_values(a)}
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        dname = _dtype_name(x.dtype)
        rec = {"kind": "array", "shape": [int(d) for d in x.shape], "dtype": dname,
               "weak_type": bool(getattr(x, "weak_type", False))}
        if dname.startswith("key"):
            return rec  # typed PRNG keys: snippets use key_data for values
        rec["value"] = _encode_values(np.asarray(x))
        return rec
    raise TypeError(f"unsupported leaf in out: {type(x).__name__}")


def _is_recorded_class(c):
    if c.__name__ in _SKIP_MRO:
        return False
    mod = getattr(c, "__module__", "") or ""
    return mod == "builtins" or mod.startswith("jax")


def first_line(msg: str) -> str:
    s = str(msg).strip()
    return s.splitlines()[0] if s else ""


def encode_error(e: BaseException):
    return {
        "type": type(e).__name__,
        "mro": [c.__name__ for c in type(e).__mro__ if _is_recorded_class(c)],
        "message": first_line(str(e)),
    }


def run_case(case, ns, reset_config=None):
    """Execute a case's snippet in a fresh copy of ``ns``; return a result dict."""
    g = dict(ns)
    result = {}
    with warnings.catch_warnings(record=True) as wlist:
        warnings.simplefilter("always")
        try:
            exec(compile(case["code"], f"<golden:{case['name']}>", "exec"), g)
            if "out" not in g:
                raise RuntimeError("snippet did not set `out`")
            out = g["out"]
        except GoldenEngineMissing:
            raise
        except Exception as e:  # noqa: BLE001
            result["error"] = encode_error(e)
        else:
            try:
                result["out"] = flatten(out)
            except Exception as e:  # noqa: BLE001
                raise UnflattenableOutput(f"cannot record `out`: {e!r}") from e
        finally:
            if reset_config is not None:
                reset_config()
    if case.get("expect_warning"):
        result["warnings"] = [{"category": w.category.__name__,
                               "message": first_line(str(w.message))} for w in wlist]
    return result


# ----------------------------------------------------------------------------- compare
def _cmp_values(exp, got, dtype, rtol, atol, path, errs):
    kind = np.dtype(dtype).kind if not dtype.startswith(("bfloat16", "key")) else "f"
    if kind in "biu":
        if exp != got:
            errs.append(f"{path}: values differ\n  expected {exp}\n  got      {got}")
        return
    if kind == "c":
        e = np.array(_deep_map(exp, _dec_float), dtype=np.float64)
        g = np.array(_deep_map(got, _dec_float), dtype=np.float64)
    else:
        e = np.array(_deep_map(exp, _dec_float), dtype=np.float64)
        g = np.array(_deep_map(got, _dec_float), dtype=np.float64)
    if e.shape != g.shape:
        errs.append(f"{path}: value shapes differ {e.shape} vs {g.shape}")
        return
    ok = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    if not ok.all():
        bad = np.argwhere(~ok)[:5].tolist()
        errs.append(f"{path}: values differ (rtol={rtol}, atol={atol}) at {bad}\n"
                    f"  expected {exp}\n  got      {got}")


def _deep_map(v, fn):
    if isinstance(v, list):
        return [_deep_map(x, fn) for x in v]
    return fn(v)


def compare_out(exp, got, rtol, atol, path="out", errs=None):
    if errs is None:
        errs = []
    if exp["kind"] != got["kind"]:
        errs.append(f"{path}: kind {got['kind']!r} != expected {exp['kind']!r}"
                    f" (got {_short(got)})")
        return errs
    k = exp["kind"]
    if k == "none":
        pass
    elif k == "str":
        if exp["value"] != got["value"]:
            errs.append(f"{path}: string differs\n--- expected\n{exp['value']}\n--- got\n{got['value']}")
    elif k == "py":
        if exp["type"] != got["type"]:
            errs.append(f"{path}: python type {got['type']} != {exp['type']}")
        else:
            dt = {"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}[exp["type"]]
            _cmp_values(exp["value"], got["value"], dt, rtol, atol, path, errs)
    elif k in ("dict", "tuple", "list"):
        if k == "dict" and exp["keys"] != got["keys"]:
            errs.append(f"{path}: dict keys {got['keys']} != {exp['keys']}")
            return errs
        if len(exp["items"]) != len(got["items"]):
            errs.append(f"{path}: {k} length {len(got['items'])} != {len(exp['items'])}")
            return errs
        for i, (e, g) in enumerate(zip(exp["items"], got["items"])):
            sub = f"{path}[{exp['keys'][i]!r}]" if k == "dict" else f"{path}[{i}]"
            compare_out(e, g, rtol, atol, sub, errs)
    elif k in ("array", "ndarray", "npscalar"):
        if exp.get("shape") != got.get("shape"):
            errs.append(f"{path}: shape {got.get('shape')} != {exp.get('shape')}")
        if exp["dtype"] != got["dtype"]:
            errs.append(f"{path}: dtype {got['dtype']} != {exp['dtype']}")
        if k == "array" and exp["weak_type"] != got["weak_type"]:
            errs.append(f"{path}: weak_type {got['weak_type']} != {exp['weak_type']}")
        if not errs and "value" in exp:
            _cmp_values(exp["value"], got.get("value"), exp["dtype"], rtol, atol, path, errs)
    else:
        errs.append(f"{path}: unknown kind {k}")
    return errs


def _short(rec):
    s = json.dumps(rec)
    return s if len(s) < 200 else s[:200] + "..."


def compare_result(case, got):
    """Return a list of human-readable mismatches (empty == pass). A case may also hold what real
    JAX gave on other machines (`expected_elsewhere`: jaxlib's LAPACK picks its kernels by CPU, and
    eigenvector signs or a Schur form's eigenvalue order can differ between, say, AVX2 and AVX-512
    machines); a match with any of them passes, since gradpad takes the same LAPACK route."""
    errs = _compare_with(case, case["expected"], got)
    if errs and "error" not in got:
        for alt in case.get("expected_elsewhere", ()):
            if not _compare_with(case, {"out": alt["out"]}, got):
                return []
        if case.get("expected_elsewhere"):
            errs.append("(nor does it match real JAX's output recorded on "
                        + "; ".join(a["machine"] for a in case["expected_elsewhere"]) + ")")
    return errs


def machine_description() -> str:
    """The CPU the recording ran on, as far as it decides jaxlib's LAPACK kernels."""
    import platform
    model, flags = platform.processor() or platform.machine(), set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and ":" in line:
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags") and ":" in line:
                    flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    simd = "avx512f" if "avx512f" in flags else "avx2" if "avx2" in flags else "no avx2"
    return f"{platform.machine()} {simd} ({model})"


def _compare_with(case, exp, got):
    errs = []
    rtol = case.get("rtol", DEFAULT_RTOL)
    atol = case.get("atol", DEFAULT_ATOL)
    if "error" in exp:
        if "error" not in got:
            return [f"expected {exp['error']['type']}: {exp['error']['message']!r}, "
                    f"but snippet returned {_short(got.get('out'))}"]
        e, g = exp["error"], got["error"]
        if e["type"] != g["type"]:
            errs.append(f"exception class {g['type']} != {e['type']} (message: {g['message']!r})")
        builtin_names = {n for n in e["mro"] if hasattr(builtins, n)}
        missing = builtin_names - set(g["mro"])
        if missing:
            errs.append(f"exception MRO {g['mro']} lacks builtin bases {sorted(missing)}")
        n = case.get("msg_prefix")
        if n is not None:
            em, gm = e["message"][:n], g["message"][:n]
        else:
            em, gm = e["message"], g["message"]
        if em != gm:
            errs.append(f"message first line differs{' (prefix %d)' % n if n is not None else ''}\n"
                        f"  expected {em!r}\n  got      {gm!r}")
    else:
        if "error" in got:
            g = got["error"]
            return [f"unexpected {g['type']}: {g['message']}"]
        compare_out(exp["out"], got["out"], rtol, atol, "out", errs)
    if case.get("expect_warning"):
        want = exp.get("warnings", [])
        have = got.get("warnings", [])
        for w in want:
            if w not in have:
                errs.append(f"missing warning {w['category']}: {w['message']!r}; got {have}")
    return errs


def load_cases():
    cases = []
    for fn in CASE_FILES:
        path = os.path.join(HERE, fn)
        with open(path) as f:
            data = json.load(f)
        for c in data["cases"]:
            c = dict(c)
            c["_file"] = fn
            cases.append(c)
    return cases
