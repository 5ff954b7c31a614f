"""System packages the test suite needs beyond PyPI: Debian's software Vulkan (lavapipe) for the
WebGPU backend's CPython tests (wgpu-py -> Vulkan -> llvmpipe)."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile

VULKAN_PACKAGES = ["mesa-vulkan-drivers", "libvulkan1"]


def _have_vulkan() -> bool:
    icds = glob.glob("/usr/share/vulkan/icd.d/lvp_icd*.json") + glob.glob("/etc/vulkan/icd.d/*.json")
    loader = any(glob.glob(p) for p in ("/usr/lib/*/libvulkan.so.1", "/usr/lib/libvulkan.so.1", "/lib/*/libvulkan.so.1"))
    return bool(icds) and loader


def ensure_vulkan(log=print) -> None:
    """Install lavapipe (mesa-vulkan-drivers) and the Vulkan loader when missing, and set
    XDG_RUNTIME_DIR (the Vulkan loader and Mesa warn or fail without it). Raises RuntimeError
    with the command to run when it cannot install them itself."""
    if not os.environ.get("XDG_RUNTIME_DIR"):
        d = os.path.join(tempfile.gettempdir(), f"xdg-runtime-{os.getuid()}")
        os.makedirs(d, mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = d
    if _have_vulkan():
        return
    cmd = "apt-get update && apt-get install -y --no-install-recommends " + " ".join(VULKAN_PACKAGES)
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise RuntimeError(f"Vulkan (lavapipe) is missing and this user cannot install it: run `sudo {cmd}` "
                           "(Debian/Ubuntu), then retry. The WebGPU backend's tests need a Vulkan driver.")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    log(f"installing {' '.join(VULKAN_PACKAGES)} (software Vulkan for the WebGPU tests)")
    try:
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *VULKAN_PACKAGES],
                       check=True, env=env)
    except subprocess.CalledProcessError as e:
        raise RuntimeError(f"`{cmd}` failed ({e}); the WebGPU tests cannot run") from e
    if not _have_vulkan():
        raise RuntimeError(f"apt-get installed {VULKAN_PACKAGES} but no Vulkan ICD/loader was found")


if __name__ == "__main__":
    ensure_vulkan()
    print("vulkan ok; XDG_RUNTIME_DIR =", os.environ["XDG_RUNTIME_DIR"])
