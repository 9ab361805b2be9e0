"""Laying out and drawing an autograd graph as SVG, for the GraphExplorer.

The graph is drawn the way the forward pass ran -- leaves at the top, the output at the bottom, as
torchviz does -- so a backward pass climbs up the picture. Layout in four steps (Sugiyama's method,
kept small):

1. **layers**: every node one layer below the lowest of its inputs (a longest-path layering, on
   networkx's topological order); then nodes that only feed others (leaves, their AccumulateGrad,
   saved tensors) move down to sit just above the first node that uses them. An edge that spans
   several layers gets a thin invisible stand-in in each layer it crosses, so it is routed *between*
   the boxes of those layers, never through them;
2. **order within a layer**: a few sweeps of the barycenter rule (a node moves towards the mean
   position of its neighbours in the layer above, then below), ties kept in creation order;
3. **x coordinates**: each node is pulled towards the mean x of its neighbours, as near as the boxes
   beside it allow (the closest positions that keep the order and the gaps: ``_closest``), a few
   sweeps down and up -- so edges run nearly straight;
4. **ports**: the edges into a box arrive side by side along its top, ordered like their sources
   (and leave along its bottom ordered like their targets), so they do not cross at the box.

Everything is sorted by node key (``n0``, ``n1``... in creation/walk order), so the same graph gives
the same SVG bytes in every process.
"""
from collections import defaultdict

from ._i18n import tr
from ._svg import PALETTE, Canvas, escape, num

FONT, SMALL = 13, 12                 # px: node labels; tags, shapes on edges, badges
CHAR, SMALL_CHAR = 0.6 * FONT, 0.6 * SMALL   # a monospace character's width
LINE_H, PAD = 17, 9                  # one text line in a box; the box's padding above and below
LAYER_GAP, BOX_GAP, STAND_IN_GAP, MARGIN = 58, 26, 10, 16
STAND_IN_W = 6                       # an edge crossing a layer takes this much room in it


def box_lines(node, tag=None):
    """The text lines of a box: its label (name, shape), and the tag of an op node (``b = a * 2``)."""
    lines = [line.strip() for line in node["label"].split("\n")]
    return lines + ([tag] if tag else [])


def box_size(node, tag=None):
    lines = box_lines(node, tag)
    width = max(len(line) * (CHAR if i == 0 else SMALL_CHAR) for i, line in enumerate(lines)) + 20
    return max(width, 44), 2 * PAD + LINE_H * len(lines) - 4


def edge_id(src, dst, attrs):
    """Two edges may join the same pair of nodes (``x * x``): tell them apart by input number."""
    return (src, dst, attrs["kind"], attrs.get("input_nr"), attrs.get("output_nr"))


def _key_order(key):
    """n12 after n2; derived keys (n3.s0, n0.out) next to their node."""
    digits = "".join(ch if ch.isdigit() else " " for ch in key).split()
    return tuple(int(d) for d in digits), key


def _sort_key(key):
    """Nodes in key order; an edge's stand-in ((edge id, layer)) next to the edge's source."""
    return _key_order(key) + ("",) if isinstance(key, str) else _key_order(key[0][0]) + (str(key),)


