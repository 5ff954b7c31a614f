"""What the panes show, computed from the user's namespace with the engine's public API only
(`import jax` as a user would). Every function returns plain data (str, lists, numpy arrays,
dicts), so it is tested without Panel; errors come back as `sandbox.ErrorInfo`, never raised.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .. import sandbox, stages

# One module per pane computes what that pane shows (app/panes/ renders it): find.py (the functions
# and their inputs), jaxprs.py, plots.py, vmap.py, timing.py. This module runs them in order for one
# state of the code (`analyse`, `complete`, `add_plot`, `add_vmap`) and re-exports the names the app,
# tools and tests use as `analysis.X`. A test that patches a module global patches it where it is
# looked up: `app.analysis.timing.clock`, not `app.analysis.clock`.
from .find import (FunctionInfo, aux_functions, bind_static_args, default_args_source,  # noqa: F401
                   default_function, eval_args, find_functions, last_calls, source_segments, stopped_at)
from .jaxprs import (VIEWS, JaxprView, _batched, _integers_only, _jax, dataflow_graph,  # noqa: F401
                     jaxpr_view, returns_value_and_aux, side_by_side, value_part, view_code)
from .plots import (FIRST_POINTS, INTEGER_INPUT_NOTE, aux_note, elementwise, hold_integer_args,  # noqa: F401
                    jacobian, line_and_gradient, on_page_points, output_curves, over_points, plot_kind,
                    plot_note, scalar_curves, surface, ticking)
from .vmap import (_bounded_batch, batch_inputs, manual_versions, time_vmap, vmap_comparison,  # noqa: F401
                   vmap_pending)
from .timing import (MIN_SAMPLE_S, Superseded, _measure, _per_call, _ready_sync,  # noqa: F401
                     available_backends, clock_step, sample_target, scaled_problem, timings, timings_async,
                     timings_yielding)


# ------------------------------------------------------------------ everything at once
@dataclass
class Analysis:
    """Everything the panes show for one (code, function, input) state."""
    run: sandbox.RunResult
    code: str = ""
    functions: list = field(default_factory=list)
    function: FunctionInfo | None = None
    args_source: str = ""
    args: tuple = ()
    args_error: sandbox.ErrorInfo | None = None
    args_guessed: bool = False                       # no call of the function in the code: 1.0 per parameter
    input_error: sandbox.ErrorInfo | None = None     # jax_debug_nans/infs on: f's FloatingPointError at the input
    has_aux: bool = False                            # f returns (value, aux) and the code passes has_aux=True:
                                                     # grad(f, has_aux=True), plots and stages of the value
    jaxprs: dict = field(default_factory=dict)       # view -> JaxprView
    plot_kind: str | None = None
    plot: dict = field(default_factory=dict)
    vmap: dict = field(default_factory=dict)
    timing: dict = field(default_factory=dict)
    stages: list | None = None                       # stages.Stage: how grad(f) and vmap(f) are built
                                                     # (None: not computed, see `complete`)
    phases: dict = field(default_factory=dict)       # step -> seconds it took (the page bench prints them)


def analyse(code: str, function: str | None = None, args_source: str | None = None,
            views=VIEWS, with_vmap=True, with_timing=True, in_axes=None, timing_scale: int = 1,
            seconds: float = sandbox.DEFAULT_BUDGET_S, vmap_timed: bool = True,
            with_stages: bool = True, with_plot: bool = True) -> Analysis:
    """Run the code, pick the function and its input, and compute every pane's data.
    `with_timing=False` / `vmap_timed=False` leave the slow measurements out (the app fills
    them in afterwards: `timings`, `time_vmap`), so every other pane can show at once; `views`
    and `with_stages=False` leave out what the shown view does not need (`complete` adds it);
    `with_plot=False` / `with_vmap=False` leave a hidden tab's data for later (`add_plot`,
    `add_vmap`)."""
    clock = time.perf_counter
    t0 = clock()
    run = sandbox.run(code, seconds=seconds)
    a = Analysis(run=run, code=code)
    a.phases["exec"] = clock() - t0
    a.functions = find_functions(code, run.namespace, stopped_at(run.error))
    a.function = default_function(a.functions, function, code)
    if a.function is None:
        return a
    a.args_source = args_source if args_source is not None else default_args_source(a.function)
    a.args_guessed = args_source is None and not a.function.call_source
    a.args, a.args_error = eval_args(a.args_source, run.namespace)
    if a.args_error is not None:
        return a
    a.function, a.args = bind_static_args(a.function, a.args)
    if not a.args and a.function.held:
        a.vmap = {"held": a.function.held}  # every argument static: the vmap pane says so
    fn = a.function.fn
    a.input_error = debug_check(fn, a.args)
    with sandbox.captured():  # prints while tracing belong to the run, not to every pane
        t0 = clock()
        a.has_aux = a.function.has_aux and returns_value_and_aux(fn, a.args)
        for view in views:
            a.jaxprs[view] = jaxpr_view(fn, a.args, view, a.has_aux)
        if with_stages:
            a.stages = _stages(a)
        a.phases["jaxprs"] = clock() - t0
    if with_plot:
        add_plot(a)
    if with_vmap:
        add_vmap(a, in_axes, timed=vmap_timed)
    if with_timing:
        with sandbox.captured():
            t0 = clock()
            a.timing = timings(fn, a.args, scale=timing_scale)
            a.phases["timing"] = clock() - t0
    return a


def debug_check(fn, args) -> sandbox.ErrorInfo | None:
    """With jax_debug_nans or jax_debug_infs on (the code turned it on), f at the panes' input:
    JAX's FloatingPointError when f makes a NaN (inf) there, else None. The code may never call f
    there (a guessed input, or one typed under Input): the console says why the panes fail."""
    jax = _jax()
    if not (jax.config.jax_debug_nans or jax.config.jax_debug_infs):
        return None
    with sandbox.captured():  # jit's "Invalid nan value ... de-optimized version" line
        _, err = sandbox.guarded_call(fn, *args)
    return err if err is not None and err.type == "FloatingPointError" else None



def add_plot(a: Analysis) -> Analysis:
    """The Plots pane's data: which plot fits f's shape, and its samples."""
    if a.function is None or a.args_error is not None:
        return a
    t0 = time.perf_counter()
    plotted = value_part(a.function.fn) if a.has_aux else a.function.fn
    fn, args, varied, held_ints = hold_integer_args(plotted, a.args, a.function.params)
    held = tuple(f"{h} (an integer)" for h in held_ints) + a.function.held
    with sandbox.captured():
        a.plot_kind = plot_kind(fn, args)
        if a.plot_kind == "scalar":
            a.plot = scalar_curves(fn, float(np.asarray(args[0])))
        elif a.plot_kind == "outputs":
            a.plot = output_curves(fn, float(np.asarray(args[0])))
        elif a.plot_kind == "r2":
            a.plot = surface(fn, args)
        elif a.plot_kind == "vector":
            a.plot = jacobian(fn, args)
        elif a.plot_kind == "rn":
            a.plot = line_and_gradient(fn, args, varied)
        elif a.plot_kind == "elementwise":
            a.plot = elementwise(fn, args)
    if "error" in a.plot and args and all(_integers_only(x) for x in args):
        # an integer input (an index, a count): the plots move it through fractions, and an f
        # that rightly refuses floats is not an error in the learner's code
        a.plot_kind, a.plot = None, {"why": INTEGER_INPUT_NOTE.format(error=a.plot["error"].headline())}
    if a.plot and "error" not in a.plot and "why" not in a.plot:
        a.plot["varied"], a.plot["held"] = varied, held
        a.plot["code"] = plot_note(varied, held) + (aux_note(a.function.fn, a.args) if a.has_aux else "") + a.plot["code"]
        from .. import fd_check  # the derivatives drawn, against finite differences
        with sandbox.captured():
            fd = fd_check.check(a.plot_kind, fn, args, a.plot)
        if fd is not None:
            a.plot["fd"] = fd
    a.phases["plot"] = time.perf_counter() - t0
    return a


def add_vmap(a: Analysis, in_axes=None, timed: bool = False) -> Analysis:
    """The vmap pane's data: vmap(f) beside a loop and batching by hand (`timed`: with times)."""
    if a.function is None or a.args_error is not None or not a.args:
        return a
    t0 = time.perf_counter()
    with sandbox.captured():
        manual = a.run.namespace.get(manual_versions(a.code).get(a.function.name, ""))
        a.vmap = vmap_comparison(a.function.fn, a.args, in_axes, manual=manual if callable(manual) else None,
                                 timed=timed)
    a.phases["vmap"] = time.perf_counter() - t0
    return a


def _stages(a: Analysis) -> list:
    fn, f_view = a.function.fn, a.jaxprs.get("f")
    return stages.grad_stages(value_part(fn) if a.has_aux else fn, a.args) + [
        stages.batched_stage(fn, a.args, f_view.text if f_view and f_view.error is None else "")]


def complete(a: Analysis, views=(), with_stages: bool = False) -> Analysis:
    """Add what `analyse` was told to leave out: more jaxpr views, the grad/vmap stages."""
    if a.function is None or a.args_error is not None:
        return a
    with sandbox.captured():
        for view in views:
            if view not in a.jaxprs:
                a.jaxprs[view] = jaxpr_view(a.function.fn, a.args, view, a.has_aux)
        if with_stages and a.stages is None:
            a.stages = _stages(a)
    return a
