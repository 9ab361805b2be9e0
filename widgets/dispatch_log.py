"""DispatchLog: what one piece of code really runs, floor by floor -- public call, autograd node, ATen op.

    with DispatchLog.record() as log:
        loss = F.linear(x, w, b).relu().sum()
        loss.backward()
    log            # an indented table: each public call with the ATen ops it ran, and, under
                   # Tensor.backward, each autograd node with the ops *its* backward ran

It is recorded with the library's own public tools, nothing private:

* a ``TorchFunctionMode`` sees each public call (``F.linear``, ``Tensor.relu``): a top row. While its
  handler runs the mode is off, so the calls ``F.linear`` makes inside itself are not rows of their own;
* a ``TorchDispatchMode`` sees each ATen op below autograd (``aten.addmm.default``): nested under the
  call that ran it;
* when ``Tensor.backward`` (or ``autograd.backward``) is called, a pre-hook and a hook on every node of
  the graph behind it: the ops that the node's backward runs nest under the node's name.

``DispatchLog.record(torch)`` records the same way on real PyTorch, so two logs can be compared line
by line (``print(log)``). Where they differ, tensorlab says so: see tensorlab/utils/_python_dispatch.py.
See course/25_the_dispatcher.
"""
import contextlib
import html
import importlib
from collections import namedtuple

from ._i18n import tr

#: One line of the log: how deep it is nested, what kind of step ("call", "node", "op"), its name.
Row = namedtuple("Row", "depth kind name")

# what each kind of row is, shown through tr(); and its colour in the table
KINDS = {"call": "public call (__torch_function__)", "node": "autograd node (backward)",
         "op": "ATen op (kernel)"}
COLOURS = {"call": "#1f5fa8", "node": "#a8551f", "op": "#3d7a3d"}
BACKWARD_CALLS = ("Tensor.backward", "autograd.backward")


class DispatchLog:
    """The rows of one recording. ``print(log)`` shows them indented; a notebook shows a table."""

    def __init__(self, rows=()):
        self.rows = [Row(*row) for row in rows]

    @classmethod
    @contextlib.contextmanager
    def record(cls, library=None):
        """``with DispatchLog.record() as log:`` -- log everything the block runs (on ``library``:
        tensorlab unless given, e.g. ``torch``)."""
        if library is None:
            import tensorlab as library
        log = cls()
        recorder = _Recorder(library, log.rows)
        with recorder.dispatch_mode(), recorder.function_mode():
            yield log

    # -- reading it -----------------------------------------------------------------------------------
    def ops(self):
        """The ATen ops, in the order they ran (what a TorchDispatchMode alone would log)."""
        return [row.name for row in self.rows if row.kind == "op"]

    def without(self, *names):
        """A copy without the op rows named (e.g. an engine's bookkeeping, to compare two logs)."""
        return DispatchLog(row for row in self.rows if not (row.kind == "op" and row.name in names))

    def __len__(self):
        return len(self.rows)

    def __str__(self):
        return "\n".join("    " * row.depth + row.name for row in self.rows)

    def __repr__(self):
        return str(self) if self.rows else "DispatchLog(nothing recorded)"

    def _repr_html_(self):
        return table_html(self.rows)


def table_html(rows):
    """The rows as an HTML table: the name indented by its depth, a coloured tag for its kind, and a
    legend. Plain HTML with inline styles, so a stored lesson shows it before it is trusted."""
    tag = ("<span style='display:inline-block;min-width:38px;margin-right:8px;padding:0 4px;border-radius:3px;"
           "font-size:11px;color:white;background:{colour};text-align:center'>{kind}</span>")
    lines = []
    for row in rows:
        kind = tag.format(colour=COLOURS[row.kind], kind=html.escape(row.kind))
        weight = "bold" if row.depth == 0 else "normal"
        lines.append(f"<tr><td style='padding:1px 8px 1px {6 + 22 * row.depth}px;text-align:left;"
                     f"font-family:monospace;font-weight:{weight}'>{kind}{html.escape(row.name)}</td></tr>")
    if not rows:
        lines.append(f"<tr><td style='text-align:left'>{html.escape(tr('nothing recorded'))}</td></tr>")
    legend = " &nbsp; ".join(tag.format(colour=COLOURS[k], kind=html.escape(k)) + html.escape(tr(KINDS[k]))
                             for k in KINDS)
    return ("<div style='font-family:sans-serif;font-size:13px'>"
            f"<table style='border-collapse:collapse'>{''.join(lines)}</table>"
            f"<div style='margin-top:6px;font-size:12px'>{legend}</div></div>")


class _Recorder:
    """Fills ``rows`` while its two modes are active (built for one library)."""

    def __init__(self, library, rows):
        self.library, self.rows, self.depth = library, rows, 0
        self.overrides = importlib.import_module(f"{library.__name__}.overrides")
        self.dispatch = importlib.import_module(f"{library.__name__}.utils._python_dispatch")

    def add(self, kind, name):
        self.rows.append(Row(self.depth, kind, name))

    @contextlib.contextmanager
    def nested(self, kind, name):
        self.add(kind, name)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def call_name(self, func):
        """``F.linear``, ``torch.relu``, ``Tensor.relu`` -- or None for what is not a call of the API
        (PyTorch hands a property's ``__get__`` to modes; tensorlab does not: neither is logged)."""
        name = getattr(func, "__name__", None)
        if name is None or name == "__get__":
            return None
        lib = self.library
        if self.overrides.is_tensor_method_or_property(func):
            return f"Tensor.{name}"
        for prefix, namespace in (("F", lib.nn.functional), ("torch", lib), ("autograd", lib.autograd)):
            if getattr(namespace, name, None) is func:
                return f"{prefix}.{name}"
        return name

    def function_mode(self):
        recorder = self

        class Calls(self.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                name = recorder.call_name(func)
                if name is None:
                    return func(*args, **kwargs)
                with recorder.nested("call", name):
                    if name in BACKWARD_CALLS:
                        with recorder.watching_nodes(args[0] if args else kwargs.get("tensors")):
                            return func(*args, **kwargs)
                    return func(*args, **kwargs)
        return Calls()

    def dispatch_mode(self):
        recorder = self

        class Ops(self.dispatch.TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                recorder.add("op", str(func))
                return func(*args, **(kwargs or {}))
        return Ops()

    @contextlib.contextmanager
    def watching_nodes(self, roots):
        """Hooks on every node behind ``roots``: a row (and one more level) while each node runs."""
        handles, depth = [], self.depth
        for node in graph_nodes(roots):
            name = type(node).__name__
            handles.append(node.register_prehook(lambda grads, name=name: self._enter(name)))
            handles.append(node.register_hook(lambda grads_in, grads_out: self._leave()))
        try:
            yield
        finally:
            for handle in handles:
                handle.remove()
            self.depth = depth

    def _enter(self, name):
        self.add("node", name)
        self.depth += 1

    def _leave(self):
        self.depth -= 1


def graph_nodes(roots):
    """The autograd nodes behind ``roots`` (a tensor or a sequence of tensors), each once."""
    roots = roots if isinstance(roots, (list, tuple)) else [roots]
    stack = [t.grad_fn for t in roots if getattr(t, "grad_fn", None) is not None]
    seen, found = set(), []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        found.append(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return found
