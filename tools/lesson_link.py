"""A lesson in a link: turn a teacher's Markdown lesson into a gradpad URL (and iframe snippet) that
carries the whole lesson, for course sites that cannot put files next to gradpad.

    python -m tools.lesson_link LESSON.md https://your.site/gradpad/ [--embed]

The lesson travels in the URL's #fragment (never sent to any server); see docs/teachers.md.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app import lesson, share  # noqa: E402


def lesson_url(text: str, base: str, embed: bool = False) -> str:
    lesson.parse(text)  # a lesson that does not parse fails here, not in the learner's browser
    query = "?embed=1&lesson=inline" if embed else "?lesson=inline"
    return f"{base}{query}#lesson={lesson.encode_lesson(text)}"


def iframe_snippet(url: str, height: int = 900) -> str:
    return (f'<iframe src="{url}" width="100%" height="{height}" style="border:1px solid #ccc;border-radius:6px" '
            f'title="gradpad lesson" loading="lazy" sandbox="{share.EMBED_SANDBOX}" allow="{share.EMBED_ALLOW}"></iframe>')


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lesson", type=Path)
    p.add_argument("base", help="where gradpad's dist/ is served, e.g. https://example.org/gradpad/")
    p.add_argument("--embed", action="store_true", help="print an iframe snippet instead of a link")
    a = p.parse_args(argv)
    base = a.base if a.base.endswith("/") else a.base + "/"
    try:
        url = lesson_url(a.lesson.read_text(encoding="utf-8"), base, embed=a.embed)
    except lesson.LessonError as e:
        print(f"{a.lesson}: {e}", file=sys.stderr)
        return 1
    print(iframe_snippet(url) if a.embed else url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
