"""Stage 6's cases: small networks built, walked, saved and switched to eval mode -- on tensorlab with
one of the learner's Module functions in place (the rest of the stage tensorlab's own,
:func:`coursekit.build.place.only`) and on PyTorch.

Each case reports names and flags only (which parameters, buffers and children a module has, the
keys of its state_dict, who is in training mode), so the answers are exact on every machine.
"""
from __future__ import annotations

from ..language import tr
from .cases import Case
from .place import only

STAGE = 6


def _net(lib):
    """A module with a child layer, a parameter, a buffer and a plain attribute, all by assignment."""
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 3)
            self.w = nn.Parameter(lib.zeros(2))
            self.register_buffer("mean", lib.zeros(2))
            self.scale = 2.0
    return Net()


def _names(pairs):
    return [name for name, _ in pairs]


def _registered(lib):
    net = _net(lib)
    return {"parameters": _names(net.named_parameters()), "buffers": _names(net.named_buffers()),
            "children": _names(net.named_children()), "'w' in net.__dict__": "w" in vars(net),
            "net.scale": net.scale}


def _set_to_none(lib):
    net = _net(lib)
    net.w = None
    net.fc = None
    return {"parameters": _names(net.named_parameters()), "net.w": net.w, "net.fc": net.fc}


def _tensor_for_a_parameter(lib):
    net = _net(lib)
    net.w = lib.zeros(2)
    return {"parameters": _names(net.named_parameters())}


def _sequential(lib, **kwargs):
    nn = lib.nn
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Sequential(nn.Linear(3, 1)))
    return {"parameters": _names(model.named_parameters(**kwargs))}


def _shared(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    model[1].weight = model[0].weight
    return {"parameters": _names(model.named_parameters()), "len(list(parameters()))": len(list(model.parameters()))}


def _batchnorm_buffers(lib):
    model = lib.nn.Sequential(lib.nn.BatchNorm1d(2))
    return {"buffers": _names(model.named_buffers())}


def _eval(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Dropout(), nn.Linear(2, 1)))
    returned = model.eval()
    after_eval = [m.training for m in model.modules()]
    model.train()
    return {"after eval()": after_eval, "after train()": [m.training for m in model.modules()],
            "eval() returns the model": returned is model}


def _state_dict(lib):
    nn = lib.nn

    class Scaler(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 1)
            self.register_buffer("count", lib.zeros(1))
            self.register_buffer("scratch", lib.zeros(2), persistent=False)
    model = nn.Sequential(Scaler(), nn.BatchNorm1d(1))
    return {"state_dict keys": list(model.state_dict())}


PROGRAMS = {
    "net = Net(): self.fc = Linear(2, 3); self.w = Parameter(zeros(2)); "
    "self.register_buffer('mean', zeros(2)); self.scale = 2.0": _registered,
    "net = Net() (as above); net.w = None; net.fc = None": _set_to_none,
    "net = Net() (as above); net.w = zeros(2)": _tensor_for_a_parameter,
    "Sequential(Linear(2, 3), Tanh(), Sequential(Linear(3, 1))).named_parameters()": _sequential,
    "Sequential(Linear(2, 3), Tanh(), Sequential(Linear(3, 1))).named_parameters(prefix='model')":
        lambda lib: _sequential(lib, prefix="model"),
    "model = Sequential(Linear(2, 2), Linear(2, 2)); model[1].weight = model[0].weight": _shared,
    "Sequential(BatchNorm1d(2)).named_buffers()": _batchnorm_buffers,
    "model = Sequential(Linear(2, 2), Sequential(Dropout(), Linear(2, 1))); model.eval(); model.train()": _eval,
    "Sequential(Scaler(), BatchNorm1d(1)).state_dict(), Scaler: self.fc = Linear(2, 1); "
    "register_buffer('count', zeros(1)); register_buffer('scratch', zeros(2), persistent=False)": _state_dict,
}


def _case(function, program):
    def call(fn, *_):
        from .skeleton import regions
        import tensorlab
        with only(regions(STAGE), function, fn):
            return PROGRAMS[program](tensorlab)
    return Case(STAGE, function, (program,), lambda torch, *_: PROGRAMS[program](torch), call, program,
                lambda: said(program))


def said(program):
    """A program as the learner reads it: the code as it is, "(as above)" in the learner's language."""
    return program.replace(" (as above)", tr(" (as above)"))


def _programs(start):
    return [p for p in PROGRAMS if p.startswith(start)]


STAGE6 = [_case(function, program) for function, start in [
    ("module_setattr", "net = Net(): "),
    ("module_setattr", "net = Net() (as above); net.w = None"),
    ("module_setattr", "net = Net() (as above); net.w = zeros(2)"),
    ("module_named_members", "Sequential(Linear(2, 3), Tanh(), Sequential(Linear(3, 1))).named_parameters()"),
    ("module_named_members", "Sequential(Linear(2, 3), Tanh(), Sequential(Linear(3, 1))).named_parameters(prefix"),
    ("module_named_members", "model = Sequential(Linear(2, 2), Linear(2, 2))"),
    ("module_named_members", "Sequential(BatchNorm1d(2))"),
    ("module_train", "model = Sequential(Linear(2, 2), Sequential(Dropout()"),
    ("state_dict_mixin_local_state", "Sequential(Scaler()"),
] for program in _programs(start)[:1]]
