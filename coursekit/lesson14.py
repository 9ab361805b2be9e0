"""Exercise checks of course/14_convolution.ipynb (reference solutions: coursekit/solutions/lesson14.py).

    >>> _ = check_conv_shapes(solution.shapes)
    Correct! Every size follows one formula: (n + 2*padding - dilation*(k - 1) - 1) //
             stride + 1.
"""
from .check import Case, Question, check_function, check_predictions, ramp
from .compare import differences, is_tensor
from .language import tr
from .solutions import lesson14 as solution


# -- exercise 1: output shapes -------------------------------------------------------------------------

def _conv_shape(torch, n=32, **kwargs):
    kwargs.setdefault("kernel_size", 3)
    return tuple(torch.nn.Conv2d(3, 16, **kwargs)(torch.zeros(2, 3, n, n)).shape)


def _side_hint(text, **mistakes):
    """A hint for a predicted shape; ``mistakes`` maps a typical wrong side length to its own hint."""
    def hint(got, truth):
        if isinstance(got, tuple) and len(got) == 4 and got[:2] != truth[:2]:
            return tr("The first two sizes are the batch (2) and the output channels (16); "
                      "only the last two, height and width, depend on the window.")
        if isinstance(got, tuple) and len(got) == 4:
            for side, why in mistakes.items():
                if got[2:] == (int(side[1:]),) * 2:
                    return why
        return text
    return hint


SHAPE_QUESTIONS = [
    Question("nn.Conv2d(3, 16, kernel_size=3)(x).shape", lambda torch: _conv_shape(torch),
             _side_hint(tr("Without padding, a k x k window fits n - k + 1 times along a side of n pixels."),
                        s32=tr("That is the size with padding=1; without padding the window cannot be centred "
                               "on the border pixels."))),
    Question("nn.Conv2d(3, 16, kernel_size=3, padding=1)(x).shape",
             lambda torch: _conv_shape(torch, padding=1),
             _side_hint(tr("padding=1 adds a row/column of zeros on *both* sides of each dimension before the "
                           "window slides."),
                        s31=tr("padding=1 pads both sides: that adds 2, not 1, to each side length."))),
    Question("nn.Conv2d(3, 16, kernel_size=5, stride=2, padding=2)(x).shape",
             lambda torch: _conv_shape(torch, kernel_size=5, stride=2, padding=2),
             _side_hint(tr("Pad first (both sides), then count the window positions: stride 2 keeps every "
                           "second one -- (n + 2*padding - k) // stride + 1."),
                        s32=tr("stride=2 keeps only every second window position: the size is about halved."))),
    Question("nn.Conv2d(3, 16, kernel_size=3, stride=2)(x).shape",
             lambda torch: _conv_shape(torch, stride=2),
             _side_hint(tr("Count the window positions: with stride 2 they start at 0, 2, 4, ..., as long as the "
                           "whole window still fits."),
                        s16=tr("The division rounds *down*: a window that would stick out of the image is not "
                               "counted."),
                        s14=tr("Count the windows, not the steps between them: the + 1 in (n - k) // stride + 1."))),
    Question("nn.Conv2d(3, 16, kernel_size=3, dilation=2)(x).shape",
             lambda torch: _conv_shape(torch, dilation=2),
             _side_hint(tr("dilation=2 spreads the taps apart: the window spans dilation*(k-1) + 1 pixels and "
                           "slides like any window of that size."),
                        s30=tr("dilation leaves gaps between the kernel's taps: a dilated 3x3 window spans more "
                               "pixels than 3."),
                        s16=tr("dilation is not stride: it spreads the kernel's taps apart; the windows still "
                               "start at every pixel."))),
    Question("nn.Conv2d(3, 16, kernel_size=3).weight.shape",
             lambda torch: tuple(torch.nn.Conv2d(3, 16, kernel_size=3).weight.shape),
             lambda got, truth: (tr("Output channels come first: [out_channels, in_channels, kH, kW].")
                                 if got == (3, 16, 3, 3) else
                                 tr("One 3x3 kernel per (output channel, input channel) pair: "
                                    "[out_channels, in_channels, kH, kW]."))),
    Question("F.unfold(x, kernel_size=3).shape",
             lambda torch: tuple(torch.nn.functional.unfold(torch.zeros(2, 3, 32, 32), kernel_size=3).shape),
             lambda got, truth: (tr("unfold gives one *column* per window: (N, C*k*k, L), with the window's "
                                    "numbers down the column.") if got == (2, 900, 27) else
                                 tr("One column per window position (as many as a 3x3 convolution has output "
                                    "pixels), each holding every number its window reads, across all channels."))),
    Question("nn.MaxPool2d(2)(torch.zeros(2, 16, 15, 15)).shape",
             lambda torch: tuple(torch.nn.MaxPool2d(2)(torch.zeros(2, 16, 15, 15)).shape),
             _side_hint(tr("The stride defaults to the kernel size, and a window that would stick out is "
                           "dropped (ceil_mode=False)."),
                        s8=tr("15 / 2 rounds *down* (ceil_mode=False): the last, odd row is dropped."),
                        s14=tr("MaxPool2d(2) has stride 2 by default (stride=kernel_size): the windows do not "
                               "overlap."))),
]


