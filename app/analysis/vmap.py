"""The vmap pane's comparison: vmap(f) beside a Python loop, jit(vmap(f)) and batching by hand,
with their results checked against the loop and timed."""
from __future__ import annotations

import re
import time

import numpy as np

from .. import pane_bounds, sandbox
from .jaxprs import _jax
from .timing import _drive, _one_call_time, _per_call, _ready_sync, clock_step, sample_target


# ------------------------------------------------------------------ vmap comparison
# how batch_inputs makes element k of the batch from the input, by the input's kind (the vmap
# pane's header prints these); a PRNG key cannot be shifted (key + 1 is a KeyError in numpy)
BATCH_RULES = {"f": "floats + 0.5·k", "c": "complex + 0.5·k", "i": "integers + k", "u": "integers + k",
               "b": "bools as given", "key": "keys fold_in(key, k)"}


def _batch_kind(base) -> str:
    jax = _jax()
    if jax.dtypes.issubdtype(base.dtype, jax.dtypes.prng_key):
        return "key"
    return base.dtype.kind


def _element(base, kind: str, k: int):
    jax = _jax()
    if kind == "key":
        return jax.random.fold_in(base, k)
    if kind == "b":
        return base
    return base + (0.5 if kind in "fc" else 1) * k


def batch_rules(args) -> str:
    """'floats + 0.5·k, keys fold_in(key, k)': how element k of the batch is made from the input."""
    jax = _jax()
    kinds = {_batch_kind(jax.numpy.asarray(leaf)) for leaf in jax.tree_util.tree_leaves(args)}
    return ", ".join(rule for kind, rule in BATCH_RULES.items() if kind in kinds)


def batch_inputs(args, in_axes, size: int = 4):
    """Stack each argument `size` times (element k made by BATCH_RULES, so rows differ) along
    its in_axis; arguments with in_axis None are passed unbatched."""
    jax = _jax()
    jnp = jax.numpy

    def stack(leaf, ax):
        base = jnp.asarray(leaf)
        kind = _batch_kind(base)
        return jnp.stack([_element(base, kind, k) for k in range(size)], axis=ax)

    return tuple(a if ax is None else jax.tree_util.tree_map(lambda leaf: stack(leaf, ax), a)
                 for a, ax in zip(args, in_axes))


def _median_time(fn, repeats: int, warm: bool = True) -> dict:
    """Per-call seconds of `fn()`, sampled as the timing pane does (a coarse timer resolves it)."""
    return _drive(_per_call(fn, _ready_sync, repeats, target=sample_target(clock_step()), warm=warm))


MANUAL_MARK = re.compile(r"^# manual: *(\w+) *-> *(\w+) *$", re.M)


def manual_versions(code: str) -> dict:
    """function name -> the name of its hand-batched version, from '# manual: f -> batched_f'
    lines (the gallery's header metadata; users may write them too)."""
    return dict(MANUAL_MARK.findall(code))


def vmap_comparison(fn, args, in_axes=None, size: int = 4, repeats: int = 3, manual=None,
                    timed: bool = True) -> dict:
    """The tutorial's three ways to batch: a Python loop, jax.vmap, and by hand ('manual': the
    user's hand-batched version `manual` when the code names one, else f applied to the whole
    batch, which is only right when f is already written for batches).

    The manual entry has "shown" (True when it ran and matches vmap) and, when it is not shown,
    "why": one sentence on what went differently (the reason vmap exists).

    `timed=False` computes the values only (fast: the page shows them at once); each entry then
    keeps its "run" for `time_vmap`, which fills in the times afterwards."""
    jax = _jax()
    jnp = jax.numpy
    in_axes = tuple(in_axes) if in_axes is not None else (0,) * len(args)
    size, bounded = _bounded_batch(fn, args, in_axes, size)
    if not size:
        return {"skipped": bounded, "in_axes": in_axes, "size": 0}
    batched, err = sandbox.guarded_call(batch_inputs, args, in_axes, size)
    if err is not None:
        return {"error": err, "in_axes": in_axes, "size": size}

    def loop():
        rows = []
        for i in range(size):
            # element i as iterating over the batch gives it (a static slice; jnp.take's gather
            # cost the page 10x more than f itself, and the loop's time is f's)
            one = [b if ax is None else jax.tree_util.tree_map(
                lambda leaf: jax.lax.index_in_dim(leaf, i, ax, keepdims=False), b)
                   for b, ax in zip(batched, in_axes)]
            rows.append(fn(*one))
        return jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves), *rows)

    vmapped = jax.vmap(fn, in_axes=in_axes)
    result: dict = {"in_axes": in_axes, "size": size, "rules": batch_rules(args), "bounded": bounded,
                    "code": f"jax.vmap(f, in_axes={in_axes if len(in_axes) > 1 else in_axes[0]})(*batched)"}
    jitted = jax.jit(vmapped)
    for name, run in (("loop", loop), ("vmap", lambda: vmapped(*batched))):
        result[name] = _timed_entry(run, repeats, timed)
    # jit(vmap) is only timed (its value is vmap's): untimed, even its first call (trace and
    # compile) waits for time_vmap
    result["jit(vmap)"] = _timed_entry(lambda: jitted(*batched), repeats) if timed else \
        {"error": None, "time": None, "run": lambda: jitted(*batched)}
    ref = result["vmap"].get("value")
    if ref is not None and result["loop"].get("value") is not None:
        result["loop"]["matches_vmap"] = _same(result["loop"]["value"], ref)
    result["manual"] = _manual_entry(manual or fn, manual is not None, batched, ref, repeats, timed)
    return result


