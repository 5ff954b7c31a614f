"""Course pages side by side: one embed, three embeds, a three-cell lesson page in one frame, and
the same three cells as code blocks of a course page with one script tag (static/lesson.js: a
frame at each block, all on one Python), each on a course site of another origin, each in a fresh
headless Chromium (first visit, cold profile).

    python -m tools.bench_lesson [--rounds N] [--kinds one_embed,lesson_blocks] [--json PATH]

For each page: seconds from navigation to ready (every frame's UI rendered, which in both kinds
of page comes after the first runs: the panes in view show their code's results) and to settled
(no pane still measuring), the Pythons booted, and the memory of the browser's processes (RSS
summed over Chromium's process tree, sampled at ready+2 s) against a blank page. Rounds
alternate the pages so machine load hits all alike; medians are printed with the ratios.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import share  # noqa: E402
from tests.browser import chromium  # noqa: E402
from tools import serve, site  # noqa: E402

EXAMPLES = ["jnp_basics_and_immutability", "grad_value_and_grad_has_aux", "jvp_and_vjp"]


def script_tag_page(gp: str) -> str:
    """The sample lesson's cells as a course page writes them: code blocks and one script tag."""
    import html

    from app import lesson
    cells = [p for p in lesson.parse((ROOT / "static/lessons/first-steps.md").read_text()) if isinstance(p, lesson.CellSpec)]
    blocks = [f'<pre data-panes="{",".join(c.panes)}"{"" if c.autorun else " data-autorun=0"}'
              f'{f" data-function={c.function}" if c.function else ""}>'
              f'<code class="language-python">{html.escape(c.code)}</code></pre>' for c in cells]
    return ("<!doctype html><html lang=en><meta charset=utf-8><title>blocks</title><p>course page</p>" + "<p>prose</p>".join(blocks)
            + f'<script src="{gp}lesson.js"></script>')


def host_pages(gp: str) -> dict:
    frame = lambda src, h=600: (f'<iframe src="{src}" width="700" height="{h}" sandbox="{share.EMBED_SANDBOX}" '  # noqa: E731
                                f'allow="{share.EMBED_ALLOW}"></iframe>')
    embed = lambda ex: share.embed_url(gp, share.ShareState(example=ex))  # noqa: E731
    return {
        "blank": "<!doctype html><title>blank</title><p>course page</p>",
        "one_embed": f"<!doctype html><title>1</title>{frame(embed(EXAMPLES[0]))}",
        "three_embeds": "<!doctype html><title>3</title>" + "".join(frame(embed(ex)) for ex in EXAMPLES),
        "lesson": f"<!doctype html><title>lesson</title>{frame(gp + '?embed=1&lesson=lessons/first-steps.md', 2300)}",
        "lesson_blocks": script_tag_page(gp),
    }
FRAMES = {"three_embeds": 3, "lesson_blocks": 3}


