"""The build track (coursekit/build, course/build): a fresh skeleton fails every stage, tensorlab's own
code passes every stage, classic mistakes are caught and named, the command line keeps its promises.

Grading time is measured, not asserted: ``test_grading_time_is_reported`` prints it (``-s``)."""
import ast
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from coursekit.build import cases, grade, hints, place, skeleton
from coursekit.build.stages import STAGES
from tests.test_build_capstone import MISTAKEN_CONV
from tests.test_build_track_stages import MISTAKEN_LATER

ROOT = Path(__file__).resolve().parents[1]
FINISHED = sorted(STAGES)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "coursekit.build", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fresh")
    assert _cli("new", directory).returncode == 0
    return directory


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    directory = tmp_path_factory.mktemp("solved")
    assert _cli("solve", "all", directory).returncode == 0
    return directory


# -- one source --------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", FINISHED)
def test_every_marked_function_is_a_stub_in_the_skeleton_and_tensorlabs_own_in_the_solution(stage):
    found = skeleton.regions(stage)
    assert found, f"stage {stage} has no marked regions"
    stub_tree = ast.parse(skeleton.stage_source(stage))
    solution = skeleton.stage_source(stage, solution=True)
    defs = {n.name: n for n in stub_tree.body if isinstance(n, ast.FunctionDef)}
    for region in found:
        node = defs[region.name]
        assert ast.get_docstring(node) == ast.get_docstring(ast.parse(region.source).body[0])
        assert isinstance(node.body[-1], ast.Raise) and len(node.body) == 2   # docstring + raise
        assert region.source in solution
        library = region.path.read_text(encoding="utf-8")
        assert region.source.splitlines()[-1].strip() in library   # cut from the library itself


def test_markers_are_comments_only():
    """Removing the marker lines gives back the library file exactly (they change no behaviour)."""
    for stage in FINISHED:
        for region in skeleton.regions(stage):
            text = region.path.read_text(encoding="utf-8")
            code = [line for line in text.splitlines()
                    if not (skeleton.MARK.match(line) or skeleton.END.match(line))]
            assert ast.dump(ast.parse("\n".join(code))) == ast.dump(ast.parse(text))


def test_new_keeps_the_learners_files(tmp_path):
    assert _cli("new", tmp_path).returncode == 0
    mine = tmp_path / STAGES[1].filename
    mine.write_text(mine.read_text() + "\n# my notes\n")
    out = _cli("new", tmp_path)
    assert "kept" in out.stdout and mine.read_text().endswith("# my notes\n")
    assert _cli("solve", 1, tmp_path).returncode == 0
    assert (tmp_path / (STAGES[1].filename + ".bak")).read_text().endswith("# my notes\n")


# -- the cases and their recorded answers ------------------------------------------------------------


def test_recorded_answers_are_pytorchs(torch):
    for stage, stage_cases in cases.CASES.items():
        for case in stage_cases:
            assert case.expected(torch) == case.expected(None), case.id


@pytest.mark.parametrize("stage", FINISHED)
def test_tensorlabs_own_functions_agree_with_every_case(stage):
    for case in cases.CASES[stage]:
        region = next(r for r in skeleton.regions(stage) if r.name == case.function)
        own = place.in_place(region)
        assert cases.agrees(case.run(own), case.expected(None)), case.id


# -- classic mistakes: each one, written into tensorlab's code, fails a case and is named ------------

