// The Jaxpr pane's stepper (app/panes/stepper.py renders its slot and start button). Its start
// asks the worker once for every step of the jaxpr shown, evaluated by the engine's interpreter
// (page API "stepper": app/stepper.py); from then on next / previous / step over / run to an
// equation are lookups here, on the page: no Python runs between steps. The current equation is
// lit in the listing and its line of code in the editor (static/sourcemap.js). Everything is
// built with DOM calls and textContent: no HTML string from the worker is parsed here.

const SVG = "http://www.w3.org/2000/svg";

import { el } from "./rules.js";

function deepAll(root, selector, out = []) {
  out.push(...root.querySelectorAll(selector));
  for (const el of root.querySelectorAll("*")) if (el.shadowRoot) deepAll(el.shadowRoot, selector, out);
  return out;
}

const num = (x) => (typeof x === "string" ? NaN : Number(x)); // "nan", "inf": not drawn

function sparkline(values) {
  const ys = values.map(num).filter(Number.isFinite);
  if (ys.length < 2) return null;
  const w = 96, h = 24, lo = Math.min(...ys), hi = Math.max(...ys), span = hi - lo || 1;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("width", w); svg.setAttribute("height", h); svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `sparkline of ${values.length} entries from ${lo.toPrecision(3)} to ${hi.toPrecision(3)}`);
  const pts = values.map((v, i) => [i * (w - 2) / (values.length - 1) + 1, h - 2 - (Number.isFinite(num(v)) ? (num(v) - lo) / span : 0.5) * (h - 4)]);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none"); line.setAttribute("stroke", "#2563eb"); line.setAttribute("stroke-width", "1.5");
  svg.append(line);
  return svg;
}

function heatmap(grid) {
  const rows = grid.length, cols = grid[0].length, cell = Math.max(3, Math.min(8, Math.floor(96 / cols)));
  const flat = grid.flat().map(num).filter(Number.isFinite);
  const m = Math.max(1e-30, ...flat.map(Math.abs));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("width", cols * cell); svg.setAttribute("height", rows * cell); svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `heat map of ${rows} x ${cols} entries (blue negative, red positive)`);
  grid.forEach((row, r) => row.forEach((v, c) => {
    const t = Number.isFinite(num(v)) ? num(v) / m : 0;
    const rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("x", c * cell); rect.setAttribute("y", r * cell);
    rect.setAttribute("width", cell); rect.setAttribute("height", cell);
    const a = Math.round(255 * (1 - Math.abs(t)));
    rect.setAttribute("fill", t >= 0 ? `rgb(255,${a},${a})` : `rgb(${a},${a},255)`);
    svg.append(rect);
  }));
  return svg;
}

function valueRow(v, role) {
  const row = el("div", { class: "gp-val" }, el("span", { class: "gp-vn", text: `${v.name}:${v.type}` }),
    role ? el("span", { class: "gp-tag", text: role }) : null, el("span", { text: v.text }));
  if (v.grid) row.append(heatmap(v.grid));
  else if (v.sample && v.sample.length > 1) { const s = sparkline(v.sample); if (s) row.append(s); }
  if (v.stats && v.stats.min !== undefined && v.sample && v.sample.length > 1)
    row.append(el("span", { class: "gp-muted", text: `min ${v.stats.min} · max ${v.stats.max} · mean ${v.stats.mean}` }));
  return row;
}

// the jaxpr's dataflow graph in the pane (a Bokeh GraphRenderer whose node ids are "eqn<k>",
// app/analysis.dataflow_graph), if it draws this jaxpr: `tops` top-level equations
function graphNodes(tops) {
  for (const doc of (window.Bokeh && window.Bokeh.documents) || [])
    for (const m of doc.all_models) {
      const src = m.node_renderer && m.layout_provider ? m.node_renderer.data_source : null;
      const ids = src && src.data && src.data.index;
      if (ids && ids.includes(`eqn${tops - 1}`) && !ids.includes(`eqn${tops}`)) return src;
    }
  return null;
}

