"""Lazy modules: layers that learn their input size from the first batch they see.

``nn.LazyLinear(10)`` is a Linear layer without ``in_features``. Until its first call its ``weight`` and
``bias`` are ``UninitializedParameter``s (nn/parameter.py): registered, listed by ``parameters()``, movable
with ``.to()`` -- but without a shape. The first call runs a forward *pre-hook* (modules/_module_hooks.py)
before ``forward``:

1. ``initialize_parameters(input)`` reads the size it needs off the input (``input.shape[-1]`` for a
   Linear), *materializes* each parameter in place -- the same Parameter object now has data and a shape,
   so an optimizer built before the first call still holds the model's weights -- and initialises the
   values as the eager layer would (``reset_parameters``);
2. the hook removes itself, and the module becomes the eager class: ``type(m)`` is now ``nn.Linear``.

``load_state_dict`` fills a lazy module too: each uninitialized entry takes the checkpoint's shape.
Keep in mind that lazy layers draw their initial weights at the first call, not at construction, so a
network mixing lazy and eager layers draws its random numbers in a different order.
See course/11_modules_and_parameters.
"""
from ..parameter import is_lazy


class LazyModuleMixin:
    """Mixed in before the eager class (``class LazyLinear(LazyModuleMixin, Linear)``); ``cls_to_become``
    names the class the module turns into, and the layer defines ``initialize_parameters``."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

    def has_uninitialized_params(self):
        """Whether any of this module's own parameters or buffers still has no shape."""
        return any(is_lazy(t) for t in (*self._parameters.values(), *self._buffers.values()))

    def initialize_parameters(self, *args, **kwargs):
        """Give every uninitialized parameter its shape, read off the first input."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {type(self).__name__}")

    def _infer_parameters(self, module, args, kwargs=None):
        """The forward pre-hook that runs once, on the first call."""
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        del module._initialize_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """As Module's, except uninitialized entries are saved as they are (they have nothing to detach)."""
        for name, value in self._local_state():
            destination[prefix + name] = value if keep_vars or is_lazy(value) else value.detach()

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. Run a dummy "
                           "forward pass to correctly initialize the modules")
