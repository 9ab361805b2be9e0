"""coursekit: the cross-check and the generic exercise checks, with PyTorch present and hidden.

The cross-check's promise is that a lesson's stored output does not depend on PyTorch being
installed: these tests run the same snippets with real PyTorch (when installed), with PyTorch hidden
(``_import_torch`` patched to return None) and with a stand-in "PyTorch" that is tensorlab in
disguise (so that agreement and disagreement are tested on every machine).
"""
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import coursekit
import tensorlab
from coursekit import Case, Question, check_function, check_predictions, crosscheck, last_crosscheck
from coursekit import libs
from coursekit.compare import differences
from coursekit.crosscheck import key_phrase

ROOT = Path(__file__).resolve().parents[1]


def _disguise(version="9.9.9"):
    """A module named 'torch' that is tensorlab underneath: a PyTorch that always agrees."""
    fake = types.ModuleType("torch")
    fake.__version__ = version
    fake.__getattr__ = lambda name: getattr(tensorlab, name)
    return fake


@pytest.fixture
def no_torch(monkeypatch):
    monkeypatch.setattr(libs, "_import_torch", lambda: None)


@pytest.fixture
def fake_torch(monkeypatch):
    fake = _disguise()
    monkeypatch.setattr(libs, "_import_torch", lambda: fake)
    return fake


def _shown(capsys, snippet, **options):
    value = crosscheck(snippet, **options)
    return capsys.readouterr().out, repr(value)


SNIPPETS = [
    "x = torch.arange(6).view(2, 3)\nprint(x)\nx.t().stride()",
    "torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(5)",
    "x = torch.tensor([[1, 2, 3], [4, 5, 6]])\nx[::-1]",
    "a = torch.tensor([2., 3.], requires_grad=True)\n(a * a).sum()",
    "x = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\nx",
]


# -- libraries ---------------------------------------------------------------------------------------

def test_libraries_without_torch(no_torch):
    assert [name for name, _ in libs.libraries()] == ["tensorlab"]


def test_libraries_with_torch(torch):
    assert [name for name, _ in libs.libraries()] == ["tensorlab", "PyTorch"]
    assert libs.library_name(torch).startswith("PyTorch 2.")


def test_on_rebinds_torch_and_submodules(torch):
    namespace = {}
    exec("import tensorlab as torch\nimport tensorlab.nn.functional as F\n"
         "def g(x):\n    return F.relu(torch.neg(x))", namespace)
    g = namespace["g"]
    assert type(libs.on(torch, g)(torch.tensor([1., -2.]))).__module__.startswith("torch")
    assert libs.on(tensorlab, g)(tensorlab.tensor([1., -2.])).tolist() == [0.0, 2.0]


def test_imports_inside_a_snippet_mean_the_library_it_runs_on(no_torch, capsys):
    out, value = _shown(capsys, "import torch\nfrom torch import nn\nimport torch.nn.functional as F\n"
                                "type(nn.Linear(2, 3)).__module__, F.__name__, torch.__name__")
    assert value == "('tensorlab.nn.modules.linear', 'tensorlab.nn.functional', 'tensorlab')"


# -- the cross-check ---------------------------------------------------------------------------------

