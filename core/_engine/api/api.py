"""The transformations users call: jit, grad, value_and_grad, vjp, jvp, linearize, jacfwd, jacrev,
hessian, vmap, make_jaxpr, eval_shape, device_put/get, custom_jvp/custom_vjp."""
from __future__ import annotations

import contextlib
import functools
import gc
import inspect

import numpy as np

from ..transforms import ad_checks
from ..base import dtypes, errors
from ..tracing import jit_cache
from ..transforms import vjp_fn
from ..tracing.array import Array, to_numpy
from ..base.avals import ShapedArray, aval_of_value
from ..base.prng_dtype import KEY_DTYPE, KEY_NAME
from ..base.config import config
from ..base.devices import dispatch_hooks as _dispatch_hooks
from ..tracing.jaxpr import ClosedJaxpr
from ..primitives.call import closed_call, jit_p
from ..tracing.tracing import Tracer, get_aval
from ..base import source_info
from ..tracing import tracing
from ..transforms import ad, batching
from ..base import trace_debug
from ..tracing.rules import jaxpr_compiler
from ..transforms.staging import JaxprTrace as _JaxprTrace, trace_to_jaxpr
from ..tracing.placement import device_get, device_get_async, device_put  # noqa: F401  (jax.device_put & co.)
from ..base.tree_util import PyTreeDef, is_namedtuple_node, tree_flatten, tree_leaves, tree_map, tree_structure, tree_unflatten, tree_transpose


def _fun_name(fun) -> str:
    f = fun
    while isinstance(f, functools.partial):
        f = f.func
    return getattr(f, "__name__", type(f).__name__)


def _check_arraylike(name, x):
    if isinstance(x, (Array, Tracer, np.ndarray, np.generic, bool, int, float, complex)):
        return x
    if hasattr(x, "__jax_array__"):
        dtypes.check_not_jax_array_protocol(x)
        return x.__jax_array__()
    raise TypeError(f"Argument '{x!r}' of type {type(x)} is not a valid JAX type.")


def _abstractify(x) -> ShapedArray:
    if isinstance(x, Tracer):
        return x.aval
    t = type(x)
    if t is Array:
        v = x._value
        return ShapedArray(v.shape, v.dtype, x.weak_type)
    return aval_of_value(_check_arraylike("jit", x))


# ---- jit ----------------------------------------------------------------------------------

