"""All parameters as one flat vector, and back (used by optimisers that work on vectors, e.g. L-BFGS,
and to count or compare weights).
See course/11_modules_and_parameters.
"""
from ...tensor import Tensor


def _check_same_device(param, device):
    if device is not None and param.device != device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return param.device


def parameters_to_vector(parameters):
    """Concatenate the flattened parameters into one 1-d tensor (it is part of the graph)."""
    from ... import cat
    device, pieces = None, []
    for param in parameters:
        device = _check_same_device(param, device)
        pieces.append(param.view(-1))
    return cat(pieces)


def vector_to_parameters(vec, parameters):
    """Copy consecutive slices of ``vec`` into the parameters (replacing their data)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    device, pointer = None, 0
    for param in parameters:
        device = _check_same_device(param, device)
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
