"""What a tensor *is*, checked against PyTorch: Size, dims, dtype and device, strides and storage,
data_ptr, conversions to Python and NumPy (shared memory), DLPack, dtype/device objects, ``to``."""
import operator
import warnings

import numpy as np
import pytest

import tensorlab
from tests.tensor_core_oracle import raises_like, values


def both(torch, data, dtype=None):
    return tensorlab.tensor(data, dtype=dtype and getattr(tensorlab, dtype)), \
        torch.tensor(data, dtype=dtype and getattr(torch, dtype))


# -- Size ---------------------------------------------------------------------------------------------


def test_size_behaves_like_torch_size(torch):
    ours, theirs = tensorlab.zeros(2, 3, 4).shape, torch.zeros(2, 3, 4).shape
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)
    assert isinstance(ours, tuple) and ours == (2, 3, 4)
    assert ours.numel() == theirs.numel() and ours[:-1].numel() == theirs[:-1].numel() == 6
    for piece in [ours[1:], ours + (5,), (1,) + ours, ours * 2, 2 * ours[:1], ours[::-1]]:
        assert isinstance(piece, tensorlab.Size)
    assert repr(ours[1:]) == repr(theirs[1:]) and repr(tensorlab.Size([])) == repr(torch.Size([]))
    assert tensorlab.Size([]).numel() == 1 and ours[0] == 2 and isinstance(ours[0], int)
    raises_like(lambda: torch.Size([2.5]), lambda: tensorlab.Size([2.5]))
    assert tensorlab.Size(np.array([2, 3])) == (2, 3)


def test_dims_and_counts(torch):
    for shape in [(), (0,), (3,), (2, 0, 4), (2, 3, 4)]:
        a, b = tensorlab.zeros(shape), torch.zeros(shape)
        assert (a.dim(), a.ndim, a.ndimension(), a.numel(), a.nelement()) == \
            (b.dim(), b.ndim, b.ndimension(), b.numel(), b.nelement())
        assert a.size() == b.size() and a.shape == b.shape
    a, b = tensorlab.zeros(2, 3, 4), torch.zeros(2, 3, 4)
    assert [a.size(d) for d in range(-3, 3)] == [b.size(d) for d in range(-3, 3)]
    assert [a.stride(d) for d in range(-3, 3)] == [b.stride(d) for d in range(-3, 3)]
    assert tensorlab.numel(a) == 24 and tensorlab.is_tensor(a) and not tensorlab.is_tensor([1])
    raises_like(lambda: b.size(3), lambda: a.size(3))
    raises_like(lambda: torch.zeros(()).stride(1), lambda: tensorlab.zeros(()).stride(1))


# -- memory: strides, offsets, data_ptr, storage ----------------------------------------------------------

VIEWS = {
    "base": lambda x: x,
    "row": lambda x: x[1],
    "column": lambda x: x[:, 2],
    "transposed": lambda x: x.t(),
    "stepped": lambda x: x[1:, ::2],
    "expanded": lambda x: x[:1].expand(4, 4),
    "scalar": lambda x: x[2, 3],
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int16", "uint8", "bool", "float16"])
@pytest.mark.parametrize("view", list(VIEWS))
def test_memory_attributes_match_torch(torch, view, dtype):
    data = np.arange(12).reshape(3, 4) % 5
    base_ours, base_torch = both(torch, data.tolist(), dtype)
    a, b = VIEWS[view](base_ours), VIEWS[view](base_torch)
    assert a.stride() == b.stride() and a.storage_offset() == b.storage_offset()
    assert a.is_contiguous() == b.is_contiguous()
    assert a.element_size() == b.element_size() and a.itemsize == b.itemsize and a.nbytes == b.nbytes
    assert a.data_ptr() - base_ours.data_ptr() == b.data_ptr() - base_torch.data_ptr()
    assert a.data_ptr() == base_ours.data_ptr() + a.storage_offset() * a.element_size()
    ua, ub = a.untyped_storage(), b.untyped_storage()
    assert ua.data_ptr() == base_ours.data_ptr() and ua.nbytes() == ub.nbytes() and len(ua) == len(ub)
    assert ua.tolist() == ub.tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sa, sb = a.storage(), b.storage()
    assert len(sa) == len(sb) and sa.size() == sb.size() and sa.tolist() == sb.tolist()
    assert sa.data_ptr() == ua.data_ptr() and str(sa.dtype) == str(sb.dtype)
    assert sa.element_size() == sb.element_size()
    assert str(a.dtype) == str(b.dtype) and a.tolist() == b.tolist()


def test_storage_repr_and_write_through(torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert repr(tensorlab.tensor([1, 2]).storage()) == repr(torch.tensor([1, 2]).storage())
        assert repr(tensorlab.tensor([1.5, 2.0]).storage()) == repr(torch.tensor([1.5, 2.0]).storage())
        assert repr(tensorlab.tensor([1], dtype=tensorlab.int16).untyped_storage()) == \
            repr(torch.tensor([1], dtype=torch.int16).untyped_storage())
        x = tensorlab.arange(6.0).view(2, 3)
        s = x[1].storage()
        s[0] = 100.0
    assert x[0, 0].item() == 100.0 and list(s)[:2] == [100.0, 1.0]


def test_typed_storage_warns_once_like_torch():
    import sys
    sys.modules["tensorlab.tensor"]._typed_storage_warned = False
    with pytest.warns(UserWarning, match="TypedStorage is deprecated"):
        tensorlab.zeros(2).storage()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tensorlab.zeros(2).storage()


# -- Python conversions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("data,dtype", [(2.5, None), (3, None), (True, None), ([[7]], None), (1.0, "float16"),
                                        (200, "uint8"), (-3, "int8"), ([0.0], None)])
