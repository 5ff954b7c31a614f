"""What an IntersectionObserver inside a cross-origin frame reports while its host page scrolls,
per engine (issue 27: a frame's floating Stop in the host window's part; static/loader.js
keepInSight), and whether a driver's click on a fixed bar it moved lands. A 1500 px frame of
another origin under a 360 px and a 700 px window, its top at the window's top, 500 px further,
then its bottom at the window's bottom:

    PYTHONPATH=$PWD flock /work/wt/browser.lock .venv/bin/python -m tests.browser.frame_sight_probe firefox slices

MODE `old`: one box the frame's height (commit 116dd69): its share in sight stays 0.24 while the
window slides along the frame, so no new entry comes and the bar stays put (all three engines);
`slices`: the frame cut into 32 px slices (what loader.js does): the part in sight follows.
Prints one JSON line per position; a screenshot per window height goes to /tmp."""
import json
import sys
import tempfile
import time
from pathlib import Path

from tools import serve

from . import drivers

FRAME = """<!doctype html><html><meta charset=utf-8><body style="margin:0">
<div style="height:1500px;background:linear-gradient(#eef,#fee)">frame content</div>
<div id=bar style="position:fixed;right:6px;bottom:6px;background:#333;color:#fff;padding:4px"><button id=stop onclick="window.clicks=(window.clicks||0)+1">Stop</button></div>
<script>
window.__io = [];
const MODE = new URLSearchParams(location.search).get('mode');
const box = document.createElement('div');
box.style.cssText = 'position: fixed; top: 0; left: 0; width: 1px; height: 100vh; visibility: hidden; pointer-events: none';
document.body.appendChild(box);
const steps = Array.from({ length: 501 }, (_, i) => i / 500);
const r = (x) => x && {top: Math.round(x.top), bottom: Math.round(x.bottom), left: Math.round(x.left), right: Math.round(x.right)};
new IntersectionObserver((entries) => {
  const e = entries[entries.length - 1];
  window.__io.push({t: Math.round(performance.now()), isect: e.isIntersecting, ratio: e.intersectionRatio.toFixed(3),
    bcr: r(e.boundingClientRect), ir: r(e.intersectionRect), root: r(e.rootBounds)});
  if (MODE === 'old') {
    const below = e.isIntersecting ? Math.max(0, Math.round(e.boundingClientRect.bottom - e.intersectionRect.bottom)) : 0;
    document.getElementById('bar').style.bottom = below ? `${6 + below}px` : '';
  }
}, { threshold: steps }).observe(box);
if (MODE === 'slices') {
  const bar = document.getElementById('bar'), SLICE = 32, seen = new Map();
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText = 'position: fixed; top: 0; left: 0; width: 1px; height: 0; visibility: hidden; pointer-events: none';
  document.body.appendChild(holder);
  const place = () => {
    let top = Infinity, bottom = -Infinity;
    for (const v of seen.values()) if (v) { top = Math.min(top, v[0]); bottom = Math.max(bottom, v[1]); }
    window.__vis = [top, bottom];
    const below = bottom > top ? Math.max(0, Math.round(innerHeight - bottom)) : 0;
    bar.style.bottom = `${6 + below}px`;
  };
  const io = new IntersectionObserver((entries) => {
    for (const e of entries) seen.set(e.target, e.isIntersecting && e.intersectionRect.height > 0 ? [e.intersectionRect.top, e.intersectionRect.bottom] : null);
    window.__io.push({t: Math.round(performance.now()), n: entries.length});
    place();
  }, { threshold: Array.from({ length: SLICE + 1 }, (_, i) => i / SLICE) });
  const build = () => {
    io.disconnect(); seen.clear(); holder.replaceChildren();
    for (let y = 0; y < innerHeight; y += SLICE) {
      const s = document.createElement('div');
      s.style.cssText = `position: absolute; left: 0; top: ${y}px; width: 1px; height: ${SLICE}px`;
      holder.appendChild(s); io.observe(s);
    }
  };
  build();
  addEventListener('resize', build);
}
</script>"""

def host(frame_url):
    return f"""<!doctype html><html><meta charset=utf-8><body style="margin:8px"><h1>Course</h1><p style="height:100px">prose</p>
<iframe id=f src="{frame_url}" sandbox="allow-scripts allow-same-origin" style="display:block;width:100%;border:0;height:1500px"></iframe>
<p style="height:600px">after</p>"""

def main():
    name, mode = sys.argv[1], sys.argv[2]
    d1, d2 = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    (d1 / "frame.html").write_text(FRAME)
    s1, u1 = serve.start(d1)
    (d2 / "host.html").write_text(host(u1 + "frame.html?mode=" + mode))
    s2, u2 = serve.start(d2)
    pw = None
    if name == "chromium":
        from playwright.sync_api import sync_playwright
        pw = sync_playwright().start()
    b = drivers.launch(name, pw)
    out = {}
    try:
        for h in (360, 700):
            b.in_frame(None)
            b.set_viewport(1400, h)
            b.goto(u2 + "host.html")
            b.wait_for("() => document.readyState === 'complete'")
            time.sleep(1)
            for where in ("top", "mid", "end"):
                b.in_frame(None)
                if where == "top":
                    b.evaluate("() => { scrollTo(0, 0); scrollBy(0, document.getElementById('f').getBoundingClientRect().top); return true; }")
                elif where == "mid":
                    b.evaluate("() => { scrollBy(0, 500); return true; }")
                else:
                    b.evaluate("() => { document.getElementById('f').scrollIntoView({block: 'end'}); return true; }")
                time.sleep(0.8)
                ftop = b.evaluate("() => [Math.round(document.getElementById('f').getBoundingClientRect().top), innerHeight, scrollY]")
                b.in_frame("() => document.getElementById('f')")
                io = b.evaluate("() => [window.__io.slice(-1)[0], window.__io.length, window.__vis]")
                bar = b.evaluate("() => { const r = document.getElementById('stop').getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom), innerHeight]; }")
                rec = {"host[ftop,innerH,scrollY]": ftop, "io": io, "stop[top,bottom,innerH]": bar}
                if where in ("top", "end"):
                    try:
                        b.click("() => document.getElementById('stop')")
                        time.sleep(0.3)
                        rec["clicks"] = b.evaluate("() => window.clicks || 0")
                    except Exception as e:
                        rec["click_error"] = str(e)[:200]
                    b.in_frame(None)
                    rec["after_click_host"] = b.evaluate("() => [Math.round(document.getElementById('f').getBoundingClientRect().top), scrollY]")
                    b.in_frame("() => document.getElementById('f')")
                    rec["after_click_io"] = b.evaluate("() => window.__io.slice(-1)[0]")
                out[f"{h}/{where}"] = rec
                print(name, mode, h, where, json.dumps(rec), flush=True)
            b.in_frame(None)
            b.screenshot(Path(tempfile.gettempdir()) / f"frame_sight_{name}_{mode}_{h}.png")
    finally:
        b.close()
        if pw:
            pw.stop()
        s1.shutdown()
        s2.shutdown()

if __name__ == "__main__":
    main()
