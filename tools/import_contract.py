"""The engine's import contract: core/'s layers, bottom up, and the few imports allowed to run up.

    python -m tools.import_contract       # every import against the layers, and core's circles

Every `import` counts, at any depth: a function-level import is still an arrow (it runs when the
function does, and it ties modules into one circle all the same). A module may import its own
layer and the layers below it; an arrow up is allowed only when INHERENT lists it with the reason
it cannot point down (and the import line says `# INHERENT: ...`). Every circle of modules is listed in
DOCUMENTED_CIRCLES, member by member, with why; any other circle fails, naming the imports that close
it. app/ sits above the engine: core imports nothing of app/, and app uses the public faces plus the
internals APP_INTERNALS names. tests/test_layering.py runs this in the test command. Standard library only."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (name, module prefixes), bottom up; a module belongs to the layer of its longest matching prefix,
# and every module of core/ belongs to one (test_every_module_has_a_layer). tools/move_to_layers.py
# reads this table to put each module in core/_engine/<layer>/, then rewrites it to those folders:
# from then on a module's layer is its folder.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("core._engine.base",)),
    ("tracing", ("core._engine.tracing",)),
    ("transforms", ("core._engine.transforms",)),
    ("primitives", ("core._engine.primitives",)),
    ("lax", ("core._engine.lax",)),
    ("libraries", ("core._engine.libraries",)),
    ("api", ("core._engine.api",)),
    ("backends", ("core._engine.backends",)),
    # the public faces (re-exports at JAX's paths) and the public-only modules (jax.extend, jax._src ...)
    ("public", ('core._engine', 'core', 'core._src', 'core._src.ad_util', 'core._src.api', 'core._src.checkify', 'core._src.compiler', 'core._src.core', 'core._src.dispatch', 'core._src.dtypes', 'core._src.lax', 'core._src.lax.lax', 'core._src.state', 'core._src.state.types', 'core._src.traceback_util', 'core._src.tree_util', 'core._src.util', 'core._src.xla_bridge', 'core.api_util', 'core.core', 'core.experimental', 'core.experimental.checkify', 'core.experimental.hijax', 'core.experimental.layout', 'core.experimental.mesh_utils', 'core.experimental.multihost_utils', 'core.experimental.ode', 'core.experimental.jet', 'core.experimental.rnn', 'core.experimental.shard_alike', 'core.experimental.control_deps', 'core.experimental.key_reuse', 'core.experimental.sparse.api', 'core.experimental.sparse.bcoo', 'core.experimental.sparse.bcsr', 'core.experimental.pjit', 'core.experimental.shard_map', 'core.experimental.sparse', 'core.extend', 'core.extend.core', 'core.extend.core_primitives', 'core.extend.linear_util', 'core.extend.random', 'core.extend.source_info_util', 'core.interpreters', 'core.interpreters.ad', 'core.interpreters.batching', 'core.interpreters.mlir', 'core.interpreters.partial_eval', 'core.interpreters.xla', 'core.jax_names', 'core.top_level', 'core.ad_checkpoint', 'core.config', 'core.custom_derivatives', 'core.custom_batching', 'core.debug', 'core.dlpack', 'core.dtypes', 'core.errors', 'core.example_libraries', 'core.example_libraries.optimizers', 'core.example_libraries.stax', 'core.export', 'core.flatten_util', 'core.image', 'core.lax', 'core.lax_linalg', 'core.monitoring', 'core.nn', 'core.nn.initializers', 'core.numpy', 'core.numpy.fft', 'core.numpy.linalg', 'core.ops', 'core.profiler', 'core.random', 'core.ref', 'core.scipy', 'core.scipy.fft', 'core.scipy.integrate', 'core.scipy.linalg', 'core.scipy.optimize', 'core.scipy.signal', 'core.scipy.sparse', 'core.scipy.sparse.linalg', 'core.scipy.special', 'core.scipy.stats', 'core.scipy.stats.bernoulli', 'core.scipy.stats.beta', 'core.scipy.stats.binom', 'core.scipy.stats.cauchy', 'core.scipy.stats.chi2', 'core.scipy.stats.dirichlet', 'core.scipy.stats.expon', 'core.scipy.stats.gamma', 'core.scipy.stats.laplace', 'core.scipy.stats.logistic', 'core.scipy.stats.multivariate_normal', 'core.scipy.stats.norm', 'core.scipy.stats.poisson', 'core.scipy.stats.t', 'core.scipy.stats.uniform', 'core.sharding', 'core.stages', 'core.test_util', 'core.tree', 'core.tree_util', 'core.typing', 'core.version',)),
]

# Upward arrows kept on purpose: (importer, imported) -> why it cannot point down. A key names a
# module (or a package: its modules too); every upward import must match one, and every key must
# still be used (test_every_inherent_arrow_is_still_there), so the list names each back edge and only
# shrinks. Each import line that uses one says so in a comment (test_each_upward_import_says_why).
# Anything else that must reach up a layer goes through a table the upper layer fills in
# (core/_engine/tracing/rules.py: jaxpr_compiler, transform_ops).
_RULES_USE_LAX = ("rules (jvp, transpose, batching, lowering to other primitives) build their results with "
                  "lax's typed wrappers, as JAX's do (jax/_src/lax/lax.py defines the primitives and the "
                  "wrappers in one module): the one circle across layers, primitives <-> lax")
_STAGED = ("jnp, nn, random and scipy functions are staged as nested jits (their jaxprs show "
           "jit[name=...], as JAX's do), some are custom_jvps, and a few are built with vmap/jvp "
           "(vectorize, apply_along_axis) or place results (out_sharding=: device_put): all live in "
           "the api, which imports no library, so this makes no circle")
_PRIMITIVES_CALLING_LAX = (
    "collectives", "collectives_more", "complex_parts", "control_flow", "convolution", "dot", "elementwise",
    "elementwise_extra", "fft", "generic_reduce", "indexing", "linalg", "misc", "ragged", "random_bits",
    "reductions", "rng_bits", "shaping", "solves", "structural", "windowed")
INHERENT: dict[tuple[str, str], str] = {
    **{(f"core._engine.primitives.{m}", "core._engine.lax.lax"): _RULES_USE_LAX for m in _PRIMITIVES_CALLING_LAX},
    ("core._engine.libraries.numpy", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.nn", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.random", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.scipy", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.scipy", "core._engine.api.custom_derivatives"): _STAGED,
}

# Circles (modules that import each other, at any depth) may only lie inside one layer, or be this
# one: the primitives' rules call lax, and lax binds the primitives (INHERENT above).
INHERENT_CIRCLES = [{"primitives", "lax"}]

# Every circle in core/, member by member, with why it is there (test_every_circle_is_documented): a
# new circle, or a module joining one, fails naming the imports that close it; a circle that shrinks
# or goes is taken out here (the list only shrinks). `python -m tools.import_contract` prints them.
_N = "core._engine.libraries.numpy."
DOCUMENTED_CIRCLES: dict[str, tuple[frozenset[str], str]] = {
    "primitives <-> lax": (frozenset(
        ["core._engine.lax.lax", "core._engine.lax.lax_linalg", "core._engine.primitives"]
        + [f"core._engine.primitives.{m}" for m in (
            "collectives", "collectives_more", "complex_parts", "control_flow", "dot", "elementwise",
            "generic_reduce", "indexing", "linalg", "ormqr", "random_bits", "reductions", "rng_bits", "schur",
            "special_functions", "structural", "tridiagonal")]),
        _RULES_USE_LAX + "; lax imports the primitive modules it wraps, and lax.linalg the decompositions"),
    "jnp's kernel": (frozenset(
        [_N + m for m in ("_creation", "_dtypes", "_indexing", "_reductions", "_searching", "_shapes", "_take",
                          "_ufuncs")] + ["core._engine.libraries.dslice"]),
        "jnp's basic functions are written with each other, as JAX's are (the same check on JAX 0.10.2's "
        "jax/_src/numpy finds a 9-module circle: lax_numpy, ufuncs, reductions, indexing, ...): asarray "
        "and where are used by all of them, creation's linspace/arange and reductions use ufuncs, x[idx] "
        "(_indexing, with jax.ds slices from dslice) is built from creation and ufuncs and take uses it, "
        "jnp.float32(x) (_dtypes' scalar types) calls asarray. jnp's other modules (statistics, sets, "
        "products, pad, unique, logsumexp, the ufunc objects ...) import the kernel and none of it imports them"),
    "nn <-> random": (frozenset(
        ["core._engine.libraries.nn", "core._engine.libraries.nn._attention", "core._engine.libraries.nn._more",
         "core._engine.libraries.nn.initializers", "core._engine.libraries.random"]),
        "jax.nn.initializers draws with jax.random and random.dirichlet uses nn.softmax; nn's package "
        "both defines the activations and imports initializers, _more and _attention (JAX keeps the "
        "activations apart, in jax._src.nn.functions)"),
    "arrays <-> tracing": (frozenset(
        ["core._engine.tracing.array", "core._engine.tracing.placement", "core._engine.tracing.tracing"]),
        "arrays are bound values and bind makes arrays: Array's operators bind primitives, tracing wraps "
        "results in Array, and device_put (placement) makes the arrays whose to_device calls it"),
    "api <-> stages, checkpoint": (frozenset(
        ["core._engine.api.api", "core._engine.api.ad_checkpoint", "core._engine.api.stages"]),
        "jit returns stages' objects (Wrapped, Lowered) whose eval_shape gives api's ShapeDtypeStruct; "
        "jax.checkpoint uses api's argument conversion and api re-exports checkpoint"),
    "cpu <-> cpu_loops": (frozenset(["core._engine.backends.cpu", "core._engine.backends.cpu_loops"]),
        "the CPU compiler writes a loop's body with itself (cpu_loops is its loop half, split for size)"),
    "webgpu device <-> dispatch": (frozenset(
        ["core._engine.backends.webgpu.device", "core._engine.backends.webgpu.dispatch"]),
        "a WebGPU array moves itself to a device through dispatch, which makes WebGPU arrays"),
    "numpy.linalg <-> its jvps": (frozenset([_N[:-1] + ".linalg", _N + "_linalg_jvp"]),
        "the decompositions' jvp rules are written with jnp.linalg, and jnp.linalg imports them to fill "
        "ad.jvp_rules when it loads"),
    "normal table <-> its pack": (frozenset(
        ["core._engine.libraries.normal_table", "core._engine.libraries.normal_table_pack"]),
        "only the pack's `python -m` block (it regenerates the shipped table) imports the table"),
    "core <-> top_level": (frozenset(["core", "core.top_level"]),
        "the jax package re-exports top_level's names, which report the package's version and devices"),
    "scipy.special <-> hypergeometrics": (frozenset(
        ["core._engine.libraries.scipy._special_hyp", "core._engine.libraries.scipy.special"]),
        "hyp1f1/hyp2f1 use special.gamma; special re-exports them (a module that both defines and re-exports)"),
    "scipy.linalg <-> more": (frozenset(
        ["core._engine.libraries.scipy._linalg_more", "core._engine.libraries.scipy.linalg"]),
        "the later matrix functions use linalg's toeplitz/expm; linalg re-exports them"),
    "scipy.signal <-> spectral": (frozenset(
        ["core._engine.libraries.scipy._spectral", "core._engine.libraries.scipy.signal"]),
        "welch/csd/stft use signal.detrend; signal re-exports them"),
}


def modules(package: Path) -> dict[str, Path]:
    out = {}
    for p in sorted(package.rglob("*.py")):
        parts = list(p.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """(imported module, line) for every import statement in the file, nested ones included. `from
    pkg import mod` is an arrow to pkg.mod when that is a module, else to pkg."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []

    def add(target: str, line: int):
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name and (target, line) not in found:
            found.append((target, line))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                add(a.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                full = f"{mod}.{a.name}"
                add(full if full in known else mod, node.lineno)
    return sorted(found, key=lambda t: t[1])


def graph(package: Path) -> dict[str, list[tuple[str, int]]]:
    mods = modules(package)
    return {m: imports(m, p, set(mods)) for m, p in mods.items()}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module: str, layers=LAYERS) -> int | None:
    best = None
    for i, (_, prefixes) in enumerate(layers):
        for p in prefixes:
            if _within(module, p) and (p != "core" or module == "core") and (best is None or len(p) > best[1]):
                best = (i, len(p))
    return best[0] if best else None


