"""The Plots pane's points: which plot fits f's shape, its samples (within the page's budget) and the
notes on what is varied and what is held."""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from .. import pane_bounds, sandbox
from .find import _fix_args, _param_name
from .jaxprs import _integers_only, _jax


# ------------------------------------------------------------------ plots
def _is_float_scalar(a) -> bool:
    arr = np.asarray(a)
    return arr.shape == () and arr.dtype.kind in "fiu"


MAX_JACOBIAN_SIDE = 160  # larger Jacobians are not worth a heatmap (and cost n forward passes)


def _float_leaves(args) -> bool:
    """Every leaf of every argument is a float array (what jax.grad differentiates)."""
    leaves = _jax().tree_util.tree_leaves(args)
    return bool(leaves) and all(np.asarray(leaf).dtype.kind == "f" or isinstance(leaf, float) for leaf in leaves)


MAX_OUTPUT_CURVES = 8  # a tuple/dict of more scalars than this is not drawn as curves


def _scalar_leaves(out) -> bool:
    """`out` is a tuple/dict/list (not one array) of 2..MAX_OUTPUT_CURVES float scalars."""
    tu = _jax().tree_util
    leaves, tree = tu.tree_flatten(out)
    return (tree.num_nodes > 1 and 2 <= len(leaves) <= MAX_OUTPUT_CURVES
            and all(np.shape(leaf) == () and np.asarray(leaf).dtype.kind == "f" for leaf in leaves))


def _one_array(arg) -> bool:
    """An array or a number, not a container of them: `Point(x=1., y=2.)` (a namedtuple, the
    custom-derivatives tutorial) looks like a (2,) vector to numpy, but f reads its fields."""
    return not isinstance(arg, (tuple, list, dict)) and len(_jax().tree_util.tree_leaves(arg)) == 1


def plot_kind(fn, args) -> str | None:
    """'scalar' (R -> R), 'r2' (R^2 -> R, one (2,) vector or two scalars), 'rn' (any other float
    input, pytrees included, -> R), 'vector' (a vector out of a vector, small enough for a
    Jacobian heatmap), 'elementwise' (a long vector out of one of the same shape), or None."""
    out, err = sandbox.guarded_call(fn, *args, seconds=5.0)
    if err is not None or out is None:
        return None
    if len(args) == 1 and _is_float_scalar(args[0]) and _scalar_leaves(out):
        return "outputs"
    try:
        out_arr = np.asarray(out)
    except Exception:  # noqa: BLE001 - other pytrees and tuples are not plotted
        return None
    if out_arr.dtype == object or out_arr.dtype.kind not in "fiu":
        return None
    scalar_out = out_arr.shape == ()
    if len(args) == 1 and _is_float_scalar(args[0]) and scalar_out:
        return "scalar"
    if scalar_out and (len(args) == 2 and all(_is_float_scalar(a) for a in args)
                       or len(args) == 1 and _one_array(args[0]) and np.shape(args[0]) == (2,)):
        return "r2"
    if scalar_out and out_arr.dtype.kind == "f" and _float_leaves(args):
        return "rn"
    if scalar_out or len(args) != 1 or not _one_array(args[0]):
        return None
    x = np.asarray(args[0])
    if x.dtype.kind != "f" or x.ndim > 1 or out_arr.ndim > 1:
        return None
    if x.size <= MAX_JACOBIAN_SIDE and out_arr.size <= MAX_JACOBIAN_SIDE:
        return "vector"
    return "elementwise" if out_arr.shape == x.shape else None


SCALAR_CODE = """xs = jnp.linspace({lo:g}, {hi:g}, {n})
ys = jax.vmap(f)(xs)
dys = jax.vmap(jax.grad(f))(xs)
d2ys = jax.vmap(jax.grad(jax.grad(f)))(xs)"""


PAGE_POINTS_BUDGET_S = 5.0


