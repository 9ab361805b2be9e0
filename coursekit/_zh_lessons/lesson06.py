"""Lesson 06's own hints in Chinese (coursekit/lesson06.py), keyed by their English text."""

ZH = {
    "requires_grad defaults to False: a tensor you make is a constant unless you ask for requires_grad=True.":
        "requires_grad 默认为 False：你创建的张量是一个常数，"
        "除非你要求 requires_grad=True。",
    "One input that requires grad is enough: the result depends on w, so autograd must track it.":
        "只要有一个输入需要求导就够了：结果依赖于 w，所以自动求导必须跟踪它。",
    "It was made by an op from a tensor that requires grad, so it has a grad_fn (AddBackward0): not a leaf.":
        "它是由一个运算从需要求导的张量算出来的，所以它有 grad_fn（AddBackward0）：不是叶子节点。",
    "view is an operation too: its result shares w's memory but has a grad_fn (ViewBackward0). Only w itself is "
    "the leaf.":
        "view 也是一个运算：它的结果与 w 共享内存，却有 grad_fn（ViewBackward0）。"
        "只有 w 本身才是叶子节点。",
    "detach() returns a tensor without history (grad_fn None): a new leaf.":
        "detach() 返回一个没有历史的张量（grad_fn 为 None）：一个新的叶子节点。",
    "By convention every tensor that does not require grad is a leaf: it has no grad_fn.":
        "按照约定，每个不需要求导的张量都是叶子节点：它没有 grad_fn。",
    "under `with torch.no_grad():`, (w * 2).requires_grad":
        "在 `with torch.no_grad():` 中，(w * 2).requires_grad",
    "no_grad switches recording off: results made inside have no grad_fn and do not require grad, whatever their "
    "inputs.":
        "no_grad 关掉记录：在里面算出的结果没有 grad_fn，也不需要求导，不论它们的输入是什么。",
    "h = w * 2; (h * h).sum().backward(); then h.grad is None":
        "执行 h = w * 2; (h * h).sum().backward() 之后："
        "h.grad is None",
    "Only leaves keep their gradient in .grad; h is an intermediate result. (h.retain_grad() before backward "
    "would keep it.)":
        "只有叶子节点把梯度保留在 .grad 中；h 是中间结果。"
        "（在 backward 之前调用 h.retain_grad() 就会保留它。）",
    "You can tell what autograd tracks, and what keeps a .grad.":
        "现在你能分辨自动求导跟踪什么，以及谁保留 .grad 了。",
    "a tuple of 8 True/False values, one per line of the table":
        "一个含 8 个 True/False 值的元组，表格每行一个",
    "{w} and three batches": "{w} 和三个批次",
    "a w that still holds .grad = tensor([10., 10.]) from an earlier step":
        "一个仍带着先前某一步留下的 .grad = tensor([10., 10.]) 的 w",
    "Each batch builds its own graph with its own loss: call backward once per loss (no retain_graph needed).":
        "每个批次用它自己的损失构建它自己的图：每个损失调用一次 backward（不需要 retain_graph）"
        "。",
    "w.grad is None until the first backward: there is nothing to zero yet. Set w.grad = None instead (or zero "
    "it only when it is not None).":
        "在第一次 backward 之前，w.grad 是 None：还没有东西可以清零。"
        "改为设置 w.grad = None（或者只在它不是 None 时才清零）。",
    "Return a list with one gradient tensor per batch.": "返回一个列表，每个批次一个梯度张量。",
    "Every entry is the same tensor, zeroed: you stored w.grad itself and then zeroed it in place. Store a copy "
    "(w.grad.clone()), or set w.grad = None instead of zeroing.":
        "每一项都是同一个张量，而且被清零了：你存下的是 w.grad 本身，然后又原地把它清零。"
        "存一份副本（w.grad.clone()），或者不清零，改为设置 w.grad = None。",
    "Every entry is the very same tensor, w.grad: backward adds into it in place, so each entry shows the final "
    "total. Store a copy (w.grad.clone()), or set w.grad = None before each backward so that each batch gets a "
    "fresh .grad.":
        "每一项都是同一个张量 w.grad：backward 原地往它里面累加，所以每一项显示的都是最后的总和。"
        "存一份副本（w.grad.clone()），"
        "或者在每次 backward 之前设置 w.grad = None，让每个批次得到一个新的 .grad。",
    "Each entry is the sum of this batch's gradient and all the earlier ones: gradients accumulate in .grad. "
    "Reset w.grad (= None, or .zero_()) before every backward -- that is what optimizer.zero_grad() does in a "
    "training loop.":
        "每一项都是这个批次的梯度加上之前所有批次的梯度：梯度会在 .grad 中累加。"
        "在每次 backward 之前重置 w.grad（= None，或 .zero_()）——"
        "训练循环里的 optimizer.zero_grad() 做的正是这件事。",
    "The first entry still contains the .grad that w brought with it from an earlier step: reset w.grad before "
    "the first backward too, not only between batches.":
        "第一项仍然含有 w 从先前某一步带来的 .grad：在第一次 backward 之前也要重置 w.grad，"
        "而不只是在批次之间。",
    "a fixed version of buggy_batch_gradients: a list with each batch's own gradient":
        "修好的 buggy_batch_gradients：返回一个列表，含每个批次自己的梯度",
    "Backward adds into .grad; reset it before each backward you want on its own.":
        "backward 往 .grad 里累加；想让哪次 backward 单独算，就在它之前重置 .grad。",
    "y has several elements, so autograd needs to know which combination of them to differentiate: pass v as "
    "grad_outputs= (autograd.grad) or gradient= (backward).":
        "y 有多个元素，所以自动求导需要知道对它们的哪种组合求导："
        "把 v 作为 grad_outputs=（autograd.grad）"
        "或 gradient=（backward）传入。",
    "Differentiate y (which depends on x), not a tensor without history.":
        "对 y（它依赖于 x）求导，而不是对一个没有历史的张量求导。",
    "torch.autograd.grad returns a tuple, one gradient per input: take its [0].":
        "torch.autograd.grad 返回一个元组，每个输入一个梯度：取它的 [0]。",
    "That is the gradient of y.sum(), as if every weight in v were 1: pass v as grad_outputs=v.":
        "这是 y.sum() 的梯度，就好像 v 中的每个权重都是 1："
        "把 v 作为 grad_outputs=v 传入。",
    "Return a plain gradient (no create_graph needed here).":
        "返回一个普通的梯度（这里不需要 create_graph）。",
    "x.grad was changed (it is no longer None)": "x.grad 被改变了（它不再是 None）",
    "backward() adds into .grad; torch.autograd.grad returns the gradient instead and leaves .grad alone.":
        "backward() 往 .grad 里累加；torch.autograd.grad 则把梯度返回出来，"
        "不动 .grad。",
    "a function body that returns v . dy/dx without changing x.grad":
        "一个函数体，返回 v . dy/dx，且不改变 x.grad",
    "autograd.grad(y, x, grad_outputs=v) is the vector-Jacobian product, and .grad stays as it was.":
        "autograd.grad(y, x, grad_outputs=v) 就是向量-雅可比积，"
        "而 .grad 保持原样。",
}
