"""Launching Debian's /usr/bin/chromium with Playwright (never `playwright install`)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from . import cost

CHROMIUM = Path(os.environ.get("GRADPAD_CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-unsafe-webgpu", "--disable-dev-shm-usage",
]
LOCAL_HOSTS = {"127.0.0.1"}


def problem() -> str | None:
    p = os.environ.get("GRADPAD_BROWSER_PROBLEM")
    if p:
        return p
    if not CHROMIUM.exists():
        return (f"{CHROMIUM} is missing: `python build.py test` installs Debian's chromium "
                "(as root); or set GRADPAD_CHROMIUM to a Chromium binary")
    return None


def launch(pw, user_data_dir: str | None = None, extra_flags=()):
    """A persistent context on a fresh (or given) profile; returns (context, profile dir)."""
    udd = user_data_dir or tempfile.mkdtemp(prefix="gradpad-chromium-")
    ctx = pw.chromium.launch_persistent_context(
        udd, executable_path=str(CHROMIUM), headless=False,  # --headless=new is in FLAGS
        args=[*FLAGS, *extra_flags], viewport={"width": 1280, "height": 900})
    cost.watch(ctx)
    return ctx, udd


def is_local(url: str) -> bool:
    u = urlparse(url)
    if u.scheme in ("data", "blob", "about", "chrome-error", "chrome"):
        return True
    return u.hostname in LOCAL_HOSTS


def guard_network(ctx, attempts: list[str]) -> None:
    """Abort and record every request that would leave 127.0.0.1."""
    def handler(route):
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            attempts.append(url)
            route.abort("blockedbyclient")
    ctx.route("**/*", handler)
