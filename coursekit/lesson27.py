"""Exercise checks of course/27_memory_in_autograd.ipynb (reference solutions: coursekit/solutions/lesson27.py).

Exercise 1's answer is a pair of saved-tensor hooks: the check calls them directly (what does pack keep?
what does unpack give back?) and then trains nothing but runs a small model's backward under them, on
tensorlab and on PyTorch, comparing the gradients with those computed without hooks. Exercise 2's answer
runs a list of layers in segments: the check counts what it did -- the Linear forwards (a forward hook)
and the tensors kept for backward (an outer pack hook) -- besides comparing its output and gradients.

    >>> _ = check_half_hooks(solution.pack_half, solution.unpack_half)
    Correct! Half the bytes per saved tensor, and gradients within float16's rounding.
    >>> _ = check_run_in_segments(solution.run_in_segments)
    Correct! Only the segments' inputs are kept; backward runs each segment again, once.
    >>> _ = check_memory_facts(solution.predictions)
    Correct! A checkpoint trades the bytes it does not keep for one more run of the
             function.
"""
import types
import warnings

import numpy as np

from . import guard
from .check import Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong
from .check import works_only_on_tensorlab
from .compare import describe, differences, is_tensor, kind
from .language import tr
from .libs import libraries, on
from .solutions import lesson27 as solution


def _on(library, function):
    """:func:`coursekit.libs.on`, which also swaps functions imported from tensorlab.utils.checkpoint
    (``from tensorlab.utils.checkpoint import checkpoint``) for the library's own."""
    function = on(library, function)
    if not isinstance(function, types.FunctionType):
        return function
    own = library.utils.checkpoint
    for name, value in list(function.__globals__.items()):
        module = getattr(value, "__module__", None) or ""
        if callable(value) and module.startswith("tensorlab.utils.checkpoint") and hasattr(own, value.__name__):
            function.__globals__[name] = getattr(own, value.__name__)
    return function


def _ramp(torch, *shape, dtype=None, start=-1.0, stop=1.0):
    n = int(np.prod(shape))
    return torch.tensor(np.linspace(start, stop, n).reshape(shape), dtype=dtype or torch.float32)


def _tensors_in(value, depth=0):
    """Every tensor inside ``value`` (a tensor, or tuples, lists and dicts of them)."""
    if is_tensor(value):
        return [value]
    if depth > 3:
        return []
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors_in(v, depth + 1)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors_in(v, depth + 1)]
    return []


# -- exercise 1: float16 saved tensors -------------------------------------------------------------------

def _round_trip(pack, unpack, t, label):
    """(packed, unpacked) for ``t``, or a verdict-ready (what, why) problem, or "stub"."""
    before = guard.snapshot(t)
    packed, error = guard.run(pack, t)
    if error is not None:
        return raised(error, tr("pack_half gets one tensor and returns what to keep instead of it."),
                      f"pack_half({label})")
    if packed is Ellipsis:
        return "stub"
    changed = guard.changes(before, t, "tensor")
    if changed:
        return (tr("pack_half({label}) changed the tensor it was given: {change}", label=label, change=changed[0]),
                tr("A pack hook must leave its input alone (autograd refuses a pack hook that writes into it): "
                   "make a converted copy instead."))
    unpacked, error = guard.run(unpack, packed)
    if error is not None:
        return raised(error, tr("unpack_half gets exactly what pack_half returned."),
                      f"unpack_half(pack_half({label}))")
    if unpacked is Ellipsis:
        return "stub"
    return packed, unpacked


def _check_float32(pack, unpack, torch):
    t = _ramp(torch, 4, 3)
    result = _round_trip(pack, unpack, t, tr("a float32 tensor of shape (4, 3)"))
    if result == "stub" or (isinstance(result, tuple) and isinstance(result[0], str)):
        return result
    packed, unpacked = result
    kept = _tensors_in(packed)
    if not any(k.dtype == torch.float16 for k in kept):
        dtypes = sorted({str(k.dtype) for k in kept}) or [tr("no tensor at all")]
        return (tr("pack_half(a float32 tensor) keeps {dtypes}, not a float16 copy", dtypes=", ".join(dtypes)),
                tr("The pack hook's result is what autograd keeps: convert the tensor with .to(torch.float16) "
                   "and return that (with whatever unpack needs to undo it)."))
    if any(k is t or (k.dtype == t.dtype and k.data_ptr() == t.data_ptr()) for k in kept):
        return (tr("pack_half(a float32 tensor) keeps the float32 tensor as well as the float16 copy"),
                tr("Keeping the original beside the copy saves nothing: keep only the float16 copy and what "
                   "unpack needs to know (its dtype)."))
    if not is_tensor(unpacked):
        return (tr("unpack_half(...) returned {kind}, not a tensor", kind=kind(unpacked)),
                tr("The unpack hook must give backward a tensor with the saved tensor's values."))
    if unpacked.dtype != torch.float32:
        return (tr("unpack_half(pack_half(a float32 tensor)) has dtype {dtype}", dtype=unpacked.dtype),
                tr("Give backward the dtype that was saved: convert back with .to(...) in unpack_half."))
    found = differences(unpacked.detach(), t, where="unpack_half(pack_half(t))", rtol=1e-3, atol=1e-3)
    if found:
        return (found[0], tr("unpack_half must give back the saved values (up to float16's rounding)."))
    return None


