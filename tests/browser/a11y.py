"""axe-core in a Playwright page or frame, or a tests/browser/drivers.py browser (Firefox,
WebKit): `axe_violations(page)` for any gradpad page (the app, an embed, a lesson page). axe.min.js comes from npm through tools/axe.py (fetched on first use).

It is evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
govern (an inline <script> would be refused), and axe walks Bokeh's open shadow roots itself."""
from __future__ import annotations

from collections import Counter

# WCAG 2.0/2.1/2.2, levels A and AA; axe's "best-practice" rules are not part of the goal
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")

_source: str | None = None

# the page shows the dark theme and the app's Python side has followed it (static/loader.js
# switchTheme): what axe checks for "dark"
DARK_SHOWN = """() => document.documentElement.dataset.theme === 'dark' && !!window.gradpad.themeSwitch
  && window.gradpad.themeSwitch.theme === 'dark' && window.gradpad.themeSwitch.python_ms !== null"""


def _axe_source() -> str:
    global _source
    if _source is None:
        from tools.axe import fetch_axe
        _source = fetch_axe().read_text(encoding="utf-8")
    return _source


# axe over the whole document (it walks open shadow roots itself): each violation's id, impact,
# help, and its first nodes (target selector path through shadow roots, html, why)
AXE_RUN = """async (tags) => {
    // the page's own accessibility passes (static/a11y.js) run 120 ms after a burst of DOM changes,
    // in slices: axe looks once they have caught up (idle, and still idle a pass's delay later)
    const a11y = () => window.gradpad && window.gradpad.a11y;
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    for (let i = 0, quiet = 0; a11y() && quiet < 2 && i < 200; i++) {
        quiet = a11y().idle() ? quiet + 1 : 0;
        if (quiet < 2) await sleep(150);
    }
    const r = await window.axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
    return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
        nodes: v.nodes.slice(0, 6).map((n) => ({target: n.target, html: n.html.slice(0, 200),
                                                   why: n.failureSummary.slice(0, 300)}))}));
}"""


def axe_run(page, tags=WCAG_TAGS) -> list[dict]:
    """Every violation axe finds in `page` (a Playwright Page or Frame)."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(_axe_source() + "\n;undefined")
    return page.evaluate(AXE_RUN, list(tags))


def axe_run_in(browser, tags=WCAG_TAGS) -> list[dict]:
    """axe_run for a tests/browser/drivers.py Browser (Firefox, WebKit): the driver compiles axe's
    source as a function's body (the page's own eval would be refused by its policy)."""
    if not browser.evaluate("() => !!window.axe"):
        browser.evaluate("() => {\n" + _axe_source() + "\n;return !!window.axe; }", timeout_s=300)
    return browser.evaluate(AXE_RUN, list(tags), timeout_s=300)


def axe_violations(page, impacts=BLOCKING, tags=WCAG_TAGS) -> list[dict]:
    """The violations of the given impacts (serious and critical by default): [] is a pass.
    `page`: a Playwright Page or Frame, or a drivers.Browser."""
    found = axe_run_in(page, tags) if hasattr(page, "min_viewport_width") else axe_run(page, tags)
    return [v for v in found if v["impact"] in impacts]


def impact_counts(violations: list[dict]) -> dict:
    """{impact: number of failing nodes}, e.g. {'serious': 12, 'critical': 3}."""
    counts = Counter()
    for v in violations:
        counts[v["impact"]] += v["count"]
    return dict(counts)


def describe(violations: list[dict]) -> str:
    """A readable report for an assertion message."""
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']} x{v['count']}: {v['help']}")
        for n in v["nodes"]:
            lines.append(f"    {n['target']} {n['html'][:120]}\n        {n['why'][:200]}")
    return "\n".join(lines)
