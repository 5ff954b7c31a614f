"""BokehJS's style reads answered by the page (static/bokeh_style_reads.js): its CSS-variable
lookups (no stylesheet of the site declares a --bk- property: answered "") and a plot's font
size (read once per plot per task). Each shortcut gives what Bokeh's own read gives."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.timeout(600)


def test_no_file_of_the_site_declares_a_bokeh_css_variable(site_url):
    from tools import site

    root = site.DIST  # built (when stale) by the site_url fixture
    declared = re.compile(r"--bk-[a-z0-9-]+\s*:")
    found = {str(p.relative_to(root)): declared.findall(p.read_text(errors="ignore"))
             for p in [*root.rglob("*.css"), *root.rglob("*.js"), *root.rglob("*.html")]
             if p.is_file() and not p.is_relative_to(root / "pyodide")}
    assert not {k: v for k, v in found.items() if v}, found
    assert any(p.endswith(".css") for p in found), "no CSS looked at"


DECLARES = """async () => {
  const { declares } = await import(new URL('bokeh_style_reads.js', document.baseURI).href);
  return [
    declares('{"attributes": {"text": "<b>hi</b>"}}'),
    declares({events: [{kind: 'ModelChanged', attr: 'stylesheets', new: [':host { --bk-line-color: red; }']}]}),
    declares({events: [{kind: 'ModelChanged', attr: 'styles', new: {'--bk-text-color': 'red'}}]}),
    declares(new Map([['a', ['x', {y: '--bk-fill-alpha: 0.5'}]]])),
    declares({events: [{kind: 'ColumnDataChanged', data: {x: new Float64Array([1, 2])}}], note: 'no css here'}),
  ];
}"""


def test_declares_finds_a_bk_property_anywhere_in_what_arrives(app_page):
    assert app_page.page.evaluate(DECLARES) == [False, True, True, True, False]


# every visual property of every view on the page, read by Bokeh's own lookup (shortcut off),
# and every plot's font size, read by Bokeh (memo off) and through the memo
TRUTH = """() => {
  const st = window.gradpad.bokehStyle;
  const views = [];
  const walk = (v) => { views.push(v); for (const c of (v.children ? v.children() : [])) walk(c); };
  for (const root of Object.values(window.Bokeh.index)) walk(root);
  const saved = {...st};
  const found = [];
  let lookups = 0;
  st.shortcut = false;
  try {
    for (const v of views) for (const visual of (v.visuals || [])) for (const attr of (visual.attrs || [])) {
      if (typeof visual._get_css_value !== 'function') continue;  // per-point (vectorised) visuals: no CSS
      lookups++;
      const value = visual._get_css_value(attr.replaceAll('_', '-'));
      if (value !== '') found.push([v.model.type, visual.prefix + attr, value]);
    }
  } finally { st.shortcut = saved.shortcut; }
  const plots = views.filter((v) => v.model && v.model.type === 'Figure');
  st.fontSizeMemo = false;
  const own = plots.map((p) => p.base_font_size);
  st.fontSizeMemo = true;
  const memo = plots.map((p) => p.base_font_size);
  const again = plots.map((p) => p.base_font_size);
  st.fontSizeMemo = saved.fontSizeMemo;
  return {found, lookups, own, memo, again, shortcut: st.shortcut, fontSizeMemo: st.fontSizeMemo, reused: st.fontSizeReused};
}"""


def test_the_shortcuts_answer_what_bokeh_would(app_page):
    page = app_page.page
    page.set_default_timeout(180_000)
    page.evaluate("opts => window.gradpad.load(opts)", {"example": "jvp_and_vjp"})
    r = page.evaluate(TRUTH)
    assert r["shortcut"] is True and r["fontSizeMemo"] is True, r  # both in use on this page
    assert r["lookups"] > 100, r  # the page has plots: many visual properties looked at
    assert r["found"] == [], r["found"]
    assert r["own"] and all(isinstance(x, (int, float)) and x > 0 for x in r["own"]), r
    assert r["memo"] == r["own"] and r["again"] == r["own"], r
