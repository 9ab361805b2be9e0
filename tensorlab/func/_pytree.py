"""Pytrees: nested tuples, lists and dicts with tensors (or anything else) at the leaves.

torch.func's transforms take and return pytrees -- ``grad`` of a function of a dict of parameters
returns a dict of gradients, ``vmap``'s ``in_dims`` mirrors the structure of the inputs. Two functions do
all the work: ``tree_flatten`` lists the leaves and remembers the shape of the tree (its *spec*), and
``tree_unflatten`` puts new leaves back into that shape. See course/24_function_transforms.

    >>> leaves, spec = tree_flatten({"w": 1, "b": (2, [3])})
    >>> leaves
    [1, 2, 3]
    >>> tree_unflatten([10, 20, 30], spec)
    {'w': 10, 'b': (20, [30])}
"""


class TreeSpec:
    """The shape of a pytree: a node type (tuple, list, dict or None for a leaf), its keys, its children."""

    __slots__ = ("kind", "context", "children")

    def __init__(self, kind, context=None, children=()):
        self.kind, self.context, self.children = kind, context, children

    @property
    def num_leaves(self):
        return 1 if self.kind is None else sum(c.num_leaves for c in self.children)

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.kind == other.kind and self.context == other.context
                and self.children == other.children)

    def __repr__(self, indent=0):
        """As PyTorch prints a spec: ``TreeSpec(tuple, None, [*,\n  *])``; ``*`` is a leaf."""
        if self.kind is None:
            return "*"
        indent += 2
        children = [c.__repr__(indent) for c in self.children]
        inner = children[0] + "," if len(children) > 1 else "".join(children)
        inner += ",".join("\n" + " " * indent + c for c in children[1:])
        return f"TreeSpec({self.kind.__name__}, {self.context}, [{inner}])"


LEAF = TreeSpec(None)


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def tree_flatten(tree):
    """(list of leaves, spec). Tuples (named ones too), lists and dicts are nodes; the rest are leaves."""
    leaves = []
    spec = _flatten(tree, leaves)
    return leaves, spec


def _flatten(tree, leaves):
    if isinstance(tree, (tuple, list)):
        kind = type(tree) if _is_namedtuple(tree) else (tuple if isinstance(tree, tuple) else list)
        return TreeSpec(kind, None, tuple(_flatten(x, leaves) for x in tree))
    if isinstance(tree, dict):
        keys = list(tree)
        return TreeSpec(dict, keys, tuple(_flatten(tree[k], leaves) for k in keys))
    leaves.append(tree)
    return LEAF


def tree_unflatten(leaves, spec):
    """Build a tree shaped like ``spec`` from ``leaves`` (in the order ``tree_flatten`` listed them)."""
    it = iter(leaves)
    return _unflatten(it, spec)


def _unflatten(it, spec):
    if spec.kind is None:
        return next(it)
    children = [_unflatten(it, c) for c in spec.children]
    if spec.kind is dict:
        return dict(zip(spec.context, children))
    if spec.kind is list:
        return children
    if spec.kind is tuple:
        return tuple(children)
    return spec.kind(*children)  # a namedtuple


def tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def broadcast_prefix(prefix, tree, spec=None):
    """The leaves of ``prefix`` repeated over the subtrees of ``tree`` they stand for, or None if
    ``prefix`` is not a prefix of ``tree``'s structure -- how ``in_dims=(0, None)`` or a single
    ``in_dims=0`` covers a whole nested input. A leaf of ``prefix`` covers a whole subtree."""
    out = []
    return out if _broadcast(prefix, tree, out) else None


def _broadcast(prefix, tree, out):
    if not isinstance(prefix, (tuple, list, dict)):
        out.extend([prefix] * len(tree_flatten(tree)[0]))
        return True
    if isinstance(prefix, dict):
        if not isinstance(tree, dict) or set(prefix) != set(tree):
            return False
        return all(_broadcast(prefix[k], tree[k], out) for k in tree)
    if not isinstance(tree, (tuple, list)) or isinstance(tree, tuple) != isinstance(prefix, tuple) \
            or len(prefix) != len(tree):
        return False
    return all(_broadcast(p, t, out) for p, t in zip(prefix, tree))