class _Jitted:
    """The callable `jax.jit(f)` returns: traces once per input signature, caches the jaxpr and
    its compiled numpy code."""

    def __init__(self, fun, static_argnums=(), static_argnames=(), donate_argnums=(), inline=False,
                 keep_unused=False):
        self.fun = fun
        functools.update_wrapper(self, fun, updated=())
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        self.static_argnums = tuple(static_argnums or ())
        self.static_argnames = tuple(static_argnames or ())
        # the signature names static arguments both ways; without static ones it is read only
        # for an error message (`_sig`): inspect.signature costs ~0.1 ms of a first call
        if (self.static_argnums or self.static_argnames) and self._sig is not None:
            params = list(self._sig.parameters)
            for n in self.static_argnames:
                if n in params and params.index(n) not in self.static_argnums:
                    self.static_argnums += (params.index(n),)
            for i in self.static_argnums:
                if 0 <= i < len(params) and params[i] not in self.static_argnames:
                    self.static_argnames += (params[i],)
        # the traces belong to `fun` (shared by every jit of it with these options), as JAX's
        self._cache_entry = jit_cache.cache_for(
            fun, (self.static_argnums, self.static_argnames,
                  (donate_argnums,) if isinstance(donate_argnums, int) else tuple(donate_argnums or ()),
                  inline, keep_unused))
        self._cache = self._cache_entry.traces
        # eager calls with plain positional Arrays skip pytree flattening and signature
        # building: (context, (shape, dtype, weak) per argument) -> (compiled code, consts, ...)
        self._fast = self._cache_entry.fast
        self.name = _fun_name(fun)
        # the function's own attributes, as JAX's jit copies its __dict__ (haiku finds a transformed
        # function's original through `jax.jit(f.init)._original_fn`); never over one of this object's
        own = self.__dict__
        for key, value in getattr(fun, "__dict__", {}).items():
            if key not in own and not hasattr(type(self), key):
                own[key] = value

    @functools.cached_property
    def _sig(self):
        try:
            return inspect.signature(self.fun)
        except (TypeError, ValueError):
            return None

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    @property
    def __signature__(self):
        """The wrapped function's, as JAX's PjitFunction: `__get__` makes this object look like a
        builtin to inspect, which then finds no signature (chex's fake_pmap asks, unwrapping nothing)."""
        if self._sig is None:
            raise ValueError(f"no signature found for {self.fun!r}")
        return self._sig

    def _split(self, args, kwargs):
        n = len(args)
        statics = []
        for i in self.static_argnums:
            j = i + n if i < 0 else i
            if 0 <= j < n:
                statics.append((j, args[j]))
        static_pos = {j for j, _ in statics}
        dyn_args = tuple(a for i, a in enumerate(args) if i not in static_pos)
        static_kw = {k: v for k, v in kwargs.items() if k in self.static_argnames}
        dyn_kw = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        return statics, static_kw, dyn_args, dyn_kw

    def _signature(self, args, kwargs):
        statics, static_kw, dyn_args, dyn_kw = self._split(args, kwargs)
        flat, in_tree = tree_flatten((dyn_args, dyn_kw))
        try:
            avals = tuple(_abstractify(x) for x in flat)
        except TypeError:
            self._raise_bad_arg(dyn_args, dyn_kw, statics)
            raise
        if any(type(x) is int for x in flat):  # a Python int must fit the default int dtype
            self._check_int_args(flat, dyn_args, dyn_kw, statics)
        # statics by type and value, as JAX: f(x, 2) and f(x, 2.0) are two traces
        skey = (tuple((j, type(v), _hashable(v, j)) for j, v in statics),
                tuple(sorted((k, type(v).__qualname__, _hashable(v, k)) for k, v in static_kw.items())))
        return (jit_cache.context[0], in_tree, avals, skey), flat, statics, static_kw, in_tree, avals

    def _failing_leaves(self, dyn_args, dyn_kw, statics, check, error):
        """(path as JAX prints it, leaf) of each argument leaf whose abstraction raises `error`."""
        for name, x in self._named_leaves(dyn_args, dyn_kw, statics):
            try:
                check(x)
                continue
            except error:
                pass
            yield name, x

    def _named_leaves(self, dyn_args, dyn_kw, statics):
        """(path as JAX prints it: x, d['a'], args[1], ..., leaf) of each argument leaf, in order."""
        from ..base.tree_util import keystr, tree_flatten_with_path
        params = list(self._sig.parameters) if self._sig is not None else []
        static_pos = {j for j, _ in statics}
        dyn_names = [n for i, n in enumerate(params) if i not in static_pos]
        var_pos = [p.name for p in (self._sig.parameters.values() if self._sig is not None else ())
                   if p.kind is p.VAR_POSITIONAL]
        if var_pos:  # f(*a): the extra positional arguments are a[0], a[1], ... as JAX prints them
            dyn_names.pop()
        for path, x in tree_flatten_with_path((dyn_args, dyn_kw))[0]:
            if path[0].idx == 0 and path[1].idx < len(dyn_names):
                yield dyn_names[path[1].idx] + keystr(path[2:]), x
            elif path[0].idx == 0 and var_pos:
                yield f"{var_pos[0]}[{path[1].idx - len(dyn_names)}]" + keystr(path[2:]), x
            elif path[0].idx == 1:  # a keyword argument: JAX names it by its keyword
                yield str(path[1].key) + keystr(path[2:]), x
            else:
                yield "args" + keystr(path[1:]), x

    def _check_int_args(self, flat, dyn_args, dyn_kw, statics):
        """JAX's message for a Python int argument outside the default int dtype."""
        def check(x):
            if type(x) is int:
                dtypes.python_scalar_value_dtype(x)
        try:
            for x in flat:
                check(x)
        except OverflowError:
            pass
        else:
            return
        for where, x in self._failing_leaves(dyn_args, dyn_kw, statics, check, OverflowError):
            raise OverflowError(
                "An overflow was encountered while parsing an argument to a jitted computation, whose "
                f"argument path is {where}. Got {type(x)} with value {x}") from None

    def _raise_bad_arg(self, dyn_args, dyn_kw, statics):
        """JAX's message for a non-array argument that was not marked static."""
        for where, x in self._failing_leaves(dyn_args, dyn_kw, statics, _abstractify, TypeError):
            raise TypeError(
                f"Error interpreting argument to {self.fun!r} as an abstract array. The problematic value "
                f"is of type {type(x)} and was passed to the function at path {where}.\nThis typically "
                "means that a jit-wrapped function was called with a non-array argument, and this "
                "argument was not marked as static using the static_argnums or static_argnames "
                "parameters of jax.jit.") from None

    def _trace(self, statics, static_kw, in_tree, avals):
        out_tree_box = []
        fun = self.fun

        def flat_fun(*flat_args):
            dyn_args, dyn_kw = tree_unflatten(in_tree, flat_args)
            args = list(dyn_args)
            for j, v in sorted(statics):
                args.insert(j, v)
            out = fun(*args, **dyn_kw, **static_kw)
            out_flat, out_tree = tree_flatten(out)
            out_tree_box.append(out_tree)
            return [_check_output(o) for o in out_flat]
        def arg_names():  # what a ConcretizationTypeError names (only then: it costs a signature)
            dyn_args, dyn_kw = tree_unflatten(in_tree, list(avals))
            return [name for name, _ in self._named_leaves(dyn_args, dyn_kw, statics)]
        debug = trace_debug.TraceDebug.of(fun, "jit", arg_names)
        cj, consts = closed_call(flat_fun, list(avals), self.name, debug=debug)
        return cj, consts, out_tree_box[0]

    def _get(self, args, kwargs):
        key, flat, statics, static_kw, in_tree, avals = self._signature(args, kwargs)
        entry = self._cache.get(key)
        if entry is None:
            with _gc_paused():
                entry = self._cache[key] = self._trace(statics, static_kw, in_tree, avals)
        return entry, flat

    def __call__(self, *args, **kwargs):
        if _dispatch_hooks.jit_call is not None and args and type(args[0]) is not Array:
            # [webgpu] an accelerator's cached call path (host Arrays never take it)
            out = _dispatch_hooks.jit_call(self, args, kwargs)
            if out is not NotImplemented:
                return out
        fast_key = None
        if _eager_plain():
            key = [jit_cache.context[0]]
            values: list = []
            dyn = _static_key(self.static_argnums, args, key) if self.static_argnums else args
            if dyn is not None and _fast_key(dyn, key, values) and (
                    not kwargs or _fast_kwargs(self.static_argnames, kwargs, key, values)):
                fast_key = tuple(key)
                hit = self._fast.get(fast_key)
                if hit is not None:
                    prog, consts, out_tree, weaks = hit
                    outs = (prog._fn or prog)(*consts, *values)  # the generated code once built
                    if out_tree is None:
                        return Array(outs[0], weaks[0])
                    if type(out_tree) is not PyTreeDef:   # a generated rebuilder (_rebuilder) or its placeholder
                        return out_tree(outs)
                    return tree_unflatten(out_tree, [Array(o, w) for o, w in zip(outs, weaks)])
        if config.read("jax_disable_jit"):
            return self.fun(*args, **kwargs)
        # a first call traces, compiles and runs: all allocation, little garbage; collections
        # in the middle of it (full ones walk every object of the session) wait until it ends
        with _gc_paused():
            return self._call(args, kwargs, fast_key)

    def _call(self, args, kwargs, fast_key):
        (cj, consts, out_tree), flat = self._get(args, kwargs)
        if tracing.dynamic_trace is None and len(tracing.trace_stack) == 1 and not any(
                isinstance(x, Tracer) for x in flat):
            # eager fast path: run the compiled code directly (on an accelerator if one claims it)
            from ..base.devices import dispatch_hooks
            if any(a.dtype == float0 for a in cj.out_avals):
                # a float0 output (an integer output's tangent, a grad with allow_int) comes out as
                # JAX's: a numpy float0 array, no jax Array (the cached fast path keeps to Arrays)
                outs = jaxpr_compiler[0].compiled(cj)(*[to_numpy(c) for c in consts], *[to_numpy(x) for x in flat])
                return tree_unflatten(out_tree, [np.zeros(a.shape, float0) if a.dtype == float0 else Array(o, a.weak_type)
                                                 for o, a in zip(outs, cj.out_avals)])
            if dispatch_hooks.jit is not None:
                outs = dispatch_hooks.jit(cj, consts, flat)
                if outs is not NotImplemented:
                    return tree_unflatten(out_tree, outs)
            cpu = jaxpr_compiler[0]
            fn = cpu.compiled(cj, self.name in cpu.FMA_CALLS)   # (eager jax.random.uniform: XLA's fma)
            np_consts = [to_numpy(c) for c in consts]
            outs = fn(*np_consts, *[to_numpy(x) for x in flat])
            weaks = [a.weak_type for a in cj.out_avals]
            outs = [Array(o, w) for o, w in zip(outs, weaks)]
            if config.read("jax_debug_nans") or config.read("jax_debug_infs"):
                _debug_nans_rerun(self, args, kwargs, outs)
            elif fast_key is not None:
                single = out_tree.num_leaves == 1 and out_tree == tree_structure(0)
                self._fast[fast_key] = (fn, np_consts, None if single else
                                        _rebuilt_on_second_call(out_tree, weaks, self._fast, fast_key), weaks)
        else:
            outs = jit_p.bind(*consts, *flat, jaxpr=cj, name=self.name)
        return tree_unflatten(out_tree, outs)

    def trace(self, *args, **kwargs):
        from . import stages  # a sibling leaf module: the jit stages are its data classes
        (cj, consts, out_tree), flat = self._get(args, kwargs)
        in_tree = self._signature(args, kwargs)[4]
        info = tree_unflatten(in_tree, [stages.ArgInfo(a, False) for a in cj.in_avals])
        statics, static_kw = self._split(args, kwargs)[:2]  # baked into the stages: callers pass the rest
        return stages.Traced(cj, consts, in_tree, out_tree, info, stages.with_statics(self, statics, static_kw))

    def lower(self, *args, **kwargs):
        return self.trace(*args, **kwargs).lower()

    def eval_shape(self, *args, **kwargs):
        (cj, consts, out_tree), flat = self._get(args, kwargs)
        return tree_unflatten(out_tree, [ShapeDtypeStruct(a.shape, a.dtype) for a in cj.out_avals])

    def _cache_size(self):
        return len(self._cache)

    def clear_cache(self):
        self._cache_entry.clear()


class _gc_paused:
    """Tracing allocates many small objects that live until the jaxpr is built; pausing the
    cyclic collector meanwhile avoids full collections in the middle of a trace."""

    def __enter__(self):
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was:
            gc.enable()


def _eager_plain() -> bool:
    """True when a jitted call may take the cached fast path: nothing is being traced, no
    accelerator hook, no debug checks, jit enabled."""
    return tracing.eager_fast_path_ok() and not config.read("jax_disable_jit")


def _static_key(static_argnums, args, key: list):
    """Append the static positional arguments (by type and value) to `key`; the other
    arguments, or None when a static one is unhashable (the general path explains why)."""
    n = len(args)
    pos = {i + n if i < 0 else i for i in static_argnums}
    dyn = []
    for i, a in enumerate(args):
        if i in pos:
            try:
                hash(a)
            except TypeError:
                return None
            key.append(("static", i, type(a), a))
        else:
            dyn.append(a)
    return dyn