def inherent_reason(src: str, dst: str, inherent=INHERENT) -> str | None:
    for (a, b), why in inherent.items():
        if _within(src, a) and _within(dst, b):
            return why
    return None


def violations(g, layers=LAYERS, inherent=INHERENT) -> list[str]:
    """One line per import that runs up the layers and is not listed in `inherent`."""
    out = []
    for src, arrows in g.items():
        ls = layer_of(src, layers)
        for dst, line in arrows:
            ld = layer_of(dst, layers)
            if ls is not None and ld is not None and ld > ls and not inherent_reason(src, dst, inherent):
                out.append(f"{src} (line {line}) imports {dst}: layer {layers[ls][0]} -> "
                           f"{layers[ld][0]}, which is above it")
    return out


def unlayered(g, layers=LAYERS) -> list[str]:
    return [m for m in g if layer_of(m, layers) is None]


def circles(g) -> list[list[str]]:
    """Strongly connected groups of modules (more than one), largest first (Tarjan, iterative)."""
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(g[root]))]
        index[root] = low[root] = counter[0]; counter[0] += 1; stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            for w, _ in it:
                if w not in g:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1; stack.append(w); on.add(w)
                    work.append((w, iter(g[w])))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop(); on.discard(w); comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        comps.append(sorted(comp))
    return sorted(comps, key=len, reverse=True)


