"""static/model_allowlist.js is what tools/model_allowlist.py makes from the installed Bokeh and
Panel, and holds no model that runs JavaScript on the page (issue 29)."""
from tools import model_allowlist

ALLOWED = set(__import__("re").findall(r'^  "([^"]+)",$', model_allowlist.OUT.read_text(), flags=__import__("re").M))


def test_the_committed_list_is_up_to_date():
    # in a fresh interpreter: models that other tests define in this process (the app's own
    # components, libraries' widgets) are not Bokeh's and Panel's
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "tools.model_allowlist", "--check"], capture_output=True, text=True,
                       cwd=str(model_allowlist.OUT.parents[1]))
    assert r.returncode == 0, "run python -m tools.model_allowlist\n" + r.stderr


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
