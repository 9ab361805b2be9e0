"""Stage 6's classic mistakes, each recognised in the outcome of one of the stage's small networks
(:mod:`coursekit.build.cases_module`), against PyTorch's recorded answer."""
from __future__ import annotations

from ..language import tr
from .cases import _recorded


def answer(which):
    return _recorded()[str(which.stage)][which.id]["value"]


def _value(got):
    value = got.get("value")
    return value if isinstance(value, dict) else None


def _listed(key):
    def listed(which, got):
        value = _value(got)
        return None if value is None or key not in value else value[key]
    return listed


_parameters = _listed("parameters")


def not_registered(which, got):
    """Fewer parameters than PyTorch lists: a Parameter was stored as a plain attribute."""
    value, right = _value(got), answer(which)
    return value is not None and set(value.get("parameters", ())) < set(right["parameters"])


def no_dot(which, got):
    """The right names with the dots left out ("0weight")."""
    names, right = _parameters(which, got), answer(which)["parameters"]
    return names is not None and names != right and \
        [n.replace(".", "") for n in names] == [n.replace(".", "") for n in right]


def no_owner(which, got):
    """Each name without its owner's: "weight" instead of "0.weight"."""
    names, right = _parameters(which, got), answer(which)["parameters"]
    return names is not None and names != right and names == [n.rpartition(".")[2] for n in right]


def listed_twice(which, got):
    names, right = _parameters(which, got), answer(which)["parameters"]
    return names is not None and len(names) > len(right) and set(names) >= set(right)


def not_recursive(which, got):
    value = _value(got)
    return value is not None and value["after eval()"][:1] == [False] and True in value["after eval()"]


def non_persistent_saved(which, got):
    value = _value(got)
    return value is not None and any(key.endswith("scratch") for key in value["state_dict keys"])


#: (name, function, the case's input as shown, how it shows, hint)
MISTAKES6 = [
    (tr("a Parameter not registered by assignment"), "module_setattr", "net = Net(): ", not_registered,
     tr("Some parameters are missing from named_parameters(): assigning a Parameter (self.w = ...) or a "
        "Module (self.fc = ...) must REGISTER it -- into self._parameters (register_parameter) or "
        "self._modules -- not store it as a plain attribute with object.__setattr__; only values that are "
        "none of these are plain attributes. (The same happens to a Parameter kept in a plain Python list: "
        "nothing registers it.)")),
    (tr("the dot missing between prefix and name"), "module_named_members",
     "Sequential(Linear(2, 3), Tanh(), Sequential(Linear(3, 1))).named_parameters()", no_dot,
     tr("The names are the right ones run together: a parameter's name is its owner's dotted name, a "
        "DOT, and its own name -- '0.weight', '2.0.bias' -- with no dot only when the owner's name is '' "
        "(the module itself).")),
    (tr("the submodule's name missing"), "module_named_members",
     "Sequential(Linear(2, 3), Tanh(), Sequential(Linear(3, 1))).named_parameters()", no_owner,
     tr("Every name lacks its submodule's: two layers both give 'weight', and a state_dict could not tell "
        "them apart. Walk named_modules(prefix=prefix) and put each owner's dotted name in front: '0.weight'.")),
    (tr("a shared parameter listed twice"), "module_named_members", "model = Sequential(Linear(2, 2), Linear(2, 2))",
     listed_twice,
     tr("A weight shared by two layers was listed twice, so an optimizer would step it twice. With "
        "remove_duplicate, remember every tensor already yielded (by id) and skip it the second time: "
        "PyTorch lists it once, under its first name.")),
    (tr("train() not recursing into children"), "module_train", "model = Sequential(Linear(2, 2), Sequential(Dropout()",
     not_recursive,
     tr("eval() switched the model itself but not its layers: the Dropout inside still trains. train(mode) "
        "must set self.training and call train(mode) on every child (which does the same for its own).")),
    (tr("non-persistent buffers saved"), "state_dict_mixin_local_state", "Sequential(Scaler()", non_persistent_saved,
     tr("state_dict() saved 'scratch', a buffer registered with persistent=False: such a buffer is module "
        "state that is NOT saved -- skip the names in self._non_persistent_buffers_set.")),
]
