"""``tensorlab._C``: the few names PyTorch code reaches for in ``torch._C`` that concern ``__torch_function__``.

PyTorch's ``torch._C`` is its C++ extension; tensorlab has none. These are the Python context managers of
tensorlab/_torch_function.py under the names that code written for PyTorch uses, e.g. in a subclass's
``__torch_function__``: ``with torch._C.DisableTorchFunctionSubclass(): ...``.
"""
from ._torch_function import (DisableTorchFunction, DisableTorchFunctionSubclass,  # noqa: F401
                              _disabled_torch_function_impl)
from ._torch_function import is_torch_function_enabled as _is_torch_function_enabled  # noqa: F401
