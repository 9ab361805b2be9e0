"""Exercise checks of course/15_normalization_and_regularization.ipynb (reference solutions:
coursekit/solutions/lesson15.py).

    >>> _ = check_norm_predictions(solution.predictions)
    Correct! BatchNorm shares statistics across the batch, LayerNorm within a sample;
             Dropout only acts in training.
"""
from . import guard
from .check import (Case, Question, always_a_verdict, check_function, check_predictions, correct, is_stub,
                    not_answered, raised, ramp, works_only_on_tensorlab, wrong)
from .compare import differences, is_tensor, kind
from .language import tr
from .libs import class_on, libraries
from .solutions import lesson15 as solution

# -- exercise 1: predictions -----------------------------------------------------------------------------


def _x(torch):
    return torch.arange(600.0).view(8, 3, 5, 5)


def _hint(text, **mistakes):
    """A hint; ``mistakes`` maps the repr of a typical wrong prediction to its own hint."""
    def hint(got, truth):
        if isinstance(got, int) and not isinstance(got, bool) and got == truth:
            return tr("The number is right; write it as a float (.item() of a float tensor is a Python float).")
        return mistakes.get(repr(got), text)
    return hint


_BN_DIMS = ("BatchNorm2d computes one mean per *channel*, over the batch and all positions -- dims (0, 2, 3); "
            "after it, those means are ~0. A sample's mean over its channels (dims (1, 2, 3)) is not.")

NORM_QUESTIONS = [
    Question("nn.BatchNorm2d(3).running_mean.shape", lambda torch: tuple(torch.nn.BatchNorm2d(3).running_mean.shape),
             tr("BatchNorm2d(C) keeps one running mean per channel -- not per pixel or per sample.")),
    Question("nn.LayerNorm([5, 5]).weight.shape", lambda torch: tuple(torch.nn.LayerNorm([5, 5]).weight.shape),
             _hint(tr("LayerNorm learns one scale per element of normalized_shape."),
                   **{"(5,)": tr("normalized_shape names all the trailing dims LayerNorm normalizes over: it learns "
                                 "one scale for every element of them, kept in that shape.")})),
    Question("nn.BatchNorm2d(3)(x).mean(dim=(0, 2, 3)).abs().max().item() < 1e-4",
             lambda torch: torch.nn.BatchNorm2d(3)(_x(torch)).mean(dim=(0, 2, 3)).abs().max().item() < 1e-4,
             tr(_BN_DIMS)),
    Question("nn.BatchNorm2d(3)(x).mean(dim=(1, 2, 3)).abs().max().item() < 1e-4",
             lambda torch: torch.nn.BatchNorm2d(3)(_x(torch)).mean(dim=(1, 2, 3)).abs().max().item() < 1e-4,
             tr(_BN_DIMS)),
    Question("nn.LayerNorm([5, 5])(x).mean(dim=(2, 3)).abs().max().item() < 1e-4",
             lambda torch: torch.nn.LayerNorm([5, 5])(_x(torch)).mean(dim=(2, 3)).abs().max().item() < 1e-4,
             tr("LayerNorm([5, 5]) normalizes over the last two dims, separately for every (sample, channel): "
                "each 5 x 5 plane has mean ~0.")),
    Question("nn.Dropout(p=0.2)(torch.ones(1000)).max().item()",
             lambda torch: torch.nn.Dropout(p=0.2)(torch.ones(1000)).max().item(),
             _hint(tr("In training, the survivors are scaled by 1 / (1 - p)."),
                   **{"1.0": tr("A new module is in training mode: the survivors are scaled by 1 / (1 - p), so that "
                                "the expected value stays 1."),
                      "0.8": tr("The survivors are *divided* by (1 - p), not multiplied: 1 / 0.8.")})),
    Question("nn.Dropout(p=0.2).eval()(torch.ones(1000)).max().item()",
             lambda torch: torch.nn.Dropout(p=0.2).eval()(torch.ones(1000)).max().item(),
             _hint(tr("In eval mode Dropout does nothing at all: no zeros, no scaling."))),
    Question('round(nn.init.kaiming_normal_(torch.empty(200, 800), nonlinearity="relu").std().item(), 2)',
             lambda torch: round(torch.nn.init.kaiming_normal_(torch.empty(200, 800),
                                                               nonlinearity="relu").std().item(), 2),
             _hint(tr("kaiming_normal_ for relu draws with std = sqrt(2 / fan_in), and fan_in of a weight "
                      "[out, in] is its number of inputs."),
                   **{"0.1": tr("fan_in is the number of *inputs* of each unit: the second size of a [out, in] "
                                "weight, not the first."),
                      "0.04": tr("For relu the gain is sqrt(2): std = sqrt(2 / fan_in), not sqrt(1 / fan_in)."),
                      "0.03": tr("For relu the gain is sqrt(2): std = sqrt(2 / fan_in), not sqrt(1 / fan_in).")})),
]


