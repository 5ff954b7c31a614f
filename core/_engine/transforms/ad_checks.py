"""The dtype checks that grad, jacfwd, jacrev and vjp functions make on their inputs, outputs and
cotangents, with JAX's messages. They are what stops a silent wrong answer: without
`holomorphic=True`, differentiating a complex-valued output is an error, as in JAX."""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..base.prng_dtype import KEY_DTYPE, KEY_NAME
from ..tracing.tracing import get_aval


def _kind(x) -> str:
    dt = get_aval(x).dtype
    return "u" if dt == KEY_DTYPE else dtypes.kind(dt)  # (bfloat16 is a float here, as in JAX; a typed
    # PRNG key is no inexact dtype: grad refuses it as it does an integer, allow_int lets it through)


def _name(x) -> str:
    dt = get_aval(x).dtype
    return KEY_NAME if dt == KEY_DTYPE else dt.name


def check_input_revderiv(name: str, holomorphic: bool, allow_int: bool, x) -> None:
    """grad / jacrev inputs: complex for holomorphic=True; inexact unless allow_int."""
    if holomorphic and _kind(x) != "c":
        raise TypeError(f"{name} with holomorphic=True requires inputs with complex dtype, but got {_name(x)}.")
    if _kind(x) in "biu":
        if not allow_int:
            raise TypeError(f"{name} requires real- or complex-valued inputs (input dtype that is a sub-dtype "
                            f"of np.inexact), but got {_name(x)}. If you want to use Boolean- or integer-valued "
                            "inputs, use vjp or set allow_int to True.")
    elif _kind(x) not in "fc":
        raise TypeError(f"{name} requires numerical-valued inputs (input dtype that is a sub-dtype of np.bool_ "
                        f"or np.number), but got {_name(x)}.")


def check_output_revderiv(name: str, holomorphic: bool, x) -> None:
    """grad / jacrev outputs: complex iff holomorphic=True, and never integer."""
    if holomorphic:
        if _kind(x) != "c":
            raise TypeError(f"{name} with holomorphic=True requires outputs with complex dtype, but got "
                            f"{_name(x)}.")
    elif _kind(x) == "c":
        raise TypeError(f"{name} requires real-valued outputs (output dtype that is a sub-dtype of np.floating), "
                        f"but got {_name(x)}. For holomorphic differentiation, pass holomorphic=True. For "
                        "differentiation of non-holomorphic functions involving complex outputs, use jax.vjp "
                        "directly.")
    elif _kind(x) != "f":
        raise TypeError(f"{name} requires real-valued outputs (output dtype that is a sub-dtype of np.floating), "
                        f"but got {_name(x)}. For differentiation of functions with integer outputs, use "
                        "jax.vjp directly.")


def check_input_jacfwd(holomorphic: bool, x) -> None:
    if holomorphic:
        if _kind(x) != "c":
            raise TypeError(f"jacfwd with holomorphic=True requires inputs with complex dtype, but got {_name(x)}.")
    elif _kind(x) != "f":
        raise TypeError(f"jacfwd requires real-valued inputs (input dtype that is a sub-dtype of np.floating), "
                        f"but got {_name(x)}. For holomorphic differentiation, pass holomorphic=True. For "
                        "differentiation of non-holomorphic functions involving complex inputs or integer "
                        "inputs, use jax.jvp directly.")


def check_output_jacfwd(holomorphic: bool, x) -> None:
    if holomorphic and _kind(x) != "c":
        raise TypeError(f"jacfwd with holomorphic=True requires outputs with complex dtype, but got {_name(x)}.")


def check_cotangent(ct, out_aval) -> None:
    """A vjp function's cotangent must have its output's shape and dtype (weak types aside; integer
    outputs take float0 cotangents)."""
    got = get_aval(ct)
    no_tangent = out_aval.dtype.kind in "biu" or out_aval.dtype == KEY_DTYPE   # (a key's is float0 too)
    if no_tangent:
        expected_dtype = np.dtype([("float0", np.void, 0)])
        ok = got.shape == out_aval.shape
    else:
        expected_dtype = out_aval.dtype
        ok = got.shape == out_aval.shape and got.dtype == out_aval.dtype
    if not ok:
        expected = f"{'float0' if no_tangent else expected_dtype.name}" \
                   f"[{','.join(map(str, out_aval.shape))}]"
        raise ValueError("unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got "
                         f"{got.str_short(short_dtypes=False)}, but expected {expected} because the corresponding "
                         f"output of the differentiated function had JAX type "
                         f"{out_aval.str_short(short_dtypes=False)}")
