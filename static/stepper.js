// The Jaxpr pane's stepper (app/panes/stepper.py renders its slot and start button). Its start
// asks the worker once for every step of the jaxpr shown, evaluated by the engine's interpreter
// (page API "stepper": app/stepper.py); from then on next / previous / step over / run to an
// equation are lookups here, on the page: no Python runs between steps. The current equation is
// lit in the listing, in the pane's jaxpr text and its line of code in the editor
// (static/sourcemap.js), its node ringed in the dataflow graph (a loop body's own graph drawn
// here). Everything is built with DOM calls and textContent: no HTML string from the worker is
// parsed here.
//
// A step costs O(one equation), whatever the jaxpr's size: every element it touches is found once
// when the stepper starts (the listing's items, the jaxpr text's lines, the lines' marks, the
// editors, the graph's view), a value's row is built once and reused, and the boxes that change
// have a fixed size (`contain: strict`), so a step lays out nothing outside them. The pane's
// graph is not repainted: selecting a node through Bokeh repaints the whole plot, which restyles
// each of its HTML labels (1,000 of them: seconds per step on a loaded machine); a ring laid over
// the node moves instead.

const SVG = "http://www.w3.org/2000/svg";

import { el } from "./rules.js";

function deepAll(root, selector, out = []) {
  out.push(...root.querySelectorAll(selector));
  for (const el of root.querySelectorAll("*")) if (el.shadowRoot) deepAll(el.shadowRoot, selector, out);
  return out;
}

const num = (x) => (typeof x === "string" ? NaN : Number(x)); // "nan", "inf": not drawn

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function sparkline(values) {
  const ys = values.map(num).filter(Number.isFinite);
  if (ys.length < 2) return null;
  const w = 96, h = 24, lo = Math.min(...ys), hi = Math.max(...ys), span = hi - lo || 1;
  const out = svg("svg", { width: w, height: h, role: "img",
    "aria-label": `sparkline of ${values.length} entries from ${lo.toPrecision(3)} to ${hi.toPrecision(3)}` });
  const pts = values.map((v, i) => [i * (w - 2) / (values.length - 1) + 1, h - 2 - (Number.isFinite(num(v)) ? (num(v) - lo) / span : 0.5) * (h - 4)]);
  out.append(svg("polyline", { points: pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "),
    fill: "none", stroke: "#2563eb", "stroke-width": "1.5" }));
  return out;
}

