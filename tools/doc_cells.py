"""JAX's tutorials as an acceptance test: run each tutorial's code cells in order under real JAX
(the oracle) and under gradpad, and report the cells whose output differs.

    python tools/doc_cells.py --git-dir /path/to/jax/.git            # the main tutorials, at jax-v0.10.2
    python tools/doc_cells.py --git-dir /path/to/jax/.git --all      # and the further guides and extra pages
    python tools/doc_cells.py --git-dir /path/to/jax/.git --extra    # only the extra pages (docs/doc_cells.md)
    python tools/doc_cells.py --git-dir /path/to/jax/.git --notes    # only the design notes and API pages
    python tools/doc_cells.py --git-dir /path/to/jax/.git --api      # only the API reference's docstring examples
    python tools/doc_cells.py ... --strict                            # errors' messages too, numbers to 1e-6
    python tools/doc_cells.py --docs /path/to/jax/docs --only pytrees -v
    python tools/doc_cells.py ... --json out.json                     # the per-cell results

A cell's output is what a notebook shows: its printed text and the repr of a last bare
expression, or the class of the error it raises. Outputs compare equal when their text matches
with numbers equal to a relative 1e-4 (float32 ulps of transcendental functions differ between
XLA and numpy), memory addresses and timings blanked. `%timeit`/`%time` lines run their statement
once and print nothing; shell lines (`!pip ...`) are skipped.

The same file is the cell runner (`--run-cells`, started once per tutorial and side in a fresh
interpreter), so it imports only the standard library at the top.
"""
from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import traceback
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REV = "jax-v0.10.2"
DEFAULT_ORACLE = os.environ.get("GRADPAD_JAX_PYTHON", "/work/jax-venv/bin/python")

# The main tutorials (name -> path under the jax repository)
TUTORIALS = {
    "thinking_in_jax": "docs/notebooks/thinking_in_jax.md",
    "key_concepts": "docs/key-concepts.md",
    "jit": "docs/jit-compilation.md",
    "autodiff": "docs/automatic-differentiation.md",
    "vmap": "docs/automatic-vectorization.md",
    "pytrees": "docs/pytrees.md",
    "random": "docs/random-numbers.md",
    "control_flow": "docs/control-flow.md",
    "sharp_bits": "docs/notebooks/Common_Gotchas_in_JAX.md",
    "autodiff_cookbook": "docs/notebooks/autodiff_cookbook.md",
    "custom_derivatives": "docs/notebooks/Custom_derivative_rules_for_Python_code.md",
    "stateful": "docs/stateful-computations.md",
    "faq": "docs/faq.rst",
}