MISTAKEN = {
    "column-major strides": """
        def contiguous_strides(shape):
            strides, step = [], 1
            for size in shape:
                strides.append(step)
                step *= max(size, 1)
            return tuple(strides)
        """,
    "size-0 dims": """
        def contiguous_strides(shape):
            strides, step = [], 1
            for size in reversed(shape):
                strides.append(step)
                step *= size
            return tuple(reversed(strides))
        """,
    "strides of size-1 dims": """
        def is_contiguous(shape, strides):
            return 0 in shape or tuple(strides) == contiguous_strides(shape)
        """,
    "offset forgotten": """
        def memory_position(index, strides, offset=0):
            return sum(i * s for i, s in zip(index, strides))
        """,
    "span one short": """
        def storage_span(shape, strides, offset=0):
            if 0 in shape:
                return 0
            return offset + sum((n - 1) * s for n, s in zip(shape, strides))
        """,
    "view only of contiguous tensors": """
        def view_strides(old_shape, old_strides, new_shape):
            if not is_contiguous(old_shape, old_strides):
                return None
            return contiguous_strides(new_shape)
        """,
    "view ignores strides": """
        def view_strides(old_shape, old_strides, new_shape):
            return contiguous_strides(new_shape)
        """,
    "aligned from the left": """
        def broadcast_shapes(*shapes):
            ndim = max((len(s) for s in shapes), default=0)
            result = [1] * ndim
            for shape in shapes:
                for i, size in enumerate(shape):
                    if size != 1 and result[i] not in (1, size):
                        raise RuntimeError(f"The size of tensor a ({result[i]}) must match the size of "
                                           f"tensor b ({size}) at non-singleton dimension {i}")
                    result[i] = size if size != 1 else result[i]
            return tuple(result)
        """,
    "sizes not checked": """
        def broadcast_shapes(*shapes):
            ndim = max((len(s) for s in shapes), default=0)
            padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
            return tuple(max(sizes) for sizes in zip(*padded))
        """,
    "stretched dim keeps its stride": """
        def expand_strides(shape, strides, new_shape, type_name="torch.FloatTensor"):
            extra = len(new_shape) - len(shape)
            sizes = [s if s != -1 else shape[i - extra] for i, s in enumerate(new_shape)]
            return tuple(sizes), (0,) * extra + tuple(strides)
        """,
    "new leading dims not stride 0": """
        def expand_strides(shape, strides, new_shape, type_name="torch.FloatTensor"):
            extra = len(new_shape) - len(shape)
            sizes = tuple(s if s != -1 else shape[i - extra] for i, s in enumerate(new_shape))
            inner = tuple(0 if n == 1 and m != 1 else st
                          for n, m, st in zip(shape, sizes[extra:], strides))
            lead = contiguous_strides(sizes)[:extra]
            return sizes, lead + inner
        """,
    "broadcast dims not summed": """
        def unbroadcast(grad, shape):
            shape = tuple(shape)
            lead = len(grad.shape) - len(shape)
            return grad.sum(tuple(range(lead))) if lead > 0 else grad
        """,
    "leading dims not summed": """
        def unbroadcast(grad, shape):
            shape = tuple(shape)
            if len(grad.shape) > len(shape):
                return grad
            dims = tuple(i for i, s in enumerate(shape) if s == 1 and grad.shape[i] != 1)
            return grad.sum(dims, keepdim=True) if dims else grad
        """,
    "mean instead of sum": """
        def unbroadcast(grad, shape):
            shape = tuple(shape)
            if tuple(grad.shape) == shape:
                return grad
            lead = len(grad.shape) - len(shape)
            dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                              if s == 1 and grad.shape[lead + i] != 1)
            return grad.mean(dims, keepdim=True).view(shape)
        """,
    **MISTAKEN_LATER,
    **MISTAKEN_CONV,
}


def _with_mistake(directory, stage, mistake):
    """tensorlab's own code for the stage with one function replaced by a mistaken one."""
    path = skeleton.write_stage(directory, stage, solution=True)
    extra = "\n\nfrom tensorlab._layout import contiguous_strides, is_contiguous\n" if stage == 2 else "\n\n"
    path.write_text(path.read_text() + extra + textwrap.dedent(MISTAKEN[mistake.name]))
    return directory


def test_every_stage_names_at_least_three_mistakes_and_each_has_a_mistaken_version():
    for stage in FINISHED:
        assert len(hints.MISTAKES[stage]) >= 3
        assert {m.name for m in hints.MISTAKES[stage]} <= set(MISTAKEN)


@pytest.mark.parametrize("mistake", [m for s in FINISHED for m in hints.MISTAKES[s]], ids=lambda m: m.name)
def test_a_classic_mistake_fails_a_case_and_is_named(mistake, tmp_path):
    stage = next(s for s in FINISHED if mistake in hints.MISTAKES[s])
    functions = grade.load_learner(stage, _with_mistake(tmp_path, stage, mistake))
    failing = [c.id for c in cases.CASES[stage]
               if not cases.agrees(c.run(functions[c.function]), c.expected(None))]
    assert failing, f"no case of stage {stage} catches {mistake.name!r}"
    assert mistake.name in [m.name for m in hints.mistakes_seen(stage, functions)]


