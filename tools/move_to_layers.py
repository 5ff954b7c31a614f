"""Move core/'s modules into one folder per layer, keeping JAX's module paths as thin faces.

    python -m tools.move_to_layers --dry-run   # list the moves, the faces and every line it would rewrite
    python -m tools.move_to_layers --commit    # do it: git mv, rewrite references, write the faces
                                               # (two commits, so `git log --follow` crosses the move)
    python -m tools.move_to_layers --check     # exit 1 if anything still names a path that moved

Where a module goes is read from the import contract's old prefix table (`LAYERS` in
tools/import_contract.py, which every helper extends when they add a module): a module of layer L
moves to core/_engine/L/ (`core.primitives.dot` -> `core._engine.primitives.dot`,
`core.dtypes` -> `core._engine.base.dtypes`, `core.numpy._ufuncs` ->
`core._engine.libraries.numpy._ufuncs`). A module of the `public` layer stays. A module in no layer
stops the run, naming the file, before anything is changed. docs/layers.md says why this shape.

A moved module whose old name is a JAX module path (core/jax_module_list.py, jax_names'
SUBMODULE_FILES) or a name core/__init__.py loads by string gets a face at its old path: a file of
`from <implementation> import (name as name, ...)` lines, no logic, so `import jax.lax.linalg`,
`jax.numpy.sin`, `from jax.random import *` keep working and are the very same objects.

References are rewritten in core/, app/, tests/, tools/, build.py, README.md, docs/ and static/'s
JavaScript (the rules dialog names core/rules.py) (AST-located
relative imports and `from core import x` lists, split when their modules now live apart; dotted
`core.x.y` and path `core/x/y.py` tokens in code, strings and comments). Inside the engine every
reference points at the implementation; elsewhere a public name of a face keeps the face's path.

Idempotent: on a moved tree there is nothing left at an old path, and it does nothing. Standard
library only (and git)."""
from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "core._engine"
LAYER_ORDER = ("base", "tracing", "transforms", "primitives", "lax", "libraries", "api", "backends")
FACE_MARK = "# face:"              # first line of a generated face: `# face: re-exports core._engine.X`
# files whose references always point at the implementation (they speak about the layers)
ENGINE_SIDE_FILES = ("tools/import_contract.py", "tests/test_layering.py")
# files the rewrite never touches (this script and its test hold the old names on purpose)
NEVER_REWRITE = ("tools/move_to_layers.py", "tests/test_move_to_layers.py")
TEXT_GLOBS = ("core/**/*.py", "app/**/*.py", "tests/**/*.py", "tools/**/*.py", "build.py",
              "README.md", "docs/**/*.md", "static/**/*.js")

LAYER_DOC = {
    "base": "values without programs: dtypes, abstract values, config, errors, pytrees, devices",
    "tracing": "arrays, tracers, jaxprs, bind and the rule tables the layers above fill in",
    "transforms": "the transformations' machinery: ad, batching, staging",
    "primitives": "the primitives, each with its rules (impl, abstract eval, jvp, transpose, batch)",
    "lax": "`jax.lax`: typed wrappers that bind the primitives",
    "libraries": "jax.numpy, jax.nn, jax.random, jax.scipy and the other libraries built on lax",
    "api": "jit, grad, vmap, custom derivatives, stages: what users call",
    "backends": "what runs a jaxpr: the CPU (numpy) compiler and the WebGPU backend",
}


class Stop(Exception):
    """A module the rules cannot place: the run changes nothing and names it."""


# ---- the plan -------------------------------------------------------------------------------------

def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def core_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / "core").rglob("*.py")) if "__pycache__" not in p.parts}


