"""Screenshots taken for a person to look at (no test asserts on them; the tests that check pixels
take their own). `GRADPAD_SCREENSHOTS` names their folder; `off` takes none: the whole suite's run
(`python build.py test`, as CI runs it) sets it, since nobody looks at them there and its ~400
screenshots cost it about a minute. A run of a few test files takes them as before."""
from __future__ import annotations

import os


def wanted() -> bool:
    return os.environ.get("GRADPAD_SCREENSHOTS") != "off"
