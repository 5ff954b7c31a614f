"""`jax.interpreters.xla`: the few names libraries still read (TensorFlow Probability's JAX
substrate registers its types in `canonicalize_dtype_handlers`). gradpad has no XLA: a primitive
is applied by binding it, which evaluates it with the engine's numpy rules."""
from __future__ import annotations

# type -> function giving the canonical value of an instance; registering is accepted (gradpad
# canonicalizes arrays by dtype, so a registered handler is kept for libraries that read it back)
canonicalize_dtype_handlers: dict = {}


def apply_primitive(prim, *args, **params):
    """Evaluate `prim` on concrete arguments (JAX compiles and runs it; here it is bound)."""
    return prim.bind(*args, **params)


class Backend:
    """Stands for XLA's client type in annotations; gradpad's devices are in jax.devices()."""
