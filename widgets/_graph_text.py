"""The GraphExplorer's replay in words: the state after a step, the sentence for it, the side panel.

``state`` folds the recorded events up to a step into what the picture shows; ``describe_step`` says
what the engine just did, in one sentence; ``panel_html`` is the side panel (the ready queue, what
the running node received, each leaf's ``.grad``, hooks that fired, saved tensors freed).
"""
from . import _graph_draw
from ._graph_record import value_text
from ._i18n import tr
from ._svg import error_html, escape


def state(explorer, p):
    """What the picture shows after ``explorer.events[:p]`` (see ``GraphExplorer.state``)."""
    s = {"status": {}, "left": {}, "queue": [], "flow": {}, "accumulated": set(), "released": set(),
         "grads": {}, "captured": {}, "hooks": [], "running": None, "received": None, "newest": None,
         "error": None, "pass": 0}
    s["hidden"] = {explorer._keys[obj_id] for obj_id, i in explorer._created_at.items() if i >= p}
    name = explorer.label
    for i, e in enumerate(explorer.events[:p]):
        kind, node, last = e["kind"], e.get("node"), i == p - 1
        if kind == "record":
            s["newest"] = node if last else None       # the node just recorded is drawn in bold
        elif kind == "graph":
            s.update(status={}, left=dict(e["dependencies"]), queue=[], accumulated=set(), running=None,
                     captured={}, error=None, newest=None)
            s["pass"] = e["number"]
        elif kind == "ready":
            s["status"][node], s["queue"] = "ready", list(e["queue"])
        elif kind == "run":
            if s["running"] is not None:
                s["status"][s["running"]] = "done"
            s["running"], s["received"] = node, e["grads"]
            s["status"][node] = "running"
            s["queue"] = [k for k in s["queue"] if k != node]
        elif kind == "send":
            s["left"][e["to"]] = e["left"]
            if last and e["grad"] is not None:
                s["flow"][(e["to"], node)] = value_text(e["grad"])
        elif kind == "accumulate":
            s["accumulated"].add(e["variable"])
            s["grads"][e["variable"]] = e["total"]
            if last:
                s["flow"][(e["variable"], node)] = value_text(e["grad"])
        elif kind == "capture":
            s["captured"][e["index"]] = e["grad"]
        elif kind == "hook":
            s["hooks"].append(tr("{which} hook {hook} on {node}", which=e["which"], hook=e["hook"], node=name(node))
                              if e["which"] != "retain_grad" else tr("retain_grad on {node}", node=name(node)))
        elif kind == "release":
            s["released"].add(node)
            s["released"].update(k for k in explorer.nodes if k.startswith(node + ".s"))
        elif kind == "done":
            if s["running"] is not None:
                s["status"][s["running"]] = "done"
            # nodes queued but never run (autograd.grad stops at its inputs) are simply left over
            s["status"] = {k: v for k, v in s["status"].items() if v != "ready"}
            s.update(running=None, queue=[])
        elif kind == "error":
            s["error"] = e["message"]
            if s["running"] is not None:
                s["status"][s["running"]] = "failed"
                s["running"] = None
    return s


def _failed_before(events, p):
    """True when the pass that event ``p - 1`` belongs to stopped with an error before it."""
    for e in reversed(events[:p - 1]):
        if e["kind"] == "error":
            return True
        if e["kind"] == "graph":
            return False
    return False


