"""The post-import snapshot holds the app's widgets built (static/worker.js makeImportsSnapshot:
app.bootstrap.prebuild(for_snapshot=True)), so a warm visit's Python runs the opening code at once.
That app was built with no page state and no device looked for: the restored Python takes it over
only for a page of the address it was built for, and looks for its own devices when it does."""
from __future__ import annotations

import pytest

from app import bootstrap, env
from app import main as app_main

__import__("app.sandbox", fromlist=["install_jax"]).install_jax()


@pytest.fixture(autouse=True)
def clean(monkeypatch):
    monkeypatch.setattr(env, "_memory", {})
    monkeypatch.setattr(bootstrap, "_doc", None)
    monkeypatch.setattr(bootstrap, "_prebuilt", None)
    monkeypatch.setattr(bootstrap, "_prebuilt_search", None)


def probes(monkeypatch, found):
    calls = []

    def available_backends():
        calls.append(1)
        return list(found)
    monkeypatch.setattr(app_main, "available_backends", available_backends)
    return calls


def test_the_snapshots_app_looks_for_devices_only_when_a_page_takes_it_over(monkeypatch):
    calls = probes(monkeypatch, ["cpu", "webgpu"])
    bootstrap.prebuild(for_snapshot=True)
    app = bootstrap._prebuilt
    pg = app.playground
    assert calls == [] and pg.backend_select.options == ["cpu"], "no device looked for in the snapshot's maker"
    assert pg.snapshot()["run"] == 0, "nothing ran"
    taken = bootstrap.take_prebuilt()
    assert taken is app and bootstrap._prebuilt is None
    taken.playground.take_over(None, None)
    assert calls and pg.backend_select.options == ["cpu", "webgpu"], "the restored Python's own devices"
    snap = pg.snapshot()
    assert snap["run"] == 1 and pg.editor.value == pg.loaded_code, "the opening example ran in the taken-over app"


def test_an_app_built_for_another_address_is_not_taken(monkeypatch):
    probes(monkeypatch, ["cpu"])
    monkeypatch.setattr(env, "location_search", lambda: "")
    bootstrap.prebuild(for_snapshot=True)
    monkeypatch.setattr(env, "location_search", lambda: "?embed=1&panes=jaxpr")
    assert bootstrap.take_prebuilt() is None, "an embed's page builds its own app (its layout differs)"
    assert bootstrap._prebuilt is None, "and the other one is dropped"
    monkeypatch.setattr(env, "location_search", lambda: "")
    bootstrap.prebuild()
    assert bootstrap.take_prebuilt() is not None, "a standby's, built for its own page, is taken"
