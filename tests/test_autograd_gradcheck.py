"""gradcheck and gradgradcheck: they pass correct backwards, catch wrong ones with PyTorch's
messages, and accept PyTorch's arguments."""
import numpy as np
import pytest

import tensorlab
from tensorlab.autograd import GradcheckError, gradcheck, gradgradcheck

X = np.array([0.3, -1.2, 2.0])


def _double(values, requires_grad=True, m=tensorlab):
    return m.tensor(np.asarray(values, dtype=np.float64), requires_grad=requires_grad)


def wrong_square(m):
    """x**2 whose backward forgot the factor 2."""
    class WrongSquare(m.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 2

        @staticmethod
        def backward(ctx, g):
            a, = ctx.saved_tensors
            return g * a
    return WrongSquare


def test_passes_for_correct_builtin_gradients():
    x, w = _double(X), _double(np.arange(6.0).reshape(3, 2) / 5)
    assert gradcheck(lambda a, b: (a.unsqueeze(1) * b).tanh().sum(0), (x, w))
    assert gradgradcheck(lambda a, b: (a.unsqueeze(1) * b).tanh().sum(0), (x, w))
    assert gradcheck(lambda a: (a.exp(), a * 2), (x,), fast_mode=True)


def test_catches_a_wrong_custom_backward_with_torchs_message(torch):
    messages = []
    for m in (tensorlab, torch):
        with pytest.raises(RuntimeError) as info:
            m.autograd.gradcheck(wrong_square(m).apply, (_double(X, m=m),))
        messages.append(str(info.value))
        assert type(info.value).__name__ == "GradcheckError"
        assert m.autograd.gradcheck(wrong_square(m).apply, (_double(X, m=m),), raise_exception=False) is False
    assert messages[0] == messages[1]
    assert messages[0].startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")


def test_fast_mode_catches_it_too(torch):
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0") as ours:
        gradcheck(wrong_square(tensorlab).apply, (_double(X),), fast_mode=True)
    assert "in fast mode" in str(ours.value) and "slow mode" in str(ours.value)


def test_wrong_second_derivative_is_caught_by_gradgradcheck():
    class FirstOnly(tensorlab.autograd.Function):
        """Correct first derivative of x**3, but its backward treats x as a constant."""
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 3

        @staticmethod
        def backward(ctx, g):
            a, = ctx.saved_tensors
            return 3 * a.detach() ** 2 * g
    x = _double(X)
    assert gradcheck(FirstOnly.apply, (x,))
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"):
        gradgradcheck(FirstOnly.apply, (x,))


def test_tolerances_eps_atol_rtol():
    x = _double(X)
    f = wrong_square(tensorlab).apply
    assert gradcheck(f, (x,), atol=10.0)          # loose enough to accept anything here
    assert not gradcheck(f, (x,), atol=1e-5, rtol=1e-3, raise_exception=False)
    assert gradcheck(lambda a: a.exp(), (x,), eps=1e-4, atol=1e-4)


def test_input_errors_and_warnings_match_torch(torch):
    for m in (tensorlab, torch):
        with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require gradient"):
            m.autograd.gradcheck(lambda a: a * 2, (_double(X, requires_grad=False, m=m),))
        with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double precision "
                                             "floating point"):
            m.autograd.gradcheck(lambda a: a * 2, (m.ones(2, requires_grad=True),), atol=0.1, rtol=0.1)
        expanded = _double([1.0], m=m).expand(3)
        with pytest.raises(RuntimeError, match="The 0th input has a dimension with stride 0"):
            m.autograd.gradcheck(lambda a: a * 2, (expanded,))


def test_nondeterministic_backward_is_caught_unless_tolerated(torch):
    for m in (tensorlab, torch):
        calls = [0]

        class Jitter(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                calls[0] += 1
                return g * (2 + calls[0] * 1e-9)

        with pytest.raises(RuntimeError, match="Backward is not reentrant"):
            m.autograd.gradcheck(Jitter.apply, (_double(X, m=m),))
        assert m.autograd.gradcheck(Jitter.apply, (_double(X, m=m),), nondet_tol=1e-6)


def test_backward_must_be_linear_in_the_incoming_gradient(torch):
    for m in (tensorlab, torch):
        class Offset(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2 + 1e-9  # off by a constant: invisible to finite differences at atol 1e-5

        with pytest.raises(RuntimeError, match="backward not multiplied by grad_output"):
            m.autograd.gradcheck(Offset.apply, (_double(X, m=m),))


def test_non_differentiable_outputs_and_extra_arguments_are_accepted():
    x = _double(X)
    assert gradcheck(lambda a: (a * 2, a.argmax()), (x,), nondet_tol=0.0, check_undefined_grad=True,
                     check_grad_dtypes=False, check_batched_grad=False, fast_mode=False)
    assert gradgradcheck(lambda a: a ** 3, (x,), grad_outputs=(_double([1.0, 2.0, 3.0]),))


def test_undefined_output_gradients_are_checked():
    class NeedsAGradient(tensorlab.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2  # fails when g is None
    x = _double(X)
    with pytest.raises(GradcheckError, match="Expected backward function to handle undefined output grads"):
        gradcheck(NeedsAGradient.apply, (x,))
    assert gradcheck(NeedsAGradient.apply, (x,), check_undefined_grad=False)


def test_gradcheck_leaves_inputs_unchanged():
    x = _double(X)
    gradcheck(lambda a: a.sin(), (x,))
    assert x.tolist() == X.tolist() and x.grad is None
