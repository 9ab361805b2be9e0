"""ModuleExplorer: a model's tree of modules, with its parameters, buffers, hooks and state_dict keys.

Everything shown is read from the real Module, never copied: the tree is ``named_modules()``, a
module's own parameters and buffers are its ``_parameters`` and ``_buffers`` registries, the hooks are
its ``_forward_pre_hooks`` / ``_forward_hooks`` / ``_backward_pre_hooks`` / ``_backward_hooks`` dicts
(tensorlab/nn/modules/_module_hooks.py), and the keys are those of ``model.state_dict()`` -- so a
non-persistent buffer appears in the tree but not among the keys, and a shared parameter is counted
once but saved under each of its names. Freezing really sets ``requires_grad`` on the parameters:
an optimizer then leaves them alone, because their ``.grad`` stays None.

    >>> import tensorlab as torch
    >>> from tensorlab import nn
    >>> model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Linear(3, 2))
    >>> ex = ModuleExplorer(model)
    >>> ex.counts()
    {'total': 29, 'trainable': 29}
    >>> ex.freeze("0")                      # the first Linear: 4*3 + 3 parameters
    >>> ex.counts(), model[0].weight.requires_grad
    ({'total': 29, 'trainable': 14}, False)
    >>> ex.state_dict_keys()[:4]
    ['0.weight', '0.bias', '1.weight', '1.bias']
    >>> ex.unfreeze("9")                    # bad input: PyTorch's words, nothing changed
    >>> ex.error
    'AttributeError: Sequential has no attribute `9`'
    >>> ex.counts("0")
    {'total': 15, 'trainable': 0}
    >>> ex.freeze(0)                        # a name is text: "0", "features.0.weight"
    >>> ex.error
    "TypeError: name must be a str such as 'features.0' or 'classifier.1.weight' ('' for the whole model), got int"

A model nested deeper than ``MAX_DEPTH`` levels is drawn down to that depth; the modules below are
counted, not drawn (explore one of them with its own ``ModuleExplorer(model.get_submodule(name))``).

See course/11_modules_and_parameters.
"""
from tensorlab.nn import Module, Parameter

from ._base import WidgetModel, error_text
from ._i18n import tr
from ._svg import PALETTE, error_html, escape

MAX_DEPTH = 24        # levels of the tree drawn; deeper modules are counted under the last level drawn
LIST_STYLE = "list-style:none;margin:0;padding-left:18px"   # the tree's nested lists: no bullets

# The hook registries of a Module, in the order a call runs them, with the method that fills each.
HOOK_KINDS = (
    ("forward_pre", "_forward_pre_hooks", "register_forward_pre_hook"),
    ("forward", "_forward_hooks", "register_forward_hook"),
    ("backward_pre", "_backward_pre_hooks", "register_full_backward_pre_hook"),
    ("backward", "_backward_hooks", "register_full_backward_hook"),
)


def check_name(name):
    """A module's or parameter's dotted name is text; TypeError naming what is expected otherwise."""
    if not isinstance(name, str):
        raise TypeError(tr("name must be a str such as 'features.0' or 'classifier.1.weight' ('' for the whole "
                           "model), got {type}", type=type(name).__name__))
    return name


def grad_norm(param):
    """The 2-norm of ``param.grad`` as a float, or None when no gradient has been stored yet."""
    if param.grad is None:
        return None
    return float(param.grad.detach().norm().item())


def hook_name(fn):
    """How a hook is named in the picture: its qualified name without the enclosing function's part
    (``Recorder.hook``, ``watch``, ``<lambda>``); a callable object by its class name."""
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    return name.rpartition("<locals>.")[2]


