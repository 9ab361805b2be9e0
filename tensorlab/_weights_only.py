r"""``load(f, weights_only=True)``: an unpickler that builds data and never runs the file's code.

A pickle is a small program for a stack machine. Most of its instructions build data -- push an int,
a string, an empty dict; make a tuple of the last three things; put a key and a value into a dict
-- but three of them are dangerous: ``GLOBAL`` imports any name (``os system``), ``REDUCE`` calls what
is on the stack with arguments from the file, and ``BUILD`` hands an object its state (which runs
its ``__setstate__``). Python's ``pickle.load`` obeys them all, so *loading* a pickle can run any
code its author chose. That is why PyTorch 2.6 made ``weights_only=True`` the default.

This unpickler interprets the instructions itself, one small method each, and allows only the
protocol-2 subset that ``torch.save`` writes. ``GLOBAL`` is looked up in a fixed table of
PyTorch's names -- tensors and their rebuild functions, storage types, dtypes, ``torch.Size``,
``torch.device``, ``OrderedDict``, ``Counter``, ``set``, ``complex``, ``bytearray`` -- plus what
the user allow-listed with ``add_safe_globals`` (both in tensorlab/_safe_globals.py); nothing is
ever imported. ``REDUCE`` calls only
those, each with its arguments checked (``bytearray(10**12)`` is refused, not allocated);
``BUILD`` only sets the ``_metadata`` of a state_dict's OrderedDict or the state of an allow-listed
type. Anything else raises ``pickle.UnpicklingError`` with PyTorch's message ("Weights only load
failed ... Unsupported global: GLOBAL os.system ..."), before anything ran. A pickle that is merely
broken (a truncated string, an empty stack) raises ``CheckpointError``.
See course/19_saving_and_loading.
"""
import io
import pickle
import pickletools
import struct
from collections import Counter, OrderedDict

from . import _torch_names
from ._checkpoint_reader import CheckpointError
from ._safe_globals import BLOCKED_MODULES, PLAIN_CLASSES, defaults, user_allowed

# -- the error messages, as PyTorch words them ---------------------------------------------------------

UNSAFE_MESSAGE = ("As in PyTorch 2.6 and later, the default value of the `weights_only` argument in `torch.load` "
                  "is `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it "
                  "can result in arbitrary code execution. Do it only if you got the file from a trusted source.")
DOCS_MESSAGE = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
                "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def weights_only_message(message):
    """The text of the UnpicklingError that ``load`` raises: what to do, then the unpickler's reason."""
    if "was not an allowed global by default" in message:
        return ("Weights only load failed. This file can still be loaded, to do so you have two options, do those "
                f"steps only if you trust the source of the checkpoint. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, "
                "to load with `weights_only=True` please check the recommended steps in the following error message."
                f"\n\tWeightsUnpickler error: {message}{DOCS_MESSAGE}")
    return f"Weights only load failed. {UNSAFE_MESSAGE}\nWeightsUnpickler error: \n\n{message}{DOCS_MESSAGE}"


def _unsupported_global(full_name):
    shown = full_name[len("builtins."):] if full_name.startswith("builtins.") else full_name
    return pickle.UnpicklingError(
        f"Unsupported global: GLOBAL {shown} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{shown}])` or the `torch.serialization.safe_globals([{shown}])` "
        "context manager to allowlist this global if you trust this class/function.")


def _malformed(reason):
    return CheckpointError(f"malformed checkpoint: data.pkl {reason}")


# -- the unpickler -----------------------------------------------------------------------------------


