"""The text boxes' parser: turns ``transpose(0, 1)`` or ``[:, ::2]`` into a step, never runs Python.

A widget's text box accepts one tensor operation -- or a chain of them, as the StrideExplorer prints
its expression (``t().reshape(6)``) -- and nothing else. The text is parsed with :mod:`ast` and every
node is checked against a whitelist: a method name from :data:`METHODS`, called with literal
arguments (numbers, ``True``/``False``/``None``, and tuples or lists of those), or a subscript made of
integers, lists of integers, slices with literal bounds and steps, ``...`` and ``None``. Anything else -- a name, an
attribute that is not a whitelisted method, a call inside an argument, arithmetic, a string -- is
refused with :class:`ParseError` before anything runs. ``eval`` is never used: the parsed step calls
the method itself with ``getattr``.

    >>> parse_steps("transpose(0, 1)")
    [Step('.transpose(0, 1)')]
    >>> parse_steps("x.t().reshape(6)")          # a copied expression: the leading name is dropped
    [Step('.t()'), Step('.reshape(6)')]
    >>> parse_steps("[:, ::2]")
    [Step('[:, ::2]')]
    >>> parse_steps("__import__('os')")
    Traceback (most recent call last):
    widgets._parse.ParseError: '__import__' is not an operation this box accepts; try one of: ...

A step applies itself to a real tensor, so what the widget shows is what the library did:

    >>> import tensorlab as torch
    >>> parse_steps("[1]")[0].apply(torch.arange(6).view(2, 3))
    tensor([3, 4, 5])
"""
import ast

from ._i18n import tr

# The operations the StrideExplorer offers: the view ops of PyTorch's "Tensor Views" page that keep
# one storage, plus the three that may or must copy (reshape, contiguous, clone). Subscripts
# (``x[...]``) are accepted separately.
METHODS = ("view", "reshape", "transpose", "t", "permute", "unsqueeze", "squeeze", "expand", "flatten",
           "narrow", "select", "unfold", "as_strided", "contiguous", "clone")

MAX_TEXT = 200        # a longer text is not a single tensor operation typed by hand
MAX_STEPS = 8         # links in one chain
MAX_LITERAL = 10**6   # sizes and indices beyond this are typos, not lessons


class ParseError(ValueError):
    """The text is not a whitelisted operation with literal arguments (nothing was run)."""


class Step:
    """One operation: a method call (``method``, ``args``, ``kwargs``) or a subscript (``method`` is
    ``"__getitem__"`` and ``args`` holds the key). ``code`` is how it is written after a tensor."""

    def __init__(self, method, args=(), kwargs=None):
        self.method, self.args, self.kwargs = method, tuple(args), dict(kwargs or {})

    @property
    def code(self):
        """The step as Python source, e.g. ``.transpose(0, 1)`` or ``[:, ::2]``."""
        if self.method == "__getitem__":
            key = self.args[0]
            parts = key if isinstance(key, tuple) else (key,)
            return "[" + ", ".join(_key_code(k) for k in parts) + "]"
        words = [_literal_code(a) for a in self.args]
        words += [f"{k}={_literal_code(v)}" for k, v in self.kwargs.items()]
        return f".{self.method}({', '.join(words)})"

    def apply(self, tensor):
        """Run the step on a real tensor and return what the library returned."""
        if self.method == "__getitem__":
            return tensor[self.args[0]]
        return getattr(tensor, self.method)(*self.args, **self.kwargs)

    def __eq__(self, other):
        return isinstance(other, Step) and self.code == other.code

    def __repr__(self):
        return f"Step({self.code!r})"


def parse_steps(text, methods=METHODS):
    """Parse ``text`` into a list of :class:`Step`; raise :class:`ParseError` if it is anything but
    whitelisted method calls and subscripts with literal arguments.

    Accepted spellings: ``t()``, ``.t()``, ``x.t()`` (any single leading name is the tensor itself),
    ``[0]``, ``x[0]``, and chains of these: ``t().reshape(6)``, ``[:, 1].unsqueeze(0)``.

    >>> parse_steps("narrow(1, start=1, length=2)")
    [Step('.narrow(1, start=1, length=2)')]
    >>> parse_steps("view(-1)")
    [Step('.view(-1)')]
    >>> parse_steps("reshape(2 * 3)")
    Traceback (most recent call last):
    widgets._parse.ParseError: arguments must be literal numbers, tuples or lists (found 2 * 3)
    """
    text = str(text).strip()
    if not text:
        raise ParseError(tr("type an operation, e.g. transpose(0, 1) or [:, ::2]"))
    if len(text) > MAX_TEXT:
        raise ParseError(tr("that is {n} characters; one operation is at most {limit}", n=len(text), limit=MAX_TEXT))
    source = _as_expression_on_x(text)
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError as error:
        raise ParseError(tr("not valid Python: {message}", message=error.msg)) from None
    steps = []
    # Walk the chain from the outermost call inwards: x.t().reshape(6) is Call(reshape) of Call(t) of x.
    while not (isinstance(tree, ast.Name) and tree.id == "x"):
        if len(steps) == MAX_STEPS:
            raise ParseError(tr("at most {limit} operations at once", limit=MAX_STEPS))
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Attribute):
            steps.append(_call_step(tree, methods))
            tree = tree.func.value
        elif isinstance(tree, ast.Subscript):
            steps.append(Step("__getitem__", (_subscript_key(tree.slice),)))
            tree = tree.value
        elif isinstance(tree, ast.Attribute):
            raise ParseError(tr("attributes are not accepted ({name}); call one of: {methods}", name=repr(tree.attr),
                                methods=", ".join(methods)))
        elif isinstance(tree, ast.Call):
            raise ParseError(tr("only methods of the tensor can be called, e.g. transpose(0, 1)"))
        else:
            raise ParseError(tr("not an operation on the tensor: {code}", code=_unparse(tree)))
    return steps[::-1]