def test_item_tolist_and_python_conversions(torch, data, dtype):
    a, b = both(torch, data, dtype)
    assert a.item() == b.item() and type(a.item()) is type(b.item())
    assert a.tolist() == b.tolist() and type(a.tolist()) is type(b.tolist())
    for convert in (int, float, bool, complex):
        assert convert(a) == convert(b)
    if not a.dtype.is_floating_point:
        assert operator.index(a) == operator.index(b)
        assert list(range(300))[a] == list(range(300))[b]


CONVERSION_ERRORS = {
    "item_many": lambda L: L.zeros(2).item(),
    "item_empty": lambda L: L.zeros(0).item(),
    "float_many": lambda L: float(L.zeros(2)),
    "int_many": lambda L: int(L.zeros(2, 2)),
    "bool_many": lambda L: bool(L.zeros(2)),
    "bool_empty": lambda L: bool(L.zeros(0)),
    "index_float": lambda L: [1, 2, 3][L.tensor(1.0)],
    "index_many": lambda L: [1, 2, 3][L.tensor([1, 1])],
    "len_0d": lambda L: len(L.tensor(1.0)),
    "iter_0d": lambda L: iter(L.tensor(1.0)),
    "numpy_grad": lambda L: L.ones(2, requires_grad=True).numpy(),
    "array_grad": lambda L: np.asarray(L.ones(2, requires_grad=True)),
    "dlpack_grad": lambda L: L.ones(2, requires_grad=True).__dlpack__(),
    "requires_grad_int": lambda L: L.arange(3).requires_grad_(),
}


@pytest.mark.parametrize("case", list(CONVERSION_ERRORS))
def test_conversion_errors_match_torch(torch, case):
    raises_like(lambda: CONVERSION_ERRORS[case](torch), lambda: CONVERSION_ERRORS[case](tensorlab))


def test_len_and_iteration_like_torch(torch):
    a = tensorlab.arange(6.0).view(3, 2).requires_grad_(False)
    assert len(a) == 3 and len(tensorlab.zeros(0, 2)) == 0
    rows = list(a)
    assert [r.tolist() for r in rows] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert all(r.data_ptr() == a.data_ptr() + 2 * i * 4 for i, r in enumerate(rows))
    x = tensorlab.ones(2, 2, requires_grad=True) * 1
    assert [r.grad_fn.name() for r in x] == [r.grad_fn.name() for r in torch.ones(2, 2, requires_grad=True) * 1]


# -- NumPy and DLPack: shared memory ---------------------------------------------------------------------


def test_numpy_shares_memory_both_ways():
    t = tensorlab.arange(6.0).view(2, 3)
    a = t.numpy()
    a[0, 1] = -1.0
    assert t[0, 1].item() == -1.0
    t[1, 2] = 9.0
    assert a[1, 2] == 9.0
    col = t[:, 1].numpy()
    assert np.shares_memory(col, a) and col.strides == (12,)
    assert np.shares_memory(np.asarray(t), a)
    assert np.array(t, dtype=np.int64).dtype == np.int64
    assert t.detach().numpy().base is not None or np.shares_memory(t.detach().numpy(), a)
    g = tensorlab.ones(2, requires_grad=True)
    assert np.shares_memory(g.numpy(force=True), g.detach().numpy())


def test_dlpack_round_trips_without_copies(torch):
    ours = tensorlab.arange(12.0).view(3, 4)[:, 1:3]
    assert ours.__dlpack_device__() == tuple(torch.zeros(1).__dlpack_device__())
    theirs = torch.from_dlpack(ours)
    assert tuple(theirs.shape) == tuple(ours.shape) and theirs.stride() == ours.stride()
    theirs[0, 0] = 100.0
    assert ours[0, 0].item() == 100.0
    arr = np.from_dlpack(ours)
    arr[2, 1] = -5.0
    assert ours[2, 1].item() == -5.0
    # and the other way: tensorlab.from_dlpack of NumPy and torch objects shares their memory
    source = np.arange(6.0).reshape(2, 3)
    back = tensorlab.from_dlpack(source)
    back[0, 0] = 42.0
    assert source[0, 0] == 42.0
    t = torch.arange(6.0).view(2, 3).t()
    mine = tensorlab.from_dlpack(t)
    assert mine.stride() == t.stride()
    mine[1, 0] = 7.0
    assert t[1, 0].item() == 7.0