def _rebuilt_on_second_call(out_tree, weaks, fast: dict, key):
    """The fast path's output rebuilder, generated when the fast path first runs (a call that is
    never repeated does not pay for generating code: ~0.1-0.6 ms of exec), which then replaces
    this placeholder in the cache entry."""
    def rebuild_first(outs):
        rebuild = _rebuilder(out_tree, weaks)
        entry = fast.get(key)
        if entry is not None and entry[2] is rebuild_first:
            fast[key] = (entry[0], entry[1], rebuild, entry[3])
        if type(rebuild) is PyTreeDef:
            return tree_unflatten(rebuild, [Array(o, w) for o, w in zip(outs, weaks)])
        return rebuild(outs)
    return rebuild_first


def _rebuilder(out_tree, weaks):
    """For outputs nested in lists, tuples, dicts, NamedTuples and Nones (a params pytree, an
    optimizer state): one generated function that wraps the arrays and rebuilds the structure in a
    single expression, as tree_unflatten would; else out_tree itself (tree_unflatten rebuilds it)."""
    counter = iter(range(len(weaks)))
    namespace = {"A": Array}

    def bound(value, prefix):   # a dict key or a NamedTuple class, named in the generated code
        name = f"{prefix}{len(namespace)}"
        namespace[name] = value
        return name

    def expr(td):
        t = td.node_type
        if t is None:
            i = next(counter)
            return f"A(o[{i}], {bool(weaks[i])})"
        if t is list:
            return "[" + ", ".join(expr(c) for c in td.children) + "]"
        if t is tuple:
            return "(" + "".join(expr(c) + ", " for c in td.children) + ")"
        if t is dict:   # keys in the treedef's (sorted) order, as tree_unflatten's dict(zip(keys, ...))
            return "{" + ", ".join(f"{bound(k, 'K')}: {expr(c)}" for k, c in zip(td.aux, td.children)) + "}"
        if t == "namedtuple":
            return bound(td.aux, "T") + "(" + ", ".join(expr(c) for c in td.children) + ")"
        if t is type(None):
            return "None"
        raise LookupError
    try:
        body = expr(out_tree)
    except LookupError:
        return out_tree
    exec(f"def rebuild(o):\n    return {body}", namespace)
    return namespace["rebuild"]


def _fast_kwargs(static_argnames, kwargs: dict, key: list, values: list) -> bool:
    """_fast_key for keyword arguments, in tree_flatten's order (the dynamic ones' leaves after
    the positional ones', by sorted name): static ones by name, type and value, the others by name
    and structure. False when a static one is unhashable or a dynamic one is not plain."""
    names = sorted(kwargs)
    dyn = []
    for name in names:
        v = kwargs[name]
        if name in static_argnames:
            try:
                hash(v)
            except TypeError:
                return False
            key.append(("static_kw", name, type(v), v))
        else:
            key.append(("kw", name))
            dyn.append(v)
    return _fast_key(dyn, key, values)


def _fast_key(args, key: list, values: list) -> bool:
    """Flatten args made of plain Arrays and Python scalars in lists, tuples, NamedTuples and
    dicts (the usual params pytree and optimizer state, a learning rate) in one pass: appends their structure and each leaf's (shape, dtype, weak) to `key` and the
    leaves' ndarrays to `values`, in tree_flatten's order. False for anything else (the general
    path handles it)."""
    for a in args:
        t = type(a)
        if t is Array:
            v = a._value
            values.append(v)
            key.append((v.shape, v.dtype, a.weak_type))
        elif t is list or t is tuple:
            key.append((t, len(a)))
            if not _fast_key(a, key, values):
                return False
        elif t is float or t is int or t is bool:   # a Python scalar: a weakly typed leaf
            try:
                values.append(to_numpy(a))
            except (OverflowError, TypeError):
                return False   # (the general path raises JAX's error)
            key.append(t)
        elif a is None:   # an empty subtree
            key.append(None)
        elif t is dict:
            try:
                names = sorted(a)
            except TypeError:
                return False
            key.append((dict, tuple(names)))
            if not _fast_key([a[k] for k in names], key, values):
                return False
        elif is_namedtuple_node(t):   # optax's states (ScaleByAdamState(count, mu, nu), EmptyState())
            # tuple's own length: a class may redefine len() (a single jax.scipy...Rotation raises there)
            key.append((t, tuple.__len__(a)))
            if not _fast_key(a, key, values):
                return False
        else:
            return False
    return True


def _debug_nans_rerun(jitted, args, kwargs, outs):
    """Like JAX: on a nan (or inf) in a jit output, re-run the function op by op so the error
    names the primitive that produced it."""
    for o in outs:
        v = o._value
        if dtypes.kind(v.dtype) not in "fc":
            continue
        bad = ("nan" if config.read("jax_debug_nans") and np.isnan(v).any() else
               "inf" if config.read("jax_debug_infs") and np.isinf(v).any() else None)
        if bad is None:
            continue
        print("Invalid nan value encountered in the output of a jax.jit function. "
              "Calling the de-optimized version.")
        with disable_jit():
            jitted.fun(*args, **kwargs)
        raise FloatingPointError(
            f"invalid value ({bad}) encountered in jit({jitted.name}). Because jax_config.debug_nans.value "
            "and/or config.jax_debug_infs is set, the de-optimized function (i.e., the function as if the "
            "`jit` decorator were removed) was called in an attempt to get a more precise error message. "
            "However, the de-optimized function did not produce invalid values during its execution. This "
            "behavior can result from `jit` optimizations causing the invalid value to be produced. It may "
            "also arise from having nan/inf literals as inputs or outputs, like "
            "`jax.jit(lambda ...: jax.numpy.nan)(...)`. \n\nIt may be possible to avoid the invalid value "
            "by removing the `jit` decorator, at the cost of losing optimizations. ")


def _hashable(v, where):
    try:
        hash(v)
    except TypeError:
        raise ValueError(
            f"Non-hashable static arguments are not supported. An error occurred while trying to hash an "
            f"object of type {type(v)}, {v}. The error was:\nTypeError: unhashable type: "
            f"'{type(v).__name__}'\n") from None
    return v


def _check_output(o):
    if isinstance(o, (Tracer, Array, np.ndarray, np.generic, bool, int, float, complex)):
        return o
    raise TypeError(f"function returned a value of type {type(o)}, which is not a valid JAX type. "
                    "Return arrays (or pytrees of arrays) from transformed functions.")


# [libtests] jax.jit's callable is a PjitFunction in JAX: chex's is_traceable (and assert_max_traces'
# wrapper-order check) recognise a jitted function by that type name.
_Jitted.__name__ = _Jitted.__qualname__ = "PjitFunction"
PjitFunction = _Jitted


def jit(fun=None, *, static_argnums=(), static_argnames=(), donate_argnums=(), donate_argnames=(),
        device=None, backend=None, inline=False, keep_unused=False, abstracted_axes=None,
        in_shardings=None, out_shardings=None):
    if fun is None:
        return lambda f: jit(f, static_argnums=static_argnums, static_argnames=static_argnames,
                             donate_argnums=donate_argnums, donate_argnames=donate_argnames)
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun!r}")
    jitted = _Jitted(fun, static_argnums, static_argnames)
    if donate_argnums not in (None, ()) or donate_argnames not in (None, ()):   # (docs3) donated inputs are deleted after a call, as JAX's
        from ..transforms.donation import DonatingJit, donated_positions
        return DonatingJit(jitted, *donated_positions(fun, donate_argnums, donate_argnames))
    return jitted


class disable_jit:
    def __init__(self, disable: bool = True):
        self.disable = disable

    def __enter__(self):
        self.prev = config.read("jax_disable_jit")
        config.update("jax_disable_jit", self.disable)

    def __exit__(self, *a):
        config.update("jax_disable_jit", self.prev)