class WeightsOnlyUnpickler:
    """Runs a pickle's instructions, the safe ones only. ``persistent_load(pid)`` gives the storages."""

    def __init__(self, data, persistent_load, encoding="ASCII"):
        self.file = io.BytesIO(data)
        self.persistent_load = persistent_load
        self.encoding = encoding
        self.allowed = {name: obj for name, (obj, _) in defaults().items()}
        self.allowed.update(user_allowed())
        self.callable = {id(obj): check for obj, check in defaults().values() if check is not None}
        self.user_objects = {id(obj) for obj in user_allowed().values()}
        self.memo, self.stack, self.marks = {}, [], []

    def load(self):
        """The object the pickle builds. UnpicklingError for anything unsafe, CheckpointError if broken."""
        while True:
            code = self._read(1)
            step = _OPCODES.get(code)
            if step is None:
                name = _OPCODE_NAMES.get(code, "unknown")
                raise pickle.UnpicklingError(f"Unsupported operand {code[0]} ({name})")
            try:
                if step(self) is _STOP:
                    return self.result
            except (IndexError, KeyError, TypeError, ValueError, struct.error, UnicodeDecodeError) as error:
                raise _malformed(f"cannot run instruction {_OPCODE_NAMES[code]}: {type(error).__name__}: "
                                 f"{str(error)[:100]}") from None

    # reading the instruction stream
    def _read(self, n):
        data = self.file.read(n)
        if len(data) < n:
            raise _malformed("ends in the middle of an instruction (truncated)")
        return data

    def _line(self):
        line = self.file.readline()
        if not line.endswith(b"\n"):
            raise _malformed("ends in the middle of a GLOBAL instruction (truncated)")
        return line[:-1].decode("utf-8")

    def _pop_mark(self):
        items, self.stack = self.stack, self.marks.pop()
        return items

    # the dangerous three, restricted
    def op_global(self):
        module, name = self._line(), self._line()
        module, name = _python3_name(module, name)
        full = f"{module}.{name}"
        if module in BLOCKED_MODULES:
            raise pickle.UnpicklingError(f"Trying to load unsupported GLOBAL {full} whose module {module} is blocked.")
        for candidate in (full, _torch_names.tensorlab_name(full)):
            if candidate in self.allowed:
                return self.stack.append(self.allowed[candidate])
        why = _torch_names.not_in_tensorlab(full)
        if why:
            raise CheckpointError(f"tensorlab cannot load this checkpoint: it holds {why} ({full}), which "
                                  "tensorlab does not have")
        raise _unsupported_global(full)

    def op_reduce(self):
        args, func = self.stack.pop(), self.stack[-1]
        check = self.callable.get(id(func))
        if check is None and id(func) not in self.user_objects:
            message = f"Trying to call reduce for unrecognized function {func!r}"[:300]
            if hasattr(func, "__self__"):
                message += f" which belongs to {func.__self__!r}"[:200]
            raise pickle.UnpicklingError(message)
        if not isinstance(args, tuple) or (check is not None and not check(args)):
            raise _malformed(f"calls {_shown(func)} with arguments it does not take: {args!r}"[:300])
        self.stack[-1] = func(*args)

    def op_newobj(self):
        args, cls = self.stack.pop(), self.stack.pop()
        from .nn import Parameter
        if cls is Parameter:
            if not self.callable[id(Parameter)](args):
                raise _malformed(f"makes a Parameter from {args!r}"[:300])
            return self.stack.append(Parameter(*args))
        if not (isinstance(cls, type) and (cls in PLAIN_CLASSES or id(cls) in self.user_objects)):
            raise pickle.UnpicklingError("Can only create new object for nn.Parameter or classes allowlisted "
                                         f"via `add_safe_globals` but got {cls!r}"[:300])
        self.stack.append(cls.__new__(cls, *args))

    def op_build(self):
        state, inst = self.stack.pop(), self.stack[-1]
        if type(inst) is OrderedDict:
            if not (isinstance(state, dict) and all(isinstance(k, str) for k in state)):
                raise _malformed("gives an OrderedDict a state that is not a dict of attributes")
            return inst.__dict__.update(state)
        if id(type(inst)) not in self.user_objects:
            raise pickle.UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types allowlisted via "
                                         f"`add_safe_globals`, but got {type(inst)}")
        _build(inst, state)                         # an allow-listed type: the user trusts it

    def op_binpersid(self):
        pid = self.stack.pop()
        if type(pid) is not tuple and type(pid) is not int:
            raise pickle.UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
        if type(pid) is tuple and len(pid) > 0 and _ascii(pid[0]) != "storage":
            raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
        self.stack.append(self.persistent_load(pid))

    # containers: only into the exact built-in types
    def op_append(self):
        item = self.stack.pop()
        self._target(list, "Can only append to lists").append(item)

    def op_appends(self):
        items = self._pop_mark()
        self._target(list, "Can only extend lists").extend(items)

    def op_setitem(self):
        value, key = self.stack.pop(), self.stack.pop()
        self._target((dict, OrderedDict, Counter), "SETITEM")[key] = value

    def op_setitems(self):
        items = self._pop_mark()
        target = self._target((dict, OrderedDict, Counter), "SETITEMS")
        if len(items) % 2:
            raise _malformed("gives SETITEMS an odd number of keys and values")
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    def _target(self, types, what):
        target = self.stack[-1]
        kinds = types if isinstance(types, tuple) else (types,)
        if type(target) not in kinds:
            if what.startswith("SET"):
                what = f"Can only {what} for dict, collections.OrderedDict, collections.Counter"
            raise pickle.UnpicklingError(f"{what}, but got {type(target)}")
        return target

    # plain data
    def op_mark(self):
        self.marks.append(self.stack)
        self.stack = []

    def op_stop(self):
        self.result = self.stack.pop()
        return _STOP

    def op_proto(self):
        self._read(1)

    def op_binint(self):
        self.stack.append(struct.unpack("<i", self._read(4))[0])

    def op_binint1(self):
        self.stack.append(self._read(1)[0])

    def op_binint2(self):
        self.stack.append(struct.unpack("<H", self._read(2))[0])

    def op_long1(self):
        self.stack.append(int.from_bytes(self._read(self._read(1)[0]), "little", signed=True))

    def op_binfloat(self):
        self.stack.append(struct.unpack(">d", self._read(8))[0])

    def op_binunicode(self):
        self.stack.append(str(self._read(struct.unpack("<I", self._read(4))[0]), "utf-8", "surrogatepass"))

    def op_short_binstring(self):
        data = self._read(self._read(1)[0])
        self.stack.append(data if self.encoding == "bytes" else data.decode(self.encoding, "strict"))

    def op_tuple(self):
        items = self._pop_mark()                # (first: it replaces self.stack)
        self.stack.append(tuple(items))

    def op_tuple1(self):
        self._tuple_of_last(1)

    def op_tuple2(self):
        self._tuple_of_last(2)

    def op_tuple3(self):
        self._tuple_of_last(3)

    def _tuple_of_last(self, n):
        if len(self.stack) < n:
            raise IndexError("the stack holds fewer items than the tuple needs")
        self.stack[-n:] = [tuple(self.stack[-n:])]

    def op_binget(self):
        self.stack.append(self.memo[self._read(1)[0]])

    def op_long_binget(self):
        self.stack.append(self.memo[struct.unpack("<I", self._read(4))[0]])

    def op_binput(self):
        self.memo[self._read(1)[0]] = self.stack[-1]

    def op_long_binput(self):
        self.memo[struct.unpack("<I", self._read(4))[0]] = self.stack[-1]


