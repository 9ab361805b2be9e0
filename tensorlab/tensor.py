"""Tensor: a window (offset, shape, strides) onto a Storage, plus the fields autograd needs.

Everything a tensor *does* -- arithmetic, reductions, views, indexing -- is defined once, as an op in
``tensorlab/ops/``, and attached to Tensor there. This file holds only what a tensor *is*.
See course/01_tensors and course/02_storage_and_strides.
"""
import operator as _operator

import numpy as np

from . import _dtype, _layout
from ._device import CPU, as_device
from .backend import for_device
from .storage import TypedStorage, UntypedStorage
from ._tensor_conversions import Conversions
from . import _torch_function


class Size(tuple):
    """A shape: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    def __new__(cls, sizes=()):
        try:
            return super().__new__(cls, map(_operator.index, sizes))
        except TypeError:
            i, bad = next(((i, s) for i, s in enumerate(sizes) if not hasattr(s, "__index__")), (0, None))
            raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{type(bad).__name__}')") from None

    def numel(self):
        return _layout.numel(self)

    def __repr__(self):
        return f"torch.Size([{', '.join(map(str, self))}])"

    def __getitem__(self, i):
        out = tuple.__getitem__(self, i)
        return Size(out) if isinstance(i, slice) else out

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple(self) * n)

    __rmul__ = __mul__


def _size_of(shape):
    """A tensor's own shape (a tuple of ints already) as a Size, without ``Size``'s checks of each item."""
    return tuple.__new__(Size, shape)


_typed_storage_warned = False  # PyTorch warns about TypedStorage once per process


class _VersionCounter:
    """Counts in-place writes. Shared by a tensor, its views and ``detach()`` (not by ``.data``)."""

    __slots__ = ("value",)

    def __init__(self):
        self.value = 0


class Tensor(Conversions):
    """An n-dimensional array that can record the operations applied to it.

    ``Tensor(data)`` and ``Tensor(*sizes)`` build a float32 tensor, as PyTorch's legacy constructor does;
    prefer ``tensorlab.tensor(data)``.
    """

    # What every tensor has (its window onto a storage, and the device that storage lives on) ...
    __slots__ = ("_storage_or_none", "_device", "_offset", "_shape", "_stride", "_array", "_version_slot",
                 "__dict__", "__weakref__")
    # ... and autograd fields, whose defaults live on the class: a tensor that never takes part in
    # autograd never sets them (this keeps every op's result cheap to make).
    _base = None               # the tensor this one is a view of
    _requires_grad = False
    _grad = None
    _grad_fn = None            # the Node that made this tensor (None for leaves)
    _output_nr = 0             # which output of grad_fn this tensor is
    _retains_grad = False
    _backward_hooks = None     # Tensor.register_hook on a leaf
    _post_accumulate_hooks = None  # register_post_accumulate_grad_hook on a leaf
    _grad_accumulator = None   # weakref to the leaf's AccumulateGrad node
    _view_version = None       # a view with history: the version its grad_fn was made for

    # -- __torch_function__: a subclass (or a mode) may take over any public call ---------------
    # The default runs the call and gives tensor results the subclass; see tensorlab/_torch_function.py.
    __torch_function__ = classmethod(_torch_function.default_torch_function)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _torch_function.subclass_defined(cls)

    def as_subclass(self, cls):
        """The same memory (and autograd history, via an AliasBackward0) seen as an instance of ``cls``."""
        if not (isinstance(cls, type) and issubclass(cls, Tensor)):
            raise TypeError("Creating a Tensor subclass from a class that does not inherit from Tensor is not "
                            "possible. Make sure your class inherits from Tensor.")
        from .ops.index import Alias
        alias = Alias.apply(self)
        alias.__class__ = cls
        return alias

    # -- construction ------------------------------------------------------------------------
    def __init__(self, *args, device=None):
        from .ops.creation import _legacy_constructor
        _legacy_constructor(self, args, device)

    @classmethod
    def _from_array(cls, array, device=CPU):
        """Wrap a freshly computed array (the new tensor owns its storage)."""
        self = object.__new__(cls)
        if device is not CPU:
            device = as_device(device)  # one object per device, so ops can compare with ``is``
        if device is CPU and type(array) is not np.ndarray:
            array = np.asarray(array)  # a NumPy scalar (what a reduction to 0-d returns), or an array-like
        elif device is not CPU and not isinstance(array, for_device(device).xp.ndarray):
            array = for_device(device).xp.asarray(array)
        if device is CPU and array.flags.c_contiguous:
            # The common case -- a fresh row-major NumPy result, as almost every op makes -- written out.
            # Its Storage is made only if someone asks (``_storage`` below): most results are read,
            # used in the next op and dropped without anyone needing one. The strides come from the
            # per-shape cache.
            self._storage_or_none = None
            self._device = CPU
            self._offset = 0
            shape = self._shape = array.shape
            strides = _CONTIGUOUS.get(shape)
            self._stride = strides if strides is not None else _contiguous_strides(shape)
            self._array = array
            self._version_slot = None
            return self
        if array.flags.c_contiguous:
            self._storage = UntypedStorage._of_result(array, device)
            self._offset = 0
            strides = _CONTIGUOUS.get(array.shape)  # (_contiguous_strides, its common case written out)
            self._stride = strides if strides is not None else _contiguous_strides(array.shape)
        else:
            flat, self._offset, self._stride = _flat_buffer_of(array, for_device(device).xp)
            self._storage = UntypedStorage(flat, device)
            array = for_device(device).strided_view(flat, self._offset, array.shape, self._stride)
        self._shape = array.shape
        self._array = array
        self._version_slot = None
        return self

    def _init(self, storage, offset, shape, strides, array, version=None, base=None):
        self._storage_or_none = storage
        self._device = storage.device
        self._offset = offset
        self._shape = tuple(shape)
        self._stride = tuple(strides)
        self._array = array
        self._version_slot = version
        if base is not None:
            self._base = base

    @property
    def _storage(self):
        """The Storage under this tensor. A fresh result owns its array alone and gets its Storage
        only when first asked -- by a view, ``untyped_storage()``, ``data_ptr()`` -- made then around
        that same array, so nothing is copied and the answer is the one an eager Storage would give."""
        storage = self._storage_or_none
        if storage is None:
            storage = self._storage_or_none = UntypedStorage._of_result(self._array, self._device)
        return storage

    @_storage.setter
    def _storage(self, storage):
        self._storage_or_none = storage
        self._device = storage.device

    def _make_view(self, offset, shape, strides, array=None):
        """A new tensor reading this one's storage with another (offset, shape, strides). ``array``: the
        view's array when the caller has it from the array module already (``x._array.T``: it must read
        exactly those elements), else it is made from the storage (``strided_view``)."""
        if array is None:
            array = for_device(self._device).strided_view(self._storage._flat, offset, shape, strides)
        return self._sharing(offset, tuple(shape), tuple(strides), array,
                             self._base if self._base is not None else self)

    def _same_view(self):
        """A view of all of this tensor, as it is: same window, storage and version counter."""
        return self._make_view(self._offset, self._shape, self._stride, self._array.view())

    def _alias(self):
        """Another plain Tensor over the same window, Storage, version counter and base, with no
        autograd fields set: what a saved output is kept as (autograd/graph.py)."""
        return self._sharing(self._offset, self._shape, self._stride, self._array, self._base)

    def _sharing(self, offset, shape, strides, array, base):
        """A new plain Tensor over this one's Storage and version counter, reading ``array`` (the
        window ``offset``, ``shape``, ``strides``: tuples), with ``base`` (None: not a view)."""
        t = object.__new__(Tensor)
        t._storage_or_none = self._storage  # made now if need be: both must share one Storage
        t._device = self._device
        t._offset, t._shape, t._stride, t._array = offset, shape, strides, array
        t._version_slot = self._version_counter
        if base is not None:
            t._base = base
        return t

    # -- what a tensor is ----------------------------------------------------------------------
    @property
    def shape(self):
        return _size_of(self._shape)

    def size(self, dim=None):
        if dim is None:
            return _size_of(self._shape)
        return self._shape[_dim_of(self, dim)]

    def stride(self, dim=None):
        if dim is None:
            return self._stride
        return self._stride[_dim_of(self, dim)]

    def storage_offset(self):
        return self._offset

    def dim(self):
        return len(self._shape)

    ndim = property(dim)

    def ndimension(self):
        return len(self._shape)

    def numel(self):
        return _layout.numel(self._shape)

    nelement = numel

    @property
    def dtype(self):
        return _dtype._FROM_NUMPY[self._array.dtype]

    @property
    def device(self):
        return self._device

    @property
    def is_cuda(self):
        return self._device.type == "cuda"

    is_cpu = property(lambda self: self._device.type == "cpu")
    is_sparse = False
    is_quantized = False
    is_meta = False
    layout = "torch.strided"

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    def element_size(self):
        return self._array.itemsize

    @property
    def itemsize(self):
        return self._array.itemsize

    @property
    def nbytes(self):
        return self.numel() * self._array.itemsize

    def is_contiguous(self, memory_format=None):
        return _layout.is_contiguous(self._shape, self._stride)

    def untyped_storage(self):
        return self._storage

    def storage(self):
        """The storage read as elements of this dtype (deprecated in PyTorch: prefer untyped_storage)."""
        global _typed_storage_warned
        if not _typed_storage_warned:
            _typed_storage_warned = True
            import warnings
            warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will "
                          "be the only storage class. This should only matter to you if you are using storages "
                          "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead "
                          "of tensor.storage()", UserWarning, stacklevel=2)
        return TypedStorage(self._storage._flat, self._device)

    def data_ptr(self):
        """Address of element 0: the storage's address plus offset * element size."""
        return self._storage.data_ptr() + self._offset * self._array.itemsize

    def get_device(self):
        return -1 if self.device.type == "cpu" else self.device.index

    @property
    def _version_counter(self):
        """The in-place write counter shared with views (made on first use: most tensors never need it)."""
        counter = self._version_slot
        if counter is None:
            counter = self._version_slot = _VersionCounter()
        return counter

    @property
    def _version(self):
        return self._version_counter.value

    def _bump_version(self):
        self._version_counter.value += 1

    def is_set_to(self, other):
        return (self._storage._flat is other._storage._flat and self._offset == other._offset
                and self._shape == other._shape and self._stride == other._stride)

    # -- autograd fields (the engine lives in tensorlab/autograd) ---------------------------------
    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        """Ask autograd to record operations on this leaf (only floating-point and complex tensors can)."""
        if self._grad_fn is not None and not requires_grad:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if requires_grad and not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def volatile(self):
        """Gone since PyTorch 0.4 (``no_grad()`` replaced it): always False, with PyTorch's warning."""
        import warnings
        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
        return False

    @property
    def is_leaf(self):
        """Leaves are tensors the user made (or that need no grad); only leaves get ``.grad``."""
        return self.grad_fn is None

    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf). See course/07_the_backward_graph."""
        if self._view_version is not None and self._view_version != self._version_counter.value:
            from .autograd.inplace import refresh_view
            refresh_view(self)  # a view whose base was modified in place since gets a fresh history
        return self._grad_fn

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def grad(self):
        """The gradient accumulated by backward (leaves, and non-leaves that called retain_grad())."""
        if self._grad_fn is not None and not self._retains_grad:
            import warnings
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
                "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
                "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
                "instead. See github.com/pytorch/pytorch/pull/30531 for more information.",
                UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value.dtype is not self.dtype:
                raise RuntimeError("assigned grad has data of a different type")
            if value.device != self.device:
                raise RuntimeError("assigned grad has data located on a different device")
            if value._shape != self._shape:
                raise RuntimeError("assigned grad has data of a different size")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute d(self)/d(leaf) for every leaf in self's graph and add it to ``leaf.grad``.
        See course/06_autograd_basics."""
        from .autograd import backward
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def retain_grad(self):
        """Keep the gradient of this non-leaf tensor in ``.grad`` during backward."""
        from .autograd import hooks
        hooks.retain_grad(self)

    @property
    def retains_grad(self):
        return self._retains_grad

    def register_hook(self, hook):
        """``hook(grad)`` runs when this tensor's gradient is computed; it may return a replacement.
        Returns a handle whose ``remove()`` unregisters it. See tensorlab/autograd/hooks.py."""
        from .autograd import hooks
        return hooks.register_tensor_hook(self, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """``hook(tensor)`` runs after backward has written this leaf's ``.grad``."""
        from .autograd import hooks
        return hooks.register_post_accumulate_grad_hook(self, hook)

    @property
    def data(self):
        """The same memory, untracked: no history, no requires_grad, and its own version counter
        (so changes through ``.data`` escape the in-place checks -- prefer ``detach()``)."""
        alias = object.__new__(Tensor)
        alias._init(self._storage, self._offset, self._shape, self._stride, self._array)
        return alias

    @data.setter
    def data(self, new):
        if not isinstance(new, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(new).__name__}")
        self._storage, self._offset = new._storage, new._offset
        self._shape, self._stride, self._array = new._shape, new._stride, new._array

    @property
    def is_inference(self):
        return False


def _dim_of(t, dim):
    """``dim`` for ``size(dim)``/``stride(dim)``: a 0-d tensor has no dims to ask about."""
    if not t._shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _layout.normalize_dim(dim, len(t._shape))


_CONTIGUOUS = {}


def _contiguous_strides(shape):
    """``_layout.contiguous_strides``, remembered per shape: results of the same shape are made over
    and over in a training loop."""
    strides = _CONTIGUOUS.get(shape)
    if strides is None:
        if len(_CONTIGUOUS) > 4096:
            _CONTIGUOUS.clear()
        strides = _CONTIGUOUS[shape] = _layout.contiguous_strides(shape)
    return strides


def _flat_buffer_of(array, xp):
    """(flat, offset, strides) for an array that is not row-major: share its memory if dense, else copy.

    NumPy keeps the memory order of its inputs (``exp`` of a transposed matrix is column-major) --
    as PyTorch does -- so a result may be a permutation of a contiguous block.
    """
    item = array.itemsize
    strides = tuple(s // item for s in array.strides)
    dense = all(s >= 0 and s % item == 0 for s in array.strides) and array.size > 0 and (
        1 + sum((n - 1) * s for n, s in zip(array.shape, strides)) == array.size)
    if not dense:
        array = xp.ascontiguousarray(array)
        return array.reshape(-1), 0, _layout.contiguous_strides(array.shape)
    flat = xp.lib.stride_tricks.as_strided(array, (array.size,), (item,))
    return flat, 0, strides
