#!/usr/bin/env python3
"""gradpad's one entry point: set-up, site build, serve, test, bench.

    python build.py serve         # set up, build dist/, serve it on 127.0.0.1 (prints the URL)
    python build.py test          # venv + deps (+ Debian chromium, firefox-esr, webkit2gtk-driver, xvfb),
                                  # build dist/, the whole pytest suite
    python build.py site          # build dist/ only
    python build.py bench [core|site|webgpu|page]

Everything is fetched from package registries (PyPI, npm, Debian) and cached in .cache/.
The site-building code lives in tools/ (site.py, serve.py, bench_site.py).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
CACHE = ROOT / ".cache"
CHROMIUM = Path("/usr/bin/chromium")


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd, **kw) -> None:
    log(" ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv(extras: str = "test") -> Path:
    """Create .venv and install the project with its extras (idempotent, fast when done)."""
    py = venv_python()
    if not py.exists():
        log(f"creating virtualenv {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{extras}"
    pyproject = ROOT / "pyproject.toml"
    if not stamp.exists() or stamp.stat().st_mtime < pyproject.stat().st_mtime:
        run([py, "-m", "pip", "install", "-q", "-e", f".[{extras}]"], cwd=ROOT)
        stamp.touch()
    return py


def ensure_chromium() -> str | None:
    """Debian's chromium for the browser tests (never `playwright install`). Returns an error or None."""
    if CHROMIUM.exists():
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return (f"{CHROMIUM} is missing and this user cannot apt-get it: run "
                "`sudo apt-get update && sudo apt-get install -y chromium` (Debian/Ubuntu), then retry.")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        run(["apt-get", "update", "-q"], env=env)
        run(["apt-get", "install", "-y", "-q", "chromium"], env=env)
    except subprocess.CalledProcessError as e:
        return f"apt-get install chromium failed ({e}); the browser tests cannot run"
    return None if CHROMIUM.exists() else f"apt-get ran but {CHROMIUM} is still missing"


def build_site(py: Path, force: bool = False) -> int:
    return subprocess.call([str(py), "-m", "tools.site", "build", *(["--force"] if force else [])], cwd=ROOT)


def cmd_test(args) -> int:
    py = ensure_venv("test,site,browser,webgpu")
    try:
        from tools.sysdeps import ensure_vulkan
        ensure_vulkan(log)  # lavapipe for the WebGPU backend's CPython tests; sets XDG_RUNTIME_DIR
    except RuntimeError as e:
        log(f"ERROR: {e}")  # the WebGPU tests will fail and say why
    env = dict(os.environ)
    if not args.pytest_args:  # the whole suite (CI): no screenshots for people (tests/browser/shots.py)
        env.setdefault("GRADPAD_SCREENSHOTS", "off")
    try:  # optax/chex/equinox/flax (.ecosystem/) and the second ring (.ecosystem-ring2/), pinned, --no-deps (never jax/jaxlib)
        run([py, ROOT / "tests" / "ecosystem" / "install.py"])
    except subprocess.CalledProcessError as e:
        log(f"ERROR: installing the ecosystem libraries failed ({e}); tests/test_ecosystem.py will fail")
    problem = ensure_chromium()
    if problem:
        log(f"ERROR: {problem}")
        env["GRADPAD_BROWSER_PROBLEM"] = problem  # the browser tests fail with this message
    from tools.sysdeps import ensure_browsers
    for package, why in ensure_browsers(log).items():  # Firefox ESR and WebKitGTK (tests/browser/drivers.py)
        log(f"ERROR: {package}: {why}")
        name = "FIREFOX" if package == "firefox-esr" else "WEBKIT"
        env[f"GRADPAD_{name}_PROBLEM"] = f"{package}: {why}"  # tests/browser/test_every_browser.py fails with it
    if build_site(py) != 0:
        log("ERROR: building dist/ failed (see above); the browser tests will fail")
    rc = 0
    for phase in pytest_phases(args.pytest_args):
        cmd = [str(py), "-m", "pytest", *phase]
        log(" ".join(cmd))
        rc = subprocess.call(cmd, cwd=ROOT, env=env) or rc
    return rc


def pytest_phases(pytest_args: list) -> list:
    """What `build.py test` runs: the given pytest arguments as one run, or (none given) the whole
    suite in two runs: the tests that need no browser spread over the machine's cores
    (pytest-xdist; they are CPU-bound and independent), then tests/browser/ in one process, since
    its tests share one Chromium page and measure the page's own timings, which other work on the
    same cores would disturb."""
    if pytest_args:
        return [list(pytest_args)]
    workers = max(1, min(os.cpu_count() or 1, 4))
    parallel = ["-n", str(workers), "--dist", "loadscope"] if workers > 1 else []
    return [[*parallel, "--ignore=tests/browser", "tests"], ["tests/browser"]]


def cmd_site(args) -> int:
    py = ensure_venv("site")
    return build_site(py, force=args.force)


def cmd_serve(args) -> int:
    py = ensure_venv("site")
    rc = build_site(py, force=args.force)
    if rc:
        return rc
    cmd = [str(py), "-m", "tools.serve", *(["--port", str(args.port)] if args.port else [])]
    try:
        return subprocess.call(cmd, cwd=ROOT)
    except KeyboardInterrupt:
        return 0


def _browser_bench(extras: str, module: list, vulkan: bool = False) -> int:
    """Set up what a benchmark in headless Chromium needs (venv, chromium, dist/), then run it."""
    py = ensure_venv(extras)
    if vulkan:
        from tools.sysdeps import ensure_vulkan
        ensure_vulkan(log)
    problem = ensure_chromium()
    if problem:
        log(f"ERROR: {problem}")
        return 2
    if build_site(py):
        return 1
    return subprocess.call([str(py), "-m", *module], cwd=ROOT)


def cmd_bench(args) -> int:
    if args.what and args.what[0] == "site":
        return _browser_bench("test,site,browser", ["tools.bench_site", *args.what[1:]])
    if args.what and args.what[0] == "page":  # edit -> panes latency in the page, core workloads in Pyodide
        return _browser_bench("test,site,browser", ["tools.bench_page", *args.what[1:]])
    if args.what and args.what[0] == "webgpu":
        return _browser_bench("test,site,browser,webgpu", ["tests.bench_webgpu", "--browser", *args.what[1:]],
                              vulkan=True)
    py = ensure_venv("test")
    return subprocess.call([str(py), "-m", "tests.bench", *args.what], cwd=ROOT)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="verb", required=True)
    t = sub.add_parser("test", help="set up and run the test suite (browser tests included)")
    t.add_argument("pytest_args", nargs=argparse.REMAINDER)
    t.set_defaults(fn=cmd_test)
    s = sub.add_parser("serve", help="build dist/ and serve it on 127.0.0.1")
    s.add_argument("--port", type=int, default=0, help="default: a free port")
    s.add_argument("--force", action="store_true", help="rebuild dist/ even when up to date")
    s.set_defaults(fn=cmd_serve)
    s = sub.add_parser("site", help="build dist/")
    s.add_argument("--force", action="store_true", help="rebuild dist/ even when up to date")
    s.set_defaults(fn=cmd_site)
    b = sub.add_parser("bench", help="benchmarks (`bench site`: page load, cold and warm; `bench page`: "
                                     "edit -> panes latency and the core workloads in the page)")
    b.add_argument("what", nargs=argparse.REMAINDER)
    b.set_defaults(fn=cmd_bench)
    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