def check_norm_predictions(answer):
    """Exercise 1: a tuple of 8 predictions (shapes as tuples, True/False, floats)."""
    return check_predictions(answer, NORM_QUESTIONS,
                             what=tr("a tuple of 8 predictions: shapes as tuples, True/False, floats"),
                             note=tr("BatchNorm shares statistics across the batch, LayerNorm within a sample; "
                                     "Dropout only acts in training."))


# -- exercise 2: the running statistics by hand -------------------------------------------------------------

LESSON_X = [[1.0, 2.0, 3.0], [3.0, 6.0, 9.0], [5.0, 1.0, 0.0], [7.0, 3.0, 4.0]]

RUNNING_CASES = [
    Case(tr("running_mean zeros(3), running_var ones(3), the lesson's x (4, 3), momentum 0.1"),
         lambda torch: (torch.zeros(3), torch.ones(3), torch.tensor(LESSON_X), 0.1)),
    Case(tr("running_mean [1., -1.], running_var [2., 0.5], x of shape (6, 2), momentum 0.3"),
         lambda torch: (torch.tensor([1.0, -1.0]), torch.tensor([2.0, 0.5]),
                        (ramp(torch, 6, 2) * 4).sin() * 3 + 1, 0.3)),
]


def _pair(got):
    return isinstance(got, (tuple, list)) and len(got) == 2 and all(is_tensor(g) for g in got)


def _same_pair(got, a, b):
    return all(tuple(g.shape) == tuple(e.shape) and not differences(g, e, grads=False) for g, e in zip(got, (a, b)))


def _diagnose_running(got, expected, args, torch):
    running_mean, running_var, x, m = args
    if isinstance(got, Exception):
        if "must match the size" in str(got):
            return tr("One statistic per feature (column): reduce over the batch, dim=0.")
        return None
    if not _pair(got):
        return tr("Return a pair: (new running_mean, new running_var).")
    if any(tuple(g.shape) != tuple(running_mean.shape) for g in got):
        return tr("One statistic per feature (column): reduce over the batch, dim=0.")
    mean, var, biased = x.mean(dim=0), x.var(dim=0), x.var(dim=0, unbiased=False)
    if _same_pair(got, m * running_mean + (1 - m) * mean, m * running_var + (1 - m) * var):
        return tr("momentum is the weight of the *new* batch statistic (the opposite of an optimizer's momentum): "
                  "running = (1 - momentum) * running + momentum * batch.")
    if _same_pair(got, expected[0], (1 - m) * running_var + m * biased):
        return tr("running_var uses the *unbiased* variance of the batch (divide by N - 1: x.var(dim=0)), while the "
                  "normalization itself uses the biased one.")
    if _same_pair(got, expected[0], (1 - m) * running_var + m * var.sqrt()) or \
            _same_pair(got, expected[0], (1 - m) * running_var + m * biased.sqrt()):
        return tr("running_var holds a variance, not a standard deviation.")
    if _same_pair(got, mean, var) or _same_pair(got, mean, biased):
        return tr("Those are the batch's statistics; the running ones are an average: keep (1 - momentum) of the "
                  "old value.")
    return None


