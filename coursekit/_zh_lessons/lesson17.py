"""Lesson 17's own hints in Chinese (coursekit/lesson17.py), keyed by their English text."""

ZH = {
    # -- exercise 1: state and schedules ----------------------------------------------------------
    "Plain SGD (momentum=0) has nothing to remember between steps: it never creates an entry.":
        "普通的 SGD（momentum=0）在两步之间没有什么要记住的：它从不创建条目。",
    "What would plain SGD need to remember between two steps?": "普通的 SGD 在两步之间需要记住什么？",
    "Write the keys as a sorted list of strings, e.g. ['a', 'b']. {hint}":
        "把键写成排好序的字符串列表，例如 ['a', 'b']。{hint}",
    "The number is right, but Adam keeps `step` as a float32 tensor: .item() gives a float.":
        "数是对的，但 Adam 把 `step` 存成一个 float32 张量：.item() 给出的是浮点数。",
    "Adam's `step` counts the steps taken with this parameter.": "Adam 的 `step` 记的是这个参数走过的步数。",
    "Count the decays: StepLR multiplies the lr by gamma once every step_size scheduler steps -- how many such "
    "boundaries do 4 steps pass?":
        "数一数衰减了几次：调度器每走 step_size 步，StepLR 就把 lr 乘以一次 gamma——4 步会越过几个这样的边界？",
    "scheduler.step() was called 4 times, and StepLR multiplies the lr by gamma every step_size of them: the lr "
    "has changed.":
        "scheduler.step() 被调用了 4 次，而每 step_size 次 StepLR 就把 lr 乘以 gamma：lr 已经变了。",
    "StepLR multiplies the lr by gamma every step_size scheduler steps.":
        "调度器每走 step_size 步，StepLR 就把 lr 乘以 gamma。",
    "SGD(lr=0.1), 1 step: len(opt.state)": "SGD(lr=0.1)，走 1 步：len(opt.state)",
    "SGD(lr=0.1, momentum=0.9), 1 step: sorted(opt.state[p])": "SGD(lr=0.1, momentum=0.9)，走 1 步：sorted(opt.state[p])",
    "Momentum keeps one running sum of gradients per parameter.": "动量为每个参数保存一个梯度的累计和。",
    "Adam(lr=0.1), 1 step: sorted(opt.state[p])": "Adam(lr=0.1)，走 1 步：sorted(opt.state[p])",
    "Adam keeps a step count and two running averages: of the gradient and of its square.":
        "Adam 保存一个步数和两个滑动平均：梯度的，以及梯度平方的。",
    'Adam(lr=0.1), 3 steps: opt.state[p]["step"].item()': 'Adam(lr=0.1)，走 3 步：opt.state[p]["step"].item()',
    'SGD(lr=1.0) + StepLR(step_size=2, gamma=0.1), 4 steps: opt.param_groups[0]["lr"]':
        'SGD(lr=1.0) + StepLR(step_size=2, gamma=0.1)，走 4 步：opt.param_groups[0]["lr"]',
    "a tuple of 5 predictions: an int, two sorted lists of key names, two floats":
        "一个含 5 个预测的元组：一个整数，两个排好序的键名列表，两个浮点数",
    'An optimizer\'s state is whatever its update needs to remember; a scheduler only rewrites group["lr"].':
        '优化器的状态就是它的更新需要记住的那些东西；调度器只改写 group["lr"]。',
    # -- exercise 2: Adam's first step ------------------------------------------------------------
    "gradients {grad}, lr={lr}": "梯度 {grad}，lr={lr}",
    "That is SGD's step. Adam divides the (averaged) gradient by the root of its (averaged) square.":
        "这是 SGD 的一步。Adam 用（平均后的）梯度除以它（平均后的）平方的平方根。",
    "Adam moves *against* the gradient, as SGD does.": "Adam 和 SGD 一样，*逆着*梯度移动。",
    "Right for large gradients -- but eps=1e-8 is added to sqrt(v_hat): a gradient of 1e-8 moves its coordinate "
    "by lr/2, not lr.":
        "对大的梯度是对的——但 sqrt(v_hat) 上还加了 eps=1e-8：1e-8 的梯度让它那个坐标移动 lr/2，而不是 lr。",
    "Without the bias corrections: m and v start at 0, so after one step they are 0.1 g and 0.001 g^2; Adam "
    "divides them by (1 - beta1^t) and (1 - beta2^t).":
        "少了偏差修正：m 和 v 从 0 开始，所以一步之后它们是 0.1 g 和 0.001 g^2；"
        "Adam 会把它们分别除以 (1 - beta1^t) 和 (1 - beta2^t)。",
    "Divide by the *root* of v_hat (|g| at the first step), not by v_hat itself.":
        "要除以 v_hat 的*平方根*（第一步时是 |g|），而不是 v_hat 本身。",
    "At the first step sqrt(v_hat) is |g|: v_hat = g^2.": "第一步时 sqrt(v_hat) 就是 |g|：v_hat = g^2。",
    "a function body that returns p after one step of Adam with gradient grad":
        "一个函数体：返回用梯度 grad 走一步 Adam 之后的 p",
    "Adam's first step is lr * g / (|g| + eps): about lr for every coordinate, which is why Adam's lr is a step "
    "*length*, not a gradient multiplier.":
        "Adam 的第一步是 lr * g / (|g| + eps)：每个坐标都移动大约 lr，"
        "所以 Adam 的 lr 是一步的*长度*，而不是梯度的倍数。",
    # -- exercise 3: SGD with momentum and weight decay, by hand ----------------------------------
    "the first step (buf is None), {settings}": "第一步（buf 为 None），{settings}",
    "a later step (buf {buf}), {settings}": "后面的一步（buf {buf}），{settings}",
    "a later step, {settings}": "后面的一步，{settings}",
    "the first step, {settings}": "第一步，{settings}",
    "At the first step there is no buffer yet (buf is None): the buffer starts as the gradient.":
        "第一步时还没有缓冲（buf 为 None）：缓冲的初始值就是梯度。",
    "Return both: (the new p, the new buffer) -- the optimizer keeps the buffer for the next step.":
        "两样都要返回：(新的 p, 新的缓冲)——优化器要把缓冲留到下一步用。",
    "PyTorch's SGD adds the whole gradient, buf = momentum * buf + grad (its dampening is 0); weighting the "
    "gradient by (1 - momentum) is what Adam's averages do.":
        "PyTorch 的 SGD 加上的是整个梯度，buf = momentum * buf + grad（它的 dampening 为 0）；"
        "给梯度乘上 (1 - momentum) 的权重，是 Adam 的平均值的做法。",
    "At the first step the buffer is the gradient itself, not momentum times it.":
        "第一步时缓冲就是梯度本身，而不是 momentum 乘以梯度。",
    "Weight decay comes first: the gradient the buffer adds is grad + weight_decay * p, so the decay is carried "
    "along by the momentum too.":
        "权重衰减先做：缓冲加上的梯度是 grad + weight_decay * p，所以衰减也会被动量带着走。",
    "Step with the buffer, not with the gradient: p - lr * buf.": "用缓冲走一步，而不是用梯度：p - lr * buf。",
    "Update the buffer first, then step with the *new* buffer.": "先更新缓冲，再用*新的*缓冲走一步。",
    "Move *against* the buffer: p - lr * buf.": "*逆着*缓冲移动：p - lr * buf。",
    "a function body that returns (new p, new buffer) after one step of SGD with momentum and weight decay":
        "一个函数体：返回带动量和权重衰减的 SGD 走一步之后的 (新的 p, 新的缓冲)",
    "That is SGD._update in tensorlab/optim/sgd.py: the buffer is the one optimizer.state[p] keeps as "
    "momentum_buffer.":
        "这就是 tensorlab/optim/sgd.py 里的 SGD._update：缓冲就是 optimizer.state[p] 以 momentum_buffer 保存的那个。",
}