# ---- make_jaxpr ---------------------------------------------------------------------------

def make_jaxpr(fun, static_argnums=(), axis_env=None, return_shape=False, abstracted_axes=None):
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)

    @functools.wraps(fun)
    def make(*args, **kwargs):
        statics = {i: args[i] for i in static_argnums}
        dyn = [a for i, a in enumerate(args) if i not in statics]
        flat, in_tree = tree_flatten((tuple(dyn), kwargs))
        avals = [x.aval if isinstance(x, ShapeDtypeStruct) else _abstractify(x) for x in flat]
        out_tree_box = []

        def flat_fun(*xs):
            d, kw = tree_unflatten(in_tree, xs)
            full = list(d)
            for i in sorted(statics):
                full.insert(i, statics[i])
            out = fun(*full, **kw)
            out_flat, out_tree = tree_flatten(out)
            out_tree_box.append(out_tree)
            return [_check_output(o) for o in out_flat]
        def arg_names():  # as jit names them (make_jaxpr traces as jit does, and says "for jit")
            return [name for name, _ in _Jitted(fun, static_argnums)._named_leaves(
                tuple(dyn), kwargs, sorted(statics.items()))]
        debug = trace_debug.TraceDebug.of(fun, "jit", arg_names)
        with _gc_paused():  # as in jit: no collections in the middle of a trace
            jaxpr, consts = trace_to_jaxpr(flat_fun, avals, debug=debug)
        cj = ClosedJaxpr(jaxpr, consts)
        if return_shape:
            shapes = tree_unflatten(out_tree_box[0], [ShapeDtypeStruct(v.aval.shape, v.aval.dtype)
                                                      for v in jaxpr.outvars])
            return cj, shapes
        return cj
    return make


class ShapeDtypeStruct:
    def __init__(self, shape, dtype, sharding=None, weak_type=False):
        self.shape = tuple(shape)
        self.dtype = dtypes.public_dtype(dtypes.as_engine_dtype(dtype))  # [dtypes] (bfloat16 without ml_dtypes)
        self.weak_type = weak_type
        self.sharding = sharding  # None unless given, as in JAX (gradpad runs on one device)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape)))

    @property
    def aval(self):
        return ShapedArray(self.shape, self.dtype, self.weak_type)

    @classmethod
    def like(cls, x):
        """The shape, dtype and weak type of an array, tracer or ShapeDtypeStruct `x`."""
        aval = x.aval if isinstance(x, ShapeDtypeStruct) else _abstractify(x)
        return cls(aval.shape, aval.dtype, weak_type=aval.weak_type)

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"

    def __eq__(self, other):
        return isinstance(other, ShapeDtypeStruct) and (self.shape, self.dtype) == (other.shape, other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))


from ..base._public import set_public_module  # noqa: E402
set_public_module("jax", ShapeDtypeStruct)  # (JAX's: jax.ShapeDtypeStruct)


def eval_shape(fun, *args, **kwargs):
    flat, in_tree = tree_flatten((args, kwargs))
    avals = [x.aval if isinstance(x, ShapeDtypeStruct) else _abstractify(x) for x in flat]
    box = []

    def flat_fun(*xs):
        a, kw = tree_unflatten(in_tree, xs)
        out = fun(*a, **kw)
        of, ot = tree_flatten(out)
        box.append(ot)
        return of
    jaxpr, _ = trace_to_jaxpr(flat_fun, avals)
    return tree_unflatten(box[0], [ShapeDtypeStruct(v.aval.shape, v.aval.dtype) for v in jaxpr.outvars])


# ---- autodiff -----------------------------------------------------------------------------

def _as_array(x):
    if isinstance(x, (Tracer, Array)):
        return x
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        return x
    return _check_arraylike("ad", x)


def vjp(fun, *primals, has_aux=False, reduce_axes=()):
    flat_primals, in_tree = tree_flatten(primals)
    was_array = [vjp_fn.is_array_input(p) for p in flat_primals]
    flat_primals = [_as_array(p) for p in flat_primals]
    flat_fun, trees = _flatten_with_aux(fun, in_tree, has_aux)
    outs, _, lin = ad.vjp_flat(flat_fun, flat_primals, name_stack=True)  # grad's primal half: `jvp(...)`
    out_tree, n_out, aux_tree = trees[0]
    primal_out = tree_unflatten(out_tree, outs[:n_out])
    in_avals = [get_aval(p) for p in flat_primals]
    out_avals = [get_aval(o) for o in outs]

    def f_vjp(residuals, *cts):
        ct = cts[0] if len(cts) == 1 else cts
        ct_flat, ct_tree = tree_flatten(ct)
        if ct_tree != out_tree:
            raise ValueError(f"unexpected tree structure of argument to vjp function: got {ct_tree}, but "
                             f"expected to match {out_tree}")
        for c, a in zip(ct_flat, out_avals):
            ad_checks.check_cotangent(c, a)
        # an integer output's cotangent (float0, or integer zeros) carries nothing back
        ct_flat = [ad.Zero(ad.tangent_aval(a)) if _float0_tangent(a) else c for c, a in zip(ct_flat, out_avals)]
        full = list(ct_flat) + [ad.Zero(a) for a in out_avals[n_out:]]
        cts_in = ad.backward_pass(lin.jaxpr, residuals, full)
        cts_in = [_instantiate_ct(c, a) for c, a in zip(cts_in, in_avals)]
        return tree_unflatten(in_tree, cts_in)
    f_vjp = vjp_fn.make_vjp(f_vjp, flat_primals, was_array, lin.residuals,  # a pytree of its residuals
                            getattr(fun, "__name__", "the function"))
    if has_aux:
        aux = _aux_rebuilt(aux_tree, outs[n_out:])
        return primal_out, f_vjp, aux
    return primal_out, f_vjp


def _split_aux(out):
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError("expected function with aux output to return a two-element tuple, but got type "
                        f"{type(out)} with value {out!r}")
    return out


def _aux_traced_leaves(aux):
    """(the traced leaves of `aux`, what rebuilds it from them): only traced leaves go through the
    transformation; any other leaf comes back as it went in, as JAX's (a Python int stays an int, and
    an object that is no JAX type is allowed: haiku's stateful.grad returns one)."""
    leaves, tree = tree_flatten(aux)
    traced = [isinstance(leaf, Tracer) for leaf in leaves]
    kept = [leaf for leaf, t in zip(leaves, traced) if not t]
    return [leaf for leaf, t in zip(leaves, traced) if t], (tree, traced, kept)


def _aux_rebuilt(aux_tree, traced_out):
    tree, traced, kept = aux_tree
    outs, kept = iter(traced_out), iter(kept)
    return tree_unflatten(tree, [next(outs) if t else next(kept) for t in traced])


def _flatten_with_aux(fun, in_tree, has_aux):
    """`fun` over flat inputs returning its flat outputs followed by its flat aux values.
    The returned `trees` list receives (out_tree, number of outputs, aux_tree) when it runs."""
    trees = []

    def flat_fun(*xs):
        out = fun(*tree_unflatten(in_tree, xs))
        aux_flat, aux_tree = [], None
        if has_aux:
            out, aux = _split_aux(out)
            aux_flat, aux_tree = _aux_traced_leaves(aux)
        out_flat, out_tree = tree_flatten(out)
        trees.append((out_tree, len(out_flat), aux_tree))
        return list(out_flat) + list(aux_flat)
    return flat_fun, trees


# JAX's dtype of cotangents/tangents for integer and boolean values (no content)
float0 = np.dtype([("float0", np.void, 0)])


def tree_util_partial(f):
    from ..base.tree_util import Partial
    return Partial(f)


