"""coursekit in Chinese: every message of the checks and the cross-check, keyed by its English text
(coursekit/language.py explains how; tests/test_translations.py fails on a message with no
translation here, or a translation whose message is gone).

Keep each ``{field}`` of the English key; PyTorch's own words (error messages, code) stay as they are.
"""
from ._zh_lessons import LESSONS

ZH = {
    # -- check.py: verdicts ----------------------------------------------------------------------
    "Correct!": "正确！",
    "Correct! (judged against PyTorch)": "正确！（以 PyTorch 为准）",
    "Not yet: {what}": "还不对：{what}",
    "Hint: {why}": "提示：{why}",
    "Not answered yet: replace the ... with {what}.": "尚未作答：把 ... 换成{what}。",
    "it": "它",
    "{subject} raised {error}": "{subject}抛出了 {error}",
    "{subject} works on tensorlab but not on {library}: {found}.":
        "{subject}在 tensorlab 上可行，在 {library} 上却不行：{found}。",
    "tensorlab and PyTorch should behave the same here; PyTorch is the reference (please report the difference).":
        "tensorlab 和 PyTorch 在这里应当表现一致，以 PyTorch 为准（请报告这处差异）。",
    "{label}: not {prediction}.": "{label}：不是 {prediction}。",
    "a tuple of {n} predictions, one per line of the table": "一个含 {n} 个预测的元组，表格每行一个",
    "{label}: your prediction could not be compared with anything ({error}). Write it as a plain value: a tuple, "
    "a number, True/False, a string or torch.<dtype>.":
        "{label}：你的预测没法与任何东西比较（{error}）。请写成一个普通的值：元组、数字、True/False、字符串或 torch.<dtype>。",
    "the answer should be {what}; yours is {kind} ({value}).": "答案应当是{what}；你的是{kind}（{value}）。",
    "{k} of {n} predictions is off.": "{n} 个预测中有 {k} 个不对。",
    "{k} of {n} predictions are off.": "{n} 个预测中有 {k} 个不对。",
    "(tensorlab differs from PyTorch on {label}: {ours} vs {theirs} -- PyTorch is the reference; please report it.)":
        "（在 {label} 上 tensorlab 与 PyTorch 不一致：{ours} 对 {theirs}——以 PyTorch 为准；请报告这个问题。）",
    "Did you forget `return`?": "是不是忘了写 `return`？",
    "it returned None": "它返回了 None",
    "the result": "结果",
    "`{name}` should be a function ({what}); it is {kind}.": "`{name}` 应当是一个函数（{what}）；它却是{kind}。",
    "it changed its input in place: {change}": "它原地修改了输入：{change}",
    "`{name}` on {case}": "`{name}` 在 {case} 上",
    "Look at what your answer returns or does: the check could not compare it (does it return an object whose "
    "==, repr or len fails?). Run it yourself on the lesson's example and look at the result.":
        "看看你的答案返回了什么、做了什么：检查没法比较它（它返回的对象是不是 ==、repr 或 len 会出错？）。"
        "用课里的例子亲自运行一下，看看结果。",
    "the check could not examine your answer: {what}.": "检查没法检验你的答案：{what}。",
    "comparing it": "比较它时",
    "its result ({kind}) could not be compared with the expected one: {what}":
        "它的结果（{kind}）没法与期望的结果比较：{what}",
    "Return a plain result -- a tensor, a number, a tuple or list of them -- as the exercise asks.":
        "按练习的要求返回一个普通的结果——张量、数字，或由它们组成的元组或列表。",
    # -- guard.py: answers that never finish, exit, or change their inputs ----------------------------
    "{subject} did not finish within {limit:g} seconds, so the check stopped it":
        "{subject}在 {limit:g} 秒内没有结束，检查把它停下了",
    "Is there a loop that never ends (a `while` whose condition never becomes false), or a function that calls "
    "itself forever? Run it yourself on a small input and interrupt it (the stop button) to see the line it is "
    "stuck on.":
        "是不是有一个永远不结束的循环（条件永远不会变成假的 `while`），或者一个无休止地调用自身的函数？"
        "用一个小输入亲自运行它，再中断（停止按钮），看看它卡在哪一行。",
    "{subject} called sys.exit(), which stops the program instead of returning a result":
        "{subject}调用了 sys.exit()，这会终止程序，而不是返回结果",
    "A function answers with `return`: sys.exit() and exit() end the whole program, and are never what an "
    "exercise wants.":
        "函数用 `return` 给出答案：sys.exit() 和 exit() 会结束整个程序，练习从来不需要它们。",
    "Your function changed its input in place, so the caller's data is now different -- and every later line "
    "that reads it (autograd too) sees the changed values. Leave the inputs as they are and build the result as "
    "a new tensor: an operation without a trailing _ (`x = x / s`, not `x /= s` or `x.div_(s)`), or work on a "
    "`.clone()`.":
        "你的函数原地修改了输入，调用者的数据因此变了——之后每一行读它的代码（包括自动求导）看到的都是改过的值。"
        "别动输入，把结果做成一个新张量：用不带结尾下划线的运算（写 `x = x / s`，而不是 `x /= s` 或 "
        "`x.div_(s)`），或者在 `.clone()` 上操作。",
    "Calling .eval() or .train() on a module you were given switches it for the caller too: their model stays in "
    "that mode (and a BatchNorm in training mode updates its running statistics). Compute the result from the "
    "module's tensors without switching it -- or switch it back before returning.":
        "对传进来的模块调用 .eval() 或 .train()，也会替调用者切换它：他们的模型会停在那个模式里"
        "（处于训练模式的 BatchNorm 还会更新它的滑动统计量）。请不切换模式、直接用模块的张量算出结果——"
        "或者在返回之前把模式切换回去。",
    "Your function changed the list or dict it was given (append, pop, sort, `del`, `values[i] = ...` change it "
    "for the caller too): build a new one for the result and leave the input as it was.":
        "你的函数修改了传进来的列表或字典（append、pop、sort、`del`、`values[i] = ...` 都会替调用者修改它）："
        "为结果新建一个，让输入保持原样。",
    # -- compare.py: what differs -------------------------------------------------------------------
    "a tensor of shape {shape} and dtype {dtype}": "一个形状为 {shape}、数据类型为 {dtype} 的张量",
    "a tensor": "一个张量",
    "a {type} of {n} items": "一个含 {n} 项的 {type}",
    "an {type}": "一个 {type}",
    "a {type}": "一个 {type}",
    "expected": "期望的是",
    "{where} is {got_kind} ({got}), {exp} {expected_kind} ({expected})":
        "{where}是{got_kind}（{got}），{exp}{expected_kind}（{expected}）",
    "{where}: {found}": "{where}：{found}",
    "{text}.": "{text}。",
    "{where} is {got}, {exp} {expected}": "{where}是 {got}，{exp} {expected}",
    "{where} has shape {got}, {exp} {expected}": "{where}的形状是 {got}，{exp} {expected}",
    "{where} has dtype {got}, {exp} {expected}": "{where}的数据类型是 {got}，{exp} {expected}",
    "{where} differs at {count} of {n} positions, first at {index}: {got} instead of {expected}":
        "{where}在 {n} 个位置中有 {count} 个不同，第一个在 {index}：是 {got}，而不是 {expected}",
    "{where} has strides {got}, {exp} {expected}": "{where}的步长是 {got}，{exp} {expected}",
    "{where} prints as {got}, {exp} {expected}": "{where}打印出来是 {got}，{exp} {expected}",
    "{where} has requires_grad={got}, {exp} {expected}": "{where}的 requires_grad={got}，{exp} {expected}",
    "{where} has grad_fn {got}, {exp} {expected}": "{where}的 grad_fn 是 {got}，{exp} {expected}",
    "{where}.grad is {got}, {exp} {expected}": "{where}.grad 是 {got}，{exp} {expected}",
    "{where} has {got} items, {exp} {expected}": "{where}有 {got} 项，{exp} {expected}",
    # -- crosscheck.py ------------------------------------------------------------------------------
    "coursekit: cross-checks are on -- {library} is installed: %%crosscheck cells\n"
    "  compare tensorlab with it, and the exercise checks run your answers on both.":
        "coursekit：对照功能已打开——已安装 {library}：%%crosscheck 单元格会拿 tensorlab 与它对照，\n"
        "  练习检查也会在两者上运行你的答案。",
    "coursekit: cross-checks are OFF -- PyTorch is not installed: %%crosscheck cells\n"
    "  compare nothing, and the exercise checks run on tensorlab only. To turn them on:\n"
    "  pip install torch=={version}  (README.md, \"PyTorch, the test oracle\")":
        "coursekit：对照功能已关闭——没有安装 PyTorch：%%crosscheck 单元格不做任何对照，\n"
        "  练习检查只在 tensorlab 上运行。要打开它：\n"
        "  pip install torch=={version}（见 README.md 的 \"PyTorch, the test oracle\" 一节）",
    "PyTorch has": "PyTorch 是",
    "PyTorch raised {error}; tensorlab did not": "PyTorch 抛出了 {error}；tensorlab 没有",
    "tensorlab raised {error}; PyTorch did not": "tensorlab 抛出了 {error}；PyTorch 没有",
    "tensorlab raised {ours}, PyTorch {theirs}": "tensorlab 抛出的是 {ours}，PyTorch 抛出的是 {theirs}",
    "tensorlab's error message lacks PyTorch's phrase {phrase}": "tensorlab 的错误信息里缺少 PyTorch 的关键语句 {phrase}",
    "they printed different text": "两者打印的文字不同",
    "only one of them has a value on the last line": "只有其中一个在最后一行有值",
    "the value": "值",
    "the value prints differently": "值打印出来不一样",
    "the value's shape/dtype/strides differ: {ours} vs {theirs}": "值的形状/数据类型/步长不同：{ours} 对 {theirs}",
    "PyTorch is not installed: this ran on tensorlab only.": "没有安装 PyTorch：这里只在 tensorlab 上运行了。",
    "tensorlab and {theirs} agree.": "tensorlab 与 {theirs} 一致。",
    "tensorlab and {theirs} differ:": "tensorlab 与 {theirs} 不一致：",
    "PyTorch cross-check -- {status}": "PyTorch 对照——{status}",
    "(no output)": "（没有输出）",
    "(not installed)": "（未安装）",
    **LESSONS,
}