_STOP = object()
_CONSTANTS = {b"N": None, b"\x88": True, b"\x89": False}
_OPCODES = {getattr(pickle, name): getattr(WeightsOnlyUnpickler, f"op_{name.lower()}") for name in (
    "GLOBAL", "REDUCE", "NEWOBJ", "BUILD", "BINPERSID", "APPEND", "APPENDS", "SETITEM", "SETITEMS", "MARK", "STOP",
    "PROTO", "BININT", "BININT1", "BININT2", "LONG1", "BINFLOAT", "BINUNICODE", "SHORT_BINSTRING", "TUPLE", "TUPLE1",
    "TUPLE2", "TUPLE3", "BINGET", "LONG_BINGET", "BINPUT", "LONG_BINPUT")}
_OPCODES.update({code: (lambda value: lambda self: self.stack.append(value))(value)
                 for code, value in _CONSTANTS.items()})
_OPCODES.update({pickle.EMPTY_DICT: lambda self: self.stack.append({}),
                 pickle.EMPTY_LIST: lambda self: self.stack.append([]),
                 pickle.EMPTY_TUPLE: lambda self: self.stack.append(()),
                 pickle.EMPTY_SET: lambda self: self.stack.append(set())})
_OPCODE_NAMES = {op.code.encode("latin1"): op.name for op in pickletools.opcodes}


def globals_in_pickle(data):
    """The ``module.name`` of every GLOBAL instruction in a pickle, read with pickletools (nothing runs)."""
    names = set()
    try:
        for opcode, arg, _ in pickletools.genops(data):
            if opcode.name == "GLOBAL":
                module, name = _python3_name(*arg.split(" ", 1))
                names.add(f"{module}.{name}")
    except (ValueError, EOFError) as error:
        raise _malformed(f"is not a valid pickle ({error})") from None
    return names


def _build(inst, state):
    """pickle's BUILD, for an allow-listed type: ``__setstate__`` if it has one, else set attributes."""
    setstate = getattr(inst, "__setstate__", None)
    if setstate is not None:
        return setstate(state)
    slots = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
    if state:
        inst.__dict__.update(state)
    for key, value in (slots or {}).items():
        setattr(inst, key, value)


def _python3_name(module, name):
    """Python 2's names (``__builtin__ set``), which protocol 2 writes, as Python 3's (``builtins set``)."""
    import _compat_pickle
    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


def _ascii(value):
    return value.decode("ascii") if isinstance(value, bytes) else value


def _shown(obj):
    return getattr(obj, "__qualname__", None) or repr(obj)