class ModuleExplorer(WidgetModel):
    """Explore ``model``: its module tree, parameters, buffers, hooks, counts and state_dict keys,
    and freeze or unfreeze any parameter or subtree.

    Names are the dotted names of ``named_modules()`` / ``named_parameters()``: ``""`` is the whole
    model, ``"features.0"`` a module, ``"features.0.weight"`` a parameter. Bad input never raises:
    the method shows PyTorch's error (as ``get_parameter`` words it), keeps it in ``.error``, changes
    nothing and returns None. ``expand_depth``: how many levels of the tree the view opens at first.
    """

    def __init__(self, model, expand_depth=3):
        if not isinstance(model, Module):
            raise TypeError(tr("ModuleExplorer expects an nn.Module, got {type}", type=type(model).__name__))
        if isinstance(expand_depth, bool) or not isinstance(expand_depth, int) or expand_depth < 0:
            raise TypeError(tr("expand_depth must be an int >= 0 (how many levels open at first), got {value}",
                               value=repr(expand_depth)))
        self.model = model
        self.expand_depth = expand_depth
        self.error = None
        self.status = ""

    # -- reading the model ---------------------------------------------------------------------
    def resolve(self, name):
        """The module or parameter called ``name``, as ``("module", m)`` or ``("parameter", p)``;
        raises PyTorch's AttributeError for a name that is neither (TypeError if it is not text)."""
        check_name(name)
        try:
            return "module", self.model.get_submodule(name)
        except AttributeError:
            return "parameter", self.model.get_parameter(name)  # its error names what is missing

    def parameters_of(self, name=""):
        """``(full name, Parameter)`` for the parameter ``name`` or every parameter under module ``name``
        (a shared parameter once, as ``named_parameters()`` gives it)."""
        kind, found = self.resolve(name)
        if kind == "parameter":
            return [(name, found)]
        return list(found.named_parameters(prefix=name))

    def counts(self, name=""):
        """``{"total": elements, "trainable": elements with requires_grad}`` under ``name``."""
        try:
            params = self.parameters_of(name)
        except (AttributeError, TypeError) as error:
            return self._fail(error)
        return {"total": sum(p.numel() for _, p in params),
                "trainable": sum(p.numel() for _, p in params if p.requires_grad)}

    def state_dict_keys(self):
        """The keys of ``model.state_dict()``, in order: exactly what ``torch.save`` would write."""
        return list(self.model.state_dict().keys())

    def hooks(self, name=""):
        """Every module hook registered under module ``name``: dicts with the module's name, the kind
        (``forward_pre``, ``forward``, ``backward_pre``, ``backward``), the hook's name and its handle id."""
        try:
            root = self.model.get_submodule(check_name(name))
        except (AttributeError, TypeError) as error:
            return self._fail(error)
        found = []
        for sub, module in root.named_modules(prefix=name):
            for kind, registry, _ in HOOK_KINDS:
                for handle_id, fn in getattr(module, registry).items():
                    found.append({"module": sub, "kind": kind, "hook": hook_name(fn), "id": handle_id})
        return found

    def tree(self):
        """The module tree as plain data: one dict per module (``name``, ``type``, ``extra``,
        ``parameters``, ``buffers``, ``hooks``, ``total``, ``trainable``, ``children``, and ``deeper``:
        how many modules below it are not drawn, past ``MAX_DEPTH``). Built with loops over
        ``named_modules()``, not recursion, so any depth PyTorch can build is fine."""
        first_name = {}                            # a shared parameter is owned by its first name
        for full, param in self.model.named_parameters():
            first_name.setdefault(id(param), full)
        modules = list(self.model.named_modules())
        below = {name: {} for name, _ in modules}  # every parameter under a module, once: id -> param
        for name, module in modules:
            own = {id(p): p for p in module._parameters.values() if p is not None}
            parts = name.split(".") if name else []
            for depth in range(len(parts) + 1):    # this module and each one above it
                below[".".join(parts[:depth])].update(own)
        nodes = {}
        for name, module in modules:
            nodes[name] = node = self._describe(name, module, first_name, below[name].values())
            depth = name.count(".") + 1 if name else 0
            if 0 < depth <= MAX_DEPTH:
                nodes[name.rpartition(".")[0]]["children"].append(node)
            elif depth > MAX_DEPTH:
                nodes[".".join(name.split(".")[:MAX_DEPTH])]["deeper"] += 1
        return nodes[""]

    def _describe(self, name, module, first_name, unique):
        def full(local):
            return f"{name}.{local}" if name else local

        params = []
        for local, p in module._parameters.items():
            if p is None:
                continue
            owner = first_name.get(id(p), full(local))
            params.append({"name": full(local), "local": local, "shape": tuple(p.shape), "dtype": str(p.dtype),
                           "numel": p.numel(), "requires_grad": p.requires_grad, "grad_norm": grad_norm(p),
                           "shared_with": owner if owner != full(local) else None})
        buffers = [{"name": full(local), "local": local, "shape": tuple(b.shape), "dtype": str(b.dtype),
                    "persistent": local not in module._non_persistent_buffers_set}
                   for local, b in module._buffers.items() if b is not None]
        unique = list(unique)
        return {"name": name, "type": type(module).__name__, "extra": module.extra_repr(),
                "parameters": params, "buffers": buffers,
                "hooks": [{"kind": kind, "hook": hook_name(fn), "id": handle_id}
                          for kind, registry, _ in HOOK_KINDS for handle_id, fn in getattr(module, registry).items()],
                "total": sum(p.numel() for p in unique),
                "trainable": sum(p.numel() for p in unique if p.requires_grad),
                "children": [], "deeper": 0}

    # -- freezing --------------------------------------------------------------------------------
    def set_requires_grad(self, name, flag):
        """Set ``requires_grad`` on parameter ``name``, or on every parameter under module ``name``."""
        if not isinstance(flag, bool):
            return self._fail(TypeError(tr("requires_grad must be a bool, got {type}", type=type(flag).__name__)))
        try:
            params = self.parameters_of(name)
        except (AttributeError, TypeError) as error:
            return self._fail(error)
        for _, p in params:
            p.requires_grad_(flag)
        elements = sum(p.numel() for _, p in params)
        what = name or tr("the model")
        if len(params) == 1:
            self.status = (tr("unfroze 1 parameter ({n:,} elements) of {what}", n=elements, what=what) if flag else
                           tr("froze 1 parameter ({n:,} elements) of {what}", n=elements, what=what))
        else:
            self.status = (tr("unfroze {k} parameters ({n:,} elements) of {what}", k=len(params), n=elements, what=what)
                           if flag else
                           tr("froze {k} parameters ({n:,} elements) of {what}", k=len(params), n=elements, what=what))
        self.error = None
        self.refresh()

    def freeze(self, name=""):
        """``requires_grad = False`` for ``name`` (a parameter, or every parameter of a module)."""
        return self.set_requires_grad(name, False)

    def unfreeze(self, name=""):
        """``requires_grad = True`` for ``name`` (a parameter, or every parameter of a module)."""
        return self.set_requires_grad(name, True)

    def _fail(self, error):
        self.error = error_text(error)
        self.refresh()
        return None

    # -- drawing -----------------------------------------------------------------------------------
    def summary(self):
        c = self.counts()
        modules = sum(1 for _ in self.model.named_modules())
        return "ModuleExplorer(" + tr("{type}: {modules} modules, {total:,} parameters, {trainable:,} trainable",
                                      type=type(self.model).__name__, modules=modules, total=c["total"],
                                      trainable=c["trainable"]) + ")"

    def to_html(self):
        """The whole explorer as static HTML: a ``<details>`` tree (collapsible without a kernel), then
        the state_dict keys. What nbval compares, and what an exported notebook shows."""
        parts = [f"<div class='tensorlab-module-explorer' style='font-family:monospace;font-size:12px'>"
                 f"<div><b>{escape(self.summary())}</b></div>"]
        if self.error:
            parts.append(error_html(self.error))
        elif self.status:
            parts.append(f"<div style='color:{PALETTE['ok']}'>{escape(self.status)}</div>")
        parts.append(f"<ul style='{LIST_STYLE};padding-left:0'>{self._node_html(self.tree(), depth=0)}</ul>")
        parts.append(state_dict_html(self.state_dict_keys()))
        return "".join(parts) + "</div>"

    def _node_html(self, node, depth):
        """One module as a ``<details>`` in a list item, its members and children in a nested list.
        Lists, because JupyterLab strips CSS margins from the HTML of an untrusted notebook but still
        indents a nested ``<ul>``: the tree keeps its shape before the notebook is trusted."""
        opened = " open" if depth < self.expand_depth else ""
        rows = [member_html(p) for p in node["parameters"]] + [buffer_html(b) for b in node["buffers"]]
        rows += [hook_html(h) for h in node["hooks"]]
        if node["deeper"]:
            rows.append(f"<span style='color:{PALETTE['muted']}'>{escape(deeper_text(node))}</span>")
        inner = "".join(f"<li>{row}</li>" for row in rows)
        inner += "".join(self._node_html(child, depth + 1) for child in node["children"])
        return (f"<li><details{opened}><summary>{header_html(node)}</summary>"
                f"<ul style='{LIST_STYLE}'>{inner}</ul></details></li>")

    # -- the view ------------------------------------------------------------------------------------
    def _build_view(self):
        from ._module_view import ModuleView
        return ModuleView(self)

    def _refresh_view(self):
        self._view.update()