def _bounded_batch(fn, args, in_axes, size: int) -> tuple[int, str]:
    """(batch size, '') for the comparison, smaller than `size` for a big input or a slow f, or
    (0, why) when even 2 would be too much (app.pane_bounds): the pane must fill in seconds."""
    leaves = [leaf for a, ax in zip(args, in_axes) if ax is not None for leaf in _jax().tree_util.tree_leaves(a)]
    n = pane_bounds.elements(leaves)
    if n * 2 > pane_bounds.MAX_BATCH_ELEMENTS:  # too big to batch: f is not called
        return pane_bounds.batch_size(n, None, size)
    # one call of f says how long a batch takes (a 10k-step scan, a big matmul: seconds)
    t0 = time.perf_counter()
    _, err = sandbox.guarded_call(lambda: _as_array(fn(*args)), seconds=10.0)
    call_s = None if err is not None else time.perf_counter() - t0
    if err is not None and err.type == "TimeBudgetExceeded":
        return 0, "one call of f takes over 10 s on your input, so batching it is skipped. Try a smaller input."
    return pane_bounds.batch_size(n, call_s, size)


SLOW_CALL_S = 0.25  # a method whose call takes longer is timed by that one call, not by samples of
                    # several (a loop over 500x500 matmuls held the page's Python 25 s for its times)


def _called(run) -> tuple:
    """(value, error, seconds) of `run()` (the value as an array: ready, on every backend)."""
    t0 = time.perf_counter()
    value, err = sandbox.guarded_call(lambda: _as_array(run()), seconds=10.0)
    return value, err, time.perf_counter() - t0



def _timed_entry(run, repeats, timed: bool = True, computed=None) -> dict:
    """{"value", "error", "time"} of `run()`; `computed`: (value, error, seconds) of a call already made."""
    value, err, seconds = computed if computed is not None else _called(run)
    entry = {"error": err}
    if err is None:
        entry["value"], entry["call_s"] = _as_array(value), seconds
        if timed:
            _time_entry(entry, run, repeats)
        else:
            entry.update(time=None, run=run)  # timed later by time_vmap
    return entry


def _time_entry(entry: dict, run, repeats) -> None:
    called = "value" in entry  # its value's call was its first (loop, vmap, manual): no warm-up call
    if not called:  # not called yet (jit(vmap)): its first call may fail, and traces
        value, err, first_s = _called(run)
        if err is not None:
            entry.update(error=err, time=None)
            return
        entry["value"] = value
        if first_s > SLOW_CALL_S:  # a slow first call: one more (traced by now) is its time
            _, err, entry["call_s"] = _called(run)
    if entry.get("call_s", 0.0) > SLOW_CALL_S:
        entry["time"] = _one_call_time(entry["call_s"])
        return
    timed, terr = sandbox.guarded_call(_median_time, run, repeats, not called, seconds=10.0)
    entry["time"] = timed if terr is None else None


def vmap_pending(result: dict) -> bool:
    """Some row of a `timed=False` comparison still waits for its time."""
    return any(isinstance(e, dict) and "run" in e for e in (result or {}).values())


def time_vmap(result: dict, repeats: int = 3) -> dict:
    """Fill in the times of a comparison computed with `timed=False` (the values are already there)."""
    for entry in (result or {}).values():
        if isinstance(entry, dict) and "run" in entry:
            _time_entry(entry, entry.pop("run"), repeats)
    return result


def _same(value, ref) -> bool:
    return bool(value.shape == ref.shape and np.allclose(value, ref, equal_nan=True))


def _clipped(text: str, limit: int = 110) -> str:
    """`text` whole when short, else cut at a word before `limit` with "…" (not mid-word)."""
    text = text.rstrip(".:")
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(".,:;") + " …"


def _manual_entry(g, hand_written: bool, batched, ref, repeats, timed: bool = True) -> dict:
    """Batching by hand: timed and shown only when it gives vmap's answer; otherwise why not."""
    call = "{}(*batched)".format(getattr(g, "__name__", "f") if hand_written else "f")
    t0 = time.perf_counter()
    value, err = sandbox.guarded_call(lambda: g(*batched), seconds=10.0)
    call_s = time.perf_counter() - t0
    if err is not None:
        why = (f"{call} raises {err.type}" if hand_written else
               f"f is written for one example: applied to the whole batch it raises {err.type}") + \
            f" ({_clipped(err.headline().split(': ', 1)[-1])}). vmap batches it without a rewrite."
        return {"shown": False, "why": why, "call": call}
    got = _as_array(value)
    if ref is None or got is None or not _same(got, ref):
        if got is not None and ref is not None and got.shape != ref.shape:
            what = f"shape {got.shape} where vmap gives {ref.shape}"
        else:
            what = "other values than vmap"
        lead = call if hand_written else "f applied to the whole batch (f(batch))"
        return {"shown": False, "call": call,
                "why": f"{lead} computes something else: {what}. f treats the batch axis as data; "
                       "vmap maps f over it."}
    entry = _timed_entry(lambda: g(*batched), repeats, timed, computed=(value, None, call_s))  # not called again
    entry.update(shown=True, matches_vmap=True, call=call)
    return entry


def _as_array(value):
    """A batched output as one float array (pytree outputs: their leaves, flattened, side by side)."""
    jax = _jax()
    leaves = jax.tree_util.tree_leaves(value)
    try:
        if len(leaves) == 1:
            return np.asarray(leaves[0])
        return np.concatenate([np.asarray(l, dtype=float).reshape(len(np.asarray(l)), -1) for l in leaves], axis=1)
    except Exception:  # noqa: BLE001 - shown as "not tabular"
        return None