def old_layer_table() -> list[tuple[str, tuple[str, ...]]] | None:
    """LAYERS from tools/import_contract.py while it is still the prefix table (None once it reads folders)."""
    tree = ast.parse((ROOT / "tools" / "import_contract.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "LAYERS":
                try:
                    table = ast.literal_eval(node.value)
                except ValueError:
                    return None
                if any(p.startswith(ENGINE) for _, ps in table for p in ps):
                    return None
                return table
    raise Stop("tools/import_contract.py has no LAYERS table")


def layer_of(module: str, table) -> str | None:
    best = None
    for name, prefixes in table:
        for p in prefixes:
            inside = module == p or (module.startswith(p + ".") and p != "core")
            if inside and (best is None or len(p) > best[1]):
                best = (name, len(p))
    return best[0] if best else None


def new_name(module: str, layer: str, packages: set[str]) -> str:
    """core.primitives.dot -> core._engine.primitives.dot; core.lax -> core._engine.lax.lax."""
    rest = module.split(".")[1:]
    if rest[0] == layer and f"core.{layer}" in packages:      # core/primitives/, core/backends/ ...
        rest = rest[1:]
    return ".".join([ENGINE, layer] + rest)


def face_names(modules: dict[str, Path]) -> set[str]:
    """Old module names users or the engine's own loaders reach by name: they keep a face."""
    text = (ROOT / "core" / "jax_module_list.py").read_text(encoding="utf-8")
    jax_modules = ast.literal_eval(re.search(r"JAX_MODULES = (\(.*?\))\n", text, re.S).group(1))
    out = {"core" + m[3:] for m in jax_modules if "core" + m[3:] in modules}
    names = ast.parse((ROOT / "core" / "jax_names.py").read_text(encoding="utf-8"))
    for node in ast.walk(names):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SUBMODULE_FILES":
            out |= {f"core.{v}" for v in ast.literal_eval(node.value).values() if f"core.{v}" in modules}
    init = ast.parse((ROOT / "core" / "__init__.py").read_text(encoding="utf-8"))
    for node in ast.walk(init):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and f"core.{node.value}" in modules:
            out.add(f"core.{node.value}")
    for m in list(out):                          # a face's parent packages are faces too
        while "." in m:
            m = m.rpartition(".")[0]
            if m in modules and m != "core":
                out.add(m)
    return out


class Plan:
    def __init__(self):
        self.modules = core_modules()
        table = old_layer_table()
        self.rename: dict[str, str] = {}          # old module -> new module
        self.paths: dict[Path, Path] = {}         # old file -> new file
        self.faces: set[str] = set()
        if table is None:                          # the tree reads its layers from folders already
            self._check_placed()
            return
        packages = {m for m, p in self.modules.items() if p.name == "__init__.py"}
        loose = []
        for m, p in self.modules.items():
            if m.startswith(ENGINE):
                continue
            layer = layer_of(m, table)
            if layer is None:
                loose.append(f"{p.relative_to(ROOT)} ({m})")
            elif layer != "public":
                if layer not in LAYER_ORDER:
                    raise Stop(f"layer {layer!r} of {m} is not one of {LAYER_ORDER}")
                self.rename[m] = new_name(m, layer, packages)
        if loose:
            raise Stop("modules in no layer (add each to LAYERS in tools/import_contract.py, then run again): "
                       + ", ".join(loose))
        for old, new in self.rename.items():
            src = self.modules[old]
            dst = ROOT / Path(*new.split("."))
            self.paths[src] = dst / "__init__.py" if src.name == "__init__.py" else dst.with_suffix(".py")
        clash = [str(d) for d in self.paths.values() if d.exists()]
        if clash:
            raise Stop("these targets exist already: " + ", ".join(clash))
        self.faces = face_names(self.modules) & set(self.rename)
        self.public = sorted(m for m in self.modules if m not in self.rename) + sorted(self.faces)

    def _check_placed(self):
        loose = []
        for m, p in self.modules.items():
            if m.startswith(ENGINE):
                if m.count(".") >= 2 and m.split(".")[2] not in LAYER_ORDER:
                    loose.append(f"{p.relative_to(ROOT)} (not in a layer folder: {', '.join(LAYER_ORDER)})")
        if loose:
            raise Stop("modules outside the layer folders: " + ", ".join(loose))

    # -- names ------------------------------------------------------------------------------------
    def resolve(self, dotted: str) -> tuple[str, str] | None:
        """The longest old module prefix of `dotted` that moved, and the rest ('' or '.attr...')."""
        parts = dotted.split(".")
        for i in range(len(parts), 1, -1):
            head = ".".join(parts[:i])
            if head in self.rename:
                return head, dotted[len(head):]
        return None

    def target(self, dotted: str, engine_side: bool) -> str:
        """What `dotted` (a module, or a module's attribute) is called after the move."""
        hit = self.resolve(dotted)
        if hit is None:
            return dotted
        head, rest = hit
        if head in self.faces and not engine_side:
            first = rest[1:].split(".")[0]
            if not first or not first.startswith("_") or (first.startswith("__") and first.endswith("__")):
                return dotted                      # a public name of a face: the face has it
        return self.rename[head] + rest

    def new_module_of(self, path: Path) -> str | None:
        if path.is_relative_to(ROOT / "core"):
            m = module_name(path)
            return self.rename.get(m, m)
        return None


# ---- rewriting references ---------------------------------------------------------------------------

DOTTED = re.compile(r"(?<![\w.])core(?:\.[A-Za-z_]\w*)+")
PATHS = re.compile(r"(?<![\w./])core(?:/[A-Za-z_]\w*)+(?:\.pyc?|/)?")


def _is_engine_side(plan: Plan, path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    if rel in ENGINE_SIDE_FILES:
        return True
    new = plan.new_module_of(path)
    return bool(new and new.startswith(ENGINE + "."))


def _path_token(plan: Plan, tok: str, engine_side: bool) -> str:
    stem, suffix = tok, ""
    for s in (".pyc", ".py", "/"):
        if tok.endswith(s):
            stem, suffix = tok[: -len(s)], s
            break
    init = "/__init__" if stem.endswith("/__init__") else ""
    stem = stem.removesuffix(init)
    dotted = stem.replace("/", ".")
    if dotted not in plan.rename or (dotted in plan.faces and not engine_side):
        return tok
    new = plan.rename[dotted]
    old_file = plan.modules[dotted]
    new_path = new.replace(".", "/")
    if suffix in (".py", ".pyc") and old_file.name == "__init__.py" and not init:
        return tok                                  # `core/numpy.py` never existed: leave prose alone
    return new_path + init + suffix


def _relative(from_pkg: str, target: str) -> str:
    """`from <this> import ...` written relative to the package `from_pkg` (both inside core)."""
    a, b = from_pkg.split("."), target.split(".")
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return "." * (len(a) - common + 1) + ".".join(b[common:])


def _private_users(tree: ast.AST) -> set[str]:
    """Names the file reaches private attributes through (`lax._x`, `setattr(lax, "_x", ...)`): bound
    to a face, they must be bound to the implementation instead (a face re-exports public names)."""
    def private(attr):
        return attr.startswith("_") and not (attr.startswith("__") and attr.endswith("__"))
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and private(n.attr):
            out.add(n.value.id)
        elif isinstance(n, ast.Call) and len(n.args) >= 2 and isinstance(n.args[0], ast.Name) and \
                isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str) and private(n.args[1].value):
            out.add(n.args[0].id)
    return out


def _import_from(plan: Plan, node: ast.ImportFrom, path: Path, engine_side: bool,
                 private_users: frozenset = frozenset()) -> list[str] | None:
    """The statements replacing `node`, or None when it stays as written."""
    old_mod = module_name(path) if path.is_relative_to(ROOT / "core") else None
    if node.level:
        if old_mod is None:
            return None
        here = old_mod.split(".") if path.name == "__init__.py" else old_mod.split(".")[:-1]
        base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    if base != "core" and not base.startswith("core."):
        return None
    groups: list[tuple[str, list[str]]] = []      # (module to import from, ["name as alias", ...])
    for a in node.names:
        sub = f"{base}.{a.name}"
        if a.name != "*" and sub in plan.modules:  # a submodule: it may live elsewhere now
            new = plan.target(sub, engine_side or (a.asname or a.name) in private_users)
            frm, leaf = new.rpartition(".")[0], new.rpartition(".")[2]
        else:
            frm = plan.target(f"{base}.{a.name}", engine_side).rpartition(".")[0] if a.name != "*" \
                else plan.target(base, engine_side)
            leaf = a.name
        alias = a.asname or (a.name if leaf != a.name else None)
        text = leaf + (f" as {alias}" if alias and alias != leaf else "")
        if groups and groups[-1][0] == frm:
            groups[-1][1].append(text)
        else:
            groups.append((frm, [text]))
    names_same = len(groups) == 1 and [t.split(" as ")[-1] for t in groups[0][1]] == \
        [n.asname or n.name for n in node.names] and [t.split(" as ")[0] for t in groups[0][1]] == \
        [n.name for n in node.names]
    if node.level:
        new_mod = plan.new_module_of(path)
        new_pkg = new_mod if path.name == "__init__.py" else new_mod.rpartition(".")[0]
    wheres = [_relative(new_pkg, frm) if node.level else frm for frm, _ in groups]
    original = "." * node.level + (node.module or "")
    if names_same:
        return None if wheres[0] == original else [("module", original, wheres[0])]
    return [f"from {w} import {', '.join(names)}" for w, (_, names) in zip(wheres, groups)]


def rewrite_text(plan: Plan, path: Path, text: str) -> str:
    engine_side = _is_engine_side(plan, path)
    edits: list[tuple[int, int, str]] = []
    if path.suffix == ".py":
        lines = text.splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))

        def offset(lineno, col):
            return starts[lineno - 1] + len(lines[lineno - 1].encode("utf-8")[:col].decode("utf-8"))

        tree = ast.parse(text, str(path))
        users = frozenset(_private_users(tree))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and not engine_side:
                for a in node.names:               # `import core.lax as lax` then `lax._x`
                    if a.asname in users and plan.target(a.name, True) != a.name:
                        at = offset(node.lineno, node.col_offset)
                        i = text.index(a.name, at)
                        edits.append((i, i + len(a.name), plan.target(a.name, True)))
            if isinstance(node, ast.ImportFrom):
                new = _import_from(plan, node, path, engine_side, users)
                a, b = offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)
                if new is None:
                    continue                       # dotted tokens in it are rewritten below
                stmt = text[a:b]
                if isinstance(new[0], tuple):     # only the module changes: keep the names as written
                    _, original, where = new[0]
                    i = stmt.index(original, 4)
                    edits.append((a + i, a + i + len(original), where))
                    continue
                eol = text.find("\n", b) if "\n" in text[b:] else len(text)
                if text[b:eol].strip().startswith("#"):   # the last line's comment goes on every line
                    b, stmt = eol, text[a:eol]
                comments = " ".join(c.strip() for c in re.findall(r"#[^\n]*", stmt))
                indent = lines[node.lineno - 1][: node.col_offset]
                sep = "\n" + indent if indent.strip() == "" else "; "
                edits.append((a, b, sep.join(s + (f"  {comments}" if comments else "") for s in new)))
    spans = sorted(edits)
    out, pos = [], 0
    for a, b, new in spans:
        out.append(_tokens(plan, text[pos:a], engine_side))
        out.append(new)
        pos = b
    out.append(_tokens(plan, text[pos:], engine_side))
    return "".join(out)