class Stepper {
  constructor(slot, data, view) {
    this.slot = slot; this.data = data; this.view = view; this.at = 0;
    const steps = data.steps;
    this.tops = steps.filter((s) => s.depth === 0).length;
    this.list = el("ol", { class: "gp-step-list", "aria-label": "equations, in the order they are evaluated" });
    steps.forEach((s, i) => {
      const where = s.where ? el("span", { class: "gp-where", text: `${"  ".repeat(s.depth - 1)}[${s.where}] ` }) : null;
      const li = el("li", { "data-gp-step": String(i) }, where, document.createTextNode(s.text.split("\n").join(" ")));
      if (s.backward || s.tangent) li.classList.add("gp-back");  // the derivative's own steps, marked on the left
      if (s.depth > 0) li.classList.add("gp-inner");
      this.list.append(li);
    });
    this.pos = el("span", { class: "gp-step-pos", "aria-live": "polite" });
    const btn = (label, title, fn) => { const b = el("button", { type: "button", title, text: label }); b.addEventListener("click", fn); return b; };
    const bar = el("div", { class: "gp-step-bar" },
      btn("« First", "the first equation", () => this.go(0)),
      btn("◀ Previous", "the equation before", () => this.go(this.at - 1)),
      btn("Next ▶", "the next equation (into loop bodies)", () => this.go(this.at + 1)),
      btn("Step over ⤼", "the next equation at this level (a loop's iterations skipped)", () => this.go(this.over())),
      btn("Last »", "the last equation", () => this.go(steps.length - 1)),
      this.pos);
    this.vals = el("div", { class: "gp-step-vals" });
    const notes = (data.notes || []).map((n) => el("p", { class: "gp-muted", text: n }));
    const lead = el("p", { class: "gp-muted", text:
      `${steps.length} steps of ${view === "f" ? "f" : view + "(f)"}, evaluated in ${data.ms} ms by the engine's interpreter. ` +
      "Click an equation to run to it." + (data.backward_from != null ? ` The backward pass (cotangents, marked on the left) starts at step ${data.backward_from + 1}.`
        : view === "jvp" ? " Tangent steps (marked on the left) run beside the primal steps they use." : "") });
    slot.replaceChildren(bar, lead, ...notes, el("div", { class: "gp-step-body" }, this.list, this.vals));
    this.list.addEventListener("click", (e) => {
      const li = e.target.closest && e.target.closest("li[data-gp-step]");
      if (li) this.go(Number(li.dataset.gpStep));
    });
    this.go(0);
  }

  over() {  // the next step at this step's depth or above (a body's steps skipped)
    const steps = this.data.steps, d = steps[this.at].depth;
    for (let i = this.at + 1; i < steps.length; i++) if (steps[i].depth <= d) return i;
    return steps.length - 1;
  }