@pytest.mark.parametrize("stage", FINISHED)
def test_no_hint_accuses_correct_code(stage, solved):
    assert hints.mistakes_seen(stage, grade.load_learner(stage, solved)) == []


# -- grading end to end: the command line, the real tests, the report --------------------------------

TIMES = {}


def _timed_grade(stage, directory):
    result = grade.grade(stage, directory)
    TIMES.setdefault(stage, []).append(round(result["seconds"], 1))
    return result


@pytest.mark.slow
@pytest.mark.parametrize("stage", FINISHED)
def test_a_fresh_skeleton_fails_the_stage(stage, fresh):
    result = _timed_grade(stage, fresh)
    assert result["total"] > len(cases.CASES[stage]), "the project's own tests ran too"
    assert result["passed"] == 0, f"{result['passed']} tests pass on stubs"
    text = grade.report(result)
    assert "still to write" in text and "PyTorch gives" in text and "NotImplementedError" in text
    assert text.splitlines()[-1] == f"0/{result['total']} tests pass"


@pytest.mark.slow
def test_the_reference_solution_passes_every_stage_from_the_command_line(solved):
    start = time.perf_counter()
    done = _cli("grade", "all", solved)
    TIMES["all (solution)"] = [round(time.perf_counter() - start, 1)]
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    passed, total = last.split()[0].split("/")
    assert last.endswith("tests pass") and passed == total and int(total) > 0
    for stage in FINISHED:
        assert f"stage {stage}: " in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("stage", FINISHED)
def test_grading_a_mistake_exits_1_and_shows_the_case_and_the_hint(stage, tmp_path):
    mistake = hints.MISTAKES[stage][0]
    done = _cli("grade", stage, _with_mistake(tmp_path, stage, mistake))
    assert done.returncode == 1
    lines = done.stdout.strip().splitlines()
    assert lines[-1].endswith("tests pass") and lines[-1].split("/")[0] != lines[-1].split()[0].split("/")[1]
    assert f"hint ({mistake.name})" in done.stdout and "PyTorch gives" in done.stdout


def test_unknown_stage_is_refused():
    done = _cli("grade", "99")
    assert done.returncode == 2 and "no stage '99'" in done.stderr


def test_a_file_that_does_not_import_fails_every_test_and_says_why(tmp_path):
    (tmp_path / STAGES[1].filename).write_text("def contiguous_strides(shape):\n    return (\n")
    functions = grade.load_learner(1, tmp_path)
    with pytest.raises(RuntimeError, match="does not import: SyntaxError"):
        functions["contiguous_strides"]((2, 3))


def test_the_magic_grades_like_the_command_line(solved, capsys):
    from coursekit.build.magic import grade_magic, my_file
    my_file(1, solved)
    assert "Your file for stage 1" in capsys.readouterr().out
    grade_magic("nonsense")
    assert "no stage 'nonsense'" in capsys.readouterr().out


@pytest.mark.slow
def test_grading_time_is_reported():
    """Not an assertion: the seconds each grading above took (wall clock, this machine's load)."""
    print("\nbuild-track grading seconds:", json.dumps(TIMES))


# -- the build notebooks (nbval checks their outputs; these check what is stored) --------------------

BUILD_NOTEBOOKS = sorted((ROOT / "course" / "build").glob("[0-9][0-9]_build_*.ipynb"))


def test_every_finished_stage_has_a_build_notebook():
    assert [STAGES[s].notebook for s in FINISHED] == [p.name for p in BUILD_NOTEBOOKS]


@pytest.mark.parametrize("path", BUILD_NOTEBOOKS, ids=lambda p: p.name)
def test_build_notebook_stores_the_untouched_skeletons_grade(path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), "rebuild it top to bottom"
    assert "manual_seed(" in code[0].source and "%load_ext coursekit.build" in code[0].source
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    stage = next(s for s in FINISHED if STAGES[s].notebook == path.name)
    graded = next(c for c in code if c.source.strip() == f"%grade {stage}")
    text = "".join(o.get("text", "") for o in graded.outputs)
    assert "still to write" in text and text.strip().splitlines()[-1].startswith("0/")
    stored = nbformat.writes(nb)
    assert str(ROOT) not in stored and "seconds" not in stored    # nothing of this machine or run
    assert "**You will learn to**" in nb.cells[0].source
