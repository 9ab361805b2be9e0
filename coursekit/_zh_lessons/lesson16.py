"""Lesson 16's own hints in Chinese (coursekit/lesson16.py), keyed by their English text."""

ZH = {
    # -- exercise 1: gradients accumulate ---------------------------------------------------------
    "The second backward does not replace the first one's gradient: it adds to it.":
        "第二次反向传播不会替换第一次的梯度：它是加上去的。",
    "Each backward computes d(3w)/dw -- and adds it into .grad.":
        "每次反向传播都会算出 d(3w)/dw——并把它加到 .grad 上。",
    "step() uses the .grad it finds -- the accumulated one, not the last backward's.":
        "step() 用的是它看到的 .grad——累加起来的那个，而不是最后一次反向传播的。",
    "SGD moves *against* the gradient: w - lr * grad.": "SGD *逆着*梯度移动：w - lr * grad。",
    "SGD's step is w - lr * w.grad, with the .grad as it stands.":
        "SGD 的一步是 w - lr * w.grad，用的是 .grad 此刻的值。",
    "That was zero_grad() before PyTorch 2.0; now set_to_none=True is the default, so .grad becomes None.":
        "那是 PyTorch 2.0 之前的 zero_grad()；现在 set_to_none=True 是默认值，所以 .grad 会变成 None。",
    "zero_grad() resets every gradient the optimizer holds -- to what, by default?":
        "zero_grad() 会重置优化器持有的每一个梯度——默认重置成什么？",
    "After zero_grad() the next backward starts afresh: d(w*w)/dw at the current w, then one SGD step from there.":
        "zero_grad() 之后，下一次反向传播从头开始：在当前的 w 处求 d(w*w)/dw，再从那里走一步 SGD。",
    "No zero_grad() since the last backward: the gradient of line (4) is still in .grad.":
        "上一次反向传播之后没有调用 zero_grad()：第 (4) 行的梯度还留在 .grad 里。",
    "The new gradient is 2w at the new w, and it is *added* to what .grad still holds.":
        "新的梯度是新的 w 处的 2w，并且它会被*加到* .grad 里还留着的值上。",
    "The number is right; write it as a float (.item() of a float tensor is a Python float).":
        "数是对的；请写成浮点数（浮点张量的 .item() 是 Python 的 float）。",
    "(3 * w).backward() twice: w.grad.item()": "(3 * w).backward() 调用两次：w.grad.item()",
    "then {code}": "然后 {code}",
    "a tuple of 5 predictions: floats, or None": "一个含 5 个预测的元组：浮点数或 None",
    "backward adds into .grad until something resets it; step() reads whatever .grad holds.":
        "在被重置之前，backward 一直往 .grad 上加；step() 读的是 .grad 里此刻的值，不管它是什么。",
    # -- exercise 2: one big batch, in small pieces -----------------------------------------------
    "Each piece's MSELoss is a mean over its own rows; the full batch's loss is the mean of the pieces' losses. "
    "Divide each piece's loss by `parts` before backward, or the summed gradient is `parts` times too large.":
        "每个小块的 MSELoss 是它自己那些行的均值；整批数据的损失是各小块损失的均值。"
        "反向传播之前把每个小块的损失除以 `parts`，否则加起来的梯度会大 `parts` 倍。",
    "zero_grad() inside the loop throws away the gradients of the earlier pieces: only the last piece's gradient "
    "reaches the step. Clear the gradients once, before the loop.":
        "循环里的 zero_grad() 扔掉了前面各小块的梯度：只有最后一个小块的梯度到达了这一步。"
        "在循环之前把梯度清零一次。",
    "The parameters' .grad still held an earlier gradient when `accumulated_step` was called, and backward adds "
    "to it: clear the gradients once, before the first piece.":
        "调用 `accumulated_step` 时，参数的 .grad 里还留着先前的梯度，而反向传播会加到它上面："
        "在第一个小块之前把梯度清零一次。",
    "One step per piece is `parts` small steps, not one big one: call optimizer.step() once, after every piece "
    "has added its gradient.":
        "每个小块走一步，就是 `parts` 个小步，而不是一个大步：等每个小块都加上了它的梯度之后，"
        "调用一次 optimizer.step()。",
    "A step per piece, each with a whole piece's gradient: accumulate the pieces' gradients (each loss divided by "
    "`parts`) and step once.":
        "每个小块走一步，每一步都用整个小块的梯度：把各小块的梯度累加起来（每个损失除以 `parts`），只走一步。",
    "Leave x and y as they are: x.chunk(parts) gives views of the pieces to read.":
        "让 x 和 y 保持原样：x.chunk(parts) 给出各小块的视图，读它们就行。",
    "it ran the model on {rows} rows at once; with parts={parts} a piece has {piece}":
        "它一次让模型处理了 {rows} 行；parts={parts} 时一个小块只有 {piece} 行",
    "Run the model on one piece at a time (x.chunk(parts), y.chunk(parts)): that is what saves the memory.":
        "每次只让模型处理一个小块（x.chunk(parts)、y.chunk(parts)）：省内存靠的就是这个。",
    "the parameters did not change": "参数没有变",
    "After every piece has added its gradient, let the optimizer use it: optimizer.step().":
        "每个小块都加上了它的梯度之后，让优化器用上它：optimizer.step()。",
    "the parameters after it are not those of one step on the whole batch":
        "调用之后的参数，不是在整批数据上走一步得到的参数",
    "the first weight after the step": "走这一步之后的第一个权重",
    "Clear the gradients, add each piece's gradient (its loss divided by `parts`), step once.":
        "清零梯度，加上每个小块的梯度（它的损失除以 `parts`），只走一步。",
    "Return the loss of the whole batch as a float.": "以浮点数返回整批数据的损失。",
    "it returned a tensor": "它返回了一个张量",
    "Return the loss as a Python float: .item().": "以 Python 的 float 返回损失：.item()。",
    "That is the loss of the last piece only.": "这只是最后一个小块的损失。",
    "That is the sum of the pieces' losses, `parts` times the mean.": "这是各小块损失之和，是均值的 `parts` 倍。",
    "it returned {got:.4g}, not the loss of the whole batch": "它返回了 {got:.4g}，而不是整批数据的损失",
    "{why} The whole batch's MSELoss is the mean of the pieces' losses (equal pieces).":
        "{why}整批数据的 MSELoss 是各小块损失的均值（各小块大小相等）。",
    "the returned loss": "返回的损失",
    "Return the loss of the whole batch: the mean of the pieces' losses.": "返回整批数据的损失：各小块损失的均值。",
    "a function body that clears the gradients, adds those of each piece, steps once and returns the loss of the "
    "whole batch":
        "一个函数体：清零梯度，加上每个小块的梯度，只走一步，并返回整批数据的损失",
    "`accumulated_step` with {optimizer} and parts={parts}": "用 {optimizer}、parts={parts} 时的 `accumulated_step`",
    "{where}: {found}.": "{where}：{found}。",
    "The gradient of a mean is the mean of the gradients: `parts` backwards of loss / parts add up to the big "
    "batch's gradient, with a piece's memory.":
        "均值的梯度就是梯度的均值：对 loss / parts 做 `parts` 次反向传播，加起来正是整个大批次的梯度，"
        "而内存只需一个小块的。",
    # -- exercise 3: a training step --------------------------------------------------------------
    "Gradients accumulate: call optimizer.zero_grad() before loss.backward().":
        "梯度会累加：在 loss.backward() 之前调用 optimizer.zero_grad()。",
    "Two bugs left: no zero_grad(), and the extra `p += 0.1 * p.grad` climbs back up the gradient.":
        "还剩两个错误：没有 zero_grad()，而且多出来的 `p += 0.1 * p.grad` 又顺着梯度爬了回去。",
    "The loop after optimizer.step() adds the gradient back: it walks uphill. Delete it; step() already did the "
    "update.":
        "optimizer.step() 之后的那个循环又把梯度加了回去：它在往上坡走。删掉它；step() 已经做完了更新。",
    "zero_grad() between backward and step throws the gradient away before the step uses it.":
        "backward 和 step 之间的 zero_grad() 在 step 用上梯度之前就把它扔掉了。",
    "step() before backward() uses the previous step's gradient (the first step none at all).":
        "在 backward() 之前调用 step()，用的是上一步的梯度（第一步则根本没有梯度）。",
    "Return the loss as a float: loss.item().": "以浮点数返回损失：loss.item()。",
    "Return the loss as a Python float: loss.item().": "以 Python 的 float 返回损失：loss.item()。",
    "the returned losses": "返回的各个损失",
    "Return the loss of the step, computed before the update: loss.item().":
        "返回这一步的损失，也就是更新之前算出的那个：loss.item()。",
    "the parameters did not change in 3 steps": "走了 3 步，参数没有变",
    "optimizer.step() moves the parameters along the gradients loss.backward() left in .grad: without step() "
    "nothing moves, and a zero_grad() between backward and step throws the gradient away before the step uses it.":
        "optimizer.step() 按 loss.backward() 留在 .grad 里的梯度移动参数：没有 step() 什么都不会动，"
        "而 backward 和 step 之间的 zero_grad() 会在 step 用上梯度之前把它扔掉。",
    "the parameters after 3 steps are not those of a correct step": "走 3 步之后的参数，不是正确的一步会得到的",
    "with Adam as the optimizer, the parameters are not what 3 Adam steps give":
        "用 Adam 作优化器时，参数不是 3 步 Adam 得到的值",
    "Let the optimizer do the update (optimizer.step()); do not update the parameters by hand.":
        "让优化器来做更新（optimizer.step()）；不要亲手更新参数。",
    "the weight after 3 steps": "走 3 步之后的权重",
    "the parameters after 3 steps are off": "走 3 步之后的参数不对",
    "A step computes the loss, clears the old gradients, computes new ones and lets the optimizer use them: check "
    "that your lines do these, in that order.":
        "一步要做的是：算出损失，清掉旧的梯度，算出新的梯度，再让优化器用上它们：检查你的代码是否按这个顺序做了这几件事。",
    "a function body that does one training step and returns the loss as a float":
        "一个函数体：走一个训练步，并以浮点数返回损失",
    "`train_step` with {optimizer}": "用 {optimizer} 时的 `train_step`",
    "Forward, loss, zero_grad, backward, step: the same five lines in every PyTorch program.":
        "前向传播、损失、zero_grad、backward、step：每个 PyTorch 程序里都是这同样的五行。",
}