def rss_of_tree(needle: str) -> int:
    """Bytes of resident memory of every process whose command line names `needle` (the profile
    directory: the browser and all of its children carry it, or descend from one that does)."""
    procs = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = Path(f"/proc/{pid}/stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            rss = next(int(line.split()[1]) * 1024 for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                       if line.startswith("VmRSS:"))
        except (OSError, StopIteration, ValueError, IndexError):
            continue
        procs[int(pid)] = (ppid, cmd, rss)
    roots = {p for p, (_, cmd, _) in procs.items() if needle in cmd}
    tree, grew = set(roots), True
    while grew:
        more = {p for p, (pp, _, _) in procs.items() if pp in tree and p not in tree}
        tree |= more
        grew = bool(more)
    return sum(procs[p][2] for p in tree)


def measure(pw, url: str, kind: str) -> dict:
    udd = tempfile.mkdtemp(prefix="gradpad-bench-lesson-")
    ctx, _ = chromium.launch(pw, user_data_dir=udd)
    try:
        page = ctx.new_page()
        page.set_viewport_size({"width": 1400, "height": 900})
        t0 = time.monotonic()
        page.goto(url, timeout=120_000)
        out = {"kind": kind}
        if kind == "blank":
            page.wait_for_timeout(2000)
            out["rss_mb"] = rss_of_tree(udd) / 1e6
            return out
        # frames are cross-origin: read each through its own Playwright frame
        frames = lambda: [f for f in page.frames if "embed=1" in f.url]  # noqa: E731
        # (page.frames is Playwright's record, updated only while it handles the browser's events:
        # a time.sleep never lets it see the frames lesson.js adds after the load event)
        while len(frames()) < FRAMES.get(kind, 1):
            page.wait_for_timeout(200)
        for f in frames():
            f.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=600_000)
        out["ready_s"] = time.monotonic() - t0
        page.wait_for_timeout(2000)
        out["rss_mb"] = rss_of_tree(udd) / 1e6
        # a lesson's cell frames hear of no panes: the first frame's Python reports for all its cells
        for f in (frames()[:1] if kind == "lesson_blocks" else frames()):
            f.wait_for_function("() => window.gradpad.panes && !window.gradpad.panes.pending"
                                ".filter(p => p !== 'webgpu timing').length", timeout=600_000)
        out["settled_s"] = time.monotonic() - t0
        out["boots"] = sum(f.evaluate("() => window.gradpad.boots") for f in frames())
        return out
    finally:
        ctx.close()
        shutil.rmtree(udd, ignore_errors=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--json", type=Path)
    p.add_argument("--kinds", default="one_embed,three_embeds,lesson,lesson_blocks",
                   help="pages to measure besides the blank one (comma-separated)")
    a = p.parse_args(argv)
    from playwright.sync_api import sync_playwright

    dist = site.snapshot(Path(tempfile.mkdtemp(prefix="gradpad-bench-dist-")))
    srv, gp = serve.start(dist)
    host_dir = Path(tempfile.mkdtemp(prefix="gradpad-bench-host-"))
    for name, body in host_pages(gp).items():
        (host_dir / f"{name}.html").write_text(body)
    hsrv = serve.Server(("127.0.0.1", serve.free_port()), functools.partial(serve.Handler, directory=str(host_dir)))
    threading.Thread(target=hsrv.serve_forever, daemon=True).start()
    host = f"http://127.0.0.1:{hsrv.server_address[1]}/"
    kinds = ["blank", *[k for k in a.kinds.split(",") if k and k != "blank"]]
    results = {k: [] for k in kinds}
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    try:
        with sync_playwright() as pw:
            for r in range(a.rounds):
                for kind in (kinds if r % 2 == 0 else kinds[:1] + kinds[:0:-1]):
                    res = measure(pw, f"{host}{kind}.html", kind)
                    results[kind].append(res)
                    print(f"round {r + 1} {kind:13s} " + " ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}"
                                                              for k, v in res.items() if k != "kind"), flush=True)
    finally:
        srv.shutdown()
        hsrv.shutdown()
        shutil.rmtree(dist, ignore_errors=True)
        shutil.rmtree(host_dir, ignore_errors=True)
    med = {k: {m: statistics.median(r[m] for r in rs) for m in rs[0] if m != "kind"} for k, rs in results.items()}
    blank = med["blank"]["rss_mb"]
    print(f"\nmedians over {a.rounds} round(s), load average now {os.getloadavg()[0]:.1f}:")
    print(f"{'page':14s} {'ready s':>8s} {'settled s':>9s} {'Pythons':>7s} {'RSS MB':>7s} {'over blank':>10s}")
    for k in kinds:
        m = med[k]
        print(f"{k:14s} {m.get('ready_s', 0):8.1f} {m.get('settled_s', 0):9.1f} {m.get('boots', 0):7.0f} "
              f"{m['rss_mb']:7.0f} {m['rss_mb'] - blank:10.0f}")
    one = med.get("one_embed")
    for k in [k for k in kinds if one and k not in ("blank", "one_embed")]:
        print(f"{k} / one_embed: ready x{med[k]['ready_s'] / one['ready_s']:.2f}, settled "
              f"x{med[k]['settled_s'] / one['settled_s']:.2f}, memory over blank "
              f"x{(med[k]['rss_mb'] - blank) / (one['rss_mb'] - blank):.2f}")
    if a.json:
        a.json.write_text(json.dumps({"rounds": results, "medians": med}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