@pytest.mark.parametrize("snippet", SNIPPETS)
def test_stored_output_is_the_same_with_and_without_torch(snippet, capsys, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(libs, "_import_torch", lambda: None)
        hidden = _shown(capsys, snippet)
    with monkeypatch.context() as m:
        m.setattr(libs, "_import_torch", _disguise)
        disguised = _shown(capsys, snippet)
    assert hidden == disguised
    if libs._import_torch() is not None:  # the real PyTorch, when installed
        assert _shown(capsys, snippet) == hidden
        assert last_crosscheck().compared and last_crosscheck().agree


def test_agreeing_snippet_shows_only_tensorlabs_output(fake_torch, capsys):
    out, value = _shown(capsys, SNIPPETS[0])
    assert out == "tensor([[0, 1, 2],\n        [3, 4, 5]])\n" and value == "(1, 3)"
    assert last_crosscheck().agree and last_crosscheck().compared


def test_error_is_one_line_and_matched_by_type_and_phrase(fake_torch, capsys):
    out, value = _shown(capsys, SNIPPETS[2])
    assert out == "ValueError: step must be greater than zero\n" and value == "None"
    assert last_crosscheck().agree


def test_with_real_torch_an_error_agrees(torch, capsys):
    out, _ = _shown(capsys, "torch.ones(2, 3).t().view(6)")
    assert out.startswith("RuntimeError: view size is not compatible with input tensor's size and stride")
    assert last_crosscheck().agree


def test_disagreement_shows_both_sides_and_what_differs(fake_torch, capsys):
    def snippet(torch):
        return torch.tensor([1, 2]) if torch is tensorlab else torch.tensor([1, 2], dtype=torch.int32)
    out, value = _shown(capsys, snippet)
    assert value == "tensor([1, 2])"
    assert "tensorlab and PyTorch 9.9.9 differ:" in out
    assert "the value has dtype torch.int64, PyTorch has torch.int32" in out
    assert "tensor([1, 2], dtype=torch.int32)" in out  # PyTorch's side, in the right column
    assert not last_crosscheck().agree


@pytest.mark.parametrize("ours, theirs, phrase", [
    (ValueError("bad"), None, "tensorlab raised ValueError: bad; PyTorch did not"),
    (None, IndexError("too many indices"), "PyTorch raised IndexError: too many indices; tensorlab did not"),
    (ValueError("x"), TypeError("x"), "tensorlab raised ValueError, PyTorch TypeError"),
    (RuntimeError("shape is wrong"), RuntimeError("shape '[6, 4]' is invalid (why)"), "lacks PyTorch's phrase"),
])
def test_error_disagreements(fake_torch, capsys, ours, theirs, phrase):
    def snippet(torch):
        error = ours if torch is tensorlab else theirs
        if error is not None:
            raise error
        return 1
    out, _ = _shown(capsys, snippet)
    assert phrase in out and phrase in repr(last_crosscheck())


def test_printed_text_and_strides_are_compared(fake_torch, capsys):
    def printing(torch):
        print("tensorlab" if torch is tensorlab else "PyTorch")
    assert "they printed different text" in _shown(capsys, printing)[0]

    def strides(torch):
        x = torch.zeros(2, 3)
        return x.t() if torch is tensorlab else x.t().contiguous()
    assert "the value has strides (1, 3), PyTorch has (2, 1)" in _shown(capsys, strides)[0]


def test_gradients_are_compared(fake_torch, capsys):
    def snippet(torch):
        x = torch.ones(2, requires_grad=True)
        (x * (3 if torch is tensorlab else 4)).sum().backward()
        return x
    out, _ = _shown(capsys, snippet)
    assert "the value.grad differs at 2 of 2 positions" in out


def test_show_reports_honestly_whether_torch_was_there(capsys, monkeypatch):
    monkeypatch.setattr(libs, "_import_torch", lambda: None)
    out, _ = _shown(capsys, "torch.arange(3)", show=True)
    assert "PyTorch is not installed: this ran on tensorlab only." in out and "(not installed)" in out
    monkeypatch.setattr(libs, "_import_torch", _disguise)
    out, _ = _shown(capsys, "torch.arange(3)", show=True)
    assert "tensorlab and PyTorch 9.9.9 agree." in out
    assert out.count("tensor([0, 1, 2])") == 2  # both columns (the value itself is returned)


def test_no_values_compares_shapes_and_dtypes_only(fake_torch, capsys):
    def snippet(torch):
        return torch.rand(2, 3) + (0 if torch is tensorlab else 1)
    assert _shown(capsys, snippet, values=False)[0] == ""
    assert "differs at 6 of 6 positions" in _shown(capsys, snippet)[0]


def test_no_values_with_real_torch_random_numbers(torch, capsys):
    assert _shown(capsys, "torch.manual_seed(0)\ntorch.randn(2, 3).shape", values=False)[0] == ""
    _shown(capsys, "_ = torch.manual_seed(0)\ntorch.rand(3)", values=False)
    assert last_crosscheck().agree


def test_key_phrase_is_the_first_line_before_details():
    assert key_phrase("view size is not compatible (at least one ...). Use .reshape(...)") == \
        "view size is not compatible"
    assert key_phrase("first line\nsecond") == "first line"


def test_the_cell_magic(no_torch):
    shell_module = pytest.importorskip("IPython.core.interactiveshell")
    shell = shell_module.InteractiveShell.instance()
    shell.run_line_magic("load_ext", "coursekit")
    result = shell.run_cell("%%crosscheck\nx = torch.arange(4)\nx.view(2, 2).stride()")
    assert result.success and result.result == (2, 1)
    assert "x" not in shell.user_ns  # the cell ran in its own namespace
    result = shell.run_cell("%%crosscheck --bogus\n1")
    assert not result.success


def test_coursekit_works_from_any_directory(tmp_path):
    code = ("import coursekit, tensorlab; from coursekit.check import check_function; "
            "print(coursekit.crosscheck('torch.ones(2).shape'))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("torch.Size([2])")


# -- differences -------------------------------------------------------------------------------------

def test_differences_in_words():
    t = tensorlab
    assert differences(t.zeros(2, 3), t.zeros(3, 2)) == ["the result has shape (2, 3), expected (3, 2)"]
    assert differences((t.int64, (2, 3)), (t.int64, t.Size([2, 3]))) == []
    assert differences([1, 2], [1, 2, 3]) == ["the result has 2 items, expected 3"]
    assert differences(1, 1.0) == ["the result is an int (1), expected a float (1.0)"]
    assert differences(0.1 + 0.2, 0.3) == []
    assert differences(float("nan"), float("nan")) == []
    assert differences(t.tensor([1.]), 1.0)[0].startswith("the result is a tensor")
    a = t.tensor([1., 2.], requires_grad=True)
    assert differences(a * 2, (a * 2).detach()) == [
        "the result has requires_grad=True, expected False",
        "the result has grad_fn MulBackward0, expected None"]


# -- the generic checks ------------------------------------------------------------------------------

QUESTIONS = [
    Question("torch.tensor([1, 2]).dtype", lambda torch: torch.tensor([1, 2]).dtype, "ints give int64"),
    Question("torch.zeros(2, 3).t().shape", lambda torch: torch.zeros(2, 3).t().shape,
             lambda got, truth: "you kept the original shape" if got == (2, 3) else ""),
    Question("torch.zeros(2, 3).t().is_contiguous()", lambda torch: torch.zeros(2, 3).t().is_contiguous()),
]


@pytest.mark.parametrize("hide", [True, False])
def test_check_predictions(capsys, monkeypatch, hide):
    if hide:
        monkeypatch.setattr(libs, "_import_torch", lambda: None)
    t = tensorlab
    assert check_predictions((t.int64, (3, 2), False), QUESTIONS)
    assert check_predictions(("int64", [3, 2], False), QUESTIONS)  # names and lists are accepted
    assert check_predictions((t.long, t.Size([3, 2]), False), QUESTIONS)
    capsys.readouterr()
    verdict = check_predictions((t.int32, (2, 3), 0), QUESTIONS)
    assert not verdict and verdict.message == capsys.readouterr().out.rstrip("\n")
    assert verdict.message.splitlines() == [
        "Not yet: 3 of 3 predictions are off.",
        "  (1) torch.tensor([1, 2]).dtype: not torch.int32. ints give int64",
        "  (2) torch.zeros(2, 3).t().shape: not (2, 3). you kept the original shape",
        "  (3) torch.zeros(2, 3).t().is_contiguous(): not 0."]
    assert check_predictions(..., QUESTIONS).message.startswith("Not answered yet")
    assert check_predictions((t.int64, ..., False), QUESTIONS).message.startswith("Not answered yet")
    assert "yours is a tuple of 2 items" in check_predictions((t.int64, (3, 2)), QUESTIONS).message


def test_check_predictions_judges_against_pytorch_when_they_differ(monkeypatch, capsys):
    fake = _disguise()
    monkeypatch.setattr(libs, "_import_torch", lambda: fake)
    questions = [Question("odd", lambda torch: 1 if torch is tensorlab else 2)]
    verdict = check_predictions((2,), questions)
    assert verdict and "tensorlab differs from PyTorch on odd" in verdict.message


def _double(x):
    return x * 2


CASES = [Case("x = [1., 2.]", lambda torch: (torch.tensor([1., 2.]),)),
         Case("x of shape (2, 2)", lambda torch: (torch.ones(2, 2),))]


@pytest.mark.parametrize("hide", [True, False])
def test_check_function(capsys, monkeypatch, hide):
    if hide:
        monkeypatch.setattr(libs, "_import_torch", lambda: None)
    run = dict(reference=_double, cases=CASES, name="double", what="a function that doubles x",
               diagnoses=[lambda got, exp, args, torch: "You added instead of multiplying."
                          if not isinstance(got, Exception) and got.tolist() == (args[0] + 2).tolist() else None])
    assert check_function(lambda x: x + x, **run).message == "Correct!"
    assert check_function(..., **run).message == "Not answered yet: replace the ... with a function that doubles x."
    assert check_function(lambda x: ..., **run).message.startswith("Not answered yet")
    assert check_function(lambda x: None, **run).message == \
        "Not yet: `double` on x = [1., 2.]: it returned None.\n  Hint: Did you forget `return`?"
    assert check_function(lambda x: x + 2, **run).message == (
        "Not yet: `double` on x = [1., 2.]: the result differs at 1 of 2 positions, first at [0]: "
        "3.0 instead of 2.0.\n  Hint: You added instead of multiplying.")
    assert "it raised ZeroDivisionError" in check_function(lambda x: 1 / 0, **run).message
    assert "is an int" in check_function(3, **run).message


def test_check_function_runs_the_answer_on_pytorch(torch, capsys):
    seen = []
    namespace = {"seen": seen}  # a learner's notebook: `torch` is tensorlab there
    exec("import tensorlab as torch\ndef answer(x):\n"
         "    seen.append(type(torch.ones(1)).__module__.split('.')[0])\n    return x * 2", namespace)
    answer = namespace["answer"]
    assert check_function(answer, reference=_double, cases=CASES[:1], name="double", what="...")
    assert seen == ["tensorlab", "torch"]


def test_check_function_reports_a_library_difference(monkeypatch, capsys):
    fake = _disguise()
    monkeypatch.setattr(libs, "_import_torch", lambda: fake)

    def reference(x):
        return x * 2 if isinstance(x, tensorlab.Tensor) and not reference.on_fake else x * 3
    reference.on_fake = False

    def make(torch):
        reference.on_fake = torch is fake
        return (tensorlab.tensor([1.]),)
    verdict = check_function(lambda x: x * 2, reference, [Case("x", make)], name="f", what="...")
    assert not verdict and "works on tensorlab but not on PyTorch 9.9.9" in verdict.message


def test_verdict_is_not_displayed_twice():
    verdict = coursekit.Verdict(True, "Correct!")
    assert verdict._ipython_display_() is None and bool(verdict)


@pytest.mark.slow
def test_lesson_01_validates_with_pytorch_hidden(tmp_path):
    """The stored outputs were built with PyTorch installed; nbval must pass without it too."""
    pytest.importorskip("nbval")
    if libs._import_torch() is None:
        pytest.skip("PyTorch is not installed: the ordinary nbval run already checks this case")
    hider = tmp_path / "hide" / "torch"
    hider.mkdir(parents=True)
    (hider / "__init__.py").write_text("raise ImportError('PyTorch hidden for this test')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(hider.parent), str(ROOT)])))
    probe = subprocess.run([sys.executable, "-c", "import coursekit.libs as l; print(l.torch_or_none())"],
                           env=env, capture_output=True, text=True, timeout=120)
    assert probe.stdout.strip() == "None", probe.stderr
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--nbval", "--nbval-current-env",
         "--nbval-sanitize-with", "tools/sanitize.cfg", "course/01_tensors.ipynb"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.parametrize("snippet", [
    "torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())",
    "(torch.ones(2, requires_grad=True) * 2).grad_fn",
])
def test_modules_and_nodes_agree_when_they_print_the_same(torch, snippet):
    """A Module or a grad_fn as a cell's last value: == between libraries is identity, so they are
    compared by what they print."""
    from coursekit.crosscheck import compare, run
    assert compare(run(snippet, tensorlab), run(snippet, torch)) == []
    differs = compare(run("torch.nn.Linear(2, 3)", tensorlab), run("torch.nn.Linear(2, 4)", torch))
    assert differs and "prints as" in differs[0]


# -- the guard: time limit, sys.exit, Ctrl-C, inputs changed in place ------------------------------------

def test_the_guard_reports_sys_exit_and_errors():
    from coursekit import guard
    assert guard.run(lambda a, b: a + b, 2, 3) == (5, None)
    value, error = guard.run(lambda: sys.exit(4))
    assert value is None and isinstance(error, SystemExit)
    assert "called sys.exit()" in guard.failure(error)[0]
    assert isinstance(guard.run(lambda: 1 / 0)[1], ZeroDivisionError) and guard.failure(ZeroDivisionError()) is None


def _endless():
    while True:
        try:
            pass
        except:  # noqa: E722 - a bare except must not swallow the time limit for good
            pass


def test_the_guard_stops_an_endless_answer_and_gives_the_alarm_back():
    import signal
    from coursekit import guard
    previous = signal.signal(signal.SIGALRM, lambda *args: None)
    signal.setitimer(signal.ITIMER_REAL, 100)          # someone else's timer, e.g. pytest-timeout
    try:
        value, error = guard.run(_endless, limit=0.2)
        assert isinstance(error, guard.TimeLimitExceeded) and "did not finish within 0.2 seconds" in \
            guard.failure(error)[0]
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100   # still running
        assert signal.getsignal(signal.SIGALRM) is not None and signal.getsignal(signal.SIGALRM) != previous
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_the_guard_stops_an_endless_answer_off_the_main_thread_too():
    import threading
    from coursekit import guard
    seen = []
    thread = threading.Thread(target=lambda: seen.append(guard.run(_endless, limit=0.2)))
    thread.start()
    thread.join(60)
    assert not thread.is_alive() and isinstance(seen[0][1], guard.TimeLimitExceeded)


def test_ctrl_c_is_never_taken_for_a_wrong_answer():
    import signal
    from coursekit import guard

    def interrupted(*args):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        guard.run(interrupted)
    with pytest.raises(KeyboardInterrupt):
        check_function(interrupted, _double, CASES, name="double", what="...")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)     # no alarm left behind


@pytest.mark.parametrize("change, phrase", [
    (lambda x: x.mul_(2), "`x` has new values (at 2 of 2 positions) and its version counter went from 0 to 1"),
    (lambda x: x.add_(0), "`x` was written in place (its values ended up the same, but its version counter"),
    (lambda x: x.unsqueeze_(0), "`x` changed shape from (2,) to (1, 2)"),
    (lambda x: x.requires_grad_(), "`x` has requires_grad=True now"),
    (lambda x: x.t_() if x.dim() == 2 else x.as_strided_((2,), (0,)), "has other strides now"),
])
def test_check_function_refuses_an_answer_that_changes_its_tensor_input(capsys, change, phrase):
    def answer(x):
        result = x * 2
        change(x)
        return result
    verdict = check_function(answer, _double, CASES, name="double", what="...")
    assert not verdict and "it changed its input in place: " in verdict.message and phrase in verdict.message
    assert "changed its input in place, so the caller" in verdict.message


def test_other_inputs_changed_in_place():
    import numpy as np
    from coursekit import guard
    module = tensorlab.nn.BatchNorm1d(2)
    inputs = [[1.0, 2.0], {"a": tensorlab.ones(1)}, np.zeros(2), module, (tensorlab.zeros(1), 3)]
    before = [guard.snapshot(x) for x in inputs]
    assert guard.input_changes(before, inputs, ["values", "state", "a", "bn", "pair"]) == []
    inputs[0].pop()
    inputs[1]["a"].add_(1)
    inputs[2][0] = 5
    module.eval()
    inputs[4][0].fill_(2)
    found = guard.input_changes(before, inputs, ["values", "state", "a"])
    assert found == ["`values` changed length from 2 to 1",
                     "`state['a']` has new values (at 1 of 1 positions) and its version counter went from 0 to 1",
                     "`a` has new values",
                     "`argument 4` was switched to eval mode (its .training changed from True to False)",
                     "`argument 5[0]` has new values (at 1 of 1 positions) and its version counter went from 0 to 1"]
    assert guard.why_changed(found[0]) is guard.CONTAINER and guard.why_changed(found[3]) is guard.MODE
    module.train()
    module(tensorlab.ones(3, 2))                         # training mode: the running statistics move
    assert "`bn.running_mean` has new values" in guard.changes(before[3], module, "bn")[0]


def test_check_predictions_survives_predictions_that_refuse_to_compare(capsys):
    from coursekit.testing import Hostile

    class Unequal(tuple):
        def __eq__(self, other):
            raise TypeError("no comparing")
        __hash__ = tuple.__hash__
    verdict = check_predictions((tensorlab.int64, Hostile(), Unequal((1,))), QUESTIONS)
    assert not verdict and "2 of 3 predictions are off" in verdict.message
    assert "(2) torch.zeros(2, 3).t().shape: not <a Hostile whose repr raised ValueError>." in verdict.message


# -- how verdicts are printed ---------------------------------------------------------------------------

def test_verdicts_wrap_at_word_boundaries_under_their_label(capsys):
    from coursekit.check import WIDTH, report, wrap
    long = "Not yet: " + " ".join(f"word{i}" for i in range(40)) + "\n  Hint: use `x.sum(dim=1, keepdim=True)` " + \
        "and " * 30
    text = wrap(long)
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    assert " ".join(text.split()) == " ".join(long.split())          # no word split, none lost
    assert lines[1].startswith(" " * 9 + "word") and any(line.startswith(" " * 8 + "and") for line in lines)
    assert "`x.sum(dim=1, keepdim=True)`" in text                     # code is never broken
    verdict = report(False, long)
    assert capsys.readouterr().out == text + "\n" and verdict.message == long and verdict.text == text


# -- the status line: cross-checks on or OFF -------------------------------------------------------------

@pytest.mark.parametrize("hidden", [True, False])
def test_load_ext_says_once_whether_cross_checks_are_on(monkeypatch, capsys, hidden):
    from coursekit.crosscheck import STATUS_PREFIX
    shell_module = pytest.importorskip("IPython.core.interactiveshell")
    if hidden:
        monkeypatch.setattr(libs, "_import_torch", lambda: None)
    elif libs.torch_or_none() is None:
        pytest.skip("PyTorch is not installed")
    shell = shell_module.InteractiveShell.instance()
    shell.extension_manager.loaded.discard("coursekit")     # a fresh kernel's first %load_ext
    capsys.readouterr()
    shell.run_line_magic("load_ext", "coursekit")
    shell.run_cell("%%crosscheck\ntorch.arange(3).stride()")
    shell.run_line_magic("load_ext", "coursekit")            # run the first cell again: said already
    out = capsys.readouterr().out
    assert out.count(STATUS_PREFIX) == 1
    if hidden:
        assert "cross-checks are OFF -- PyTorch is not installed" in out and "pip install torch==2.13.0" in out
    else:
        assert "cross-checks are on -- PyTorch 2." in out


def _torch_env(tmp_path, hidden):
    """An environment for a subprocess (and its kernels) with PyTorch importable or hidden."""
    paths = [str(ROOT)]
    if hidden:
        hider = tmp_path / "hide" / "torch"
        hider.mkdir(parents=True, exist_ok=True)
        (hider / "__init__.py").write_text("raise ImportError('PyTorch hidden for this test')\n")
        paths.insert(0, str(hider.parent))
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


_EXECUTE = """
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.v4.new_notebook()
nb.cells = [nbformat.v4.new_code_cell(source) for source in [
    "import tensorlab as torch\\n%load_ext coursekit",
    "%%crosscheck\\nx = torch.arange(6).view(2, 3)\\nx.t().stride()",
    "%%crosscheck\\ntorch.zeros(2, 3).t().is_contiguous()",
    "from coursekit.lesson04 import check_normalize_rows\\n_ = check_normalize_rows(lambda scores: ...)"]]
NotebookClient(nb, timeout=120, kernel_name="python3").execute()
nbformat.write(nb, sys.argv[1])
"""


def _nbval(path, env, sanitize):
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--nbval",
                           "--nbval-current-env", "--nbval-sanitize-with", str(sanitize), str(path)],
                          cwd=path.parent, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_status_line_validates_with_and_without_pytorch(tmp_path):
    """A notebook stored with PyTorch validates without it and the other way round: the kernel says
    "cross-checks are on" or "OFF" once, in the first cell, and one sanitize entry maps both."""
    pytest.importorskip("nbval")
    pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    from coursekit.crosscheck import STATUS_PREFIX
    if libs._import_torch() is None:
        pytest.skip("PyTorch is not installed: only one of the two ways can run here")
    sanitize = ROOT / "tools" / "sanitize.cfg"
    for stored_without in (False, True):
        path = tmp_path / f"stored_{'without' if stored_without else 'with'}_torch.ipynb"
        done = subprocess.run([sys.executable, "-c", _EXECUTE, str(path)], env=_torch_env(tmp_path, stored_without),
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        texts = [[o.get("text", "") for o in cell.outputs] for cell in nbformat.read(path, as_version=4).cells]
        assert [sum(STATUS_PREFIX in t for t in cell) for cell in texts] == [1, 0, 0, 0]   # once per kernel
        assert ("cross-checks are OFF" if stored_without else "cross-checks are on") in texts[0][0]
        result = _nbval(path, _torch_env(tmp_path, not stored_without), sanitize)
        assert result.returncode == 0, result.stdout[-3000:]
    entry = sanitize.read_text().split("\n[coursekit's status line")[0]   # the file without the entry
    (tmp_path / "without_entry.cfg").write_text(entry)
    result = _nbval(path, _torch_env(tmp_path, False), tmp_path / "without_entry.cfg")
    assert result.returncode != 0 and "cross-checks are" in result.stdout


def test_a_chinese_message_wraps_by_columns_and_keeps_words_and_code_whole():
    """A Chinese character takes two columns: lines are cut by columns, between characters, never inside
    a Latin word or `code`, never before closing punctuation; continued lines line up under the label."""
    from coursekit.check import _columns, wrap
    message = ("提示：" + "这个张量和它的视图共享同一个存储区，所以通过 `view` 写入的值会出现在原张量里，" * 4
               + "除非先调用 contiguous()。")
    lines = wrap(message, width=50).split("\n")
    assert len(lines) > 3 and all(_columns(line) <= 50 for line in lines)
    assert all(line.startswith(" " * 6) and not line[6].isspace() for line in lines[1:])
    assert all(not line.strip().startswith(("，", "。")) for line in lines)
    assert all(not line.endswith("（") for line in wrap("尚未作答：" + "一个函数（in_dims 为 None）" * 9, width=40).split("\n"))
    assert "".join(lines).replace(" ", "") == message.replace(" ", "")   # nothing lost or added
