"""Main-thread gaps of the app page while programs run and their panes arrive (issue 26: "never
frozen": no gap over 100 ms).

    python -m tools.bench_gaps [--rounds N] [--compare DIR] [--profile PATH]

For each scenario a 50 ms heartbeat on the page records the longest gap between its ticks, and a
PerformanceObserver the long tasks (> 50 ms), from the load's start until its panes are complete
and its Plots, vmap and Jaxpr tabs were shown. Scenarios: the jit tutorial's selu on 1e3 and 1e6
elements, a 1000x1000 matmul and a 10k-step lax.scan (each after the default example, so its
panes are new), and a switch between two gallery examples (--scenarios picks some). --compare DIR: a second built site (e.g. main's dist/) measured alternately with
this one in the same run: timings on a shared machine compare only side by side. --profile PATH:
a CPU profile (Chrome DevTools JSON) of this site's 1e6 selu, and the functions that took most
self time printed.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import bench_sites  # noqa: E402

SELU = """import jax, jax.numpy as jnp
from jax import random
key = random.PRNGKey(0)
x = random.normal(key, ({n},))
def selu(x, alpha=1.67, lmbda=1.05):
  return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
selu_jit = jax.jit(selu)
selu_jit(x).block_until_ready()
"""
MATMUL = """import jax, jax.numpy as jnp
from jax import random
a = random.normal(random.PRNGKey(0), (1000, 1000))
def f(a):
  return jnp.tanh(a @ a.T)
f(a).block_until_ready()
"""
SCAN = """import jax, jax.numpy as jnp
from jax import lax
def f(x):
  def step(c, _):
    c = 0.999 * c + jnp.sin(c)
    return c, c
  c, ys = lax.scan(step, x, None, length=10000)
  return ys.sum()
