"""A layered layout for the jaxpr's dataflow graph, in pixels, so that no two labels overlap:
layers left to right by depth, each layer ordered by the mean height of its inputs (fewer
crossings), one fixed-size slot per node, and labels cut to what a slot holds (the full text is
in the hover). The figure is sized from the layout and scrolls when it is wider than the pane."""
from __future__ import annotations

LAYER_PX = 118        # one layer's width: a label of LABEL_CHARS at 10 px fits with a gap
ROW_PX = 40           # one node's height: node (16 px) + label above it + a gap
LABEL_CHARS = 16      # 10 px monospace: ~6.1 px a character -> ~98 px
MARGIN_LAYERS = 0.7   # room left and right of the outer layers for their labels (nothing cut)
MARGIN_ROWS = 0.9
SWEEPS = 4


def short_label(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1] + "…"


def layered(nodes: list, edges: list) -> dict:
    """Set each node's x (its layer) and y (its slot in the layer, centred) in place; returns the
    extent {layers, rows} the figure is sized from. `nodes` carry `id` and `layer`."""
    by_layer: dict = {}
    for n in nodes:
        by_layer.setdefault(n["layer"], []).append(n)
    preds: dict = {}
    succs: dict = {}
    for s, d in edges:
        preds.setdefault(d, []).append(s)
        succs.setdefault(s, []).append(d)
    pos: dict = {}

    def place():
        for row in by_layer.values():
            shift = (len(row) - 1) / 2
            for i, n in enumerate(row):
                pos[n["id"]] = shift - i

    place()
    layers = sorted(by_layer)
    for sweep in range(SWEEPS):  # barycentre ordering, alternately from the inputs and the outputs
        order, near = (layers[1:], preds) if sweep % 2 == 0 else (layers[-2::-1], succs)
        for layer in order:
            row = by_layer[layer]
            def key(n, row=row):
                ys = [pos[m] for m in near.get(n["id"], []) if m in pos]
                return -(sum(ys) / len(ys)) if ys else -pos[n["id"]]
            row.sort(key=key)
            shift = (len(row) - 1) / 2
            for i, n in enumerate(row):
                pos[n["id"]] = shift - i
    for n in nodes:
        n["x"], n["y"] = float(n["layer"]), float(pos[n["id"]])
    return {"layers": len(layers), "rows": max((len(r) for r in by_layer.values()), default=1)}


def figure_size(extent: dict) -> tuple[int, int]:
    """Width and height in pixels of the plot frame that gives each layer LAYER_PX and each
    row ROW_PX."""
    return (int((extent["layers"] - 1 + 2 * MARGIN_LAYERS) * LAYER_PX),
            int((extent["rows"] - 1 + 2 * MARGIN_ROWS) * ROW_PX))
