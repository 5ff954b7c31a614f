"""The site build (tools/site.py) without a browser: integrity of what dist/ ships."""
from __future__ import annotations

import hashlib
import json
import re
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import site  # noqa: E402


def test_wasm_wheel_with_wrong_hash_fails_the_build(tmp_path, monkeypatch):
    """A third party's wheel that differs from Pyodide's official lock stops the build."""
    monkeypatch.setattr(site, "CACHE", tmp_path)
    monkeypatch.setattr(site, "OFFICIAL", ["numpy"])
    monkeypatch.setattr(site, "OFFICIAL_LAZY", [])
    name, version = site.PROVISA
    (tmp_path / "provisa").mkdir()
    fake = tmp_path / "provisa" / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(fake, "w") as zf:
        zf.writestr(site.PROVISA_ASSETS + "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl", b"tampered")
    official = {"packages": {"numpy": {
        "file_name": "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl",
        "sha256": hashlib.sha256(b"genuine").hexdigest()}}}
    with pytest.raises(SystemExit, match="SECURITY"):
        site.fetch_wasm_wheels(official)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    return site.snapshot(tmp_path_factory.mktemp("dist"))


def test_lock_lists_shipped_files_with_their_hashes(dist):
    lock = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == site.PYODIDE_VERSION
    names = set(lock["packages"])
    assert {"numpy", "gradpad", "panel", "bokeh", "pyyaml", "markupsafe"} <= names
    for name, pkg in lock["packages"].items():
        f = dist / "pyodide" / pkg["file_name"]
        assert "/" not in pkg["file_name"] and f.exists(), name
        assert hashlib.sha256(f.read_bytes()).hexdigest() == pkg["sha256"], name
        assert set(pkg["depends"]) <= names, name


def test_pure_wheels_are_pure_and_precompiled(dist):
    for whl in (dist / "pyodide").glob("*-none-any.whl"):
        with zipfile.ZipFile(whl) as zf:
            files = zf.namelist()
        if site.find_python312():
            assert not [f for f in files if f.endswith(".py")], f"{whl.name} ships sources"
        assert not [f for f in files if f.endswith((".so", ".pyd"))], whl.name


def test_page_shell_names_no_other_host(dist):
    for name in ("index.html", "loader.js", "sw.js", "manifest.json"):
        text = (dist / name).read_text()
        assert not re.findall(r"https?://(?!127\.0\.0\.1)", text), name
    manifest = json.loads((dist / "manifest.json").read_text())
    assert list(manifest["stages"]) == ["numpy", "engine", "ui"]
    for f in manifest["files"].values():
        assert (dist / f["file"]).exists()
    for rel in manifest["bokeh"] + [manifest["panel"]["js"]]:
        assert (dist / rel).exists(), rel


def test_numpy_is_slimmed_but_keeps_every_extension_module(dist):
    """The site's numpy drops headers, stubs and C sources, never a compiled module or a .pyc; it
    keeps numpy.f2py's Python (numpy.__all__ names it: `from numpy import *` imports it)."""
    shipped = next((dist / "pyodide").glob("numpy-*.whl"))
    original = site.CACHE / "wasm" / shipped.name
    with zipfile.ZipFile(shipped) as zf:
        files = set(zf.namelist())
    assert not [f for f in files if f.endswith((".pyi", ".h", ".pxd", ".c"))]
    assert {"numpy/f2py/__init__.py", "numpy/f2py/__init__.pyc"} & files
    assert "numpy/linalg/_umath_linalg.cpython-312-wasm32-emscripten.so" in files
    if original.exists():
        with zipfile.ZipFile(original) as zf:
            extensions = {f for f in zf.namelist() if f.endswith(".so")}
        assert extensions <= files


