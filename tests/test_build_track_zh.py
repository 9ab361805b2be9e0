"""The build track's grader in the Chinese edition: a build notebook of course/zh/build/ (or
``TENSORLAB_LANG=zh``) gets its report in Chinese -- the grading process, started at the repository
root, is told the language -- while the last line stays ``N/M tests pass`` for scripts to read, and
an English grade holds no Chinese at all."""
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from coursekit.build import grade, skeleton
from coursekit.build.stages import STAGES

ROOT = Path(__file__).resolve().parents[1]
CHINESE = re.compile("[\u4e00-\u9fff]")
LAST_LINE = re.compile(r"^\d+/\d+ tests pass$")

#: stage 1's contiguous_strides with the classic mistake "column-major strides"
COLUMN_MAJOR = """

def contiguous_strides(shape):
    strides, step = [], 1
    for n in shape:
        strides.append(step)
        step *= max(n, 1)
    return tuple(strides)
"""


def _column_major(directory):
    path = skeleton.write_stage(directory, 1, solution=True)
    path.write_text(path.read_text(encoding="utf-8") + textwrap.dedent(COLUMN_MAJOR), encoding="utf-8")
    return directory


def _result(**changes):
    """A grading result as :func:`coursekit.build.grade.run_stage` returns it: a first failing case
    with a hint, two stubs left, three tests skipped."""
    result = {"stage": 3, "passed": 4, "total": 59, "skipped": 3, "file": "course/build/mytensorlab/ops.py",
              "stubs": ["mean_backward", "bmm_backward"],
              "first": {"test": "case_tests.py::test_case", "message": "AssertionError",
                        "input": "x.mean(1), x: (2, 4), then backward with grad = 1, 2, 3, ...",
                        "expected": {"value": {"out": {"shape": [2], "values": [0.5, 1.0]}, "dtype": "float64"}},
                        "got": {"error": "RuntimeError", "message": "function MeanBackward0 returned an "
                                                                      "incorrect number of gradients"}},
              "hints": [{"name": "mean without the divide",
                         "hint": "The gradient is 4 times too big -- it is the gradient of a sum. Each of the 4 "
                                 "elements averaged counts 1/4 in the mean: divide by ctx.count."}]}
    result.update(changes)
    return result


def test_the_report_speaks_the_learners_language_and_ends_in_english(monkeypatch):
    monkeypatch.setenv("TENSORLAB_LANG", "en")
    english = grade.report(_result())
    assert not CHINESE.search(english)
    assert "first failing case:" in english and "hint (mean without the divide)" in english
    monkeypatch.setenv("TENSORLAB_LANG", "zh")
    chinese = grade.report(_result())
    lines = chinese.splitlines()
    assert lines[0] == ("第 3 阶段：把运算写成 Function：前向与反向公式——你的文件："
                        "course/build/mytensorlab/ops.py")
    assert "  还要写的函数：mean_backward, bmm_backward" in lines
    assert "    PyTorch 给出：out = [0.5, 1.0]; dtype = 'float64'" in lines
    # PyTorch's own words stay as they are
    assert ("    你的结果：     抛出 RuntimeError: function MeanBackward0 returned an incorrect number of "
            "gradients") in lines
    assert any(line.startswith("  提示（平均值忘了除法）：梯度大了 4 倍") for line in lines)
    assert "  跳过了 3 个测试（它们需要 PyTorch，而 PyTorch 没有安装）" in lines
    assert lines[-1] == "4/59 tests pass"
    every_english_line = set(english.splitlines()[:-1])
    assert not every_english_line & set(lines[:-1]), "a line of the report stayed English"


def test_a_case_is_told_in_the_learners_language_but_keeps_its_english_name(monkeypatch):
    from coursekit.build import cases
    case = next(c for c in cases.CASES[4] if c.show() == "x * c, c not requiring grad")
    monkeypatch.setenv("TENSORLAB_LANG", "zh")
    assert case.tell() == "x * c，c 不需要梯度"
    assert case.show() == "x * c, c not requiring grad"      # the classic mistakes find their case by it
    assert cases.describe({"value": {"same node": True, "x.grad": [1.0]}}) == "同一个节点 = True; x.grad = (1.0,)"


@pytest.mark.slow
def test_grading_from_the_command_line_in_chinese(tmp_path):
    done = subprocess.run([sys.executable, "-m", "coursekit.build", "grade", "1", str(_column_major(tmp_path))],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), TENSORLAB_LANG="zh"))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("第 1 阶段：步长与视图——你的文件：")
    assert "  第一个失败的用例：" in lines and "    PyTorch 给出：(3, 1)" in lines
    assert any(line.startswith("  提示（列优先的步长）：步长排成了列优先（Fortran）的顺序。") for line in lines)
    assert LAST_LINE.match(lines[-1]) and lines[-1].split("/")[0] != lines[-1].split()[0].split("/")[1]
    assert all(CHINESE.search(line) for line in lines[:-1]), "a line of the report stayed English"


@pytest.mark.slow
def test_a_chinese_build_notebook_grades_in_chinese(tmp_path, monkeypatch):
    """What %grade does in a kernel of course/zh/build/: the grading process, started at the repository
    root, speaks Chinese too -- here it says so about a learner's file that is not there."""
    monkeypatch.delenv("TENSORLAB_LANG", raising=False)
    monkeypatch.chdir(ROOT / "course" / "zh" / "build")
    text = grade.report(grade.grade(1, tmp_path))
    missing = f"{tmp_path / STAGES[1].filename} 不存在：请运行 python -m coursekit.build new"
    assert f"    你的结果：     抛出 RuntimeError: {missing}" in text.splitlines()
    assert LAST_LINE.match(text.splitlines()[-1]) and text.splitlines()[-1].startswith("0/")
    monkeypatch.chdir(ROOT / "course" / "build")
    assert not CHINESE.search(grade.report(grade.grade(1, tmp_path)))