def _check_other_dtypes(pack, unpack, torch):
    t64 = _ramp(torch, 5, dtype=torch.float64)
    result = _round_trip(pack, unpack, t64, tr("a float64 tensor"))
    if result == "stub" or isinstance(result[0], str):
        return result
    unpacked = result[1]
    if not is_tensor(unpacked) or unpacked.dtype != torch.float64:
        got = unpacked.dtype if is_tensor(unpacked) else kind(unpacked)
        return (tr("unpack_half(pack_half(a float64 tensor)) gives {got}", got=got),
                tr("Do not assume float32: remember the dtype of the tensor in pack_half (return it with the "
                   "copy) and convert back to that dtype in unpack_half."))
    indices = torch.arange(3000, 3008)
    result = _round_trip(pack, unpack, indices, tr("torch.arange(3000, 3008), an int64 tensor"))
    if result == "stub" or isinstance(result[0], str):
        return result
    unpacked = result[1]
    exact = is_tensor(unpacked) and unpacked.dtype == torch.int64 and not differences(unpacked, indices)
    if not exact:
        shown = describe(unpacked.tolist() if is_tensor(unpacked) else unpacked, limit=70)
        return (tr("unpack_half(pack_half(torch.arange(3000, 3008))) gives {shown}, not the same int64 tensor",
                   shown=shown),
                tr("Ops also save integer tensors (the indices of max, a loss's targets), and float16 cannot hold "
                   "every integer: convert only floating-point tensors (tensor.is_floating_point()) and keep the "
                   "others as they are."))
    return None


def _model_grads(torch, hooks):
    """Gradients of a small float32 model whose backward needs saved floats and saved indices."""
    x = _ramp(torch, 4, 6).requires_grad_()
    w = _ramp(torch, 6, 5, start=-0.5, stop=0.7).requires_grad_()
    target = torch.tensor([0, 3, 1, 4])

    def forward():
        h = (x @ w).tanh()
        best = h.max(dim=1).values                       # saves int64 indices
        return torch.nn.functional.cross_entropy(h.exp(), target) + best.sum()
    if hooks is None:
        forward().backward()
    else:
        with torch.autograd.graph.saved_tensors_hooks(*hooks):
            loss = forward()
        loss.backward()
    return x.grad, w.grad


def _check_model(pack, unpack, torch):
    expected = _model_grads(torch, None)
    got, error = guard.run(_model_grads, torch, (pack, unpack))
    if error is not None:
        return raised(error, tr("Under the hooks, every saved tensor goes through pack_half and comes back "
                                "through unpack_half: run the lesson's model under them and read the error."),
                      tr("a backward under your hooks"))
    for name, g, e in zip(("x.grad", "w.grad"), got, expected):
        found = differences(g, e, where=tr("{name} under your hooks", name=name), rtol=2e-2, atol=2e-3)
        if found:
            return (found[0], tr("The gradients should stay within float16's rounding of those without hooks: "
                                 "does every tensor come back with its own values and dtype?"))
    return None


@always_a_verdict
def check_half_hooks(pack_half, unpack_half=None):
    """Exercise 1: ``pack_half`` keeps a float16 copy of a floating-point tensor; ``unpack_half`` gives the
    tensor back in its dtype; a backward under them gives nearly the gradients without them."""
    what = tr("the bodies of pack_half and unpack_half")
    if is_stub(pack_half) or is_stub(unpack_half):
        return not_answered(what)
    for name, hook in (("pack_half", pack_half), ("unpack_half", unpack_half)):
        if unpack_half is not None and not callable(hook):
            return wrong(tr("`{name}` should be a function of one argument; it is {kind}.", name=name,
                            kind=kind(hook)))
    for index, (_, library) in enumerate(libraries()):
        pack, unpack = _on(library, pack_half), _on(library, unpack_half) if unpack_half is not None else None
        for step in (_check_float32, _check_other_dtypes, _check_model):
            if unpack is None and step is not _check_float32:
                break
            problem = step(pack, unpack if unpack is not None else (lambda packed: Ellipsis), library)
            if problem is None:
                continue
            if problem == "stub":
                return not_answered(what)
            found, why = problem
            if index > 0:
                return works_only_on_tensorlab(tr("your hooks"), library, found)
            return wrong(tr("{found}.", found=found), why)
    return correct(tr("Half the bytes per saved tensor, and gradients within float16's rounding."))


