"""The address bar is always the current program (issue 26): a program chosen (an example, the
page API's load) is published before it runs, as a new history entry; the run's own publish and
a link applied replace it in place."""
from app import env, main, share


def recording(monkeypatch):
    writes = []
    monkeypatch.setattr(env, "IN_BROWSER", True)
    monkeypatch.setattr(env, "set_hash", lambda fragment, new_entry=False: writes.append((fragment, new_entry)))
    monkeypatch.setattr(env, "run_state", lambda running, measuring=False: None)
    monkeypatch.setattr(env, "page_base", lambda: "./")
    monkeypatch.setattr(env, "location_hash", lambda: "")
    stored = {}
    monkeypatch.setattr(env, "storage_set", stored.__setitem__)
    monkeypatch.setattr(env, "storage_get", stored.get)
    monkeypatch.setattr(main.asyncio, "get_event_loop", lambda: (_ for _ in ()).throw(RuntimeError()))
    return writes


def test_an_example_picked_is_in_the_address_bar_before_it_runs(monkeypatch):
    writes = recording(monkeypatch)
    pg = main.Playground(example="pytrees")
    assert not any(new for _, new in writes)  # the page's first program: no entry of its own
    seen_at_run = []
    real_run = pg.run
    monkeypatch.setattr(pg, "run", lambda **kw: (seen_at_run.append(list(writes)), real_run(**kw)))
    writes.clear()
    pg.example_select.value = "jvp_and_vjp"
    before_run = seen_at_run[0]
    assert before_run and before_run[-1][1] is True  # published, as a new entry, before the code ran
    state = share.parse_hash(before_run[-1][0])
    assert state.code == pg.editor.value and state.example == "jvp_and_vjp"
    assert state.args is None  # not the last program's input (pytrees' loss(params...))
    # after the run: the same entry, with the function the run found
    last, new = writes[-1]
    assert new is False and share.parse_hash(last).function == "f"
    assert sum(1 for _, n in writes if n) == 1


def test_a_link_applied_replaces_the_entry(monkeypatch):
    writes = recording(monkeypatch)
    pg = main.Playground(example="pytrees")
    writes.clear()
    pg.apply_state(share.ShareState(example="jvp_and_vjp"), run=True)  # as page_api's hash handler
    assert writes and not any(new for _, new in writes)
