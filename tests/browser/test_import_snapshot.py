"""The post-import snapshot (static/import_snapshot.js, docs/snapshot.md): a warm visit boots from
an interpreter with numpy, the engine and Panel already imported, proves it with a probe, and
answers right; a snapshot that does not fit falls back to the normal boot. On the session's
shared page: one reload per test."""
from __future__ import annotations

import warnings

import pytest

pytestmark = pytest.mark.timeout(900)

WAIT_SNAPSHOTS = """async () => {
    const gp = window.gradpad;
    await gp.uiReady;
    for (let i = 0; i < 1200 && gp.snapshotMaking; i++) await new Promise(r => setTimeout(r, 250));
    return {making: !!gp.snapshotMaking, saved: !!gp.importsSnapshotSaved, error: gp.importsSnapshotError || null,
            from: gp.bootedFrom, recorded: !!localStorage.getItem('gpsnap-imports-sha256')};
}"""

BOOT = """() => window.gradpad.ready.then(g => ({from: g.bootedFrom, marks: Object.keys(g.timings)}))"""

ANSWERS = ("import jax, numpy as np\n"
           "print(jax.grad(lambda x: x ** 3)(2.0), np.arange(6).reshape(2, 3).T.sum(0).tolist(),\n"
           "      jax.numpy.dot(jax.numpy.array([1.0, 2.0]), jax.numpy.array([3.0, 4.0])))")


def reload(gp) -> dict:
    seen = len(gp.console), len(gp.page_errors)
    for attempt in range(2):
        gp.page.reload(wait_until="domcontentloaded", timeout=120_000)
        gp.page.set_default_timeout(300_000)
        try:  # (the loader module runs once its ~20 imports came through the service worker)
            gp.page.wait_for_function("() => !!window.gradpad", timeout=60_000)
            break
        except Exception:
            said = (f"after the reload the page has no gradpad ({gp.page.url}); console:\n"
                    + "\n".join(gp.console[seen[0]:][-30:]) + "\npage errors:\n" + "\n".join(gp.page_errors[seen[1]:]))
            if attempt:
                pytest.fail(said)
            # seen twice under load (cold6, stop 34), the page's static shell with no error and no
            # console line, its loader never run; not understood. Said, and the reload asked again
            # (a visitor's next reload), so that the fallback is still tested and the page left booted
            warnings.warn(said)
    return gp.page.evaluate(BOOT)


def test_a_warm_visit_boots_from_the_post_import_snapshot_and_answers_right(gp):
    state = gp.page.evaluate(WAIT_SNAPSHOTS)
    assert not state["making"] and state["error"] is None, state
    assert state["recorded"], state  # the page keeps the snapshot's hash, no worker can write it
    boot = gp.page.evaluate(BOOT)
    if boot["from"] != "imports-snapshot":
        boot = reload(gp)
    assert boot["from"] == "imports-snapshot", boot
    # the probe passed before the interpreter was used; numpy and the engine were not loaded again
    assert "runtime:imports-probed" in boot["marks"] and "runtime:imports-snapshot-failed" not in boot["marks"], boot
    assert "numpy:loaded" not in boot["marks"] and "engine:loaded" not in boot["marks"], boot
    r = gp.run(ANSWERS)
    assert r["error"] is None, r
    assert r["stdout"].split() == ["12.0", "[3,", "12]", "11.0"], r
    # the app comes up from the restored Panel import
    assert gp.wait_ui() == "app"


WHEELS = """() => {
    const M = JSON.parse(document.getElementById('gp-manifest').textContent);
    const of = (stages) => stages.flatMap(s => M.stages[s]).map(p => M.files[p].file.split('/').pop());
    return {restored: of(['numpy', 'engine', 'ui'])};
}"""


def test_a_warm_visit_reads_none_of_the_wheels_it_restored(gp):
    """numpy's, the engine's and Panel's wheels are in the snapshot's memory: read from Cache Storage
    beside the runtime's files (and hashed), they only slowed the warm visit's start and UI."""
    gp.page.evaluate(WAIT_SNAPSHOTS)
    urls: list[str] = []

    def seen(request):
        urls.append(request.url)
    gp.page.on("request", seen)
    try:
        boot = reload(gp)
        assert gp.wait_ui() == "app"
        gp.page.wait_for_timeout(1500)  # (a prefetch after the UI would show by now)
    finally:
        gp.page.remove_listener("request", seen)
    assert boot["from"] == "imports-snapshot", boot
    names = [u.rsplit("/", 1)[-1] for u in urls]
    # the worker's requests are seen here (else this test could not fail)
    assert "pyodide.asm.js" in names, names
    restored = gp.page.evaluate(WHEELS)["restored"]
    assert len(restored) >= 10, restored
    assert [n for n in names if n in restored] == [], names


