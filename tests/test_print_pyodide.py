"""Printed float32/float16 scalars in the page's runtime (Pyodide's NumPy 2.0) read as real JAX
0.10.2 prints them on a current NumPy (2.3 and later switch a float32 at or above 1e6, a float16
at or above 1e3, to scientific form). The walk13 page showed `f = 9772631.0` and `cumsum last:
10000000.0` where JAX shows `9.772635e+06` and `1e+07`."""
from tests.test_dtypes_pyodide import run_in_pyodide

PY = r"""
import json, sys
sys.path.insert(0, "/wt")
import numpy as np
import core as jax, core.numpy as jnp
cases = {
    "str_sum": lambda: str(jnp.sum(jnp.ones(10_000_000))),
    "str_big": lambda: str(jnp.float32(9772635.0)),
    "str_1e7": lambda: str(jnp.array(1e7)),
    "repr_1e7": lambda: repr(jnp.array(1e7)),
    "str_neg": lambda: str(jnp.array(-1.5e6)),
    "str_below": lambda: str(jnp.float32(999999.0)),
    "repr_f16": lambda: repr(jnp.array(4952.0, jnp.float16)),
    "fmt_empty": lambda: f"{jnp.float32(9772635.0)}",
    "fmt_spec": lambda: f"{jnp.float32(9772635.0):.1f}",
    "str_f64like": lambda: str(jnp.array(123456.0)),
    "print_tuple": lambda: str((jnp.array(2e6), jnp.array(3.0))),
    "str_bf16": lambda: str(jnp.array(1e6, jnp.bfloat16)),
    "arr_str": lambda: str(jnp.array([1e6, 2e6])),
    "arr_mixed": lambda: str(jnp.array([1234567.0, -2.5, 3e6])),
    "arr_repr": lambda: repr(jnp.array([[1e6, 5e6], [7e6, 1.5e6]])),
    "arr_small": lambda: str(jnp.array([999999.0, 2.0])),
    "arr_f16": lambda: repr(jnp.array([1000.0, 2.5], jnp.float16)),
    "arr_cumsum": lambda: str(jnp.cumsum(jnp.full(4, 5e5))),
}
out = {k: f() for k, f in cases.items()}
out["numpy"] = np.__version__
out["platform"] = sys.platform
RESULT = json.dumps(out)
"""


# real JAX 0.10.2 on NumPy 2.4.6: arrays (NumPy 2.3+ takes the switch to exponents from the dtype's precision)
ARRAYS = {
    "arr_str": "[1.e+06 2.e+06]",
    "arr_mixed": "[ 1.234567e+06 -2.500000e+00  3.000000e+06]",
    "arr_repr": "Array([[1.0e+06, 5.0e+06],\n       [7.0e+06, 1.5e+06]], dtype=float32)",
    "arr_small": "[9.99999e+05 2.00000e+00]",
    "arr_f16": "Array([1.0e+03, 2.5e+00], dtype=float16)",
    "arr_cumsum": "[5.0e+05 1.0e+06 1.5e+06 2.0e+06]",
}


def test_big_float32_scalars_print_as_jax_on_a_current_numpy(tmp_path):
    got = run_in_pyodide(tmp_path, PY)
    assert got.pop("platform") == "emscripten"
    assert got.pop("numpy").startswith("2.0."), "the page's NumPy is older than 2.3: the case this test is for"
    # real JAX 0.10.2 on NumPy 2.4.6, the same expressions
    assert got == {
        "str_sum": "1e+07",
        "str_big": "9.772635e+06",
        "str_1e7": "1e+07",
        "repr_1e7": "Array(1.e+07, dtype=float32, weak_type=True)",
        "str_neg": "-1.5e+06",
        "str_below": "999999.0",
        "repr_f16": "Array(4.95e+03, dtype=float16)",
        "fmt_empty": "9772635.0",
        "fmt_spec": "9772635.0",
        "str_f64like": "123456.0",
        "print_tuple": "(Array(2.e+06, dtype=float32, weak_type=True), Array(3., dtype=float32, weak_type=True))",
        "str_bf16": "999424",
    } | ARRAYS, got