def check_running_stats(update_running_stats):
    """Exercise 2: ``update_running_stats(running_mean, running_var, x, momentum)`` -> the new pair."""
    return check_function(update_running_stats, solution.update_running_stats, RUNNING_CASES,
                          name="update_running_stats", grads=False,
                          what=tr("a function body that returns (new running_mean, new running_var) after "
                                  "BatchNorm1d sees the batch x (N, C) in training mode"),
                          diagnoses=[_diagnose_running],
                          note=tr("That is _update_running in tensorlab/ops/nn_norm.py: running = (1 - momentum) * "
                                  "running + momentum * batch, with the unbiased variance."))


# -- exercise 3: BatchNorm in eval mode by hand ----------------------------------------------------------------

def _bn(torch, module, mean, var, weight, bias):
    bn = module(len(mean))
    with torch.no_grad():
        bn.running_mean.copy_(torch.tensor(mean))
        bn.running_var.copy_(torch.tensor(var))
        bn.weight.copy_(torch.tensor(weight))
        bn.bias.copy_(torch.tensor(bias))
    return bn


EVAL_CASES = [
    Case(tr("the lesson's x (4, 3) and a BatchNorm1d(3) with running_var [4.0, 0.25, 1e-05]"),
         lambda torch: (torch.tensor(LESSON_X), _bn(torch, torch.nn.BatchNorm1d, [0.5, -1.0, 2.0], [4.0, 0.25, 1e-5],
                                                    [2.0, 1.0, 0.5], [0.0, 1.0, -1.0]))),
    Case(tr("x of shape (2, 2, 3, 4) and a BatchNorm2d(2)"),
         lambda torch: ((ramp(torch, 2, 2, 3, 4) * 5).cos() * 2,
                        _bn(torch, torch.nn.BatchNorm2d, [0.3, -0.2], [0.5, 2.0], [1.5, -1.0], [0.1, 0.2]))),
]


def _same(a, b):
    return is_tensor(a) and is_tensor(b) and tuple(a.shape) == tuple(b.shape) and not differences(a, b, grads=False)


def _diagnose_eval(got, expected, args, torch):
    x, bn = args
    if isinstance(got, Exception):
        if "must match the size" in str(got):
            return tr("running_mean has shape (C,): against an (N, C, H, W) input it lines up with the *last* dim. "
                      "Reshape the statistics and parameters to (1, C, 1, 1), or (1, C) for (N, C).")
        return None
    if not is_tensor(got):
        return None
    shape = (1, -1) + (1,) * (x.dim() - 2)
    mean, var = bn.running_mean.view(shape), bn.running_var.view(shape)
    weight, bias = bn.weight.view(shape), bn.bias.view(shape)
    with torch.no_grad():
        batch = torch.nn.functional.batch_norm(x, None, None, bn.weight, bn.bias, True, 0.1, bn.eps)
        if _same(got, batch):
            return tr("That normalizes with the batch's own mean and variance -- what training mode does. In eval "
                      "mode BatchNorm uses running_mean and running_var instead.")
        if _same(got, (x - mean) / var.sqrt() * weight + bias):
            return tr("Add eps inside the square root, sqrt(running_var + eps): it matters when a variance is tiny "
                      "(one channel here has running_var 1e-05).")
        if _same(got, (x - mean) / (var + bn.eps) * weight + bias):
            return tr("Divide by the standard deviation, sqrt(running_var + eps), not by the variance.")
        if _same(got, (x - mean) / (var + bn.eps).sqrt()):
            return tr("Then scale by weight and shift by bias (the learned gamma and beta).")
        if _same(got, (x - mean) / (var + bn.eps).sqrt() * weight):
            return tr("Then shift by bias (the learned beta).")
    return None


