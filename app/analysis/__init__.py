"""What the panes show, computed from the user's namespace with the engine's public API only
(`import jax` as a user would). Every function returns plain data (str, lists, numpy arrays,
dicts), so it is tested without Panel; errors come back as `sandbox.ErrorInfo`, never raised.
"""
from __future__ import annotations

import ast
import dataclasses
import difflib
import functools
import inspect
import math
import re
import statistics
import time
from dataclasses import dataclass, field

import numpy as np

from . import pane_bounds, sandbox, stages

# ------------------------------------------------------------------ finding functions
WRAPPERS = {"jit", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian", "checkpoint", "remat"}


@dataclass
class FunctionInfo:
    name: str
    fn: object                       # the callable in the user's namespace
    params: list = field(default_factory=list)
    line: int = 0
    call_source: str | None = None   # source of the example arguments, e.g. "x, y"
    has_aux: bool = False            # the code differentiates it with has_aux=True (returns (value, aux))
    held: tuple = ()                 # parameters fixed at the input's values: "n (static)", "g (a function)"
    vmap_of: str | None = None       # `name = jax.vmap(g, ...)`: the function it batches (the panes default to g)
    builder: bool = False            # its call's arguments are all functions (`hessian(f)`): it makes a
                                     # function, the panes default to another one


def _user_code_of(obj):
    """The user's own function behind `obj` (through jit/functools.wraps wrappers), or None."""
    seen = 0
    while obj is not None and seen < 8:
        code = getattr(obj, "__code__", None)
        if code is not None and code.co_filename == sandbox.USER_FILE:
            return obj
        obj = getattr(obj, "__wrapped__", None) or getattr(obj, "fun", None)
        seen += 1
    return None


def _callee_name(call: ast.Call) -> str | None:
    """`f(x)` -> 'f'; `jax.jit(f)(x)` / `jit(f)(x)` -> 'f' (same arguments as f)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Call) and func.args and isinstance(func.args[0], ast.Name):
        inner = func.func
        inner_name = inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", None)
        if inner_name in WRAPPERS:  # argnums=, has_aux=, static_argnums= leave f's arguments as they are
            return func.args[0].id
    return None


def _in_axes(call: ast.Call, nargs: int) -> list | None:
    """`jax.vmap(f)` / `vmap(f, in_axes=(None, 1))` / `vmap(f, 0)` / `vmap(f, in_axes=({'w': 0, 'b': None}, 0))`:
    one literal axis per argument (an int or None, or a dict/tuple/list of them for a pytree argument),
    or None when in_axes is anything else (a name; a dict for all of them, which JAX refuses)."""
    given = [k.value for k in call.keywords if k.arg == "in_axes"] or call.args[1:2]
    if not given:
        return [0] * nargs
    try:
        axes = ast.literal_eval(given[0])
    except ValueError:
        return None
    if isinstance(axes, dict):  # JAX: "vmap in_axes must be an int, None, or a tuple of entries ..."
        return None
    axes = list(axes) if isinstance(axes, (tuple, list)) else [axes] * nargs
    return axes if len(axes) == nargs and all(map(_literal_axes, axes)) else None


_AXIS_TREES = (dict, tuple, list)  # the containers a pytree's in_axes is written with
_NO_VALUE = object()               # an argument whose value the finder does not know


def _literal_axes(axes) -> bool:
    """An int or None, or a dict/tuple/list whose leaves are: what `_one_example` can slice."""
    if isinstance(axes, _AXIS_TREES):
        return all(map(_literal_axes, axes.values() if isinstance(axes, dict) else axes))
    return axes is None or (isinstance(axes, int) and not isinstance(axes, bool))


def _index_along(axis: int) -> str:
    """The subscript taking element 0 along `axis`: 0 -> '[0]', 1 -> '[:, 0]', -1 -> '[..., 0]'."""
    if axis >= 0:
        return "[" + ":, " * axis + "0]"
    return "[..., 0" + ", :" * (-axis - 1) + "]"


def _spread(axis: int, value):
    """One axis for a whole pytree value, as an axes tree of its shape: JAX maps every leaf of a
    dict passed with in_axes=0 (`params[0]` would be a KeyError); leaves keep `axis`, None stays."""
    if type(value) is dict:  # exactly these containers: a namedtuple rebuilt as a tuple loses its fields
        return {k: _spread(axis, v) for k, v in value.items()}
    if type(value) in (tuple, list):
        return type(value)(_spread(axis, v) for v in value)
    return None if value is None else axis


def _one_example(expr: str, axes, value=_NO_VALUE) -> str:
    """The source of one example of the batch `expr` (whose value, when known, is `value`) mapped
    along `axes`: ('params', {'w': 0, 'b': None}) -> "{'w': params['w'][0], 'b': params['b']}";
    ('x', 1) -> 'x[:, 0]'; ('params', 0) with params a dict -> one example from every leaf."""
    if axes is None:
        return expr
    if isinstance(axes, int) and value is not _NO_VALUE:
        axes = _spread(axes, value)
        if axes is None:
            return expr

    def part(key):  # the value of expr[key], if known
        try:
            return value[key] if value is not _NO_VALUE else _NO_VALUE
        except (KeyError, IndexError, TypeError):
            return _NO_VALUE
    if isinstance(axes, dict):
        return "{" + ", ".join(f"{k!r}: {_one_example(f'{expr}[{k!r}]', ax, part(k))}" for k, ax in axes.items()) + "}"
    if isinstance(axes, (tuple, list)):
        items = [_one_example(f"{expr}[{i}]", ax, part(i)) for i, ax in enumerate(axes)]
        if isinstance(axes, list):
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return expr + _index_along(axes)


def _vmapped_call(call: ast.Call, segment, ns=None) -> tuple[str, str] | None:
    """`jax.vmap(f, in_axes=(None, 0))(W, batch)` -> ('f', 'W, batch[0]'): one example of the
    batch, the arguments f itself takes (a function met only inside vmap has no other call).
    `ns`: the user's namespace, where an argument that is a plain name shows its pytree's shape."""
    func = call.func
    if not (isinstance(func, ast.Call) and func.args and isinstance(func.args[0], ast.Name)):
        return None
    inner = func.func
    if (inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", None)) != "vmap":
        return None
    axes = _in_axes(func, len(call.args))
    parts = [segment(a) for a in call.args]
    if axes is None or not call.args or not all(parts) or call.keywords:
        return None
    values = [(ns or {}).get(a.id, _NO_VALUE) if isinstance(a, ast.Name) else _NO_VALUE for a in call.args]
    return func.args[0].id, ", ".join(_one_example(p, ax, v) for p, ax, v in zip(parts, axes, values))


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # lines as the parser counts them


def source_segments(code: str):
    """`ast.get_source_segment(code, node)` as a function of node, splitting the code once (the
    stdlib splits it again for every node: most of an edit's analysis in long examples)."""
    lines = [line.encode() for line in _LINE.findall(code)]

    def segment(node):
        if getattr(node, "end_lineno", None) is None or node.lineno > len(lines) or node.end_lineno > len(lines):
            return None
        first, last = node.lineno - 1, node.end_lineno - 1  # column offsets count UTF-8 bytes
        if first == last:
            return lines[first][node.col_offset:node.end_col_offset].decode()
        return b"".join([lines[first][node.col_offset:], *lines[first + 1:last],
                         lines[last][:node.end_col_offset]]).decode()
    return segment


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _calls_in_scope(tree) -> list:
    """(call, names local to the functions and comprehensions around it) for every call: a call
    inside `def hvp(f, x, v)` whose argument is the parameter x cannot be evaluated at the top."""
    found = []

    def visit(node, local):
        if isinstance(node, _SCOPES):
            a = node.args
            params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p}
            body = node.body if isinstance(node.body, list) else [node.body]
            stored = {n.id for b in body for n in ast.walk(b) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            local = local | params | stored
        elif isinstance(node, _COMPREHENSIONS):
            local = local | {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Call):
            found.append((node, local))
        for child in ast.iter_child_nodes(node):
            visit(child, local)

    visit(tree, frozenset())
    return found


def _uses(node, names) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _is_vmap_of_name(node) -> bool:
    """`jax.vmap(g, ...)` / `vmap(g, ...)` with g a plain name."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)):
        return False
    f = node.func
    return (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)) == "vmap"


def vmap_aliases(tree) -> dict:
    """alias -> its `jax.vmap(g, ...)` call, for top-level `alias = jax.vmap(g, ...)` (JAX's
    vectorization tutorial: `auto_batch_convolve = jax.vmap(convolve)`)."""
    return {node.targets[0].id: node.value for node in getattr(tree, "body", ())
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and _is_vmap_of_name(node.value)}


def rebindings(tree, stopped_at: int | None = None) -> dict:
    """name -> the line of its last top-level `def` or assignment that made a new function: not
    a wrapper of the old one (`f = jax.jit(f)` keeps f's calls), not the same code again, not
    below `stopped_at` (the run ended there). JAX's tutorials define `f` again and again, and a
    call of an earlier f has arguments that the last f may not take."""
    lines, code = {}, {}

    def bound(name, node, body):
        text = ast.dump(body)
        if code.get(name) != text:
            lines[name], code[name] = node.lineno, text

    for node in getattr(tree, "body", ()):
        if stopped_at is not None and node.lineno > stopped_at:
            break
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bound(node.name, node, node)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and not _uses(node.value, {target.id}):
                    bound(target.id, node, node.value)
    return lines


def _passes_a_later_function(call: ast.Call, defined: dict, ns: dict | None) -> bool:
    """`hvp(f, (X,), (V,))` above a new `f = lambda W: ...`: the arguments are evaluated in the
    namespace the code left, where that name is another function than the one the call passed."""
    names = {n.id for a in call.args for n in ast.walk(a) if isinstance(n, ast.Name)}
    return any(defined.get(n, 0) > call.lineno and callable((ns or {}).get(n)) for n in names)


def last_calls(code: str, ns: dict | None = None, stopped_at: int | None = None) -> dict:
    """name -> source text of the arguments of the last call of that name in the code, made
    after the name's last definition (`ns`, the namespace the code left, shapes the example
    taken from a vmap's batch). `stopped_at`: the top-level line where an error ended the run;
    calls below it never ran (and may belong to a function defined there, which never was)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return {}
    calls: dict = {}
    nodes = sorted((n for n, local in _calls_in_scope(tree) if not any(_uses(a, local) for a in n.args)),
                   key=lambda n: (n.lineno, n.col_offset))
    segment = source_segments(code)
    aliases = vmap_aliases(tree)
    defined = rebindings(tree, stopped_at)
    bodies = [(n.lineno, n.end_lineno) for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def found(name, source, node):
        # a top-level call of an earlier function of that name is not the last one's (a call in
        # a function's body runs when that function does, after every definition above it)
        in_body = any(a <= node.lineno <= b for a, b in bodies)
        if in_body or (node.lineno >= defined.get(name, 0) and node.lineno <= (stopped_at or node.lineno)
                       and not _passes_a_later_function(node, defined, ns)):
            calls[name] = source

    for node in nodes:
        vmapped = _vmapped_call(node, segment, ns)
        if vmapped:
            found(*vmapped, node)
            continue
        if isinstance(node.func, ast.Name) and node.func.id in aliases:
            # a call of `alias = jax.vmap(g)` is also a call of g on one example of the batch
            unaliased = _vmapped_call(ast.Call(func=aliases[node.func.id], args=node.args, keywords=node.keywords),
                                      segment, ns)
            if unaliased:
                found(*unaliased, node)
        name = _callee_name(node)
        if name is None or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            continue
        parts = [segment(a) for a in node.args]
        if node.args and all(parts):
            found(name, ", ".join(parts), node)
    return calls


_TOP_LEVEL_FRAME = re.compile(r'line (\d+), in <module>')


def stopped_at(error: sandbox.ErrorInfo | None) -> int | None:
    """The top-level line of the code that was running when `error` ended the run (None: it ran
    to the end, or the error names no frame of the code)."""
    found = _TOP_LEVEL_FRAME.search(error.traceback) if error is not None else None
    return int(found.group(1)) if found else None


def find_functions(code: str, ns: dict, stopped: int | None = None) -> list[FunctionInfo]:
    """Functions the code defines (def, lambda, jit-decorated), in order of definition
    (`stopped`: the top-level line where an error ended the run, see `last_calls`)."""
    calls, aux = last_calls(code, ns, stopped), aux_functions(code)
    try:
        batched = {alias: call.args[0].id for alias, call in vmap_aliases(ast.parse(code)).items()}
    except SyntaxError:
        batched = {}
    found = []
    for name, obj in ns.items():
        if name.startswith("__") or inspect.isclass(obj) or not callable(obj):
            continue
        user = _user_code_of(obj)
        if user is None:
            continue
        try:
            params = [p.name for p in inspect.signature(user).parameters.values()
                      if p.default is inspect.Parameter.empty
                      and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            params = []
        found.append(FunctionInfo(name, obj, params, user.__code__.co_firstlineno, calls.get(name),
                                  has_aux=name in aux, vmap_of=batched.get(name),
                                  builder=_only_functions(calls.get(name), ns)))
    return sorted(found, key=lambda f: f.line)


def _looked_up(node, ns):
    """The value of a name or dotted name (`jnp.sin`) in `ns`, found without running code; else None."""
    if isinstance(node, ast.Name):
        return ns.get(node.id)
    if isinstance(node, ast.Attribute):
        return getattr(_looked_up(node.value, ns), node.attr, None)
    return None


def _only_functions(source: str | None, ns: dict) -> bool:
    """Whether every argument in `source` ('f', 'jnp.sin, g') is a function (a lambda, or a name of one)."""
    try:
        args = ast.parse(f"({source},)", mode="eval").body.elts if source else []
    except SyntaxError:
        return False
    return bool(args) and all(isinstance(a, ast.Lambda) or (callable(_looked_up(a, ns))
                                                             and not inspect.isclass(_looked_up(a, ns)))
                              for a in args)


AUX_WRAPPERS = {"grad", "value_and_grad", "jacfwd", "jacrev"}  # the wrappers taking has_aux=


def aux_functions(code: str) -> set:
    """Names the code differentiates with has_aux=True: `jax.value_and_grad(loss, has_aux=True)`."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    found = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name in AUX_WRAPPERS and any(k.arg == "has_aux" and isinstance(k.value, ast.Constant)
                                        and k.value.value is True for k in node.keywords):
            found.add(node.args[0].id)
    return found


FUNCTION_MARK = re.compile(r"^# function: *(\w+) *$", re.M)


def default_function(functions: list[FunctionInfo], preferred: str | None = None,
                     code: str = "") -> FunctionInfo | None:
    """The one function that picks what the panes analyse, on every path (run, edit, link,
    example): the named one, else the one a '# function: NAME' line in the code names (the
    gallery's header), else the last function with an example call (on arrays, rather than
    only on functions), else the last one."""
    by_name = {f.name: f for f in functions}
    for name in (preferred, *FUNCTION_MARK.findall(code)):
        if name in by_name:
            return by_name[name]
    # `hessian(f)`, `our_jacfwd(f)`: a function that makes a function has no arrays to show
    called = [f for f in functions if f.call_source and not f.builder] or [f for f in functions if f.call_source]
    # `batched = jax.vmap(g)`: g itself (on one example) is what the panes explain; batched(xs)
    # would show vmap of an already-batched function
    unbatched = [f for f in called if not (f.vmap_of and f.vmap_of in by_name and by_name[f.vmap_of].call_source)]
    return (unbatched or called or functions or [None])[-1]


def bind_static_args(info: FunctionInfo, args: tuple) -> tuple[FunctionInfo, tuple]:
    """`jax.jit(f, static_argnums=/static_argnames=)`: the panes trace, differentiate and batch
    f's other arguments, with the static ones fixed to the input's values, as jit treats them
    (tracing a static argument raises "Non-hashable static arguments are not supported").
    A function or string argument (`def hvp(f, x, v)`) is fixed the same way: JAX cannot trace it."""
    n = len(args)
    why = {i % n: "static" for i in getattr(info.fn, "static_argnums", ()) if -n <= i < n}
    why |= {i: "a function" if callable(a) else "a string" for i, a in enumerate(args)
            if callable(a) or isinstance(a, str)}
    if not why:
        return info, args
    fn, rest = _fix_args(info.fn, args, set(why), info.name)
    params = [p for i, p in enumerate(info.params) if i not in why]
    held = tuple(f"{_param_name(info.params, i)} ({why[i]})" for i in sorted(why))
    return dataclasses.replace(info, fn=fn, params=params, held=info.held + held), rest


def _fix_args(fn, args: tuple, fixed: set, name: str) -> tuple:
    """(g, the other arguments): g takes the arguments whose indices are not in `fixed` and
    calls fn with the fixed ones at their values in `args`."""
    n = len(args)

    def with_fixed_args(*varied):
        rest = iter(varied)
        return fn(*(args[i] if i in fixed else next(rest) for i in range(n)))

    with_fixed_args.__name__ = name
    return with_fixed_args, tuple(a for i, a in enumerate(args) if i not in fixed)


def _param_name(params, i: int) -> str:
    return params[i] if i < len(params) else f"args[{i}]"


def default_args_source(info: FunctionInfo) -> str:
    if info.call_source:
        return info.call_source
    return ", ".join("1.0" for _ in info.params) or ""


def eval_args(source: str, ns: dict):
    """Evaluate 'x, 2.0' in the user's namespace -> (tuple of args, ErrorInfo | None)."""
    if not source.strip():
        return (), None
    value, err = sandbox.guarded_call(eval, f"({source},)", ns, seconds=5.0)
    return (tuple(value) if err is None else ()), err


# ------------------------------------------------------------------ jaxprs
def _jax():
    sandbox.install_jax()
    import jax
    return jax


def _batched(args, size=3):
    """Every argument stacked `size` times along a new leading axis (for the vmap view)."""
    jax = _jax()
    return jax.tree_util.tree_map(lambda a: jax.numpy.stack([jax.numpy.asarray(a)] * size), args)


def _ones_like_tree(args):
    jax = _jax()
    return jax.tree_util.tree_map(lambda a: jax.numpy.ones_like(jax.numpy.asarray(a)), args)


def transformed(view: str, fn, args, has_aux: bool = False):
    """(function, arguments) whose jaxpr the view shows. Views: f, grad, jit, vmap, jvp.
    `has_aux`: f returns (value, aux) and the code differentiates it so: grad(f, has_aux=True)."""
    jax = _jax()
    if view == "f":
        return fn, args
    if view == "grad":
        return jax.grad(fn, has_aux=has_aux), args
    if view == "jit":
        return jax.jit(fn), args
    if view == "vmap":
        return jax.vmap(fn), _batched(args)
    if view == "jvp":
        tangents = _ones_like_tree(args)
        return (lambda *primals: jax.jvp(fn, primals, tangents)), args
    raise ValueError(f"unknown view {view!r}")


VIEWS = ("f", "grad", "jit", "vmap", "jvp")
VIEW_CODE = {"f": "jax.make_jaxpr(f)({args})", "grad": "jax.make_jaxpr(jax.grad(f))({args})",
             "jit": "jax.make_jaxpr(jax.jit(f))({args})",
             "vmap": "jax.make_jaxpr(jax.vmap(f))(*batched)  # each argument stacked 3 times",
             "jvp": "jax.make_jaxpr(lambda *p: jax.jvp(f, p, ones_like(p)))({args})"}
AUX_VIEW_CODE = {"grad": "jax.make_jaxpr(jax.grad(f, has_aux=True))({args})"}


def view_code(view: str, args_source: str, has_aux: bool = False) -> str:
    """The JAX call behind a jaxpr view, as the pane prints it."""
    return ((AUX_VIEW_CODE if has_aux else {}).get(view) or VIEW_CODE[view]).format(args=args_source)


@dataclass
class JaxprView:
    view: str
    text: str = ""
    eqn_count: int = 0
    closed: object = None            # the ClosedJaxpr (for the graph)
    error: sandbox.ErrorInfo | None = None
    out_tree: str = ""               # the output's tree structure (the Plots/vmap cache key reads it)

    # WebGPU's fused kernels (PlannedKernel; None if not plannable) and why there is no plan:
    # planned when first read. Every run traces the f and grad views, but only the view shown
    # draws its kernels (the plan of an MLP's grad costs ~10 ms in the page). Not a dataclass
    # field: the plan follows from `closed`, which the panes' fingerprints already cover.
    @property
    def kernels(self) -> list | None:
        return self._planned()[0]

    @property
    def kernels_note(self) -> str:
        return self._planned()[1]

    def _planned(self) -> tuple:
        plan = self.__dict__.get("_plan")
        if plan is None:
            plan = webgpu_kernels(self.closed) if self.closed is not None else (None, "")
            self.__dict__["_plan"] = plan
        return plan


def jaxpr_view(fn, args, view: str = "f", has_aux: bool = False) -> JaxprView:
    jax = _jax()

    def make():
        g, a = transformed(view, fn, args, has_aux)
        return jax.make_jaxpr(g, return_shape=True)(*a)

    made, err = sandbox.guarded_call(make, seconds=10.0)
    if err is not None:
        return JaxprView(view, error=_with_grad_hint(err, fn, args) if view == "grad" else err)
    closed, shapes = made
    return JaxprView(view, str(closed), count_eqns(closed.jaxpr), closed,
                     out_tree=str(jax.tree_util.tree_structure(shapes)))


def _with_grad_hint(err, fn, args):
    """grad(f)'s error, with has_aux=True named when f returns (scalar, aux), or the argnums of
    the first float argument when the first one is an integer."""
    if not err.hint and returns_value_and_aux(fn, args):
        return dataclasses.replace(err, hint=(
            "f returns a pair (a scalar, then more): if the rest is auxiliary data, jax.grad(f, has_aux=True) "
            "differentiates the scalar and returns the rest beside the gradient."))
    return _with_argnums_hint(err, args)


def returns_value_and_aux(fn, args) -> bool:
    """f(*args) is a pair whose first item is a float scalar: the (loss, aux) of has_aux=True."""
    out, err = sandbox.guarded_call(fn, *args, seconds=5.0)
    if err is not None or not isinstance(out, (tuple, list)) or len(out) != 2:
        return False
    first = np.asarray(out[0]) if np.ndim(out[0]) == 0 else None
    return first is not None and first.dtype.kind == "f"


def value_part(fn):
    """f's value without its aux: what the plots and grad's stages show for has_aux functions."""
    def value(*args):
        return fn(*args)[0]
    value.__name__ = getattr(fn, "__name__", "f")
    return value


def _with_argnums_hint(err, args):
    """grad(f) of an integer first argument (lax.switch's index): JAX's error, plus which
    argnums differentiates the first float argument instead."""
    floats = [i for i, a in enumerate(args) if not _integers_only(a)]
    if err.hint or not args or not _integers_only(args[0]) or not floats:
        return err
    return dataclasses.replace(err, hint=(
        f"f's first argument is an integer, which grad cannot differentiate: jax.grad(f, argnums={floats[0]}) "
        "differentiates the first float argument, with the integer one held at its value."))


def webgpu_kernels(closed) -> tuple:
    """(kernels, note): how the WebGPU backend would fuse this jaxpr. Pure planning, no GPU."""
    try:
        from core._engine.backends.webgpu import plan_kernels
        return plan_kernels(closed), ""
    except Exception as e:  # noqa: BLE001 - float64, an op the planner rejects: the graph stays plain
        return None, f"WebGPU cannot plan this jaxpr ({type(e).__name__}: {e})"


def kernel_groups(kernels) -> dict:
    """eqn index -> index of the first kernel that computes it."""
    groups: dict = {}
    for k, kernel in enumerate(kernels or []):
        for i in kernel.eqns:
            groups.setdefault(i, k)
    return groups


def count_eqns(jaxpr) -> int:
    """Top-level equations (what `len(jaxpr.eqns)` gives in JAX)."""
    return len(jaxpr.eqns)


def side_by_side(left: str, right: str) -> list[tuple[str, str, str]]:
    """Rows (tag, left line, right line) with tag in {'equal', 'replace', 'delete', 'insert'}."""
    a, b = left.splitlines(), right.splitlines()
    rows = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        la, lb = a[i1:i2], b[j1:j2]
        for k in range(max(len(la), len(lb))):
            rows.append((tag, la[k] if k < len(la) else "", lb[k] if k < len(lb) else ""))
    return rows


# ------------------------------------------------------------------ dataflow graph
def dataflow_graph(jaxpr, kernels=None) -> dict:
    """Nodes (inputs, equations, outputs) and edges of a jaxpr, laid out in layers by depth.

    Returns {"nodes": [{id, label, kind, layer, x, y, group}], "edges": [(src, dst)], "extent":
    {layers, rows}} (x, y from graph_layout.layered).
    `group` is the index of the fused kernel computing an equation, given `kernels` (from
    `plan_kernels`); None for inputs, outputs and without kernels."""
    groups = kernel_groups(kernels)
    nodes, edges = [], []
    producer = {}
    depth = {}
    for i, v in enumerate(jaxpr.invars):
        nid = f"in{i}"
        nodes.append({"id": nid, "label": f"{_short_aval(v)}", "kind": "input", "layer": 0})
        producer[id(v)] = nid
        depth[nid] = 0
    for i, v in enumerate(getattr(jaxpr, "constvars", [])):
        nid = f"const{i}"
        nodes.append({"id": nid, "label": f"const {_short_aval(v)}", "kind": "const", "layer": 0})
        producer[id(v)] = nid
        depth[nid] = 0
    for i, eqn in enumerate(jaxpr.eqns):
        nid = f"eqn{i}"
        srcs = [producer[id(v)] for v in eqn.invars if id(v) in producer]
        layer = 1 + max((depth[s] for s in srcs), default=0)
        depth[nid] = layer
        nodes.append({"id": nid, "label": eqn.primitive.name, "kind": "eqn", "layer": layer,
                      "group": groups.get(i)})
        edges.extend((s, nid) for s in dict.fromkeys(srcs))
        for v in eqn.outvars:
            producer[id(v)] = nid
    last = 1 + max(depth.values(), default=0)
    for i, v in enumerate(jaxpr.outvars):
        nid = f"out{i}"
        nodes.append({"id": nid, "label": f"out {_short_aval(v)}", "kind": "output", "layer": last})
        if id(v) in producer:
            edges.append((producer[id(v)], nid))
    from .graph_layout import layered
    for n in nodes:
        n.setdefault("group", None)
    extent = layered(nodes, edges)
    return {"nodes": nodes, "edges": edges, "extent": extent}


def _short_aval(v) -> str:
    aval = getattr(v, "aval", None)
    return aval.str_short() if hasattr(aval, "str_short") else str(aval)


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


def on_page_points(compute, where: str, seconds: float = PAGE_POINTS_BUDGET_S):
    """Run a plot's `compute` on points the page chose around the input (`where` names them),
    under a time budget even where Stop exists: f may run for ever on some of them (a
    lax.while_loop that ends only for x > 0), and no one asked for those calls."""
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

        def vectorised():
            return [np.asarray(over_points(g, xs), dtype=float) for g in (fn, df, d2f)]

        def looped():
            return [np.array([float(g(x)) for x in ticking(xs)]) for g in (fn, df, d2f)]

        vals, err = on_page_points(vectorised, where)
        if err is not None and err.type != "TimeBudgetExceeded":  # a loop would not finish either
            looped_vals, looped_err = on_page_points(looped, where)
            if looped_err is None or not _needs_forward_mode(err):
                return looped_vals, looped_err, "loop"
        return vals, err, "vmap"

    vals, err, method = curves(jax.grad)
    forward = _needs_forward_mode(err)
    if forward:
        vals, err, method = curves(jax.jacfwd)
    if err is not None:
        return {"error": err}
    code = SCALAR_CODE.format(lo=lo, hi=hi, n=n)
    if forward:
        code = FORWARD_NOTE + code.replace("jax.grad(", "jax.jacfwd(")
    if method == "loop":
        code = "# vmap could not trace f (Python control flow on values); per point instead:\n" + \
               code.replace("jax.vmap(", "loop(")
    return {"x": np.asarray(xs, dtype=float), "f": vals[0], "df": vals[1], "d2f": vals[2],
            "method": method, "code": code, "derive": "jacfwd" if forward else "grad"}


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


def _one_call_time(seconds: float) -> dict:
    return {"median": seconds, "min": seconds, "max": seconds, "n": 1, "calls": 1}


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


# ------------------------------------------------------------------ timings
def available_backends() -> list[str]:
    """'cpu', plus 'webgpu' when `jax.devices('webgpu')` finds an adapter."""
    jax = _jax()
    found = ["cpu"]
    try:
        if jax.devices("webgpu"):
            found.append("webgpu")
    except Exception:  # noqa: BLE001 - backend not built or no adapter (the reason is in the message)
        pass
    return found


def kernel_count(fn, args, backend: str) -> dict:
    """How many kernels one jitted call launches: the CPU backend compiles a whole jaxpr into one
    Python function; WebGPU fuses it into the kernels `plan_kernels` reports (host steps apart)."""
    if backend != "webgpu":
        return {"kernels": 1, "host_steps": 0}
    from core._engine.backends.webgpu import plan_kernels
    from core._engine.backends.webgpu.planning import Unsupported
    try:
        planned = plan_kernels(_jax().make_jaxpr(fn)(*args))
    except Unsupported as e:  # the backend runs such jaxprs on the CPU (with a warning)
        return {"kernels": 0, "host_steps": 0, "note": f"jit falls back to the CPU: {e}"}
    host = sum(k.kind == "host" for k in planned)
    return {"kernels": len(planned) - host, "host_steps": host}


async def _ready_async(tree):
    """Wait for every array in `tree` without blocking the page (WebGPU readback is async)."""
    for leaf in _jax().tree_util.tree_leaves(tree):
        if hasattr(leaf, "block_until_ready_async"):
            await leaf.block_until_ready_async()
    return tree


async def _ready_sync(tree):
    return _jax().block_until_ready(tree)


MIN_SAMPLE_S = 2e-3    # a sample's length when the timer's step is not known: a 100 µs timer resolves it to 5 %
# A sample spans at least RESOLVED_STEPS of the timer's steps (its reading is then within 5 %),
# and at least SAMPLE_FLOOR_S: 2 ms with a 100 µs page timer (not cross-origin isolated), 0.5 ms
# (100 steps, 1 %) with a 5 µs one or CPython's. Shorter samples on a fine timer are what keeps
# the timings of an edit cheap (they run after every edit that changes f).
RESOLVED_STEPS = 20
SAMPLE_FLOOR_S = 5e-4
MAX_CALLS_PER_SAMPLE = 100_000
TIMING_BUDGET_S = 0.5  # a slow function gets fewer samples, never fewer than 3
CALL_STEPS = (1, 2, 5)  # calls per sample: 1, 2, 5, 10, 20, 50, ... (timeit's autorange)


def clock() -> float:
    """The timer every measurement reads (module level, so a test can make it as coarse as the page's)."""
    return time.perf_counter()


def clock_step(tries: int = 200) -> float:
    """The timer's smallest step, seen by reading it until it moves (100 µs in a page that is
    not cross-origin isolated, ~0.1 µs in CPython): single-call times are only this precise."""
    steps = []
    for _ in range(tries):
        t0 = clock()
        t1 = clock()
        while t1 == t0:
            t1 = clock()
        steps.append(t1 - t0)
        if len(steps) >= 5:
            break
    return min(steps)


async def _no_pause() -> None:
    return None


async def _sample(call, wait, n: int, pause=_no_pause) -> float:
    """Seconds for `n` calls, each waited for (per-call latency, not pipelined throughput).
    `pause` is awaited first, outside the timed calls (`timings_yielding` hands the event loop a
    turn there)."""
    await pause()
    t0 = clock()
    for _ in range(n):
        await wait(call())
    return clock() - t0


def sample_target(step: float) -> float:
    """How long one sample must last for a timer of this step (see RESOLVED_STEPS)."""
    return max(SAMPLE_FLOOR_S, RESOLVED_STEPS * step)


async def _autorange(call, wait, pause=_no_pause, target: float = MIN_SAMPLE_S) -> tuple:
    """(calls per sample, seconds of the first such sample): the fewest calls, stepping like
    timeit's autorange, whose sample lasts `target`, so a coarse timer never reads 0."""
    scale = 1
    while True:
        for step in CALL_STEPS:
            n = step * scale
            elapsed = await _sample(call, wait, n, pause)
            if elapsed >= target or n >= MAX_CALLS_PER_SAMPLE:
                return n, elapsed
        scale *= 10


async def _per_call(call, wait, samples: int, pause=_no_pause, target: float = MIN_SAMPLE_S,
                    warm: bool = True) -> dict:
    """Per-call seconds (median, min, max over `samples` samples of `calls` calls each, each
    sample lasting `target`: `sample_target` of the timer's step). A first sample slowed by a
    pause (GC, a late compile) can pick too few calls: when the samples turn out shorter than
    half of `target`, they are taken again with more calls. `warm=False`: `call` was called
    before (its one-off work is done)."""
    if warm:
        await wait(call())  # the first call after tracing may still do one-off work
    calls, first = await _autorange(call, wait, pause, target)
    samples = samples if first < 0.05 else max(3, min(samples, int(TIMING_BUDGET_S / max(first, 1e-9))))
    times = [first / calls] + [await _sample(call, wait, calls, pause) / calls for _ in range(samples - 1)]
    while statistics.median(times) * calls < target / 2 and calls < MAX_CALLS_PER_SAMPLE:
        median = max(statistics.median(times), target / MAX_CALLS_PER_SAMPLE)
        calls = min(MAX_CALLS_PER_SAMPLE, max(10 * calls, math.ceil(target / median)))
        times = [await _sample(call, wait, calls, pause) / calls for _ in range(samples)]
    return {"median": statistics.median(times), "min": min(times), "max": max(times), "n": samples,
            "calls": calls}


async def _measure(fn, args, backend: str, repeats: int, wait, pause=_no_pause) -> dict:
    """Eager vs jit on `backend`'s device: the inputs are device_put there and new arrays default
    to it. `wait` makes a result ready; written once, run by `_drive` (CPython, sync waits) or
    awaited (the browser, async waits)."""
    jax = _jax()
    dev = jax.devices(backend)[0]
    traces = [0]

    @functools.wraps(fn)
    def counted(*a):
        traces[0] += 1
        return fn(*a)

    step = clock_step()
    target = sample_target(step)
    with jax.default_device(dev):
        dargs = jax.device_put(args, dev)
        out = {"backend": backend, "device": str(dev)}
        first_eager = await _sample(lambda: fn(*dargs), wait, 1, pause)  # the first eager call compiles per-op kernels (WebGPU)
        # a slow f (big arrays) is timed on one more call per mode, not on samples of several:
        # the pane fills in seconds, and says so (panes.timing.sample_note)
        slow = first_eager > pane_bounds.ONE_CALL_TIMING_S
        out["eager"] = _one_call_time(await _sample(lambda: fn(*dargs), wait, 1, pause)) if slow else \
            await _per_call(lambda: fn(*dargs), wait, repeats, pause, target)
        jitted = jax.jit(counted)
        # the first call in its two parts, f traced once: `trace` fills the jit's cache, so the
        # call after it compiles and runs what that traced (a fresh jit traced again cost as much)
        await pause()
        t0 = clock()
        traced = jitted.trace(*dargs)
        trace_s = clock() - t0
        compile_and_run = await _sample(lambda: jitted(*dargs), wait, 1, pause)
        out["jit_steady"] = _one_call_time(await _sample(lambda: jitted(*dargs), wait, 1, pause)) \
            if slow or compile_and_run > pane_bounds.ONE_CALL_TIMING_S else \
            await _per_call(lambda: jitted(*dargs), wait, repeats, pause, target)
    out["jit_first"] = {"total": trace_s + compile_and_run, "trace": trace_s, "compile_and_run": compile_and_run}
    out["retraces"] = traces[0]
    closed = getattr(traced, "jaxpr", None)  # gradpad's Traced keeps its jaxpr: no second trace
    out["eqn_count"] = count_eqns(closed.jaxpr if closed is not None else jax.make_jaxpr(fn)(*args).jaxpr)
    out.update(kernel_count(fn, args, backend))
    out["repeats"] = out["eager"]["n"]
    out["clock_step"] = step
    out["sample_s"] = target
    out["speedup"] = out["eager"]["median"] / out["jit_steady"]["median"]
    return out


def _drive(coro):
    """Run a coroutine that never suspends (all its waits are synchronous) to its result."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("timing needed an async wait; use timings_async in the browser")


def scaled_problem(fn, args, scale: int = 1) -> tuple:
    """(function, arguments) for `scale` times the work: jax.vmap(f) over `scale` copies of the
    input (the problem-size control: where jit starts to win). Scale 1 is f itself."""
    if scale <= 1:
        return fn, tuple(args)
    jax = _jax()
    jnp = jax.numpy
    copies = jax.tree_util.tree_map(lambda a: jnp.broadcast_to(jnp.asarray(a), (scale,) + jnp.shape(a)), tuple(args))
    return jax.vmap(fn), copies


def timings(fn, args, repeats: int = 5, backends=None, selected: str | None = None, scale: int = 1) -> dict:
    """Eager vs jit per backend: first call (trace, then compile + first run) and steady state,
    per call, as median with min and max of `repeats` samples (each sample times enough calls
    to last MIN_SAMPLE_S), retraces and kernel counts.

    Returns the selected backend's numbers at top level (else the first measured) and every
    backend's under "backends". In the browser, WebGPU needs async readback: it is left
    {"pending": True} for `timings_async`."""
    jax = _jax()
    selected = selected or jax.default_backend()
    backends = list(backends or (["cpu", "webgpu"] if env_in_browser() else available_backends()))
    fn, args = scaled_problem(fn, args, scale)
    per = {}
    for b in backends:
        if b != "cpu" and env_in_browser():
            per[b] = {"pending": True, "backend": b}
            continue
        out, err = sandbox.guarded_call(lambda: _drive(_measure(fn, args, b, repeats, _ready_sync)), seconds=20.0)
        per[b] = {"error": err, "backend": b} if err is not None else out
    return _per_backend(per, selected, scale)


def _per_backend(per: dict, selected: str, scale: int) -> dict:
    """timings()' answer: the selected backend's numbers at top level, every backend's under "backends"."""
    done = [t for t in per.values() if "eager" in t]
    if not done:
        return {"error": next(t["error"] for t in per.values() if t.get("error") is not None), "backends": per,
                "scale": scale}
    top = per[selected] if "eager" in per.get(selected, {}) else done[0]
    return {**top, "backends": per, "scale": scale}


class Superseded(Exception):
    """Newer code waits to run: the measurement of the old code stops (see `timings_yielding`)."""


YIELD_EVERY_S = 0.02  # `timings_yielding` hands the event loop a turn at most this often


async def timings_yielding(fn, args, superseded, repeats: int = 5, scale: int = 1) -> dict:
    """`timings` on the CPU, synchronous calls as there, but between two samples (at most every
    YIELD_EVERY_S) the event loop gets a turn: an edit typed meanwhile is applied then, and once
    `superseded()` says so, Superseded is raised at once instead of timing the old code to its
    end. In the page, the other backends are left {"pending": True} as `timings` leaves them."""
    import asyncio
    jax = _jax()
    selected = jax.default_backend()
    backends = ["cpu", "webgpu"] if env_in_browser() else available_backends()
    fn, args = scaled_problem(fn, args, scale)
    turn = [clock()]

    async def pause():
        if clock() - turn[0] >= YIELD_EVERY_S:
            await asyncio.sleep(0)
            turn[0] = clock()
        if superseded():
            raise Superseded()

    per = {}
    for b in backends:
        if b != "cpu" and env_in_browser():
            per[b] = {"pending": True, "backend": b}
            continue
        try:
            with sandbox.budget(20.0):
                per[b] = await _measure(fn, args, b, repeats, _ready_sync, pause)
        except Superseded:
            raise
        except (Exception, sandbox.TimeBudgetExceeded, KeyboardInterrupt) as e:  # noqa: BLE001 - as guarded_call
            per[b] = {"error": sandbox.describe_error(e), "backend": b}
    return _per_backend(per, selected, scale)


async def timings_async(fn, args, backend: str = "webgpu", repeats: int = 5, scale: int = 1) -> dict:
    """One backend's timings with async readback (the browser's main thread must never block)."""
    try:
        fn, args = scaled_problem(fn, args, scale)
        if backend == "webgpu":
            from core._engine.backends.webgpu import init_async
            await init_async()
        with sandbox.quiet_task():  # held across awaits: not `captured` (see quiet_task)
            return await _measure(fn, args, backend, repeats, _ready_async)
    except Exception as e:  # noqa: BLE001 - shown in the pane, like every user error
        return {"error": sandbox.describe_error(e), "backend": backend}


def env_in_browser() -> bool:
    from . import env
    return env.IN_BROWSER


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


def _integers_only(arg) -> bool:
    """An int or bool argument (every leaf): lax.switch's index, a count, a flag."""
    leaves = _jax().tree_util.tree_leaves(arg)
    return bool(leaves) and all(np.asarray(leaf).dtype.kind in "iub" for leaf in leaves)


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
        from . import fd_check  # the derivatives drawn, against finite differences
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
