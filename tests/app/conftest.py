"""Fixtures shared by the app tests."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def ecosystem_importable():
    """flax/optax/equinox, unmodified, importable (tests/ecosystem/install.py; the page loads them on
    first import): for the gallery examples that use them, whichever test module runs first."""
    sys.path.insert(0, str(ROOT / "tests" / "ecosystem"))
    from install import ensure_installed
    sys.path.insert(0, str(ensure_installed()))


@pytest.fixture(scope="session")
def ring2_importable(ecosystem_importable):
    """numpyro/diffrax/blackjax, unmodified, importable (tests/ecosystem/install.py's second ring)."""
    from install import ensure_ring2_installed
    target = str(ensure_ring2_installed())
    if target not in sys.path:
        sys.path.insert(0, target)
