"""What ``load(f, weights_only=True)`` allows: PyTorch's list of safe names, and the user's additions.

A checkpoint's pickle names every class and function it needs (``GLOBAL 'torch._utils
_rebuild_tensor_v2'``). With ``weights_only=True`` a name is accepted only if it is in the table
below -- PyTorch's own list of safe globals, each mapped to tensorlab's object -- or was allowed
with ``add_safe_globals([MyClass])`` / ``with safe_globals([MyClass]):``. Each entry also says how
it may be *called* (``REDUCE``): ``bytearray(b"...")`` yes, ``bytearray(10**12)`` (a terabyte) no;
``torch.Tensor`` and the storage types may be named but not called. The unpickler that enforces
this is tensorlab/_weights_only.py. See course/19_saving_and_loading.
"""
from collections import Counter, OrderedDict

from . import _torch_names, _utils
from .tensor import Size, Tensor

BLOCKED_MODULES = ("sys", "os", "posix", "nt")      # refused even if allowed: PyTorch's block-list
PLAIN_CLASSES = (OrderedDict, Counter, set, complex, bytearray, Size)   # NEWOBJ may make these

_user_globals = {}                # what add_safe_globals was given, in order (a dict used as a set)


def add_safe_globals(safe_globals):
    """Allow ``weights_only=True`` loads to use these classes and functions: objects, or
    ``(object, "module.name")`` pairs for an object that a file names differently."""
    for entry in safe_globals:
        _user_globals[entry] = None


def get_safe_globals():
    return list(_user_globals)


def clear_safe_globals():
    _user_globals.clear()


class safe_globals:                # noqa: N801 - PyTorch's name for a context manager
    """``with safe_globals([MyClass]): load(f)`` -- allowed inside the block only."""

    def __init__(self, safe_globals):
        self.entries = list(safe_globals)

    def __enter__(self):
        self.saved = dict(_user_globals)
        add_safe_globals(self.entries)

    def __exit__(self, *exc_info):
        _user_globals.clear()
        _user_globals.update(self.saved)


def user_allowed():
    """name -> object for the user's entries (PyTorch checks their form only when loading, so do we)."""
    allowed = {}
    for entry in _user_globals:
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ValueError("Expected tuple of length 2 (global, str of callable full path), but got "
                                 f"tuple of length: {len(entry)}")
            if type(entry[1]) is not str:
                raise TypeError("Expected second item in tuple to be str of callable full path, but got: "
                                f"{type(entry[1])}")
            allowed[entry[1]] = entry[0]
        else:
            allowed[f"{entry.__module__}.{entry.__qualname__}"] = entry
    return allowed


def _is_args(*kinds):
    """An argument check: the call's arguments are a tuple of values of these kinds, in order."""
    return lambda args: len(args) == len(kinds) and all(isinstance(a, k) for a, k in zip(args, kinds))


def _latin1_encode(text, encoding):
    """``_codecs.encode``, as protocol 2 uses it for ``bytes``: only latin-1 (no codec is looked up)."""
    return text.encode("latin1")


def _default_globals():
    """PyTorch's name -> (object, check of its call's arguments, or None if it may not be called)."""
    from ._device import device
    from .nn import Parameter
    from .storage import UntypedStorage
    _any_of = lambda *checks: lambda args: any(c(args) for c in checks)  # noqa: E731
    collection = (list, tuple, set, frozenset)
    table = {
        "collections.OrderedDict": (OrderedDict, _any_of(_is_args(), _is_args((list, tuple, dict)))),
        "collections.Counter": (Counter, _any_of(_is_args(), _is_args(dict))),
        "builtins.set": (set, _any_of(_is_args(), _is_args(collection))),
        "builtins.complex": (complex, _any_of(_is_args((int, float)), _is_args((int, float), (int, float)))),
        "builtins.bytearray": (bytearray, _any_of(_is_args(), _is_args((bytes, bytearray)))),
        "_codecs.encode": (_latin1_encode, lambda args: _is_args(str, str)(args) and
                           args[1].replace("-", "").lower() == "latin1"),
        "torch.Size": (Size, _is_args((tuple, list))),
        "torch.device": (device, _any_of(_is_args(str), _is_args(str, int))),
        "torch.Tensor": (Tensor, None),
        "torch.nn.parameter.Parameter": (Parameter, _any_of(_is_args(Tensor), _is_args(Tensor, bool))),
        "torch.storage.UntypedStorage": (UntypedStorage, None),
        "torch._tensor._rebuild_from_type_v2": (_utils._rebuild_from_type_v2, _is_args(object, type, tuple, object)),
    }
    for name in ("_rebuild_tensor", "_rebuild_tensor_v2", "_rebuild_parameter", "_rebuild_parameter_with_state"):
        table[f"torch._utils.{name}"] = (getattr(_utils, name), lambda args: True)  # they check their own
    for name, storage_type in _torch_names.STORAGE_TYPES.items():
        table[f"torch.{name}"] = (storage_type, None)
    for name, dt in _torch_names.DTYPES.items():
        table[f"torch.{name}"] = (dt, None)
    return table


_DEFAULTS = None


def defaults():
    """PyTorch's name -> (tensorlab's object, check of a call's arguments or None), made on first use."""
    global _DEFAULTS
    if _DEFAULTS is None:
        _DEFAULTS = _default_globals()
    return _DEFAULTS


def allowed_names():
    """Every name a ``weights_only`` load accepts now: PyTorch's defaults and the user's additions."""
    return set(defaults()) | set(user_allowed())
