"""Exercise checks of course/17_optimizers_and_schedules.ipynb (reference solutions:
coursekit/solutions/lesson17.py).

    >>> _ = check_state_predictions(solution.predictions)
    Correct! An optimizer's state is whatever its update needs to remember; a scheduler only
             rewrites group["lr"].
"""
from .check import Case, Question, check_function, check_predictions
from .compare import differences, is_tensor
from .language import tr
from .solutions import lesson17 as solution


# -- exercise 1: state and schedules ------------------------------------------------------------------

def _stepped(make, steps, scheduler=None):
    def compute(torch):
        p = torch.tensor([1.0, -2.0], requires_grad=True)
        opt = make(torch, p)
        sched = scheduler(torch, opt) if scheduler else None
        for _ in range(steps):
            opt.zero_grad()
            (p ** 2).sum().backward()
            opt.step()
            if sched is not None:
                sched.step()
        return opt, p
    return compute


def _sgd(torch, p):
    return torch.optim.SGD([p], lr=0.1)


def _momentum(torch, p):
    return torch.optim.SGD([p], lr=0.1, momentum=0.9)


def _adam(torch, p):
    return torch.optim.Adam([p], lr=0.1)


def _keys(compute):
    def keys(torch):
        opt, p = compute(torch)
        return sorted(opt.state[p])
    return keys


def _hint_empty(predicted, truth):
    if predicted == 1:
        return tr("Plain SGD (momentum=0) has nothing to remember between steps: it never creates an entry.")
    return tr("What would plain SGD need to remember between two steps?")


def _hint_keys(text):
    def hint(predicted, truth):
        if isinstance(predicted, (str, tuple)) or not isinstance(predicted, list):
            return tr("Write the keys as a sorted list of strings, e.g. ['a', 'b']. {hint}", hint=text)
        return text
    return hint


def _hint_count(predicted, truth):
    if isinstance(predicted, int) and not isinstance(predicted, bool) and predicted == truth:
        return tr("The number is right, but Adam keeps `step` as a float32 tensor: .item() gives a float.")
    return tr("Adam's `step` counts the steps taken with this parameter.")


def _hint_lr(predicted, truth):
    if isinstance(predicted, float) and abs(predicted - 0.001) < 1e-9:
        return tr("Count the decays: StepLR multiplies the lr by gamma once every step_size scheduler steps -- "
                  "how many such boundaries do 4 steps pass?")
    if isinstance(predicted, float) and abs(predicted - 0.1) < 1e-9:
        return tr("scheduler.step() was called 4 times, and StepLR multiplies the lr by gamma every step_size "
                  "of them: the lr has changed.")
    return tr("StepLR multiplies the lr by gamma every step_size scheduler steps.")


STATE_QUESTIONS = [
    Question(tr("SGD(lr=0.1), 1 step: len(opt.state)"),
             lambda torch: len(_stepped(_sgd, 1)(torch)[0].state), _hint_empty),
    Question(tr("SGD(lr=0.1, momentum=0.9), 1 step: sorted(opt.state[p])"), _keys(_stepped(_momentum, 1)),
             _hint_keys(tr("Momentum keeps one running sum of gradients per parameter."))),
    Question(tr("Adam(lr=0.1), 1 step: sorted(opt.state[p])"), _keys(_stepped(_adam, 1)),
             _hint_keys(tr("Adam keeps a step count and two running averages: of the gradient and of its square."))),
    Question(tr('Adam(lr=0.1), 3 steps: opt.state[p]["step"].item()'),
             lambda torch: (lambda o, p: o.state[p]["step"].item())(*_stepped(_adam, 3)(torch)), _hint_count),
    Question(tr('SGD(lr=1.0) + StepLR(step_size=2, gamma=0.1), 4 steps: opt.param_groups[0]["lr"]'),
             lambda torch: _stepped(lambda torch, p: torch.optim.SGD([p], lr=1.0), 4,
                                    lambda torch, o: torch.optim.lr_scheduler.StepLR(o, 2, gamma=0.1))(torch)[0]
             .param_groups[0]["lr"], _hint_lr),
]


def check_state_predictions(answer):
    """Exercise 1: a tuple of 5 predictions (an int, two sorted lists of names, two floats)."""
    return check_predictions(answer, STATE_QUESTIONS,
                             what=tr("a tuple of 5 predictions: an int, two sorted lists of key names, two floats"),
                             note=tr('An optimizer\'s state is whatever its update needs to remember; a scheduler '
                                     'only rewrites group["lr"].'))


# -- exercise 2: Adam's first step ----------------------------------------------------------------------

def _case(grad, lr=0.1):
    def make(torch):
        g = torch.tensor(grad)
        return torch.linspace(-1.0, 1.0, len(grad)), g, lr
    return make


ADAM_CASES = [
    Case(tr("gradients {grad}, lr={lr}", grad="[1.0, -100.0, 0.01, 3.0]", lr="0.1"), _case([1.0, -100.0, 0.01, 3.0])),
    Case(tr("gradients {grad}, lr={lr}", grad="[0.5, 0.0, -2.0]", lr="0.01"), _case([0.5, 0.0, -2.0], lr=0.01)),
    Case(tr("gradients {grad}, lr={lr}", grad="[1e-08, -1e-08, 1e-06, 1e-10]", lr="0.1"),
         _case([1e-8, -1e-8, 1e-6, 1e-10])),
]


def _close(a, b):
    return is_tensor(a) and tuple(a.shape) == tuple(b.shape) and not differences(a, b, grads=False)


