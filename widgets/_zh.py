"""The widgets in Chinese: every caption, legend, button, status line and explanation, keyed by its
English text (widgets/_i18n.py; tests/test_translations.py fails on one without a translation).
PyTorch's own error messages are not here: they are shown as PyTorch prints them."""

ZH = {
    # -- typing an operation or a shape, picking an element (_parse.py, _grid.py) -------------------------
    "type an operation, e.g. transpose(0, 1) or [:, ::2]": "请输入一个运算，例如 transpose(0, 1) 或 [:, ::2]",
    "that is {n} characters; one operation is at most {limit}": "这有 {n} 个字符；一个运算最多 {limit} 个",
    "that is {n} characters; a shape is at most {limit}": "这有 {n} 个字符；一个形状最多 {limit} 个",
    "not valid Python: {message}": "不是合法的 Python：{message}",
    "at most {limit} operations at once": "一次最多 {limit} 个运算",
    "attributes are not accepted ({name}); call one of: {methods}": "不接受属性（{name}）；请调用其中之一：{methods}",
    "only methods of the tensor can be called, e.g. transpose(0, 1)": "只能调用张量的方法，例如 transpose(0, 1)",
    "not an operation on the tensor: {code}": "不是作用于张量的运算：{code}",
    "not a shape: {message}": "不是一个形状：{message}",
    "sizes must be non-negative integers (found {size})": "各维大小必须是非负整数（遇到了 {size}）",
    "{name} is not an operation this box accepts; try one of: {methods}": "这个输入框不接受运算 {name}；请试试其中之一：{methods}",
    "**kwargs is not accepted": "不接受 **kwargs",
    "*args is not accepted": "不接受 *args",
    "calls inside arguments are not accepted (found {code})": "参数里不能有函数调用（遇到了 {code}）",
    "names are not accepted, only literal values (found {name})": "不接受变量名，只接受字面值（遇到了 {name}）",
    "arguments must be literal numbers, tuples or lists (found {code})": "参数必须是字面的数字、元组或列表（遇到了 {code}）",
    "{value} is too large for this explorer (at most {limit})": "{value} 对这个演示工具来说太大了（最多 {limit}）",
    "slice bounds and steps must be integers": "切片的边界和步长必须是整数",
    "an index must be an integer, a slice, ..., None or a list of integers (found {value})":
        "索引必须是整数、切片、...、None 或整数列表（遇到了 {value}）",
    "{what}() picks one element: give one int per dimension, such as {example}; got {index}{why}":
        "{what}() 选取一个元素：每个维度给一个整数，例如 {example}；收到的是 {index}{why}",
    " (True and False index like a mask in PyTorch: x[True] adds a dimension)":
        "（在 PyTorch 中 True 和 False 作为掩码来索引：x[True] 会增加一个维度）",
    " (slices, None, ... and lists pick several elements: apply them as a step, e.g. '[:, 0]')":
        "（切片、None、... 和列表会选取多个元素：把它们作为一步运算来应用，例如 '[:, 0]'）",
    "{what}() picks one element: give {ndim} indices (one per dimension), got {n}":
        "{what}() 选取一个元素：请给出 {ndim} 个索引（每个维度一个），收到的是 {n} 个",
    # -- StrideExplorer -----------------------------------------------------------------------------
    "the tensor we started from": "起始的张量",
    "view (same storage)": "视图（同一个存储区）",
    "copy (new storage)": "副本（新的存储区）",
    " -- returned the same tensor": "——返回的就是同一个张量",
    "{verdict}{extra}, shape {shape}, stride {stride}, offset {offset}":
        "{verdict}{extra}，形状 {shape}，步长 {stride}，偏移 {offset}",
    "a size is 0: an empty tensor is contiguous": "有一维大小为 0：空张量是连续的",
    "dim {d}: size 1, its stride ({stride}) is never used": "第 {d} 维：大小为 1，它的步长（{stride}）从不会用到",
    "(last dim)": "（最后一维）",
    "dim {d}: stride {stride} {sign} {need} {why}": "第 {d} 维：步长 {stride} {sign} {need} {why}",
    "nothing to go back to: this is the tensor we started from": "没有可以后退的了：这就是起始的张量",
    " and ": " 和 ",
    "wrote {value} into {element}: storage[{position}], seen by {names}":
        "把 {value} 写进了 {element}：storage[{position}]，{names} 都能看到",
    "the result is a {type}, not a tensor": "结果是 {type}，不是张量",
    "elements": "个元素",
    "storage elements": "个存储区元素",
    "this explorer draws up to {limit} {what}; the result has {n}": "这个演示工具最多画 {limit} {what}；结果有 {n} 个",
    "storage and strides of {entry}": "{entry} 的存储区与步长",
    "not accepted: {error}": "不接受：{error}",
    "storage: {n} elements, {unreached} not reached by this view (grey)":
        "存储区：{n} 个元素，其中 {unreached} 个这个视图读不到（灰色）",
    "{expression}: the logical grid": "{expression}：逻辑网格",
    "(small number: the storage position each element reads)": "（小数字：每个元素读取的存储区位置）",
    "{element} is storage[{position}]:": "{element} 就是 storage[{position}]：",
    "the tensor we started from: its own storage": "起始的张量：拥有自己的存储区",
    "view: reads the storage of {owner} (same data_ptr)": "视图：读取 {owner} 的存储区（data_ptr 相同）",
    " -- the op returned the very same tensor": "——这个运算返回的就是同一个张量",
    "copy: a new storage (different data_ptr)": "副本：新的存储区（data_ptr 不同）",
    "each stride must equal the next size times the next contiguous stride:":
        "每个步长都必须等于下一维的大小乘以下一维的连续步长：",
    "history -- {expression}": "历史——{expression}",
    "base": "起点",
    "view": "视图",
    "copy": "副本",
    " (itself)": "（它本身）",
    "{n} elements": "{n} 个元素",
    "apply {op}": "应用 {op}",
    "Back": "后退",
    "undo the last step": "撤销上一步",
    "Apply": "应用",
    "value:": "值：",
    "Write into selected cell": "写入选中的单元格",
    "select a cell first (click it), then Write": "先选中一个单元格（点击它），再写入",
    "{n} elements: too many to click; use <code>select(index)</code>": "{n} 个元素：太多了，没法逐个点击；请用 <code>select(index)</code>",
    "click a cell:": "点击一个单元格：",
    "expression so far:": "目前的表达式：",
}