def test_panel_and_bokeh_wheels_leave_out_what_python_never_reads(dist):
    """Fetched before the UI: Panel's logos and icons (read from disk only by `panel serve` and
    `panel convert`; the page's Panel names them by URL), the integrity hashes of ~100 older
    BokehJS releases, and zip entries for files no Panel model names (ace's modes and themes)."""
    with zipfile.ZipFile(next((dist / "pyodide").glob("panel-*.whl"))) as zf:
        panel = zf.infolist()
    names = [i.filename for i in panel]
    assert not [n for n in names if n.startswith(("panel/dist/images/", "panel/dist/assets/logo/"))]
    assert [n for n in names if n.startswith("panel/dist/assets/") and n.endswith("_spinner.svg")]  # inlined by config
    stand_ins = [i.filename for i in panel if i.filename.startswith("panel/dist/bundled/") and i.file_size == 0]
    assert 0 < len(stand_ins) < 300, len(stand_ins)
    assert not [n for n in stand_ins if "/mode-" in n or "/theme-" in n]
    bokeh = next((dist / "pyodide").glob("bokeh-*.whl"))
    with zipfile.ZipFile(bokeh) as zf:
        sri = [n for n in zf.namelist() if n.startswith("bokeh/_sri/")]
    assert sri == [f"bokeh/_sri/{bokeh.name.split('-')[1]}.json"]


def test_every_panel_model_still_picks_its_self_hosted_files(dist, tmp_path):
    """Panel's bundled_files() picks the page's own copy of a model's JS/CSS (served from
    dist/panel/) only where the file exists in site-packages, else a CDN URL: the shipped wheel
    keeps an empty stand-in for every file a model names. Checked with Panel's own code over all
    its models, against a full install."""
    import importlib
    import pkgutil

    import bokeh.model
    import panel
    import panel.models
    from panel.io import resources

    for m in pkgutil.iter_modules(panel.models.__path__):  # each registers its models
        importlib.import_module(f"panel.models.{m.name}")

    shipped = next((dist / "pyodide").glob("panel-*.whl"))
    assert shipped.name.split("-")[1] == panel.__version__, "the test needs the shipped Panel's version"
    with zipfile.ZipFile(shipped) as zf:
        zf.extractall(tmp_path, [n for n in zf.namelist() if n.startswith("panel/dist/bundled/")])
    models = [m for m in bokeh.model.Model.model_class_reverse_map.values() if m.__module__.startswith("panel.")]
    full = {(m, t): resources.bundled_files(m, t) for m in models for t in ("javascript", "css")}
    real = resources.BUNDLE_DIR
    try:
        resources.BUNDLE_DIR = tmp_path / "panel" / "dist" / "bundled"
        slim = {(m, t): resources.bundled_files(m, t) for m in models for t in ("javascript", "css")}
    finally:
        resources.BUNDLE_DIR = real
    # the served ones: dist/panel/ leaves out a few heavy extensions (site.PANEL_BUNDLED_SKIP)
    local = "static/extensions/panel/bundled/"
    served = {k: [u for u in v if u.startswith(local) and not u[len(local):].startswith(tuple(site.PANEL_BUNDLED_SKIP))]
              for k, v in full.items()}
    assert sum(len(v) for v in served.values()) > 20
    lost = {f"{m.__name__} {t}": [u for u in served[m, t] if u not in slim[m, t]] for m, t in full}
    assert not {k: v for k, v in lost.items() if v}


def test_the_normal_table_ships_beside_the_wheel_not_in_it(dist):
    """The packed normal table (1.1 MB, decoded in the page only after ~86 draws) is not in the
    wheel loaded before a first result: it sits in dist/ with its sha256 in the manifest, and
    app/lazy_files.py fetches it when core reads it."""
    manifest = json.loads((dist / "manifest.json").read_text())
    spec = manifest["lazy"]["files"]["core/normal_table_f32.bin"]
    shipped = (dist / "pyodide" / spec["file"]).read_bytes()
    assert shipped == (ROOT / "core" / "normal_table_f32.bin").read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == spec["sha256"] and spec["size"] == len(shipped)
    engine = next((dist / "pyodide").glob("gradpad-*.whl"))
    with zipfile.ZipFile(engine) as zf:
        names = zf.namelist()
    assert "core/_engine/libraries/normal_table_pack.py" in names or "core/_engine/libraries/normal_table_pack.pyc" in names
    assert not [n for n in names if n.endswith(".bin")]


