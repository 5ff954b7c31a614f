"""One Chromium and ONE Pyodide page for the whole test session (a page takes 15-60 s to load)."""
from __future__ import annotations

import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # tools/ (site build, server) when pytest is run directly
    sys.path.insert(0, str(ROOT))

from . import chromium, cost

READY_TIMEOUT_MS = 240_000
UI_TIMEOUT_MS = 360_000


@dataclass
class GradpadPage:
    page: object
    url: str
    external: list = field(default_factory=list)
    console: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    load_seconds: float = 0.0
    first_visit: dict = field(default_factory=dict)

    def run(self, code: str, timeout_ms: int = 120_000) -> dict:
        self.page.set_default_timeout(timeout_ms)
        return self.page.evaluate("code => window.gradpad.runPython(code)", code)

    def wait_ui(self) -> str:
        self.page.set_default_timeout(UI_TIMEOUT_MS)
        return self.page.evaluate("""() => window.gradpad.uiReady.then(
            g => g.ui, e => 'ERROR: ' + String(e && e.stack || e))""")


@pytest.fixture(scope="session")
def site_url(tmp_path_factory):
    from tools import serve, site

    # build when stale, then serve a hard-linked snapshot: a concurrent rebuild of dist/
    # (another process in the same working tree) cannot swap files under the page
    root = site.snapshot(tmp_path_factory.mktemp("dist"))
    srv, url = serve.start(root)
    yield url
    srv.shutdown()


@pytest.fixture(scope="session")
def playwright_instance():
    """The session's one Playwright (its sync API runs one per thread): modules that need a
    browser of their own (another profile) launch it from here."""
    problem = chromium.problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser_context(site_url, playwright_instance):
    external: list[str] = []
    ctx, udd = chromium.launch(playwright_instance)
    chromium.guard_network(ctx, external)
    try:
        yield ctx, external
    finally:
        ctx.close()
        shutil.rmtree(udd, ignore_errors=True)


# the session's shared page once a module asked for it (a module that never does, does not make it)
_SHARED: list[tuple[GradpadPage, object]] = []  # (page, its browser context)


def _listen(g: GradpadPage) -> None:
    g.page.on("console", lambda m: g.console.append(f"{m.type}: {m.text}"))
    g.page.on("pageerror", lambda e: g.page_errors.append(str(e)))


@pytest.fixture(scope="session")
def gp(browser_context, site_url) -> GradpadPage:
    ctx, external = browser_context
    page = ctx.new_page()
    g = GradpadPage(page=page, url=site_url, external=external)
    _listen(g)
    _SHARED.append((g, ctx))
    t0 = time.monotonic()
    page.goto(site_url, wait_until="domcontentloaded", timeout=60_000)
    page.set_default_timeout(READY_TIMEOUT_MS)
    outcome = page.evaluate("""() => window.gradpad.ready.then(
        () => 'ok', e => 'ERROR: ' + String(e && e.stack || e))""")
    g.load_seconds = time.monotonic() - t0
    if outcome != "ok":
        pytest.fail(f"page never became ready: {outcome}\nconsole:\n" + "\n".join(g.console[-40:]),
                    pytrace=False)
    print(f"\n[browser] gradpad.ready after {g.load_seconds:.1f}s", flush=True)
    # A first visit runs before the service worker controls the page, so without cross-origin
    # isolation (no interrupt buffer: runs keep the time budget). Record it, then reload once
    # the service worker controls the page: the session's page is the isolated one, as every
    # later visit is.
    g.first_visit = page.evaluate("""async () => {
        const gp = window.gradpad;
        const out = {isolated: crossOriginIsolated, gradpadIsolated: gp.isolated,
                     notice: document.getElementById('gp-notice').hidden ? '' : document.getElementById('gp-notice').textContent,
                     run: await gp.runPython('1 + 1'),
                     ui: await gp.uiReady.then(g => g.ui, e => 'ERROR: ' + String(e && e.stack || e))};
        // no interrupt buffer here: Stop restarts Python
        const stuck = gp.runPython('while True:\\n    pass').then(r => ({result: r}), e => ({failed: String(e)}));
        while (!gp.running) await new Promise(r => setTimeout(r, 20));
        out.interrupted = gp.interrupt();
        out.stuck = await stuck;
        out.after = await gp.runPython('2 + 2');
        return out;
    }""")
    page.set_default_timeout(READY_TIMEOUT_MS)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.reload(wait_until="domcontentloaded", timeout=60_000)
    outcome = page.evaluate("""() => window.gradpad.ready.then(
        () => 'ok', e => 'ERROR: ' + String(e && e.stack || e))""")
    if outcome != "ok":
        pytest.fail(f"page never became ready after the reload: {outcome}\nconsole:\n"
                    + "\n".join(g.console[-40:]), pytrace=False)
    return g


