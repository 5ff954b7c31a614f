"""The engine's import contract: core/'s layers, bottom up, and the few imports allowed to run up.

    python -m tools.import_contract       # every import against the layers, and core's circles

Every `import` counts, at any depth: a function-level import is still an arrow (it runs when the
function does, and it ties modules into one circle all the same). A module may import its own
layer and the layers below it; an arrow up is allowed only when INHERENT lists it with the reason
it cannot point down. tests/test_layering.py runs this in the test command. Standard library only."""
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
    ("public", ('core._engine', 'core', 'core._src', 'core._src.ad_util', 'core._src.api', 'core._src.checkify', 'core._src.compiler', 'core._src.core', 'core._src.dispatch', 'core._src.dtypes', 'core._src.lax', 'core._src.lax.lax', 'core._src.state', 'core._src.state.types', 'core._src.traceback_util', 'core._src.tree_util', 'core._src.util', 'core._src.xla_bridge', 'core.api_util', 'core.core', 'core.experimental', 'core.experimental.checkify', 'core.experimental.hijax', 'core.experimental.layout', 'core.experimental.mesh_utils', 'core.experimental.multihost_utils', 'core.experimental.pjit', 'core.experimental.shard_map', 'core.experimental.sparse', 'core.extend', 'core.extend.core', 'core.extend.core_primitives', 'core.extend.linear_util', 'core.extend.source_info_util', 'core.interpreters', 'core.interpreters.ad', 'core.interpreters.batching', 'core.interpreters.mlir', 'core.interpreters.partial_eval', 'core.interpreters.xla', 'core.jax_names', 'core.top_level', 'core.ad_checkpoint', 'core.config', 'core.custom_derivatives', 'core.debug', 'core.dlpack', 'core.dtypes', 'core.errors', 'core.example_libraries', 'core.example_libraries.optimizers', 'core.example_libraries.stax', 'core.export', 'core.flatten_util', 'core.image', 'core.lax', 'core.lax_linalg', 'core.monitoring', 'core.nn', 'core.nn.initializers', 'core.numpy', 'core.numpy.fft', 'core.numpy.linalg', 'core.ops', 'core.profiler', 'core.random', 'core.ref', 'core.scipy', 'core.scipy.fft', 'core.scipy.integrate', 'core.scipy.linalg', 'core.scipy.optimize', 'core.scipy.signal', 'core.scipy.sparse', 'core.scipy.sparse.linalg', 'core.scipy.special', 'core.scipy.stats', 'core.scipy.stats.bernoulli', 'core.scipy.stats.beta', 'core.scipy.stats.binom', 'core.scipy.stats.cauchy', 'core.scipy.stats.chi2', 'core.scipy.stats.dirichlet', 'core.scipy.stats.expon', 'core.scipy.stats.gamma', 'core.scipy.stats.laplace', 'core.scipy.stats.logistic', 'core.scipy.stats.multivariate_normal', 'core.scipy.stats.norm', 'core.scipy.stats.poisson', 'core.scipy.stats.t', 'core.scipy.stats.uniform', 'core.sharding', 'core.stages', 'core.test_util', 'core.tree', 'core.tree_util', 'core.typing', 'core.version',)),
]

# Upward arrows kept on purpose: (importer prefix, imported prefix) -> why it cannot point down.
# Each is also named in a comment where it is made. Anything else that must reach up a layer goes
# through a table the upper layer fills in (core/_engine/tracing/rules.py: jaxpr_compiler, transform_ops).
_STAGED = ("jnp, nn, random and scipy functions are staged as nested jits (their jaxprs show "
           "jit[name=...], as JAX's do) and some are custom_jvps: jit and custom_jvp live in the api")
INHERENT: dict[tuple[str, str], str] = {
    ("core._engine.primitives", "core._engine.lax.lax"): "rules (jvp, transpose, batching) build their results with lax's typed "
                                     "wrappers, as JAX's do (jax/_src/lax/lax.py defines the primitives and the "
                                     "wrappers in one module): the one circle across layers, primitives <-> lax",
    ("core._engine.libraries.numpy", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.nn", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.random", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.scipy", "core._engine.api.api"): _STAGED,
    ("core._engine.libraries.scipy", "core._engine.api.custom_derivatives"): _STAGED,
}

# Circles (modules that import each other) may only lie inside one layer, or be this one: the
# primitives' rules call lax, and lax binds the primitives (INHERENT above).
INHERENT_CIRCLES = [{"primitives", "lax"}]


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


def main() -> int:
    g = graph(ROOT / "core")
    bad, loose, comps, across = violations(g), unlayered(g), circles(g), circles_across_layers(g)
    for line in bad + across:
        print(line)
    for m in loose:
        print(f"{m}: in no layer (add it to LAYERS in tools/import_contract.py)")
    print(f"core: {len(g)} modules, {len(bad)} imports against the layers, {len(loose)} without a layer; "
          f"circles: {[len(c) for c in comps] or 'none'}")
    return 1 if bad or loose or across else 0


if __name__ == "__main__":
    sys.exit(main())