def test_gzip_twins_are_their_files_and_the_service_worker_lists_them(dist):
    """A `.gz` twin (served gzip-encoded by tools/serve.py) holds its file's bytes, and it is on
    the service worker's hash list like every file it may serve; sw.js's own twin is the final
    sw.js, with its list written in (not the template's placeholder)."""
    import base64
    import gzip

    sw = (dist / "sw.js").read_text()
    assert "__GRADPAD_HASHES__" not in sw
    hashes = json.loads(re.search(r"const HASHES = (\{.*?\});", sw).group(1))
    twins = sorted(dist.rglob("*.gz"))
    assert any(t.name == "pyodide.asm.wasm.gz" for t in twins) and (dist / "sw.js.gz") in twins
    for twin in twins:
        rel = twin.relative_to(dist).as_posix()
        assert gzip.decompress(twin.read_bytes()) == twin.with_suffix("").read_bytes(), rel
        if rel != "sw.js.gz":
            assert hashes[rel] == base64.b64encode(hashlib.sha256(twin.read_bytes()).digest()).decode(), rel
    # and every other file of the build is listed too (not the build's own stamp)
    for f in dist.rglob("*"):
        rel = f.relative_to(dist).as_posix()
        if f.is_file() and rel not in ("sw.js", "sw.js.gz", site.STAMP.name):
            assert rel in hashes, rel


def test_the_page_asks_for_its_whole_module_graph_with_the_html_and_the_service_worker_keeps_it(dist):
    """Every module loader.js imports, at any depth (guard.js's DOMPurify and allow-list are two
    levels down), has a modulepreload tag in the built page before loader.js's script, and is in the
    service worker's precache list (a return visit answers it from Cache Storage)."""
    from tools.page_preloads import module_graph

    index = (dist / "index.html").read_text()
    graph = module_graph(dist, "loader.js")
    assert {"guard.js", "vendor/purify.es.mjs", "model_allowlist.js", "preview.js"} <= set(graph), graph
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', index)
    assert preloaded == ["loader.js", *graph], preloaded
    assert index.index('rel="modulepreload"') < index.index('<script type="module" src="loader.js">')
    sw = (dist / "sw.js").read_text()
    precache = re.findall(r'"([^"]+\.m?js)"', re.search(r"const PRECACHE = \[(.*?)\];", sw, re.S).group(1))
    assert not set(["loader.js", "runtime_preload.js", *graph]) - set(precache), set(graph) - set(precache)


REBUILD = r"""
import fs from "node:fs";
const m = await import(%(module)s);
const info = JSON.parse(%(info)s);
const bytes = new Uint8Array(info.size);
await m.fillBuildSnapshot(bytes, info, "http://site.invalid/", Promise.resolve(fs.readFileSync(%(wasm)s)),
                          async () => new Response(fs.readFileSync(%(file)s)));
console.log("@@" + new Uint32Array(bytes.buffer, 0, 2)[1]);
"""


def test_the_builds_bare_snapshot_is_small_and_rebuilds_from_the_shipped_wasm(dist, tmp_path):
    """A first visit starts CPython from the build's bare snapshot (tools/bare_snapshot.py): the
    shipped file, XORed back with the shipped wasm's data segment, hashes to the manifest's SHA-256
    (the worker uses it only then), and costs under 4.5 MB of a first visit's 20."""
    import shutil
    import subprocess

    assert shutil.which("node"), "Node.js makes and checks the snapshot: install nodejs"
    info = json.loads((dist / "manifest.json").read_text())["bareSnapshot"]
    assert info and info["file"].endswith(".snap"), info
    path = dist / info["file"]
    assert path.stat().st_size == info["bytes"] < 4.5e6, info
    # its stdlib zip lacks the sources of the modules the snapshot holds imported: 0.5 MB less
    full, trimmed = dist / "pyodide" / "python_stdlib.zip", dist / info["stdlib"]
    assert info["stdlibDropped"] > 50 and trimmed.stat().st_size < full.stat().st_size - 500_000, info
    with zipfile.ZipFile(full) as f, zipfile.ZipFile(trimmed) as t:
        assert "asyncio/tasks.py" in f.namelist() and "asyncio/tasks.py" not in t.namelist()
        assert "difflib.py" in t.namelist() and len(f.namelist()) - len(t.namelist()) == info["stdlibDropped"]
    script = tmp_path / "t.mjs"
    script.write_text(REBUILD % {"module": json.dumps((ROOT / "static" / "boot_snapshot.js").as_uri()),
                                 "info": json.dumps(json.dumps(info)), "file": json.dumps(str(path)),
                                 "wasm": json.dumps(str(dist / "pyodide" / "pyodide.asm.wasm"))})
    run = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout.split("@@", 1)[1]) > 0  # Pyodide's header: where the memory starts
