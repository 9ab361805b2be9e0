"""The benchmark harness runs, measures every implementation it is given, and formats ratios.
It never asserts how fast anything is."""
import sys
import textwrap

import pytest

from benchmarks import harness
from benchmarks.harness import Case, collect, discover, format_bytes, format_ratio, format_time, table


def _trivial_case(**impls):
    return Case("trivial", "sum of a short list", {k: impls.get(k) for k in harness.IMPLEMENTATIONS})


def test_time_case_measures_each_given_implementation_and_skips_missing_ones():
    calls = {"tensorlab": 0, "numpy": 0}

    def tl():
        calls["tensorlab"] += 1
        return sum(range(10))

    def np_():
        calls["numpy"] += 1
        return sum(range(10))

    result = harness.time_case(_trivial_case(tensorlab=tl, numpy=np_), repeats=3, min_time=1e-4, warmup=1)
    assert result.values["torch"] is None
    for impl in ("tensorlab", "numpy"):
        assert result.values[impl] > 0
        assert len(result.samples[impl]) == 3
        assert calls[impl] >= 1 + 3  # warm-up + one sample per round, each sample one call or more
    assert result.errors == {}


def test_an_implementation_that_raises_is_reported_not_fatal():
    def broken():
        raise TypeError("unsupported operand type(s) for @")

    result = harness.time_case(_trivial_case(tensorlab=broken, numpy=lambda: None), repeats=2, min_time=1e-4)
    assert result.values["tensorlab"] is None
    assert result.errors["tensorlab"].startswith("TypeError: unsupported operand")
    assert result.values["numpy"] > 0
    text = table([result])
    assert "error" in text and "raised TypeError" in text


def test_ratios_and_units_are_formatted():
    assert format_ratio(2.0, 1.0) == "2.00x"
    assert format_ratio(1.0, 4.0) == "0.25x"
    assert format_ratio(None, 1.0) == "—"
    assert format_ratio(1.0, None) == "—"
    assert format_time(2.5e-6) == "2.5 µs"
    assert format_time(0.0123) == "12.3 ms"
    assert format_time(3.0e-7) == "300 ns"
    assert format_time(None) == "—"
    assert format_bytes(16 * 1024 * 1024) == "16 MiB"
    assert format_bytes(512) == "512 B"


def test_table_has_one_row_per_case_with_both_ratios():
    result = harness.Result(_trivial_case(), {"tensorlab": 3e-6, "torch": 1e-6, "numpy": 2e-6})
    lines = table([result]).splitlines()
    assert len(lines) == 3  # header, rule, one row
    assert "tensorlab/torch" in lines[0] and "tensorlab/numpy" in lines[0]
    row = [cell.strip() for cell in lines[2].split("|")[1:-1]]
    assert row == ["trivial: sum of a short list", "3 µs", "1 µs", "2 µs", "3.00x", "1.50x"]


