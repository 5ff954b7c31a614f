"""How grad and vmap are built, stage by stage, as plain data for the Jaxpr pane.

grad(f) is jvp (forward mode), then partial evaluation splits the jvp into the primal
computation and a linear map of the tangents (linearize: its constants are the residuals the
forward pass saved), then transposition runs that linear map backwards (vjp). vmap(f) is one
jaxpr over batched values. Everything goes through the engine's public API, as a user would."""
from __future__ import annotations

import re
from dataclasses import dataclass, field


from . import sandbox

STAGE_NOTES = {
    "jvp": "Forward mode: every equation of f gets a tangent equation beside it (primals and tangents flow together).",
    "linearized": "Partial evaluation keeps only the tangent (linear) part; the values it needs from the "
                  "forward pass become constants: the residuals, marked.",
    "transposed": "Transposition runs the linear part backwards, from the output's cotangent to the input's: "
                  "this is grad(f)'s backward pass.",
    "batched": "vmap traces f once on batched values: each value carries the batch axis shown beside it "
               "(unbatched values are the same for every example).",
}
STAGE_CODE = {
    "jvp": "jax.make_jaxpr(lambda p, t: jax.jvp(g, (p,), (t,)))(x, ones_like(x))",
    "linearized": "y, g_lin = jax.linearize(g, x); jax.make_jaxpr(g_lin)(ones_like(x))",
    "transposed": "y, g_vjp = jax.vjp(g, x); jax.make_jaxpr(g_vjp)(ones_like(y))",
    "batched": "jax.make_jaxpr(jax.vmap(f))(*batched)  # each argument stacked {size} times",
}
GRAD_STAGES = ("jvp", "linearized", "transposed")
BINDER = re.compile(r"\b([a-z]+):([a-z]+\d*)\[([\d,]*)\]")
OUTER_LAMBDA = re.compile(r"^\{ lambda ([^;]*);", re.MULTILINE)


@dataclass
class Stage:
    name: str
    code: str
    note: str                      # the one sentence: what this stage is, or why it is missing
    text: str = ""
    eqn_count: int | None = None   # None: the stage could not be built
    residuals: tuple = ()          # linearized: names of the constants the forward pass saved
    batch_axes: dict = field(default_factory=dict)  # batched: value name -> batch axis (None: unbatched)
    sources: tuple = ()            # per line of `text`: the line of user code it came from, or None


def _jax():
    sandbox.install_jax()
    import jax
    return jax


def _first_arg_only(fn, args):
    """g(x) = f(x, *rest): grad(f) differentiates the first argument only."""
    rest = tuple(args[1:])
    return lambda x: fn(x, *rest)


def _is_array_like(leaf) -> bool:
    try:
        _jax().numpy.asarray(leaf)
    except TypeError:  # a function, a string: jnp.asarray refuses them
        return False
    return True


def _why_not_differentiable(args) -> str | None:
    jax = _jax()
    if not args:
        return "f takes no arguments, so grad(f) has nothing to differentiate."
    leaves = jax.tree_util.tree_leaves(args[0])
    not_arrays = [type(leaf).__name__ for leaf in leaves if not _is_array_like(leaf)]
    if not_arrays:  # `def apply(g, x): return g(x)` called as apply(jnp.sin, 1.0)
        return (f"grad(f) differentiates f's first argument, which is a {not_arrays[0]}, not an array: "
                "there is no float tangent to carry.")
    dtypes = [jax.numpy.asarray(leaf).dtype for leaf in leaves]
    bad = [d for d in dtypes if d.kind not in "fc"]
    if not leaves or bad:
        kind = f"holds {bad[0]} values" if bad else "has no array leaves"
        return f"grad(f) differentiates f's first argument, which {kind}: there is no float tangent to carry."
    return None


def _error_sentence(err) -> str:
    first = (err.message or "").strip().splitlines()
    return f"This stage cannot be built: {err.type}: {first[0] if first else ''}".rstrip(": ")


def _built(name, code, make, **extra) -> Stage:
    closed, err = sandbox.guarded_call(make, seconds=10.0)
    if err is not None:
        return Stage(name, code, _error_sentence(err))
    from .sourcemap import mapped_lines
    lines = mapped_lines(closed.jaxpr)
    sources = tuple(ln.src for ln in lines) if "\n".join(ln.text for ln in lines) == str(closed) else ()
    return Stage(name, code, STAGE_NOTES[name], str(closed), len(closed.jaxpr.eqns), sources=sources, **extra)


def residual_names(text: str) -> tuple:
    """The constant binders of the outermost `{ lambda consts ; args .` (JAX prints constvars first)."""
    found = OUTER_LAMBDA.findall(text)
    return tuple(m.group(1) for m in BINDER.finditer(found[-1])) if found else ()


def grad_stages(fn, args) -> list:
    """jvp, linearized and transposed jaxprs of grad(f) (for f's first argument)."""
    why = _why_not_differentiable(args)
    if why is not None:
        return [Stage(name, STAGE_CODE[name], why) for name in GRAD_STAGES]
    jax = _jax()
    g, x = _first_arg_only(fn, args), args[0]
    ones = jax.tree_util.tree_map(lambda a: jax.numpy.ones_like(jax.numpy.asarray(a)), x)
    stages = [_built("jvp", STAGE_CODE["jvp"], lambda: jax.make_jaxpr(lambda p, t: jax.jvp(g, (p,), (t,)))(x, ones))]

    def linearized():
        _, g_lin = jax.linearize(g, x)
        return jax.make_jaxpr(g_lin)(ones)
    lin = _built("linearized", STAGE_CODE["linearized"], linearized)
    lin.residuals = residual_names(lin.text)
    stages.append(lin)

    def transposed():
        y, g_vjp = jax.vjp(g, x)
        return jax.make_jaxpr(g_vjp)(jax.tree_util.tree_map(jax.numpy.ones_like, y))
    stages.append(_built("transposed", STAGE_CODE["transposed"], transposed))
    return stages


def _dims(text: str) -> set:
    return {int(d) for m in BINDER.finditer(text) for d in m.group(3).split(",") if d}


def batch_size_for(f_text: str) -> int:
    """A batch size that is no dimension of f's own jaxpr, so a value's batch axis is the one of that size."""
    used = _dims(f_text)
    return next(n for n in range(3, 1000) if n not in used)


def batch_axes(text: str, size: int) -> dict:
    """Value name -> its batch axis (the one dimension of `size`), None for unbatched values."""
    axes = {}
    for m in BINDER.finditer(text):
        dims = [int(d) for d in m.group(3).split(",") if d]
        hits = [i for i, d in enumerate(dims) if d == size]
        axes[m.group(1)] = hits[0] if len(hits) == 1 else None
    return axes


def batched_stage(fn, args, f_text: str) -> Stage:
    jax = _jax()
    size = batch_size_for(f_text)
    code = STAGE_CODE["batched"].format(size=size)
    if not args:
        return Stage("batched", code, "f takes no arguments, so there is nothing for vmap to batch.")

    def make():
        stacked = jax.tree_util.tree_map(lambda a: jax.numpy.stack([jax.numpy.asarray(a)] * size), args)
        return jax.make_jaxpr(jax.vmap(fn))(*stacked)
    stage = _built("batched", code, make)
    stage.batch_axes = batch_axes(stage.text, size) if stage.eqn_count is not None else {}
    return stage


def stage_counts(stages) -> dict:
    """{stage: eqn_count} (None where the stage could not be built), what snapshot() reports."""
    return {s.name: s.eqn_count for s in stages}