def parse_shape(text):
    """A shape typed in a box: ``3, 1`` or ``(3, 1)`` or ``[4]`` or ``()`` -> a tuple of ints.

    >>> parse_shape("3, 1"), parse_shape("(4,)"), parse_shape("4"), parse_shape("4,"), parse_shape("")
    ((3, 1), (4,), (4,), (4,), ())
    >>> parse_shape("-2, 3")
    Traceback (most recent call last):
    widgets._parse.ParseError: sizes must be non-negative integers (found -2)
    """
    text = str(text).strip()
    if len(text) > MAX_TEXT:
        raise ParseError(tr("that is {n} characters; a shape is at most {limit}", n=len(text), limit=MAX_TEXT))
    try:
        tree = ast.parse(text if text[:1] in ("(", "[") else f"({text})", mode="eval").body
    except SyntaxError as error:
        raise ParseError(tr("not a shape: {message}", message=error.msg)) from None
    value = _literal(tree)
    sizes = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    for size in sizes:
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise ParseError(tr("sizes must be non-negative integers (found {size})", size=repr(size)))
    return sizes


# -- the whitelist, node by node --------------------------------------------------------------------

def _as_expression_on_x(text):
    """Write the text as an expression on a tensor called ``x``: ``t()`` -> ``x.t()``."""
    if text[0] in ".[":
        return "x" + text
    head = text.split(".", 1)[0].split("[", 1)[0].strip()
    rest = text[len(head):].lstrip()
    if head.isidentifier() and rest[:1] in (".", "["):
        # a leading tensor name, as in a copied expression ``x.t()`` or ``y[0]``
        return "x" + text[len(head):]
    return "x." + text


def _call_step(call, methods):
    name = call.func.attr
    if name not in methods:
        raise ParseError(tr("{name} is not an operation this box accepts; try one of: {methods}", name=repr(name),
                            methods=", ".join(methods)))
    args = tuple(_literal(a) for a in call.args)
    kwargs = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise ParseError(tr("**kwargs is not accepted"))
        kwargs[keyword.arg] = _literal(keyword.value)
    return Step(name, args, kwargs)


def _literal(node):
    """A literal argument: a number, True/False/None, or a (nested) tuple or list of them."""
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (bool, int, float))):
        value = node.value
    elif (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
          and type(node.operand.value) in (int, float)):
        value = -node.operand.value
    elif isinstance(node, (ast.Tuple, ast.List)):
        items = [_literal(e) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    elif isinstance(node, ast.Starred):
        raise ParseError(tr("*args is not accepted"))
    elif isinstance(node, ast.Call):
        raise ParseError(tr("calls inside arguments are not accepted (found {code})", code=_unparse(node)))
    elif isinstance(node, ast.Name):
        raise ParseError(tr("names are not accepted, only literal values (found {name})", name=node.id))
    else:
        raise ParseError(tr("arguments must be literal numbers, tuples or lists (found {code})", code=_unparse(node)))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_LITERAL:
        raise ParseError(tr("{value} is too large for this explorer (at most {limit})", value=value, limit=MAX_LITERAL))
    return value


def _subscript_key(node):
    """``[1, ::2, ...]``: integers, slices of literal integers, ``...`` and ``None`` only."""
    if isinstance(node, ast.Tuple):
        return tuple(_subscript_item(e) for e in node.elts)
    return _subscript_item(node)


def _subscript_item(node):
    if isinstance(node, ast.Slice):
        parts = [None if p is None else _literal(p) for p in (node.lower, node.upper, node.step)]
        if not all(p is None or (isinstance(p, int) and not isinstance(p, bool)) for p in parts):
            raise ParseError(tr("slice bounds and steps must be integers"))
        return slice(*parts)
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return Ellipsis
    value = _literal(node)
    if value is None or _is_int(value) or (isinstance(value, list) and value and all(map(_is_int, value))):
        return value  # a list of integers is advanced indexing: PyTorch copies (a new storage)
    raise ParseError(tr("an index must be an integer, a slice, ..., None or a list of integers (found {value})",
                       value=repr(value)))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _literal_code(value):
    if isinstance(value, tuple):
        inner = ", ".join(_literal_code(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(_literal_code(v) for v in value) + "]"
    return repr(value)


def _key_code(key):
    if key is Ellipsis:
        return "..."
    if isinstance(key, slice):
        text = ("" if key.start is None else str(key.start)) + ":" + ("" if key.stop is None else str(key.stop))
        return text + ("" if key.step is None else f":{key.step}")
    return repr(key)


def _unparse(node):
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - ast.unparse handles every node ast.parse makes
        return type(node).__name__