ALIVE = "() => typeof window.gradpad === 'object' && !!window.gradpad && !!window.gradpad.ready"


@pytest.fixture(autouse=True, scope="module")
def shared_page_kept_alive():
    """A module that leaves the shared page without a booted gradpad (a reload whose loader never
    ran, a crashed renderer) fails here, at its own teardown, with what the page showed; the page
    is opened again, so the modules after it test what they test instead of failing by the dozen."""
    yield
    if not _SHARED:
        return
    g, ctx = _SHARED[0]
    try:
        if g.page.evaluate(ALIVE):
            return
        why = "window.gradpad is not there"
    except Exception as e:  # a crashed or closed page
        why = f"{type(e).__name__}: {e}"
    seen = {"why": why, "url": g.page.url, "console": g.console[-30:], "page errors": g.page_errors[-10:]}
    try:
        seen["body"] = g.page.evaluate("() => document.title + ' | ' + (document.body ? document.body.innerText.slice(0, 400) : '')")
    except Exception as e:
        seen["body"] = f"unreadable: {e}"
    try:
        g.page.close()
    except Exception:
        pass
    g.page = ctx.new_page()
    _listen(g)
    g.page.goto(g.url, wait_until="domcontentloaded", timeout=120_000)
    g.page.set_default_timeout(READY_TIMEOUT_MS)
    g.page.evaluate("() => window.gradpad.ready.then(() => null)")
    pytest.fail("this module left the shared page without a booted gradpad (opened again for the next "
                "module):\n" + "\n".join(f"{k}: {v}" for k, v in seen.items()), pytrace=False)


@pytest.fixture(scope="module")
def app_page(gp):
    """The shared page showing the app at 1400x900; left as a fresh visit shows it (the default
    example, the Jaxpr tab in view) for the modules after. A module that needs another start
    defines its own. (The tab matters: the panes of the tab in view are drawn in the run, the
    others after it; a module that left Plots in view changed what the next module's runs report.)"""
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1400, "height": 900})
    yield gp
    from app.main import DEFAULT_EXAMPLE
    gp.page.set_default_timeout(180_000)
    gp.page.evaluate("opts => window.gradpad.load(opts)", {"example": DEFAULT_EXAMPLE, "panes": ["jaxpr"]})


_COST_BY_TEST: dict[str, dict] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = dict(cost.COUNTS)
    t0 = time.monotonic()
    yield
    _COST_BY_TEST[item.nodeid] = {**{k: cost.COUNTS[k] - before[k] for k in before},
                                  "seconds": round(time.monotonic() - t0, 1)}


def pytest_terminal_summary(terminalreporter):
    if not _COST_BY_TEST:
        return
    rows = {k: v for k, v in _COST_BY_TEST.items() if v["loads"] or v["boots"] or v["contexts"]}
    tr = terminalreporter
    tr.section("browser cost: document loads, Python boots, browser contexts per test")
    for nodeid, c in rows.items():
        tr.write_line(f"{c['loads']:3d} loads {c['boots']:3d} boots {c['contexts']:2d} ctx "
                      f"{c['seconds']:7.1f}s  {nodeid}")
    total = {k: sum(c[k] for c in _COST_BY_TEST.values()) for k in ("loads", "boots", "contexts", "seconds")}
    tr.write_line(f"total: {total['loads']} loads, {total['boots']} boots, {total['contexts']} contexts, "
                  f"{total['seconds']:.0f} s in {len(_COST_BY_TEST)} tests")
    import json
    import os
    path = os.environ.get("GRADPAD_COST_JSON")
    if path:
        Path(path).write_text(json.dumps(_COST_BY_TEST, indent=1))
