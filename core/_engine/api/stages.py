"""`jax.stages`: what `jit(f).trace(...)`, `.lower(...)` and `.compile()` return.

gradpad's jit has one real stage (the jaxpr; the CPU backend turns it into Python on first call),
so Lowered and Compiled both hold the traced jaxpr; `Lowered.as_text()` is the generated Python.
"""
from __future__ import annotations

from typing import Protocol

from ..tracing.rules import jaxpr_compiler

# JAX's as_text() is StableHLO (lowered) or XLA's HLO (compiled); gradpad has no XLA, and says so
AS_TEXT_HEADER = ("# gradpad has no XLA, so there is no StableHLO/HLO text: this is the Python its CPU backend\n"
                  "# runs for the jaxpr (print(traced.jaxpr) shows the program itself)\n")


class ArgInfo:
    """One argument of a traced call: its abstract value and whether it was donated."""
    __slots__ = ("_aval", "donated")

    def __init__(self, _aval, donated: bool):
        self._aval = _aval
        self.donated = donated

    shape = property(lambda self: self._aval.shape)
    dtype = property(lambda self: self._aval.dtype)

    def __eq__(self, other):
        return type(other) is ArgInfo and (self._aval, self.donated) == (other._aval, other.donated)

    def __hash__(self):
        return hash((self._aval, self.donated))

    def __repr__(self):
        return f"ArgInfo(_aval={self._aval!r}, donated={self.donated})"


class CompilerOptions(dict):
    """Backend options (`jit(f).lower(x).compile(compiler_options)`); gradpad has none to set."""


class Wrapped(Protocol):
    """What `jax.jit` returns: callable, with `trace`/`lower` stages."""

    def __call__(self, *args, **kwargs): ...

    def trace(self, *args, **kwargs) -> "Traced": ...

    def lower(self, *args, **kwargs) -> "Lowered": ...


def with_statics(fun, statics, static_kw):
    """`fun` called with only the dynamic arguments: as in JAX, `jit(f, static_argnums=0).trace(7, 8)
    .lower().compile()` is called as `compiled(5)`, the traced static values put back in place."""
    if not statics and not static_kw:
        return fun

    def call(*args, **kwargs):
        args = list(args)
        for pos, value in sorted(statics, key=lambda s: s[0]):  # ascending: each lands where it was traced
            args.insert(pos, value)
        return fun(*args, **kwargs, **static_kw)
    return call


class _Stage:
    def __init__(self, closed_jaxpr, consts, in_tree, out_tree, args_info, call):
        self.jaxpr = closed_jaxpr
        self.consts = consts
        self.in_tree = in_tree
        self.out_tree = out_tree
        self.args_info = args_info
        self._call = call

    @property
    def in_avals(self):
        from ..base.tree_util import tree_unflatten
        return tree_unflatten(self.in_tree, list(self.jaxpr.in_avals))

    @property
    def out_info(self):
        from .api import ShapeDtypeStruct  # lazy: api (layer 8) builds these stages
        from ..base.tree_util import tree_unflatten
        return tree_unflatten(self.out_tree, [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)
                                              for a in self.jaxpr.out_avals])


class Traced(_Stage):
    def lower(self, **_):
        return Lowered(self.jaxpr, self.consts, self.in_tree, self.out_tree, self.args_info, self._call)


class Lowered(_Stage):
    def compile(self, compiler_options=None):
        return Compiled(self.jaxpr, self.consts, self.in_tree, self.out_tree, self.args_info, self._call)

    def as_text(self, dialect=None, **_):
        cpu = jaxpr_compiler[0]  # the backends sit above everything else: core/_engine/tracing/rules.py
        return AS_TEXT_HEADER + cpu.compiled(self.jaxpr).source

    def cost_analysis(self):
        from .cost_analysis import cost_analysis  # lazy: a leaf module over the jaxpr
        return cost_analysis(self.jaxpr)

    def compiler_ir(self, dialect=None):
        """[libtests] JAX hands back XLA's module (StableHLO or HLO); gradpad compiles to numpy code, not XLA
        (optax's numerics tests compare HLO text). Say so rather than fail with an AttributeError."""
        raise NotImplementedError(
            f"Lowered.compiler_ir(dialect={dialect!r}): gradpad does not compile through XLA, so there is no "
            "StableHLO/HLO module. Read the program as a jaxpr (jax.make_jaxpr(f)(*args), or "
            "jax.jit(f).trace(*args).jaxpr) or as the numpy code it runs (.as_text()).")


class Compiled(_Stage):
    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)

    def as_text(self):
        return Lowered.as_text(self)

    def cost_analysis(self):
        return Lowered.cost_analysis(self)

    def memory_analysis(self):
        return None