function heatmap(grid) {
  const rows = grid.length, cols = grid[0].length, cell = Math.max(3, Math.min(8, Math.floor(96 / cols)));
  const flat = grid.flat().map(num).filter(Number.isFinite);
  const m = Math.max(1e-30, ...flat.map(Math.abs));
  const out = svg("svg", { width: cols * cell, height: rows * cell, role: "img",
    "aria-label": `heat map of ${rows} x ${cols} entries (blue negative, red positive)` });
  grid.forEach((row, r) => row.forEach((v, c) => {
    const t = Number.isFinite(num(v)) ? num(v) / m : 0;
    const a = Math.round(255 * (1 - Math.abs(t)));
    out.append(svg("rect", { x: c * cell, y: r * cell, width: cell, height: cell,
      fill: t >= 0 ? `rgb(255,${a},${a})` : `rgb(${a},${a},255)` }));
  }));
  return out;
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

// the pane's dataflow graph (a Bokeh GraphRenderer whose node ids are "eqn<k>",
// app/analysis/jaxprs.py: dataflow_graph), if it draws this jaxpr (`tops` top-level equations): its renderer model
function graphRenderer(tops) {
  for (const doc of (window.Bokeh && window.Bokeh.documents) || [])
    for (const m of doc.all_models) {
      const src = m.node_renderer && m.layout_provider ? m.node_renderer.data_source : null;
      const ids = src && src.data && src.data.index;
      if (ids && ids.includes(`eqn${tops - 1}`) && !ids.includes(`eqn${tops}`)) return m;
    }
  return null;
}

// A ring over one node of the pane's graph, in the plot's overlay layer (where its HTML labels
// are): moving it is two style writes; the plot itself is not repainted.
class GraphRing {
  constructor(tops, alive) {
    this.tops = tops; this.model = null; this.view = null; this.node = null; this.ring = null;
    // the graph outlives a run (app/panes/jaxpr.py keeps its figure): once the stepper's slot is
    // gone (a new program's panes), the ring goes too, not left on the new graph
    this.watch = setInterval(() => { if (!alive()) { this.remove(); clearInterval(this.watch); } }, 250);
  }
  find() {
    if (this.view && this.view.node_view && this.ring && this.ring.isConnected) return true;
    this.model = graphRenderer(this.tops);
    this.view = this.model && window.Bokeh.index.find_one ? window.Bokeh.index.find_one(this.model) : null;
    if (!this.view || !this.view.node_view) return false;
    const overlay = this.view.plot_view.canvas_view.overlays_el;
    this.ring = el("div", { class: "gp-graph-ring", "aria-hidden": "true" });
    // moved by its transform, on a layer of its own: a step lays out and repaints nothing here
    Object.assign(this.ring.style, { position: "absolute", left: "0px", top: "0px", width: "24px", height: "24px",
      marginLeft: "-12px", marginTop: "-12px", borderRadius: "50%", border: "3px solid #f59e0b",
      boxShadow: "0 0 0 2px rgba(255,255,255,0.8)", pointerEvents: "none", display: "none", boxSizing: "border-box",
      willChange: "transform" });
    overlay.append(this.ring);
    this.index = new Map(this.model.node_renderer.data_source.data.index.map((id, k) => [id, k]));
    // a pan or zoom moves the nodes: the ring follows after the plot's repaint
    const follow = () => requestAnimationFrame(() => this.place());
    for (const r of [this.view.plot_view.model.x_range, this.view.plot_view.model.y_range]) r.change.connect(follow);
    this.box = null;  // the graph's scrolling box (a wide graph scrolls in it)
    for (let n = this.view.plot_view.el; n; n = n.parentNode || n.host) {
      if (n.nodeType === 1 && getComputedStyle(n).overflowX === "auto") { this.box = n; break; }
    }
    if (this.box) {
      // its width and scroll offset kept here: reading them in a step would lay out the page the
      // step just changed (a forced layout of the whole page, each step)
      const box = this.box;
      this.boxLeft = box.scrollLeft; this.boxWidth = box.clientWidth;
      box.addEventListener("scroll", () => { this.boxLeft = box.scrollLeft; }, { passive: true });
      new ResizeObserver(() => { this.boxWidth = box.clientWidth; }).observe(box);
    }
    return true;
  }
  show(id) {
    this.node = id;
    if (!this.find()) return;
    this.place(true);
  }
  place(scroll = false) {
    const k = this.index && this.index.get(this.node), glyph = this.view && this.view.node_view.glyph;
    if (k === undefined || !glyph || !glyph.sx || !Number.isFinite(glyph.sx[k])) { if (this.ring) this.ring.style.display = "none"; return; }
    const x = glyph.sx[k], y = glyph.sy[k];
    this.ring.style.transform = `translate(${x}px, ${y}px)`;
    if (this.ring.style.display !== "block") this.ring.style.display = "block";
    this.ring.dataset.gpNode = this.node;
    if (scroll && this.box && (x < this.boxLeft || x > this.boxLeft + this.boxWidth))
      this.box.scrollLeft = this.boxLeft = Math.max(0, x - this.boxWidth / 2);
  }
  shown() { return this.ring && this.ring.isConnected && this.ring.style.display === "block" ? this.ring.dataset.gpNode : null; }
  remove() { if (this.ring) this.ring.remove(); this.ring = null; this.view = null; clearInterval(this.watch); }
}

// a loop body's (or call's) own dataflow graph, drawn once as SVG: a step lights its node
const LAYER = 96, ROW = 34, PAD = 24;
function bodyGraph(body) {
  const box = el("div", { class: "gp-body-graph" });
  box.append(el("p", { class: "gp-muted", text: `${body.title}: its dataflow graph (the pane's graph draws the top level only).` }));
  if (!body.nodes.length) {
    box.append(el("p", { class: "gp-muted", text: `Not drawn: ${body.eqns} equations (a body's graph is drawn up to 150).` }));
    return { box, nodes: new Map() };
  }
  const xs = body.nodes.map((n) => n[3]), ys = body.nodes.map((n) => n[4]);
  const x0 = Math.min(...xs), y1 = Math.max(...ys);
  const X = (x) => PAD + (x - x0) * LAYER + 30, Y = (y) => PAD + (y1 - y) * ROW;
  const width = X(Math.max(...xs)) + 60, height = Y(Math.min(...ys)) + PAD;
  const out = svg("svg", { width, height, role: "img", "aria-label": `${body.title}: ${body.eqns} equations` });
  const at = new Map(body.nodes.map((n) => [n[0], n]));
  for (const [a, b] of body.edges) {
    const p = at.get(a), q = at.get(b);
    if (p && q) out.append(svg("line", { x1: X(p[3]), y1: Y(p[4]), x2: X(q[3]), y2: Y(q[4]), class: "gp-bg-edge" }));
  }
  const nodes = new Map();
  for (const [id, label, kind, x, y] of body.nodes) {
    const g = svg("g", { class: `gp-bg-node gp-bg-${kind}` });
    g.append(svg("circle", { cx: X(x), cy: Y(y), r: 7 }));
    const t = svg("text", { x: X(x), y: Y(y) - 11, "text-anchor": "middle" });
    t.textContent = label.length > 14 ? label.slice(0, 13) + "…" : label;
    const title = svg("title"); title.textContent = label;
    g.append(t, title);
    out.append(g);
    nodes.set(id, g);
  }
  box.append(out);
  return { box, nodes };
}

class Stepper {
  constructor(slot, data, view) {
    this.slot = slot; this.data = data; this.view = view; this.at = 0;
    const steps = data.steps;
    this.tops = steps.filter((s) => s.depth === 0).length;
    this.topStep = new Map();  // top-level equation k -> its own step (after its body's steps)
    steps.forEach((s, i) => { if (s.depth === 0) this.topStep.set(s.eqn, i); });
    this.rows = new Map();     // a value's row, built once: "k|role" -> element
    this.bodies = new Map();   // a body's graph, built once: index -> {box, nodes}
    this.list = el("ol", { class: "gp-step-list", "aria-label": "equations, in the order they are evaluated" });
    this.items = steps.map((s, i) => {
      const where = s.where ? el("span", { class: "gp-where", text: `${"  ".repeat(s.depth - 1)}[${s.where}] ` }) : null;
      const li = el("li", { "data-gp-step": String(i) }, where, document.createTextNode(s.text.split("\n").join(" ")));
      if (s.backward || s.tangent) li.classList.add("gp-back");  // the derivative's own steps, marked on the left
      if (s.depth > 0) li.classList.add("gp-inner");
      return li;
    });
    this.list.append(...this.items);
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
    this.graphBox = el("div", { class: "gp-step-graph" });
    this.shownBody = undefined;
    const notes = (data.notes || []).map((n) => el("p", { class: "gp-muted", text: n }));
    const lead = el("p", { class: "gp-muted", text:
      `${steps.length} steps of ${view === "f" ? "f" : view + "(f)"}, evaluated in ${data.ms} ms by the engine's interpreter. ` +
      "Click an equation here or in the jaxpr above to run to it." + (data.backward_from != null ? ` The backward pass (cotangents, marked on the left) starts at step ${data.backward_from + 1}.`
        : view === "jvp" ? " Tangent steps (marked on the left) run beside the primal steps they use." : "") });
    slot.replaceChildren(bar, lead, ...notes, el("div", { class: "gp-step-body" }, this.list, this.vals, this.graphBox));
    this.list.addEventListener("click", (e) => {
      const li = e.target.closest && e.target.closest("li[data-gp-step]");
      if (li) this.go(Number(li.dataset.gpStep));
    });
    // found once: the pane's jaxpr text (its top-level equations' lines), the source map's marks, the graph
    this.text = deepAll(document, "pre.gp-jaxpr").find((pre) => pre.querySelectorAll("[data-gp-eqn]").length === this.tops) || null;
    this.lines = new Map();
    if (this.text) for (const line of this.text.querySelectorAll("[data-gp-eqn]")) this.lines.set(Number(line.dataset.gpEqn), line);
    this.marks = window.gradpad.sourceMap && window.gradpad.sourceMap.index ? window.gradpad.sourceMap.index() : null;
    this.ring = new GraphRing(this.tops, () => this.slot.isConnected);
    this.lit = null;
    this.go(0);
  }

  over() {  // the next step at this step's depth or above (a body's steps skipped)
    const steps = this.data.steps, d = steps[this.at].depth;
    for (let i = this.at + 1; i < steps.length; i++) if (steps[i].depth <= d) return i;
    return steps.length - 1;
  }

  // run to top-level equation k (a click on its line in the pane's jaxpr text)
  runTo(k) { return this.topStep.has(k) ? this.go(this.topStep.get(k)) : null; }

  row(k, role, used) {
    const key = `${k}|${role || ""}`;
    let row = this.rows.get(key);
    if (!row) { row = valueRow(this.data.values[k], role); this.rows.set(key, row); }
    if (used.has(row)) return row.cloneNode(true);  // a value twice in one step (`mul a a`)
    used.add(row);
    return row;  // (moved here from the last step's box when both show it)
  }

  go(i) {
    const t0 = performance.now();
    const steps = this.data.steps;
    i = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[i], li = this.items[i];
    // keep it in view inside the listing only (the page itself does not scroll): its place read
    // before this step writes anything (the last frame's layout, not a forced one)
    const top = li.offsetTop - this.list.offsetTop;
    const bottom = top + li.offsetHeight, height = this.list.clientHeight, scroll = this.list.scrollTop;
    const old = this.items[this.at];
    if (old) { old.classList.remove("gp-now"); old.removeAttribute("aria-current"); }
    this.at = i;
    li.classList.add("gp-now");
    li.setAttribute("aria-current", "step");
    if (top < scroll) this.list.scrollTop = top;
    else if (bottom > scroll + height) this.list.scrollTop = bottom - height;
    this.pos.textContent = `step ${i + 1} of ${steps.length}`;
    const phase = s.backward ? el("span", { class: "gp-tag", text: "backward pass: cotangent" })
      : this.data.backward_from != null ? el("span", { class: "gp-tag gp-fwd", text: "forward pass" })
      : this.view === "jvp" ? el("span", { class: s.tangent ? "gp-tag" : "gp-tag gp-fwd", text: s.tangent ? "tangent" : "primal" }) : null;
    const where = s.where ? el("p", { class: "gp-muted", text: `inside equation ${s.top + 1}: ${s.where}` }) : null;
    const src = s.src != null ? el("p", { class: "gp-muted", text: `from line ${s.src} of your code` }) : null;
    const role = s.backward ? "cotangent" : s.tangent ? "tangent" : null, used = new Set();
    // the primitive's name opens its rules (static/rules.js listens for gp-jp)
    const prim = el("span", { class: "gp-jp", title: `${s.primitive}: the engine's rules`, text: s.primitive });
    const parts = [el("h4", {}, "equation: ", prim, " ", phase), where, src,
      el("pre", { text: s.text }), el("h4", { text: "out" }), ...s.outs.map((k) => this.row(k, role, used)),
      el("h4", { text: "in" }), ...s.ins.map((k) => this.row(k, null, used))];
    if (i === steps.length - 1) parts.push(el("h4", { text: "the jaxpr's outputs" }), ...this.data.outputs.map((k) => this.row(k, null, used)));
    this.vals.replaceChildren(...parts.filter(Boolean));
    this.showBody(s);
    this.vals.getBoundingClientRect(); // the step's layout done (inside the fixed boxes): what `ms` measures
    window.gradpad.stepper.last = { view: this.view, at: i, ms: performance.now() - t0, step: s,
      outs: s.outs.map((k) => this.data.values[k]) };
    // its equation in the pane's text, its line in the editor, its node in the graph: after the step shows
    clearTimeout(this.lineTimer);
    this.lineTimer = setTimeout(() => {
      if (this.at !== i || !this.slot.isConnected) return;
      const t1 = performance.now();
      const line = this.lines.get(s.top);
      if (line !== this.lit) {
        if (this.lit) this.lit.classList.remove("gp-step-now");
        if (line) line.classList.add("gp-step-now");
        this.lit = line || null;
      }
      const t2 = performance.now();
      if (s.src != null && this.marks) window.gradpad.sourceMap.showIndexed(this.marks, s.src);
      const t3 = performance.now();
      this.ring.show(`eqn${s.top}`);
      const t4 = performance.now();
      window.gradpad.stepper.lastAfter = { at: i, ms: t4 - t1, text: t2 - t1, editor: t3 - t2, graph: t4 - t3 };
    }, 0);
    return i;
  }

  showBody(s) {  // the fixed box under the values: the body's graph with the step's node, or what the graph shows
    const b = s.depth > 0 && s.body != null ? s.body : null;
    if (b !== this.shownBody) {
      this.shownBody = b;
      if (b === null) {
        this.graphBox.replaceChildren(el("p", { class: "gp-muted", text:
          `A top-level equation: the pane's dataflow graph rings its node (eqn${s.top}).` }));
      } else {
        if (!this.bodies.has(b)) this.bodies.set(b, bodyGraph(this.data.bodies[b]));
        this.graphBox.replaceChildren(this.bodies.get(b).box);
      }
    }
    if (b === null) {
      this.graphBox.firstChild.textContent = `A top-level equation: the pane's dataflow graph rings its node (eqn${s.top}).`;
      this.bodyNode = null;
      return;
    }
    const node = this.bodies.get(b).nodes.get(`eqn${s.eqn}`) || null;
    if (node !== this.bodyNode) {
      if (this.bodyNode) this.bodyNode.classList.remove("gp-bg-now");
      if (node) node.classList.add("gp-bg-now");
      this.bodyNode = node;
    }
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
    if (api.current) { api.current.ring.remove(); if (api.current.lit) api.current.lit.classList.remove("gp-step-now"); }
    api.current = new Stepper(slot, data, view);
  }
  const live = () => (api.current && api.current.slot.isConnected ? api.current : null);
  document.addEventListener("click", (e) => {
    for (const node of e.composedPath()) {
      if (node.classList && node.classList.contains("gp-step-start")) {
        const slot = node.closest(".gp-stepper");
        if (slot && !node.disabled) start(slot);
        return;
      }
      if (node.classList && node.classList.contains("gp-jp")) return;  // a primitive's rules, not a run
      // an equation of the pane's jaxpr text, while a stepper of that text is open: run to it
      if (node.dataset && node.dataset.gpEqn !== undefined) {
        const s = live();
        if (s && s.text && s.text.contains(node)) s.runTo(Number(node.dataset.gpEqn));
        return;
      }
    }
  });
  // for tests and hosts: start the stepper shown, step it
  api.start = () => { const slot = deepAll(document, ".gp-stepper")[0]; return slot ? start(slot) : null; };
  api.go = (i) => (live() ? api.current.go(i) : null);
  api.runTo = (k) => (live() ? api.current.runTo(k) : null);
  api.count = () => (live() ? api.current.data.steps.length : 0);
  // whether the stepper draws on this plot's view (its ring over the pane's graph): the loader's
  // repaint after a patch leaves that plot alone (static/loader.js: repaintPlotsSoon)
  api.drawsOn = (plotView) => {
    const c = live(), v = c && c.ring.ring && c.ring.ring.isConnected ? c.ring.view : null;
    return !!(v && v.plot_view === plotView);
  };
  // the node ringed in the pane's dataflow graph: its id ("eqn<k>"), or null
  api.graphNode = () => (live() ? api.current.ring.shown() : null);
  // the equation lit in the pane's jaxpr text (its index), and the body graph's lit node (its id)
  api.textEquation = () => (live() && live().lit ? Number(live().lit.dataset.gpEqn) : null);
  api.bodyNode = () => {
    const s = live();
    if (!s || !s.bodyNode) return null;
    for (const [id, g] of s.bodies.get(s.shownBody).nodes) if (g === s.bodyNode) return id;
    return null;
  };
}