def check_batchnorm_eval(batchnorm_eval):
    """Exercise 3: ``batchnorm_eval(x, bn)`` returns what ``bn.eval()(x)`` would, computed by hand."""
    return check_function(batchnorm_eval, solution.batchnorm_eval, EVAL_CASES, name="batchnorm_eval", grads=False,
                          what=tr("a function body that returns what bn.eval()(x) returns, computed from bn's "
                                  "running_mean, running_var, eps, weight and bias"),
                          diagnoses=[_diagnose_eval],
                          note=tr("In eval mode BatchNorm is a fixed per-channel scale and shift: the same output "
                                  "for a sample whatever else is in the batch."))


# -- exercise 4: ResNet's basic block -------------------------------------------------------------------------

BLOCK_SHAPES = ((4, 4, 1), (4, 6, 2))      # (inplanes, planes, stride): the shortcut x, then downsample(x)


def block_state(torch, inplanes, planes, stride):
    """A state_dict for the block, the same numbers on every library (built in NumPy): convolution
    weights, and BatchNorm weights, biases and running statistics away from 1 and 0."""
    import numpy as np
    rng = np.random.default_rng(inplanes * 10 + planes + stride)
    shapes = {"conv1.weight": (planes, inplanes, 3, 3), "conv2.weight": (planes, planes, 3, 3)}
    norms = ["bn1", "bn2"]
    if stride != 1 or inplanes != planes:
        shapes["downsample.0.weight"] = (planes, inplanes, 1, 1)
        norms.append("downsample.1")
    state = {k: rng.standard_normal(s) * 0.4 for k, s in shapes.items()}
    for bn in norms:
        state[f"{bn}.weight"] = 1 + 0.3 * rng.standard_normal(planes)
        state[f"{bn}.bias"] = 0.3 * rng.standard_normal(planes)
        state[f"{bn}.running_mean"] = 0.2 * rng.standard_normal(planes)
        state[f"{bn}.running_var"] = 0.5 + rng.random(planes)
    tensors = {k: torch.tensor(v.astype(np.float32)) for k, v in state.items()}
    tensors.update({f"{bn}.num_batches_tracked": torch.tensor(3) for bn in norms})
    return tensors


def _block_input(torch, inplanes):
    return (ramp(torch, 3, inplanes, 6, 6, start=-2.0, stop=2.0) * 3).sin() * 2


def _block_variants(block, x, torch):
    """What the usual wrong forwards compute, with ``block``'s own layers: ``{hint: output}``."""
    relu = torch.relu
    identity = x if block.downsample is None else block.downsample(x)
    inner = block.bn2(block.conv2(relu(block.bn1(block.conv1(x)))))
    return {
        tr("The block ends with a ReLU *after* the addition: relu(bn2(...) + shortcut)."): inner + identity,
        tr("The last ReLU comes after the addition, not before it: add the shortcut to bn2's output, then apply "
           "ReLU."): relu(inner) + identity,
        tr("Add the shortcut: the block returns relu(F(x) + shortcut), not relu(F(x)) -- the `+ x` is what makes it "
           "residual."): relu(inner),
        tr("A ReLU goes between the two convolutions too: conv1 -> bn1 -> relu -> conv2 -> bn2."):
            relu(block.bn2(block.conv2(block.bn1(block.conv1(x)))) + identity),
        tr("Add the shortcut after bn2, not before it: bn2 normalizes only the residual branch."):
            relu(block.bn2(block.conv2(relu(block.bn1(block.conv1(x)))) + identity)),
    }