def describe_step(explorer, p):
    """One sentence for step ``p``: what the engine (or the forward pass) just did."""
    events, name = explorer.events, explorer.label
    head = tr("step {p} of {n}: ", p=p, n=len(events))
    if p == 0:
        if not events:
            return head + (tr("no pass recorded yet: press Run backward") if explorer.output is not None
                           else tr("nothing was recorded"))
        if events[0]["kind"] == "record":
            return head + tr("nothing recorded yet (faded: the graph the code is about to build); press Step or Play")
        return head + tr("the backward pass has not started yet; press Step or Play")
    e = events[p - 1]
    kind = e["kind"]
    if kind == "record":
        shapes = ", ".join(str(s) for s in e["shapes"])
        tag = explorer.tag(e["node"])
        if tag:
            return head + tr("the forward pass records {name} for {tag} (output {shapes})", name=e["name"], tag=tag,
                             shapes=shapes)
        return head + tr("the forward pass records {name} (output {shapes})", name=e["name"], shapes=shapes)
    if kind == "graph":
        return head + tr("backward pass {number} starts: the engine counts the edges into every node ({n} nodes)",
                         number=e["number"], n=len(e["dependencies"]))
    if kind == "ready":
        return head + tr("{node} is ready: every gradient it waits for has arrived", node=name(e["node"]))
    if kind == "run":
        grads = ", ".join(value_text(g) for g in e["grads"])
        return head + tr("{node} runs on the gradient it received: {grads}", node=name(e["node"]), grads=grads)
    if kind == "send":
        if e["grad"] is None:
            return head + tr("{node} sends nothing to {to} ({left} still to come)", node=name(e["node"]),
                             to=name(e["to"]), left=e["left"])
        return head + tr("{node} sends {grad} to {to} ({left} still to come)", node=name(e["node"]),
                         grad=value_text(e["grad"]), to=name(e["to"]), left=e["left"])
    if kind == "accumulate":
        return head + tr("{node} adds {grad} into .grad, which is now {total}", node=name(e["node"]),
                         grad=value_text(e["grad"]), total=value_text(e["total"]))
    if kind == "capture":
        return head + tr("autograd.grad captures {grad} for inputs[{index}]", grad=value_text(e["grad"]),
                         index=e["index"])
    if kind == "hook":
        if e["which"] == "retain_grad":
            return head + tr("retain_grad() keeps the gradient of {node}'s output in its .grad", node=name(e["node"]))
        return head + tr("a {which} hook ({hook}) runs on {node}", which=e["which"], hook=e["hook"],
                         node=name(e["node"]))
    if kind == "release":
        return head + tr("{node} frees the tensors it saved for backward ({shapes}): retain_graph=False",
                         node=name(e["node"]), shapes=", ".join(str(s) for s in e["shapes"]))
    if kind == "done":
        if _failed_before(events, p):
            return head + tr("the engine stops: the error ended this pass early (nodes that had not run never will)")
        return head + tr("the backward pass is done")
    return head + tr("the pass stopped with an error (below)")


def panel_html(explorer, p):
    """The side panel at step ``p``: the sentence, any error, then small tables of what changed."""
    s, name = state(explorer, p), explorer.label
    parts = [f"<div style='font-family:monospace;font-size:13px;line-height:1.4;margin-bottom:6px'>"
             f"{escape(describe_step(explorer, p))}</div>"]
    for message in (s["error"], explorer.error):
        if message:
            parts.append(error_html(message))
    if s["pass"]:
        parts.append(_graph_draw.panel([(str(i + 1), name(k)) for i, k in enumerate(s["queue"])]
                                       or [("", tr("(empty)"))], tr("ready queue (next first)")))
    if s["received"] is not None and s["running"]:
        parts.append(_graph_draw.panel([(f"grad[{i}]", value_text(g)) for i, g in enumerate(s["received"])],
                                       tr("{node} received", node=name(s["running"]))))
    leaves = [(explorer.nodes[k]["label"].split("\n")[0], value_text(v)) for k, v in s["grads"].items()]
    if leaves:
        parts.append(_graph_draw.panel(leaves, tr(".grad of the leaves")))
    if s["captured"]:
        parts.append(_graph_draw.panel([(f"inputs[{i}]", value_text(v)) for i, v in sorted(s["captured"].items())],
                                       tr("captured by autograd.grad")))
    if s["hooks"]:
        parts.append(_graph_draw.panel([(str(i + 1), h) for i, h in enumerate(s["hooks"])], tr("hooks that fired")))
    freed = [name(k) for k in explorer.nodes if k in s["released"] and "." not in k]
    if freed:
        parts.append(_graph_draw.panel([("", ", ".join(freed))], tr("saved tensors freed by")))
    parts.append(_graph_draw.legend_html(explorer.show_saved, bool(s["hidden"])))
    return "".join(parts)
