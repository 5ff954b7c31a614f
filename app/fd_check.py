"""Check the Plots pane's derivatives against finite differences, as jax.test_util.check_grads
does: a learner whose custom_jvp/custom_vjp rule is wrong sees the autodiff curve leave the
finite-difference points, and a line that says so.

Central differences, (f(x+h) - f(x-h)) / (x+h - (x-h)), in the input's dtype (float32 unless
x64 is on): the step h = STEP * max(1, |x|) balances truncation (h^2 f'''/6) against float32
rounding of f (~1e-7 |f| / h); the denominator is the distance between the two points as
rounded, not 2h. A point agrees when its relative difference |fd - ad| / max(|ad|, |fd|, 1 % of
the curve's largest derivative) is under TOLERANCE. A kink (relu at 0) disagrees at the one or
two points beside it: the verdict allows up to KINK_POINTS of them.

Every check is bounded: at most MAX_POINTS points (the plots cap at 2,000), MAX_DIRECTIONS
coordinate directions, and the plot's time budget (analysis.on_page_points)."""
from __future__ import annotations

import numpy as np

STEP = 1e-3             # h = STEP * max(1, |x|)
TOLERANCE = 1e-2        # relative difference above which a point disagrees
FLOOR = 1e-2            # near a zero of the derivative, differences are relative to 1 % of its scale
KINK_POINTS = 3         # this many disagreeing points (or 2 %) read as kinks, not a wrong rule
KINKED_SHARE = 0.25     # f with a kink-making primitive (relu's max, abs, where...): up to this share
# primitives whose output has kinks or jumps in their inputs: a step across one makes a finite
# difference that neither one-sided derivative is (relu networks have many, spread over the data)
NON_SMOOTH = {"max", "min", "abs", "sign", "select_n", "floor", "ceil", "round", "clamp", "sort", "argmax",
              "argmin", "rem", "reduce_max", "reduce_min", "cumsum_max", "cummax", "cummin"}
MAX_POINTS = 2000
MAX_DIRECTIONS = 64     # vector inputs: the coordinate directions checked (spread over them)
STEP_TEXT = f"h = {STEP:g}·max(1, |x|)"


def _steps(x: np.ndarray) -> np.ndarray:
    return STEP * np.maximum(1.0, np.abs(x))


def relative(fd, ad, noise=0.0) -> np.ndarray:
    """|fd - ad| relative to the larger of the two, floored at FLOOR of the largest |ad| anywhere
    and at `noise` / TOLERANCE (`noise`: how far rounding f's values alone moves fd, _central)."""
    fd, ad = np.asarray(fd, dtype=float), np.asarray(ad, dtype=float)
    finite = np.isfinite(fd) & np.isfinite(ad)
    scale = float(np.max(np.abs(np.where(finite, ad, 0.0)), initial=0.0)) or 1.0
    noise = np.where(np.isfinite(noise), noise, 0.0)
    den = np.maximum(np.maximum(np.maximum(np.abs(ad), np.abs(fd)), FLOOR * scale), noise / TOLERANCE)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(finite, np.abs(fd - ad) / den, np.nan)


def verdict(rel: np.ndarray, where: list, ad, fd, what: str, unsettled=None) -> dict:
    """The summary of one comparison: `where[i]` names point i ('x = 0.5', 'w[2]'). `unsettled`:
    the points where the finite differences themselves do not settle (`_unsettled`): they check
    nothing, and are counted apart."""
    rel = np.asarray(rel, dtype=float)
    left_out = 0
    if unsettled is not None and np.any(unsettled):
        left_out = int(np.sum(unsettled & np.isfinite(rel)))
        rel = np.where(unsettled, np.nan, rel)
    checked = np.isfinite(rel)
    n = int(checked.sum())
    if not n:
        return {"what": what, "n": 0, "bad": 0, "max_rel": None, "agree": None, "unsettled": left_out}
    bad = int((rel[checked] > TOLERANCE).sum())
    i = int(np.nanargmax(rel))
    return {"what": what, "n": n, "bad": bad, "max_rel": float(rel[i]), "at": where[i],
            "ad": float(np.ravel(ad)[i]), "fd": float(np.ravel(fd)[i]),
            # a few points beside a kink may disagree; every point disagreeing is no kink (3 of 3 directions)
            "agree": bad <= max(KINK_POINTS, 0.02 * n) and bad < n, "share": bad / n, "unsettled": left_out}


