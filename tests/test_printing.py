"""Tensor printing is compared character for character with PyTorch's, on the same NumPy data."""
import math
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab
from tensorlab import _printing

pytestmark = pytest.mark.torch

NAN, INF = float("nan"), float("inf")


@pytest.fixture(autouse=True)
def _default_print_options():
    """Every test starts and ends with the default options, in both libraries."""
    tensorlab.set_printoptions(profile="default")
    yield
    tensorlab.set_printoptions(profile="default")
    try:
        import torch as real_torch
        real_torch.set_printoptions(profile="default")
    except ImportError:
        pass


def same_repr(torch, array, requires_grad=False):
    """repr of the same data in both libraries (asserted equal, returned for extra checks)."""
    array = np.asarray(array)
    ours = tensorlab.tensor(array.copy(), requires_grad=requires_grad)
    theirs = torch.tensor(array.copy(), requires_grad=requires_grad)
    assert repr(ours) == repr(theirs), f"\nours:   {ours!r}\ntorch:  {theirs!r}"
    assert str(ours) == str(theirs)
    return repr(ours)


FLOAT_CASES = [
    [1.0, 2.0], [1.5, 2.25], [-1.5, 2.0, 3.125], [0.1, 0.2, 0.3], [1e10, 1.0], [1e-5, 1.0], [1e-5, 2e-5],
    [123456789.0, 1.0], [1e8, 2e8], [1e9], [1000.0, 1.0], [1001.0, 1.0], [1000.5, 1.0], [0.0, 0.0], [0.0],
    [NAN, 1.0], [INF, -INF, 1.0], [NAN, INF, -INF], [NAN, 1.5], [INF, 0.25], [-0.0, 1.0], [-0.0, 0.0],
    [1e-4, 1.0], [9.99999, 1.0], [99999.5, 1.0], [-123.456, 7.0], [1e20, -1e-20], [3.0, -4.0, 1e5],
    [2 ** 30, 1.0], [1e100, 1.0], [1e-100, 1.0], [0.00011, 0.5], [12345.6789],
]


@pytest.mark.parametrize("values", FLOAT_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_vectors_print_like_torch(torch, values, dtype):
    with np.errstate(over="ignore"):  # 1e100 becomes inf in float32, as in PyTorch
        same_repr(torch, np.array(values, dtype=dtype))


@pytest.mark.parametrize("values", [1.0, -2.5, 0.0, -0.0, NAN, INF, -INF, 1e10, 1e-7, 123.456, 3.0])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_zero_dim_floats(torch, values, dtype):
    with np.errstate(over="ignore"):
        same_repr(torch, np.array(values, dtype=dtype))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "bool"])
def test_integer_and_bool_tensors(torch, dtype, rng):
    for shape in [(), (5,), (3, 4), (2, 3, 4)]:
        same_repr(torch, rng.integers(-128 if dtype != "uint8" else 0, 128, size=shape).astype(dtype))
    same_repr(torch, np.array([-1000, 5, 123456], dtype="int64"))


def test_float16_vectors(torch):
    same_repr(torch, np.array([1.0, 2.5, -3.0, 65504.0], dtype="float16"))
    same_repr(torch, np.array([0.1, 0.001, 7.0], dtype="float16"))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "int32"])
def test_empty_tensors_show_size_and_dtype(torch, shape, dtype):
    same_repr(torch, np.zeros(shape, dtype=dtype))


def test_matrices_align_columns_and_nest_brackets(torch, rng):
    same_repr(torch, rng.standard_normal((3, 4)).astype("float32"))
    same_repr(torch, rng.standard_normal((2, 3, 4)) * 100)
    same_repr(torch, rng.standard_normal((2, 2, 2, 3)).astype("float32"))
    same_repr(torch, np.arange(24.0).reshape(2, 3, 4))
    same_repr(torch, (rng.standard_normal((4, 3)) * 1e6).astype("float32"))


