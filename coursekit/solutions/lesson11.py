"""Reference solutions of course/11_modules_and_parameters.ipynb's exercises (checks: coursekit/lesson11.py)."""
import tensorlab as torch  # noqa: F401 - as in the lesson, `torch` is tensorlab

# Exercise 1: how many numbers parameters() holds, for the six modules of the table.
counts = (55, 50, 224, 16, 23, 0)

# Exercise 2: the names that Probe's walks produce, in order.
names = (("scale", "fc.weight", "fc.bias"),        # named_parameters(): own first, then children's
         ("mean", "scratch"),                       # named_buffers(): persistent or not
         ("scale", "mean", "fc.weight", "fc.bias"),  # state_dict(): own params, own persistent buffers, children
         1)                                         # children(): only fc -- the list is not registered


# Exercise 3: freeze every parameter except those of the last layer.
def freeze_all_but_last(model):
    for param in model.parameters():
        param.requires_grad_(False)
    for param in model[-1].parameters():
        param.requires_grad_(True)


# Exercise 4: a module with a fixed buffer and a learned parameter.
class Standardize(torch.nn.Module):
    """y = (x - mean) * gain: ``mean`` is given and fixed, ``gain`` is learned and starts at ones."""

    def __init__(self, mean):
        super().__init__()
        self.register_buffer("mean", mean)                      # saved and moved, never trained
        self.gain = torch.nn.Parameter(torch.ones_like(mean))   # registered by __setattr__

    def forward(self, x):
        return (x - self.mean) * self.gain
