"""From a Graph to the Python source of ``forward``, written as torch.fx writes it.

Each node becomes one line: ``relu = tensorlab.relu(linear)``, ``add = relu + x``, ``view = x.view(-1)``,
``linear = self.linear(x)``. After the line that reads a value for the last time, the value is dropped
(``;  linear = None``) so the generated forward frees memory as early as the original would.
Also here: the Namespace that hands out names (``relu``, ``relu_1``...). See course/26_graph_capture_fx.
"""
import builtins
import keyword
import math
import operator
import re

from .node import qualified_name

# names the generated code needs for itself: a node may not take them
RESERVED = {"inf": math.inf, "nan": math.nan, "NoneType": type(None), "torch": None, "tensorlab": None,
            "device": None, "operator": operator}

# call_function targets written as Python operators
MAGIC_METHODS = {
    "add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}", "truediv": "{} / {}",
    "mod": "{} % {}", "pow": "{} ** {}", "lshift": "{} << {}", "rshift": "{} >> {}", "and_": "{} & {}",
    "or_": "{} | {}", "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}",
    "eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}", "ge": "{} >= {}",
    "neg": "-{}", "pos": "+{}", "invert": "~{}",
}

_ILLEGAL = re.compile("[^0-9a-zA-Z_]+")
_SUFFIX = re.compile(r"(.*)_(\d+)$")
_CAMEL = re.compile(r"(?<=[a-z])([A-Z])")


def snake_case(name):
    """``AdaptiveAvgPool2d`` -> ``adaptive_avg_pool2d``."""
    return _CAMEL.sub(r"_\1", name).lower()


class Namespace:
    """Hands out unique, legal Python names: ``relu``, then ``relu_1``, ``relu_2``...; a name that is a
    keyword or a builtin (``input``, ``sum``) gets a suffix at once, ``0`` becomes ``_0``."""

    def __init__(self):
        self._used = set()
        self._count = {}

    def create_name(self, candidate):
        candidate = _ILLEGAL.sub("_", candidate) or "_unnamed"
        if candidate[0].isdigit():
            candidate = f"_{candidate}"
        match = _SUFFIX.match(candidate)
        base, num = (candidate, None) if match is None else (match.group(1), int(match.group(2)))
        candidate = base if num is None else f"{base}_{num}"
        if not num:
            num = self._count.get(base, 0)
        while candidate in self._used or self._illegal(candidate):
            num += 1
            candidate = f"{base}_{num}"
        self._used.add(candidate)
        self._count[base] = num
        return candidate

    @staticmethod
    def _illegal(name):
        return name in keyword.kwlist or name in vars(builtins) or name in RESERVED


def target_to_name(target):
    """The name a node gets from its target: ``__add__`` -> ``add``, ``tensorlab.relu`` -> ``relu``,
    ``layers.0`` -> ``layers_0`` (Namespace makes it legal)."""
    if isinstance(target, str):
        if target.startswith("__") and target.endswith("__"):
            target = target[2:-2]
    else:
        target = target.__name__
    return snake_case(target)


def format_target(base, target):
    """``self.linear``, ``getattr(self, "0")``: the expression reaching dotted path ``target``."""
    expression = base
    for part in target.split("."):
        expression = f"{expression}.{part}" if part.isidentifier() else f'getattr({expression}, "{part}")'
    return expression


def _format_args(args, kwargs):
    return ", ".join([repr(a) for a in args] + [f"{k} = {v!r}" for k, v in kwargs.items()])


def python_code(graph):
    """``(source, globals)`` of ``forward(self, ...)`` for ``graph``."""
    import tensorlab
    globals_ = {"tensorlab": tensorlab, "torch": tensorlab, "operator": operator, "inf": math.inf,
                "nan": math.nan, "NoneType": type(None), "getattr": getattr}
    namespace = Namespace()
    for node in graph.nodes:
        namespace._used.add(node.name)

    def global_name(target):
        """How the code refers to a call_function target (registering what it needs in globals)."""
        name = qualified_name(target)
        root = name.split(".")[0]
        if root in ("tensorlab", "operator") or (name == root and getattr(builtins, name, None) is target):
            return name
        unique = namespace.create_name(name)  # "__main__.leaf" -> "__main___leaf"
        globals_[unique] = target
        return unique

    last_uses = _last_uses(graph)
    parameters, body, wrapped = [], [], {}
    for node in graph.nodes:
        line = _line(node, parameters, global_name)
        if line is None:
            continue
        if node.meta.get("is_wrapped"):
            wrapped[line.split(" = ", 1)[1].split("(", 1)[0]] = None
        dead = [] if node.op in ("placeholder", "output") else last_uses.get(node, []) + (
            [node] if not node.users else [])
        body.append(line + (";  " + " = ".join(n.name for n in dead) + " = None" if dead else "") + "\n")
    # functions given to fx.wrap() are wrapped again where the code runs, so a GraphModule can be retraced
    wrap_lines = "\n".join(f'tensorlab.fx.tracer.wrap("{name}")' for name in wrapped)
    source = f"\n{wrap_lines}\n\ndef forward(self{''.join(', ' + p for p in parameters)}):\n"
    return source + "".join("    " + line for line in body) + "    ", globals_


def _last_uses(graph):
    """``{node: [values whose last reader is node]}``: after its line, those values can be dropped."""
    seen, last = set(), {}
    for node in reversed(list(graph.nodes)):
        for value in node.all_input_nodes:
            if value not in seen:
                seen.add(value)
                last.setdefault(node, []).append(value)
    return last


def _line(node, parameters, global_name):
    """The one line of code for ``node`` (None for a placeholder that needs no line)."""
    args, kwargs = node.args, node.kwargs
    if node.op == "placeholder":
        default = f" = {args[0]!r}" if args else ""
        parameters.append(f"{node.target}{default}")
        return f"{node.name} = {node.target}" if node.name != node.target else None
    if node.op == "get_attr":
        return f"{node.name} = {format_target('self', node.target)}"
    if node.op == "call_module":
        return f"{node.name} = {format_target('self', node.target)}({_format_args(args, kwargs)})"
    if node.op == "call_method":
        return f"{node.name} = {format_target(repr(args[0]), node.target)}({_format_args(args[1:], kwargs)})"
    if node.op == "output":
        return f"return {args[0]!r}"
    target = node.target
    name = getattr(target, "__name__", "")
    if getattr(target, "__module__", None) == "_operator" and name in MAGIC_METHODS and not kwargs:
        return f"{node.name} = {MAGIC_METHODS[name].format(*(repr(a) for a in args))}"
    if target is getattr and len(args) == 2 and isinstance(args[1], str) and args[1].isidentifier() and not kwargs:
        return f"{node.name} = {format_target(repr(args[0]), args[1])}"
    return f"{node.name} = {global_name(target)}({_format_args(args, kwargs)})"
