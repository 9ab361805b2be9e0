"""Module: the base class of every layer and every network.

A Module is a Python object with three ordered registries, filled *by attribute assignment*:

    self.fc = nn.Linear(2, 3)              -> self._modules["fc"]
    self.w = nn.Parameter(torch.zeros(3))  -> self._parameters["w"]
    self.register_buffer("mean", t)        -> self._buffers["mean"]

``__setattr__`` does the sorting, ``__getattr__`` looks the names up again. Everything else is a walk
over these registries: ``parameters()`` visits them recursively with dotted names ("fc.weight"),
``state_dict()`` collects them, ``to()`` converts them, ``train()`` flips a flag in each module. A
layer created only inside ``forward`` is never assigned to ``self``, so it is never registered.
See course/11_modules_and_parameters.
"""

from ...tensor import Tensor
from ..parameter import Buffer, Parameter
from ._module_convert import ConvertMixin
from ._module_hooks import HooksMixin
from ._module_state import StateDictMixin


def typename(obj):
    """PyTorch's name for a value in error messages: ``torch.FloatTensor``, ``int``, ``pkg.mod.Class``."""
    if isinstance(obj, Tensor):
        return "torch." + obj.dtype._legacy
    cls = type(obj)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


class Module(HooksMixin, StateDictMixin, ConvertMixin):
    """Base class for all neural network modules. Subclass it, build layers in ``__init__`` (after
    ``super().__init__()``), compute in ``forward``, and call the module: ``model(x)``."""

    training: bool
    _version = 1  # the state_dict format version (BatchNorm's is 2)

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            bad = next(iter(kwargs)) if kwargs else None
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{bad}'"
                            if bad else f"{type(self).__name__}.__init__() takes 1 positional argument but "
                                        f"{len(args) + 1} were given")
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        setattr_(self, "_parameters", {})
        setattr_(self, "_buffers", {})
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_modules", {})
        self._init_hooks()

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # -- registration ---------------------------------------------------------------------------
    def register_parameter(self, name, param):
        """Register ``param`` (a Parameter, or None for "absent", like ``bias=False``) as ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter", self._parameters)
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                             f"created explicitly. To express '{name}' as a function of another Tensor, "
                             "compute the value in the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Register a tensor that is module state but not learned. Non-persistent buffers stay out of
        ``state_dict``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        if isinstance(tensor, Buffer):
            persistent = tensor.persistent
            tensor = _plain(tensor)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Register a child module (or None) as ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name, kind, registry):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in registry:
            raise KeyError(f"attribute '{name}' already exists")

    # build: stage 6
    def __setattr__(self, name, value):
        """Sort the value into _parameters, _modules or _buffers -- or store it as a plain attribute.

        ``self.w = Parameter(...)`` registers ``w`` (``self.register_parameter``, which checks it),
        after taking the name out of the other registries (``_remove_from(name, d, self._buffers,
        self._modules, self._non_persistent_buffers_set)``); ``self.fc = Linear(...)`` puts the module
        into ``self._modules``; a ``Buffer`` goes through ``self.register_buffer``. A name that is
        already a parameter (or child module, or buffer) keeps its registry: only None (or, for a
        buffer, a Tensor) may replace it, anything else raises TypeError ("cannot assign
        'torch.FloatTensor' as parameter 'w' (torch.nn.Parameter or None expected)"; ``typename``
        names the value). Assigning a Parameter or Module before ``Module.__init__`` ran raises
        AttributeError ("cannot assign parameters before Module.__init__() call"). Everything else
        is a plain attribute: ``object.__setattr__(self, name, value)`` -- read ``self.__dict__``
        with ``d = self.__dict__``, never ``self._parameters`` before it exists."""
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _remove_from(name, d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if d.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            _remove_from(name, d, self._parameters, self._buffers, self._non_persistent_buffers_set)
            self._modules[name] = value
        elif d.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = value
        elif isinstance(value, Buffer) or (d.get("_buffers") is not None and name in self._buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            if isinstance(value, Buffer):
                _remove_from(name, d, self._parameters, self._modules)
                self.register_buffer(name, value)
            else:
                self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)
    # build: end

    def __getattr__(self, name):
        # only called when normal lookup fails: the name may be a registered parameter/buffer/module
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            found = d.get(registry)
            if found is not None and name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = (dir(type(self)) + list(self.__dict__) + list(self._parameters) + list(self._modules)
                + list(self._buffers))
        return sorted(k for k in keys if not k[0].isdigit())

    def __setstate__(self, state):
        self.__dict__.update(state)

    # -- walking the tree ---------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """``(dotted_name, module)`` for this module and every descendant, depth first."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    # build: stage 6
    def _named_members(self, registry, prefix, recurse, remove_duplicate=True):
        """Entries of ``registry`` ("_parameters"/"_buffers") of this module (and descendants).

        Yields ``(dotted name, tensor)``: the owners are ``self.named_modules(prefix=prefix,
        remove_duplicate=remove_duplicate)`` when ``recurse``, else just ``[(prefix, self)]``; an
        entry's name is its owner's name, a dot, and its own (``"0.weight"``; no dot when the owner's
        name is ""). None entries (``bias=False``) are skipped; with ``remove_duplicate`` a tensor
        already yielded (the same object, by ``id``, e.g. a weight shared by two layers) is skipped too.
        ``named_parameters`` and ``named_buffers`` (and so ``parameters()``) call this."""
        seen = set()
        owners = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for owner_prefix, owner in owners:
            for name, value in getattr(owner, registry).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield owner_prefix + ("." if owner_prefix else "") + name, value
    # build: end

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """``("fc.weight", Parameter)`` pairs; a parameter shared by two layers is listed once."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_submodule(self, target):
        """The module at dotted path ``target`` ("" is self)."""
        if target == "":
            return self
        module = self
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            child = getattr(module, item)
            if not isinstance(child, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
            module = child
        return module

    def get_parameter(self, target):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(module, name)

    # -- modes and gradients --------------------------------------------------------------------
    # build: stage 6
    def train(self, mode=True):
        """Set training mode here and in every descendant (Dropout and BatchNorm behave differently).

        ``mode`` must be a bool (else ValueError: "training mode is expected to be boolean"); set
        ``self.training`` and call ``train(mode)`` on every child (``self.children()``), which does
        the same for its own; return ``self`` (so ``model.train()`` chains). ``eval()`` is
        ``train(False)``."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self
    # build: end

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Forget the gradients of every parameter (``None`` by default, else zero them in place)."""
        from ...autograd.graph import reset_grad
        for p in self.parameters():
            reset_grad(p, set_to_none)

    def apply(self, fn):
        """Call ``fn(module)`` on every descendant, then on self (e.g. to initialise weights)."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- printing ----------------------------------------------------------------------------------
    def extra_repr(self):
        """The text inside ``Linear(...)``; layers override it to show their settings."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for key, module in self._modules.items():   # a loop, not a comprehension: one frame per level
            child_lines.append(f"({key}): {_add_indent(repr(module), 2)}")
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


def _remove_from(name, *registries):
    for registry in registries:
        if name in registry:
            if isinstance(registry, set):
                registry.discard(name)
            else:
                del registry[name]


def _plain(t):
    """A plain Tensor alias of ``t`` (same storage and version counter)."""
    out = object.__new__(Tensor)
    out._init(t._storage, t._offset, t._shape, t._stride, t._array, t._version_counter, t._base)
    out._requires_grad = t._requires_grad
    return out


def _add_indent(text, spaces):
    """Indent every line but the first: how a child's repr nests inside its parent's."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])