# -- dtypes ---------------------------------------------------------------------------------------------

DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"]
ALIASES = {"half": "float16", "float": "float32", "double": "float64", "short": "int16", "int": "int32",
           "long": "int64"}


def test_dtype_objects_match_torch(torch):
    for name in DTYPES:
        ours, theirs = getattr(tensorlab, name), getattr(torch, name)
        assert repr(ours) == repr(theirs) and str(ours) == str(theirs)
        assert (ours.is_floating_point, ours.is_signed, ours.itemsize, ours.is_complex) == \
            (theirs.is_floating_point, theirs.is_signed, theirs.itemsize, theirs.is_complex)
    for alias, name in ALIASES.items():
        assert getattr(tensorlab, alias) is getattr(tensorlab, name)


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_promote_types_and_can_cast_match_torch(torch, a, b):
    ours = tensorlab.promote_types(getattr(tensorlab, a), getattr(tensorlab, b))
    assert str(ours) == str(torch.promote_types(getattr(torch, a), getattr(torch, b)))
    assert tensorlab.can_cast(getattr(tensorlab, a), getattr(tensorlab, b)) == \
        torch.can_cast(getattr(torch, a), getattr(torch, b))


@pytest.mark.parametrize("operands", [
    ("t:int64", 2.5), ("t:int32", 7), ("t:float16", "0:float64"), ("t:uint8", True), ("0:int64", "t:int8"),
    ("t:bool", 3), ("t:bool", "0:float64"), (2, 3.0), ("0:int32", "0:int64"), ("t:int16", "t:uint8"),
])
def test_result_type_matches_torch(torch, operands):
    def build(L, spec):
        if not isinstance(spec, str):
            return spec
        kind, dtype = spec.split(":")
        return L.ones((2,) if kind == "t" else (), dtype=getattr(L, dtype))
    ours = tensorlab.result_type(*[build(tensorlab, s) for s in operands])
    theirs = torch.result_type(*[build(torch, s) for s in operands])
    assert str(ours) == str(theirs)


def test_finfo_and_iinfo_match_torch(torch):
    for name in ["float16", "float32", "float64"]:
        a, b = tensorlab.finfo(getattr(tensorlab, name)), torch.finfo(getattr(torch, name))
        assert (a.bits, a.eps, a.max, a.min, a.tiny, a.resolution) == (b.bits, b.eps, b.max, b.min, b.tiny,
                                                                          b.resolution)
        assert repr(a) == repr(b)
    for name in ["int8", "int16", "int32", "int64", "uint8"]:
        a, b = tensorlab.iinfo(getattr(tensorlab, name)), torch.iinfo(getattr(torch, name))
        assert (a.bits, a.max, a.min) == (b.bits, b.max, b.min) and repr(a) == repr(b)
    assert tensorlab.finfo().eps == torch.finfo().eps
    raises_like(lambda: torch.iinfo(torch.float32), lambda: tensorlab.iinfo(tensorlab.float32))
    raises_like(lambda: torch.finfo(torch.int32), lambda: tensorlab.finfo(tensorlab.int32))


def test_default_dtype_controls_python_floats(torch):
    assert tensorlab.get_default_dtype() is tensorlab.float32
    tensorlab.set_default_dtype(tensorlab.float64)
    assert tensorlab.tensor([1.5]).dtype is tensorlab.float64
    assert tensorlab.zeros(2).dtype is tensorlab.float64
    assert tensorlab.arange(0.0, 1.0, 0.5).dtype is tensorlab.float64
    assert (tensorlab.tensor([1, 2]) * 0.5).dtype is tensorlab.float64
    assert tensorlab.tensor([1, 2]).dtype is tensorlab.int64
    raises_like(lambda: torch.set_default_dtype(torch.int64), lambda: tensorlab.set_default_dtype(tensorlab.int64))


# -- devices ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [("cpu",), ("cuda",), ("cuda:1",), ("cuda", 0), ("cpu", 0)])
def test_device_objects_match_torch(torch, args):
    a, b = tensorlab.device(*args), torch.device(*args)
    assert repr(a) == repr(b) and str(a) == str(b) and (a.type, a.index) == (b.type, b.index)
    assert a == tensorlab.device(*args) and hash(a) == hash(tensorlab.device(*args))
    assert (a == "cpu") == (b == "cpu")


