"""The page's own modules (static/*.js) run in Node.js, outside the browser: a test writes a small
ES-module script that imports one (by `static_module(name)`, its file URL as a JS string literal),
drives it with stand-ins for the browser, and prints `@@` and then a JSON object of what it saw;
`run_script` runs that script and returns the object. Node.js comes with the test command
(`python build.py test` needs it for the site build too)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def static_module(name: str) -> str:
    """static/<name>'s file URL, quoted for the script's `import(...)`."""
    return json.dumps((ROOT / "static" / name).as_uri())


def run_script(script: str, timeout_s: float = 60) -> dict:
    node = shutil.which("node")
    assert node, "Node.js runs static/*.js outside the browser: apt-get install nodejs"
    proc = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True,
                          timeout=timeout_s)
    assert proc.returncode == 0 and "@@" in proc.stdout, (proc.returncode, proc.stderr[-3000:])
    return json.loads(proc.stdout.split("@@", 1)[1])
