"""`jax.extend.linear_util`: a function wrapped with the keyword parameters to call it with."""
from __future__ import annotations


class WrappedFun:
    """`wrap_init(f, params)`: calling `call_wrapped(*args)` runs `f(*args, **params)`."""

    def __init__(self, f, params, debug_info=None):
        self.f = f
        self.params = tuple(sorted(params.items()))
        self.debug_info = debug_info

    @property
    def __name__(self):
        return getattr(self.f, "__name__", "<unnamed wrapped function>")

    def call_wrapped(self, *args):
        return self.f(*args, **dict(self.params))

    def __eq__(self, other):
        return type(other) is WrappedFun and (self.f, self.params) == (other.f, other.params)

    def __hash__(self):
        return hash((self.f, self.params))

    def __repr__(self):
        return f"Wrapped function: {self.__name__}"


def wrap_init(f, params=None, *, debug_info=None) -> WrappedFun:
    return WrappedFun(f, params or {}, debug_info)


class Store:
    """A write-once box (JAX's transformations report auxiliary outputs through these)."""
    _EMPTY = object()

    def __init__(self):
        self._val = Store._EMPTY

    def store(self, val):
        if self._val is not Store._EMPTY:
            raise Exception("Store occupied")
        self._val = val

    @property
    def val(self):
        if self._val is Store._EMPTY:
            raise ValueError("Store empty")
        return self._val

    def __call__(self):
        return self.val


def transformation(gen, *fun_and_static):
    """JAX's generator transformation: `@transformation def t(*static, *args): outs = yield args, kwargs;
    yield result`. `t(fun, *static)` is a WrappedFun whose call runs the generator around `fun`
    (haiku's to_dot builds its interpreter this way). Curried, as JAX's: `transformation(gen)`."""
    if not fun_and_static:
        return lambda fun, *static: transformation(gen, fun, *static)
    fun, *static = fun_and_static

    def transformed(*args, **kwargs):
        inst = gen(*static, *args, **kwargs)
        inner_args, inner_kwargs = next(inst)
        return inst.send(fun.f(*inner_args, **{**dict(fun.params), **inner_kwargs}))
    transformed.__name__ = getattr(fun, "__name__", "transformed")
    return WrappedFun(transformed, {}, fun.debug_info)
