"""state_dict and load_state_dict: a model's state as an ordered {dotted name: tensor} dict.

``state_dict()`` walks the module tree: each module contributes its parameters, then its persistent
buffers, then recurses into its children with the child's name as a prefix -- so the keys come out
in the same order as PyTorch's for the same architecture ("conv1.weight", "conv1.bias", "bn.weight",
..., "bn.num_batches_tracked").

``load_state_dict`` copies values *into* the existing tensors (the Parameter objects stay the same, so
an optimizer built earlier keeps working). Unlike PyTorch, a failed load changes nothing: every key,
type and shape is checked first, and only then is anything copied.
See course/11_modules_and_parameters.
"""
from collections import OrderedDict, namedtuple

from ...autograd import grad_mode
from ...tensor import Tensor
from ..parameter import is_lazy


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it did not find, and the keys it did not use."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, "
                f"unexpected_keys={self.unexpected_keys!r})")

    __str__ = __repr__


class StateDictMixin:
    """``state_dict``/``load_state_dict`` of a Module (mixed into Module)."""

    # build: stage 6
    def _local_state(self):
        """This module's own (name, tensor) entries: parameters, then persistent buffers.

        Yields ``(name, tensor)`` for each entry of ``self._parameters``, then of ``self._buffers``,
        in registration order, skipping None entries and the buffers named in
        ``self._non_persistent_buffers_set`` (registered with ``persistent=False``: module state that
        is not saved). ``state_dict()`` calls this on every module with its dotted prefix."""
        for name, param in self._parameters.items():
            if param is not None:
                yield name, param
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                yield name, buf
    # build: end

    def _may_be_absent(self, name, version):
        """Whether entry ``name`` may be missing from a checkpoint written with format ``version``
        (None: unknown). Layers whose state grew over time override this."""
        return False

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, value in self._local_state():
            destination[prefix + name] = value if keep_vars else value.detach()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer, detached (unless ``keep_vars``)."""
        if args:  # the old positional form state_dict(destination, prefix, keep_vars)
            destination = args[0] if len(args) > 0 else destination
            prefix = args[1] if len(args) > 1 else prefix
            keep_vars = args[2] if len(args) > 2 else keep_vars
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        metadata = getattr(destination, "_metadata", None)
        if metadata is not None:
            metadata[prefix[:-1]] = {"version": self._version}
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _named_state_slots(self, prefix=""):
        """``(key, module, local_name, tensor)`` for every entry ``state_dict`` would produce."""
        for name, value in self._local_state():
            yield prefix + name, self, name, value
        for child_name, module in self._modules.items():
            if module is not None:
                yield from module._named_state_slots(prefix + child_name + ".")

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy ``state_dict``'s tensors into this module's parameters and buffers.

        ``strict=True``: the keys must match exactly. Shapes must always match. Returns
        ``(missing_keys, unexpected_keys)``. On any error nothing is changed.
        """
        if not hasattr(state_dict, "keys") or not hasattr(state_dict, "__getitem__"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        slots = list(self._named_state_slots())
        expected = {key for key, *_ in slots}
        metadata = getattr(state_dict, "_metadata", None) or {}
        missing = [key for key, module, name, _ in slots if key not in state_dict
                   and not module._may_be_absent(name, metadata.get(key[:-len(name) - 1], {}).get("version"))]
        unexpected = [key for key in state_dict.keys() if key not in expected]
        errors, plan = [], []
        for key, module, name, current in slots:
            if key not in state_dict:
                continue
            incoming = state_dict[key]
            if not isinstance(incoming, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                              f"Tensor-like object from checkpoint but received {type(incoming)}")
                continue
            if is_lazy(current):  # a lazy module's entry without a shape yet takes the checkpoint's
                if not is_lazy(incoming):
                    plan.append((module, name, current, incoming))
                continue
            if current.dim() == 0 and incoming.dim() == 1 and incoming.numel() == 1:
                incoming = incoming.reshape(())  # old checkpoints stored scalars as shape [1]
            if incoming.shape != current.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape {incoming.shape} from "
                              f"checkpoint, the shape in current model is {current.shape}.")
                continue
            problem = None if assign else _cannot_copy_into(current)
            if problem is not None:
                errors.append(f'While copying the parameter named "{key}", whose dimensions in the model are '
                              f"{current.shape} and whose dimensions in the checkpoint are {incoming.shape}, an "
                              f"exception occurred : ({problem!r},).")
                continue
            plan.append((module, name, current, incoming))
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        with grad_mode.no_grad():
            for module, name, current, incoming in plan:
                _load_one(module, name, current, incoming, assign)
        return _IncompatibleKeys(missing, unexpected)


def _cannot_copy_into(current):
    """Why ``current.copy_(...)`` would fail (as PyTorch words it), or None. Asked of every tensor
    *before* the first copy, so a load that fails leaves the whole model as it was. (PyTorch itself
    copies the tensors it can and then raises: a half-loaded model.)"""
    from ...ops.inplace import check_writable
    try:
        check_writable(current)
    except RuntimeError as e:
        return str(e)
    return None


def _load_one(module, name, current, incoming, assign):
    """Copy (or with ``assign``, adopt) one tensor. Copying keeps the tensor object and its dtype."""
    from ..parameter import Parameter
    if is_lazy(current):
        current.materialize(incoming.shape)
    if not assign:
        current.copy_(incoming)
        return
    if name in module._parameters:
        module._parameters[name] = Parameter(incoming.detach(), requires_grad=current.requires_grad)
    else:
        module._buffers[name] = incoming.detach()
