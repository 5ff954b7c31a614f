"""The Jaxpr pane's "Diff two views" card: pick two transformations of f (or f before and after
an edit, or a jaxpr before and after jit's CPU passes) and read their jaxprs' line diff, aligned
by the line of code each equation came from (app.jaxpr_diff computes it).

The card outlives runs (app.panes.jaxpr.Kept holds it): each run hands it the new analysis and
the last run's (`show`); it traces the extra views only while it is open."""
from __future__ import annotations

import panel as pn

from .. import jaxpr_diff
from .common import CSS, esc, themed, tv
from .jaxpr import highlight
from .text_html import TextHTML

MAX_ROWS = 400  # a longer diff shows its first rows and says how many are left out
DIFF_CSS = themed(f"""
.gp-jd {{ border-collapse: collapse; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }}
.gp-jd td {{ padding: 0 6px; white-space: pre; vertical-align: top; }}
.gp-jd td.gp-jd-ln {{ color: {tv("#57606a", "#8b949e")}; text-align: right; user-select: none; }}
.gp-jd tr.gp-jd-add td {{ background: {tv("#dafbe1", "#12361f")}; }}
.gp-jd tr.gp-jd-del td {{ background: {tv("#ffebe9", "#4a1d1d")}; }}
.gp-jd-box {{ overflow-x: auto; max-width: 100%; max-height: 460px; overflow-y: auto; }}
.gp-jd-counts b.gp-jd-plus {{ color: {tv("#116329", "#3fb950")}; }}
.gp-jd-counts b.gp-jd-minus {{ color: {tv("#b42318", "#ff7b72")}; }}
""")
SELECT_CSS = ":host { flex: 1 1 150px; min-width: 140px; }"
NAMES_NOTE = ("Compared modulo variable names: each line's variables are renumbered in the order they "
              "appear before comparing, so a renaming alone is no change. Lines are matched on the line "
              "of code their equation came from (the number on the left) where both have one.")
EDIT_NOTE = " The last run's code lines are mapped onto this code's first, so an equation whose line only moved still matches."
PRESET_NONE = "(pick two views below)"


def pair_label(left: str, right: str) -> str:
    return f"{jaxpr_diff.VIEWS[left]} vs {jaxpr_diff.VIEWS[right]}"


def _row(row: jaxpr_diff.Row, edited: bool) -> str:
    ln = row.line
    sign, cls = {"same": (" ", ""), "added": ("+", "gp-jd-add"), "removed": ("−", "gp-jd-del")}[row.tag]
    src = ""
    link = ""
    if ln.src is not None:
        if row.tag == "removed" and edited:
            src = f"was {ln.src}"  # the old code's line; no link into the editor's (new) code
        else:
            src = str(ln.src)
            link = f' data-gp-src="{ln.src}" title="from line {ln.src}"'
    return (f'<tr class="{cls}"{link}><td class="gp-jd-ln">{esc(src)}</td><td>{sign}</td>'
            f'<td>{highlight(ln.text)}</td></tr>')


def comparison_html(c: jaxpr_diff.Comparison) -> str:
    left, right = jaxpr_diff.VIEWS[c.left.view], jaxpr_diff.VIEWS[c.right.view]
    lcode, rcode = (jaxpr_diff.VIEW_CODE[v].replace("{args}", c.args) for v in (c.left.view, c.right.view))
    code = (f'<p class="gp-muted">left (−): <code>{esc(lcode)}</code><br>'
            f'right (+): <code>{esc(rcode)}</code></p>')
    if c.diff is None:
        why = [f"{esc(VIEW)}: {esc(side.error)}" for VIEW, side in ((left, c.left), (right, c.right)) if side.error]
        return code + '<p class="gp-warn gp-jd-none">No diff: ' + "; ".join(why) + "</p>"
    d = c.diff
    s = lambda n: "" if n == 1 else "s"  # noqa: E731
    counts = (f'<p class="gp-jd-counts"><b>{esc(left)}</b> → <b>{esc(right)}</b>: '
              f'<b class="gp-jd-plus">+{d.added}</b> equation{s(d.added)} added, '
              f'<b class="gp-jd-minus">−{d.removed}</b> removed, {d.same} the same '
              f'({d.left_eqns} → {d.right_eqns} equations in all, nested bodies included)'
              + (" · no change" if not d.added and not d.removed
                 and all(r.tag == "same" for r in d.rows) else "") + "</p>")
    rows = "".join(_row(r, c.renamed) for r in d.rows[:MAX_ROWS])
    more = (f'<p class="gp-muted">… {len(d.rows) - MAX_ROWS} more lines not shown.</p>'
            if len(d.rows) > MAX_ROWS else "")
    note = f'<p class="gp-muted">{esc(NAMES_NOTE + (EDIT_NOTE if c.renamed else ""))}</p>'
    return (counts + code + f'<div class="gp-jd-box"><table class="gp-jd">{rows}</table></div>' + more + note)


