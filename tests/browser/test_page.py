"""The real site in a real browser: Debian chromium, headless, one shared page (see conftest).

Tests run in file order on the same page; the offline check comes last so that it covers
everything the page loaded, the Panel UI included."""
from __future__ import annotations

import json

import numpy as np
import pytest

pytestmark = pytest.mark.timeout(900)


def test_page_reaches_ready(gp):
    info = gp.page.evaluate("() => window.gradpad.info")
    assert info["python"].startswith("3.12")
    assert info["numpy"] == "2.0.2"
    timings = gp.page.evaluate("() => window.gradpad.timings")
    assert timings["runtime"] <= timings["numpy"] <= timings["engine"]


def test_jax_grad_in_pyodide(gp):
    # JAX: jax.grad(lambda x: x**3)(2.0) -> Array(12., dtype=float32, weak_type=True)
    r = gp.run("import jax\nfloat(jax.grad(lambda x: x**3)(2.0))")
    assert r["error"] is None, r["error"]
    assert r["result"] == "12.0"


def test_jax_submodules_are_the_engine(gp):
    r = gp.run("import jax, core\nimport jax.numpy as jnp\n(jax is core, jnp is core.numpy)")
    assert r["error"] is None, r["error"]
    assert r["result"] == "(True, True)"


NUMPY_PROBE = """
import json
import numpy as np
rng = np.random.default_rng(0)
a = rng.normal(size=(4, 4))
b = np.arange(1.0, 5.0)
out = {
    "normal": a.tolist(),
    "solve": np.linalg.solve(a + 4 * np.eye(4), b).tolist(),
    "matmul": (a @ a.T).tolist(),
    "fft_abs": np.abs(np.fft.fft(b)).tolist(),
    "trans": [float(np.sin(0.5)), float(np.exp(1.25)), float(np.log1p(1e-7)), float(np.tanh(0.3))],
    "f32_sum": float(np.arange(1000, dtype=np.float32).sum()),
    "int_ops": (np.arange(10) ** 3 % 7).tolist(),
    "promote": [str(np.result_type(np.int8, np.float32)), str((np.int32(1) + np.float64(1)).dtype)],
    "cumsum": np.cumsum(np.linspace(0, 1, 5)).tolist(),
}
json.dumps(out)
"""


def test_numpy_results_equal_cpython(gp):
    r = gp.run(NUMPY_PROBE)
    assert r["error"] is None, r["error"]
    in_page = json.loads(eval(r["result"]))  # result is the repr of a str
    ns: dict = {}
    exec(NUMPY_PROBE.rsplit("json.dumps", 1)[0], ns)
    here = ns["out"]
    assert in_page.keys() == here.keys()
    for key in here:
        if key in ("int_ops", "promote"):
            assert in_page[key] == here[key], key
        else:
            np.testing.assert_allclose(in_page[key], here[key], rtol=1e-12, atol=1e-15, err_msg=key)


def test_stdlib_zip_keeps_its_index_and_new_modules_still_import(gp):
    """The loader stops invalidate_caches() from re-reading python312.zip (the stdlib never
    changes); modules written to disk later must still become importable."""
    r = gp.run("""
import importlib, os, sys, zipimport
stdlib = [p for p in sys.path if p.endswith('.zip')]
before = dict(zipimport._zip_directory_cache)
importlib.invalidate_caches()
kept = all(p in before and zipimport._zip_directory_cache[p] is before[p] for p in stdlib)
site = [p for p in sys.path if p.endswith('site-packages')][0]
with open(os.path.join(site, 'gp_fresh_module.py'), 'w') as f:
    f.write('VALUE = 7')
importlib.invalidate_caches()
import gp_fresh_module
(bool(stdlib), kept, gp_fresh_module.VALUE, zipimport.zipimporter.invalidate_caches.__qualname__)
""")
    assert r["error"] is None, r["error"]
    assert r["result"].startswith("(True, True, 7, ")
    assert "_gp_install_stdlib_zip_guard" in r["result"]


def test_run_python_contract(gp):
    r = gp.run("print('hello')\nx = 41")
    assert r == {"stdout": "hello\n", "stderr": "", "result": None, "error": None}
    r = gp.run("x + 1")  # the namespace persists between calls
    assert r["result"] == "42" and r["error"] is None
    r = gp.run("1 / 0")
    assert r["error"]["type"] == "ZeroDivisionError"
    assert r["error"]["message"] == "division by zero"
    assert r["result"] is None
    r = gp.run("def f(:\n  pass")
    assert r["error"]["type"] == "SyntaxError"


def test_page_shell(gp):
    p = gp.page
    assert "gradpad" in p.title()
    assert p.locator('meta[name="description"]').get_attribute("content")
    for prop in ("og:title", "og:description", "og:type", "og:image"):
        assert p.locator(f'meta[property="{prop}"]').get_attribute("content"), prop
    assert p.locator('link[rel="icon"]').get_attribute("href") == "favicon.svg"
    assert p.evaluate("() => fetch('favicon.svg').then(r => r.status)") == 200


def test_ui_renders(gp):
    kind = gp.wait_ui()
    assert kind in ("app", "placeholder"), kind + "\n" + "\n".join(gp.console[-30:])
    assert gp.page.locator("#gp-loader").is_hidden()
    if kind == "app":
        # app/main.py's create_app() was rendered by Panel into #app
        gp.page.wait_for_function("() => document.querySelector('#app').children.length > 0")
        return
    # no app/main.py yet: Panel and BokehJS still render a pane, and the basic editor works
    # (BokehJS renders into shadow roots: Playwright's text locators pierce them)
    gp.page.locator("#panel-status").get_by_text("Panel 1.9").wait_for(state="visible")
    gp.page.fill("#gp-code", "print('hi')\n6 * 7")
    gp.page.click("#gp-run")
    gp.page.wait_for_function("() => document.querySelector('#gp-out').textContent.includes('42')")
    assert gp.page.locator("#gp-out").inner_text().strip() == "hi\n42"


def test_wasm_missing_shows_error_screen(browser_context, site_url):
    ctx, _ = browser_context
    page = ctx.new_page()
    try:
        page.add_init_script("delete globalThis.WebAssembly")
        page.goto(site_url)
        page.locator("#gp-error").wait_for(state="visible", timeout=30_000)
        assert "WebAssembly" in page.locator("#gp-error-title").inner_text()
        assert page.evaluate("() => window.gradpad.ready.then(() => 'ok', e => String(e))") \
            == "Error: WebAssembly is not available"
    finally:
        page.close()


def test_nothing_left_127_0_0_1(gp):
    """Run last: every request of the page, the UI included, stayed on 127.0.0.1."""
    assert gp.external == [], f"requests to other hosts were attempted: {gp.external}"
    assert gp.page_errors == [], gp.page_errors