# Small pieces of HTML shared by the static drawing and the live view.
def deeper_text(node):
    """What stands for the modules nested too deep to draw."""
    return tr("… {n:,} more modules nested below, not drawn (look inside with "
              "ModuleExplorer(model.get_submodule({name})))", n=node["deeper"], name=repr(node["name"]))


def partial_mark(node):
    """The state of a module's requires_grad, as a tri-state checkbox shows it: ✓ all, – some, blank none."""
    if node["total"] == 0:
        return ""
    return "✓" if node["trainable"] == node["total"] else "–" if node["trainable"] else ""


def counts_text(node):
    total, trainable = node["total"], node["trainable"]
    if total == 0:
        return tr("no parameters")
    if trainable == total:
        return tr("{total:,} params", total=total)
    if trainable == 0:
        return tr("{total:,} params, frozen", total=total)
    return tr("{total:,} params, {trainable:,} trainable", total=total, trainable=trainable)


def header_html(node):
    label = escape(node["name"].rpartition(".")[2] or "(model)")
    extra = f"({escape(node['extra'])})" if node["extra"] and "\n" not in node["extra"] else ""
    n = len(node["hooks"])
    hooks = (f" <span style='color:{PALETTE['copy']}'>⚓ " + (tr("1 hook") if n == 1 else tr("{n} hooks", n=n))
             + "</span>") if n else ""
    colour = PALETTE["muted"] if node["total"] and not node["trainable"] else PALETTE["ink"]
    return (f"<b>{label}</b> <span style='color:{colour}'>{escape(node['type'])}{extra}</span> "
            f"<span style='color:{PALETTE['muted']}'>· {counts_text(node)}</span>{hooks}")


