"""static/model_allowlist.js is what tools/model_allowlist.py makes from the installed Bokeh and
Panel, and holds no model that runs JavaScript on the page (issue 29)."""
from tools import model_allowlist

ALLOWED = set(__import__("re").findall(r'^  "([^"]+)",$', model_allowlist.OUT.read_text(), flags=__import__("re").M))


def test_the_committed_list_is_up_to_date():
    assert model_allowlist.main(["--check"]) == 0, "run python -m tools.model_allowlist"


def test_no_model_that_carries_javascript_is_allowed():
    for name in ["CustomJS", "CustomJSHover", "CustomJSTickFormatter", "CustomJSFilter", "CustomJSTransform",
                 "OpenURL", "SetValue", "HTMLTemplateFormatter", "panel.models.reactive_html.ReactiveHTML",
                 "panel.models.esm.ReactiveESM", "panel.models.esm.ReactComponent",
                 "panel.models.esm.AnyWidgetComponent", "panel.models.ipywidget.IPyWidget"]:
        assert name not in ALLOWED, name


def test_the_apps_own_models_are_allowed_by_their_full_names():
    for name in ["Figure", "Div", "panel.models.markup.HTML", "panel.models.ace.AcePlot",
                 "panel.models.tabs.Tabs", "panel.models.location.Location", "panel.models.widgets.TextInput"]:
        assert name in ALLOWED, name