# Two restarts in a row: the first takes the ready standby, the second (asked at once) finds none
# and starts a fresh worker, which is lent the snapshot's bytes the page kept
# (static/restart_snapshot.js).
RESTART_TWICE = """async () => {
    const gp = window.gradpad;
    await gp.uiReady;
    // the page keeps the checked bytes at a quiet moment once a UI is up
    for (let i = 0; i < 1200 && !gp.restartSnapshot.bytes; i++) await new Promise(r => setTimeout(r, 250));
    for (let i = 0; i < 1200 && gp.standby.state !== 'ready'; i++) await new Promise(r => setTimeout(r, 250));
    const kept = gp.restartSnapshot.bytes, standby = gp.standby.state;
    const before = {...gp.restartSnapshot}, t = performance.now();
    gp.restart().catch(() => {});
    const first = gp.restartedBy;
    await gp.restart();
    const lent = gp.workerGotSnapshot(), path = gp.restartedBy;
    // the new standby the page starts after a restart may be lent the bytes too: wait until every
    // lend has come back
    for (let i = 0; i < 1200 && gp.restartSnapshot.given !== gp.restartSnapshot.back; i++) await new Promise(r => setTimeout(r, 250));
    return {kept, standby, first, before, lent, after: {...gp.restartSnapshot}, path, from: gp.bootedFrom,
            probed: (gp.timings['runtime:imports-probed'] || 0) > t, failed: (gp.timings['runtime:imports-snapshot-failed'] || 0) > t};
}"""


def test_a_restart_without_a_standby_starts_from_the_snapshot_the_page_kept(gp):
    gp.page.set_default_timeout(300_000)
    state = gp.page.evaluate(WAIT_SNAPSHOTS)
    assert state["recorded"] and state["error"] is None, state
    r = gp.page.evaluate(RESTART_TWICE)
    assert r["kept"] > 1_000_000, r  # the page read and checked the snapshot once
    assert r["standby"] == "ready" and r["first"] == "standby" and r["path"] == "fresh", r
    # the fresh worker was lent the bytes, restored from them and gave them back before its ready
    assert r["lent"] and r["after"]["given"] > r["before"]["given"], r
    assert r["after"]["back"] == r["after"]["given"], r  # every lend came back, before its worker's ready
    assert r["after"]["bytes"] == r["kept"] and r["after"]["dropped"] is None, r
    assert r["from"] == "imports-snapshot" and r["probed"] and not r["failed"], r
    r = gp.run(ANSWERS)
    assert r["error"] is None, r
    assert r["stdout"].split() == ["12.0", "[3,", "12]", "11.0"], r
    assert gp.wait_ui() == "app"


# A restart with no standby at all (?standby=off), under an endless loop: the fresh Python starts in
# the spare worker the page kept (static/spare_worker.js: the runtime's JS loaded and its wasm
# compiled, no interpreter) and restores from the bytes the page kept. The loop is not run again,
# the editor keeps it, and Python answers.
SPARE_RESTART = """async (loop) => {
    const gp = window.gradpad;
    await gp.uiReady;
    for (let i = 0; i < 1200 && !(gp.spareWorker.warm && gp.restartSnapshot.bytes); i++) await new Promise(r => setTimeout(r, 250));
    // the page's own first run (an autorun) is over: the Restart below is under the loop's run
    for (let idle = 0; idle < 1000; idle = gp.running ? 0 : idle + 50) await new Promise(r => setTimeout(r, 50));
    const before = {spare: {...gp.spareWorker}, kept: {...gp.restartSnapshot}, standby: gp.standby.state};
    const runs = gp.runs;
    setTimeout(() => gp.load({code: loop}).catch(() => {}), 0);
    while (!(gp.running && gp.runs > runs)) await new Promise(r => setTimeout(r, 5));
    // the editor shows the loop (the app's patch with it may come just after the run started)
    const find = (root) => { for (const el of root.querySelectorAll('*')) { if (el.classList.contains('ace_editor') && el.env) return el;
      const i = el.shadowRoot && find(el.shadowRoot); if (i) return i; } return null; };
    for (let i = 0; i < 600; i++) { const ace = find(document.querySelector('#app')); if (ace && ace.env.editor.getValue() === loop) break;
      await new Promise(r => setTimeout(r, 50)); }
    const t = performance.now();
    await gp.restart();
    const marks = Object.fromEntries(Object.entries(gp.timings).filter(([k, v]) => v >= t).map(([k, v]) => [k, Math.round(v - t)]));
    return {before, spare: {...gp.spareWorker}, path: gp.restartedBy, lent: gp.workerGotSnapshot(), from: gp.bootedFrom,
            marks, answer: (await gp.runPython('1 + 1')).result};
}"""