# Further guides (`--all`): the advanced autodiff, debugging, callbacks and internals pages
MORE_TUTORIALS = {
    "higher_order": "docs/higher-order.md",
    "jvp_vjp": "docs/jacobian-vector-products.md",
    "complex_diff": "docs/complex-differentiation.md",
    "checkpointing": "docs/gradient-checkpointing.md",
    "autodiff_remat": "docs/notebooks/autodiff_remat.md",
    "debugging": "docs/debugging.md",
    "external_callbacks": "docs/external-callbacks.md",
    "custom_pytrees": "docs/custom_pytrees.md",
    "tracing": "docs/tracing.md",
    "jaxpr": "docs/jaxpr.md",
    "jax_primitives": "docs/jax-primitives.md",
    "array_refs": "docs/array_refs.md",
    "convolutions": "docs/notebooks/convolutions.md",
    "vmapped_log_probs": "docs/notebooks/vmapped_log_probs.md",
    "custom_interpreters": "docs/notebooks/Writing_custom_interpreters_in_Jax.md",
}
# Pages a learner reads beyond the tutorials (`--extra`, and in `--all`): dtypes and promotion,
# AOT, donation, debugging guides, the internals walk-throughs, parallelism on one CPU device,
# configuration, pmap's migration, export. Some are placeholders or toctrees without code (0 cells); they are kept so the
# table shows they were read.
EXTRA_TUTORIALS = {
    "type_promotion": "docs/type_promotion.rst",
    "default_dtypes": "docs/default_dtypes.md",
    "advanced_autodiff": "docs/advanced_autodiff.md",
    "buffer_donation": "docs/buffer_donation.md",
    "aot": "docs/aot.md",
    "checkify_guide": "docs/debugging/checkify_guide.md",
    "print_breakpoint": "docs/debugging/print_breakpoint.md",
    "debug_flags": "docs/debugging/flags.md",
    "simple_neural_network": "docs/_tutorials/simple-neural-network.md",
    "advanced_debugging": "docs/_tutorials/advanced-debugging.md",
    "advanced_compilation": "docs/_tutorials/advanced-compilation.md",
    "training_cookbook": "docs/the-training-cookbook.rst",
    "rank_promotion": "docs/rank_promotion_warning.rst",
    "async_dispatch": "docs/async_dispatch.rst",
    "errors": "docs/errors.rst",
    "autodidax": "docs/autodidax.md",
    "autodidax2": "docs/autodidax2_part1.md",
    "nn_data_loading": "docs/notebooks/Neural_Network_and_Data_Loading.md",
    "shard_map": "docs/notebooks/shard_map.md",
    "parallel": "docs/parallel.md",
    "config_options": "docs/config_options.rst",
    "transfer_guard": "docs/transfer_guard.rst",
    "migrate_pmap": "docs/migrate_pmap.md",
    "export": "docs/export/export.md",
    "shape_poly": "docs/export/shape_poly.md",
    "internals_constants": "docs/internals/constants.md",
}
# Design notes and API pages with runnable code a learner meets from the tutorials (`--notes`, and
# in `--all`): type promotion's design, typed keys and the PRNG, custom derivatives' design,
# omnistaging, effects, remat, the array protocol and annotations, the debugging index, and the
# jax.numpy / jax.random API pages' examples. Pages about GPUs/TPUs, several processes, Pallas,
# FFI builds or profilers are not run (gradpad has none of those).
NOTES_TUTORIALS = {
    "type_promotion_jep": "docs/jep/9407-type-promotion.md",
    "typed_keys": "docs/jep/9263-typed-keys.md",
    "prng_design": "docs/jep/263-prng.md",
    "stateful_rng": "docs/jep/28845-stateful-rng.md",
    "custom_derivatives_jep": "docs/jep/2026-custom-derivatives.md",
    "custom_vjp_update": "docs/jep/4008-custom-vjp-update.md",
    "omnistaging": "docs/jep/4410-omnistaging.md",
    "sequencing_effects": "docs/jep/10657-sequencing-effects.md",
    "new_remat": "docs/jep/11830-new-remat-checkpoint.md",
    "type_annotations": "docs/jep/12049-type-annotations.md",
    "array_protocol": "docs/jep/28661-jax-array-protocol.md",
    "jex": "docs/jep/15856-jex.md",
    "debugging_index": "docs/debugging/index.md",
    "benchmarking": "docs/benchmarking.md",
    "jax_numpy_api": "docs/jax.numpy.rst",
    "jax_random_api": "docs/jax.random.rst",
}
# The API reference's examples (`--api`, and in `--all`): the `>>>` examples in the docstrings of a
# source file of JAX (what jax.readthedocs.io shows under each function), run in source order in one
# namespace with the names JAX's doctests get.
API_DOCSTRINGS = {
    "api_transforms": "jax/_src/api.py",
    "api_loops": "jax/_src/lax/control_flow/loops.py",
    "api_conditionals": "jax/_src/lax/control_flow/conditionals.py",
    "api_custom_derivatives": "jax/_src/custom_derivatives.py",
    "api_ad_checkpoint": "jax/_src/ad_checkpoint.py",
    "api_checkify": "jax/_src/checkify.py",
    "api_debugging": "jax/_src/debugging.py",
    "api_tree_util": "jax/_src/tree_util.py",
    "api_tree": "jax/_src/tree.py",
    "api_dtypes": "jax/_src/dtypes.py",
    "api_random_core": "jax/_src/random/core.py",
    "api_random_prng": "jax/_src/random/prng.py",
    "api_lax": "jax/_src/lax/lax.py",
    "api_lax_slicing": "jax/_src/lax/slicing.py",
    "api_scatter": "jax/_src/ops/scatter.py",
    "api_nn": "jax/_src/nn/functions.py",
    "api_array_methods": "jax/_src/numpy/array_methods.py",
    "api_indexing": "jax/_src/numpy/indexing.py",
    "api_array_creation": "jax/_src/numpy/array_creation.py",
    "api_array_constructors": "jax/_src/numpy/array_constructors.py",
    "api_lax_numpy": "jax/_src/numpy/lax_numpy.py",
    "api_reductions": "jax/_src/numpy/reductions.py",
    "api_ufuncs": "jax/_src/numpy/ufuncs.py",
    "api_ufunc_api": "jax/_src/numpy/ufunc_api.py",
    "api_linalg": "jax/_src/numpy/linalg.py",
    "api_setops": "jax/_src/numpy/setops.py",
    "api_sorting": "jax/_src/numpy/sorting.py",
    "api_einsum": "jax/_src/numpy/einsum.py",
    "api_tensor_contractions": "jax/_src/numpy/tensor_contractions.py",
    "api_index_tricks": "jax/_src/numpy/index_tricks.py",
    "api_polynomial": "jax/_src/numpy/polynomial.py",
    "api_fft": "jax/_src/numpy/fft.py",
    "api_vectorize": "jax/_src/numpy/vectorize.py",
    "api_numpy_util": "jax/_src/numpy/util.py",
}
ALL_TUTORIALS = {**TUTORIALS, **MORE_TUTORIALS, **EXTRA_TUTORIALS, **NOTES_TUTORIALS, **API_DOCSTRINGS}

