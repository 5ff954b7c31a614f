"""Install the pinned ecosystem libraries (requirements.txt) into <repo>/.ecosystem with --no-deps.

`python tests/ecosystem/install.py` (build.py's test set-up and tests/test_ecosystem.py call
`ensure_installed()`). Idempotent: a stamp holding the requirements' text skips a second install.
Refuses to leave a real jax or jaxlib there (none of the pins pulls one in, since --no-deps).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TARGET = ROOT / ".ecosystem"
REQUIREMENTS = HERE / "requirements.txt"
# the second ring (issue 24): numpyro, blackjax, diffrax, ... in a target of their own, used next to TARGET
RING2_TARGET = ROOT / ".ecosystem-ring2"
RING2_REQUIREMENTS = HERE / "ring2_requirements.txt"
FORBIDDEN = ("jax", "jaxlib")


def installed_distributions(target: Path = TARGET) -> set:
    """Lower-case names of the distributions installed in `target` (from their .dist-info dirs)."""
    return {p.name.split("-")[0].lower().replace("_", "-") for p in target.glob("*.dist-info")}


def ensure_installed(python: str = sys.executable, target: Path = TARGET, requirements: Path = REQUIREMENTS) -> Path:
    stamp = target / ".requirements"
    wanted = requirements.read_text()
    if stamp.exists() and stamp.read_text() == wanted:
        return target
    if target.exists():
        shutil.rmtree(target)
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                    "--target", str(target), "-r", str(requirements)], check=True)
    bad = installed_distributions(target) & set(FORBIDDEN)
    if bad:
        raise RuntimeError(f"{sorted(bad)} got installed into {target}: gradpad's engine must be the only jax there")
    stamp.write_text(wanted)
    return target


def ensure_ring2_installed(python: str = sys.executable) -> Path:
    return ensure_installed(python, RING2_TARGET, RING2_REQUIREMENTS)


if __name__ == "__main__":
    print(ensure_installed())
    print(ensure_ring2_installed())
