#!/usr/bin/env python3
"""Generate golden JSON files by running every case with REAL JAX.

    .cache/jax-venv/bin/python tests/golden/generate.py           # rewrite the JSON files
    .cache/jax-venv/bin/python tests/golden/generate.py --check   # regenerate to a temp dir, diff
    .cache/jax-venv/bin/python tests/golden/generate.py --only NAME_SUBSTRING   # print results

Case definitions live in cases_<area>.py next to this file; each writes <area>_cases.json.
    .cache/jax-venv/bin/python tests/golden/generate.py --file engine   # only cases_engine.py
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import importlib  # noqa: E402

import golden_lib  # noqa: E402

OPTIONAL_KEYS = ("rtol", "atol", "msg_prefix", "expect_warning", "raises")
_IMPORT_RE = re.compile(r"^\s*(import|from)\s", re.M)


def _jax_namespace():
    import jax
    import jax.numpy as jnp
    import jax.test_util  # noqa: F401  (`import jax` leaves it out; a user imports it, snippets cannot)
    import jax.scipy.optimize  # noqa: F401  (snippets use jax.scipy.optimize without importing it)
    import jax.experimental.sparse  # noqa: F401  (libs24b cases)
    import jax.experimental.ode  # noqa: F401  (ode14 cases)
    import jax.experimental.jet  # noqa: F401  (ode14 cases)
    import jax.experimental.rnn  # noqa: F401  (ode14 cases)
    import jax.experimental.shard_alike  # noqa: F401  (ode14 cases)
    import jax.experimental.control_deps  # noqa: F401  (ode14 cases)
    import jax.extend.random  # noqa: F401  (ode14 cases)
    import jax.extend.core  # noqa: F401
    import jax.interpreters.xla  # noqa: F401
    import jax.interpreters.ad  # noqa: F401
    import jax.scipy.spatial.transform  # noqa: F401  (mods14 cases)
    from jax import lax, random
    return jax, golden_lib.make_namespace(jax, jnp, lax, random)


def _reset(jax):
    def reset():
        for k, v in (("jax_enable_x64", False), ("jax_threefry_partitionable", True)):
            try:
                jax.config.update(k, v)
            except Exception:  # noqa: BLE001
                pass
    return reset


def build(case_defs, jax, ns, strict=True):
    out, names, problems = [], set(), []
    reset = _reset(jax)
    for c in case_defs:
        name = c["name"]
        if name in names:
            problems.append(f"duplicate case name {name}")
        names.add(name)
        if _IMPORT_RE.search(c["code"]):
            problems.append(f"{name}: snippet must not import")
        reset()
        res = golden_lib.run_case(c, ns, reset)
        want_err = bool(c.get("raises"))
        if ("error" in res) != want_err:
            problems.append(f"{name}: raises={want_err} but got {res}")
        if c.get("expect_warning") and not res.get("warnings"):
            problems.append(f"{name}: expect_warning but no warning was emitted")
        rec = {"name": name, "area": c["area"], "code": c["code"]}
        for k in OPTIONAL_KEYS:
            if k in c:
                rec[k] = c[k]
        n = c.get("msg_prefix")
        if n is not None and "error" in res:
            # only the stable prefix is compared; store only that so that output is deterministic
            res["error"]["message"] = res["error"]["message"][:n]
        rec["expected"] = res
        # self-check: the recorded data must compare equal to itself after a JSON round trip
        rt = json.loads(json.dumps(rec))
        errs = golden_lib.compare_result(rt, json.loads(json.dumps(res)))
        if errs:
            problems.append(f"{name}: self-compare failed {errs}")
        out.append(rec)
    if problems and strict:
        raise SystemExit("generation problems:\n  " + "\n  ".join(problems))
    for p in problems:
        print("WARNING:", p, file=sys.stderr)
    return out


def carry_elsewhere(path, cases):
    """A regenerated file keeps what other machines recorded for a case whose code is unchanged."""
    if not os.path.exists(path):
        return
    with open(path) as f:
        old = {c["name"]: c for c in json.load(f)["cases"]}
    for c in cases:
        o = old.get(c["name"])
        if o and o["code"] == c["code"] and o.get("expected_elsewhere"):
            c["expected_elsewhere"] = o["expected_elsewhere"]


def record_elsewhere(path, names, defs, jax, ns):
    """Run the named cases with real JAX on THIS machine and, where the output differs from the
    recorded one, keep it beside it as `expected_elsewhere` (the recorded `expected` stays)."""
    with open(path) as f:
        data = json.load(f)
    by_name = {c["name"]: c for c in defs}
    here = golden_lib.machine_description()
    for rec in data["cases"]:
        if rec["name"] not in names:
            continue
        if by_name[rec["name"]]["code"] != rec["code"]:
            raise SystemExit(f"{rec['name']}: the case's code changed since it was recorded; regenerate it first")
        res = golden_lib.run_case(by_name[rec["name"]], ns, _reset(jax))
        if "error" in res:
            raise SystemExit(f"{rec['name']}: real JAX raised here: {res['error']}")
        res = json.loads(json.dumps(res))
        if not golden_lib.compare_result({**rec, "expected_elsewhere": []}, res):
            print(f"{rec['name']}: real JAX here gives the recorded output; nothing to add")
            continue
        alts = [a for a in rec.get("expected_elsewhere", []) if a["machine"] != here]
        rec["expected_elsewhere"] = alts + [{"machine": here, "jaxlib_version": data.get("jaxlib_version"), "out": res["out"]}]
        print(f"{rec['name']}: recorded real JAX's output on {here}")
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=False, ensure_ascii=True)
        f.write("\n")


def dump(path, jax, cases):
    import numpy as np
    data = {
        "format": 1,
        "jax_version": jax.__version__,
        "jaxlib_version": getattr(__import__("jaxlib"), "__version__", "?"),
        "numpy_version": np.__version__,
        "generated_by": "tests/golden/generate.py",
        "num_cases": len(cases),
        "cases": cases,
    }
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=False, ensure_ascii=True)
        f.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temp dir and diff against the committed JSON")
    ap.add_argument("--only", help="run cases whose name contains this and print results")
    ap.add_argument("--no-strict", action="store_true")
    ap.add_argument("--file", help="only this case module: AREA for cases_AREA.py")
    ap.add_argument("--elsewhere", help="comma-separated case names: record real JAX's output on this "
                    "machine beside the committed one where it differs (CPU-dependent LAPACK results)")
    args = ap.parse_args(argv)

    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    jax, ns = _jax_namespace()
    files = {fn: importlib.import_module("cases_" + fn[:-len("_cases.json")]).CASES
             for fn in golden_lib.CASE_FILES}
    if args.file:
        files = {fn: defs for fn, defs in files.items() if fn == f"{args.file}_cases.json"}
        if not files:
            raise SystemExit(f"no tests/golden/cases_{args.file}.py")

    if args.elsewhere:
        names = set(args.elsewhere.split(","))
        for fn, defs in files.items():
            if names & {c["name"] for c in defs}:
                record_elsewhere(os.path.join(HERE, fn), names, defs, jax, ns)
        return 0

    if args.only:
        for defs in files.values():
            for c in defs:
                if args.only in c["name"]:
                    res = golden_lib.run_case(c, ns, _reset(jax))
                    print(c["name"], json.dumps(res)[:2000])
        return 0

    outdir = tempfile.mkdtemp(prefix="golden-") if args.check else HERE
    for fn, defs in files.items():
        cases = build(defs, jax, ns, strict=not args.no_strict)
        carry_elsewhere(os.path.join(HERE, fn), cases)
        dump(os.path.join(outdir, fn), jax, cases)
        print(f"{fn}: {len(cases)} cases (jax {jax.__version__})")

    if args.check:
        rc = 0
        for fn in files:
            with open(os.path.join(HERE, fn)) as f:
                old = f.read().splitlines()
            with open(os.path.join(outdir, fn)) as f:
                new = f.read().splitlines()
            diff = list(difflib.unified_diff(old, new, f"committed/{fn}", f"regenerated/{fn}",
                                             lineterm="", n=2))
            if diff:
                rc = 1
                print("\n".join(diff[:400]))
                print(f"{fn}: DIFFERS from committed golden data")
            else:
                print(f"{fn}: identical")
        return rc
    return 0


if __name__ == "__main__":
    sys.exit(main())
