"""Console pane: the user's stdout, stderr and warnings, the trailing expression's value, and
errors as JAX's class and message with a hint and a link to the example that shows the fix."""
from __future__ import annotations

import ast
import functools

from .common import error_block, esc, html, readable

JIT_PRINT_NOTE = "prints inside a jitted function appear only while it is traced (its first call)"


def input_check_line(a) -> str | None:
    """'f(1.0), the input the panes use, raises with jax_debug_nans on:' above JAX's error, when it
    does and the run itself did not already say so."""
    err = getattr(a, "input_error", None)
    if err is None or (a.run.error is not None and (a.run.error.type, a.run.error.message) == (err.type, err.message)):
        return None
    flag = "jax_debug_nans" if "(nan)" in err.message else "jax_debug_infs"
    return f"{a.function.name}({a.args_source}), the input the panes use, raises with {flag} on:"


def console_text(run, a=None) -> str:
    """The console as plain text (what the page API's snapshot returns); `a`, the analysis, adds
    the input check (see `input_check_line`)."""
    parts = []
    if run.stdout:
        parts.append(run.stdout.rstrip("\n"))
    if run.stderr:
        parts.append(run.stderr.rstrip("\n"))
    parts += [f"warning: {w}" for w in run.warnings]
    if run.result is not None:
        parts.append(f"Out: {run.result}")
    if run.error is not None:
        parts.append(readable(f"{run.error.type}: {run.error.message}").rstrip())
    if a is not None and input_check_line(a):
        parts += [input_check_line(a), readable(f"{a.input_error.type}: {a.input_error.message}").rstrip()]
    return "\n".join(parts)


def render(a, example_link=None, compact: bool = False) -> list:
    """The console; `compact` (the strip under the editor) leaves out the traceback and footnote."""
    run = a.run
    out = []
    body = []
    if run.stdout:
        body.append(esc(run.stdout.rstrip("\n")))
    if run.stderr:
        body.append(f'<span class="gp-err">{esc(run.stderr.rstrip())}</span>')
    for w in run.warnings:
        body.append(f'<span class="gp-warn">warning: {esc(w)}</span>')
    if run.result is not None:
        body.append(f'<span class="gp-muted">Out:</span> {esc(run.result)}')
    check = input_check_line(a)
    if not body and run.error is None and check is None:
        body.append('<span class="gp-muted">(no output)</span>')
    if body:
        out.append(html(f'<pre class="gp-code gp-console">{chr(10).join(body)}</pre>'))
    if check:
        out += [html(f'<p class="gp-muted">{esc(check)}</p>'), error_block(a.input_error, example_link)]
    if run.error is not None:
        where = f" (line {run.error.line})" if run.error.line else ""
        out.append(error_block(run.error, example_link))
        if compact:
            return out
        detail = esc(readable(run.error.message)) + \
            (f"\n\n{esc(readable(run.error.traceback))}" if run.error.traceback else "")
        out.append(html(f'<details><summary class="gp-muted">full message{where}</summary>'
                        f'<pre class="gp-code">{detail}</pre></details>'))
    if compact:
        return out
    note = f" · {JIT_PRINT_NOTE}" if prints_in_jitted_code(a.code) else ""
    out.append(html(f'<p class="gp-muted">ran in {run.took()}{note}</p>'))
    return out


@functools.lru_cache(maxsize=16)  # pure in the code; asked on every run (an edit often keeps it)
def prints_in_jitted_code(code: str) -> bool:
    """The code uses jit and some function body calls print: only then is the note worth reading."""
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return False
    uses_jit = any(isinstance(n, (ast.Name, ast.Attribute)) and (getattr(n, "id", None) == "jit"
                                                                 or getattr(n, "attr", None) == "jit")
                   for n in ast.walk(tree))
    return uses_jit and any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "print"
                            for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.Lambda))
                            for n in ast.walk(f))
