"""The code of the three tutorials the course grew from runs on tensorlab.

Each test is one snippet from the tutorials, written as a function of the module it runs on
(``tensorlab`` or ``torch``). It runs on tensorlab always; where PyTorch is installed it also runs on
torch and the printed output must be identical (random snippets compare what does not depend on the
random numbers). Where a tutorial is wrong about modern PyTorch (it says negative slice steps work),
the test pins PyTorch's real behaviour.
"""
import contextlib
import io
from collections import OrderedDict

import numpy as np
import pytest

import tensorlab


def _printed(snippet, module):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        snippet(module)
    return out.getvalue()


def same_output_as_torch(snippet):
    """Run ``snippet`` on tensorlab (it must not fail) and, if torch exists, compare printed text."""
    ours = _printed(snippet, tensorlab)
    try:
        import torch
    except ImportError:
        return ours
    theirs = _printed(snippet, torch)
    assert ours == theirs
    return ours


# -- tensors, storage, views (seed 002) -----------------------------------------------------------

def test_view_shares_storage():
    def snippet(torch):
        x = torch.arange(1, 9)
        y = x.view(2, 4)
        y[0, 0] = 100
        print(x)
        print(y.stride(), x.stride())
        print(x.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
    out = same_output_as_torch(snippet)
    assert "tensor([100,   2,   3,   4,   5,   6,   7,   8])" in out


def test_view_of_transposed_raises_and_reshape_copies():
    def snippet(torch):
        x = torch.tensor(np.arange(6.0).reshape(2, 3)).transpose(0, 1)
        try:
            x.view(6)
        except RuntimeError as e:
            print(str(e).split(" (")[0])
        y = x.reshape(6)
        y[0] = 100
        print(x[0, 0], x.is_contiguous(), y.is_contiguous())
    out = same_output_as_torch(snippet)
    assert "view size is not compatible with input tensor's size and stride" in out


def test_unsqueeze_stride_permute_contiguity():
    def snippet(torch):
        x = torch.tensor([1, 2, 3])
        y = x.unsqueeze(1)
        print(y.shape, y)
        t = torch.zeros(2, 3, 4)
        print(t.stride(), t.stride(1))
        p = t.permute(2, 0, 1)
        print(p.shape, p.stride(), p.is_contiguous())
        b, c, s = 1, 2, 3
        print(b * t.stride()[0] + c * t.stride()[1] + s * t.stride()[2])
    same_output_as_torch(snippet)


def test_creation_functions():
    def snippet(torch):
        print(torch.tensor([1, 2, 3]))
        print(torch.from_numpy(np.array([4, 5, 6], dtype=np.int32)))
        print(torch.zeros(2, 3))
        print(torch.ones(2, 3))
        print(torch.rand(2, 3).shape)
        print(torch.arange(0, 10, 2))
        print(torch.linspace(0, 1, 5))
        print(torch.arange(5), torch.arange(2, 5), torch.arange(0, 1, 0.2))
        print(torch.zeros_like(torch.tensor([[1, 2], [3, 4]])))
        print(torch.full_like(torch.tensor([1.0, 2.0]), 7))
        tensor = torch.rand(2, 3)
        print("Shape:", tensor.shape)
        print("Data type:", tensor.dtype)
        print("Device:", tensor.device)
    same_output_as_torch(snippet)


def test_indexing_and_slicing():
    def snippet(torch):
        tensor = torch.tensor([[1, 2, 3], [4, 5, 6]])
        print(tensor[0, 1])
        print(tensor[:, 1])
        images = torch.zeros(4, 3, 28, 28)
        print(images[:2, :, ::2, ::2].shape)
        x = torch.zeros(2, 5, 7)
        print(x.shape[:-1].numel())
        try:
            tensor[::-1]
        except ValueError as e:  # PyTorch has no negative strides: the tutorial is wrong here
            print("ValueError:", e)
        print(torch.flip(tensor, dims=(0,)))
    out = same_output_as_torch(snippet)
    assert "step must be greater than zero" in out


def test_math_ops():
    def snippet(torch):
        a = torch.tensor([1, 2, 3])
        b = torch.tensor([4, 5, 6])
        print(a + b)
        matrix_a = torch.tensor([[1, 2], [3, 4]])
        matrix_b = torch.tensor([[5, 6], [7, 8]])
        print(torch.matmul(matrix_a, matrix_b))
        print(torch.mm(matrix_a, matrix_b))
        print(torch.cumsum(a, dim=0))
        print(torch.sort(torch.tensor([3, 1, 2]), descending=True))
        print(torch.where(a > 1, a, b))
        print(torch.tensor([1.0, 2.0]) ** 2, a.sum(), a.float().mean())
    same_output_as_torch(snippet)


def test_einsum_examples():
    def snippet(torch):
        A = torch.tensor([[1, 2], [3, 4]])
        B = torch.tensor([[5, 6], [7, 8]])
        print(torch.einsum("ij->ji", A))
        print(torch.einsum("ik,kj->ij", A, B))
        t = torch.tensor([1, 2, 3], dtype=torch.float32)
        inv_freq = torch.tensor([0.1, 0.2], dtype=torch.float32)
        print(torch.einsum("i,j->ij", t, inv_freq))
    same_output_as_torch(snippet)


def test_index_add_scatter_add_and_bincount():
    def snippet(torch):
        x = torch.zeros(5)
        x.index_add_(0, torch.tensor([0, 2, 2]), torch.tensor([1.0, 2.0, 3.0]))
        print(x)
        filtered_experts = torch.tensor([1, 3, 4, 4])
        token_counts = torch.zeros(5, dtype=torch.long)
        token_counts.scatter_add_(0, filtered_experts, torch.ones_like(filtered_experts))
        print(token_counts)
        print(torch.bincount(filtered_experts, minlength=5))
    out = same_output_as_torch(snippet)
    assert "tensor([0, 1, 0, 1, 2])" in out


def test_cat_chunk_broadcast_expand():
    def snippet(torch):
        a = torch.tensor([1, 2, 3])
        b = torch.tensor([4, 5, 6])
        print(torch.cat((a, b), dim=0))
        print(torch.chunk(torch.arange(6), 2))
        m, n = torch.tensor([[1, 2], [3, 4]]), torch.tensor([[5, 6], [7, 8]])
        print(torch.cat((m, n), dim=0))
        print(torch.cat((m, n), dim=1))
        print(torch.cat((m, n), dim=-1))
        print(torch.ones(2, 3) + torch.tensor([1.0, 2.0, 3.0]))
        col = torch.tensor([[1], [2], [3]])
        e = col.expand(-1, 4)
        print(e, e.stride())
    same_output_as_torch(snippet)


def test_device_selection():
    def snippet(torch):
        device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        tensor = torch.tensor([1, 2, 3]).to(device)
        print(tensor.device.type)
    same_output_as_torch(snippet)


# -- autograd (seeds 000, 002, 003) ------------------------------------------------------------------

def test_requires_grad_propagates_and_detach():
    def snippet(torch):
        x, y = torch.randn(5, 5), torch.randn(5, 5)
        z = torch.randn((5, 5), requires_grad=True)
        a = x + y
        b = a + z
        print(a.requires_grad, b.requires_grad)
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        v = w * 2
        d = v.detach()
        print(d.requires_grad, d.grad_fn, v.requires_grad)
        with torch.no_grad():
            print((w * 2).requires_grad)
    same_output_as_torch(snippet)


def test_grad_tensors_for_non_scalar_outputs():
    def snippet(torch):
        x = torch.ones(2, requires_grad=True)
        z = x + 2
        try:
            z.backward()
        except RuntimeError as e:
            print(e)
        z.sum().backward()
        print(x.grad)
        x = torch.ones(2, requires_grad=True)
        z = x + 2
        z.backward(torch.ones_like(z))
        print(x.grad)
    out = same_output_as_torch(snippet)
    assert "grad can be implicitly created only for scalar outputs" in out


def test_mm_backward_with_retain_graph():
    def snippet(torch):
        x = torch.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
        y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        z = torch.mm(x, y)
        print(f"z:{z}")
        z.backward(torch.Tensor([[1.0, 0]]), retain_graph=True)
        print(f"y.grad: {y.grad}")
        z.backward(torch.Tensor([[0.0, 1.0]]))
        print(f"y.grad: {y.grad}")
    out = same_output_as_torch(snippet)
    assert "grad_fn=<MmBackward0>" in out


def test_gradients_accumulate_and_autograd_grad():
    def snippet(torch):
        t1 = torch.tensor(np.arange(9.0).reshape(3, 3), requires_grad=True)
        t2 = t1.pow(2).sum()
        t2.backward()
        print(t1.grad)
        t2 = t1.pow(2).sum()
        t2.backward()
        print(t1.grad)
        print(t1.grad.zero_())
        t2 = t1.pow(2).sum()
        print(torch.autograd.grad(t2, t1))
        print(t1.grad)
    same_output_as_torch(snippet)


def test_second_backward_needs_retain_graph():
    def snippet(torch):
        x = torch.ones(2, 2, requires_grad=True)
        y = x + 2
        z = y * y * 3
        nn_ = torch.ones(2, 2)
        z.backward(gradient=nn_, retain_graph=True)
        torch.autograd.backward(z, grad_tensors=nn_, retain_graph=True)
        print(x.grad)
        torch.autograd.backward(z, grad_tensors=nn_)
        try:
            z.backward(gradient=nn_)
        except RuntimeError as e:
            print(str(e).split(" (")[0])
    out = same_output_as_torch(snippet)
    assert "Trying to backward through the graph a second time" in out


def test_autograd_example_from_seed_003():
    def snippet(torch):
        x = torch.ones(2, 2, requires_grad=True)
        y = x + 2
        z = y * y * 3
        z.backward(torch.ones(2, 2))
        print(x.grad)
        print(x.grad_fn)
        print(y.grad_fn.name(), z.grad_fn.name())
        print(torch.autograd.grad((y * y * 3).sum(), [x], create_graph=True)[0].requires_grad)
    same_output_as_torch(snippet)


def test_next_functions_and_accumulate_grad():
    def snippet(torch):
        x = torch.ones(2, requires_grad=True)
        c = torch.ones(2)
        e = (x * c).sum()
        mul = e.grad_fn.next_functions[0][0]
        print(e.grad_fn.name(), mul.name())
        acc, nothing = mul.next_functions
        print(acc[0].variable is x, nothing)
    same_output_as_torch(snippet)


def test_hooks_give_non_leaf_grads():
    def snippet(torch):
        x = torch.ones(3, requires_grad=True)
        y = x * 2
        seen = []
        y.register_hook(lambda g: seen.append(g.clone()))
        (y * y).sum().backward()
        print(seen[0], y.grad is None if False else "no .grad on non-leaf")
        y2 = x * 3
        y2.retain_grad()
        (y2 * y2).sum().backward()
        print(y2.grad)
    same_output_as_torch(snippet)


def test_custom_function_line():
    def snippet(torch):
        class line(torch.autograd.Function):
            @staticmethod
            def forward(ctx, w, x, b):
                ctx.save_for_backward(w, x, b)
                return w * x + b

            @staticmethod
            def backward(ctx, grad_out):
                w, x, b = ctx.saved_tensors
                return grad_out * x, grad_out * w, grad_out

        w = torch.tensor([[0.3726, 0.2833], [0.9369, 0.4898]], requires_grad=True)
        x = torch.tensor([[0.0617, 0.5303], [0.1750, 0.3860]], requires_grad=True)
        b = torch.tensor([[0.4216, 0.8336], [0.7906, 0.3395]], requires_grad=True)
        out = line.apply(w, x, b)
        out.backward(torch.ones(2, 2))
        print(w, x, b)
        print(w.grad, x.grad, b.grad)
        print(out.grad_fn.name())
    out = same_output_as_torch(snippet)
    assert "lineBackward" in out


def test_inplace_version_check_and_leaf_error():
    def snippet(torch):
        a = torch.ones(3, requires_grad=True)
        try:
            a.add_(1)
        except RuntimeError as e:
            print(e)
        b = a.exp()
        b.add_(1)
        try:
            b.sum().backward()
        except RuntimeError as e:
            print(str(e).split(" Hint")[0])
    out = same_output_as_torch(snippet)
    assert "a leaf Variable that requires grad is being used in an in-place operation." in out


def test_variable_is_tensor():
    from tensorlab.autograd import Variable
    with pytest.warns(UserWarning, match="volatile"):
        v = Variable(tensorlab.ones(2), volatile=True)
    assert isinstance(v, tensorlab.Tensor)
    assert Variable(tensorlab.ones(2), requires_grad=True).requires_grad


# -- nn, training, state_dict (seeds 002, 003) ---------------------------------------------------------

def test_simple_model_training_step():
    def snippet(torch):
        nn, optim = torch.nn, torch.optim

        class SimpleModel(nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = nn.Linear(2, 1)

            def forward(self, x):
                return self.linear(x)

        model = SimpleModel()
        with torch.no_grad():
            model.linear.weight.copy_(torch.tensor([[0.5, -0.25]]))
            model.linear.bias.fill_(0.1)
        criterion = nn.MSELoss()
        optimizer = optim.SGD(model.parameters(), lr=0.01)
        x = torch.tensor([[1.0, 2.0]])
        y_true = torch.tensor([[1.0]])
        y_pred = model(x)
        loss = criterion(y_pred, y_true)
        optimizer.zero_grad()
        loss.backward()
        print(model.linear.weight.grad)
        print(model.linear.bias.grad)
        optimizer.step()
        print(model.linear.weight)
        print(loss.grad_fn.name())
    same_output_as_torch(snippet)


def test_which_layers_have_parameters():
    def snippet(torch):
        nn = torch.nn
        for layer in (nn.Linear(2, 1), nn.Conv2d(1, 1, 3), nn.Sigmoid(), nn.ReLU(), nn.MaxPool2d(2),
                      nn.AvgPool2d(2), nn.BatchNorm2d(3)):
            print(type(layer).__name__, [tuple(p.shape) for p in layer.parameters()])
        for name, param in nn.Linear(2, 1).named_parameters():
            print(f"{name}: {param.shape}")
    same_output_as_torch(snippet)


def test_layers_made_in_forward_are_not_registered():
    def snippet(torch):
        nn = torch.nn

        class Temp(nn.Module):
            def forward(self, x):
                tmp1 = nn.Linear(2, 2)
                return tmp1(x)

        class Kept(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer1 = nn.Linear(2, 2)
                self.layer2 = nn.Conv2d(1, 1, 3)

        print(len(list(Temp().parameters())), [tuple(p.shape) for p in Kept().parameters()])
    same_output_as_torch(snippet)


def test_hand_written_linear_and_buffers():
    def snippet(torch):
        nn = torch.nn
        Parameter = nn.Parameter

        class Linear(nn.Module):
            def __init__(self, in_features, out_features, bias=True):
                super().__init__()
                self.weight = Parameter(torch.Tensor(out_features, in_features))
                if bias:
                    self.bias = Parameter(torch.Tensor(out_features))
                else:
                    self.register_parameter("bias", None)
                self.register_buffer("my_buffer", torch.zeros(1))
                self.register_parameter("param", Parameter(torch.ones(1)))

        m = Linear(3, 2)
        print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])
        print(list(m.state_dict().keys()))
        print(Linear(3, 2, bias=False).bias)
    same_output_as_torch(snippet)


def test_containers():
    def snippet(torch):
        nn = torch.nn
        seq = nn.Sequential(nn.Conv2d(1, 20, 5), nn.ReLU(), nn.Conv2d(20, 64, 5), nn.ReLU())
        print(seq[0])
        named = nn.Sequential(OrderedDict([("conv1", nn.Conv2d(1, 20, 5)), ("relu1", nn.ReLU())]))
        print(named.conv1)
        print(named)

        class WithList(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
                self.layers.append(nn.Linear(4, 2))
                self.choices = nn.ModuleDict({"conv": nn.Conv2d(1, 1, 3), "pool": nn.MaxPool2d(2)})
                self.plist = nn.ParameterList([nn.Parameter(torch.ones(2))])
                self.pdict = nn.ParameterDict({"a": nn.Parameter(torch.zeros(1))})

            def forward(self, x, choice):
                for layer in self.layers:
                    x = layer(x)
                return self.choices[choice]

        m = WithList()
        print(m)
        print([n for n, _ in m.named_parameters()])
        print(len(list(m.modules())))
    same_output_as_torch(snippet)


def test_save_and_load_state_dict(tmp_path):
    nn = tensorlab.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    path = tmp_path / "models" / "net.pth"
    path.parent.mkdir()
    tensorlab.save(obj=model.state_dict(), f=str(path))
    other = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    other.load_state_dict(tensorlab.load(str(path)))
    for (k1, v1), (k2, v2) in zip(model.state_dict().items(), other.state_dict().items()):
        assert k1 == k2 and tensorlab.equal(v1, v2)


def test_tensorboard_scalars(tmp_path):
    pytest.importorskip("tensorboardX")
    from tensorlab.utils.tensorboard import SummaryWriter
    writer = SummaryWriter(str(tmp_path / "log"))
    for i in range(100):
        writer.add_scalar("a", i, global_step=i)
        writer.add_scalar("b", i ** 2, global_step=i)
    writer.close()
    assert any((tmp_path / "log").iterdir())