# `.. autoclass::` pages show a class's docstring; its examples are read from this source file
DOCSTRING_SOURCES = {"jax.errors": "jax/_src/errors.py"}

CELL_TIMEOUT_S = 120
# JAX's doctests (and so its rst pages' `>>>` examples) run with these names already imported
DOCTEST_PREAMBLE = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom jax import lax\n"


# ---- reading the tutorials ------------------------------------------------------------------

def read_doc(rel: str, docs: str | None, git_dir: str | None, rev: str) -> str:
    if git_dir:
        return subprocess.run(["git", "--git-dir", git_dir, "show", f"{rev}:{rel}"], check=True,
                              capture_output=True, text=True).stdout
    return (Path(docs).parent / rel).read_text() if docs else Path(rel).read_text()


_MYST_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```\s*$", re.S | re.M)


def myst_cells(text: str) -> list[str]:
    """The code of each ```{code-cell} block, minus its option lines (`:tags: ...` or a ---/--- header).
    A page without code cells shows its code in ```python fences: those are its cells then."""
    cells = []
    for m in _MYST_CELL.finditer(text):
        lines = m.group(1).split("\n")
        if lines and lines[0].strip() == "---":
            end = lines.index("---", 1) if "---" in lines[1:] else 0
            lines = lines[end + 1:]
        while lines and re.match(r"^:\w[\w-]*:", lines[0]):
            lines = lines[1:]
        cells.append("\n".join(lines).strip("\n"))
    if not cells:
        for m in _MYST_FENCE.finditer(text):
            cells.extend(_block_cells(textwrap.dedent(m.group(2))))
    return cells


_MYST_FENCE = re.compile(r"^([ \t]*)```(?:python|py|python3|ipython3?)[ \t]*\n(.*?)^\1```[ \t]*$", re.S | re.M)


def _block_cells(body: str) -> list[str]:
    """A shown code block: its `>>>` examples when it is a doctest, else the whole block as one cell."""
    if re.search(r"^\s*>>>", body, re.M):
        return doctest_cells(body)
    body = body.strip("\n")
    return [body] if body.strip() else []


def doctest_cells(text: str) -> list[str]:
    """Each run of `>>> ` / `... ` lines of an rst page (an example's code; its shown output is not used)."""
    cells, cur = [], []
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith(">>>") or (cur and s.startswith("...")):
            cur.append(s[4:] if len(s) > 3 else "")
        elif cur:
            cells.append("\n".join(cur))
            cur = []
    if cur:
        cells.append("\n".join(cur))
    return cells


# rst directives whose body is Python a reader runs (other languages' blocks are not run)
_RST_DIRECTIVE = re.compile(r"^(\s*)\.\. ([\w-]+)::[ \t]*(.*)$")
_RST_CODE = {"code-block", "code", "sourcecode", "testcode", "ipython"}
_PY_LANGS = {"", "python", "py", "python3", "ipython", "ipython3", "pycon"}


def _rst_body(lines: list[str], i: int, indent: int) -> tuple[str, int]:
    """The indented body of the directive on line i-1 (option lines dropped), and the line after it."""
    body = []
    while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
        body.append(lines[i])
        i += 1
    while body and (not body[0].strip() or re.match(r"^\s*:[\w-]+:", body[0])):
        body.pop(0)
    return textwrap.dedent("\n".join(body)), i


def _tagged_block(source: str, spec: str) -> str:
    """The lines between two `# tag: NAME` markers of a companion script; `NAME 5:7` or `NAME 8`
    selects those lines of it (1-based, as the docs' tagged-block directive does)."""
    name, _, sel = spec.partition(" ")
    src = source.split("\n")
    marks = [k for k, ln in enumerate(src) if re.search(rf"#\s*tag:\s*{re.escape(name)}\s*$", ln)]
    if not marks:
        return ""
    end = marks[1] if len(marks) > 1 else len(src)
    block = src[marks[0] + 1:end]
    if len(marks) > 1:  # the closing marker ends a code line: keep that line, minus the marker
        block.append(re.sub(r"\s*#\s*tag:.*$", "", src[end]))
    if sel.strip():
        a, _, b = sel.strip().partition(":")
        block = block[int(a) - 1:int(b) if b else int(a)]
    return textwrap.dedent("\n".join(block)).strip("\n")


def _class_docstring(source: str, name: str) -> str:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return ast.get_docstring(node) or ""
    return ""


def rst_cells(text: str, read=None) -> list[str]:
    """An rst page's code in reading order: `>>>` examples anywhere, Python `code-block`s,
    `tagged-block`s of a companion script and the examples in an `autoclass`'s docstring
    (`read(rel)` reads a file of the jax repository for the last two)."""
    lines, cells, i, module, prose = text.split("\n"), [], 0, "", []
    while i < len(lines):
        m = _RST_DIRECTIVE.match(lines[i])
        if not m:
            prose.append(lines[i])
            i += 1
            continue
        cells.extend(doctest_cells("\n".join(prose)))
        prose = []
        indent, kind, arg = len(m.group(1)), m.group(2), m.group(3).strip()
        body, i = _rst_body(lines, i + 1, indent)
        if kind in _RST_CODE:
            if arg.lower() in _PY_LANGS:
                cells.extend(_block_cells(body))
        elif kind == "tagged-block" and read:
            script, _, spec = arg.partition(" ")
            code = _tagged_block(read(f"docs/{script}"), spec)
            if code:
                cells.append(code)
        elif kind == "currentmodule":
            module = arg
        elif kind == "autoclass" and read and module in DOCSTRING_SOURCES:
            cells.extend(doctest_cells(_class_docstring(read(DOCSTRING_SOURCES[module]), arg)))
        else:  # admonitions, notes, ... hold prose and nested code blocks
            cells.extend(rst_cells(body, read))
    cells.extend(doctest_cells("\n".join(prose)))
    return cells


def docstring_cells(source: str) -> list[str]:
    """The `>>>` examples of every docstring of a Python source file (module, classes, functions,
    methods), in source order."""
    tree = ast.parse(source)
    nodes = [tree] + sorted((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                          ast.ClassDef))),
                            key=lambda n: n.lineno)
    return [c for n in nodes for c in doctest_cells(ast.get_docstring(n) or "")]