@pytest.mark.parametrize("n", [20, 30, 100, 999, 1000])
def test_long_vectors_wrap_at_linewidth(torch, rng, n):
    same_repr(torch, rng.standard_normal(n).astype("float32"))
    same_repr(torch, np.arange(n))


@pytest.mark.parametrize("shape", [(1001,), (2000,), (2, 1000), (1000, 2), (10, 10, 11), (7, 7, 7, 7), (3, 400)])
def test_large_tensors_are_summarized(torch, rng, shape):
    text = same_repr(torch, rng.standard_normal(shape).astype("float32"))
    assert "..." in text
    same_repr(torch, np.arange(math.prod(shape)).reshape(shape))


def test_summary_format_ignores_hidden_values(torch):
    """Only the printed edges decide the format: a huge hidden value must not force sci mode."""
    values = np.ones(2000, dtype="float32")
    values[1000] = 1e12
    same_repr(torch, values)


def test_non_default_dtype_suffix_follows_default_dtype(torch):
    same_repr(torch, np.array([1.0, 2.0], dtype="float64"))
    previous = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float64)
        tensorlab.set_default_dtype(tensorlab.float64)
        same_repr(torch, np.array([1.0, 2.0], dtype="float64"))
        same_repr(torch, np.array([1.0, 2.0], dtype="float32"))
        same_repr(torch, np.zeros((0,), dtype="float32"))
    finally:
        torch.set_default_dtype(previous)


def test_requires_grad_and_grad_fn_suffixes(torch, rng):
    data = rng.standard_normal((2, 3))
    same_repr(torch, data, requires_grad=True)
    same_repr(torch, np.array(2.5), requires_grad=True)
    ours = tensorlab.tensor(data, requires_grad=True).flip(0)
    theirs = torch.tensor(data, requires_grad=True).flip(0)
    assert repr(ours) == repr(theirs)
    assert "grad_fn=<FlipBackward0>" in repr(ours)
    ours32 = tensorlab.tensor(data.astype("float32"), requires_grad=True).sum()
    theirs32 = torch.tensor(data.astype("float32"), requires_grad=True).sum()
    assert repr(ours32) == repr(theirs32)


def test_suffixes_move_to_a_new_line_when_the_line_is_full(torch, rng):
    data = rng.standard_normal(7) * 1000  # a line of ~70 characters, then a float64 dtype suffix
    same_repr(torch, data, requires_grad=True)
    same_repr(torch, rng.standard_normal((3, 7)), requires_grad=True)


@pytest.mark.parametrize("options", [
    dict(precision=2), dict(precision=8), dict(precision=0), dict(threshold=5), dict(edgeitems=1, threshold=10),
    dict(linewidth=40), dict(linewidth=200), dict(sci_mode=True), dict(sci_mode=False), dict(profile="short"),
    dict(profile="full"), dict(edgeitems=0, threshold=3), dict(profile="short", precision=6),
])
def test_print_options(torch, rng, options):
    tensorlab.set_printoptions(**options)
    torch.set_printoptions(**options)
    for array in [rng.standard_normal(12).astype("float32"), rng.standard_normal((4, 5)) * 1e5,
                  np.arange(30.0).reshape(5, 6), np.array([1e-7, 3.0, NAN]), np.arange(20).reshape(4, 5),
                  np.array(3.25), np.zeros(6, dtype="float32"), rng.standard_normal((2, 3, 4)).astype("float32")]:
        same_repr(torch, array)
    assert tensorlab.get_printoptions() == torch._tensor_str.get_printoptions()


def test_set_printoptions_keeps_unset_options_and_resets_sci_mode():
    tensorlab.set_printoptions(precision=2, sci_mode=True)
    tensorlab.set_printoptions(linewidth=50)
    options = tensorlab.get_printoptions()
    assert options["precision"] == 2 and options["linewidth"] == 50 and options["sci_mode"] is None


def test_printoptions_context_manager_restores(torch):
    with _printing.printoptions(precision=1):
        assert repr(tensorlab.tensor([1.25])) == "tensor([1.2])"
    assert repr(tensorlab.tensor([1.25])) == repr(torch.tensor([1.25]))