def _unsettled(fd, fd_half, noise_half) -> np.ndarray:
    """Where halving the step moves the central difference by more than TOLERANCE (relative to
    the larger estimate, floored at the rounding noise): f changes faster than the step there (a
    chaotic iteration, a steep or jumping curve), neither estimate is f's slope, and a difference
    from autodiff there says nothing about the derivative rule. (A wrong rule on a smooth f: both
    steps give f's slope, and it stays a disagreement.)"""
    fd, fd_half = np.asarray(fd, dtype=float), np.asarray(fd_half, dtype=float)
    den = np.maximum(np.maximum(np.abs(fd), np.abs(fd_half)), np.where(np.isfinite(noise_half), noise_half, 0.0) / TOLERANCE)
    with np.errstate(invalid="ignore", divide="ignore"):
        move = np.abs(fd - fd_half)
        return ~(move <= TOLERANCE * den)  # nan (infinite values): unsettled


def _fmt(v: float) -> str:
    return f"{v:.3g}" if v is not None else "n/a"


def note(check: dict) -> tuple[str, bool]:
    """(the line the Plots pane prints, whether it is a mismatch)."""
    if "error" in check:
        return f"Finite-difference check left out: {check['error']}", False
    parts, wrong = [], False
    for c in check["checks"]:
        if not c["n"]:
            continue
        if c["bad"] == 0:
            parts.append(f"✓ {c['what']} agrees with central finite differences: max relative difference "
                         f"{_fmt(c['max_rel'])} over {c['n']} points")
        elif c["agree"]:
            parts.append(f"✓ {c['what']} agrees with central finite differences but at {c['bad']} of {c['n']} "
                         f"points (worst at {c['at']}: relative difference {_fmt(c['max_rel'])}): a kink or "
                         "jump in f there, where the derivative is not defined, or float32 rounding")
        elif check.get("kinks") and c["share"] <= KINKED_SHARE:
            parts.append(f"~ {c['what']} differs from central finite differences at {c['bad']} of {c['n']} points "
                         f"(max relative difference {_fmt(c['max_rel'])} at {c['at']}): f has kinks "
                         f"({', '.join(check['kinks'])}), and a step of h across one gives a slope that is "
                         "neither side's derivative; a wrong rule would differ at most points")
        else:
            wrong = True
            parts.append(f"✗ {c['what']} disagrees with central finite differences at {c['bad']} of {c['n']} "
                         f"points: max relative difference {_fmt(c['max_rel'])} at {c['at']} (autodiff "
                         f"{_fmt(c['ad'])}, finite difference {_fmt(c['fd'])}). The derivative rule is wrong: if f "
                         "uses jax.custom_jvp or jax.custom_vjp, check the rule it defines")
    for c in check["checks"]:
        if c.get("unsettled"):
            parts.append(f"~ at {c['unsettled']} {'more ' if c['n'] else ''}point{'s' if c['unsettled'] != 1 else ''} "
                         f"the finite differences of {c['what']} do not settle (steps h and h/2 give slopes more than "
                         f"{TOLERANCE:g} apart: f changes faster than the step there, e.g. a chaotic iteration or a "
                         "jump), so they check nothing there")
    if not parts:
        return "", False
    tail = (f"○ on the plot: central finite differences ({check['dtype']}, {check['step']}); "
            f"tolerance {TOLERANCE:g}.")
    if check.get("dirs"):
        tail += ("\n◇ on the gradient bars: each component's finite difference (a red ✗ where it disagrees); "
                 "with one bar per leaf, its label counts the components checked.")
    return "\n".join(p + "." for p in parts) + "\n" + tail, wrong


def summary(plot: dict) -> dict | None:
    """The page API's snapshot of the check: per comparison its counts and largest difference."""
    check = (plot or {}).get("fd")
    if not check:
        return None
    if "error" in check:
        return {"error": check["error"]}
    return {"checks": [{k: c.get(k) for k in ("what", "n", "bad", "max_rel", "agree", "unsettled")} for c in check["checks"]],
            "mismatch": note(check)[1], "tolerance": TOLERANCE, "step": check["step"]}