def _diagnose_adam(got, expected, args, torch):
    p, grad, lr = args
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    if _close(got, p - lr * grad):
        return tr("That is SGD's step. Adam divides the (averaged) gradient by the root of its (averaged) square.")
    if _close(got, p + (expected - p).neg()):
        return tr("Adam moves *against* the gradient, as SGD does.")
    if _close(got, p - lr * torch.sign(grad)):
        return tr("Right for large gradients -- but eps=1e-8 is added to sqrt(v_hat): a gradient of 1e-8 moves "
                  "its coordinate by lr/2, not lr.")
    m, v = 0.1 * grad, 0.001 * grad * grad
    if _close(got, p - lr * m / (v.sqrt() + 1e-8)):
        return tr("Without the bias corrections: m and v start at 0, so after one step they are 0.1 g and "
                  "0.001 g^2; Adam divides them by (1 - beta1^t) and (1 - beta2^t).")
    if _close(got, p - lr * grad / (grad * grad + 1e-8)):
        return tr("Divide by the *root* of v_hat (|g| at the first step), not by v_hat itself.")
    if _close(got, p - lr * grad / (grad.abs() + 1e-8).sqrt()) or _close(got, p - lr * grad / (grad.abs().sqrt() + 1e-8)):
        return tr("At the first step sqrt(v_hat) is |g|: v_hat = g^2.")
    return None


def check_adam_first_step(adam_first_step):
    """Exercise 2: ``adam_first_step(p, grad, lr)`` is the parameter after Adam's first step."""
    return check_function(adam_first_step, solution.adam_first_step, ADAM_CASES, name="adam_first_step",
                          grads=False, diagnoses=[_diagnose_adam],
                          what=tr("a function body that returns p after one step of Adam with gradient grad"),
                          note=tr("Adam's first step is lr * g / (|g| + eps): about lr for every coordinate, "
                                  "which is why Adam's lr is a step *length*, not a gradient multiplier."))


# -- exercise 3: SGD with momentum and weight decay, by hand ------------------------------------------------

def _momentum_case(buf, lr, momentum, weight_decay):
    def make(torch):
        p = torch.tensor([1.0, -2.0, 0.5, 3.0])
        grad = torch.tensor([0.4, -1.0, 2.0, 0.0])
        return p, grad, None if buf is None else torch.tensor(buf), lr, momentum, weight_decay
    return make


MOMENTUM_CASES = [
    Case(tr("the first step (buf is None), {settings}", settings="lr=0.1, momentum=0.9, weight_decay=0"),
         _momentum_case(None, 0.1, 0.9, 0.0)),
    Case(tr("a later step (buf {buf}), {settings}", buf="[1.0, 2.0, -1.0, 0.5]",
            settings="lr=0.1, momentum=0.9, weight_decay=0"),
         _momentum_case([1.0, 2.0, -1.0, 0.5], 0.1, 0.9, 0.0)),
    Case(tr("a later step, {settings}", settings="lr=0.05, momentum=0.5, weight_decay=0.1"),
         _momentum_case([1.0, 2.0, -1.0, 0.5], 0.05, 0.5, 0.1)),
    Case(tr("the first step, {settings}", settings="lr=0.05, momentum=0.5, weight_decay=0.1"),
         _momentum_case(None, 0.05, 0.5, 0.1)),
]


def _diagnose_momentum(got, expected, args, torch):
    p, grad, buf, lr, momentum, weight_decay = args
    if isinstance(got, Exception):
        if buf is None and "NoneType" in str(got):
            return tr("At the first step there is no buffer yet (buf is None): the buffer starts as the gradient.")
        return None
    if is_tensor(got):
        return tr("Return both: (the new p, the new buffer) -- the optimizer keeps the buffer for the next step.")
    if not (isinstance(got, (tuple, list)) and len(got) == 2 and all(is_tensor(t) for t in got)):
        return None
    new_p, new_buf = got
    d_p = grad + weight_decay * p
    old = torch.zeros_like(p) if buf is None else buf

    def buffer_is(value):
        return _close(new_buf, value)
    if buffer_is(momentum * old + (1 - momentum) * d_p):
        return tr("PyTorch's SGD adds the whole gradient, buf = momentum * buf + grad (its dampening is 0); "
                  "weighting the gradient by (1 - momentum) is what Adam's averages do.")
    if buf is None and buffer_is(momentum * d_p):
        return tr("At the first step the buffer is the gradient itself, not momentum times it.")
    if weight_decay and buffer_is(momentum * old + grad if buf is not None else grad):
        return tr("Weight decay comes first: the gradient the buffer adds is grad + weight_decay * p, so the "
                  "decay is carried along by the momentum too.")
    if _close(new_p, p - lr * d_p):
        return tr("Step with the buffer, not with the gradient: p - lr * buf.")
    if buf is not None and _close(new_p, p - lr * buf):
        return tr("Update the buffer first, then step with the *new* buffer.")
    if _close(new_p, p + lr * expected[1]):
        return tr("Move *against* the buffer: p - lr * buf.")
    return None


def check_momentum_step(momentum_step):
    """Exercise 3: ``momentum_step(p, grad, buf, lr, momentum, weight_decay)`` -> (new p, new buffer),
    what ``optim.SGD(..., momentum=, weight_decay=)`` does to one parameter in one step."""
    return check_function(momentum_step, solution.momentum_step, MOMENTUM_CASES, name="momentum_step",
                          grads=False, diagnoses=[_diagnose_momentum],
                          what=tr("a function body that returns (new p, new buffer) after one step of SGD with "
                                  "momentum and weight decay"),
                          note=tr("That is SGD._update in tensorlab/optim/sgd.py: the buffer is the one "
                                  "optimizer.state[p] keeps as momentum_buffer."))