  go(i) {
    const t0 = performance.now();
    const steps = this.data.steps, values = this.data.values;
    i = Math.max(0, Math.min(steps.length - 1, i));
    const old = this.list.children[this.at];
    if (old) old.classList.remove("gp-now");
    this.at = i;
    const s = steps[i], li = this.list.children[i];
    li.classList.add("gp-now");
    li.setAttribute("aria-current", "step");
    if (old && old !== li) old.removeAttribute("aria-current");
    // keep it in view inside the listing only (the page itself does not scroll)
    const top = li.offsetTop - this.list.offsetTop, bottom = top + li.offsetHeight;
    if (top < this.list.scrollTop) this.list.scrollTop = top;
    else if (bottom > this.list.scrollTop + this.list.clientHeight) this.list.scrollTop = bottom - this.list.clientHeight;
    this.pos.textContent = `step ${i + 1} of ${steps.length}`;
    const phase = s.backward ? el("span", { class: "gp-tag", text: "backward pass: cotangent" })
      : this.data.backward_from != null ? el("span", { class: "gp-tag gp-fwd", text: "forward pass" })
      : this.view === "jvp" ? el("span", { class: s.tangent ? "gp-tag" : "gp-tag gp-fwd", text: s.tangent ? "tangent" : "primal" }) : null;
    const where = s.where ? el("p", { class: "gp-muted", text: `inside equation ${s.top + 1}: ${s.where}` }) : null;
    const src = s.src != null ? el("p", { class: "gp-muted", text: `from line ${s.src} of your code` }) : null;
    const outs = s.outs.map((k) => valueRow(values[k], s.backward ? "cotangent" : s.tangent ? "tangent" : null));
    const ins = s.ins.map((k) => valueRow(values[k]));
    // the primitive's name opens its rules (static/rules.js listens for gp-jp)
    const prim = el("span", { class: "gp-jp", title: `${s.primitive}: the engine's rules`, text: s.primitive });
    const parts = [el("h4", {}, "equation: ", prim, " ", phase), where, src,
      el("pre", { text: s.text }), el("h4", { text: "out" }), ...outs, el("h4", { text: "in" }), ...ins];
    if (i === steps.length - 1) parts.push(el("h4", { text: "the jaxpr's outputs" }), ...this.data.outputs.map((k) => valueRow(values[k])));
    this.vals.replaceChildren(...parts.filter(Boolean));
    this.vals.getBoundingClientRect(); // the step's layout done: what `ms` measures
    window.gradpad.stepper.last = { view: this.view, at: i, ms: performance.now() - t0, step: s,
      outs: s.outs.map((k) => values[k]) };
    // its line in the editor and the jaxpr (a walk of every shadow root), its node in the dataflow
    // graph (selected: Bokeh dims the others): after the step shows
    clearTimeout(this.lineTimer);
    this.lineTimer = setTimeout(() => {
      if (this.at !== i || !this.slot.isConnected) return;
      if (s.src != null && window.gradpad.sourceMap) window.gradpad.sourceMap.show(s.src);
      const nodes = graphNodes(this.tops);
      if (nodes) {
        const k = nodes.data.index.indexOf(`eqn${s.top}`);
        if (k >= 0 && nodes.selected.indices[0] !== k) nodes.selected.indices = [k];
      }
    }, 0);
    return i;
  }
}

export function installStepper(gradpad, call) {
  const api = { last: null, current: null, timings: [] };
  gradpad.stepper = api;
  async function start(slot) {
    const view = slot.dataset.gpView, token = slot.dataset.gpToken;
    const button = slot.querySelector(".gp-step-start");
    if (button) { button.disabled = true; button.textContent = "Evaluating every equation…"; }
    let data;
    try {
      data = await call("stepper", { view, token });
    } catch (e) {
      data = { error: String(e && e.message || e) };
    }
    if (!slot.isConnected) return; // a new run replaced the pane meanwhile: nothing to show
    if (data.error) {
      slot.replaceChildren(el("p", { class: "gp-hint", text: data.error }));
      return;
    }
    api.current = new Stepper(slot, data, view);
  }
  document.addEventListener("click", (e) => {
    for (const node of e.composedPath()) {
      if (node.classList && node.classList.contains("gp-step-start")) {
        const slot = node.closest(".gp-stepper");
        if (slot && !node.disabled) start(slot);
        return;
      }
    }
  });
  // for tests and hosts: start the stepper shown, step it
  api.start = () => { const slot = deepAll(document, ".gp-stepper")[0]; return slot ? start(slot) : null; };
  api.go = (i) => (api.current && api.current.slot.isConnected ? api.current.go(i) : null);
  api.count = () => (api.current && api.current.slot.isConnected ? api.current.data.steps.length : 0);
  // the node selected in the dataflow graph: its id ("eqn<k>"), or null
  api.graphNode = () => {
    const nodes = api.current && graphNodes(api.current.tops);
    const k = nodes ? nodes.selected.indices[0] : undefined;
    return k === undefined ? null : nodes.data.index[k];
  };
}