def check_conv_shapes(answer):
    """Exercise 1: a tuple of 8 shapes (tuples of ints)."""
    return check_predictions(answer, SHAPE_QUESTIONS, what=tr("a tuple of 8 shapes, one per line of the table"),
                             note=tr("Every size follows one formula: "
                                     "(n + 2*padding - dilation*(k - 1) - 1) // stride + 1."))


# -- exercise 2: conv2d from unfold and a matrix product -------------------------------------------------

def _conv_case(label, x_shape, w_shape, stride, padding):
    def make(torch):
        x = (ramp(torch, *x_shape) * 3).sin()
        weight = ramp(torch, *w_shape, start=0.5, stop=-0.7)
        bias = ramp(torch, w_shape[0], start=-0.5, stop=0.5) if w_shape[0] > 1 else torch.tensor([0.5])
        return x, weight, bias, stride, padding
    return Case(label, make)


CONV_CASES = [
    _conv_case(tr("x of shape (1, 1, 4, 4), weight (1, 1, 3, 3)"), (1, 1, 4, 4), (1, 1, 3, 3), 1, 0),
    _conv_case("x (2, 3, 7, 6), weight (4, 3, 3, 3), stride=1, padding=1", (2, 3, 7, 6), (4, 3, 3, 3), 1, 1),
    _conv_case("x (2, 3, 7, 6), weight (4, 3, 3, 3), stride=2, padding=0", (2, 3, 7, 6), (4, 3, 3, 3), 2, 0),
    _conv_case("x (2, 2, 9, 8), weight (3, 2, 5, 5), stride=2, padding=2", (2, 2, 9, 8), (3, 2, 5, 5), 2, 2),
]


def _same(a, b):
    return is_tensor(a) and is_tensor(b) and tuple(a.shape) == tuple(b.shape) and not differences(a, b, grads=False)


def _diagnose_conv(got, expected, args, torch):
    x, weight, bias, stride, padding = args
    F = torch.nn.functional
    if isinstance(got, Exception):
        text = str(got)
        if "must match the size" in text:
            return tr("bias has shape (out_channels,): added to the (N, out_channels, L) product it lines up with "
                      "the *last* dimension. Give it shape (1, out_channels, 1) (bias.view(1, -1, 1)).")
        if "invalid for input of size" in text:
            return tr("The view needs the output's height and width from the output-size formula, "
                      "(h + 2*padding - k) // stride + 1, computed for height and width separately -- and "
                      "F.unfold must get the same stride and padding.")
        if "cannot be multiplied" in text or "mat1 and mat2" in text or "size mismatch" in text or "matmul" in text:
            return tr("weight.view(out_channels, -1) is (out_channels, C*k*k) and F.unfold gives (N, C*k*k, L): "
                      "the weight goes on the left of @.")
        return None
    if not is_tensor(got):
        return None
    with torch.no_grad():
        if tuple(got.shape) == tuple(expected.shape):
            if _same(got, F.conv2d(x, weight, None, stride, padding)):
                return tr("That is the convolution without the bias: add one bias per output channel.")
            if _same(got, F.conv2d(x, weight.flip(2, 3), bias, stride, padding)):
                return tr("That kernel was flipped: PyTorch's conv2d is a cross-correlation, each weight "
                          "multiplies the pixel at the same place in the window.")
        if got.dim() == 3:
            return tr("Reshape the (N, out_channels, L) product to (N, out_channels, h_out, w_out).")
        if got.dim() == 4 and tuple(got.shape[2:]) == tuple(expected.shape[2:])[::-1]:
            return tr("Height and width are swapped: the columns of F.unfold go row by row, (h_out, w_out).")
    return None


