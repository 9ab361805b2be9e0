"""Reference solutions of course/22_gpus.ipynb's exercises (checks: coursekit/lesson22.py)."""
import tensorlab as torch

# Exercise 1: devices, without a GPU.
predictions = (
    False,      # torch.device("cuda") == torch.device("cuda:0"): "the current GPU" is not "GPU 0" as a name
    0,          # torch.device("cuda:0").index
    True,       # t.to("cpu") is t: already there, so .to returns the tensor itself, no copy
    "cuda:1",   # str(torch.device("cuda", 1))
)


# Exercise 2: load a checkpoint written on a GPU machine, on this one.
def load_on_cpu(path):
    return torch.load(path, map_location="cpu")
