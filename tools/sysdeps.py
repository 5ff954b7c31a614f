"""System packages the test suite needs beyond PyPI: Debian's software Vulkan (lavapipe) for the
WebGPU backend's CPython tests (wgpu-py -> Vulkan -> llvmpipe), and the browsers besides
Chromium that the browser tests drive (tests/browser/drivers.py): Firefox ESR and WebKitGTK."""
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


# Firefox ESR (driven over Marionette) and WebKitGTK (WebKitWebDriver starts its MiniBrowser,
# from libwebkit2gtk-4.1-0, on an Xvfb display); each path is what tests/browser/drivers.py runs
BROWSER_PACKAGES = {"firefox-esr": ["/usr/bin/firefox-esr"],
                    "webkit2gtk-driver": ["/usr/bin/WebKitWebDriver"],
                    "xvfb": ["/usr/bin/Xvfb"]}


def ensure_browsers(log=print) -> dict:
    """Install the missing BROWSER_PACKAGES with apt-get. Returns {package: why it is missing}
    for those still missing (empty when all are there)."""
    missing = [p for p, paths in BROWSER_PACKAGES.items() if not all(os.path.exists(f) for f in paths)]
    if not missing:
        return {}
    cmd = "apt-get update && apt-get install -y " + " ".join(missing)
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return {p: f"not installed and this user cannot install it: run `sudo {cmd}` (Debian/Ubuntu)"
                for p in missing}
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    log(f"installing {' '.join(missing)} (the browser tests' Firefox and WebKit)")
    try:
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True, env=env)
    except subprocess.CalledProcessError as e:
        return {p: f"`{cmd}` failed ({e})" for p in missing}
    return {p: f"apt-get installed {p} but {', '.join(BROWSER_PACKAGES[p])} is still missing"
            for p in missing if not all(os.path.exists(f) for f in BROWSER_PACKAGES[p])}


if __name__ == "__main__":
    ensure_vulkan()
    print("vulkan ok; XDG_RUNTIME_DIR =", os.environ["XDG_RUNTIME_DIR"])
