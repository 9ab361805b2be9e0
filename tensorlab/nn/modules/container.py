"""Containers: modules whose job is to hold other modules (or parameters) so they get registered.

A plain Python list of layers is invisible to ``parameters()`` -- ``__setattr__`` only registers
Modules and Parameters. ``ModuleList``/``ModuleDict`` are a list/dict that *are* Modules, registering
each item under its index/key ("layers.0.weight"). ``Sequential`` is a ModuleList whose forward
feeds each layer's output to the next. ``ParameterList``/``ParameterDict`` do the same for Parameters.
See course/12_containers_and_state_dict.
"""
import operator
from collections import OrderedDict

from ...tensor import Tensor
from ..parameter import Parameter
from .module import Module, _add_indent


def _index(idx, size):
    """A valid non-negative position for ``idx`` (an int, maybe negative) in a container of ``size``."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class Sequential(Module):
    """``Sequential(layer1, layer2, ...)`` or ``Sequential(OrderedDict(name=layer))``: forward runs the
    layers in order, each one's output the next one's input."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_index(idx, len(self))]

    def __setitem__(self, idx, module):
        key = list(self._modules.keys())[_index(idx, len(self))]
        setattr(self, key, module)

    def __delitem__(self, idx):
        keys = list(self._modules.keys())
        for key in (keys[idx] if isinstance(idx, slice) else [keys[_index(idx, len(self))]]):
            delattr(self, key)
        self._renumber()

    def _renumber(self):
        items = list(self._modules.values())
        self._modules.clear()
        for i, module in enumerate(items):
            self._modules[str(i)] = module

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index = index + n if index < 0 else index
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} "
                             "is given.")
        return Sequential(*self, *other)


class ModuleList(Module):
    """A list of modules, each registered under its index. Has no forward: iterate it yourself."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self)))]

    def __setitem__(self, idx, module):
        setattr(self, str(_index(idx, len(self))), module)

    def __delitem__(self, idx):
        Sequential.__delitem__(self, idx)

    _renumber = Sequential._renumber

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        if isinstance(modules, Module) and not isinstance(modules, (ModuleList, Sequential)) or \
                not hasattr(modules, "__iter__"):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        Sequential.insert(self, index, module)

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def __repr__(self):
        """Runs of identical layers print once: ``(0-3): 4 x Linear(...)``."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        blocks = []  # [start, end, repr]
        for i, r in enumerate(reprs):
            if blocks and blocks[-1][2] == r:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        lines = []
        for start, end, r in blocks:
            line = f"({start}): {r}" if start == end else f"({start}-{end}): {end - start + 1} x {r}"
            lines.append(_add_indent(line, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules, each registered under its key. Choose layers by name in your forward."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        pairs = modules.items() if hasattr(modules, "items") else modules
        for j, pair in enumerate(pairs):
            if hasattr(modules, "items"):
                key, module = pair
            else:
                if not hasattr(pair, "__len__") or len(pair) != 2:
                    raise ValueError(f"ModuleDict update sequence element #{j} has length "
                                     f"{len(pair) if hasattr(pair, '__len__') else '?'}; 2 is required")
                key, module = pair
            self[key] = module


def _param_line(key, value, dtype_text):
    if isinstance(value, Tensor):
        size = "x".join(str(s) for s in value.shape)
        device = f" ({value.device})" if value.device.type == "cuda" else ""
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{dtype_text(value)} of size {size}{device}]"
    return f"  ({key}): Object of type: {type(value).__name__}"


class ParameterList(Module):
    """A list of Parameters (plain tensors are wrapped), registered as "0", "1", ..."""

    def __init__(self, values=None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_index(idx, len(self))))

    def __setitem__(self, idx, param):
        idx = _index(idx, len(self))
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, str(idx), param)

    def __len__(self):
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value):
        new_idx = len(self)
        object.__setattr__(self, "_size", new_idx + 1)
        self[new_idx] = value
        return self

    def extend(self, values):
        if not hasattr(values, "__iter__") or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(_param_line(k, p, lambda t: str(t.dtype)) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of Parameters (plain tensors are wrapped), registered under their keys."""

    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_keys", {})
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return getattr(self, key)

    def __setitem__(self, key, value):
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, key, value)

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, key)

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def clear(self):
        for key in list(self._keys):
            del self[key]

    def update(self, parameters):
        """Add (or overwrite) key-value pairs. As in PyTorch, an OrderedDict, a ParameterDict or a
        sequence of pairs keeps its order, but a plain dict's keys are added *sorted* (a dict's
        order was not guaranteed when this rule was made); ModuleDict keeps a plain dict's order."""
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = parameters.items()
        elif hasattr(parameters, "items"):
            pairs = sorted(parameters.items())
        else:
            pairs = parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self):
        return "\n".join(_param_line(k, p, lambda t: "torch." + t.dtype._legacy)
                         for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")
