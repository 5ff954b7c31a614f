"""The page's module graph, flattened into <link rel=modulepreload> tags (tools/site.py).

loader.js imports ~17 modules, and guard.js imports two more: without preload tags the browser
learns of each level only after the level above has arrived and been parsed, so the page's
first script runs three request round trips after the HTML (each through the service worker on
a return visit). With one tag per module all of them are requested while the HTML is parsed.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

# static `import ... from "./x.js"` and `import "./x.js"` (the page's modules use only these forms;
# dynamic import() of the app's resources is not part of the first script's graph)
IMPORT = re.compile(r"""^\s*import\s+(?:[^"';]*?\s+from\s+)?["'](\.{1,2}/[^"']+)["']""", re.M)


def module_graph(root: Path, entry: str) -> list[str]:
    """Every module `entry` (a path under `root`) imports, directly or not, in the order first
    met (depth first); paths under `root`, POSIX style, without `entry` itself."""
    seen: list[str] = []

    def visit(rel: str) -> None:
        path = root / rel
        for spec in IMPORT.findall(path.read_text()):
            dep = (path.parent / spec).resolve().relative_to(root.resolve()).as_posix()
            if dep != entry and dep not in seen:
                seen.append(dep)
                visit(dep)

    visit(entry)
    return seen


def modulepreload_tags(root: Path, entry: str) -> str:
    return "\n".join(f'<link rel="modulepreload" href="{html.escape(m)}">' for m in [entry, *module_graph(root, entry)])