def _instantiate_ct(c, aval):
    if _float0_tangent(aval):
        return np.zeros(aval.shape, float0)
    if type(c) is ad.Zero:
        from ..lax import lax
        return lax.full(aval.shape, 0, aval.dtype, weak_type=aval.weak_type)
    return c


def _argnums_tuple(argnums, nargs):
    tup = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for a in tup:
        if not isinstance(a, int):
            raise TypeError(f"argnums must be an int or a tuple of ints, got {argnums!r}")
        if a >= nargs or a < -nargs:
            raise TypeError(f"differentiating with respect to argnums={argnums} requires at least {a + 1} "
                            f"positional arguments to be passed by the caller, but got only {nargs} "
                            "positional arguments.")
    return tup


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False, reduce_axes=()):
    @functools.wraps(fun)
    def vg(*args, **kwargs):
        tup = _argnums_tuple(argnums, len(args))
        dyn = [args[i] for i in tup]

        def f_part(*dyn_args):
            full = list(args)
            for i, a in zip(tup, dyn_args):
                full[i] = a
            return fun(*full, **kwargs)
        for leaf in tree_leaves(dyn):
            ad_checks.check_input_revderiv("grad", holomorphic, allow_int, _as_array(leaf))
        if has_aux:
            ans, f_vjp, aux = vjp(f_part, *dyn, has_aux=True)
        else:
            ans, f_vjp = vjp(f_part, *dyn)
        _check_scalar(ans)
        ad_checks.check_output_revderiv("grad", holomorphic, ans)
        from ..lax import lax
        ct = lax.full_like(ans, 1)
        g = f_vjp(ct)
        g = g[0] if isinstance(argnums, int) else tuple(g)
        if has_aux:
            return (ans, aux), g
        return ans, g
    return vg


def _check_scalar(x):
    if not isinstance(x, (Tracer, Array, np.ndarray, np.generic, float, int)):
        raise TypeError(f"Gradient only defined for scalar-output functions. Output was {x}.")
    aval = get_aval(x)
    if aval.shape != ():
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had shape: {aval.shape}.")


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False, reduce_axes=()):
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def g(*args, **kwargs):
        out = vg(*args, **kwargs)
        if has_aux:
            (_, aux), gr = out
            return gr, aux
        return out[1]
    return g


_FLOAT0_DESCR = "[('float0', 'V')]"  # how JAX's messages print float0


def _int_like(aval) -> bool:
    """Integer and bool values have float0 tangents and cotangents in JAX."""
    return dtypes.kind(aval.dtype) in "biu"


def _float0_tangent(aval) -> bool:
    """Integer, bool and typed PRNG key values: JAX's jvp wants a float0 tangent for them (a key's
    tangent is no key) and its vjp gives a float0 cotangent back."""
    return dtypes.kind(aval.dtype) in "biu" or aval.dtype == KEY_DTYPE


def _dtype_text(dt) -> str:
    return KEY_NAME if dt == KEY_DTYPE else _FLOAT0_DESCR if dt == float0 else dt.name


def _float0_tangent_out(primal, tangent):
    """An integer or bool output's tangent, as JAX's jvp and linearize return it: float0 zeros of
    the output's shape (the engine carries it as an integer zero inside, left uninstantiated here).
    While a jaxpr is being staged (make_jaxpr, jit) a non-scalar one is, as JAX's, a broadcast of
    the float0 literal; elsewhere a numpy float0 array."""
    aval = get_aval(primal)
    if not _float0_tangent(aval):
        return ad.instantiate(tangent)
    zero = np.zeros((), float0)
    if aval.shape and isinstance(tracing.find_top_trace(()), _JaxprTrace):
        from ..lax import lax
        return lax.broadcast_in_dim(zero, aval.shape, ())
    return np.zeros(aval.shape, float0)


def jvp(fun, primals, tangents, has_aux=False):
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("primal and tangent arguments to jax.jvp must be tuples or lists; found "
                        f"{type(primals).__name__} and {type(tangents).__name__}.")
    flat_p, tree_p = tree_flatten(tuple(primals))
    flat_t, tree_t = tree_flatten(tuple(tangents))
    if tree_p != tree_t:
        raise TypeError(f"primal and tangent arguments to jax.jvp must have the same tree structure; "
                        f"primals have tree structure {tree_p} whereas tangents have tree structure {tree_t}.")
    flat_p = [_as_array(p) for p in flat_p]
    flat_t = [_as_array(t) for t in flat_t]
    for i, (p, t) in enumerate(zip(flat_p, flat_t)):
        pa, ta = get_aval(p), get_aval(t)
        if pa.shape != ta.shape:
            raise ValueError(f"jvp called with different primal and tangent shapes;Got primal shape "
                             f"{pa.shape} and tangent shape as {ta.shape}")
        expected = float0 if _float0_tangent(pa) else pa.dtype
        if ta.dtype != expected:
            raise TypeError(f"primal and tangent arguments to jax.jvp do not match; dtypes must be equal, or "
                            f"in case of int/bool primal dtype the tangent dtype must be float0.Got primal "
                            f"dtype {_dtype_text(pa.dtype)} and so expected tangent dtype "
                            f"{_dtype_text(expected)}, but got tangent dtype {_dtype_text(ta.dtype)} instead.")
        if _float0_tangent(pa):  # a float0 tangent carries nothing: a symbolic zero of the engine's kind
            flat_t[i] = ad.Zero(ad.tangent_aval(pa))
    po, to = _jvp_flat(fun, tree_p, flat_p, flat_t, has_aux, instantiate=False)
    ot, n, at = po[1]
    po = po[0]
    to = [_float0_tangent_out(p, t) for p, t in zip(po, to)]
    out = (tree_unflatten(ot, po[:n]), tree_unflatten(ot, to[:n]))
    if has_aux:
        return out + (_aux_rebuilt(at, po[n:]),)
    return out


def _jvp_flat(fun, tree_p, flat_p, flat_t, has_aux, instantiate=True):
    """((primals out, trees), tangents out) of `fun` over flat primals and tangents; the tangents
    instantiated unless `instantiate` is False (then symbolic zeros stay ad.Zero)."""
    flat_fun, box = _flatten_with_aux(fun, tree_p, has_aux)
    with source_info.transform_name_stack("jvp"):  # name stacks say jvp(...), as JAX's
        po, to = ad.jvp_flat(flat_fun, flat_p, flat_t)
    return (po, box[0]), ([ad.instantiate(t) for t in to] if instantiate else list(to))


def _jvp_engine(fun, primals, tangents, has_aux=False):
    """jvp as the engine's own callers use it (jacfwd's pushforward, custom_root, zeta's rule):
    integer primals take and give integer zero tangents, as the engine carries them."""
    flat_p, tree_p = tree_flatten(tuple(primals))
    flat_p = [_as_array(p) for p in flat_p]
    flat_t = [_as_array(t) for t in tree_leaves(tuple(tangents))]
    po, to = _jvp_flat(fun, tree_p, flat_p, flat_t, has_aux)
    ot, n, at = po[1]
    po = po[0]
    out = (tree_unflatten(ot, po[:n]), tree_unflatten(ot, to[:n]))
    if has_aux:
        return out + (_aux_rebuilt(at, po[n:]),)
    return out


