"""Custom autograd.Function, compared with PyTorch: ctx API, saved tensors, needs_input_grad,
mark_dirty, mark_non_differentiable, set_materialize_grads, non-tensor arguments, several outputs,
setup_context, once_differentiable, and the errors for wrong gradients."""
import re

import numpy as np
import pytest

import tensorlab

X = np.array([0.5, -1.0, 2.0])


def make_functions(m):
    """The same custom Functions, written against ``m`` (tensorlab or torch)."""
    F = m.autograd.Function

    class Cube(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return 3 * x ** 2 * grad

    class ScaleShift(F):  # non-tensor arguments get None gradients
        @staticmethod
        def forward(ctx, x, scale, shift, note):
            ctx.scale, ctx.note = scale, note
            return x * scale + shift

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.scale, None, None, None

    class SplitSigns(F):  # two outputs
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(min=0), x.clamp(max=0)

        @staticmethod
        def backward(ctx, g_pos, g_neg):
            x, = ctx.saved_tensors
            return m.where(x > 0, g_pos, g_neg)

    class MulAdd(F):
        @staticmethod
        def forward(ctx, a, b, c):
            ctx.flags = tuple(ctx.needs_input_grad)
            ctx.save_for_backward(a, b)
            return a * b + c

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            ga = grad * b if ctx.needs_input_grad[0] else None
            gb = grad * a if ctx.needs_input_grad[1] else None
            gc = grad if ctx.needs_input_grad[2] else None
            return ga, gb, gc

    class SortWithIndex(F):
        @staticmethod
        def forward(ctx, x):
            order = m.tensor(np.argsort(x.detach().numpy(), kind="stable"))
            ctx.mark_non_differentiable(order)
            ctx.save_for_backward(order)
            return x[order], order

        @staticmethod
        def backward(ctx, g, g_order):
            order, = ctx.saved_tensors
            out = m.zeros_like(g)
            out[order] = g
            return out

    class Square(F):  # new style: forward without ctx, plus setup_context
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return 2 * x * grad

    class AddOneInPlace(F):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    return dict(Cube=Cube, ScaleShift=ScaleShift, SplitSigns=SplitSigns, MulAdd=MulAdd,
                SortWithIndex=SortWithIndex, Square=Square, AddOneInPlace=AddOneInPlace)


def _run(m, body):
    fns = make_functions(m)
    x = m.tensor(X.copy(), requires_grad=True)
    return body(m, fns, x)


def _same(torch, body):
    ours, theirs = _run(tensorlab, body), _run(torch, body)
    assert _plain(ours) == _plain(theirs)


def _plain(value):
    """Tensors as lists, so results of both libraries compare with ==."""
    if hasattr(value, "tolist") and hasattr(value, "dim"):
        return ("tensor", np.round(np.asarray(value.detach().tolist(), dtype=float), 10).tolist())
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def test_forward_backward_and_node_name(torch):
    def body(m, f, x):
        y = f["Cube"].apply(x)
        y.sum().backward()
        return [y, x.grad, type(y.grad_fn).__name__, y.grad_fn.name(), y.requires_grad]
    _same(torch, body)


def test_repr_of_a_custom_node_is_torchs():
    y = make_functions(tensorlab)["Cube"].apply(tensorlab.ones(2, requires_grad=True))
    assert re.fullmatch(r"<torch\.autograd\.function\.CubeBackward object at 0x[0-9a-f]+>", repr(y.grad_fn))
    assert repr(y).endswith("grad_fn=<CubeBackward>)")


def test_non_tensor_arguments(torch):
    def body(m, f, x):
        y = f["ScaleShift"].apply(x, 3.0, 1.5, "note")
        y.sum().backward()
        return [y, x.grad, len(y.grad_fn.next_functions)]
    _same(torch, body)


def test_two_outputs(torch):
    def body(m, f, x):
        pos, neg = f["SplitSigns"].apply(x)
        (pos * 2 + neg * 3).sum().backward()
        first = x.grad.clone()
        x.grad = None
        pos, neg = f["SplitSigns"].apply(x)
        pos.sum().backward()  # neg got no gradient: backward receives zeros for it
        return [first, x.grad, pos.grad_fn is neg.grad_fn, pos.output_nr, neg.output_nr]
    _same(torch, body)


def test_needs_input_grad(torch):
    def body(m, f, x):
        b = m.tensor(X.copy())
        y = f["MulAdd"].apply(x, b, b)
        y.sum().backward()
        return [y.grad_fn.flags, x.grad, b.grad]
    _same(torch, body)


def test_mark_non_differentiable(torch):
    def body(m, f, x):
        values, order = f["SortWithIndex"].apply(x)
        (values * m.tensor([1.0, 2.0, 3.0], dtype=m.float64)).sum().backward()
        return [values, order, order.requires_grad, values.requires_grad, x.grad]
    _same(torch, body)


def test_setup_context_style(torch):
    def body(m, f, x):
        y = f["Square"].apply(x)
        y.sum().backward()
        return [y, x.grad, type(y.grad_fn).__name__]
    _same(torch, body)


def test_mark_dirty(torch):
    def body(m, f, x):
        h = x * 2
        out = f["AddOneInPlace"].apply(h)
        names = [out is h, h._version, h.grad_fn.name()]
        (out * out).sum().backward()
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad has been used in an "
                                               "in-place operation."):
            f["AddOneInPlace"].apply(x)
        return names + [x.grad]
    _same(torch, body)