# -- exercise 2: segments by hand ----------------------------------------------------------------------

def _layers(torch, blocks):
    """[Linear(4, 4), Tanh()] * blocks with fixed float64 weights (the libraries' generators differ)."""
    layers = []
    for i in range(blocks):
        linear = torch.nn.Linear(4, 4).double()
        with torch.no_grad():
            linear.weight.copy_(torch.tensor(np.linspace(-0.8, 0.9, 16).reshape(4, 4) * (1 + i / 10)))
            linear.bias.fill_(0.05 * i)
        layers += [linear, torch.nn.Tanh()]
    return layers


SEGMENT_CASES = [(4, 2), (6, 3), (5, 3), (4, 1)]   # (Linear+Tanh blocks, segments): 8, 12, 10, 8 layers


def _run_counted(torch, answer, blocks, segments):
    """Run ``answer`` on fresh layers: (output, grads, Linear forwards, tensors kept, warnings)."""
    layers = _layers(torch, blocks)
    x = torch.tensor(np.linspace(-1, 1, 12).reshape(3, 4), requires_grad=True)
    calls = []
    for layer in layers:
        if isinstance(layer, torch.nn.Linear):
            layer.register_forward_pre_hook(lambda *_: calls.append(1))   # also counts a run cut short
    parameters = {p.data_ptr() for layer in layers for p in layer.parameters()}
    kept = set()

    def count(t):
        if t.data_ptr() not in parameters:
            kept.add(t.data_ptr())
        return t
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.graph.saved_tensors_hooks(count, lambda t: t):
            out = answer(layers, segments, x)
        forwards = len(calls)
        if is_tensor(out) and out.requires_grad:
            out.pow(2).sum().backward()
    grads = [x.grad] + [p.grad for layer in layers for p in layer.parameters()]
    reentrant = [str(w.message) for w in caught if "use_reentrant" in str(w.message)]
    return out, grads, forwards, len(calls) - forwards, len(kept), reentrant


def _check_segments_case(answer, torch, blocks, segments):
    label = (tr("{n} layers in {k} segments", n=2 * blocks, k=segments) if segments > 1 else
             tr("{n} layers in {k} segment", n=2 * blocks, k=segments))
    result, error = guard.run(_run_counted, torch, answer, blocks, segments)
    if error is not None:
        return raised(error, tr("Each segment is a list of layers run one after the other; checkpoint(function, "
                                "*args, use_reentrant=False) calls function(*args)."),
                      tr("run_in_segments on {label}", label=label))
    out, grads, forwards, recomputed, kept, reentrant = result
    if out is Ellipsis:
        return "stub"
    ref_out, ref_grads, ref_forwards, ref_recomputed, ref_kept, _ = _run_counted(torch, _on(torch, solution.run_in_segments),
                                                                                  blocks, segments)
    found = differences(out, ref_out, where=tr("the output"), grads=False)
    if found:
        why = tr("Every layer must run exactly once, in order: the last segment also takes the layers left over.")
        if forwards != ref_forwards:
            why = tr("The forward ran {got} Linear layers instead of {expected}: {why}", got=forwards,
                     expected=ref_forwards, why=why)
        return (tr("on {label}, {found}", label=label, found=found[0]), why)
    if reentrant:
        return (tr("on {label}, checkpoint warned: {warning}...", label=label, warning=reentrant[0][:70]),
                tr("Pass use_reentrant=False to every checkpoint call (the variant built on saved-tensor hooks)."))
    if ref_recomputed and recomputed == 0:
        return (tr("on {label}, backward ran no layer again and kept {kept} tensors (the reference keeps "
                   "{ref_kept})", label=label, kept=kept, ref_kept=ref_kept),
                tr("Nothing was checkpointed: run each segment but the last through "
                   "torch.utils.checkpoint.checkpoint."))
    if recomputed == forwards and ref_recomputed < ref_forwards:
        return (tr("on {label}, backward ran {recomputed} Linear layers again (the reference: {ref_recomputed})",
                   label=label, recomputed=recomputed, ref_recomputed=ref_recomputed),
                tr("The last segment's activations are the first that backward needs: run it plainly, not under a "
                   "checkpoint (checkpointing it costs one more forward and saves nothing)."))
    for g, e in zip(grads, ref_grads):
        found = differences(g, e, where=tr("a gradient"), grads=False)
        if found:
            return (tr("on {label}, {found}", label=label, found=found[0]),
                    tr("The output is right but backward's recomputation ran other layers: a function that a "
                       "checkpoint keeps runs again during backward, and a lambda or inner function that reads the "
                       "loop's variables then sees their last values. Pass the segment's layers as an argument "
                       "(checkpoint(run, chunk, x, ...)) or bind them (a default argument, functools.partial)."))
    if kept != ref_kept or recomputed != ref_recomputed:
        return (tr("on {label}, the forward kept {kept} tensors and backward ran {recomputed} Linear layers again "
                   "(the reference: {ref_kept} and {ref_recomputed})", label=label, kept=kept,
                   recomputed=recomputed, ref_kept=ref_kept, ref_recomputed=ref_recomputed),
                tr("Cut the layers into `segments` consecutive chunks of len(layers) // segments (the last one "
                   "takes the rest) and checkpoint every chunk but the last, one checkpoint per chunk."))
    return None