def cells_of(rel: str, text: str, read=None) -> list[str]:
    if rel.endswith(".py"):
        return docstring_cells(text)
    return rst_cells(text, read) if rel.endswith(".rst") else myst_cells(text)


# ---- running cells (inside the fresh interpreter) ---------------------------------------------

_MAGIC = re.compile(r"^(\s*)%{1,2}(timeit|time)\b(\s+-\S+(\s+\d+)?)*\s*(.*)$")


def strip_magics(code: str) -> str:
    """%timeit/%time X -> X; %%timeit/%%time cell magic -> the body; !shell lines dropped."""
    out = []
    for line in code.split("\n"):
        if line.lstrip().startswith("!"):
            continue
        m = _MAGIC.match(line)
        if m:
            body = m.group(5)
            if line.lstrip().startswith("%%"):
                continue  # the cell magic line itself; the body follows
            out.append(m.group(1) + (body if body else "pass"))
            continue
        out.append(line)
    return "\n".join(out)


def _timeout(signum, frame):
    raise TimeoutError(f"cell ran over {CELL_TIMEOUT_S} s")


def run_cell(code: str, ns: dict) -> dict:
    buf = io.StringIO()
    result = {"stdout": "", "display": None, "error": None}
    try:
        tree = ast.parse(strip_magics(code))
        last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        if last is not None:
            tree.body = tree.body[:-1]
        signal.alarm(CELL_TIMEOUT_S)
        with redirect_stdout(buf):
            exec(compile(tree, "<cell>", "exec"), ns)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), ns)
                if value is not None:
                    result["display"] = repr(value)
    except BaseException as e:  # noqa: BLE001  (a cell's error is its output)
        if isinstance(e, KeyboardInterrupt):
            raise
        result["error"] = {"type": type(e).__name__, "message": (str(e).split("\n") or [""])[0][:300]}
        if os.environ.get("DOC_CELLS_TRACE"):
            result["error"]["trace"] = traceback.format_exc()[-3000:]
    finally:
        signal.alarm(0)
    result["stdout"] = buf.getvalue()
    return result


