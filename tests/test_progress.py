"""utils.progress: tqdm.auto bars (text outside Jupyter), and a plain fallback without tqdm."""
import io
import sys

import pytest

from tensorlab.utils import progress as P


def test_progress_is_tqdm_auto_and_yields_every_item():
    tqdm_auto = pytest.importorskip("tqdm.auto", reason="tqdm is not installed")
    bar = P.progress(range(5), desc="steps", disable=True)
    assert isinstance(bar, tqdm_auto.tqdm)
    assert list(bar) == [0, 1, 2, 3, 4]


def test_progress_renders_desc_total_and_postfix_as_text():
    pytest.importorskip("tqdm", reason="tqdm is not installed")
    out = io.StringIO()
    bar = P.progress([10, 20, 30], desc="epoch 1", disable=False, file=out, mininterval=0)
    for _ in bar:
        bar.set_postfix(loss=f"{0.25:.3f}")
    bar.close()
    text = out.getvalue()
    assert "epoch 1" in text and "3/3" in text and "loss=0.250" in text


def test_progress_total_for_generators_and_disable():
    pytest.importorskip("tqdm", reason="tqdm is not installed")
    out = io.StringIO()
    bar = P.progress((i for i in range(4)), total=4, disable=False, file=out, mininterval=0)
    assert sum(bar) == 6 and bar.total == 4 and "4/4" in out.getvalue()
    quiet = io.StringIO()
    assert list(P.progress(range(3), disable=True, file=quiet)) == [0, 1, 2] and quiet.getvalue() == ""


def test_trange_counts():
    assert list(P.trange(2, 5, disable=True)) == [2, 3, 4]


def test_without_tqdm_a_plain_iterator_with_the_same_methods(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)          # "import tqdm" now raises ImportError
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert not P.has_tqdm()
    bar = P.progress(["a", "b"], desc="no bar")
    assert isinstance(bar, P.PlainProgress) and len(bar) == 2 and bar.desc == "no bar"
    seen = []
    with bar:
        for item in bar:
            seen.append(item)
            bar.set_postfix(loss=1.5)
            bar.update(0)
    assert seen == ["a", "b"] and bar.n == 2 and bar.postfix == {"loss": 1.5}
    with pytest.raises(TypeError, match="has no total"):
        len(P.progress(iter([1])))