@pytest.mark.parametrize("arg", ["gpu", "cuda:x", "cuda:-1", "cuda:1:2"])
def test_device_errors_match_torch(torch, arg):
    raises_like(lambda: torch.device(arg), lambda: tensorlab.device(arg))


def test_tensor_device_attributes(torch):
    a, b = tensorlab.zeros(2), torch.zeros(2)
    assert repr(a.device) == repr(b.device) and a.is_cpu and not a.is_cuda and a.get_device() == b.get_device()
    assert tensorlab.zeros(2, device=tensorlab.device("cpu")).device == a.device


# -- to() and friends ----------------------------------------------------------------------------------

TO_CASES = [
    "x.to(L.float64)", "x.to('cpu')", "x.to(L.float32)", "x.to(L.float32, copy=True)", "x.to(dtype=L.int32)",
    "x.to('cpu', L.float64)", "x.to(L.device('cpu'), dtype=L.float16)", "x.to(L.tensor([1]))",
    "x.to(non_blocking=True)", "x.float()", "x.double()", "x.half()", "x.int()", "x.long()", "x.short()",
    "x.char()", "x.byte()", "x.bool()", "x.type(L.float64)", "x.type('torch.DoubleTensor')",
    "x.type('torch.IntTensor')", "x.type_as(L.tensor([1]))", "x.cpu()", "x.t().double()", "x[:, ::2].double()",
]


@pytest.mark.parametrize("expr", TO_CASES)
def test_to_matches_torch(torch, expr):
    results = []
    for L in (tensorlab, torch):
        x = L.tensor([[1.5, -2.0, 3.0], [4.0, 5.25, -6.5]])
        out = eval(expr, {"L": L, "x": x})
        results.append((str(out.dtype), tuple(out.shape), out.stride(), out.tolist(), out is x,
                        out.data_ptr() == x.data_ptr()))
    assert results[0] == results[1]


def test_type_names_and_errors_match_torch(torch):
    for dtype in DTYPES:
        assert tensorlab.zeros(1, dtype=getattr(tensorlab, dtype)).type() == \
            torch.zeros(1, dtype=getattr(torch, dtype)).type()
    raises_like(lambda: torch.zeros(1).type("torch.Foo"), lambda: tensorlab.zeros(1).type("torch.Foo"))
    raises_like(lambda: torch.zeros(1).to("foo"), lambda: tensorlab.zeros(1).to("foo"))


def test_to_records_tocopy_and_gradients_flow_back(torch):
    grads = []
    for L in (tensorlab, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x.to(L.float64)
        assert y.grad_fn.name() == "ToCopyBackward0" and x.to(L.float32) is x
        (y * y).sum().backward()
        grads.append((str(x.grad.dtype), x.grad.tolist()))
    assert grads[0] == grads[1]
    assert str(tensorlab.ones(2, requires_grad=True).to(tensorlab.int64).requires_grad) == "False"


def test_floating_point_queries(torch):
    for dtype in DTYPES:
        a, b = tensorlab.zeros(1, dtype=getattr(tensorlab, dtype)), torch.zeros(1, dtype=getattr(torch, dtype))
        assert a.is_floating_point() == b.is_floating_point() == tensorlab.is_floating_point(a)
        assert a.is_complex() == b.is_complex()


def test_a_0_dim_cpu_tensor_goes_with_a_tensor_on_another_device_in_either_order():
    """PyTorch lets a 0-dim CPU tensor (a scalar) join an op on any device, first or second; other
    CPU tensors may not. Checked on device_of itself, with a stand-in storage on "cuda"."""
    import types
    from tensorlab.ops._util import device_of
    cuda = tensorlab.device("cuda")
    on_gpu = tensorlab.ones(3)
    on_gpu._storage = types.SimpleNamespace(device=cuda)
    scalar, vector = tensorlab.tensor(2.0), tensorlab.ones(3)
    assert device_of(scalar, on_gpu) == cuda and device_of(on_gpu, scalar) == cuda
    assert device_of(scalar, tensorlab.tensor(1.0)).type == "cpu"
    for pair in ((vector, on_gpu), (on_gpu, vector), (scalar, on_gpu, vector)):
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            device_of(*pair)


def test_creating_on_cuda_without_cupy_says_what_a_cpu_build_of_pytorch_says(torch):
    if tensorlab.cuda.is_available() or torch.cuda.is_available():
        pytest.skip("a GPU is available here")
    for m in (tensorlab, torch):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            m.zeros(2, device="cuda")
    assert tensorlab.cuda.device_count() == 0


def test_pytorchs_constants_are_plain_python_numbers():
    import math
    assert (tensorlab.pi, tensorlab.e, tensorlab.inf, tensorlab.newaxis) == (math.pi, math.e, math.inf, None)
    assert math.isnan(tensorlab.nan) and type(tensorlab.pi) is float
