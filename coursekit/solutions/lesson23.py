"""Reference solutions of course/23_forward_mode_ad.ipynb's exercises (checks: coursekit/lesson23.py)."""
import tensorlab as torch
import tensorlab.autograd.forward_ad as fwAD


# Exercise 1: softplus(x) = log(1 + exp(x)) with both derivatives: backward (vector-Jacobian product)
# and jvp (Jacobian-vector product). Its derivative is sigmoid(x), elementwise.
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)   # for backward
        ctx.save_for_forward(x)    # for jvp
        return torch.log1p(torch.exp(x))

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * torch.sigmoid(x)

    @staticmethod
    def jvp(ctx, x_tangent):
        x, = ctx.saved_tensors
        return x_tangent * torch.sigmoid(x)


# Exercise 2: the Jacobian of f at a vector x, one forward pass (one dual input) per column:
# with the tangent e_j, the output's tangent is J e_j, column j.
def jacobian_columns(f, x):
    columns = []
    with fwAD.dual_level():
        for j in range(x.numel()):
            e_j = torch.zeros_like(x)
            e_j[j] = 1.0
            y = f(fwAD.make_dual(x, e_j))
            columns.append(fwAD.unpack_dual(y).tangent)
    return torch.stack(columns, dim=1)


# Exercise 3: the four predictions of the table, in order.
predictions = (None, 100, 2, 24.0)
