"""PyTorch's names for tensorlab's objects, both ways.

A pickle refers to every class and function it needs by name: ``GLOBAL 'torch._utils _rebuild_tensor_v2'``
(module, then name). tensorlab lays out its modules as PyTorch does -- ``tensorlab.nn.modules.linear.Linear``
is ``torch.nn.modules.linear.Linear``, ``tensorlab._utils._rebuild_tensor_v2`` is
``torch._utils._rebuild_tensor_v2`` -- so the rule is one swap: *writing*, a name inside ``tensorlab``
is written with ``torch`` in its place (so PyTorch can read the file); *reading*, ``torch`` is read
as ``tensorlab``. The few exceptions are in tables here:

- dtypes are instances, pickled by their name in ``torch``: ``GLOBAL 'torch float32'``;
- the element type of a storage is named by PyTorch's old storage classes: ``torch.FloatStorage``
  (float32), ``torch.LongStorage`` (int64), ... -- tensorlab has no such classes, only the
  ``StorageType`` markers below, which say which dtype a storage record holds;
- ``torch._tensor._rebuild_from_type_v2`` lives in tensorlab/_utils.py with the other rebuilds.

See course/19_saving_and_loading.
"""
import importlib
import re
import types

from . import _dtype, _utils

_STORAGE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                  "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


class StorageType:
    """``torch.FloatStorage`` and its siblings as they appear in a checkpoint: the dtype of a storage record."""

    def __init__(self, dtype):
        self.dtype = dtype
        self.name = f"{_STORAGE_NAMES[dtype.name]}Storage"

    def __repr__(self):
        return f"torch.{self.name}"


STORAGE_TYPES = {st.name: st for st in (StorageType(d) for d in _dtype.ALL)}
STORAGE_TYPE_OF = {st.dtype: st for st in STORAGE_TYPES.values()}
DTYPES = {d.name: d for d in _dtype.ALL}

# Names that are not "torch" swapped for "tensorlab": PyTorch's name -> tensorlab's object.
_EXCEPTIONS = {**{f"torch.{name}": st for name, st in STORAGE_TYPES.items()},
               **{f"torch.{name}": d for name, d in DTYPES.items()},
               "torch._tensor._rebuild_from_type_v2": _utils._rebuild_from_type_v2}
_NAME_OF = {id(obj): name for name, obj in _EXCEPTIONS.items()}


def torch_name(obj, name=None):
    """``(module, name)`` under which a checkpoint names ``obj``, if it is one of tensorlab's; else None.

    >>> torch_name(_dtype.float32), torch_name(_utils._rebuild_tensor_v2)
    (('torch', 'float32'), ('torch._utils', '_rebuild_tensor_v2'))
    """
    full = _NAME_OF.get(id(obj))
    if full is not None:
        module, _, name = full.rpartition(".")
        return module, name
    if not isinstance(obj, (type, types.FunctionType)):
        return None                    # an instance is pickled by its state, not by a name
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str) or not (module == "tensorlab" or module.startswith("tensorlab.")):
        return None
    return "torch" + module[len("tensorlab"):], name or obj.__qualname__


def is_torch_name(module):
    return module == "torch" or module.startswith("torch.")


def tensorlab_name(full_name):
    """``torch.nn.modules.linear.Linear`` -> ``tensorlab.nn.modules.linear.Linear`` (other names unchanged)."""
    return "tensorlab" + full_name[len("torch"):] if is_torch_name(full_name) else full_name


def tensorlab_object(module, name):
    """tensorlab's object for PyTorch's ``module.name`` (for ``weights_only=False``, which imports).

    The same path in tensorlab first; if tensorlab keeps that name elsewhere, the nearest package
    above that has it (``torch.nn.modules.rnn.RNNBase`` -> ``tensorlab.nn.RNNBase``). LookupError if none.
    """
    full = f"{module}.{name}"
    if full in _EXCEPTIONS:
        return _EXCEPTIONS[full]
    parts = tensorlab_name(module).split(".")
    for depth in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:depth]))
            for attribute in name.split("."):
                found = getattr(found, attribute)
            return found
        except (ImportError, AttributeError):
            continue
    raise LookupError(f"the checkpoint needs {full}, which tensorlab does not have "
                      f"(looked for {tensorlab_name(full)} and in the packages above it)")


_NOT_IN_TENSORLAB = [
    (re.compile(r"torch\.(\w+)Storage"), "a storage of PyTorch's {0} type"),
    (re.compile(r"torch\.(bfloat16|complex\d*|cfloat|cdouble|chalf|uint(16|32|64|[1-7])|int[1-7]|float8\w*|"
                r"float4\w*|bits\w+|q(u)?int\w+)"), "tensors of dtype torch.{0}"),
    (re.compile(r"torch\._utils\._rebuild_(\w+)"), "a tensor rebuilt by _rebuild_{0} (a sparse, quantized, "
                                                   "nested, meta or subclass tensor)"),
    (re.compile(r"torch\.(per_\w+|serialization\._get_layout)"), "quantized or sparse tensors ({0})"),
]


def not_in_tensorlab(full_name):
    """Why tensorlab cannot load a name that PyTorch's weights-only loader allows, or None.

    >>> not_in_tensorlab("torch.bfloat16")
    'tensors of dtype torch.bfloat16'
    """
    for pattern, what in _NOT_IN_TENSORLAB:
        match = pattern.fullmatch(full_name)
        if match:
            return what.format(match.group(1))
    return None