# ---------------------------------------------------------------- per plot kind
def _jax():
    from app.analysis import _jax
    return _jax()


def _values(g, points):
    """g at each of `points` (vmapped, in pieces when slow; one at a time where vmap fails)."""
    from app.analysis import over_points, ticking
    jnp = _jax().numpy
    try:
        return np.asarray(over_points(g, jnp.asarray(points)), dtype=float)
    except Exception:  # noqa: BLE001 - Python control flow on values: one point at a time
        return np.array([np.asarray(g(p), dtype=float) for p in ticking(jnp.asarray(points))])


def _difference(plus, minus, step, dtype) -> tuple[np.ndarray, np.ndarray]:
    """(fd, noise): (plus - minus) / step, and how much rounding f's values in `dtype` (each
    off by up to an ulp, more after sums) can move it: eps · (|plus| + |minus|) / step."""
    plus, minus = np.asarray(plus, dtype=float), np.asarray(minus, dtype=float)
    eps = float(np.finfo(dtype).eps) if np.dtype(dtype).kind == "f" else 1.2e-7
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return (plus - minus) / step, eps * (np.abs(plus) + np.abs(minus)) / np.abs(step)


def _central(g, x: np.ndarray, dtype, part: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(fd, noise) for g: R -> R at the points `x` (the float `dtype` the function gets), with
    the step `part` · h."""
    h = part * _steps(x)
    xp, xm = (x + h).astype(dtype), (x - h).astype(dtype)
    both = _values(g, np.concatenate([xp, xm]))
    n = len(x)
    return _difference(both[:n], both[n:], xp.astype(float) - xm.astype(float), dtype)


def _dtype(x):
    return np.asarray(_jax().numpy.asarray(x)).dtype


def scalar(fn, data: dict) -> dict:
    """f: R -> R: the finite-difference f' at (a spread of) the plotted points, beside grad's."""
    from app.pane_bounds import spread_indices
    x = np.asarray(data["x"], dtype=float)
    pick = spread_indices(len(x), MAX_POINTS)
    dtype = _dtype(x[0])
    xs = x[pick]
    fd, noise = _central(fn, xs, dtype)
    ad = np.asarray(data["df"], dtype=float)[pick]
    what = "jacfwd(f)" if data.get("derive") == "jacfwd" else "grad(f)"
    rel = relative(fd, ad, noise)
    unsettled = np.zeros(len(xs), dtype=bool)
    far = np.flatnonzero(rel > TOLERANCE)
    if far.size:  # a disagreement counts once the finite differences agree with themselves (step h/2)
        fd_half, noise_half = _central(fn, xs[far], dtype, 0.5)
        unsettled[far] = _unsettled(fd[far], fd_half, noise_half)
    c = verdict(rel, [f"x = {v:.4g}" for v in xs], ad, fd, what, unsettled)
    return {"x": xs, "fd": fd, "checks": [c], "dtype": str(dtype), "step": STEP_TEXT}


def outputs(fn, data: dict) -> dict:
    """f: R -> several scalars: each output's finite-difference derivative beside jacfwd's."""
    jax = _jax()
    jnp, tu = jax.numpy, jax.tree_util
    x = np.asarray(data["x"], dtype=float)
    dtype = _dtype(x[0])

    def stacked(v):
        return jnp.stack([jnp.asarray(leaf, dtype=jnp.result_type(float)) for leaf in tu.tree_leaves(fn(v))])
    h = _steps(x)
    xp, xm = (x + h).astype(dtype), (x - h).astype(dtype)
    both = _values(stacked, np.concatenate([xp, xm]))  # (2n, outputs)
    n = len(x)
    fd, noise = _difference(both[:n].T, both[n:].T, (xp.astype(float) - xm.astype(float))[None, :], dtype)
    checks = []
    for i, name in enumerate(data["names"]):
        ad = np.asarray(data["df"][i], dtype=float)
        checks.append(verdict(relative(fd[i], ad, noise[i]), [f"x = {v:.4g}" for v in x], ad, fd[i],
                              f"d/dx f(x){name}"))
    return {"checks": checks, "dtype": str(dtype), "step": STEP_TEXT}


def line(fn, args, data: dict) -> dict:
    """f: R^n -> R: along the plotted line x + t·d, the finite-difference slope of f beside ∇f·d
    (the jvp direction d); and at the input, each coordinate direction e_i beside ∂f/∂x_i (the
    bars), for at most MAX_DIRECTIONS components."""
    jax = _jax()
    jnp, tu = jax.numpy, jax.tree_util
    from core.flatten_util import ravel_pytree
    flat, unravel = ravel_pytree(tuple(args))
    flat = np.asarray(flat)
    dtype = flat.dtype
    g = lambda v: fn(*unravel(v))  # noqa: E731 - f of the flat input
    grads = np.concatenate([np.ravel(np.asarray(leaf["values"], dtype=float)) for leaf in data["leaves"]])
    norm = float(np.sqrt(np.sum(grads ** 2)))
    d = grads / norm if norm > 0 and np.isfinite(norm) else np.ones_like(grads) / np.sqrt(max(1, grads.size))
    t = np.asarray(data["t"], dtype=float)
    x_scale = float(np.max(np.abs(flat), initial=0.0))
    h = STEP * max(1.0, x_scale)  # one step in t: d is a unit vector
    points = np.concatenate([flat[None, :] + (t + h)[:, None] * d[None, :],
                             flat[None, :] + (t - h)[:, None] * d[None, :]]).astype(dtype)
    both = _values(g, points)
    n = len(t)
    fd_line, noise = _difference(both[:n], both[n:], 2 * h, dtype)
    ad_line = np.asarray(data["df"], dtype=float)
    checks = [verdict(relative(fd_line, ad_line, noise), [f"t = {v:.3g}" for v in t], ad_line, fd_line, "∇f·d along the line")]
    from app.pane_bounds import spread_indices
    comps = spread_indices(flat.size, MAX_DIRECTIONS)
    names = [f"component {i}" for i in comps]
    if all(len(np.ravel(leaf["values"])) for leaf in data["leaves"]):
        labels = [f"{leaf['name']}[{k}]" if np.size(leaf["values"]) > 1 else leaf["name"]
                  for leaf in data["leaves"] for k in range(np.size(leaf["values"]))]
        names = [labels[i] for i in comps]
    hs = STEP * np.maximum(1.0, np.abs(flat[comps]))
    eye = np.zeros((len(comps), flat.size))
    eye[np.arange(len(comps)), comps] = hs
    both = _values(g, np.concatenate([flat[None, :] + eye, flat[None, :] - eye]).astype(dtype))
    m = len(comps)
    steps = (flat[comps] + hs).astype(dtype).astype(float) - (flat[comps] - hs).astype(dtype).astype(float)
    fd_dirs, noise = _difference(both[:m], both[m:], steps, dtype)
    ad_dirs = grads[comps]
    rel_dirs = relative(fd_dirs, ad_dirs, noise)
    checks.append(verdict(rel_dirs, names, ad_dirs, fd_dirs,
                          f"∂f/∂x_i at the input ({m} direction{'s' if m != 1 else ''})"))
    del tu, jnp
    return {"t": t, "fd": fd_line, "checks": checks, "dtype": str(dtype),
            "step": f"h = {STEP:g}·max(1, |x|∞) along the line, {STEP:g}·max(1, |x_i|) per component",
            # per checked component (its flat index): the bars draw each beside ∂f/∂x_i, mismatches marked
            "dirs": {"names": names, "fd": fd_dirs, "index": [int(i) for i in comps],
                     "bad": [bool(r > TOLERANCE) for r in rel_dirs]}}


def surface(fn, args, data: dict) -> dict:
    """f: R^2 -> R: ∂f/∂x and ∂f/∂y at the arrows' points beside the plotted gradient."""
    jnp = _jax().numpy
    two = len(args) == 2
    g = (lambda p: fn(p[0], p[1])) if two else (lambda p: fn(p))
    ax, ay = np.asarray(data["ax"], dtype=float), np.asarray(data["ay"], dtype=float)
    dtype = np.float32 if _dtype(ax[0]) == np.float32 else _dtype(ax[0])
    pts = np.stack([ax, ay], axis=1)
    hx, hy = _steps(ax), _steps(ay)
    shifts = []
    for k, hk in ((0, hx), (1, hy)):
        e = np.zeros_like(pts)
        e[:, k] = hk
        shifts += [pts + e, pts - e]
    vals = _values(g, np.concatenate(shifts).astype(dtype))
    n = len(ax)
    fx, nx = _difference(vals[0:n], vals[n:2 * n], 2 * hx, dtype)
    fy, ny = _difference(vals[2 * n:3 * n], vals[3 * n:], 2 * hy, dtype)
    fd, noise = np.concatenate([fx, fy]), np.concatenate([nx, ny])
    ad = np.concatenate([np.asarray(data["gx"], dtype=float), np.asarray(data["gy"], dtype=float)])
    where = [f"∂/∂x at ({x:.3g}, {y:.3g})" for x, y in zip(ax, ay)] + [f"∂/∂y at ({x:.3g}, {y:.3g})" for x, y in zip(ax, ay)]
    del jnp
    return {"checks": [verdict(relative(fd, ad, noise), where, ad, fd, "the gradient arrows")], "dtype": str(np.dtype(dtype)),
            "step": STEP_TEXT}


def jacobian(fn, args, data: dict) -> dict:
    """A vector of a vector: each column of the Jacobian (jvp along e_j) beside finite differences."""
    x = np.asarray(_jax().numpy.asarray(args[0]))
    dtype = x.dtype
    shape = x.shape
    flat = x.astype(float).ravel()
    h = _steps(flat)
    eye = np.diag(h)
    g = lambda v: fn(v.reshape(shape))  # noqa: E731 - a scalar input is a vector of one
    vals = _values(g, np.concatenate([flat[None, :] + eye, flat[None, :] - eye]).astype(dtype))
    n = flat.size
    vals = vals.reshape(2 * n, -1)  # (2n, m)
    steps = (flat + h).astype(dtype).astype(float) - (flat - h).astype(dtype).astype(float)
    fd, noise = _difference(vals[:n].T, vals[n:].T, steps[None, :], dtype)  # (m, n): J[i, j]
    jac = np.asarray(data["jac"], dtype=float).reshape(fd.shape)
    where = [f"J[{i}, {j}]" for i in range(fd.shape[0]) for j in range(fd.shape[1])]
    return {"checks": [verdict(relative(fd.ravel(), jac.ravel(), noise.ravel()), where, jac.ravel(), fd.ravel(), "the Jacobian")],
            "dtype": str(dtype), "step": STEP_TEXT}


def kinks(fn, args) -> list:
    """The kink-making primitives in f's jaxpr (nested bodies included), sorted; [] if none."""
    jax = _jax()
    try:
        closed = jax.make_jaxpr(fn)(*args)
    except Exception:  # noqa: BLE001 - the check then reads every disagreement as a wrong rule
        return []
    from .jaxpr_diff import _sub_jaxprs
    found, todo = set(), [closed.jaxpr]
    while todo:
        j = todo.pop()
        for e in j.eqns:
            if e.primitive.name in NON_SMOOTH:
                found.add(e.primitive.name)
            for v in e.params.values():
                todo += _sub_jaxprs(v)
    return sorted(found)


def check(kind: str, fn, args, data: dict) -> dict | None:
    """The finite-difference check for the plot `kind` with its `data` (None: not checked)."""
    from app.analysis import on_page_points
    compute = {"scalar": lambda: scalar(fn, data), "outputs": lambda: outputs(fn, data),
               "rn": lambda: line(fn, args, data), "r2": lambda: surface(fn, args, data),
               "vector": lambda: jacobian(fn, args, data)}.get(kind)
    if compute is None or not data or "error" in data:
        return None
    out, err = on_page_points(compute, "finite differences around the plotted points")
    if err is not None:
        return {"error": err.headline()}
    if any(not c["agree"] for c in out["checks"] if c["n"]):
        out["kinks"] = kinks(fn, args)
    return out