def on_page_points(compute, where: str, seconds: float | None = None):
    """Run a plot's `compute` on points the page chose around the input (`where` names them),
    under a time budget even where Stop exists: f may run for ever on some of them (a
    lax.while_loop that ends only for x > 0), and no one asked for those calls. The budget is
    PAGE_POINTS_BUDGET_S as it is at the call (tests set it)."""
    seconds = PAGE_POINTS_BUDGET_S if seconds is None else seconds
    out, err = sandbox.guarded_call(compute, seconds=seconds, page_inputs=True)
    if err is not None and err.type == "TimeBudgetExceeded":
        err = dataclasses.replace(
            err, line=None, traceback="",
            message=f"f did not finish within {seconds:g} s on the plot's points ({where}), "
                    "though it does at your input: is f slow (big arrays: each point is a call of f), "
                    "or does a loop in it (lax.while_loop?) never end for some of them?",
            hint="The plot is left out; the other panes use your input only.")
    return out, err


REVERSE_MODE_ONLY = "Reverse-mode differentiation does not work"  # JAX's ValueError for grad of while_loop
FORWARD_NOTE = ("# grad (reverse mode) cannot go through lax.while_loop; jacfwd (forward mode) can, "
                "and for f: R -> R it is the same derivative\n")


def _needs_forward_mode(err) -> bool:
    return err is not None and err.type == "ValueError" and err.message.startswith(REVERSE_MODE_ONLY)


FIRST_POINTS = 2        # `over_points` times f on this many points before doing the rest
ONE_CALL_S = 0.3        # ... and does the rest in one call when they would take less than this
PIECE_S = 0.2           # else in pieces of about this long, with a budget check between two


def ticking(points):
    """The points, with a budget check before each (a per-point loop in the page's own code)."""
    for x in points:
        sandbox.tick()
        yield x


def over_points(g, *xs, first: int = FIRST_POINTS):
    """jax.vmap(g)(*xs), in pieces when g is slow on them: between two pieces `sandbox.tick()`
    lets the plot's time budget end it (in the page nothing else can: there is no watchdog
    thread, and one batched numpy call cannot be interrupted; a 500x500 matmul on 61 points of a
    line held the page's Python for 71 s). A fast g costs one extra vmap call."""
    jax = _jax()
    tu = jax.tree_util
    n = len(xs[0])
    batched = jax.vmap(g)
    t0 = time.perf_counter()
    pieces = [batched(*(x[:first] for x in xs))]
    per_point = (time.perf_counter() - t0) / max(1, min(first, n))
    start = first
    step = n if per_point * (n - first) < ONE_CALL_S else max(1, int(PIECE_S / max(per_point, 1e-9)))
    while start < n:
        sandbox.tick()
        pieces.append(batched(*(x[start:start + step] for x in xs)))
        start += step
    if len(pieces) == 1:
        return pieces[0]
    return tu.tree_map(lambda *parts: np.concatenate([np.asarray(p) for p in parts]), *pieces)


def scalar_curves(fn, x0: float = 0.0, n: int = 201, half_width: float = 3.0) -> dict:
    """f, f' and f'' over [x0-w, x0+w] with vmap(grad(f)); a per-point Python loop when f has
    value-dependent Python control flow (vmap cannot trace it, grad can); forward mode (jacfwd)
    when f has a lax.while_loop, which grad cannot differentiate (JAX raises; jacfwd works)."""
    jax = _jax()
    lo, hi = float(x0) - half_width, float(x0) + half_width
    xs = jax.numpy.linspace(lo, hi, n)
    where = f"x in [{lo:g}, {hi:g}]"

    def curves(derive):
        df, d2f = derive(fn), derive(derive(fn))
        done = []  # the curves finished: f and f' still plot when f'' runs out of time

        def vectorised():
            for g in (fn, df, d2f)[len(done):]:
                done.append(np.asarray(over_points(g, xs), dtype=float))
            return done

        def looped():
            return [np.array([float(g(x)) for x in ticking(xs)]) for g in (fn, df, d2f)]

        vals, err = on_page_points(vectorised, where)
        if err is not None and err.type == "TimeBudgetExceeded" and len(done) == 2:
            return [*done, None], err, "vmap"  # f'' left out, and the pane says why
        if err is not None and err.type != "TimeBudgetExceeded":  # a loop would not finish either
            looped_vals, looped_err = on_page_points(looped, where)
            if looped_err is None or not _needs_forward_mode(err):
                return looped_vals, looped_err, "loop"
        return vals, err, "vmap"

    vals, err, method = curves(jax.grad)
    forward = _needs_forward_mode(err)
    if forward:
        vals, err, method = curves(jax.jacfwd)
    skipped = ""
    if err is not None and vals is not None and vals[2] is None:
        second = "jacfwd(jacfwd(f))" if forward else "grad(grad(f))"  # the derivative the plot used
        skipped = (f"f''(x) is left out: it did not finish within {PAGE_POINTS_BUDGET_S:g} s on the "
                   f"plot's {n} points ({where}); f(x) and f'(x) are drawn. Each point is a call of "
                   f"{second}: call it yourself on the inputs you need.")
    elif err is not None:
        return {"error": err}
    code = SCALAR_CODE.format(lo=lo, hi=hi, n=n)
    if forward:
        code = FORWARD_NOTE + code.replace("jax.grad(", "jax.jacfwd(")
    if method == "loop":
        code = "# vmap could not trace f (Python control flow on values); per point instead:\n" + \
               code.replace("jax.vmap(", "loop(")
    out = {"x": np.asarray(xs, dtype=float), "f": vals[0], "df": vals[1], "d2f": vals[2],
           "method": method, "code": code, "derive": "jacfwd" if forward else "grad"}
    if skipped:
        out["skipped"] = skipped
    return out


