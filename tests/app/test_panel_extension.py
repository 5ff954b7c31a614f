"""Panel's extension is loaded once per interpreter with its signatures (app.main.load_panel_extension):
the post-import snapshot's maker calls it, so a Python restored from the snapshot (a warm visit,
a standby, a restart) does not set every Panel class's signature again in its first app build."""
from __future__ import annotations

import panel as pn

from app import main

__import__("app.sandbox", fromlist=["install_jax"]).install_jax()


def test_a_build_after_the_extension_is_loaded_sets_no_signatures(monkeypatch):
    main.load_panel_extension()  # as the snapshot's maker does (static/worker.js)
    calls = []
    monkeypatch.setattr(pn.extension, "_apply_signatures", lambda self: calls.append(1))
    main.create_app(autorun=False)
    assert calls == []
    assert "codeeditor" in pn.extension._loaded_extensions  # the build's editor extension is there
