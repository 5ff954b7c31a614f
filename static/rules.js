// Open a primitive's rules: a click on a primitive's name in any jaxpr the panes show (the
// highlighted `gp-jp` spans) asks the worker for that primitive's registered rules (page API
// "rules": app/rules_view.py, inspect.getsource of the engine's own rule functions) and shows
// them in a dialog: shape rule, evaluation, jvp, transpose, batching, WGSL, each with a note.
// Built with DOM calls and textContent only.

// a DOM element with attributes and children (text as textContent, never parsed): also the stepper's
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

function ruleSection(rule) {
  const label = { own: "its own rule, ", helper: "registered through the generic helper, " };
  const parts = rule.parts.map((p) => el("div", { class: "gp-rule-part" },
    p.where ? el("div", { class: "gp-rule-where", text: (p.count ? `${p.count} rules on one line, ` : label[p.role] || "") + p.where }) : null,
    el("pre", { class: "gp-rule-src", text: p.source })));
  return el("section", { class: "gp-rule" + (rule.present ? "" : " gp-rule-absent"), "data-gp-rule": rule.table },
    el("h3", { text: rule.title }), el("p", { class: "gp-rule-note", text: rule.note }), ...parts);
}

export function installRules(gradpad, call) {
  let dialog = null;
  const api = { shown: null };
  gradpad.rules = api;
  function ensureDialog() {
    if (dialog && dialog.isConnected) return dialog;
    dialog = el("dialog", { id: "gp-rules", "aria-labelledby": "gp-rules-title" });
    document.body.append(dialog);
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); }); // the backdrop
    return dialog;
  }
  async function open(name) {
    const d = ensureDialog();
    const close = el("button", { type: "button", class: "gp-rules-close", text: "Close" });
    close.addEventListener("click", () => d.close());
    const title = el("h2", { id: "gp-rules-title", text: `${name}: the engine's rules` });
    d.replaceChildren(el("div", { class: "gp-rules-head" }, title, close), el("p", { class: "gp-muted", text: "Reading the source…" }));
    if (!d.open) d.showModal();
    let data;
    try { data = await call("rules", { primitive: name }); } catch (e) { data = { error: String(e && e.message || e) }; }
    if (data.error) {
      d.replaceChildren(el("div", { class: "gp-rules-head" }, title, close), el("p", { text: data.error }));
    } else {
      d.replaceChildren(el("div", { class: "gp-rules-head" }, title, close),
        el("p", { class: "gp-muted", text: "What the engine does with this primitive: the functions registered for it in core/_engine/tracing/rules.py's tables, shown as their source (inspect.getsource in this page)." }),
        ...data.rules.map(ruleSection));
    }
    api.shown = data;
    close.focus();
  }
  api.open = open;
  document.addEventListener("click", (e) => {
    for (const node of e.composedPath()) {
      if (node.classList && node.classList.contains("gp-jp")) {
        const name = node.textContent.trim();
        if (/^[a-z_][a-z0-9_]*$/.test(name)) open(name);
        return;
      }
      if (node === document.body) return;
    }
  });
}
