"""The kernels card under the dataflow graph: pick a fused WebGPU kernel (from the list or by
clicking one of its nodes in the graph) and see its WGSL beside the jaxpr equations it computes,
as `GRADPAD_DEBUG=2` prints them. The WGSL comes from the compiler, so it shows without a GPU."""
from __future__ import annotations

import panel as pn

from .. import kernels as kernel_data
from .common import CSS, esc
from .text_html import TextHTML

KERNELS_CSS = """.gp-kgrid { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 8px; }
.gp-kgrid > div { min-width: 0; } .gp-kgrid h4 { margin: 2px 0; font-size: 13px; overflow-wrap: anywhere; }
.gp-wgsl { max-height: 360px; font-size: 11.5px; }
.gp-swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; border: 1px solid #333; }"""


def kernel_html(k: kernel_data.KernelSource, eqn_texts: list, colour: str) -> str:
    from .jaxpr import highlight
    eqns = "\n".join(highlight(eqn_texts[i]) for i in k.eqns if i < len(eqn_texts)) or "(none)"
    wgsl = (f'<pre class="gp-code gp-wgsl">{esc(k.wgsl)}</pre>' if k.wgsl
            else f'<p class="gp-muted">{esc(k.note)}</p>')
    return (f'<div class="gp-kgrid"><div><h4><span class="gp-swatch" style="background:{colour}"></span> '
            f'kernel {k.index}: {esc(k.kind)} <code>{esc(k.label)}</code></h4>'
            f'<p class="gp-muted">computes {len(k.eqns)} equation{"s" if len(k.eqns) != 1 else ""}:</p>'
            f'<pre class="gp-code">{eqns}</pre></div><div><h4>WGSL</h4>{wgsl}</div></div>')


def note_html(webgpu_here: bool) -> str:
    where = ("WebGPU is available here: choose Backend webgpu to run these kernels" if webgpu_here else
             "WebGPU is not available here, so nothing runs on a GPU; the WGSL is the compiler's "
             "output and is shown all the same")
    return (f'<p class="gp-muted">Each fused kernel’s WGSL beside the equations it computes '
            f'(what GRADPAD_DEBUG=2 prints). Click a coloured node in the graph or pick one here. '
            f'{esc(where)}.</p>')


class KernelCard:
    """A Select of the kernels and the chosen one's equations and WGSL (built when chosen)."""

    def __init__(self, view, colour_of, webgpu_here: bool):
        self.view, self.colour_of, self.webgpu_here = view, colour_of, webgpu_here
        self._sources = None
        self.select = pn.widgets.Select(name="Kernel", options=self.options(view), sizing_mode="stretch_width",
            max_width=480)  # never wider than a phone
        self.note = TextHTML(note_html(webgpu_here), stylesheets=[CSS], sizing_mode="stretch_width")
        self.body = TextHTML("", stylesheets=[CSS, KERNELS_CSS], sizing_mode="stretch_width")
        self.select.param.watch(lambda e: self.show(e.new), "value")
        self.card = pn.Card(self.note, self.select, self.body, title=self.title(view),
                            sizing_mode="stretch_width", collapsed=False, css_classes=["gp-kernels"])
        if view.kernels:
            self.show(0)

    @staticmethod
    def title(view) -> str:
        return f"Kernels: {len(view.kernels)} WGSL shader{'s' if len(view.kernels) != 1 else ''}"

    @staticmethod
    def options(view) -> dict:
        return {f"{i}: {k.kind} · {k.label}": i for i, k in enumerate(view.kernels)}

    def retarget(self, view) -> None:
        """Show `view`'s kernels in this card (already in the page): its models stay, their values
        change (a new card would make the page lay itself out again)."""
        self.view, self._sources = view, None
        self.card.title = self.title(view)
        self.select.options = self.options(view)
        if view.kernels:
            self.show(0)
            if self.select.value != 0:
                self.select.value = 0
        else:
            self.body.object = ""

    def set_webgpu_here(self, webgpu_here: bool) -> None:
        """The note says whether WebGPU runs here (the page finds its adapter after a load's first
        run): its text changes, the card stays (a new card: a page-wide relayout, ~1 s)."""
        if webgpu_here != self.webgpu_here:
            self.webgpu_here = webgpu_here
            self.note.object = note_html(webgpu_here)

    def sources(self):
        if self._sources is None:
            self._sources = (kernel_data.kernel_sources(self.view.closed, self.view.kernels),
                             kernel_data.equation_texts(self.view.closed.jaxpr, self.view.text))
        return self._sources

    def show(self, index: int | None):
        """Kernel `index`'s equations and WGSL; None (the list emptied: a jaxpr with no kernels,
        the page's Select then picks no value) shows none."""
        if index is None:
            self.body.object = ""
            return
        ks, texts = self.sources()
        if 0 <= index < len(ks):
            self.body.object = kernel_html(ks[index], texts, self.colour_of(index))
            if self.select.value != index:
                self.select.value = index

    def on_graph_tap(self, groups: list):
        """Selected graph node indices -> their kernel (the first node that belongs to one)."""
        def tapped(attr, old, new):
            for i in new:
                if 0 <= i < len(groups) and groups[i] is not None:
                    self.show(groups[i])
                    return
        return tapped