f(0.5)
"""
DEFAULT = "grad_value_and_grad_has_aux"
SWITCH = ("mlp_sin", "jacobians_and_hessian")
# name -> (the load before it, the measured load): each after another program, so its panes are new
SCENARIOS = {
    "selu 1e3": ({"example": DEFAULT}, {"code": SELU.format(n=1000)}),
    "selu 1e6": ({"example": DEFAULT}, {"code": SELU.format(n=1_000_000)}),
    "switch examples": ({"example": SWITCH[0]}, {"example": SWITCH[1]}),
    "matmul 1000x1000": ({"example": DEFAULT}, {"code": MATMUL}),
    "scan 10k": ({"example": DEFAULT}, {"code": SCAN}),
}

WATCH = """() => {
  const h = window.__gap = {last: performance.now(), max: 0, long: []};
  clearInterval(window.__gapId);
  window.__gapId = setInterval(() => { const t = performance.now(); h.max = Math.max(h.max, t - h.last); h.last = t; }, 50);
  if (window.__gapObs) window.__gapObs.disconnect();
  window.__gapObs = new PerformanceObserver((l) => { for (const e of l.getEntries()) h.long.push(Math.round(e.duration)); });
  window.__gapObs.observe({entryTypes: ['longtask']});
  return true; }"""
TABS = """(title) => {
  const all = (r) => [...r.querySelectorAll('*')].flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
  const tab = all(document).find((e) => e.classList && e.classList.contains('bk-tab') && e.textContent.trim() === title);
  if (tab) tab.click(); return !!tab; }"""
STOP = """() => { clearInterval(window.__gapId); window.__gapObs.disconnect();
  const h = window.__gap; return {max: Math.round(h.max), long: h.long}; }"""


def load(page, opts: dict) -> dict:
    return page.evaluate("opts => window.gradpad.load(opts)", opts)


COUNTS = """() => ({layouts: {...(window.gradpad.layouts || {})},
                   a11y: {...((window.gradpad.a11y || {}).stats || {})}})"""


def measured(page, opts: dict) -> dict:
    before = page.evaluate(COUNTS)
    page.evaluate(WATCH)
    t0 = time.monotonic()
    snap = load(page, opts)
    for title in ("Plots", "vmap", "Jaxpr"):
        page.evaluate(TABS, title)
        page.wait_for_timeout(400)
    out = page.evaluate(STOP)
    after = page.evaluate(COUNTS)
    # what the page's own bookkeeping counted meanwhile (layout passes, a11y slices)
    out["counts"] = {f"{g}.{k}": round(v - before[g].get(k, 0), 1) for g in after for k, v in after[g].items()
                     if isinstance(v, (int, float)) and not isinstance(v, bool) and not k.startswith("max")}
    out["counts"].update({f"a11y.{k}": round(v, 1) for k, v in after["a11y"].items() if k.startswith("max")})
    out["s"] = round(time.monotonic() - t0, 1)
    out["long_sum"] = sum(out["long"])  # the main thread's time in long tasks: its work, less the load's
    out["error"] = snap.get("error") if isinstance(snap, dict) else None
    return out


def scenarios(page, names) -> dict:
    res = {}
    for name in names:
        before, opts = SCENARIOS[name]
        load(page, before)
        res[name] = measured(page, opts)
    return res


def profile(page, path: str) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    load(page, {"example": DEFAULT})
    cdp.send("Profiler.start")
    measured(page, {"code": SELU.format(n=1_000_000)})
    prof = cdp.send("Profiler.stop")["profile"]
    Path(path).write_text(json.dumps(prof))
    nodes = {n["id"]: n for n in prof["nodes"]}
    dt = dict.fromkeys(nodes, 0.0)
    for sid, d in zip(prof["samples"], prof["timeDeltas"]):
        dt[sid] += d / 1e3
    by: dict = {}
    for i, ms in dt.items():
        f = nodes[i]["callFrame"]
        key = f"{f['functionName'] or '(anon)'} {Path(f['url']).name}:{f['lineNumber']}"
        by[key] = by.get(key, 0.0) + ms
    print("self time (ms), this site's 1e6 selu:")
    for k, ms in sorted(by.items(), key=lambda kv: -kv[1])[:30]:
        print(f"  {ms:8.1f}  {k}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--dist", default=str(ROOT / "dist"))
    p.add_argument("--compare", help="another built site (a dist/ directory), measured alternately")
    p.add_argument("--profile", help="write a CPU profile of this site's 1e6 selu here")
    p.add_argument("--scenarios", default=",".join(SCENARIOS), help="which (comma-separated): " + ", ".join(SCENARIOS))
    a = p.parse_args(argv)
    sites = bench_sites.sites(a.dist, a.compare)
    results: dict = {k: {} for k in sites}
    with bench_sites.opened(sites) as pages:
        if a.profile:
            profile(pages["this"], a.profile)
        for r in range(a.rounds):
            for k in bench_sites.order(pages, r):
                load_avg = os.getloadavg()[0]
                for name, m in scenarios(pages[k], a.scenarios.split(",")).items():
                    m["load"] = round(load_avg, 1)
                    results[k].setdefault(name, []).append(m)
                    print(f"[{k}] round {r + 1} {name}: longest gap {m['max']} ms, long tasks {m['long_sum']} ms in all: {m['long']} "
                          f"({m['s']} s, load {m['load']}, error {m['error']}) {m['counts']}", flush=True)
    print("\nlongest main-thread gap, ms (median of rounds; goal <= 100):")
    for name in results["this"]:
        row = {k: statistics.median(m["max"] for m in results[k][name]) for k in results}
        line = ", ".join(f"{k} {v:.0f}" for k, v in row.items())
        if "compare" in row:
            line += f"  (this/compare x{row['this'] / max(row['compare'], 1):.2f})"
        print(f"  {name}: {line}")
        row = {k: statistics.median(m["long_sum"] for m in results[k][name]) for k in results}
        print("    time in long tasks: " + ", ".join(f"{k} {v:.0f}" for k, v in row.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