def member_html(p):
    """One parameter: name, shape, dtype, requires_grad, the gradient's norm when there is one."""
    shape = "(" + ", ".join(map(str, p["shape"])) + ")"
    grad = "grad: None" if p["grad_norm"] is None else f"‖grad‖ = {p['grad_norm']:.4g}"
    shared = " · " + tr("shared with {name}", name=escape(p["shared_with"])) if p["shared_with"] else ""
    state = (f"<span style='color:{PALETTE['ok']}'>requires_grad=True</span>" if p["requires_grad"]
             else f"<span style='color:{PALETTE['bad']}'>requires_grad=False</span>")
    return (f"<span title='{escape(p['name'])}'>{escape(p['local'])}</span> "
            f"{escape(shape)} {escape(p['dtype'])} {state} "
            f"<span style='color:{PALETTE['muted']}'>{grad}{shared}</span>")


def buffer_html(b):
    shape = "(" + ", ".join(map(str, b["shape"])) + ")"
    saved = tr("buffer") if b["persistent"] else tr("buffer, persistent=False: not in state_dict")
    return (f"<span style='color:{PALETTE['muted']}'>{escape(b['local'])} {escape(shape)} "
            f"{escape(b['dtype'])} ({saved})</span>")


def hook_html(h):
    return (f"<span style='color:{PALETTE['copy']}'>⚓ "
            + tr("{kind} hook {hook}", kind=h["kind"].replace("_", " "), hook=escape(h["hook"])) + "</span>")


def state_dict_html(keys):
    items = "".join(f"<li>{escape(k)}</li>" for k in keys)
    return (f"<details><summary>state_dict(): "
            + tr("{n} keys, in the order torch.save writes them", n=len(keys)) + "</summary>"
            f"<ol start='0' style='margin:2px 0'>{items}</ol></details>")


__all__ = ["ModuleExplorer", "HOOK_KINDS", "grad_norm", "hook_name"]