def test_a_restart_with_no_standby_starts_in_the_spare_worker(gp):
    from .test_stop_anywhere import LOOP, held_state
    gp.page.evaluate(WAIT_SNAPSHOTS)  # (the shared page made and recorded the snapshot)
    page = gp.page.context.new_page()
    try:
        page.set_default_timeout(300_000)
        page.goto(gp.url + "?standby=off", wait_until="domcontentloaded", timeout=120_000)
        r = page.evaluate(SPARE_RESTART, LOOP)
        assert r["before"]["standby"] == "off" and r["before"]["spare"]["warm"], r
        assert r["before"]["kept"]["bytes"] > 1_000_000, r
        # the restart took the spare, lent it the bytes, and it restored from them
        assert r["path"] == "fresh" and r["spare"]["taken"] == r["before"]["spare"]["taken"] + 1, r
        assert r["lent"] and r["from"] == "imports-snapshot", r
        assert "runtime:imports-probed" in r["marks"] and "runtime:imports-snapshot-failed" not in r["marks"], r
        assert r["answer"] == "2", r
        # the loop was not run again and the editor keeps it; a new spare waits for the next restart
        state = held_state(page)
        assert state["code"] == LOOP and state["run"] == 0 and state["running"] is False, state
        page.wait_for_function("() => window.gradpad.spareWorker.made === window.gradpad.spareWorker.taken + 1")
    finally:
        page.close()


# The page rewrites the cached post-import snapshot so that its libraries come in another order and
# their files are left out, and records the new hash as if it had made it (a snapshot that passes
# the hash check but does not fit this runtime: its restore asks emscripten's locateFile for a
# library, as CI's did in stop 35); the bare boot snapshot gets a byte changed without a new hash
# (tampered).
BREAK = """async () => {
    const m = await import(new URL('import_snapshot.js', location.href).href);
    const name = (await caches.keys()).find(k => k.startsWith('gpsnap-'));
    const cache = await caches.open(name);
    const key = new URL('pyodide/imports-snapshot.bin', location.href).href;
    const {meta, snapshot} = m.unpackSnapshot(new Uint8Array(await (await cache.match(key)).arrayBuffer()));
    meta.libs.reverse();
    const blob = m.packSnapshot(meta, snapshot);
    await cache.put(key, new Response(blob));
    const hex = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', blob)), b => b.toString(16).padStart(2, '0')).join('');
    const rec = JSON.parse(localStorage.getItem('gpsnap-imports-sha256'));
    localStorage.setItem('gpsnap-imports-sha256', JSON.stringify({build: rec.build, sha256: hex}));
    const bareKey = new URL('pyodide/boot-snapshot.bin', location.href).href;
    const bare = new Uint8Array(await (await cache.match(bareKey)).arrayBuffer());
    bare[bare.length - 1] ^= 1;
    await cache.put(bareKey, new Response(bare));
    return meta.libs.length;
}"""


def test_a_snapshot_that_does_not_fit_falls_back_to_the_normal_boot(gp):
    state = gp.page.evaluate(WAIT_SNAPSHOTS)
    assert state["recorded"] and state["error"] is None, state
    assert gp.page.evaluate(BREAK) > 1
    seen = len(gp.console)
    booted = False
    try:
        boot = reload(gp)
        booted = True
    finally:  # a page that never booted: the shared page is opened again, with no snapshot record
        if not booted:
            gp.page.evaluate("() => { localStorage.removeItem('gpsnap-imports-sha256'); localStorage.removeItem('gpsnap-sha256'); }")
            gp.page.goto(gp.url, wait_until="domcontentloaded", timeout=120_000)
            gp.page.evaluate(BOOT)
    # the restore refused (a library's file is not where the record says) and said so; that
    # worker booted nothing more: the page started a fresh one, with no snapshot (so the tampered
    # bare snapshot was not used either), which booted the normal way
    assert boot["from"] == "boot", boot
    assert "runtime:imports-snapshot-failed" in boot["marks"] and "runtime:fresh-worker" in boot["marks"], boot
    fresh = gp.page.evaluate("() => window.gradpad.freshBoots")
    assert [f["kind"] for f in fresh] == ["post-import snapshot"], fresh
    assert "Didn't expect to load any more file_packager files!" in fresh[0]["why"], fresh
    # its hash (recorded anew above) was checked while the runtime loaded, before the memory was
    # copied in (runtime_patch.py: _beforeSnapshotRestore)
    t = gp.page.evaluate("() => window.gradpad.timings")
    assert t["runtime:imports-snapshot-read"] <= t["runtime:imports-snapshot-hashed"] <= t["runtime:imports-memory"], t
    warnings = "\n".join(gp.console[seen:])
    assert "post-import snapshot failed its restore or probe" in warnings, warnings[-2000:]
    assert "starting a fresh Python worker with no snapshot" in warnings, warnings[-2000:]
    r = gp.run(ANSWERS)
    assert r["error"] is None and r["stdout"].split()[0] == "12.0", r
    assert gp.wait_ui() == "app"
    # the bad snapshot is dropped and made again for the next visit
    state = gp.page.evaluate(WAIT_SNAPSHOTS)
    assert state["saved"] and state["error"] is None, state
