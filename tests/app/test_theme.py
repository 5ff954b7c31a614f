"""The theme: the page tells the app the effective theme (the system's, or the visitor's choice
from the header's toggle, static/theme.js). The panes' CSS is the same in both themes (each value
picks its side from the page's --gp-light/--gp-dark, app.panes.common.tv), so a switch needs no
new CSS; the figures' theme values are set again in place (app.theme_switch). Outside the page
(panel serve) each pane's host follows the system."""
import pytest
from bokeh.document import Document
from bokeh.models import Div, ImportedStyleSheet
from bokeh.plotting import figure

import panel as pn

from app import bootstrap, env, main, theme_switch
from app.panes import common, jaxpr, jaxpr_diff

CSS = ".a { color: black; }"


@pytest.fixture
def page_theme(monkeypatch):
    def set_theme(theme):
        monkeypatch.setattr(env, "IN_BROWSER", True)
        monkeypatch.setattr(env, "_page_state", {"storage": {}, "theme": theme})
    monkeypatch.setattr(pn.config, "theme", pn.config.theme)  # restored after the test
    return set_theme


def test_a_theme_value_names_both_sides():
    assert common.tv("#fff", "#000") == "var(--gp-dark, #fff) var(--gp-light, #000)"
    # no rule of the panes' CSS is written for one theme only (imported outside the page here:
    # the host's switch from the system's theme comes first)
    for css in (common.CSS, main.TABS_CSS, jaxpr.SOURCE_MAP_CSS, jaxpr_diff.DIFF_CSS):
        assert css.startswith(common.HOST_THEME)
        rules = css[len(common.HOST_THEME):]
        assert "prefers-color-scheme" not in rules and "--gp-dark" in rules


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_on_the_page_the_css_is_the_same_in_both_themes(page_theme, theme):
    page_theme(theme)
    assert common.themed(CSS) == CSS
    assert main.system_prefers_dark() is (theme == "dark")


def test_in_the_snapshots_maker_the_css_is_the_pages(monkeypatch):
    """The post-import snapshot's maker (static/worker.js) imports the app with no page known: its
    module constants are every warm visit's, shown on a page whose root says the theme."""
    monkeypatch.setattr(env, "IN_BROWSER", True)
    monkeypatch.setattr(env, "_page_state", {"storage": {}})
    assert env.theme() is None
    assert common.themed(CSS) == CSS


def test_outside_the_page_the_system_decides():
    assert env.theme() is None
    out = common.themed(CSS)
    assert out.endswith(CSS) and "@media (prefers-color-scheme: dark)" in out and ":host { --gp-light: ; }" in out


def test_figures_follow_a_switch_in_place(page_theme):
    page_theme("light")
    pn.config.theme = "default"
    fig = figure(title="t")
    fig.line([0, 1], [0, 1])
    common.bokeh(fig)
    light_bg = fig.background_fill_color
    pn.config.theme = "dark"
    assert common.retheme(fig.references()) > 0
    assert fig.background_fill_color == "#2b3035" and fig.title.text_color == "#E0E0E0"
    pn.config.theme = "default"
    common.retheme(fig.references())
    assert fig.background_fill_color == light_bg and fig.title.text_color != "#E0E0E0"
    pn.config.theme = "dark"  # and back: the values the light side set are the theme's, not the figure's own
    common.retheme(fig.references())
    assert fig.background_fill_color == "#2b3035"


def test_switch_changes_the_document_in_place(page_theme, monkeypatch):
    pn.config.theme = "default"
    pg = main.create_app(code="import jax.numpy as jnp\ndef f(x):\n    return jnp.sin(x)\nf(1.0)\n").playground
    page_theme("light")  # (after the app is built: it would talk to the page)
    doc = Document()
    sheet = ImportedStyleSheet(url="http://x/panel/dist/bundled/theme/default.css")
    fig = figure()
    common.bokeh(fig)
    doc.add_root(fig)
    doc.add_root(Div(text="x", stylesheets=[sheet]))  # Panel's theme stylesheet, shared by the models
    monkeypatch.setattr(bootstrap, "_doc", doc)
    fig_id = fig.id
    out = theme_switch.switch(pg, "dark")
    assert out["changed"] and out["values"] > 0, out
    assert env.theme() == "dark" and pn.config.theme == "dark" and pg.editor.theme == "tomorrow_night"
    assert sheet.url.endswith("/theme/dark.css") and doc.get_model_by_id(fig_id) is fig
    assert fig.background_fill_color == "#2b3035"
    assert theme_switch.switch(pg, "dark")["changed"] is False
    theme_switch.switch(pg, "light")
    assert pg.editor.theme == "chrome" and sheet.url.endswith("/theme/default.css")
    with pytest.raises(ValueError):
        theme_switch.switch(pg, "purple")


def _luminance(colour: str) -> float:
    from bokeh.colors import named
    c = getattr(named, colour.lower(), None)
    rgb = (c.r, c.g, c.b) if c is not None else tuple(int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))
    lin = [(v / 255) / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("built_in", ["dark", "light then switched to dark"])
def test_the_timing_charts_min_max_lines_read_on_the_dark_figure(page_theme, built_in):
    """The Timing bars' whiskers (each measurement's min-max) were Bokeh's default black on the
    dark theme's #2b3035 figure: unseen. Built dark, or built light and switched, they read."""
    from bokeh.models import Whisker

    from app.panes import timing
    page_theme("dark")
    pn.config.theme = "dark" if built_in == "dark" else "default"
    fig = timing.new_timing("cpu", timing.shared_range([]))
    common.bokeh(fig)
    if built_in != "dark":
        pn.config.theme = "dark"
        common.retheme(fig.references())
    whisker = next(m for m in fig.center + fig.renderers if isinstance(m, Whisker))
    for part in (whisker, whisker.lower_head, whisker.upper_head):
        assert _contrast(part.line_color, fig.background_fill_color) >= 3, (part, part.line_color)
    pn.config.theme = "default"  # and back to light: black again on the light figure
    common.retheme(fig.references())
    assert _contrast(whisker.line_color, fig.background_fill_color) >= 3
