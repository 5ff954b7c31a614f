"""The page skips Bokeh's document checks on its way to the UI (app/bootstrap.py prepare_panel:
about a third of turning the app into JSON). They run here instead, on the app's own document:
no model error, and no warning but the one known below."""
from __future__ import annotations

import panel as pn
from bokeh.core.validation import check_integrity
from bokeh.document import Document

from app import main

# a widget of Panel's own with sizing_mode 'fixed' and no explicit size (harmless: CSS sizes it)
KNOWN_WARNINGS = {"FIXED_SIZING_MODE"}


def test_the_apps_document_passes_bokehs_checks():
    pn.extension()
    app = main.create_app(example="mlp_sin")
    doc = Document()
    doc.add_root(app.get_root(doc))
    issues = check_integrity(doc.models)
    assert [(e.name, e.text) for e in issues.error] == []
    assert {w.name for w in issues.warning} <= KNOWN_WARNINGS, [(w.name, w.text) for w in issues.warning]