OUTPUTS_CODE = """xs = jnp.linspace({lo:g}, {hi:g}, {n})
ys = jax.vmap(f)(xs)   # a curve per output
dys = jax.vmap(jax.jacfwd(f))(xs)"""


def output_curves(fn, x0: float = 0.0, n: int = 201, half_width: float = 3.0) -> dict:
    """f: R -> a tuple/dict of scalars (`return jnp.sin(x), jnp.cos(x)`): each output and its
    derivative over [x0-w, x0+w], named by its path in the output (f(x)[0], f(x)['sq'])."""
    jax = _jax()
    tu = jax.tree_util
    jnp = jax.numpy
    lo, hi = float(x0) - half_width, float(x0) + half_width
    xs = jnp.linspace(lo, hi, n)

    def stacked(g):
        return lambda x: jnp.stack([jnp.asarray(leaf, dtype=jnp.result_type(float)) for leaf in tu.tree_leaves(g(x))])

    def compute():
        paths = [tu.keystr(path) for path, _ in tu.tree_flatten_with_path(fn(xs[0]))[0]]
        ys = np.asarray(over_points(stacked(fn), xs), dtype=float)
        dys = np.asarray(over_points(stacked(jax.jacfwd(fn)), xs), dtype=float)
        return {"x": np.asarray(xs, dtype=float), "names": paths, "f": ys.T, "df": dys.T,
                "code": OUTPUTS_CODE.format(lo=lo, hi=hi, n=n)}

    out, err = on_page_points(compute, f"x in [{lo:g}, {hi:g}]")
    return {"error": err} if err is not None else out


def surface(fn, args, n: int = 41, arrows: int = 9, half_width: float = 2.0) -> dict:
    """f over a grid around the input (R^2 -> R) and its gradient on a coarser grid."""
    jax = _jax()
    jnp = jax.numpy
    two_scalars = len(args) == 2
    centre = [float(a) for a in args] if two_scalars else [float(v) for v in np.asarray(args[0])]
    g = fn if two_scalars else (lambda x, y: fn(jnp.stack([x, y])))

    def grid(m):
        xs = np.linspace(centre[0] - half_width, centre[0] + half_width, m, dtype=np.float32)
        ys = np.linspace(centre[1] - half_width, centre[1] + half_width, m, dtype=np.float32)
        return xs, ys

    def compute():
        xs, ys = grid(n)
        X, Y = np.meshgrid(xs, ys)
        Z = over_points(jax.vmap(g), jnp.asarray(X), jnp.asarray(Y))  # row by row when f is slow
        ax, ay = grid(arrows)
        AX, AY = np.meshgrid(ax, ay)
        GX, GY = jax.vmap(jax.vmap(jax.grad(g, argnums=(0, 1))))(jnp.asarray(AX), jnp.asarray(AY))
        return {"x": xs, "y": ys, "z": np.asarray(Z, dtype=float), "ax": AX.ravel(), "ay": AY.ravel(),
                "gx": np.asarray(GX, dtype=float).ravel(), "gy": np.asarray(GY, dtype=float).ravel(),
                "code": "Z = jax.vmap(jax.vmap(f))(X, Y)\n"
                        "GX, GY = jax.vmap(jax.vmap(jax.grad(f, argnums=(0, 1))))(X, Y)"}

    out, err = on_page_points(compute, f"a grid of ±{half_width:g} around {centre}")
    return {"error": err} if err is not None else out