def test_cuda_device_is_shown():
    """Format only: a tensor whose storage says 'cuda:0' prints the device suffix, as PyTorch does."""
    t = tensorlab.tensor([1.0, 2.0])
    t._storage = types.SimpleNamespace(device=tensorlab.device("cuda", 0), _flat=t._storage._flat)
    assert repr(t) == "tensor([1., 2.], device='cuda:0')"
    i = tensorlab.tensor([1, 2], dtype=tensorlab.int32)
    i._storage = types.SimpleNamespace(device=tensorlab.device("cuda", 0), _flat=i._storage._flat)
    assert repr(i) == "tensor([1, 2], device='cuda:0', dtype=torch.int32)"


def test_non_contiguous_views_print_their_own_elements(torch, rng):
    data = rng.standard_normal((4, 6))
    ours, theirs = tensorlab.tensor(data), torch.tensor(data)
    assert repr(ours.t()) == repr(theirs.t())
    assert repr(ours[:, ::2]) == repr(theirs[:, ::2])
    assert repr(ours.expand(3, 4, 6)) == repr(theirs.expand(3, 4, 6))


def test_return_types_print_like_torch(torch, rng):
    data = rng.permutation(12).reshape(3, 4).astype("float32")
    ours, theirs = tensorlab.tensor(data), torch.tensor(data)
    for name, args in [("sort", (1,)), ("topk", (2,)), ("kthvalue", (2, 0))]:
        a, b = getattr(ours, name)(*args), getattr(theirs, name)(*args)
        assert repr(a) == repr(b) and str(a) == str(b)
        assert type(a).__name__ == type(b).__name__
    leaf_ours = tensorlab.tensor(data, requires_grad=True)
    leaf_theirs = torch.tensor(data, requires_grad=True)
    assert repr(leaf_ours.sort(0)) == repr(leaf_theirs.sort(0))


# -- hypothesis: random data across magnitudes, shapes and dtypes ------------------------------------

_specials = st.sampled_from([0.0, -0.0, NAN, INF, -INF, 1.0, -1.0])


def _floats(width):
    """Float64 values across magnitudes (cast to the narrower dtype afterwards)."""
    finite = dict(allow_nan=False, allow_infinity=False)
    big = 6e4 if width == 16 else 1e30
    return st.one_of(
        st.floats(-1e3, 1e3, **finite),
        st.floats(-big, big, **finite),
        st.floats(-1e-3, 1e-3, **finite),
        st.integers(-10_000, 10_000).map(float),
        _specials,
    )


@st.composite
def _arrays(draw):
    dtype = draw(st.sampled_from(["float32", "float64", "float16", "int64", "int32", "uint8", "bool"]))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6))
    if dtype.startswith("float"):
        values = draw(hnp.arrays("float64", shape, elements=_floats(int(dtype[5:]))))
        with np.errstate(over="ignore", under="ignore"):
            return values.astype(dtype)
    if dtype == "bool":
        elements = st.booleans()
    elif dtype == "uint8":
        elements = st.integers(0, 255)
    else:
        elements = st.integers(-2 ** 31, 2 ** 31 - 1)
    return draw(hnp.arrays(dtype, shape, elements=elements))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(array=_arrays())
def test_random_arrays_print_like_torch(torch, array):
    same_repr(torch, array)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(array=_arrays(), precision=st.integers(0, 6), linewidth=st.integers(20, 120),
       threshold=st.integers(4, 200), edgeitems=st.integers(1, 4))
def test_random_arrays_with_random_options(torch, array, precision, linewidth, threshold, edgeitems):
    options = dict(precision=precision, linewidth=linewidth, threshold=threshold, edgeitems=edgeitems)
    tensorlab.set_printoptions(**options)
    torch.set_printoptions(**options)
    try:
        same_repr(torch, array)
    finally:
        tensorlab.set_printoptions(profile="default")
        torch.set_printoptions(profile="default")


