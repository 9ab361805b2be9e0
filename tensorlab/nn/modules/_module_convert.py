"""Converting a module: ``model.to(device)``, ``model.double()``, ``model.cuda()``...

Every parameter and buffer is converted, but the Parameter *objects* stay the same: only the data
they point at is replaced (``param.data = converted``). So an optimizer created before
``model.to(...)`` still holds the model's parameters, and its updates still reach the model.
See course/11_modules_and_parameters.
"""
from ...autograd import grad_mode


class ConvertMixin:
    """``_apply`` and the conversions built on it (mixed into Module)."""

    def _apply(self, fn, recurse=True):
        """Replace every parameter's and buffer's *data* by ``fn(tensor)``.

        The Parameter objects stay the same (only what they point at changes), so an optimizer built
        before ``model.to(...)`` still updates the model's weights.
        """
        if recurse:
            for module in self.children():
                module._apply(fn)
        with grad_mode.no_grad():
            for p in self._parameters.values():
                if p is None:
                    continue
                p.data = fn(p)
                if p._grad is not None:
                    p._grad.data = fn(p._grad)
            for key, buf in self._buffers.items():
                if buf is not None:
                    self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        """``to(device)``, ``to(dtype)`` (floating point only), ``to(tensor)``: convert in place, return self."""
        from ...ops.convert import _parse_to
        dtype, device = _parse_to(args, kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")

        def convert(t):
            if t.is_floating_point() and dtype is not None:
                return t.to(device=device or t.device, dtype=dtype)
            return t.to(device=device or t.device)
        return self._apply(convert)

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))
