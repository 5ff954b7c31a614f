"""jax.random against real JAX, both in this one process, calls interleaved (bench_core's method).

    python -m tests.bench_random [--clock cpu] [--json PATH] [--jax-python PATH] [-k ROW]

The calls a learner's loop makes (`normal`, `uniform`, `split`, `randint`, `bernoulli`, `PRNGKey`),
with legacy uint32 keys and typed keys; every result is checked bit for bit against JAX's first.
"""
from __future__ import annotations

import argparse
import sys

from tests import bench_core as bc

N = 1000


def _legacy(e):
    return e.random.PRNGKey(0)


def _typed(e):
    return e.random.key(0)


def _row(make_key, call):
    def build(e):
        key = make_key(e)
        return lambda: call(e, key)
    return build


def _exact(e, k, shape):
    """Our float32 normal before the lookup table exists (a session that has drawn fewer than
    about 2**23 samples; see core/_engine/libraries/normal_table.py)."""
    try:
        from core._engine.libraries import normal_table
    except ImportError:   # (an engine from before the table: timing it for a before/after)
        normal_table = None
    if e.name != "gradpad" or normal_table is None:
        return e.random.normal(k, shape)
    with normal_table.exact_path_only():
        return e.random.normal(k, shape)


def _with_table(e, k, shape):
    if e.name == "gradpad":
        from core._engine.libraries import normal_table, random
        normal_table.build(random._normal_f32_of_bits)
    return e.random.normal(k, shape)


def _normal_rows(label, make_key, shape):
    return [(f"normal({label}, {shape}) exact", _row(make_key, lambda e, k: _exact(e, k, shape)), 1.0),
            (f"normal({label}, {shape}) table", _row(make_key, lambda e, k: _with_table(e, k, shape)), 1.0)]


# row -> (build, target ratio ours/JAX or None)
ROWS = [
    *_normal_rows("key", _legacy, (N,)),
    *_normal_rows("typed key", _typed, (N,)),
    *_normal_rows("key", _legacy, (100_000,)),
    *_normal_rows("key", _legacy, (10,)),
    (f"uniform(key, ({N},))", _row(_legacy, lambda e, k: e.random.uniform(k, (N,))), 1.0),
    ("split(key)", _row(_legacy, lambda e, k: e.random.split(k)), 1.0),
    ("split(typed key)", _row(_typed, lambda e, k: e.random.split(k)), 1.0),
    (f"randint(key, ({N},), 0, 10)", _row(_legacy, lambda e, k: e.random.randint(k, (N,), 0, 10)), 1.0),
    (f"bernoulli(key, 0.5, ({N},))", _row(_legacy, lambda e, k: e.random.bernoulli(k, 0.5, (N,))), 1.0),
    ("fold_in(key, 7)", _row(_legacy, lambda e, k: e.random.fold_in(k, 7)), 1.0),
    ("PRNGKey(0)", lambda e: (lambda: e.random.PRNGKey(0)), 1.0),
    ("key(0)", lambda e: (lambda: e.random.key(0)), 1.0),
]


def _key_words(e, x):
    """Typed keys compare by their key data (numpy cannot hold JAX's key dtype)."""
    return e.random.key_data(x) if "key" in str(getattr(x, "dtype", "")) else x


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench random")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--jax-python", help="the python of a JAX venv (as for `bench core`)")
    ap.add_argument("-k", dest="only", help="only rows whose name contains this")
    ap.add_argument("--clock", choices=sorted(bc.CLOCKS), default="wall")
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args(argv)
    bc.clock = bc.CLOCKS[args.clock]
    sys.path.insert(0, bc.ROOT)
    import core
    real, note = bc.load_jax(args.jax_python)
    ours = bc.Engine("gradpad", core)
    theirs = bc.Engine("jax", real) if real is not None else None
    results = []
    for row, build, target in ROWS:
        if args.only and args.only not in row:
            continue
        bc.TARGETS.setdefault(row, (target, f"<= {target:g}"))
        fo = build(ours)
        ft = build(theirs) if theirs else None
        if ft is not None:
            bc.check_same(row, _key_words(ours, fo()), _key_words(theirs, ft()), None)
        bo = (lambda f=fo: ours.block(f()))
        bt = None if ft is None else (lambda f=ft: theirs.block(f()))
        results.append((row, *bc.paired(bo, bt, args.rounds)))
    print(f"gradpad jax.random benchmark: {'JAX ' + real.__version__ if real else 'no JAX'} in this process; "
          f"paired medians of alternating batches ({args.clock} clock)")
    print(bc.table(results))
    if note:
        print(note)
    if args.json:
        import json
        with open(args.json, "w") as f:
            json.dump({row: {"gradpad": t, "jax": j, "ratio": r} for row, t, j, r in results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
