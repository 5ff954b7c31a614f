"""bfloat16 in the page's runtime: Pyodide (run by Node, the same runtime as the page's worker)
has no ml_dtypes, and its numpy (2.0.2) silently turns a dtype class it cannot read into `object`
arrays. Every use of bfloat16 there must raise NotImplementedError naming why, and float16 must
work as JAX's (values from JAX 0.10.2 quoted below)."""
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
    "dtypes_scalar": lambda: jax.dtypes.bfloat16(1.0),
    "astype": lambda: jnp.zeros(2).astype(jnp.bfloat16),
    "convert": lambda: jax.lax.convert_element_type(1.0, jnp.bfloat16),
    "uniform": lambda: jax.random.uniform(jax.random.PRNGKey(0), (2,), dtype=jnp.bfloat16),
    "array": lambda: jnp.array([1.0], dtype=jnp.bfloat16),
    "arange": lambda: jnp.arange(3, dtype=jnp.bfloat16),
    "float8": lambda: jnp.zeros(2, jnp.float8_e4m3fn),
}
out = {}
for name, use in uses.items():
    try:
        out[name] = "returned " + repr(use())
    except NotImplementedError as e:
        out[name] = "NotImplementedError" if "ml_dtypes" in str(e) else "NotImplementedError: " + str(e)
    except Exception as e:
        out[name] = f"{type(e).__name__}: {e}"
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


def test_bfloat16_in_pyodide_raises_and_float16_works(tmp_path):
    from tools import site
    pyodide = site.fetch_pyodide()
    official = json.loads((pyodide / "pyodide-lock.json").read_text())
    numpy_whl = site.fetch_wasm_wheels(official)["numpy"]
    (tmp_path / "probe.py").write_text(PY)
    (tmp_path / "run.mjs").write_text(MJS % {"pyodide": pyodide, "numpy": numpy_whl, "root": ROOT,
                                             "py": tmp_path / "probe.py"})
    node = shutil.which("node")
    assert node, "Node.js is needed to run Pyodide outside the browser (apt-get install nodejs)"
    proc = subprocess.run([node, str(tmp_path / "run.mjs")], capture_output=True, text=True, timeout=300)
    assert "@@" in proc.stdout, proc.stderr[-3000:]
    got = json.loads(proc.stdout.split("@@", 1)[1])
    assert got.pop("platform") == "emscripten"
    # JAX 0.10.2: jnp.ones(2, jnp.float16) + 1.0 -> Array([2., 2.], dtype=float16);
    # jnp.sum(jnp.arange(100.0, dtype=jnp.float16)) -> Array(4952., dtype=float16) (accumulated in float32)
    assert got.pop("f16_add") == "Array([2., 2.], dtype=float16)"
    assert got.pop("f16_sum") == "Array(4952., dtype=float16)"
    assert got == {name: "NotImplementedError" for name in got}, got