def layout(nodes, edges, tag=None):
    """Where to draw: ``(boxes, size, routes)``. ``boxes``: {key: (x, y, width, height)} (top-left
    corners) for ``nodes`` ({key: {"label", "kind"...}}) joined by ``edges`` ([(src, dst, attrs)],
    forward direction); ``size``: the canvas (width, height); ``routes``: {edge_id: [(x, y)...]} the
    points each edge passes through, from the bottom of its source to the top of its target.
    ``tag(key)``: the extra line an op box shows (what made it), or None."""
    import networkx as nx

    tag = tag or (lambda key: None)
    real = sorted(((s, d, edge_id(s, d, a)) for s, d, a in edges if s in nodes and d in nodes),
                  key=lambda e: (_key_order(e[0]), _key_order(e[1]), str(e[2])))
    graph = nx.DiGraph()
    graph.add_nodes_from(sorted(nodes, key=_key_order))
    graph.add_edges_from((s, d) for s, d, _ in real)
    order = list(nx.lexicographical_topological_sort(graph, key=_key_order))
    layer = {}
    for key in order:
        layer[key] = max((layer[p] + 1 for p in graph.predecessors(key)), default=0)
    for key in reversed(order):
        below = [layer[s] for s in graph.successors(key)]
        # a source (leaf, saved tensor), or a node fed only by sources (AccumulateGrad): move it down
        if below and all(graph.in_degree(p) == 0 for p in graph.predecessors(key)):
            layer[key] = max(layer[key], min(below) - 1)
    up, down, paths = defaultdict(list), defaultdict(list), {}
    for src, dst, eid in real:             # a long edge: one stand-in per layer it crosses
        path = [src] + [(eid, n) for n in range(layer[src] + 1, layer[dst])] + [dst]
        layer.update({v: layer[src] + i for i, v in enumerate(path[1:-1], start=1)})
        for a, b in zip(path, path[1:]):
            down[a].append(b)
            up[b].append(a)
        paths[eid] = path
    rows = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for key in sorted(layer, key=_sort_key):
        rows[layer[key]].append(key)
    rows = [row for row in rows if row]
    _order_rows(rows, up, down)

    sizes = {key: box_size(nodes[key], tag(key)) if key in nodes else (STAND_IN_W, 0) for key in layer}
    centre = _place(rows, up, down, sizes)
    left = min((centre[k] - sizes[k][0] / 2 for k in layer), default=0)
    shift = MARGIN - left
    boxes, spans, y = {}, {}, MARGIN
    for row in rows:
        row_h = max(sizes[k][1] for k in row) or LINE_H
        for key in row:
            w, h = sizes[key]
            boxes[key] = (centre[key] + shift - w / 2, y + (row_h - h) / 2, w, h if key in nodes else row_h)
            spans[key] = (y, y + row_h)
        y += row_h + LAYER_GAP
    width = max((b[0] + b[2] for b in boxes.values()), default=0) + MARGIN
    routes = _routes(paths, boxes, spans)
    boxes = {key: box for key, box in boxes.items() if key in nodes}
    # room on the right for the shape written beside an edge of the rightmost box
    return boxes, (width + 48, y - LAYER_GAP + MARGIN), routes


def _order_rows(rows, up, down, sweeps=4):
    """Reorder each row in place so that edges cross less (the barycenter heuristic)."""
    for sweep in range(sweeps):
        downwards = sweep % 2 == 0
        for i in (range(1, len(rows)) if downwards else range(len(rows) - 2, -1, -1)):
            index = {k: j for j, k in enumerate(rows[i - 1] if downwards else rows[i + 1])}
            neighbours = up if downwards else down

            here = {k: j for j, k in enumerate(rows[i])}

            def centre(key):
                found = [index[n] for n in neighbours[key] if n in index]
                return sum(found) / len(found) if found else here[key]
            rows[i].sort(key=lambda k: (centre(k), _sort_key(k)))


def _gap(a, b, nodes_w):
    """The room between the centres of two neighbours in a row."""
    (wa, a_real), (wb, b_real) = nodes_w[a], nodes_w[b]
    return wa / 2 + wb / 2 + (BOX_GAP if a_real and b_real else STAND_IN_GAP)