def _block_problem(cls, reference, shape, torch):
    """(what is off, why) for the learner's ``Block(*shape)`` on ``torch``, or None."""
    inplanes, planes, stride = shape
    label = f"Block({inplanes}, {planes}, stride={stride})"
    block, error = guard.run(cls, inplanes, planes, stride)
    if error is not None:
        return raised(error, tr("Keep __init__ as the lesson gives it; only forward is yours."), subject=label)
    ref = reference(inplanes, planes, stride)
    state = block_state(torch, inplanes, planes, stride)
    ref.load_state_dict(state)
    try:
        block.load_state_dict(block_state(torch, inplanes, planes, stride))
    except (RuntimeError, KeyError, TypeError, AttributeError) as problem:
        first = str(problem).split("\n")[0]
        return (tr("{label}.load_state_dict(...) of a torchvision-style block failed: {error}", label=label,
                   error=first),
                tr("Keep __init__ as the lesson gives it (conv1, bn1, relu, conv2, bn2, downsample): those names "
                   "are what a ResNet's state_dict uses."))
    for training in (True, False):
        block.train(training), ref.train(training)
        x = _block_input(torch, inplanes).requires_grad_()
        got, error = guard.run(block, x)
        mode = "train()" if training else "eval()"
        if error is not None:
            why = ""
            if "must match the size" in str(error) or "size of tensor" in str(error):
                why = tr("With stride 2 or a change of channels the output no longer has x's shape: then the "
                         "shortcut is self.downsample(x), not x.")
            return raised(error, why, subject=tr("{label} in {mode}", label=label, mode=mode))
        if got is Ellipsis:
            return "stub", ""
        x_ref = _block_input(torch, inplanes).requires_grad_()
        expected = ref(x_ref)
        found = differences(got, expected, where=tr("{label} in {mode}", label=label, mode=mode), grads=False) \
            if is_tensor(got) else [tr("{label} returned {kind}, not a tensor", label=label, kind=kind(got))]
        if found:
            why = tr("forward computes relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut).")
            if is_tensor(got):
                with torch.no_grad():
                    for hint, value in _block_variants(ref, _block_input(torch, inplanes), torch).items():
                        if not differences(got.detach(), value, grads=False):
                            why = hint
                            break
            return found[0], why
        if training:
            g = _block_input(torch, planes)[:, :, ::stride, ::stride].cos()
            got.backward(g)
            expected.backward(g)
            found = differences(x.grad, x_ref.grad, where=tr("x.grad after {label}(x).backward(g)", label=label),
                                grads=False)
            if found:
                return found[0], tr("Build the output from the block's layers with differentiable tensor ops only.")
            for (name, mine), (_, theirs) in zip(block.named_buffers(), ref.named_buffers()):
                if differences(mine, theirs, grads=False):
                    return ((tr("after one call in train() mode, {name} is {value}", name=name, value=mine.tolist())
                             if mine.dim() == 0 else tr("after one call in train() mode, {name} is off", name=name)),
                            tr("Call each BatchNorm exactly once per forward: every call in training mode updates "
                               "its running statistics."))
    return None


@always_a_verdict
def check_block(Block):
    """Exercise 4: ``Block.forward`` -- ResNet's basic block, compared with PyTorch after loading the
    same state_dict: output in train() and eval(), the input's gradient, the running statistics."""
    what = tr("a forward that returns relu(residual branch + shortcut)")
    if is_stub(Block):
        return not_answered(what)
    if not isinstance(Block, type):
        return wrong(tr("`{name}` should be a class (a subclass of nn.Module); it is {kind}.", name="Block",
                        kind=kind(Block)))
    for index, (_, library) in enumerate(libraries()):
        cls, reference = class_on(library, Block), class_on(library, solution.Block)
        for shape in BLOCK_SHAPES:
            problem = _block_problem(cls, reference, shape, library)
            if problem is None:
                continue
            found, why = problem
            if found == "stub":
                return not_answered(what)
            if index > 0:
                return works_only_on_tensorlab("`Block`", library, found)
            return wrong(tr("{found}.", found=found), why)
    return correct(tr("That is torchvision's BasicBlock (tensorlab/vision/models.py): the shortcut adds the "
                      "identity to the block's Jacobian, I + dF/dx."))