def check_conv2d(conv2d):
    """Exercise 2: ``conv2d(x, weight, bias, stride, padding)`` equals F.conv2d, built from F.unfold."""
    return check_function(conv2d, solution.conv2d, CONV_CASES, name="conv2d", grads=False,
                          what=tr("a function body that returns F.conv2d(x, weight, bias, stride, padding), "
                                  "computed with F.unfold and one matrix product"),
                          diagnoses=[_diagnose_conv],
                          note=tr("That is how tensorlab/ops/nn_conv.py computes every convolution: im2col, "
                                  "then one matrix product."))


# -- exercise 3: the backward of max pooling ----------------------------------------------------------------

def _distinct(torch, *shape):
    """Values without ties inside any 2x2 window (k*7 mod 31 repeats only every 31 elements)."""
    n = 1
    for s in shape:
        n *= s
    return ((torch.arange(n) * 7) % 31).float().reshape(*shape)


POOL_CASES = [
    Case(tr("the lesson's x of shape (1, 1, 4, 4), grad_output of ones"),
         lambda torch: (torch.tensor([[[[1., 5., 2., 0.], [3., 4., 8., 1.], [0., 2., 6., 7.], [9., 1., 3., 2.]]]]),
                        torch.ones(1, 1, 2, 2))),
    Case(tr("x of shape (2, 3, 4, 6), grad_output (2, 3, 2, 3) = linspace(-1, 2, 36)"),
         lambda torch: (_distinct(torch, 2, 3, 4, 6), torch.linspace(-1, 2, 36).reshape(2, 3, 2, 3))),
]


def _spread(t):
    """Each value of ``t`` copied onto the 2x2 block of pixels it came from."""
    return t.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)


def _diagnose_pool(got, expected, args, torch):
    x, grad_output = args
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    if tuple(got.shape) == tuple(grad_output.shape):
        return tr("The gradient of x has x's shape (N, C, H, W): one number per input pixel, not per window.")
    if tuple(got.shape) != tuple(expected.shape):
        return None
    F = torch.nn.functional
    with torch.no_grad():
        winners = (x == _spread(F.max_pool2d(x, 2))).float()
        if _same(got, _spread(grad_output) / 4):
            return tr("That is *average* pooling's backward: each pixel gets a quarter. A max depends only on its "
                      "winner; the other three pixels of the window do not change the output at all.")
        if _same(got, _spread(grad_output)):
            return tr("Every pixel of a window got the window's gradient; only the winner (the max) moves the "
                      "output, so the other three get 0.")
        if _same(got, winners):
            return tr("The right pixels, but each winner must receive its window's grad_output value, not 1.")
    return None


def check_max_pool_backward(max_pool_backward):
    """Exercise 3: the gradient of x through F.max_pool2d(x, 2), given grad_output."""
    return check_function(max_pool_backward, solution.max_pool_backward, POOL_CASES, name="max_pool_backward",
                          grads=False,
                          what=tr("a function body that returns the gradient of x (shape (N, C, H, W)) through "
                                  "F.max_pool2d(x, 2), given grad_output (N, C, H/2, W/2)"),
                          diagnoses=[_diagnose_pool],
                          note=tr("That is MaxPool2DWithIndicesBackward0: a scatter of grad_output onto the saved "
                                  "indices."))