def circles_across_layers(g, layers=LAYERS, allowed=INHERENT_CIRCLES) -> list[str]:
    """One line per circle whose modules lie in more than one layer (other than the allowed ones)."""
    out = []
    for comp in circles(g):
        names = {layers[layer_of(m, layers)][0] for m in comp if layer_of(m, layers) is not None}
        if len(names) > 1 and names not in allowed:
            out.append(f"{len(comp)} modules import each other across the layers {sorted(names)}: "
                       f"{', '.join(comp[:10])}{' ...' if len(comp) > 10 else ''}")
    return out


def undocumented_circles(g, documented=DOCUMENTED_CIRCLES) -> list[str]:
    """One line per circle that is not exactly a documented one: new, grown (naming the imports from
    the documented members to the new ones), or shrunk/gone (the documented list must follow)."""
    out, found = [], [frozenset(c) for c in circles(g)]
    for comp in found:
        name = next((n for n, (members, _) in documented.items() if comp == members), None)
        if name:
            continue
        near = next((n for n, (members, _) in documented.items() if comp & members), None)
        if near and comp > documented[near][0]:
            members = documented[near][0]
            closing = [f"{s} (line {line}) imports {d}" for s in sorted(comp) for d, line in g[s]
                       if d in comp and (s in members) != (d in members)]
            out.append(f"the documented circle {near!r} grew to {len(comp)} modules (+ "
                       f"{', '.join(sorted(comp - members))}): {'; '.join(closing)}")
        else:
            out.append(f"{len(comp)} modules import each other in a circle no one documented: "
                       f"{', '.join(sorted(comp))}" + (f" (it overlaps {near!r})" if near else "") +
                       ": remove a function-level import (move the shared code down), or, if inherent, add "
                       "it to DOCUMENTED_CIRCLES in tools/import_contract.py with why")
    for name, (members, _) in documented.items():
        if members not in found and not any(members < comp for comp in found):
            out.append(f"the documented circle {name!r} is no longer a circle of exactly these modules: "
                       f"take it out of DOCUMENTED_CIRCLES or list its members as they are now")
    return out


