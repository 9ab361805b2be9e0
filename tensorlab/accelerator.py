"""``tensorlab.accelerator``: is there a device besides the CPU, and which?

PyTorch's tutorials now pick their device with
``torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"``.
For tensorlab the only accelerator is an NVIDIA GPU through CuPy (``tensorlab.cuda``), so every answer
here is a question to ``tensorlab.cuda``.
"""
from . import cuda

_NONE = "Cannot access accelerator device when none is available."


def is_available():
    """True when tensors can be put on an accelerator (here: a CUDA GPU with CuPy installed)."""
    return cuda.is_available()


def current_accelerator(check_available=False):
    """``device('cuda')`` when there is a GPU, else None (or, with ``check_available``, None too)."""
    from ._device import device
    return device("cuda") if is_available() else None


def device_count():
    return cuda.device_count()


def current_device_index():
    if not is_available():
        raise RuntimeError(_NONE)
    from .backend import cuda_backend
    return cuda_backend().xp.cuda.runtime.getDevice()


current_device_idx = current_device_index


def set_device_index(device):
    if not is_available():
        raise RuntimeError(_NONE)
    from .backend import cuda_backend
    index = device if isinstance(device, int) else device.index or 0
    cuda_backend().xp.cuda.runtime.setDevice(index)


set_device_idx = set_device_index


def synchronize(device=None):
    """Wait until the accelerator has finished its queued work (see ``tensorlab.cuda.synchronize``)."""
    if not is_available():
        raise RuntimeError(_NONE)
    cuda.synchronize(device)
