"""Laying out and drawing an autograd graph as SVG, for the GraphExplorer.

The graph is drawn the way the forward pass ran -- leaves at the top, the output at the bottom, as
torchviz does -- so a backward pass climbs up the picture. Layout in three steps:

1. **layers**: every node one layer below the lowest of its inputs (a longest-path layering, on
   networkx's topological order); then nodes that only feed others (leaves, their AccumulateGrad,
   saved tensors) move down to sit just above the first node that uses them;
2. **order within a layer**: a few sweeps of the barycenter rule (a node moves towards the mean
   position of its neighbours in the layer above, then below), ties kept in creation order;
3. **coordinates**: boxes packed left to right, each layer centred.

Everything is sorted by node key (``n0``, ``n1``... in creation/walk order), so the same graph gives
the same SVG bytes in every process.
"""
from ._svg import PALETTE, Canvas, escape, num

BOX_H, LEAF_H, LAYER_GAP, BOX_GAP, MARGIN, CHAR_W = 22, 34, 62, 18, 14, 7.2


def box_size(node):
    lines = node["label"].split("\n")
    width = max(len(line.strip()) for line in lines) * CHAR_W + 16
    return max(width, 40), (LEAF_H if len(lines) > 1 else BOX_H)


def _key_order(key):
    """n12 after n2; derived keys (n3.s0, out:n0:0) next to their node."""
    digits = "".join(ch if ch.isdigit() else " " for ch in key).split()
    return tuple(int(d) for d in digits), key