# ---- app/: above the whole engine ----
# core/ imports nothing of app/, tests/ or tools/. app/ uses the engine through its public faces
# (core, core.numpy, ... and `jax`, which is core installed under that name) and, from
# core/_engine/, only these internals, each for a view the public API cannot give:
APP_INTERNALS: dict[tuple[str, str], str] = {
    ("app.stepper", "core._engine.tracing.jaxpr"): "the stepper prints a jaxpr's literals and names as the jaxpr printer does",
    ("app.stepper", "core._engine.transforms.staging"): "the stepper runs a jaxpr's equations one by one (eval_jaxpr)",
    ("app.jaxpr_diff", "core._engine.tracing.jaxpr"): "the diff walks and prints jaxprs with the printer's context",
    ("app.jaxpr_diff", "core._engine.base.source_info"): "equations' source lines, summarised as the printer does",
    ("app.jaxpr_diff", "core._engine.backends.cpu"): "the optimised jaxpr the CPU backend runs, shown beside the traced one",
    ("app.rules_view", "core._engine.tracing.rules"): "the rules view lists the rule tables (jvp, transpose, batching ...)",
    ("app.rules_view", "core._engine.primitives"): "all primitive families loaded, so the tables are whole",
    ("app.sandbox", "core._engine.primitives.control_flow"): "a user's Stop interrupts loops at their iteration hook",
    ("app.lazy_files", "core._engine.libraries.normal_table_pack"): "the page fetches the normal table's packed file on first use",
    ("app.kernels", "core._engine.backends.webgpu.compiler"): "the kernels view shows the WebGPU plan's kernels",
    ("app.analysis.jaxprs", "core._engine.backends.webgpu"): "the jaxpr pane marks equations the WebGPU backend plans",
    ("app.analysis.timing", "core._engine.backends.webgpu"): "the timing pane runs and times the WebGPU backend",
}
# imports inside app/ that must not happen: (importer, imported) -> why
APP_FORBIDDEN: dict[tuple[str, str], str] = {
    ("app.analysis", "app.panes"): "a pane's computation (app/analysis/<pane>.py) returns plain data; "
                                   "rendering (app/panes/) sits above it",
}


