"""Reference solutions of course/12_containers_and_state_dict.ipynb's exercises (checks: coursekit/lesson12.py)."""
import tensorlab as torch
from tensorlab import nn

# Exercise 1: predictions about the OrderedDict Sequential of the lesson.
predictions = (
    ("conv.weight", "conv.bias", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var",
     "bn.num_batches_tracked", "head.1.weight", "head.1.bias"),   # keys: ReLU and Flatten save nothing
    6,                                                              # parameters(): no buffers
    7,                                                              # modules(): the model, 4 children, head's 2
    (10, 144),                                                      # Linear weight: [out, in]
)


# Exercise 2: a stack of Linear layers whose list is registered (nn.ModuleList).
class Stack(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:   # ReLU between layers, not after the last
                x = torch.relu(x)
        return x


# Exercise 3: rename an old checkpoint's keys for the Sequential version of the model.
def convert(state):
    new_names = {"hidden": "0", "out": "2"}   # model[1] is the ReLU: it has no parameters
    converted = {}
    for key, value in state.items():
        layer, _, rest = key.partition(".")
        converted[new_names[layer] + "." + rest] = value
    return converted
