"""Bounds on what the panes compute and send to the page, whatever the size of the learner's arrays.

The page draws every point a chart gets on its main thread (BokehJS on a canvas): a scatter of
the 1e6 components of the jit tutorial's `selu(x)` held the page for minutes, with Stop, scrolling
and reload dead meanwhile. So a chart gets at most MAX_PLOT_POINTS points, picked evenly, and says
how many it shows of how many. The worker's own work is bounded too: the vmap pane batches
copies of the input, which for big inputs (or a slow f) it does smaller or not at all, saying why.
"""
from __future__ import annotations

import numpy as np

MAX_PLOT_POINTS = 2000        # points per curve or scatter sent to the page
MAX_BATCH_ELEMENTS = 4_000_000  # the vmap pane's batch: at most this many input elements in all
VMAP_WORK_S = 4.0             # ... and about this long for its four ways to batch (one call each)
ONE_CALL_TIMING_S = 0.5       # the Timing pane: a mode whose first call is longer is timed on one call


def spread_indices(n: int, cap: int = MAX_PLOT_POINTS) -> np.ndarray:
    """Indices of at most `cap` of n points, evenly spread, the first and the last included."""
    if n <= cap:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, cap).round().astype(np.int64))


def plotted_note(shown: int, total: int, what: str = "points") -> str:
    """'plotted 2,000 of 1,000,000 points (evenly spaced): ...' or '' when all are shown."""
    if shown >= total:
        return ""
    return (f"plotted {shown:,} of {total:,} {what} (evenly spaced): the page draws at most "
            f"{MAX_PLOT_POINTS:,} per curve, so that a big array never holds it up")


def elements(tree_leaves) -> int:
    """How many numbers the leaves hold in all."""
    return int(sum(int(np.size(leaf)) for leaf in tree_leaves))


def batch_size(n_elements: int, call_s: float | None, size: int, methods: int = 4) -> tuple[int, str]:
    """(batch size, '') within MAX_BATCH_ELEMENTS and VMAP_WORK_S; (smaller size, why) when the
    batch had to shrink; (0, why) when even a batch of 2 is more: `n_elements` in one input,
    `call_s` seconds for one call of f (None: not timed)."""
    fits = size
    while fits >= 2 and n_elements * fits > MAX_BATCH_ELEMENTS:
        fits -= 1
    if fits < 2:
        return 0, (f"your input has {n_elements:,} elements: a batch of {size} copies would hold "
                   f"{n_elements * size:,}, more than the {MAX_BATCH_ELEMENTS:,} this pane batches. "
                   "Try it on a slice of the input (e.g. x[:1000]).")
    if call_s is not None:
        while fits >= 2 and call_s * fits * methods > VMAP_WORK_S:
            fits -= 1
        if fits < 2:
            return 0, (f"one call of f takes {call_s:.2g} s on your input: batching it {methods} ways "
                       f"would take about {call_s * 2 * methods:.0f} s or more, so the comparison is "
                       "skipped. Try it on a smaller input.")
    if fits < size:
        cause = (f"your input has {n_elements:,} elements" if n_elements * size > MAX_BATCH_ELEMENTS
                 else f"one call of f takes {call_s:.2g} s on your input")
        why = f"a batch of {fits}, not {size}: {cause}, and the pane must fill in seconds"
        return fits, why
    return fits, ""
