"""Named tuples returned by ops such as ``max(dim)`` and ``sort``: ``values`` and ``indices``.

They print as PyTorch's do: ``torch.return_types.max(values=tensor(...), indices=tensor(...))``.
"""
import collections


def _make(name, fields=("values", "indices")):
    base = collections.namedtuple(name, fields)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"

    return type(name, (base,), {"__repr__": __repr__, "__slots__": (), "__module__": __name__})


max = _make("max")  # noqa: A001
min = _make("min")  # noqa: A001
sort = _make("sort")
topk = _make("topk")
median = _make("median")
mode = _make("mode")
kthvalue = _make("kthvalue")
cummax = _make("cummax")
cummin = _make("cummin")
aminmax = _make("aminmax", ("min", "max"))
histogram = _make("histogram", ("hist", "bin_edges"))
svd = _make("svd", ("U", "S", "V"))
linalg_svd = _make("linalg_svd", ("U", "S", "Vh"))

# ... and the same pairs returned by the ``out=`` forms (``torch.max(x, 1, out=(v, i))``), named as PyTorch's
max_out, min_out, sort_out, topk_out = _make("max_out"), _make("min_out"), _make("sort_out"), _make("topk_out")
median_out, mode_out, kthvalue_out = _make("median_out"), _make("mode_out"), _make("kthvalue_out")