def _tokens(plan: Plan, text: str, engine_side: bool) -> str:
    text = DOTTED.sub(lambda m: plan.target(m.group(0), engine_side), text)
    return PATHS.sub(lambda m: _path_token(plan, m.group(0), engine_side), text)


def text_files() -> list[Path]:
    seen = []
    for g in TEXT_GLOBS:
        for p in sorted(ROOT.glob(g)):
            rel = p.relative_to(ROOT).as_posix()
            if p.is_file() and "__pycache__" not in p.parts and rel not in NEVER_REWRITE and p not in seen:
                seen.append(p)
    return seen


# ---- faces ---------------------------------------------------------------------------------------

_INTROSPECT = r"""
import importlib, json, sys, types, __future__
sys.path.insert(0, sys.argv[2])
import core
MACHINERY = {"__name__", "__doc__", "__file__", "__loader__", "__spec__", "__package__", "__path__",
             "__builtins__", "__cached__", "__getattr__", "__all__", "__annotations__", "__dir__"}
out = {}
for name in json.loads(sys.argv[1]):
    m = importlib.import_module(name)
    names, subs = [], []
    for k, v in vars(m).items():
        dunder = k.startswith("__") and k.endswith("__") and k not in MACHINERY
        if (k.startswith("_") and not dunder) or v is __future__.annotations:
            continue
        if isinstance(v, types.ModuleType):
            if v.__name__.startswith(name + ".") or v.__name__.startswith("core."):
                subs.append([k, v.__name__])
            continue                               # numpy, math ...: the implementation's own imports
        names.append(k)
    ga = vars(m).get("__getattr__")
    missing = ga is not None and ga.__qualname__.startswith("missing_attribute")
    public = None
    if missing and ga.__closure__:
        public = next((c.cell_contents for c in ga.__closure__ if isinstance(c.cell_contents, str)), None)
    out[name] = {"names": sorted(names), "subs": subs, "getattr": ga is not None, "missing": missing,
                 "public": public, "cls": None if type(m) is types.ModuleType else type(m).__name__, "all": "__all__" in vars(m), "path": hasattr(m, "__path__"),
                 "package": m.__file__.endswith("__init__.py"), "doc": (m.__doc__ or "").strip().split("\n\n")[0]}
print(json.dumps(out))
"""