LINE_CODE = """# d: the direction of steepest ascent; the line x + t·d, t in [-{w:g}, {w:g}]
d = grad(f)(x) / |grad(f)(x)|
fs = vmap(lambda t: f(x + t * d))(ts)
dfs = vmap(lambda t: jvp(f, (x + t * d,), (d,))[1])(ts)
# the bars: one per component (per leaf, its norm, when there are many)
g = grad(f, argnums=all)(x)"""


def _leaf_names(args, arg_names=()) -> list:
    """"params['w']", 'x' ... one name per leaf of the arguments: the parameter's name, then the
    leaf's path in it as jax.tree_util.keystr writes it."""
    tu = _jax().tree_util
    names = []
    for i, a in enumerate(args):
        base = arg_names[i] if i < len(arg_names) else f"args[{i}]"
        paths, _ = tu.tree_flatten_with_path(a)
        names += [base + tu.keystr(path) for path, _ in paths]
    return names


LINE_JVP = "dfs = vmap(lambda t: jvp(f, (x + t * d,), (d,))[1])(ts)"
LINE_VJP = ("# jvp refuses a custom_vjp function (it has only a reverse rule): the gradient along d instead\n"
            "dfs = vmap(lambda t: vdot(grad(f)(x + t * d), d))(ts)")
CUSTOM_VJP_NO_JVP = "can't apply forward-mode autodiff (jvp) to a custom_vjp function"  # JAX's TypeError


def _jvp_refused(along, t) -> bool:
    """Whether jvp refuses f because it is a jax.custom_vjp function (JAX's TypeError)."""
    try:
        along(t)
    except TypeError as e:
        return CUSTOM_VJP_NO_JVP in str(e)
    except Exception:  # noqa: BLE001 - other failures are the per-point fallback's business
        return False
    return False


def line_and_gradient(fn, args, arg_names=(), n: int = 61) -> dict:
    """For f: R^n -> R (any float pytree in): f and its directional derivative along the line
    through the input in the gradient's direction, and the gradient per component and per leaf."""
    jax = _jax()
    jnp = jax.numpy
    tu = jax.tree_util
    argnums = tuple(range(len(args)))

    def compute():
        grads = jax.grad(fn, argnums=argnums)(*args)
        leaves = [np.asarray(g, dtype=float) for g in tu.tree_leaves(grads)]
        norm = float(np.sqrt(sum(np.sum(g ** 2) for g in leaves)))
        size = sum(g.size for g in leaves)
        d = tu.tree_map(lambda g: g / norm, grads) if norm > 0 and np.isfinite(norm) else \
            tu.tree_map(lambda g: jnp.ones_like(g) / np.sqrt(size), grads)
        x_norm = float(np.sqrt(sum(np.sum(np.asarray(a, dtype=float) ** 2) for a in tu.tree_leaves(args))))
        w = max(1.0, 0.25 * x_norm)
        ts = np.linspace(-w, w, n, dtype=np.float32)

        def along(t):
            moved = tu.tree_map(lambda a, v: a + t * v, tuple(args), tuple(d))
            return jax.jvp(lambda *p: fn(*p), moved, tuple(d))

        def along_reverse(t):  # the same derivative, as the gradient's component along d
            moved = tu.tree_map(lambda a, v: a + t * v, tuple(args), tuple(d))
            value, g = jax.value_and_grad(fn, argnums=argnums)(*moved)
            return value, sum(jnp.vdot(gi, di) for gi, di in zip(tu.tree_leaves(g), tu.tree_leaves(d)))

        code = LINE_CODE.format(w=w)
        if _jvp_refused(along, ts[0]):
            along, code = along_reverse, code.replace(LINE_JVP, LINE_VJP)
        try:
            fs, dfs = over_points(along, jnp.asarray(ts))
        except Exception:  # noqa: BLE001 - Python control flow on values: one point at a time
            pairs = [along(t) for t in ticking(ts)]
            fs, dfs = [p[0] for p in pairs], [p[1] for p in pairs]
        names = _leaf_names(args, arg_names)
        per_leaf = [{"name": nm, "shape": tuple(g.shape), "norm": float(np.sqrt(np.sum(g ** 2))),
                     "values": g.ravel()} for nm, g in zip(names, leaves)]
        return {"t": ts.astype(float), "f": np.asarray(fs, dtype=float), "df": np.asarray(dfs, dtype=float),
                "leaves": per_leaf, "grad_norm": norm, "code": code}

    out, err = on_page_points(compute, "a line through your input")
    return {"error": err} if err is not None else out