@pytest.fixture
def bench_package(tmp_path, monkeypatch):
    """A throw-away benchmarks package with one module, importable as ``fakebench``."""
    package = tmp_path / "fakebench"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bench_small.py").write_text(textwrap.dedent("""
        CASES = [
            ("add ints", {"tensorlab": lambda: 1 + 1, "torch": None, "numpy": lambda: 1 + 1}),
            ("mul ints", {"tensorlab": lambda: 2 * 3, "numpy": None}),
        ]
        MEMORY_CASES = [("peak", {"tensorlab": lambda: 2048, "numpy": lambda: 1024})]
    """))
    (package / "helpers.py").write_text("CASES = [('not a bench module', {})]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _forget_fakebench()
    yield package
    _forget_fakebench()


def _forget_fakebench():
    for name in [n for n in sys.modules if n == "fakebench" or n.startswith("fakebench.")]:
        del sys.modules[name]


def test_discover_and_filter_cases(bench_package):
    modules = discover("fakebench", bench_package)
    assert [m.__name__ for m in modules] == ["fakebench.bench_small"]
    assert [c.label for c in collect(modules)] == ["small: add ints", "small: mul ints"]
    assert [c.label for c in collect(modules, "MUL")] == ["small: mul ints"]
    assert collect(modules, "nothing matches this") == []
    memory = collect(modules, attribute="MEMORY_CASES")
    result = harness.measure_memory(memory[0])
    assert result.values == {"tensorlab": 2048, "torch": None, "numpy": 1024}
    assert "2.00x" in table([result], fmt=format_bytes)


def test_unknown_implementation_names_are_rejected(bench_package):
    (bench_package / "bench_typo.py").write_text("CASES = [('x', {'tensorflow': lambda: 0})]\n")
    with pytest.raises(ValueError, match="unknown implementations"):
        collect(discover("fakebench", bench_package))


def test_main_runs_a_filtered_case_and_writes_a_report(bench_package, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(harness, "discover", lambda: discover("fakebench", bench_package))
    out = tmp_path / "RESULTS.md"
    assert harness.main(["--filter", "add", "--repeats", "2", "--min-time", "0.0001", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "small: add ints" in printed and "mul ints" not in printed
    report = out.read_text(encoding="utf-8")
    assert report.startswith("# Benchmark results")
    assert "## Machine" in report and "- CPU: " in report and "- date: " in report
    assert "small: add ints" in report
    assert harness.main(["--filter", "no such case"]) == 1


def _peer_case(**impls):
    return Case("peers", "a + b", {k: impls.get(k) for k in harness.IMPLEMENTATIONS + harness.PEERS}, "cpu")


def test_cpu_clock_counts_this_process_and_its_finished_children():
    import subprocess
    start = harness.cpu_time()
    subprocess.run([sys.executable, "-c", "sum(range(3_000_000))"], check=True)
    assert harness.cpu_time() - start > 0.01  # the child's work, which process_time alone misses
    result = harness.time_case(_peer_case(torch=lambda: sum(range(100)), mygrad=lambda: sum(range(300))),
                               repeats=3, min_time=1e-3, warmup=1)
    assert result.values["torch"] > 0 and result.values["mygrad"] > 0
    assert result.values["autograd"] is None and result.values["tensorlab"] is None


def test_peer_table_shows_ratios_to_torch_and_failures():
    result = harness.Result(_peer_case(), {"torch": 2e-6, "tensorlab": 3e-6, "autograd": 1e-6, "mygrad": None,
                                           "micrograd": None, "numpy": None},
                            errors={"mygrad": "AssertionError: not timed: value 0 differs"})
    lines = harness.peer_table([result]).splitlines()
    assert [c.strip() for c in lines[0].split("|")[1:-1]] == \
           ["case", "PyTorch", "tensorlab", "HIPS autograd", "MyGrad", "micrograd", "NumPy"]
    assert [c.strip() for c in lines[2].split("|")[1:-1]] == \
           ["peers: a + b", "2 µs", "1.50x", "0.50x", "failed", "—", "—"]
    assert "[mygrad] AssertionError: not timed" in lines[-1]
    no_torch = harness.Result(_peer_case(), {"torch": None, "tensorlab": 3e-6})
    assert "3 µs" in harness.peer_table([no_torch])


def test_peers_are_accepted_in_peer_cases_only_and_missing_ones_are_listed(bench_package):
    (bench_package / "bench_peerish.py").write_text(textwrap.dedent("""
        CLOCK = "cpu"
        MISSING = {"micrograd": "not installed"}
        PEER_CASES = [("x", {"torch": lambda: 0, "mygrad": lambda: 0})]
    """))
    modules = discover("fakebench", bench_package)
    [case] = collect(modules, attribute="PEER_CASES")
    assert case.clock == "cpu" and case.impls["mygrad"] is not None and case.impls["autograd"] is None
    assert ("peerish [micrograd]", "not installed") in harness.skipped_modules(modules)
    (bench_package / "bench_peerish.py").write_text("CASES = [('x', {'mygrad': lambda: 0})]\n")
    _forget_fakebench()
    with pytest.raises(ValueError, match="unknown implementations"):
        collect(discover("fakebench", bench_package))


def test_main_reports_peer_cases_in_their_own_table(bench_package, monkeypatch, tmp_path, capsys):
    (bench_package / "bench_peerish.py").write_text(textwrap.dedent("""
        CLOCK = "cpu"
        NOTES = ["how to read the row"]
        PEER_CASES = [("sum", {"torch": lambda: sum(range(50)), "tensorlab": lambda: sum(range(100)),
                               "mygrad": lambda: sum(range(200))})]
    """))
    monkeypatch.setattr(harness, "discover", lambda: discover("fakebench", bench_package))
    out = tmp_path / "RESULTS.md"
    assert harness.main(["--filter", "peerish", "--repeats", "2", "--min-time", "0.0001", "--output", str(out)]) == 0
    assert "| PyTorch |" in capsys.readouterr().out
    report = out.read_text(encoding="utf-8")
    section = report.split("## Against the other Python autograd libraries", 1)[1]
    assert "peerish: sum" in section and "- how to read the row" in section
    assert "CPU time" in section
