"""bfloat16 in the page's runtime: Pyodide (run by Node, the same runtime as the page's worker)
has no ml_dtypes, so the engine brings its own bfloat16 (core/_engine/base/bf16_emulated.py). Every use below
must give real JAX 0.10.2's answer (quoted beside it); float16 (numpy's) works as before, and the
float8 family, which only ml_dtypes could provide, still raises NotImplementedError naming why."""
import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PY = r"""
import json, sys
sys.path.insert(0, "/wt")
import core as jax, core.numpy as jnp
uses = {
    "ones": lambda: jnp.ones(2, jnp.bfloat16),
    "scalar": lambda: jnp.bfloat16(1.0),
    "dtypes_scalar": lambda: jax.dtypes.bfloat16(1.1),
    "astype": lambda: jnp.array([1.1, 2.2]).astype(jnp.bfloat16),
    "convert": lambda: jax.lax.convert_element_type(1.1, jnp.bfloat16),
    "uniform": lambda: jax.random.uniform(jax.random.PRNGKey(0), (3,), dtype=jnp.bfloat16),
    "normal": lambda: jax.random.normal(jax.random.PRNGKey(0), (3,), dtype=jnp.bfloat16),
    "array": lambda: jnp.array([1.1], dtype=jnp.bfloat16),
    "arange": lambda: jnp.arange(3, dtype=jnp.bfloat16),
    "chain": lambda: (jnp.array([1.1, 2.2, -3.3], jnp.bfloat16) * 3.1 + 0.7) / 1.3,
    "sum": lambda: jnp.sum(jnp.arange(100.0, dtype=jnp.bfloat16)),
    "jit": lambda: jax.jit(lambda x: jnp.sin(x) * 2 + 1)(jnp.array([0.5, 1.5], jnp.bfloat16)),
    "grad": lambda: jax.grad(lambda x: jnp.sin(x) * x)(jnp.bfloat16(1.5)),
    "finfo": lambda: jnp.finfo(jnp.bfloat16),
    "dtype": lambda: jnp.dtype("bfloat16"),
    "promote": lambda: jnp.promote_types(jnp.bfloat16, jnp.float16),
    "jaxpr": lambda: str(jax.make_jaxpr(lambda x: x * 1.1)(jnp.bfloat16(1))),
    "float8": lambda: jnp.zeros(2, jnp.float8_e4m3fn),
}
out = {}
for name, use in uses.items():
    try:
        out[name] = repr(use())
    except NotImplementedError as e:
        out[name] = "NotImplementedError" if "ml_dtypes" in str(e) else "NotImplementedError: " + str(e)
    except Exception as e:
        out[name] = f"{type(e).__name__}: {e}"
out["emulated"] = jax.dtypes.EMULATED_BF16
out["f16_add"] = repr(jnp.ones(2, jnp.float16) + 1.0)
out["f16_sum"] = repr(jnp.sum(jnp.arange(100.0, dtype=jnp.float16)))
out["platform"] = sys.platform
RESULT = json.dumps(out)
"""

MJS = """
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
import fs from "fs";
const py = await loadPyodide({ indexURL: "%(pyodide)s/" });
py.unpackArchive(new Uint8Array(fs.readFileSync("%(numpy)s")), "wheel", { extractDir: "/lib/python3.12/site-packages" });
py.FS.mkdirTree("/wt");
py.FS.mount(py.FS.filesystems.NODEFS, { root: "%(root)s" }, "/wt");
py.runPython(fs.readFileSync("%(py)s", "utf8"));
console.log("@@" + py.globals.get("RESULT"));
"""


def run_in_pyodide(tmp_path, source: str) -> dict:
    """`source` (which sets RESULT to a JSON string) run by Pyodide with its NumPy in Node.js, the
    checkout mounted at /wt; returns RESULT read back."""
    from tools import site
    pyodide = site.fetch_pyodide()
    official = json.loads((pyodide / "pyodide-lock.json").read_text())
    numpy_whl = site.fetch_wasm_wheels(official)["numpy"]
    (tmp_path / "probe.py").write_text(source)
    (tmp_path / "run.mjs").write_text(MJS % {"pyodide": pyodide, "numpy": numpy_whl, "root": ROOT,
                                             "py": tmp_path / "probe.py"})
    node = shutil.which("node")
    assert node, "Node.js is needed to run Pyodide outside the browser (apt-get install nodejs)"
    proc = subprocess.run([node, str(tmp_path / "run.mjs")], capture_output=True, text=True, timeout=300)
    assert "@@" in proc.stdout, proc.stderr[-3000:]
    got = json.loads(proc.stdout.split("@@", 1)[1])
    return got


def test_bfloat16_in_pyodide_gives_jax_values_and_float16_works(tmp_path):
    got = run_in_pyodide(tmp_path, PY)
    assert got.pop("platform") == "emscripten"
    # JAX 0.10.2: jnp.ones(2, jnp.float16) + 1.0 -> Array([2., 2.], dtype=float16);
    # jnp.sum(jnp.arange(100.0, dtype=jnp.float16)) -> Array(4.95e+03, dtype=float16) (accumulated in float32;
    # NumPy 2.3+ prints a float16 at or above 1e3 in scientific form, as JAX 0.10.2 on NumPy 2.4.6 shows)
    assert got.pop("f16_add") == "Array([2., 2.], dtype=float16)"
    assert got.pop("f16_sum") == "Array(4.95e+03, dtype=float16)"
    assert got.pop("emulated") is True
    # JAX 0.10.2 (CPython, ml_dtypes), the same expressions: repr of each result
    assert got == {
        "ones": "Array([1, 1], dtype=bfloat16)",
        "scalar": "Array(1, dtype=bfloat16)",
        "dtypes_scalar": "1.10156",
        "astype": "Array([1.10156, 2.20312], dtype=bfloat16)",
        "convert": "Array(1.10156, dtype=bfloat16)",
        "uniform": "Array([0.648438, 0.570312, 0.15625], dtype=bfloat16)",
        "normal": "Array([0.386719, 0.182617, -1], dtype=bfloat16)",
        "array": "Array([1.10156], dtype=bfloat16)",
        "arange": "Array([0, 1, 2], dtype=bfloat16)",
        "chain": "Array([3.15625, 5.78125, -7.3125], dtype=bfloat16)",
        "sum": "Array(4960, dtype=bfloat16)",
        "jit": "Array([1.95312, 3], dtype=bfloat16)",
        "grad": "Array(1.10156, dtype=bfloat16)",
        "finfo": "finfo(resolution=0.0100098, min=-3.38953e+38, max=3.38953e+38, dtype=bfloat16)",
        "dtype": "dtype(bfloat16)",
        "promote": "dtype('float32')",
        "jaxpr": repr("{ lambda ; a:bf16[]. let b:bf16[] = mul a 1.1015625:bf16[] in (b,) }"),
        "float8": "NotImplementedError",   # (JAX has it from ml_dtypes; gradpad cannot, and says so)
    }, got