def elementwise(fn, args) -> dict:
    """A long vector in, one of the same shape out: f(x)_i against x_i, and J·1 (the Jacobian's
    row sums, f'(x_i) for an elementwise f) from one jvp."""
    jax = _jax()

    def compute():
        x = jax.numpy.asarray(args[0])
        out, tangent = jax.jvp(fn, (x,), (jax.numpy.ones_like(x),))
        # only the points the chart draws leave the worker (app.pane_bounds)
        pick = pane_bounds.spread_indices(x.size)
        flat = lambda a: np.ravel(np.asarray(a))[pick].astype(float)  # noqa: E731
        return {"x": flat(x), "f": flat(out), "df": flat(tangent), "total": int(x.size),
                "code": "y, dy = jax.jvp(f, (x,), (jnp.ones_like(x),))  # dy = J·1 = f'(x_i) if f is elementwise"}

    out, err = sandbox.guarded_call(compute, seconds=10.0)
    return {"error": err} if err is not None else out


def jacobian(fn, args) -> dict:
    jax = _jax()
    jac, err = sandbox.guarded_call(lambda: np.asarray(jax.jacfwd(fn)(*args), dtype=float), seconds=10.0)
    if err is not None:
        return {"error": err}
    jac = jac.reshape(jac.shape[0] if jac.ndim else 1, -1)
    return {"jac": jac, "code": "J = jax.jacfwd(f)(x)  # J[i, j] = d f_i / d x_j"}


def hold_integer_args(fn, args: tuple, params) -> tuple:
    """(g, varied arguments, their names, held descriptions) for the plots: beside a float
    argument, an integer one stays at the input's value (a plot moving lax.switch's index through
    0.5 fails: "Index type must be an integer"). Integers alone are plotted as numbers, as before."""
    ints = {i for i, a in enumerate(args) if _integers_only(a)}
    names = [_param_name(params, i) for i in range(len(args))]
    if not ints or len(ints) == len(args):
        return fn, args, names, ()
    g, varied = _fix_args(fn, args, ints, getattr(fn, "__name__", "f"))
    held = tuple(f"{names[i]} = {args[i]!r}" if np.ndim(args[i]) == 0 else names[i] for i in sorted(ints))
    return g, varied, [nm for i, nm in enumerate(names) if i not in ints], held


def aux_note(fn, args, width: int = 72) -> str:
    """The plot's first line for a has_aux function: what it shows, and aux at the input (cut short)."""
    aux = " ".join(repr(fn(*args)[1]).split())
    aux = aux if len(aux) <= width else aux[:width - 3] + "..."
    return f"# f returns (value, aux), differentiated with has_aux=True: the plots show the value; aux = {aux}\n"


def plot_note(varied, held) -> str:
    """'# varied: x; held at your input: i = 1 (an integer), n (static)' or '' (nothing held)."""
    if not held:
        return ""
    return f"# varied: {', '.join(varied)}; held at your input: {', '.join(held)}\n"


INTEGER_INPUT_NOTE = ("Its input is integers only, and f does not accept the fractional values between "
                      "them that a plot needs ({error}); the other panes use your input.")