def _closest(wanted, gaps):
    """Positions as close as possible (least squares) to ``wanted`` that keep their order with at
    least ``gaps[i]`` between positions i and i+1: shift out the gaps, then the pool-adjacent-
    violators algorithm (blocks that would overlap merge and sit at their mean)."""
    offsets = [0.0]
    for g in gaps:
        offsets.append(offsets[-1] + g)
    blocks = []                            # [sum, count]
    for w, o in zip(wanted, offsets):
        blocks.append([w - o, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    flat = [s / c for s, c in blocks for _ in range(c)]
    return [v + o for v, o in zip(flat, offsets)]


def _place(rows, up, down, sizes, sweeps=8):
    """x of every node's centre: pulled towards its neighbours' mean, kept apart (``_closest``)."""
    widths = {k: (sizes[k][0], not isinstance(k, tuple)) for row in rows for k in row}
    centre = {}
    for row in rows:                      # start: packed side by side, centred on 0
        xs = _closest([0.0] * len(row), [_gap(a, b, widths) for a, b in zip(row, row[1:])])
        mid = (xs[0] + xs[-1]) / 2
        centre.update({k: x - mid for k, x in zip(row, xs)})
    for sweep in range(sweeps):
        neighbours = up if sweep % 2 == 0 else down
        for row in (rows if sweep % 2 == 0 else rows[::-1]):
            wanted = []
            for k in row:
                near = [centre[n] for n in neighbours[k]] or [centre[n] for n in up[k] + down[k]]
                wanted.append(sum(near) / len(near) if near else centre[k])
            xs = _closest(wanted, [_gap(a, b, widths) for a, b in zip(row, row[1:])])
            centre.update(zip(row, xs))
    return centre


def _routes(paths, boxes, spans):
    """The points of every edge: leaving its source's bottom and reaching its target's top at ports
    spread along the box, ordered like the other ends. Inside a layer (``spans``: its top and bottom)
    an edge runs straight down -- out of its box, through its stand-ins -- so it bends only in the
    gaps between layers, where there are no boxes."""
    leaving, arriving = defaultdict(list), defaultdict(list)
    for eid, path in paths.items():
        leaving[path[0]].append((eid, path[1]))
        arriving[path[-1]].append((eid, path[-2]))

    def ports(ends, at_top):
        found = {}
        for key, items in ends.items():
            x, y, w, h = boxes[key]
            items.sort(key=lambda item: (boxes[item[1]][0] + boxes[item[1]][2] / 2, str(item[0])))
            for i, (eid, _) in enumerate(items):
                found[eid] = (x + w * (i + 1) / (len(items) + 1), y if at_top else y + h)
        return found

    starts, ends = ports(leaving, False), ports(arriving, True)
    routes = {}
    for eid, path in paths.items():
        (sx, sy), (tx, ty) = starts[eid], ends[eid]
        points = [(sx, sy), (sx, spans[path[0]][1])]
        for v in path[1:-1]:
            x = boxes[v][0] + boxes[v][2] / 2
            points += [(x, spans[v][0]), (x, spans[v][1])]
        points += [(tx, spans[path[-1]][0]), (tx, ty)]
        routes[eid] = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    return routes


def _curve(points):
    """An SVG path through ``points``: S-shaped between each pair, leaving and arriving vertically."""
    (x, y), parts = points[0], [f"M {num(points[0][0])} {num(points[0][1])}"]
    for nx_, ny in points[1:]:
        bend = (ny - y) / 2
        parts.append(f"L {num(nx_)} {num(ny)}" if nx_ == x else
                     f"C {num(x)} {num(y + bend)} {num(nx_)} {num(ny - bend)} {num(nx_)} {num(ny)}")
        x, y = nx_, ny
    return " ".join(parts)


def draw(nodes, edges, boxes, size, state, note=None, routes=None, tag=None):
    """The SVG text of the graph at one moment of a replay.

    ``state`` says what to colour: ``status`` {key: "ready"|"running"|"done"|"failed"}, ``left``
    {key: dependencies still to arrive}, ``newest`` (the node just recorded), ``hidden`` (nodes not
    recorded yet: drawn faded), ``flow`` {(src, dst): text on an edge a gradient just crossed, drawn
    pointing back the way it went}, ``accumulated`` (leaf keys whose ``.grad`` was written),
    ``released`` (op keys whose saved tensors are freed). ``routes`` as from layout()."""
    tag = tag or (lambda key: None)
    width, height = size
    extra = 22 if note else 0
    if note:
        width = max(width, len(note) * SMALL_CHAR + 2 * MARGIN)
    canvas = Canvas(width, height + extra, font_size=FONT)
    if note:
        canvas.text(MARGIN, 15, note, anchor="start", size=SMALL, fill=PALETTE["bad"], italic=True)
    status, left, flow = state.get("status", {}), state.get("left", {}), state.get("flow", {})
    hidden, routes = state.get("hidden", set()), routes or {}
    labelled = set()                       # (src, output_nr): its shape is written once, by one edge
    for src, dst, attrs in sorted(edges, key=lambda e: _sort_key(e[0])):
        eid = edge_id(src, dst, attrs)
        if src not in boxes or dst not in boxes or eid not in routes:
            continue
        points = [(x, y + extra) for x, y in routes[eid]]
        saved, crossed = attrs["kind"] == "saved", (src, dst) in flow
        faded = src in hidden or dst in hidden or src.split(".")[0] in hidden
        colour = (PALETTE["running"] if crossed else "#cfcfcf" if faded else
                  PALETTE["muted"] if saved else PALETTE["stroke"])
        # edges point the way the forward pass ran; the one a gradient just crossed points back
        canvas.path(_curve(points[::-1] if crossed else points), stroke=colour, width=3 if crossed else 1.2,
                    dash="3,3" if saved or faded else None, arrow=not saved)
        shape = _shape_label(attrs.get("shape"))
        if shape and not saved and not faded and (src, attrs.get("output_nr")) not in labelled:
            labelled.add((src, attrs.get("output_nr")))
            (x0, y0) = points[0]
            canvas.text(x0 + 5, y0 + 15, shape, anchor="start", size=SMALL, fill=PALETTE["muted"])
        if crossed:
            (x1, y1), (x2, y2) = points[0], points[-1]
            text = flow[(src, dst)]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            canvas.rect(mx + 6, my - 11, len(text) * SMALL_CHAR + 8, 18, fill="white", stroke=PALETTE["running"],
                        rx=3)
            canvas.text(mx + 10, my + 3, text, anchor="start", size=SMALL, weight="bold", fill=PALETTE["bad"])
    for key in sorted(boxes, key=_key_order):
        _draw_box(canvas, key, nodes[key], boxes[key], extra, state, tag(key))
        if left.get(key) and status.get(key) not in ("running", "done", "failed") and key not in hidden:
            x, y, w, _ = boxes[key]
            badge(canvas, x + w - 4, y + extra - 2, left[key])
    return canvas.to_svg()


def _draw_box(canvas, key, node, box, dy, state, tag):
    x, y, w, h = box
    y += dy
    status, hidden = state.get("status", {}), state.get("hidden", set())
    faded = key in hidden or key.split(".")[0] in hidden
    released = node["kind"] == "saved" and key in state.get("released", ())
    strong = not faded and (key == state.get("newest") or status.get(key) in ("running", "failed"))
    canvas.rect(x, y, w, h, fill="white" if faded else _fill(node, key, status, state),
                rx=4 if node["kind"] == "op" else None,
                stroke="#bbb" if faded else PALETTE["ink"] if strong else PALETTE["stroke"],
                stroke_width=2.5 if strong else None, dash="4,3" if faded or released else None,
                class_=f"node {node['kind']}", title=f"{key}: {node['label']}")
    lines = box_lines(node, tag)
    for i, line in enumerate(lines):
        is_tag = tag is not None and i == len(lines) - 1
        bold = i == 0 and node["kind"] in ("leaf", "output", "saved")
        canvas.text(x + w / 2, y + PAD + 11 + LINE_H * i, line, size=SMALL if i else None,
                    weight="bold" if bold else None, italic=is_tag,
                    fill="#aaa" if faded or released else "#555" if is_tag else None)


def badge(canvas, cx, cy, count):
    """A dark round badge: how many gradients a node still waits for (not a shape like ``(2,)``)."""
    canvas.rect(cx - 10, cy - 10, 20, 20, fill=PALETTE["ink"], stroke="white", rx=10,
                title=tr("gradients this node still waits for"))
    canvas.text(cx, cy + 4, count, size=SMALL, weight="bold", fill="white")


def _fill(node, key, status, state):
    kind = node["kind"]
    if kind in ("leaf", "output", "saved"):
        if kind == "leaf" and key in state.get("accumulated", ()):
            return PALETTE["done"]
        return PALETTE[kind]
    return {"ready": PALETTE["ready"], "running": PALETTE["running"], "done": PALETTE["done"],
            "failed": PALETTE["failed"]}.get(status.get(key), PALETTE["op"])


def _shape_label(shape):
    """A shape as Python writes it: ``(2,)``, ``()``."""
    return None if shape is None else str(tuple(shape))


def panel(rows, title):
    """A small HTML table of (name, value) rows, for the side panel."""
    body = "".join(f"<tr><td style='padding-right:8px;color:{PALETTE['muted']}'>{escape(k)}</td>"
                   f"<td>{escape(v)}</td></tr>" for k, v in rows)
    return (f"<div style='margin-bottom:6px;font-family:sans-serif;line-height:1.4'><b>{escape(title)}</b>"
            f"<table style='font-family:monospace;font-size:13px'>{body}</table></div>")


# what each colour means (in this order), shown through tr()
LEGEND = {"leaf": "leaf tensor", "op": "node, waiting", "ready": "ready (queued)", "running": "running",
          "done": "has run", "failed": "raised an error", "output": "output", "saved": "saved tensor"}


def legend_html(show_saved=False, unrecorded=False):
    """What the colours mean; the dark badge on a node counts the gradients it still waits for."""
    items = [(k, tr(LEGEND[k])) for k in LEGEND if show_saved or k != "saved"]
    swatch = ("<span style='display:inline-block;margin:0 10px 3px 0;white-space:nowrap'><span style='display:"
              "inline-block;width:12px;height:12px;border:1px {dash} {stroke};background:{fill};"
              "vertical-align:middle;margin-right:4px'></span>{text}</span>")
    parts = [swatch.format(dash="solid", stroke=PALETTE["stroke"], fill=PALETTE[k], text=escape(text))
             for k, text in items]
    if unrecorded:
        parts.append(swatch.format(dash="dashed", stroke="#bbb", fill="white", text=escape(tr("not recorded yet"))))
    parts.append(f"<span style='display:inline-block;white-space:nowrap'><span style='display:inline-block;"
                 f"min-width:18px;height:18px;line-height:18px;border-radius:9px;background:{PALETTE['ink']};"
                 f"color:white;font-weight:bold;text-align:center;vertical-align:middle;margin-right:4px'>2"
                 f"</span>{escape(tr('gradients the node still waits for'))}</span>")
    return (f"<div style='font-family:sans-serif;font-size:12px;line-height:1.5;color:{PALETTE['ink']};"
            f"margin-top:8px'>{''.join(parts)}</div>")