@always_a_verdict
def check_run_in_segments(run_in_segments):
    """Exercise 2: ``run_in_segments(layers, segments, x)`` as checkpoint_sequential does it."""
    what = tr("the body of run_in_segments (checkpoint every segment but the last; return the output)")
    if is_stub(run_in_segments):
        return not_answered(what)
    if not callable(run_in_segments):
        return wrong(tr("`run_in_segments` should be a function (layers, segments, x) -> output; it is {kind}.",
                        kind=kind(run_in_segments)))
    for index, (_, library) in enumerate(libraries()):
        answer = _on(library, run_in_segments)
        for blocks, segments in SEGMENT_CASES:
            problem = _check_segments_case(answer, library, blocks, segments)
            if problem is None:
                continue
            if problem == "stub":
                return not_answered(what)
            found, why = problem
            if index > 0:
                return works_only_on_tensorlab("`run_in_segments`", library, found)
            return wrong(tr("`{name}` {found}.", name="run_in_segments", found=found), why)
    return correct(tr("Only the segments' inputs are kept; backward runs each segment again, once."))


# -- exercise 3: predictions ---------------------------------------------------------------------------

def _runs(torch, how):
    calls = []

    def f(t):
        calls.append(1)
        return t.sin().exp()
    x = torch.ones(1000, requires_grad=True)
    if how == "no_grad":
        with torch.no_grad():
            torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
        return len(calls)
    loss = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False).sum()
    if how == "twice":
        loss.backward(retain_graph=True)
    loss.backward()
    return len(calls)


def _saved_bytes(torch):
    counted = []

    def pack(t):
        counted.append(t.numel() * t.element_size())
        return t
    x = torch.ones(1000, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x.exp().exp()
    return sum(counted)


MEMORY_QUESTIONS = [
    Question(tr("len(calls) after y = checkpoint(f, x, use_reentrant=False); y.sum().backward()"),
             lambda torch: _runs(torch, "once"),
             tr("The forward runs f once and keeps none of its saved tensors; count what backward has to do "
                "before it can use them.")),
    Question(tr("len(calls) after loss.backward(retain_graph=True) and then loss.backward()"),
             lambda torch: _runs(torch, "twice"),
             tr("Each backward pass unpacks the placeholders afresh, and what one pass recomputed is freed as it "
                "goes: count the runs of f per pass.")),
    Question(tr("len(calls) after checkpoint(f, x, use_reentrant=False) under torch.no_grad()"),
             lambda torch: _runs(torch, "no_grad"),
             tr("Under no_grad no graph is recorded: is anything saved, or ever recomputed?")),
    Question(tr("the bytes counted by the pack hook for x.exp().exp(), x of 1000 float32"),
             _saved_bytes,
             tr("Which tensor does each exp save (lesson 08), how many elements has it, and how many bytes is one "
                "float32? Run the cell with the hook to check.")),
]


def check_memory_facts(answer):
    """Exercise 3: a tuple of the 4 predictions of the table."""
    return check_predictions(answer, MEMORY_QUESTIONS, what=tr("a tuple of 4 predictions, e.g. (1, 1, 1, 4000)"),
                             note=tr("A checkpoint trades the bytes it does not keep for one more run of the "
                                     "function."))


__all__ = ["check_half_hooks", "check_memory_facts", "check_run_in_segments"]
