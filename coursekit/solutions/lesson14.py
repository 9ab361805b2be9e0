"""Reference solutions of course/14_convolution.ipynb's exercises (checks: coursekit/lesson14.py)."""
import tensorlab as torch
from tensorlab.nn import functional as F

# Exercise 1: the shapes of the table, in order.
shapes = ((2, 16, 30, 30), (2, 16, 32, 32), (2, 16, 16, 16), (2, 16, 15, 15), (2, 16, 28, 28),
          (16, 3, 3, 3), (2, 27, 900), (2, 16, 7, 7))


# Exercise 2: a convolution as unfold (im2col) and one matrix product.
def conv2d(x, weight, bias, stride=1, padding=0):
    n, _, h, w = x.shape
    out_channels, _, k, _ = weight.shape
    h_out = (h + 2 * padding - k) // stride + 1            # the output-size formula (dilation 1)
    w_out = (w + 2 * padding - k) // stride + 1
    cols = F.unfold(x, kernel_size=k, padding=padding, stride=stride)   # (N, C*k*k, h_out*w_out)
    out = weight.view(out_channels, -1) @ cols + bias.view(1, -1, 1)    # (N, out_channels, h_out*w_out)
    return out.view(n, out_channels, h_out, w_out)


# Exercise 3: the gradient 2x2 max pooling sends back to its input.
def max_pool_backward(x, grad_output):
    n, c, h, w = x.shape
    _, indices = F.max_pool2d(x, 2, return_indices=True)   # where each window's winner sits in its plane
    grad = torch.zeros(n, c, h * w)
    grad.scatter_(2, indices.view(n, c, -1), grad_output.reshape(n, c, -1))   # each gradient to its winner
    return grad.view(n, c, h, w)
