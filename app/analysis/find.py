"""The Jaxpr and Inputs panes' first step: which functions the code defines, the call that gives
each its input (and in_axes), and that input evaluated in the user's namespace."""
from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from dataclasses import dataclass, field


from .. import sandbox


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


def called_name(func) -> str | None:
    """The name a call's callee goes by: `jax.vmap` -> 'vmap', `grad` -> 'grad', else None."""
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def differentiated_by(code: str, name: str, menu) -> list[str]:
    """The functions of `menu` (names) other than `name` that `name`'s body passes to grad or
    value_and_grad (`jax.grad(loss)` in a training step `update(params, x, y)`): a course's loss,
    whose plots the step does not have. In the order first met."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, TypeError):
        return []
    others = set(menu) - {name}
    found = []
    for node in ast.walk(tree):
        # `def step(...)`, or `step = jax.jit(lambda p, x, y: ... jax.grad(loss)(p, x, y))`
        defined = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
        assigned = isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                        for t in node.targets)
        if not (defined or assigned):
            continue
        for call in ast.walk(node):
            if not (isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Name)):
                continue
            if called_name(call.func) in ("grad", "value_and_grad") \
                    and call.args[0].id in others and call.args[0].id not in found:
                found.append(call.args[0].id)
    return found


def _wrapped_name(node) -> str | None:
    """`f` -> 'f'; `jax.grad(f)` / `jit(jax.grad(f, argnums=1))` -> 'f': the function whose
    arguments a call of the wrapper takes (argnums=, has_aux=, static_argnums= leave them as they are)."""
    while isinstance(node, ast.Call) and node.args:
        if called_name(node.func) not in WRAPPERS:
            return None
        node = node.args[0]
    return node.id if isinstance(node, ast.Name) else None


def _callee_name(call: ast.Call) -> str | None:
    """`f(x)` -> 'f'; `jax.jit(f)(x)` / `jit(f)(x)` / `jit(grad(f))(x)` -> 'f' (same arguments as f)."""
    return _wrapped_name(call.func)


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
    batch, the arguments f itself takes (a function met only inside vmap has no other call; so
    is f in `jax.vmap(jax.grad(f), ...)`, the per-example gradient). `ns`: the user's namespace,
    where an argument that is a plain name shows its pytree's shape."""
    func = call.func
    if not (isinstance(func, ast.Call) and func.args):
        return None
    inner, name = func.func, _wrapped_name(func.args[0])
    if name is None or called_name(inner) != "vmap":
        return None
    axes = _in_axes(func, len(call.args))
    parts = [segment(a) for a in call.args]
    if axes is None or not call.args or not all(parts) or call.keywords:
        return None
    values = [(ns or {}).get(a.id, _NO_VALUE) if isinstance(a, ast.Name) else _NO_VALUE for a in call.args]
    return name, ", ".join(_one_example(p, ax, v) for p, ax, v in zip(parts, axes, values))


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
    """`jax.vmap(g, ...)` / `vmap(g, ...)` with g a plain name, or one wrapped: `vmap(grad(g), ...)`."""
    if not (isinstance(node, ast.Call) and node.args and _wrapped_name(node.args[0])):
        return False
    return called_name(node.func) == "vmap"


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
        batched = {alias: _wrapped_name(call.args[0]) for alias, call in vmap_aliases(ast.parse(code)).items()}
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
        name = called_name(node.func)
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
    why = {i % n: "static" for i in _static_argnums(info.fn) if -n <= i < n}
    why |= {i: "a function" if callable(a) else "a string" for i, a in enumerate(args)
            if (callable(a) and not _holds_arrays(a)) or isinstance(a, str)}
    if not why:
        return info, args
    fn, rest = _fix_args(info.fn, args, set(why), info.name)
    params = [p for i, p in enumerate(info.params) if i not in why]
    held = tuple(f"{_param_name(info.params, i)} ({why[i]})" for i in sorted(why))
    return dataclasses.replace(info, fn=fn, params=params, held=info.held + held), rest


def _holds_arrays(value) -> bool:
    """A callable pytree with array leaves (a flax nnx or equinox Module: `loss(model, x, y)`)
    is an input JAX traces and differentiates, as `jax.grad(loss)(model, x, y)` does, not a
    function to hold fixed. A plain function is one leaf, itself."""
    sandbox.install_jax()
    import jax
    try:
        leaves = jax.tree_util.tree_leaves(value)
    except Exception:  # a pytree flatten that fails on this object: treat it as a function
        return False
    return any(leaf is not value and hasattr(leaf, "shape") and hasattr(leaf, "dtype") for leaf in leaves)


def _static_argnums(fn) -> tuple:
    """The static positions a jitted callable says it has. Our jit keeps a tuple of ints, but a
    library's wrapper (flax's `nnx.jit`, which stores what the user passed) may hold None or a
    lone int, as `jax.jit(f, static_argnums=1)` accepts."""
    nums = getattr(fn, "static_argnums", None)
    if nums is None:
        return ()
    if isinstance(nums, int):
        return (nums,)
    try:
        return tuple(i for i in nums if isinstance(i, int))
    except TypeError:
        return ()


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