def linearize(fun, *primals, has_aux=False):
    flat_p, tree_p = tree_flatten(primals)
    flat_p = [_as_array(p) for p in flat_p]
    flat_fun, box = _flatten_with_aux(fun, tree_p, has_aux)
    outs, lin = ad.linearize_flat(flat_fun, flat_p, name_stack=True)
    ot, n, at = box[0]
    in_avals = [get_aval(p) for p in flat_p]
    out_avals = [get_aval(o) for o in outs[:n]]

    def f_jvp(residuals, *tangents):
        tf, tt = tree_flatten(tangents)
        if tt != tree_p:
            raise TypeError(f"expected {tree_p}, got {tt}")
        tf = [_as_array(t) for t in tf]
        for i, (pa, t) in enumerate(zip(in_avals, tf)):
            ta = get_aval(t)
            expected = ShapedArray(pa.shape, float0 if _int_like(pa) else pa.dtype, pa.weak_type)
            if ta.shape != expected.shape or ta.dtype != expected.dtype:
                raise ValueError("linearized function called on tangent values inconsistent with the original "
                                 f"primal values:\nGot tangent aval {ta} for primal aval {pa} but expected "
                                 f"{expected}.")
            if _int_like(pa):  # float0 in, the engine's integer zero inside
                from ..lax import lax
                tf[i] = lax.full(pa.shape, 0, pa.dtype, weak_type=pa.weak_type)
        from ..transforms.staging import eval_jaxpr
        res = eval_jaxpr(lin.jaxpr, residuals, *tf)
        res = [np.zeros(a.shape, float0) if _int_like(a) else r for r, a in zip(res[:n], out_avals)]
        return tree_unflatten(ot, res)
    f_jvp = vjp_fn.make_linear_fn(f_jvp, lin.residuals)  # a pytree of its residuals, as JAX's Partial
    out = tree_unflatten(ot, outs[:n])
    if has_aux:
        return out, f_jvp, _aux_rebuilt(at, outs[n:])
    return out, f_jvp


def _eye_like(n, dtype):
    """`jnp.eye(n, dtype)` built from the same primitives, in the same order, as JAX's."""
    from ..lax import lax
    rows = lax.broadcasted_iota(np.int32, (n, n), 0)
    cols = lax.broadcasted_iota(np.int32, (n, n), 1)
    return lax._convert_element_type(lax.eq(lax.add(rows, np.int32(0)), cols), dtype, False)


def _unravel(leaves_avals, axis, arr, examples, force_convert=False):
    """Split `arr` along `axis` into one piece per leaf (JAX's _unravel_array_into_pytree):
    each piece gets the leaf's shape in place of `axis`, and the example's dtype/weak type."""
    from ..lax import lax
    from ..primitives.structural import split_p
    aval = get_aval(arr)
    axis %= aval.ndim
    sizes = tuple(np.diff(np.concatenate([[0], np.cumsum([a.size for a in leaves_avals])])))
    parts = split_p.bind(arr, sizes=sizes, axis=axis)
    outs = []
    for part, leaf, ex in zip(parts, leaves_avals, examples):
        shape = aval.shape[:axis] + leaf.shape + aval.shape[axis + 1:]
        if get_aval(part).shape != shape:
            part = lax.reshape(part, shape)
        if force_convert or get_aval(part).dtype != ex.dtype or get_aval(part).weak_type != ex.weak_type:
            from ..primitives.elementwise import convert_element_type_p
            part = convert_element_type_p.bind(part, new_dtype=ex.dtype, weak_type=ex.weak_type, sharding=None)
        outs.append(part)
    return outs


def _std_basis(leaves_avals):
    """One basis vector per scalar of the leaves, stacked on axis 0, shaped like the leaves."""
    n = sum(a.size for a in leaves_avals)
    dt = dtypes.result_type(*[a.dtype for a in leaves_avals])
    return _unravel(leaves_avals, 1, _eye_like(n, dt), leaves_avals, force_convert=True)


def _dyn_args(fun, argnums, args, kwargs):
    """`fun` as a function of the arguments at `argnums` only, and those arguments."""
    tup = _argnums_tuple(argnums, len(args))

    def f_part(*dyn):
        full = list(args)
        for i, a in zip(tup, dyn):
            full[i] = a
        return fun(*full, **kwargs)
    return f_part, tuple(_as_array_tree(args[i]) for i in tup)


def _as_array_tree(x):
    return tree_map(_as_array, x)


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """Jacobian by forward mode: one jvp per input scalar (vmapped); the input axes go last."""
    def jac(*args, **kwargs):
        f_part, dyn = _dyn_args(fun, argnums, args, kwargs)
        in_leaves, in_tree = tree_flatten(dyn)
        for x in in_leaves:
            ad_checks.check_input_jacfwd(holomorphic, x)
        in_avals = [get_aval(x) for x in in_leaves]

        def push(*basis_leaves):
            return _jvp_engine(f_part, dyn, tree_unflatten(in_tree, list(basis_leaves)), has_aux=has_aux)
        out_axes = (None, -1, None) if has_aux else (None, -1)
        res = vmap(push, out_axes=out_axes)(*_std_basis(in_avals))
        y, jac_out = res[0], res[1]
        for leaf in tree_leaves(y):
            ad_checks.check_output_jacfwd(holomorphic, leaf)
        example = dyn[0] if isinstance(argnums, int) else dyn
        ex_leaves, ex_tree = tree_flatten(example)
        ex_avals = [get_aval(x) for x in ex_leaves]
        y_leaves, y_tree = tree_flatten(y)
        # per output leaf: split its trailing (input) axis into the inputs' shapes
        per_out = [tree_unflatten(ex_tree, _unravel(ex_avals, -1, j, [get_aval(yl)] * len(ex_avals)))
                   for yl, j in zip(y_leaves, tree_leaves(jac_out))]
        result = tree_unflatten(y_tree, per_out)
        return (result, res[2]) if has_aux else result
    return jac


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Jacobian by reverse mode: one vjp per output scalar (vmapped); output axes go first."""
    def jac(*args, **kwargs):
        f_part, dyn = _dyn_args(fun, argnums, args, kwargs)
        for x in tree_leaves(dyn):
            ad_checks.check_input_revderiv("jacrev", holomorphic, allow_int, x)
        y, pullback, *aux = vjp(f_part, *dyn, has_aux=has_aux)
        for leaf in tree_leaves(y):
            ad_checks.check_output_revderiv("jacrev", holomorphic, leaf)
        y_leaves, y_tree = tree_flatten(y)
        y_avals = [get_aval(v) for v in y_leaves]
        cts = vmap(lambda *b: pullback(tree_unflatten(y_tree, list(b))))(*_std_basis(y_avals))
        example = dyn[0] if isinstance(argnums, int) else dyn
        cts = cts[0] if isinstance(argnums, int) else cts
        ex_leaves, ex_tree = tree_flatten(example)
        # per input leaf: split the leading (output) axis into the outputs' shapes -> y-shaped tree
        per_in = [tree_unflatten(y_tree, _unravel(y_avals, 0, c, [get_aval(x)] * len(y_avals)))
                  for x, c in zip(ex_leaves, tree_leaves(cts))]
        # input-major -> output-major (JAX's tree_transpose(example structure, y structure))
        result = tree_transpose(ex_tree, y_tree, tree_unflatten(ex_tree, per_in))
        return (result, aux[0]) if has_aux else result
    return jac


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)


# ---- vmap ---------------------------------------------------------------------------------

def _prefix_leaves(prefix, tree, what):
    """Broadcast a pytree prefix (in_axes/out_axes) over `tree`'s leaves: `tree` is cut at the
    prefix's leaves (None is a leaf there), each cut subtree gets its prefix leaf. Any node type
    works, registered classes included, as JAX's broadcast_prefix."""
    from ..base.tree_util import _flatten_up_to
    flat_prefix, prefix_tree = tree_flatten(prefix, is_leaf=lambda x: x is None)
    try:
        subtrees = _flatten_up_to(prefix_tree, tree, name=what)
    except ValueError as e:
        raise ValueError(f"{what} specification must be a tree prefix of the corresponding value; \n"
                         f"  Mismatch details (1 found):\n  {e}") from None
    out = []
    for p, sub in zip(flat_prefix, subtrees):
        out.extend([p] * len(tree_leaves(sub)))
    return out


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if not (in_axes is None or isinstance(in_axes, (int, tuple, dict)) or hasattr(in_axes, "_fields")):
        raise TypeError(f"vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
                        f"positional arguments passed to the function, but got {in_axes}.")

    @functools.wraps(fun)
    def vmapped(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(f"vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
                             f"positional arguments passed to the function, but got len(in_axes)={len(in_axes)}, "
                             f"len(args)={len(args)}")
        flat, in_tree = tree_flatten((args, kwargs))
        n_args_leaves = len(tree_leaves(args))
        axes = _prefix_leaves(in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args) if
                              isinstance(in_axes, (int, type(None))) else in_axes, args, "vmap in_axes")
        axes = axes + [0] * (len(flat) - n_args_leaves)
        # an unmapped leaf (in_axes None) reaches the function as it is, as in JAX (a dtype, a string)
        flat = [x if a is None else _as_array(x) for x, a in zip(flat, axes)]
        sizes = {}
        norm_axes = []
        for x, a in zip(flat, axes):
            if a is None:
                norm_axes.append(None)
                continue
            nd = get_aval(x).ndim
            if not -nd <= a < nd:
                raise ValueError(f"vmap was requested to map its argument along axis {a}, which implies "
                                 f"that its rank should be at least {a + 1 if a >= 0 else -a}, but is only {nd} "
                                 f"(its shape is {get_aval(x).shape})")
            a = a % nd
            norm_axes.append(a)
            sizes.setdefault(get_aval(x).shape[a], []).append((x, a))
        if len(sizes) > 1 or (sizes and axis_size is not None and axis_size not in sizes):
            raise ValueError(_vmap_sizes_message(fun, args, kwargs, flat, norm_axes, axis_size))
        if sizes:
            size = next(iter(sizes))
        elif axis_size is not None:
            size = axis_size
        else:
            raise ValueError("vmap must have at least one non-None value in in_axes or axis_size must be specified")
        box = []

        def flat_fun(*xs):
            a, kw = tree_unflatten(in_tree, xs)
            out = fun(*a, **kw)
            of, ot = tree_flatten(out)
            box.append((ot, out))
            return of

        def out_dims(n):
            ot, out = box[0]
            return _prefix_leaves(out_axes, out, "vmap out_axes") if not isinstance(out_axes, int) or True else None
        with source_info.transform_name_stack("vmap"):
            outs = batching.batch_flat(flat_fun, size, axis_name, flat, norm_axes, out_dims)
        return tree_unflatten(box[0][0], outs)
    return vmapped


