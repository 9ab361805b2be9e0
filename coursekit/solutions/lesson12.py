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


# Exercise 4: one shared body, a head and a temperature per task, kept by the task's name.
class MultiTask(nn.Module):
    def __init__(self, in_features, hidden, tasks):
        super().__init__()
        self.body = nn.Linear(in_features, hidden)
        self.heads = nn.ModuleDict({name: nn.Linear(hidden, n) for name, n in tasks.items()})
        self.temperature = nn.ParameterDict({name: nn.Parameter(torch.ones(())) for name in tasks})

    def forward(self, x, task):
        return self.heads[task](torch.relu(self.body(x))) / self.temperature[task]