def introspect(faces: list[str]) -> dict:
    r = subprocess.run([sys.executable, "-c", _INTROSPECT, json.dumps(faces), str(ROOT)], cwd=str(ROOT),
                       capture_output=True, text=True)
    if r.returncode:
        raise Stop("importing the modules that get a face failed:\n" + r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def _wrap(head: str, names: list[str]) -> list[str]:
    lines, cur = [], head + "("
    for n in names:
        piece = f"{n} as {n}, "
        if len(cur) + len(piece) > 110:
            lines.append(cur.rstrip())
            cur = "    "
        cur += piece
    lines.append(cur.rstrip().rstrip(",") + ")")
    return lines


def face_text(plan: Plan, old: str, info: dict) -> str:
    impl = plan.rename[old]
    public = info["public"] or "jax" + old[4:]
    doc = _tokens(plan, info["doc"].replace('"""', "'''").replace("\\", "\\\\"), True)
    lines = [f"{FACE_MARK} re-exports {impl} (written by tools/move_to_layers.py; no logic here)",
             f'"""{doc}', "",
             f"`{public}`'s public face: the implementation is {impl.replace('.', '/')}"
             f"{'/' if info['package'] else '.py'} (docs/layers.md)."
             '"""', "# ruff: noqa: F401", "from __future__ import annotations", ""]
    names = [n for n in info["names"]]
    if names:
        lines += _wrap(f"from {impl} import ", names)
    if info["all"]:
        lines.append(f"from {impl} import __all__ as __all__")
    for attr, mod in sorted(info["subs"]):
        if mod in plan.faces or mod not in plan.rename:
            owner, _, leaf = mod.rpartition(".")
            lines.append(f"from {owner} import {leaf} as {attr}" if leaf != attr else f"from {owner} import {leaf}")
        else:
            lines.append(f"from {plan.rename[mod].rpartition('.')[0]} import {plan.rename[mod].rpartition('.')[2]}"
                         f" as {attr}")
    if info["missing"]:
        arg = f", {public!r}" if public != "jax" + old[4:] else ""
        lines.append(f"from {plan.rename.get('core._public', 'core._public')} import missing_attribute as _missing_attribute")
        lines.append(f"__getattr__ = _missing_attribute(__name__{arg})")
    elif info["getattr"]:
        lines.append(f"from {impl} import __getattr__ as __getattr__")
    if info["cls"]:          # the module object's own behaviour (a property on its class): the same class
        lines.append("import sys as _sys")
        lines.append(f"from {impl} import {info['cls']} as _module_class")
        lines.append("_sys.modules[__name__].__class__ = _module_class")
    if info["path"] and not info["package"]:
        lines.append("__path__: list = []  # `import jax.X.Y` of a submodule: core/jax_names.py SUBMODULE_FILES")
    return "\n".join(lines) + "\n"


def layer_init(layer: str) -> str:
    i = LAYER_ORDER.index(layer)
    below = ", ".join(LAYER_ORDER[:i]) or "nothing"
    return (f'"""Layer {i + 1} of {len(LAYER_ORDER)}, {layer}: {LAYER_DOC[layer]}.\n\n'
            f"It imports its own layer and the ones below it ({below}); tools/import_contract.py checks.\"\"\"\n")


ENGINE_INIT = ('"""The engine\'s implementation, one folder per layer, bottom up:\n'
               + "".join(f"  {i + 1}. {n:<11} {LAYER_DOC[n]}\n" for i, n in enumerate(LAYER_ORDER))
               + "A module imports its own layer and the layers below (tools/import_contract.py). JAX's public\n"
                 "module paths (core/lax.py, core/numpy/, ...) are faces that re-export from here.\"\"\"\n")


def contract_layers(plan: Plan) -> str:
    public = ", ".join(repr(m) for m in [ENGINE] + plan.public)
    rows = "".join(f'    ("{n}", ("{ENGINE}.{n}",)),\n' for n in LAYER_ORDER)
    return ("LAYERS: list[tuple[str, tuple[str, ...]]] = [\n" + rows
            + "    # the public faces (re-exports at JAX's paths) and the public-only modules (jax.extend, jax._src ...)\n"
            + f"    (\"public\", ({public},)),\n]")


def _replace_layers(text: str, block: str) -> str:
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "LAYERS":
                return "".join(lines[: node.lineno - 1]) + block + "\n" + "".join(lines[node.end_lineno:])
    raise Stop("tools/import_contract.py has no LAYERS")


# ---- running it -----------------------------------------------------------------------------------

def git(*args):
    subprocess.run(["git", *args], cwd=str(ROOT), check=True, capture_output=True, text=True)


def changes(plan: Plan) -> dict[Path, str]:
    out = {}
    for p in text_files():
        text = p.read_text(encoding="utf-8")
        new = rewrite_text(plan, p, text)
        if new != text:
            out[p] = new
    return out


def _diff_lines(old: str, new: str) -> list[str]:
    import difflib
    return [line.rstrip("\n") for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def run(dry: bool, commit: bool = False) -> int:
    plan = Plan()
    if not plan.rename:
        print("nothing to move: every module of core/ is in its layer folder or a public face")
        return 0
    if commit and not dry:
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=str(ROOT),
                               capture_output=True, text=True, check=True).stdout
        if dirty:
            raise Stop("--commit needs a clean tree (commit or stash first):\n" + dirty)
    faces = introspect(sorted(plan.faces))
    rewritten = changes(plan)
    print(f"{len(plan.rename)} modules move to core/_engine/<layer>/, {len(plan.faces)} keep a face at their "
          f"old path, {len(rewritten)} files have references rewritten")
    if dry:
        for old, new in sorted(plan.rename.items()):
            print(f"  move {old} -> {new}{'   (face stays at the old path)' if old in plan.faces else ''}")
        for p, new in rewritten.items():
            print(f"  {p.relative_to(ROOT)}:")
            for line in _diff_lines(p.read_text(encoding="utf-8"), new):
                print("    " + line)
        return 0
    for p, new in rewritten.items():
        p.write_text(new, encoding="utf-8")
    tracked = set(subprocess.run(["git", "ls-files", "core"], cwd=str(ROOT), capture_output=True, text=True,
                                 check=True).stdout.splitlines())
    for src, dst in sorted(plan.paths.items(), key=lambda kv: str(kv[0])):
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.relative_to(ROOT).as_posix() in tracked:
            git("mv", str(src.relative_to(ROOT)), str(dst.relative_to(ROOT)))
        else:                                       # a file git does not know yet: moved, then added
            src.rename(dst)
    engine = ROOT / "core" / "_engine"
    written = []
    if not (engine / "__init__.py").exists():
        (engine / "__init__.py").write_text(ENGINE_INIT, encoding="utf-8")
        written.append(engine / "__init__.py")
    for layer in LAYER_ORDER:
        init = engine / layer / "__init__.py"
        if init.parent.exists() and not init.exists():
            init.write_text(layer_init(layer), encoding="utf-8")
            written.append(init)
    for d in sorted({p.parent for p in plan.paths.values()}):   # a moved module's new parent folders
        while d != engine and d.is_relative_to(engine):
            if not (d / "__init__.py").exists():
                raise Stop(f"{d.relative_to(ROOT)} has no __init__.py after the move")
            d = d.parent
    for d in sorted(ROOT.joinpath("core").rglob("*"), reverse=True):   # folders left empty by the move
        if d.is_dir() and not any(x for x in d.rglob("*") if x.is_file() and "__pycache__" not in x.parts):
            shutil.rmtree(d)
    git("add", *sorted({str(plan.paths.get(p, p).relative_to(ROOT)) for p in rewritten}
                       | {str(p.relative_to(ROOT)) for p in written + list(plan.paths.values())}))
    if commit:   # two commits: a face written where its module was would hide the rename from git
        git("commit", "-qm", f"core: {len(plan.paths)} modules into core/_engine/<layer>/ with git mv, references "
                             "rewritten (tools/move_to_layers.py, 1 of 2; JAX's paths come back in 2)")
    for old in sorted(plan.faces):
        src = plan.modules[old]
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(face_text(plan, old, faces[old]), encoding="utf-8")
        written.append(src)
    contract = ROOT / "tools" / "import_contract.py"
    contract.write_text(_replace_layers(contract.read_text(encoding="utf-8"), contract_layers(plan)), encoding="utf-8")
    git("add", *[str(plan.modules[old].relative_to(ROOT)) for old in plan.faces] + ["tools/import_contract.py"])
    if commit:
        git("commit", "-qm", f"core: JAX's {len(plan.faces)} module paths as faces that re-export from core/_engine/ "
                             "(tools/move_to_layers.py, 2 of 2); the import contract reads the layers from the folders")
    print(f"done: {len(plan.paths)} files moved with git mv, {len(plan.faces)} faces written, "
          f"{len(rewritten)} files rewritten{', in 2 commits' if commit else ' (staged)'}; "
          "now: python -m tools.move_to_layers --check, then the tests (docs/layers.md)")
    return 0


def check() -> int:
    """Exit 1 when a module is unplaced or anything still references a path that moved."""
    plan = Plan()
    if plan.rename:
        print(f"{len(plan.rename)} modules are not in their layer folders yet: run python -m tools.move_to_layers")
        return 1
    bad = []
    faces = {module_name(p): p for p in (ROOT / "core").rglob("*.py")
             if not module_name(p).startswith(ENGINE) and p.read_text(encoding="utf-8").startswith(FACE_MARK)}
    for m, p in faces.items():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in tree.body:
            ok = isinstance(node, (ast.ImportFrom, ast.Import)) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) or (
                isinstance(node, (ast.Assign, ast.AnnAssign)) and
                ast.unparse(getattr(node, "target", None) or node.targets[0]) in (
                    "__getattr__", "__path__", "_sys.modules[__name__].__class__"))
            if not ok:
                bad.append(f"{p.relative_to(ROOT)} line {node.lineno}: a face holds logic (re-exports only)")
    moved = {}                                      # old name -> where it lives now
    for p in (ROOT / "core" / "_engine").rglob("*.py"):
        parts = module_name(p).split(".")
        if len(parts) < 3 or parts[2] not in LAYER_ORDER:
            continue
        for old in ("core." + ".".join(parts[3:]), "core." + ".".join(parts[2:])):
            if old != "core." and old not in plan.modules:
                moved.setdefault(old, ".".join(parts))
    for p in text_files():
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            toks = DOTTED.findall(line) + [t.removesuffix("/").removesuffix(".pyc").removesuffix(".py")
                                           .replace("/", ".") for t in PATHS.findall(line)]
            for tok in toks:
                parts = tok.split(".")
                for k in range(len(parts), 1, -1):
                    head = ".".join(parts[:k])
                    if head in plan.modules:
                        break
                    if head in moved:
                        bad.append(f"{p.relative_to(ROOT)}:{i}: {tok} (now {moved[head]})")
                        break
    for line in bad:
        print(line)
    print(f"{len(bad)} references to old paths; faces: {len(faces)}")
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="list what would change; change nothing")
    ap.add_argument("--check", action="store_true", help="fail if anything references a path that moved")
    ap.add_argument("--commit", action="store_true",
                    help="commit in two steps (moves, then faces) so `git log --follow` crosses the move")
    args = ap.parse_args(argv)
    try:
        return check() if args.check else run(args.dry_run, args.commit)
    except Stop as e:
        print(f"stopped, nothing changed: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