def layout(nodes, edges):
    """Where to draw: ``(boxes, size, routes)``. ``boxes``: {key: (x, y, width, height)} (top-left
    corners) for ``nodes`` ({key: {"label", "kind"...}}) joined by ``edges`` ([(src, dst, attrs)],
    forward direction); ``size``: the canvas (width, height); ``routes``: {(src, dst): [(x, y)...]}
    the points an edge passes through on its way across several layers (so it goes round the boxes
    between its ends instead of through them: each crossed layer gets a thin invisible stand-in)."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(sorted(nodes, key=_key_order))
    graph.add_edges_from((s, d) for s, d, _ in edges if s in nodes and d in nodes)
    order = list(nx.lexicographical_topological_sort(graph, key=_key_order))
    layer = {}
    for key in order:
        layer[key] = max((layer[p] + 1 for p in graph.predecessors(key)), default=0)
    for key in reversed(order):
        below = [layer[s] for s in graph.successors(key)]
        # a source (leaf, saved tensor), or a node fed only by sources (AccumulateGrad): move it down
        if below and all(graph.in_degree(p) == 0 for p in graph.predecessors(key)):
            layer[key] = max(layer[key], min(below) - 1)
    chains = {}
    for src, dst in sorted(graph.edges, key=lambda e: (_key_order(e[0]), _key_order(e[1]))):
        if layer[dst] - layer[src] > 1:
            chain = [f"{src}>{dst}#{n}" for n in range(layer[src] + 1, layer[dst])]
            layer.update({v: layer[src] + 1 + i for i, v in enumerate(chain)})
            graph.remove_edge(src, dst)
            nx.add_path(graph, [src, *chain, dst])
            chains[(src, dst)] = chain
    rows = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for key in sorted(layer, key=_key_order):
        rows[layer[key]].append(key)
    rows = [row for row in rows if row]
    _order_rows(rows, graph)

    sizes = {key: box_size(nodes[key]) if key in nodes else (8, BOX_H) for key in layer}
    widths = [sum(sizes[k][0] for k in row) + BOX_GAP * (len(row) - 1) for row in rows]
    canvas_w = max(widths, default=0) + 2 * MARGIN
    boxes, y = {}, MARGIN
    for row, row_w in zip(rows, widths):
        x = MARGIN + (canvas_w - 2 * MARGIN - row_w) / 2
        row_h = max(sizes[k][1] for k in row)
        for key in row:
            w, h = sizes[key]
            boxes[key] = (x, y + (row_h - h), w, h)
            x += w + BOX_GAP
        y += row_h + LAYER_GAP
    routes = {edge: [(boxes[v][0] + 4, boxes[v][1] + boxes[v][3] / 2) for v in chain]
              for edge, chain in chains.items()}
    boxes = {key: box for key, box in boxes.items() if key in nodes}
    # room on the right for the shape written beside an edge of the rightmost box
    return boxes, (canvas_w + 40, y - LAYER_GAP + MARGIN), routes


def _order_rows(rows, graph, sweeps=4):
    """Reorder each row in place so that edges cross less (the barycenter heuristic)."""
    def reorder(row, neighbours_of, index):
        def centre(key):
            found = [index[n] for n in neighbours_of(key) if n in index]
            return sum(found) / len(found) if found else index.get(key, 0)
        row.sort(key=lambda k: (centre(k), _key_order(k)))

    for sweep in range(sweeps):
        order = range(1, len(rows)) if sweep % 2 == 0 else range(len(rows) - 2, -1, -1)
        for i in order:
            neighbour_row = rows[i - 1] if sweep % 2 == 0 else rows[i + 1]
            index = {k: j for j, k in enumerate(neighbour_row)}
            neighbours = graph.predecessors if sweep % 2 == 0 else graph.successors
            reorder(rows[i], neighbours, index)


def draw(nodes, edges, boxes, size, state, note=None, routes=None):
    """The SVG text of the graph at one moment of a replay.

    ``state`` says what to colour: ``status`` {key: "ready"|"running"|"done"|"failed"}, ``left``
    {key: dependencies still to arrive}, ``newest`` (the node just recorded), ``flow`` {(src, dst):
    text on an edge a gradient just crossed, drawn pointing back the way it went}, ``accumulated`` (leaf keys whose ``.grad`` was
    written), ``released`` (op keys whose saved tensors are freed). ``routes`` as from layout()."""
    width, height = size
    extra = 18 if note else 0
    if note:
        width = max(width, len(note) * CHAR_W * 0.92 + 2 * MARGIN)
    canvas = Canvas(width, height + extra, font_size=11)
    if note:
        canvas.text(MARGIN, 13, note, anchor="start", fill=PALETTE["bad"], italic=True)
    dy = extra
    status, left, flow, routes = state.get("status", {}), state.get("left", {}), state.get("flow", {}), routes or {}
    for src, dst, attrs in edges:
        if src not in boxes or dst not in boxes:
            continue
        sx, sy, sw, sh = boxes[src]
        tx, ty, tw, _ = boxes[dst]
        points = [(sx + sw / 2, sy + sh)] + routes.get((src, dst), []) + [(tx + tw / 2, ty - 1)]
        points = [(x, y + dy) for x, y in points]
        saved = attrs["kind"] == "saved"
        crossed = (src, dst) in flow
        colour = PALETTE["running"] if crossed else (PALETTE["muted"] if saved else PALETTE["stroke"])
        # edges point the way the forward pass ran; the one a gradient just crossed points back
        drawn = points[::-1] if crossed else points
        canvas.path("M " + " L ".join(f"{num(x)} {num(y)}" for x, y in drawn), stroke=colour,
                    width=2.5 if crossed else 1, dash="3,3" if saved else None, arrow=not saved)
        label = flow.get((src, dst)) or _shape_label(attrs.get("shape"))
        if label and not saved:
            (x1, y1), (x2, y2) = points[-2], points[-1]   # beside the last stretch, above the arrow
            canvas.text((x1 + x2) / 2 + 4, (y1 + y2) / 2 + 4, label, anchor="start", size=9,
                        fill=PALETTE["bad"] if crossed else PALETTE["muted"],
                        weight="bold" if crossed else None)
    for key in sorted(boxes, key=_key_order):
        node = nodes[key]
        x, y, w, h = boxes[key]
        y += dy
        fill = _fill(node, key, status, state)
        strong = key == state.get("newest") or status.get(key) == "running"
        canvas.rect(x, y, w, h, fill=fill, rx=3 if node["kind"] == "op" else None,
                    stroke=PALETTE["ink"] if strong else PALETTE["stroke"], stroke_width=2.5 if strong else None,
                    dash="4,2" if node["kind"] == "saved" and key in state.get("released", ()) else None,
                    class_=f"node {node['kind']}", title=f"{key}: {node['label']}")
        lines = node["label"].split("\n")
        for i, line in enumerate(lines):
            faded = node["kind"] == "saved" and key in state.get("released", ())
            canvas.text(x + w / 2, y + 15 + 13 * i, line.strip(), weight="bold" if i == 0 and len(lines) > 1 else None,
                        fill=PALETTE["muted"] if faded else None)
        if left.get(key) and status.get(key) not in ("running", "done"):
            canvas.rect(x + w - 7, y - 8, 15, 14, fill="white", rx=7, stroke=PALETTE["stroke"],
                        title="gradients still to arrive")
            canvas.text(x + w + 0.5, y + 3, left[key], size=9)
    return canvas.to_svg()


def _fill(node, key, status, state):
    kind = node["kind"]
    if kind in ("leaf", "output", "saved"):
        if kind == "leaf" and key in state.get("accumulated", ()):
            return PALETTE["done"]
        return PALETTE[kind]
    return {"ready": PALETTE["ready"], "running": PALETTE["running"], "done": PALETTE["done"],
            "failed": PALETTE["written"]}.get(status.get(key), PALETTE["op"])


def _shape_label(shape):
    if shape is None:
        return None
    return "(" + ", ".join(str(n) for n in shape) + ")"


def panel(rows, title):
    """A small HTML table of (name, value) rows, for the side panel."""
    body = "".join(f"<tr><td style='padding-right:8px;color:{PALETTE['muted']}'>{escape(k)}</td>"
                   f"<td>{escape(v)}</td></tr>" for k, v in rows)
    return (f"<div style='margin-bottom:6px;font-family:sans-serif;line-height:1.4'><b>{escape(title)}</b>"
            f"<table style='font-family:monospace;font-size:12px'>{body}</table></div>")


LEGEND = [("leaf", "leaf tensor"), ("op", "node, waiting"), ("ready", "ready (queued)"),
          ("running", "running"), ("done", "has run"), ("output", "output"), ("saved", "saved tensor")]


def legend_html(show_saved=False):
    """What the colours mean; the badge on a node counts the gradients it still waits for."""
    items = [(k, text) for k, text in LEGEND if show_saved or k != "saved"]
    swatches = "".join(f"<span style='display:inline-block;margin:0 8px 2px 0'><span style='display:inline-block;"
                       f"width:11px;height:11px;border:1px solid {PALETTE['stroke']};background:{PALETTE[k]};"
                       f"vertical-align:middle;margin-right:3px'></span>{escape(text)}</span>" for k, text in items)
    return (f"<div style='font-family:sans-serif;font-size:11px;line-height:1.4;color:{PALETTE['ink']};"
            f"margin-top:8px'>{swatches}<span style='display:inline-block'>(2) gradients still to arrive</span>"
            f"</div>")