def prepare_interpreter(engine_root: str | None) -> None:
    """A fresh runner's set-up, the same on both sides: gradpad installed as `jax` (when engine_root
    is given), the cell timeout armed, warnings off, and Python's and numpy's global RNGs seeded."""
    if engine_root:  # gradpad: `import jax` is the engine
        sys.path.insert(0, engine_root)
        import core
        core.install_as_jax()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    signal.signal(signal.SIGALRM, _timeout)
    import random
    import warnings
    warnings.simplefilter("ignore")
    import jax  # noqa: F401  (imported first: JAX's import draws from numpy's global RNG)
    random.seed(0)
    try:  # tutorials that draw inputs with np.random get the same ones on both sides
        import numpy
        numpy.random.seed(0)
    except ImportError:
        pass


def run_cells_main(engine_root: str | None) -> None:
    """Read {"preamble", "cells"} as JSON on stdin, run the cells in order in one namespace (after
    the preamble, whose output is not shown), print JSON results."""
    job = json.load(sys.stdin)
    cells = job["cells"]
    prepare_interpreter(engine_root)
    ns: dict = {"__name__": "__main__"}
    exec(job.get("preamble", ""), ns)
    results = [run_cell(c, ns) for c in cells]
    sys.stdout.write("\n" + "@@DOC_CELLS@@" + json.dumps(results))