def test_mark_dirty_input_must_be_returned(torch):
    for m in (tensorlab, torch):
        class Forgets(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.mark_dirty(a)
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g

        with pytest.raises(RuntimeError, match="Some elements marked as dirty during the forward method were "
                                               "not returned as output."):
            Forgets.apply(m.ones(2, requires_grad=True) * 1)


def test_returning_an_input_gives_a_view_of_it(torch):
    for m in (tensorlab, torch):
        class Identity(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a

            @staticmethod
            def backward(ctx, g):
                return g

        x = m.ones(2, requires_grad=True)
        y = Identity.apply(x)
        assert y is not x and y._base is x and x.is_leaf and y.grad_fn.name() == "IdentityBackward"


def test_set_materialize_grads(torch):
    def run(m):
        seen = []

        class Two(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.set_materialize_grads(False)
                return a * 1, a * 2

            @staticmethod
            def backward(ctx, g1, g2):
                seen.append((g1 is None, g2 is None))
                return g1 if g2 is None else g1 + 2 * g2

        x = m.ones(2, requires_grad=True)
        a, b = Two.apply(x)
        a.sum().backward()
        return seen, x.grad.tolist()
    assert run(tensorlab) == run(torch)


def test_saved_tensors_after_backward_raise(torch):
    for m in (tensorlab, torch):
        y = make_functions(m)["Cube"].apply(m.ones(2, requires_grad=True))
        y.sum().backward()
        with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
            y.grad_fn.saved_tensors


def test_wrong_number_of_gradients(torch):
    def build(m):
        class TooMany(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g, g
        TooMany.apply(m.ones(2, requires_grad=True)).sum().backward()
    _same_error(torch, build)


def test_extra_none_gradients_are_allowed(torch):
    for m in (tensorlab, torch):
        class ExtraNone(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2, None, None

        x = m.ones(2, requires_grad=True)
        ExtraNone.apply(x).sum().backward()
        assert x.grad.tolist() == [2.0, 2.0]


def test_wrong_gradient_shape_type_and_position(torch):
    def wrong_shape(m):
        class Short(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g[:2]
        Short.apply(m.ones(3, requires_grad=True)).sum().backward()

    def not_a_tensor(m):
        class Three(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return 3
        Three.apply(m.ones(3, requires_grad=True)).sum().backward()

    def gradient_for_a_number(m):
        class Scaled(m.autograd.Function):
            @staticmethod
            def forward(ctx, a, k):
                return a * k

            @staticmethod
            def backward(ctx, g):
                return g, m.ones(1)
        Scaled.apply(m.ones(3, requires_grad=True), 2).sum().backward()

    for build in (wrong_shape, not_a_tensor, gradient_for_a_number):
        _same_error(torch, build)


def test_broadcastable_gradient_is_summed_to_the_input_shape(torch):
    for m in (tensorlab, torch):
        class Wide(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a.sum()

            @staticmethod
            def backward(ctx, g):
                return g.expand(2, 3)  # a gradient of shape (2, 3) for an input of shape (3,)
        x = m.ones(3, requires_grad=True)
        Wide.apply(x).backward()
        assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_once_differentiable(torch):
    def run(m):
        from importlib import import_module
        once = import_module(m.__name__ + ".autograd.function").once_differentiable

        class Sq(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_backward(a)
                return a ** 2

            @staticmethod
            @once
            def backward(ctx, g):
                a, = ctx.saved_tensors
                return 2 * a * g

        x = m.tensor([1.0, 2.0], requires_grad=True)
        g, = m.autograd.grad((Sq.apply(x) ** 2).sum(), x, create_graph=True)
        info = [g.tolist(), g.requires_grad, type(g.grad_fn).__name__, g.grad_fn.name()]
        with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was marked "
                                               "with @once_differentiable") as error:
            g.sum().backward()
        return info, str(error.value)
    assert run(tensorlab) == run(torch)


def test_legacy_instance_call_is_refused(torch):
    for m in (tensorlab, torch):
        class Legacy(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a

            @staticmethod
            def backward(ctx, g):
                return g
        with pytest.raises(RuntimeError, match="Legacy autograd function with non-static forward method is "
                                               "deprecated"):
            Legacy()(m.ones(1))


def test_custom_function_in_no_grad_records_nothing(torch):
    for m in (tensorlab, torch):
        with m.no_grad():
            y = make_functions(m)["Cube"].apply(m.ones(2, requires_grad=True))
        assert y.grad_fn is None and not y.requires_grad


def _same_error(torch, build):
    with pytest.raises(Exception) as theirs:
        build(torch)
    with pytest.raises(Exception) as ours:
        build(tensorlab)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)
    assert str(ours.value) == str(theirs.value)


def test_needs_input_grad_is_reported_even_when_nothing_is_recorded(torch):
    """PyTorch fills ctx.needs_input_grad from requires_grad, also under no_grad."""
    seen = {}
    for m in (tensorlab, torch):
        class Scale(m.autograd.Function):
            @staticmethod
            def forward(ctx, a, b, k):
                seen.setdefault(m.__name__, []).append(tuple(ctx.needs_input_grad))
                return a * k

            @staticmethod
            def backward(ctx, grad):
                return grad, None, None

        x = m.ones(2, requires_grad=True)
        Scale.apply(x, m.ones(2), 3)
        with m.no_grad():
            Scale.apply(x, m.ones(2), 3)
        Scale.apply(m.ones(2), m.ones(2), 3)
    assert seen["tensorlab"] == seen["torch"] == [(True, False, False), (True, False, False),
                                                  (False, False, False)]
