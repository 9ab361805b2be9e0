"""Lesson 20's own hints in Chinese (coursekit/lesson20.py), keyed by their English text."""

ZH = {
    # -- exercise 1: the smoothing slider ---------------------------------------------------------
    "values {values} with weight {weight}": "值 {values}，weight 为 {weight}",
    "a constant curve {values} with weight {weight}": "一条常数曲线 {values}，weight 为 {weight}",
    "values {values} with weight {weight} (no smoothing)": "值 {values}，weight 为 {weight}（不平滑）",
    "`weight` is how much of the *old* average is kept at each step (weight 0: no smoothing at all), so the "
    "previous average is multiplied by `weight` and the new value by `1 - weight`.":
        "`weight` 是每一步保留多少*旧*平均值（weight 为 0：完全不平滑），"
        "所以上一个平均值乘以 `weight`，新的值乘以 `1 - weight`。",
    "An average started at 0 is pulled towards 0 at first (a constant curve of 5s would start at 0.5); the bias "
    "correction repairs that: divide each step's average by the total weight its terms have so far, "
    "`1 - weight ** i`, with i the number of values seen.":
        "从 0 开始的平均值一开始会被拉向 0（一条全是 5 的常数曲线会从 0.5 开始）；偏差修正就是来纠正这一点的："
        "把每一步的平均值除以它的各项到目前为止的总权重 `1 - weight ** i`，i 是已经看到的值的个数。",
    "The bias correction is missing. {correction}": "少了偏差修正。{correction}",
    "Two things: the weights are swapped -- {kept} -- and the bias correction is missing. {correction}":
        "两处问题：权重弄反了——{kept}——而且少了偏差修正。{correction}",
    "The weights are swapped: {kept}": "权重弄反了：{kept}",
    "Starting the average at the first value is an older way (TensorBoard before 2019); the slider today starts "
    "at 0 and applies the bias correction. {correction}":
        "让平均值从第一个值开始是较早的做法（2019 年以前的 TensorBoard）；如今的滑块从 0 开始，并做偏差修正。"
        "{correction}",
    "The weights are swapped: {kept} (And the slider starts the average at 0, with the bias correction, not at "
    "the first value.)":
        "权重弄反了：{kept}（而且滑块让平均值从 0 开始，并做偏差修正，而不是从第一个值开始。）",
    "The corrected value went back into the running average, so the next step corrects it again. The correction "
    "is only for what you put in the list; the average itself stays uncorrected.":
        "修正后的值又回到了滑动平均里，于是下一步会再修正一次。修正只用于你放进列表里的值；平均值本身保持不修正。",
    "The bias correction is one step off: after the first value its terms have total weight `1 - weight ** 1`, "
    "so i counts from 1.":
        "偏差修正错开了一步：看到第一个值之后，各项的总权重是 `1 - weight ** 1`，所以 i 从 1 开始数。",
    "Divide by 1 - weight ** i, with i counting from 1 (the first value), never from 0.":
        "除以 1 - weight ** i，i 从 1（第一个值）开始数，绝不从 0 开始。",
    "Return a list with one smoothed number per value.": "返回一个列表，每个值对应一个平滑后的数。",
    "Return a list: one smoothed value per step, as TensorBoard draws a whole curve.":
        "返回一个列表：每一步一个平滑后的值，就像 TensorBoard 画出一整条曲线那样。",
    "Return one smoothed value per value: the list is as long as `values`.":
        "每个值返回一个平滑后的值：列表和 `values` 一样长。",
    "Your first smoothed value is {value}, but after one step the corrected average has seen only the first "
    "value, so it must equal it. Look at the first turn of your loop: where the average starts (0), how much of "
    "the new value it takes (`1 - weight`) and what it is divided by (`1 - weight ** 1`).":
        "你的第一个平滑值是 {value}，但走了一步之后，修正后的平均值只看到了第一个值，所以必定等于它。"
        "看看你的循环的第一轮：平均值从哪里开始（0），取新值的多少（`1 - weight`），以及除以什么（`1 - weight ** 1`）。",
    "The first value is right, the later ones are not: look at how the running average is updated (the old "
    "average times `weight`, plus the new value times `1 - weight`) and at what each step is divided by "
    "(`1 - weight ** i`, with i the number of values seen).":
        "第一个值是对的，后面的不对：看看滑动平均是怎样更新的（旧平均值乘以 `weight`，加上新值乘以 `1 - weight`），"
        "以及每一步除以的是什么（`1 - weight ** i`，i 是已经看到的值的个数）。",
    "a function body that returns the list of smoothed values": "一个函数体：返回平滑后的值组成的列表",
    "TensorBoard's slider: a running average that forgets old values at the rate `weight`, debiased so the curve "
    "starts where the data do.":
        "这就是 TensorBoard 的滑块：一个以 `weight` 的速率遗忘旧值的滑动平均，经过去偏，曲线从数据开始的地方开始。",
    # -- exercise 2: read a curve back from the event files ---------------------------------------
    "Return a list of (step, value) pairs.": "返回一个由 (step, value) 对组成的列表。",
    "Each item should be a pair: (event.step, value.simple_value).": "每一项都应当是一对：(event.step, value.simple_value)。",
    "Every event of the file is there, whatever its tag: keep only the summary values whose `value.tag` is the "
    "tag asked for.":
        "文件里的每个事件都在，不管它的标签是什么：只保留 `value.tag` 等于所要标签的那些摘要值。",
    "The step is a field of the Event (event.step), not of the summary value.":
        "步数是 Event 的字段（event.step），不是摘要值的字段。",
    "The pair is (step, value), in that order.": "这一对是 (step, value)，按这个顺序。",
    "Read every event of every file that event_files(log_dir) lists.": "读出 event_files(log_dir) 列出的每个文件里的每个事件。",
    "a function body that returns a list of (step, value) pairs": "一个函数体：返回由 (step, value) 对组成的列表",
    "Loop over event_files(log_dir), then read_events(path), then event.summary.value.":
        "依次遍历 event_files(log_dir)、read_events(path)，再遍历 event.summary.value。",
    "{found}.": "{found}。",
    "{call} returned {got}, expected {expected}.": "{call} 返回了 {got}，应当是 {expected}。",
    "An event file is a list of Events; each carries a step, a wall time and a summary whose values are tagged.":
        "事件文件就是一列 Event；每个 Event 带着一个步数、一个挂钟时间和一份摘要，摘要里的值都有标签。",
}