def _vmap_sizes_message(fun, args, kwargs, flat, axes, axis_size) -> str:
    """JAX's message naming each disagreeing mapped axis by argument name and key path."""
    from ..base.tree_util import keystr, tree_flatten_with_path
    try:
        params = list(inspect.signature(fun).bind(*args, **kwargs).signature.parameters)
    except (TypeError, ValueError):
        params = None

    def arg_name(path):
        i = path[0].idx
        if params is None or i >= len(params):
            return f"args{keystr(path)}"
        return f"argument {params[i]}" + (keystr(path[1:]) if len(path) > 1 else "")
    paths = [arg_name(p) for p, _ in tree_flatten_with_path(args)[0]]
    paths += [f"kwargs{keystr(p)}" for p, _ in tree_flatten_with_path(kwargs)[0]]
    where = [f"{p} of type {get_aval(x).str_short(short_dtypes=False)}" for p, x in zip(paths, flat)]
    sizes = [get_aval(x).shape[a] if a is not None else None for x, a in zip(flat, axes)]
    counts: dict = {}
    for sz in sizes:
        if sz is not None:
            counts[sz] = counts.get(sz, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: -kv[1])  # most common first, stable
    msg = ["vmap got inconsistent sizes for array axes to be mapped:\n"]
    if axis_size is not None:
        msg.append(f"  * the `axis_size` argument was {axis_size};\n")
    for k, (sz, ct) in enumerate(ordered):
        i = sizes.index(sz)
        if ct == 1:
            msg.append(f"  * one axis had size {sz}: axis {axes[i]} of {where[i]};\n")
        else:
            lead = "most" if k == 0 else "some"
            msg.append(f"  * {lead} axes ({ct} of them) had size {sz}, e.g. axis {axes[i]} of {where[i]};\n")
    return "".join(msg)[:-2]


# ---- devices and data movement ------------------------------------------------------------

def block_until_ready(x):
    if type(x) is Array:   # a concrete numpy-backed array: nothing to wait for (timing loops call this)
        return x
    for leaf in tree_leaves(x):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return x


# ---- custom derivatives -------------------------------------------------------------------

class custom_jvp:
    """A function with a user-defined jvp rule (used as the derivative under jvp/grad)."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None
        self.symbolic_zeros = False

    def defjvp(self, jvp, symbolic_zeros=False):
        # symbolic_zeros: the rule sees the tangents of unperturbed inputs as SymbolicZero objects
        self.jvp, self.symbolic_zeros = jvp, bool(symbolic_zeros)
        return jvp

    def defjvps(self, *jvps):
        def jvp(primals, tangents):  # (named as JAX's, which shows in jaxpr text)
            out = self(*primals)
            tans = [j(t, out, *primals) for j, t in zip(jvps, tangents) if j is not None]
            return out, functools.reduce(lambda a, b: a + b, tans)
        self.jvp = jvp

    def __call__(self, *args, **kwargs):
        if kwargs:
            sig = inspect.signature(self.fun)
            args = sig.bind(*args, **kwargs).args
        flat, tree = tree_flatten(args)
        top = tracing.find_top_trace(flat)
        nondiff_pos = [i for i in range(len(args)) if i in self.nondiff_argnums]
        dyn = tuple(a for i, a in enumerate(args) if i not in self.nondiff_argnums)
        if self.jvp is not None \
                and (tracing.dynamic_trace is not None or _vmapped_under_autodiff(top)) \
                and not isinstance(top, ad.JVPTrace) \
                and not any(isinstance(x, Tracer) for i in nondiff_pos for x in tree_leaves(args[i])) \
                and all(isinstance(x, (Tracer, Array, np.ndarray, np.generic, float, int)) for x in tree_leaves(dyn)):
            # inside jit/make_jaxpr: stage a custom_jvp_call (the rule applies if differentiated later);
            # nondiff arguments (functions, static parts) are closed over by the staged rule
            from ..primitives.custom import stage_custom_jvp
            if nondiff_pos:
                return stage_custom_jvp(_DiffArgsJVP(self, args, nondiff_pos), dyn, _fun_name(self.fun))
            return stage_custom_jvp(self, args, _fun_name(self.fun))
        if self.jvp is None or not isinstance(top, ad.JVPTrace):
            return self.fun(*args)
        from ..primitives.custom import custom_rule_tangent, from_rule_tangent
        nondiff = set(self.nondiff_argnums)
        primal_args, tangent_args = [], []
        for i, a in enumerate(args):
            if i in nondiff:
                primal_args.append(a)
                continue
            pl, pt = tree_flatten(a)
            ps, ts = [], []
            for leaf in pl:
                r = top.full_raise(leaf) if isinstance(leaf, Tracer) or True else leaf
                ps.append(r.primal)
                ts.append(custom_rule_tangent(r.tangent, self.symbolic_zeros))
            primal_args.append(tree_unflatten(pt, ps))
            tangent_args.append(tree_unflatten(pt, ts))
        diff_primals = tuple(a for i, a in enumerate(primal_args) if i not in nondiff)
        nd_vals = [primal_args[i] for i in sorted(nondiff)]
        out, tan = self.jvp(*nd_vals, diff_primals, tuple(tangent_args))
        of, ot = tree_flatten(out)
        tf, _ = tree_flatten(tan)
        res = [top.tracer_type(top, o, from_rule_tangent(o, t)) for o, t in zip(of, tf)]
        return tree_unflatten(ot, [tracing.full_lower(r) for r in res])


class custom_vjp:
    """A function with a user-defined vjp (fwd returns residuals, bwd maps them to cotangents)."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = self.bwd = None
        self.symbolic_zeros = False

    def defvjp(self, fwd, bwd, symbolic_zeros=False):
        # symbolic_zeros: fwd sees each primal leaf as a CustomVJPPrimal(value, perturbed) and bwd
        # gets SymbolicZero for the cotangents of outputs nothing depends on (primitives/custom.py)
        self.fwd, self.bwd, self.symbolic_zeros = fwd, bwd, bool(symbolic_zeros)

    def __call__(self, *args, **kwargs):
        if kwargs:
            args = inspect.signature(self.fun).bind(*args, **kwargs).args
        nondiff = [i for i in range(len(args)) if i in self.nondiff_argnums]
        dyn = tuple(a for i, a in enumerate(args) if i not in nondiff)
        if any(isinstance(x, Tracer) for i in nondiff for x in tree_leaves(args[i])):
            raise _nondiff_tracer_error()
        top = tracing.find_top_trace(tree_leaves(dyn))
        if self.fwd is not None \
                and (tracing.dynamic_trace is not None or _vmapped_under_autodiff(top)) \
                and not isinstance(top, ad.JVPTrace) \
                and all(isinstance(x, (Tracer, Array, np.ndarray, np.generic, float, int)) for x in tree_leaves(dyn)):
            # inside jit/make_jaxpr: stage a custom_vjp_call (fwd/bwd apply if differentiated later);
            # nondiff arguments (functions, too) are closed over by the staged fwd/bwd
            from ..primitives.custom import stage_custom_vjp
            staged = _DiffArgsVJP(self, args, nondiff) if nondiff else self
            return stage_custom_vjp(staged, dyn if nondiff else args, _fun_name(self.fun))
        if self.fwd is None or not isinstance(top, ad.JVPTrace):
            return self.fun(*args)
        if not isinstance(top, ad.LinearizeTrace):
            # JAX runs fwd on the primals first and fails on its linear part (a fwd's prints show)
            self.fwd(*tree_map(lambda x: x.primal if isinstance(x, ad.JVPTracer) and x._trace.main is top.main else x, args))
            raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")
        from ..primitives.custom import custom_lin
        return custom_lin(_DiffArgsVJP(self, args, nondiff) if nondiff else self, top, dyn)