def run_side(python: str, cells: list[str], engine_root: str | None, timeout: int, preamble: str = "") -> list[dict]:
    cmd = [python, str(Path(__file__).resolve()), "--run-cells"]
    if engine_root:
        cmd += ["--engine-root", engine_root]
    env = dict(os.environ, JAX_PLATFORMS="cpu", OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    try:
        proc = subprocess.run(cmd, input=json.dumps({"preamble": preamble, "cells": cells}), capture_output=True, text=True, timeout=timeout,
                              env=env, cwd=str(ROOT))
    except subprocess.TimeoutExpired:
        return [{"stdout": "", "display": None, "error": {"type": "TutorialTimeout", "message": ""}}] * len(cells)
    if "@@DOC_CELLS@@" not in proc.stdout:
        err = {"type": "RunnerCrashed", "message": proc.stderr[-300:]}
        return [{"stdout": "", "display": None, "error": err}] * len(cells)
    return json.loads(proc.stdout.split("@@DOC_CELLS@@", 1)[1])


# ---- comparing ----------------------------------------------------------------------------------

_NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")
_BLANK = [(re.compile(r"0x[0-9a-fA-F]+"), "0x?"), (re.compile(r"\bid=\d+"), "id=?"),
          (re.compile(r"\d+(\.\d+)?\s*(ns|µs|us|ms|s) ± .*"), "<timing>"),
          (re.compile(r"(Wall|CPU) times?:.*"), "<timing>")]


def _normalize(text: str) -> str:
    for pat, rep in _BLANK:
        text = pat.sub(rep, text)
    return " ".join(text.split())


def _num(s: str) -> float:
    return float(s)


def texts_match(a: str | None, b: str | None, rtol: float = 1e-4, atol: float = 1e-6) -> bool:
    if a is None or b is None:
        return a is b
    a, b = _normalize(a), _normalize(b)
    if a == b:
        return True
    na, nb = _NUM.findall(a), _NUM.findall(b)
    if len(na) != len(nb) or _NUM.sub("#", a).replace(" ", "") != _NUM.sub("#", b).replace(" ", ""):
        return False
    for x, y in zip(na, nb):
        fx, fy = _num(x), _num(y)
        if fx != fy and not (fx != fx and fy != fy) and abs(fx - fy) > atol + rtol * abs(fx):
            return False
    return True


def outputs_match(jax_out: dict, ours: dict, strict: bool = False) -> bool:
    """The same output; `strict` also needs the error's message (its first line) and numbers to a
    relative 1e-6 (float32's own precision) instead of 1e-4."""
    rtol = 1e-6 if strict else 1e-4
    je, oe = jax_out["error"], ours["error"]
    if je or oe:
        # the same error class; text printed before it must match too
        same = bool(je and oe and je["type"] == oe["type"])
        if same and strict:
            same = texts_match(je["message"], oe["message"], rtol)
        return same and texts_match(jax_out["stdout"], ours["stdout"], rtol)
    return (texts_match(jax_out["stdout"], ours["stdout"], rtol)
            and texts_match(jax_out["display"], ours["display"], rtol))


def _show(out: dict) -> str:
    parts = []
    if out["stdout"]:
        parts.append(out["stdout"].rstrip()[:400])
    if out["display"] is not None:
        parts.append("-> " + out["display"][:400])
    if out["error"]:
        parts.append(f"!! {out['error']['type']}: {out['error']['message'][:200]}")
    return "\n".join(parts) or "(nothing)"


def compare_tutorial(name: str, rel: str, args) -> dict:
    def read(path: str) -> str:
        return read_doc(path, args.docs, args.git_dir, args.rev)
    cells = cells_of(rel, read(rel), read)
    preamble = DOCTEST_PREAMBLE if rel.endswith((".rst", ".py")) else ""
    jax_outs = run_side(args.oracle, cells, None, args.timeout, preamble)
    ours = run_side(args.engine, cells, str(ROOT), args.timeout, preamble)
    differing = [i for i, (j, o) in enumerate(zip(jax_outs, ours)) if not outputs_match(j, o, args.strict)]
    return {"name": name, "path": rel, "cells": len(cells), "differing": differing,
            "details": [{"cell": i, "code": cells[i], "jax": jax_outs[i], "gradpad": ours[i]} for i in differing]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--docs", help="a jax checkout's docs/ directory")
    p.add_argument("--git-dir", help="a jax repository's git directory (read at --rev, no work tree needed)")
    p.add_argument("--rev", default=DEFAULT_REV)
    p.add_argument("--oracle", default=DEFAULT_ORACLE, help="Python with real JAX installed")
    p.add_argument("--engine", default=sys.executable, help="Python that runs gradpad (this one)")
    p.add_argument("--only", action="append", help="tutorial name (repeatable): " + ", ".join(ALL_TUTORIALS))
    p.add_argument("--all", action="store_true", help="the further guides and the extra pages too: "
                   + ", ".join(MORE_TUTORIALS))
    p.add_argument("--extra", action="store_true", help="only the extra pages: " + ", ".join(EXTRA_TUTORIALS))
    p.add_argument("--api", action="store_true", help="only the API reference's docstring examples: "
                   + ", ".join(API_DOCSTRINGS))
    p.add_argument("--notes", action="store_true", help="only the design notes and API pages: "
                   + ", ".join(NOTES_TUTORIALS))
    p.add_argument("--strict", action="store_true", help="errors' messages must match too, and numbers "
                   "to a relative 1e-6 (default: the error's class, 1e-4)")
    p.add_argument("--timeout", type=int, default=900, help="seconds per tutorial and side")
    p.add_argument("--json", help="write the per-cell results here")
    p.add_argument("-v", "--verbose", action="store_true", help="show each differing cell")
    p.add_argument("--run-cells", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--engine-root", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.run_cells:
        run_cells_main(args.engine_root)
        return 0
    if not (args.docs or args.git_dir):
        p.error("give --docs or --git-dir (JAX's documentation is read from a jax checkout)")
    names = args.only or list(ALL_TUTORIALS if args.all else EXTRA_TUTORIALS if args.extra
                              else NOTES_TUTORIALS if args.notes else API_DOCSTRINGS if args.api else TUTORIALS)
    unknown = [n for n in names if n not in ALL_TUTORIALS]
    if unknown:
        p.error(f"unknown tutorial(s) {unknown}; known: {', '.join(ALL_TUTORIALS)}")
    results, total, bad = [], 0, 0
    for name in names:
        r = compare_tutorial(name, ALL_TUTORIALS[name], args)
        results.append(r)
        total += r["cells"]
        bad += len(r["differing"])
        print(f"{name:20s} {len(r['differing']):3d} of {r['cells']:3d} cells differ: {r['differing']}", flush=True)
        if args.verbose:
            for d in r["details"]:
                print(f"--- {name} cell {d['cell']}\n{d['code'][:600]}\n  [jax]\n{_show(d['jax'])}\n"
                      f"  [gradpad]\n{_show(d['gradpad'])}\n")
    print(f"total: {bad} of {total} cells differ ({100.0 * bad / max(total, 1):.1f}%)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
