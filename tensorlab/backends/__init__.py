"""``tensorlab.backends``: the switches PyTorch keeps for the libraries it computes with.

PyTorch runs its kernels on cuDNN, cuBLAS, Apple's MPS, oneDNN (mkldnn), MKL and OpenMP, and lets you
ask about them (``torch.backends.mps.is_available()``) or tune them (``torch.backends.cudnn.benchmark =
True``). Tutorials do both, usually to pick a device. tensorlab computes with NumPy (and CuPy on an
NVIDIA GPU -- that is ``tensorlab/backend/``, singular), so here every switch exists and keeps what you
set, changes nothing, and every question gets tensorlab's true answer: no cuDNN, no MPS, no oneDNN.
"""
from . import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp  # noqa: F401


def get_float32_matmul_precision():
    """'highest' (float32 matmuls in full float32), 'high' or 'medium' (may use TensorFloat-32 or
    bfloat16 on GPUs that have it). Only a setting here: NumPy and CuPy matmuls keep full precision."""
    return "highest" if not cuda.matmul.allow_tf32 else _precision[0]


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        import warnings
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _precision[0] = precision
    cuda.matmul.allow_tf32 = precision != "highest"


_precision = ["high"]  # what 'allow_tf32 = True' stands for when set directly