def _nondiff_tracer_error():
    e = errors.UnexpectedTracerError.__new__(errors.UnexpectedTracerError)
    errors._JAXErrorMixin.__init__(  # (the class's own __init__ words a leaked tracer)
        e, "Found a JAX Tracer object passed as an argument to a custom_vjp function in a position indicated by "
        "nondiff_argnums as non-differentiable. Tracers cannot be passed as non-differentiable arguments to "
        "custom_vjp functions; instead, nondiff_argnums should only be used for arguments that can't be or "
        "contain JAX tracers, e.g. function-valued arguments. In particular, array-valued arguments should "
        "typically not be indicated as nondiff_argnums.")
    return e


def _vmapped_under_autodiff(top) -> bool:
    """vmap inside grad/vjp (jacrev(vmap(f))): the custom_vjp is staged as one equation, whose batching
    rule maps fwd/bwd, so the differentiation below sees the user's rule and not the primal body."""
    return isinstance(top, batching.BatchTrace) and any(
        issubclass(m.trace_type, ad.JVPTrace) for m in tracing.trace_stack[:top.main.level])


class _DiffArgsJVP:
    """A custom_jvp seen through its differentiable arguments (the nondiff ones fixed): the rule
    gets the nondiff arguments first, then the primals and tangents of the others (JAX's convention)."""

    def __init__(self, fn, args, nondiff):
        self.fn, self.args, self.nondiff = fn, args, nondiff
        self.symbolic_zeros = fn.symbolic_zeros
        self.jvp_name = getattr(fn.jvp, "__name__", "jvp")

    def fun(self, *dyn):
        it = iter(dyn)
        return self.fn.fun(*[self.args[i] if i in self.nondiff else next(it) for i in range(len(self.args))])

    def jvp(self, primals, tangents):
        return self.fn.jvp(*[self.args[i] for i in self.nondiff], primals, tangents)


class _DiffArgsVJP:
    """A custom_vjp seen through its differentiable arguments: fwd gets every argument, bwd gets the
    nondiff ones first (JAX's convention) and returns cotangents for the others only."""

    def __init__(self, fn, args, nondiff):
        self.fn, self.args, self.nondiff = fn, args, nondiff
        self.symbolic_zeros = fn.symbolic_zeros
        self.fwd_name = getattr(fn.fwd, "__name__", "fwd")
        self.bwd_name = getattr(fn.bwd, "__name__", "bwd")

    def fun(self, *dyn):
        it = iter(dyn)
        return self.fn.fun(*[self.args[i] if i in self.nondiff else next(it) for i in range(len(self.args))])

    def fwd(self, *dyn):
        it = iter(dyn)
        return self.fn.fwd(*[self.args[i] if i in self.nondiff else next(it) for i in range(len(self.args))])

    def bwd(self, res, ct):
        return self.fn.bwd(*[self.args[i] for i in self.nondiff], res, ct)


# ---- misc ---------------------------------------------------------------------------------

_NO_CONCRETE = object()


def checkpoint(fun, *, prevent_cse=True, policy=None, static_argnums=(), static_argnames=(),
               concrete=_NO_CONCRETE):
    """jax.checkpoint (see ad_checkpoint.py)."""
    if concrete is not _NO_CONCRETE:   # JAX 0.10's error for the old API (docs/jep/11830)
        raise NotImplementedError(
            "The `concrete` option to `jax.checkpoint` was deprecated in JAX v0.8.2, and removed in JAX "
            "v0.10.0. In its place please use `static_argnums`; for details refer to "
            "https://docs.jax.dev/en/latest/jep/11830-new-remat-checkpoint.html.")
    from .ad_checkpoint import _checkpoint
    return _checkpoint(fun, prevent_cse=prevent_cse, policy=policy, static_argnums=static_argnums)


def remat(fun, *, prevent_cse=True, policy=None, static_argnums=(), static_argnames=(), concrete=_NO_CONCRETE):
    """Alias of jax.checkpoint."""
    return checkpoint(fun, prevent_cse=prevent_cse, policy=policy, static_argnums=static_argnums,
                      static_argnames=static_argnames, concrete=concrete)


def named_call(fun, *, name=None):
    """JAX's: `fun` inside a name-stack entry (its name unless given), which the equations it traces
    carry (haiku names each module call this way; its jaxpr_info groups equations by them)."""
    return named_scope(fun.__name__ if name is None else name)(fun)


class named_scope(contextlib.ContextDecorator):
    """`with jax.named_scope(name):` or `@jax.named_scope(name)`: a name-stack entry; equations
    traced inside carry it (`pretty_print(name_stack=True)` shows `[name]`)."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError("named_scope name argument must be a string.")
        self.name = name
        self._active = []

    def __enter__(self):
        ctx = source_info.extend_name_stack(self.name)
        ctx.__enter__()
        self._active.append(ctx)  # a stack: a decorated function may recurse
        return self

    def __exit__(self, *exc):
        self._active.pop().__exit__(*exc)
        return False


def effects_barrier():
    """Waits for pending side effects: every computation here has finished when it returns."""
    return None


@contextlib.contextmanager
def ensure_compile_time_eval():
    """JAX's: inside, an operation on concrete values runs now, even while jit or make_jaxpr stages
    (`int(jnp.array(3))` works, `jnp.arange(3) * 2` is an Array); one on a traced value is staged
    as anywhere else. (It was a name scope: those ops were staged under a `compile_time_eval` name.)"""
    from ..tracing.array import trace_epoch
    saved = trace_epoch[0]
    trace_epoch[0] = 0   # Arrays made here count as made before the trace: constvars, conversions staged
    try:
        with tracing.hide_dynamic():
            yield
    finally:
        trace_epoch[0] = max(saved, trace_epoch[0])