@pytest.mark.parametrize("name", ["max", "min"])
def test_reduction_return_types_print_like_torch(torch, rng, name):
    data = rng.permutation(6).reshape(2, 3).astype("float32")
    ours = getattr(tensorlab, name)(tensorlab.tensor(data, requires_grad=True), 0)
    theirs = getattr(torch, name)(torch.tensor(data, requires_grad=True), 0)
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)


def test_grad_fn_is_printed_by_its_class_name_as_pytorch_does(torch):
    """C++ nodes have a namespaced name() (torch::autograd::CopySlices) but print as their class."""
    printed = []
    for m in (tensorlab, torch):
        x = m.tensor([1., 2.], requires_grad=True)
        y = x.clone()
        y[0].mul_(2)
        z = m.zeros(2)
        z.copy_(x)
        printed.append((repr(y), repr(z), y.grad_fn.name(), z.grad_fn.name()))
    assert printed[0] == printed[1]
    assert printed[0][0] == "tensor([2., 2.], grad_fn=<CopySlices>)"


# -- f-strings and class names -------------------------------------------------------------------------

FORMAT_CASES = [("tensor(7)", ""), ("tensor(7)", "d"), ("tensor(7.123)", ".2f"), ("tensor(7.123)", ""),
                ("tensor(True)", ""), ("tensor(-0.5, requires_grad=True)", ".3f"), ("tensor([1, 2])", ""),
                ("tensor([1., 2.])", ".2f"), ("tensor(2.5, dtype=float64)", "8.3e"),
                ("tensor([[1., 2.]])", ">30"), ("nn.Parameter(tensor(2.))", ""),
                ("nn.Parameter(tensor(2.))", ".1f"), ("tensor(3)", "x")]


@pytest.mark.parametrize("expr, spec", FORMAT_CASES)
def test_format_matches_pytorch(torch, expr, spec):
    """``f"{t}"``: a 0-d tensor formats like its item (``f"{loss:.4f}"`` in every training loop); other
    tensors format as ``str`` and refuse a spec; a Parameter is never formatted as a number."""
    import torch.nn  # noqa: F401
    outcomes = []
    for lib in (tensorlab, torch):
        namespace = {"tensor": lib.tensor, "nn": lib.nn, "float64": lib.float64}
        value = eval(expr, namespace)
        try:
            outcomes.append(format(value, spec))
        except TypeError as e:
            outcomes.append(("TypeError", str(e)))
    assert outcomes[0] == outcomes[1]


def _public_classes(lib, module_names):
    import importlib
    found = {}
    for module_name in module_names:
        module = importlib.import_module(lib.__name__ + module_name)
        for name in dir(module):
            value = getattr(module, name)
            if isinstance(value, type) and not name.startswith("_"):
                found[module_name + "." + name] = value
    return found


def test_classes_print_under_pytorchs_names_with_tensorlab_for_torch(torch):
    """``type(t)`` is ``<class 'tensorlab.Tensor'>`` where PyTorch prints ``<class 'torch.Tensor'>``, and
    ``type(nn.Linear(2, 3))`` is ``tensorlab.nn.modules.linear.Linear`` where PyTorch's is
    ``torch.nn.modules.linear.Linear``: the same path with the library's own name (and files laid out as
    PyTorch's, so the path leads to the class). The one exception, ``torch._C.Generator``, is PyTorch's
    C++ core, which tensorlab has no counterpart for."""
    import torch.optim.lr_scheduler  # noqa: F401
    import torch.utils.data  # noqa: F401
    modules = ["", ".nn", ".optim", ".optim.lr_scheduler", ".utils.data", ".autograd"]
    theirs = _public_classes(torch, modules)
    for key, ours in _public_classes(tensorlab, modules).items():
        if key not in theirs or key == ".Generator" or theirs[key].__module__.startswith("torch._C"):
            continue
        expected = repr(theirs[key]).replace("'torch.", "'tensorlab.")
        assert repr(ours) == expected, key
    assert repr(type(tensorlab.ones(1))) == "<class 'tensorlab.Tensor'>"
    assert repr(tensorlab.Generator) == "<class 'tensorlab.Generator'>"
