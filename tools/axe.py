"""axe-core (Deque's accessibility rules engine) for the browser tests: `npm pack` from the npm
registry into .cache/site/npm, unpacked once into .cache/site/axe-core-<v>/. The tests inject its
axe.min.js into the page (tests/browser/a11y.py); the site never ships it.

    python -m tools.axe        # fetch it (the browser tests do this themselves) and print the path
"""
from __future__ import annotations

import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

from tools.site import CACHE, npm_pack

AXE_VERSION = "4.14.1"


def fetch_axe() -> Path:
    """The path of axe.min.js, downloaded with npm on first use."""
    out = CACHE / f"axe-core-{AXE_VERSION}"
    script = out / "axe.min.js"
    if script.exists():
        return script
    tgz = npm_pack("axe-core", AXE_VERSION, "axe-core for the accessibility tests")
    tmp = Path(tempfile.mkdtemp(dir=CACHE))
    try:
        with tarfile.open(tgz) as tf:
            tf.extractall(tmp, filter="data")
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        shutil.copy2(tmp / "package" / "axe.min.js", script)
        shutil.copy2(tmp / "package" / "LICENSE", out / "LICENSE")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return script


if __name__ == "__main__":
    print(fetch_axe())
    sys.exit(0)