class DiffCard:
    """The card: a preset menu, the two views, and the diff of the current run's analysis."""

    def __init__(self):
        presets = {PRESET_NONE: ""} | {pair_label(l, r): f"{l}|{r}" for l, r in jaxpr_diff.PAIRS}
        views = {label: key for key, label in jaxpr_diff.VIEWS.items()}
        self.preset = pn.widgets.Select(name="Compare", options=presets, value="f|jit", sizing_mode="stretch_width")
        self.left = pn.widgets.Select(name="left (−)", options=views, value="f", stylesheets=[SELECT_CSS],
                                      sizing_mode="stretch_width")
        self.right = pn.widgets.Select(name="right (+)", options=views, value="jit", stylesheets=[SELECT_CSS],
                                       sizing_mode="stretch_width")
        self.body = TextHTML("", stylesheets=[CSS, DIFF_CSS], sizing_mode="stretch_width", css_classes=["gp-jdiff"])
        row = pn.Row(self.left, self.right, sizing_mode="stretch_width",
                     stylesheets=[":host { flex-wrap: wrap; min-width: 0 !important; }"])
        self.card = pn.Card(self.preset, row, self.body, title="Diff two views: jaxprs line by line", collapsed=True,
                            sizing_mode="stretch_width", css_classes=["gp-jdiff-card"])
        self.analysis = self.previous = None
        self.comparison: jaxpr_diff.Comparison | None = None
        self._setting = False
        self.preset.param.watch(self._on_preset, "value")
        self.left.param.watch(self._on_pick, "value")
        self.right.param.watch(self._on_pick, "value")
        self.card.param.watch(lambda e: self.refresh(), "collapsed")

    def _on_preset(self, event):
        if not event.new:
            return
        left, right = event.new.split("|")
        self._setting = True
        try:
            self.left.value, self.right.value = left, right
        finally:
            self._setting = False
        self.refresh()

    def _on_pick(self, event):
        if self._setting:
            return
        pair = f"{self.left.value}|{self.right.value}"
        self._setting = True
        try:
            self.preset.value = pair if pair in self.preset.options.values() else ""
        finally:
            self._setting = False
        self.refresh()

    def show(self, a, previous=None) -> None:
        """This run's analysis `a` and the last run's of other code (`previous`): drawn if open."""
        self.analysis, self.previous = a, previous
        self.refresh()

    def refresh(self) -> None:
        if self.card.collapsed:  # nothing traced while closed, and nothing kept to go stale
            self.comparison = None
            if self.body.object:
                self.body.object = ""
            return
        if self.analysis is None:
            return
        try:
            self.comparison = jaxpr_diff.compare(self.analysis, self.left.value, self.right.value, self.previous)
            text = comparison_html(self.comparison)
        except Exception as e:  # noqa: BLE001 - a bug here must not take the Jaxpr pane down
            self.comparison = None
            text = f'<p class="gp-err">The diff could not be computed: {esc(type(e).__name__)}: {esc(str(e))}</p>'
        self.body.object = text

    def summary(self) -> dict | None:
        return jaxpr_diff.summary(self.comparison) if self.comparison is not None else None
