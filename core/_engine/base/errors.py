"""Every error the engine raises on purpose, with JAX's class names, hierarchy and messages.

Each message starts with JAX's first line, adds a hint that teaches the fix, and ends with the
link JAX prints, so a learner can search for it.
"""
from __future__ import annotations

_DOCS = "https://docs.jax.dev/en/latest/errors.html#jax.errors."


class _JAXErrorMixin:
    """Appends JAX's 'See https://...#jax.errors.<Class>' footer."""

    def __init__(self, message: str):
        name = type(self).__name__
        super().__init__(f"{message}\nSee {_DOCS}{name}")


class JAXTypeError(_JAXErrorMixin, TypeError):
    pass


class JAXIndexError(_JAXErrorMixin, IndexError):
    pass


class ConcretizationTypeError(JAXTypeError):
    def __init__(self, tracer, context: str = ""):
        if context and not context.endswith("\n"):
            context += "\n"
        super().__init__(
            f"Abstract tracer value encountered where concrete value is expected: {_describe(tracer)}\n"
            f"{context}{_tracing_line(tracer)}"
            "The value depends on a traced argument, so Python cannot know it while tracing. "
            "Mark the argument static (static_argnums / static_argnames), or use lax.cond / "
            "jnp.where instead of Python control flow.\n"
        )


class TracerBoolConversionError(ConcretizationTypeError):
    def __init__(self, tracer):
        _JAXErrorMixin.__init__(
            self,
            f"Attempted boolean conversion of {_describe(tracer)}.\n"
            f"{_tracing_line(tracer)}"
            "Python `if`/`while`/`and`/`or` need a concrete bool, but this value is only known when "
            "the function runs. Use jax.lax.cond or jnp.where for value-dependent branches, or mark "
            "the argument static with static_argnums/static_argnames if it is a configuration value.\n",
        )


class TracerIntegerConversionError(JAXTypeError):
    def __init__(self, tracer):
        super().__init__(
            f"The __index__() method was called on {_describe(tracer)}\n"
            "A traced value cannot be used as a Python int (an index, a shape, a range bound). "
            "Mark the argument static (static_argnums) or use lax.dynamic_slice / lax.fori_loop.\n"
        )


class TracerArrayConversionError(JAXTypeError):
    def __init__(self, tracer):
        super().__init__(
            f"The numpy.ndarray conversion method __array__() was called on {_describe(tracer)}\n"
            "numpy functions cannot see inside a traced function: use jax.numpy (jnp) instead of "
            "numpy (np) on traced values.\n"
        )


class NonConcreteBooleanIndexError(JAXIndexError):
    def __init__(self, tracer):
        aval = getattr(tracer, "aval", tracer)
        super().__init__(
            f"Array boolean indices must be concrete; got {_type_str(aval)}\n"
            "The result's shape would depend on the mask's values. Use jnp.where(mask, x, 0) or "
            "jnp.sum(x, where=mask) instead of x[mask] inside jit/vmap/grad.\n"
        )


class UnexpectedTracerError(JAXTypeError):  # a TypeError, as JAX's
    def __init__(self, message: str):
        super().__init__(
            "Encountered an unexpected tracer. A function transformed by JAX had a side effect, "
            "allowing for a reference to an intermediate value with type "
            f"{message} to escape the scope of the transformation.\n"
            "JAX transformations require that functions explicitly return their outputs, and disallow "
            "saving intermediate values to global state.\n"
            "To catch the leak earlier, try setting the environment variable JAX_CHECK_TRACER_LEAKS or "
            "using the `jax.checking_leaks` context manager.\n"
        )


class KeyReuseError(_JAXErrorMixin, Exception):
    pass


class InconclusiveDimensionOperation(Exception):
    """A shape computation with symbolic dimensions has no definite answer."""


class JaxRuntimeError(RuntimeError):
    """An error raised while running a computation (not while tracing it)."""


class JaxprTypeError(TypeError):
    """A jaxpr whose equations disagree with their primitives' types (`check_jaxpr`)."""


def _type_str(aval) -> str:
    """`float32[2,3]`: JAX's spelling of an aval in error messages (no weak-type marker)."""
    from .dtypes import dtype_name  # (the emulated bfloat16's storage is named float32)
    short = aval.str_short() if hasattr(aval, "str_short") else str(aval)
    return f"{dtype_name(aval.dtype)}[{','.join(str(d) for d in aval.shape)}]" if hasattr(aval, "shape") else short


def _tracing_line(tracer) -> str:
    """JAX's "The error occurred while tracing the function f at file:line for jit. ..." line."""
    from .trace_debug import tracing_line
    return tracing_line(tracer)


def _describe(tracer) -> str:
    aval = getattr(tracer, "aval", None)
    if aval is None:
        return "traced value"
    return f"traced array with shape {_type_str(aval)}"


from ._public import missing_attribute as _missing_attribute, set_public_module  # noqa: E402
set_public_module("jax.errors", JAXTypeError, JAXIndexError, ConcretizationTypeError, TracerBoolConversionError,
                  TracerIntegerConversionError, TracerArrayConversionError, NonConcreteBooleanIndexError,
                  UnexpectedTracerError, KeyReuseError, InconclusiveDimensionOperation, JaxRuntimeError,
                  JaxprTypeError)
__getattr__ = _missing_attribute(__name__)
