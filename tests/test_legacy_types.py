"""The legacy tensor types (tensorlab/_tensor_types.py): ``torch.FloatTensor([0.1, 1.0])``,
``torch.LongTensor(3)``, ``x.type(torch.DoubleTensor)``, ``isinstance(x, torch.FloatTensor)`` -- compared
with PyTorch on what is made (dtype, shape, values unless uninitialised), what is refused, and how."""
import warnings

import numpy as np
import pytest

import tensorlab

TYPES = ["FloatTensor", "DoubleTensor", "HalfTensor", "ByteTensor", "CharTensor", "ShortTensor", "IntTensor",
         "LongTensor", "BoolTensor"]

CALLS = [  # (call, uninitialised?)
    ("T([0.1, 1.0])", False), ("T([[1, 2], [3, 4]])", False), ("T((2, 3))", False), ("T(range(3))", False),
    ("T(np.array([1, 2]))", False), ("T([])", False), ("T()", False), ("T(2, 3)", True),
    ("T(lib.Size([2, 3]))", True), ("T(0)", True), ("T(-1)", False), ("T(2.5)", False), ("T(None)", False),
    ("T('ab')", False), ("T(lib.tensor([1., 2.]))", False), ("T(lib.tensor([1, 2]))", False),
    ("T(lib.tensor([True]))", False), ("T(device='cpu')", False), ("T([1], device='cpu')", False),
]


def _outcome(lib, type_name, call, uninitialised):
    T = getattr(lib, type_name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = eval(call, {"lib": lib, "T": T, "np": np})
    except Exception as e:  # noqa: BLE001 - the error is the outcome
        return type(e).__name__, str(e).split("\n")[0]
    seen = (type(t).__name__, str(t.dtype), tuple(t.shape), t.type(), isinstance(t, T))
    return seen if uninitialised else seen + (t.tolist(),)


@pytest.mark.parametrize("type_name", TYPES)
@pytest.mark.parametrize("call, uninitialised", CALLS, ids=[c for c, _ in CALLS])
def test_constructors_match_pytorch(torch, type_name, call, uninitialised):
    assert _outcome(tensorlab, type_name, call, uninitialised) == _outcome(torch, type_name, call, uninitialised)


@pytest.mark.parametrize("type_name", TYPES)
def test_isinstance_asks_dtype_and_device_as_pytorch(torch, type_name):
    for dtype in ["float32", "float64", "int64", "int32", "uint8", "bool", "float16"]:
        ours = isinstance(tensorlab.zeros(2, dtype=getattr(tensorlab, dtype)), getattr(tensorlab, type_name))
        theirs = isinstance(torch.zeros(2, dtype=getattr(torch, dtype)), getattr(torch, type_name))
        assert ours == theirs, dtype
    assert isinstance(tensorlab.nn.Parameter(tensorlab.ones(2)), tensorlab.FloatTensor)
    assert not isinstance([1.0], tensorlab.FloatTensor)


@pytest.mark.parametrize("type_name", TYPES)
def test_type_converts_and_names_as_pytorch(torch, type_name):
    for lib in (tensorlab, torch):
        x = lib.tensor([1.5, -2.0, 0.0])
        by_type, by_name = x.type(getattr(lib, type_name)), x.type("torch." + type_name)
        assert by_type.type() == by_name.type() == "torch." + type_name
        assert lib.typename(getattr(lib, type_name)) == "torch." + type_name
    ours = tensorlab.tensor([1.5, -2.0, 0.0]).type(getattr(tensorlab, type_name))
    theirs = torch.tensor([1.5, -2.0, 0.0]).type(getattr(torch, type_name))
    assert ours.tolist() == theirs.tolist() and str(ours.dtype) == str(theirs.dtype)


def test_the_types_themselves_look_like_pytorchs(torch):
    F, G = tensorlab.FloatTensor, torch.FloatTensor
    assert repr(F) == repr(G).replace("torch", "tensorlab") and repr(type(F)) == "<class 'tensorlab.tensortype'>"
    assert F.dtype is tensorlab.float32 and F.is_cuda is G.is_cuda is False
    assert not issubclass(F, tensorlab.Tensor) and not issubclass(G, torch.Tensor)
    assert F.zero_ is tensorlab.Tensor.zero_  # a type's methods are Tensor's
    assert repr(tensorlab.cuda.LongTensor) == "<class 'tensorlab.cuda.LongTensor'>"
    assert tensorlab.cuda.LongTensor.is_cuda and tensorlab.cuda.LongTensor.dtype is tensorlab.int64
    x = tensorlab.ones(3)
    assert tensorlab.FloatTensor(x) is x  # the same tensor, not a copy


def test_typename_as_pytorch(torch):
    import torch.nn  # noqa: F401
    for lib in (tensorlab, torch):
        assert lib.typename(lib.ones(2)) == "torch.FloatTensor"
        assert lib.typename(3) == "int"
    assert tensorlab.typename(tensorlab.nn.Linear(1, 1)) == torch.typename(torch.nn.Linear(1, 1)).replace(
        "torch", "tensorlab")


def test_set_default_tensor_type_warns_once_and_sets_the_default_dtype(torch):
    import tensorlab._tensor_types as types
    types._warned = False
    with pytest.warns(UserWarning, match="set_default_tensor_type\\(\\) is deprecated"):
        tensorlab.set_default_tensor_type(tensorlab.DoubleTensor)
    for lib in (tensorlab, torch):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # the second time: no warning (PyTorch warns once)
                if lib is torch:
                    warnings.simplefilter("ignore")
                lib.set_default_tensor_type(lib.DoubleTensor)
            assert lib.get_default_dtype() is lib.float64 and lib.tensor([1.5]).dtype is lib.float64
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with pytest.raises(TypeError, match="only floating-point types are supported"):
                    lib.set_default_tensor_type(lib.LongTensor)
        finally:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lib.set_default_tensor_type("torch.FloatTensor")
        assert lib.get_default_dtype() is lib.float32