def app_violations(root: Path = ROOT, internals=APP_INTERNALS, forbidden=APP_FORBIDDEN) -> list[str]:
    """One line per import against app/'s place: core importing app/tests/tools, app reaching an
    engine internal not in `internals`, or an import in `forbidden`."""
    core_mods, app_mods = modules(root / "core"), modules(root / "app")
    known = set(core_mods) | set(app_mods) | {"tests", "tools"}
    out = []
    for name, path in core_mods.items():
        for dst, line in imports(name, path, known):
            if dst.partition(".")[0] in ("app", "tests", "tools"):
                out.append(f"{name} (line {line}) imports {dst}: the engine imports nothing of app/, tests/ or tools/")
    for name, path in app_mods.items():
        for dst, line in imports(name, path, known):
            if _within(dst, "core._engine") and not inherent_reason(name, dst, internals):
                out.append(f"{name} (line {line}) imports {dst}: app/ uses the engine's public faces "
                           f"(core.*, jax.*); an internal needs its entry in APP_INTERNALS with why")
            for (a, b), why in forbidden.items():
                if _within(name, a) and _within(dst, b):
                    out.append(f"{name} (line {line}) imports {dst}: {why}")
    return out


def main() -> int:
    g = graph(ROOT / "core")
    bad, loose, comps, across = violations(g), unlayered(g), circles(g), circles_across_layers(g)
    undocumented, app_bad = undocumented_circles(g), app_violations()
    for line in bad + across + undocumented + app_bad:
        print(line)
    for m in loose:
        print(f"{m}: in no layer (add it to LAYERS in tools/import_contract.py)")
    print(f"core: {len(g)} modules, {len(bad)} imports against the layers, {len(loose)} without a layer; "
          f"circles: {[len(c) for c in comps] or 'none'} ({len(undocumented)} not as documented); "
          f"app: {len(app_bad)} imports against its place")
    return 1 if bad or loose or across or undocumented or app_bad else 0


if __name__ == "__main__":
    sys.exit(main())
