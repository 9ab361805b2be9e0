"""Side-by-side timing of tensorlab against PyTorch and NumPy.

A benchmark module is a file ``benchmarks/bench_<topic>.py`` that builds its inputs at import time
and exposes

    CASES = [(name, {"tensorlab": fn, "torch": fn_or_None, "numpy": fn_or_None}), ...]
    MEMORY_CASES = [(name, {"tensorlab": fn_returning_peak_bytes, ...}), ...]   # optional
    SKIPPED = "why the module has no cases on this machine"                      # optional

where every ``fn`` takes no arguments. The harness times all implementations of a case in the
same run, interleaved (each round calls every implementation once, in a rotating order), so a
machine that gets busier half-way through slows all of them alike. It reports medians and the
ratios tensorlab/torch and tensorlab/numpy: ratios travel between machines, absolute times do not.

A module that compares tensorlab with the other Python autograd libraries (``PEERS``) names its
cases ``PEER_CASES`` and ``PEER_MEMORY_CASES`` instead, with a key per library; they go into a
table of ratios to PyTorch, one column per library. ``CLOCK = "cpu"`` in a module times its cases
in CPU time (the process's and its finished children's) rather than wall-clock time: on a machine
shared with other work, CPU time does not count the moments the process waited for a core.

Nothing here asserts a timing. ``python -m benchmarks --help`` lists the options.
"""
from __future__ import annotations

import datetime
import gc
import importlib
import os
import platform
import re
import statistics
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path

try:
    import resource  # the CPU time of finished child processes (POSIX)
except ImportError:
    resource = None

IMPLEMENTATIONS = ("tensorlab", "torch", "numpy")
PEERS = ("autograd", "mygrad", "micrograd")  # HIPS autograd, MyGrad, micrograd: PEER_* cases only
PEER_TITLES = {"autograd": "HIPS autograd", "mygrad": "MyGrad", "micrograd": "micrograd"}
HERE = Path(__file__).resolve().parent


@dataclass
class Case:
    """One benchmark: a name and a zero-argument callable per implementation (None = not run)."""
    module: str
    name: str
    impls: dict
    clock: str = "wall"  # or "cpu": see cpu_time

    @property
    def label(self):
        return f"{self.module}: {self.name}"


@dataclass
class Result:
    """What was measured for one case: per implementation, a median (seconds or bytes) or None."""
    case: Case
    values: dict = field(default_factory=dict)
    samples: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)  # implementation -> "TypeError: ..." when it raised


# --------------------------------------------------------------------------- discovery
def discover(package="benchmarks", directory=HERE):
    """Import every ``bench_*.py`` module of the benchmarks package, in name order. A module that
    cannot be imported here (an optional library missing) stands in as one with no cases, ``SKIPPED``
    saying why."""
    importlib.invalidate_caches()  # modules written since start-up are found too
    modules = []
    for path in sorted(Path(directory).glob("bench_*.py")):
        name = f"{package}.{path.stem}"
        try:
            modules.append(importlib.import_module(name))
        except ImportError as error:
            stand_in = types.ModuleType(name)
            stand_in.SKIPPED = f"cannot be imported here ({_describe(error)})"
            modules.append(stand_in)
    return modules


def _implementations(attribute):
    """The implementations a case of ``attribute`` may name: the peers only in PEER_* lists."""
    return IMPLEMENTATIONS + PEERS if attribute.startswith("PEER_") else IMPLEMENTATIONS


def _cases(module, attribute):
    short = module.__name__.rsplit(".", 1)[-1].removeprefix("bench_")
    known = _implementations(attribute)
    clock = getattr(module, "CLOCK", "wall")
    out = []
    for name, impls in getattr(module, attribute, []):
        unknown = set(impls) - set(known)
        if unknown:
            raise ValueError(f"{module.__name__}: case {name!r} has unknown implementations {sorted(unknown)}")
        out.append(Case(short, name, {k: impls.get(k) for k in known}, clock))
    return out


def collect(modules, pattern=None, attribute="CASES"):
    """All cases of ``attribute`` (CASES, MEMORY_CASES, PEER_CASES or PEER_MEMORY_CASES) whose label
    matches ``pattern`` (a regular expression, searched case-insensitively; None selects everything)."""
    regex = re.compile(pattern, re.IGNORECASE) if pattern else None
    cases = [c for m in modules for c in _cases(m, attribute)]
    return [c for c in cases if regex is None or regex.search(c.label)]


# --------------------------------------------------------------------------- timing
def cpu_time():
    """Seconds of CPU this process has used, plus those of its children that have finished (a case
    that starts a fresh interpreter counts that interpreter's work). With one thread per library,
    this is the work done, whatever else the machine's cores were busy with meanwhile."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN) if resource is not None else None
    return time.process_time() + (children.ru_utime + children.ru_stime if children else 0.0)


CLOCKS = {"wall": time.perf_counter, "cpu": cpu_time}


def calls_per_sample(fn, min_time):
    """How many back-to-back calls make one sample last at least ``min_time`` seconds, so that
    timer resolution and loop overhead stay small next to what is measured."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time or number >= 1 << 20:
            return number
        # aim a little past min_time; grow at most 10x per step
        number = min(number * 10, max(number + 1, int(number * 1.2 * min_time / max(elapsed, 1e-9))))


def time_case(case, repeats=15, min_time=0.01, warmup=2):
    """Median seconds per call for each implementation of ``case``, measured interleaved, on the
    case's clock (wall-clock time, or CPU time for a module that says ``CLOCK = "cpu"``)."""
    clock = CLOCKS[case.clock]
    result = Result(case, {k: None for k in case.impls})
    fns = {}
    for impl, fn in case.impls.items():
        if fn is None:
            continue
        try:  # warm caches, allocators, lazy imports; an implementation that raises is reported
            for _ in range(warmup):
                fn()
        except Exception as error:  # noqa: BLE001 - any failure is a result to show, not a crash
            result.errors[impl] = _describe(error)
            continue
        fns[impl] = fn
    result.samples = {k: [] for k in fns}
    if not fns:
        return result
    numbers = {k: calls_per_sample(fn, min_time) for k, fn in fns.items()}
    order = list(fns)
    gc_was_enabled = gc.isenabled()
    try:
        for round_ in range(repeats):
            gc.collect()
            gc.disable()
            rotated = order[round_ % len(order):] + order[:round_ % len(order)]
            for impl in rotated:
                fn, number = fns[impl], numbers[impl]
                start = clock()
                for _ in range(number):
                    fn()
                result.samples[impl].append((clock() - start) / number)
            if gc_was_enabled:
                gc.enable()
    finally:
        if gc_was_enabled:
            gc.enable()
    for impl, samples in result.samples.items():
        result.values[impl] = statistics.median(samples)
    return result


def measure_memory(case):
    """Peak bytes reported by each implementation's memory function (median of three calls)."""
    result = Result(case, {k: None for k in case.impls})
    for impl, fn in case.impls.items():
        if fn is None:
            continue
        try:
            result.samples[impl] = [int(fn()) for _ in range(3)]
        except Exception as error:  # noqa: BLE001
            result.errors[impl] = _describe(error)
            continue
        result.values[impl] = statistics.median(result.samples[impl])
    return result


def _describe(error):
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 100 else text[:97] + "..."


# --------------------------------------------------------------------------- formatting
def format_time(seconds):
    """``1.23 µs``-style text for a duration in seconds; a dash when not measured."""
    if seconds is None:
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_bytes(n):
    """``12.0 MiB``-style text for a byte count; a dash when not measured."""
    if n is None:
        return "—"
    value = float(n)
    for unit in ("B", "KiB", "MiB"):
        if value < 1024:
            return f"{value:.3g} {unit}" if unit != "B" else f"{int(value)} B"
        value /= 1024
    return f"{value:.3g} GiB"


def format_ratio(numerator, denominator):
    """``2.50x`` = how many times tensorlab's number is the other's; a dash when either is missing."""
    if numerator is None or denominator is None or denominator == 0:
        return "—"
    return f"{numerator / denominator:.2f}x"


def _markdown_rows(header, rows):
    """The lines of a Markdown table with ``header`` and ``rows``, each column padded to its widest cell."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    return lines + ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in rows]


def table(results, fmt=format_time):
    """A Markdown table: one row per case, medians per implementation, then the two ratios."""
    header = ["case", *IMPLEMENTATIONS, "tensorlab/torch", "tensorlab/numpy"]
    rows = []
    for r in results:
        v = r.values
        rows.append([r.case.label, *("error" if k in r.errors else fmt(v[k]) for k in IMPLEMENTATIONS),
                     format_ratio(v["tensorlab"], v["torch"]), format_ratio(v["tensorlab"], v["numpy"])])
    lines = _markdown_rows(header, rows)
    notes = [f"- {r.case.label} [{impl}] raised {text}" for r in results for impl, text in r.errors.items()]
    if notes:
        lines += ["", "Implementations that raised (not timed):", *notes]
    return "\n".join(lines)


def peer_table(results, fmt=format_time):
    """A Markdown table for PEER_* cases: PyTorch's median, then every other library's as a ratio to
    it (``1.50x`` = 1.5 times PyTorch's time or memory). A library that is missing or cannot run the
    case shows a dash; one whose answer differed from PyTorch's, or that raised, shows "failed"
    and a note under the table. A case without a PyTorch number shows medians instead of ratios."""
    others = ("tensorlab", *PEERS, "numpy")
    titles = {"tensorlab": "tensorlab", "numpy": "NumPy", **PEER_TITLES}
    header = ["case", "PyTorch", *(titles[k] for k in others)]
    rows = []
    for r in results:
        base = r.values.get("torch")
        cells = []
        for impl in others:
            value = r.values.get(impl)
            if impl in r.errors:
                cells.append("failed")
            elif base is None:
                cells.append(fmt(value))
            else:
                cells.append(format_ratio(value, base))
        rows.append([r.case.label, "failed" if "torch" in r.errors else fmt(base), *cells])
    lines = _markdown_rows(header, rows)
    notes = [f"- {r.case.label} [{impl}] {text}" for r in results for impl, text in r.errors.items()]
    if notes:
        lines += ["", "Failed (not timed):", *notes]
    return "\n".join(lines)


# --------------------------------------------------------------------------- the machine
def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(module_name):
    module = sys.modules.get(module_name)
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            return "not installed"
    return getattr(module, "__version__", "unknown")


def _gpu_description():
    """The GPU the GPU cases ran on, with CuPy's and PyTorch's CUDA versions (None if CuPy was not used)."""
    cupy = sys.modules.get("cupy")
    if cupy is None:
        return None
    try:
        name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
        name = name.decode() if isinstance(name, bytes) else name
        text = f"{name}, CuPy {cupy.__version__} (CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()})"
    except Exception as error:  # noqa: BLE001 - a description, not a check
        return f"CuPy {cupy.__version__}, no device ({type(error).__name__})"
    torch = sys.modules.get("torch")
    if torch is not None and getattr(torch.version, "cuda", None):
        text += f", PyTorch CUDA {torch.version.cuda}"
    return text


def _source_description():
    """The git commit the benchmarked tensorlab was taken from, and whether tensorlab/ had changes not
    yet committed (None outside a git checkout)."""
    import subprocess
    root = HERE.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "tensorlab"],
                                 capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"commit {commit}" + (", with uncommitted changes in tensorlab/" if changed else "")


def machine_description(load_before=None):
    """Lines that say where the numbers come from: CPU, cores, library versions, threads, and the
    load average before and after the run (other work on the machine skews every number)."""
    lines = [f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
             f"- CPU: {_cpu_model()}, {os.cpu_count()} logical cores visible",
             f"- OS: {platform.platform()}",
             f"- Python {platform.python_version()}, NumPy {_version('numpy')}, "
             f"tensorlab {_version('tensorlab')}, PyTorch {_version('torch')}"]
    source = _source_description()
    if source:
        lines.append(f"- tensorlab source: {source}")
    if hasattr(os, "getloadavg"):
        after = os.getloadavg()[0]
        loads = ([f"{load_before[0]:.2f} before"] if load_before else []) + [f"{after:.2f} after"]
        busy = max(after, load_before[0] if load_before else 0) > 1.5  # the run itself keeps one core busy
        lines.append(f"- load average (1 min): {', '.join(loads)} the run"
                     + (f" -- other work shared the {os.cpu_count()} cores: times are less steady than on a "
                        "quiet machine, CPU-time ratios hold best" if busy else ""))
    gpu = _gpu_description()
    if gpu:
        lines.append(f"- GPU: {gpu}")
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "get_num_threads"):
        lines.append(f"- PyTorch intra-op threads: {torch.get_num_threads()}")
    try:
        from threadpoolctl import threadpool_info
        blas = [f"{i.get('internal_api')} {i.get('version')} ({i.get('num_threads')} threads)"
                for i in threadpool_info() if i.get("user_api") == "blas"]
        if blas:
            lines.append(f"- BLAS: {', '.join(blas)}")
    except ImportError:
        pass
    tuned = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OMP_NUM_THREADS",
                                        "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ}
    if tuned:
        lines.append("- environment: " + ", ".join(f"{k}={v}" for k, v in tuned.items()))
    return lines


def skipped_modules(modules):
    """``(module, reason)`` for each benchmark module that says it cannot run here (``SKIPPED``), and
    ``(module [library], reason)`` for each library a module says is missing (``MISSING``, a dict)."""
    out = []
    for m in modules:
        short = m.__name__.rsplit(".", 1)[-1].removeprefix("bench_")
        if getattr(m, "SKIPPED", None):
            out.append((short, m.SKIPPED))
        out += [(f"{short} [{impl}]", reason) for impl, reason in getattr(m, "MISSING", {}).items()]
    return out


PEER_INTRO = ("The same workloads in tensorlab, PyTorch and the other Python autograd libraries "
              "(HIPS autograd, MyGrad, micrograd), all timed in the same run, interleaved, one thread, "
              "in CPU time; each library's answer (values, losses, gradients) was checked against "
              "PyTorch's before it was timed. PyTorch's median per call, then every library's as a "
              "ratio to it: below 1 is faster than PyTorch. `python -m benchmarks --filter peers` runs "
              "this table alone; benchmarks/bench_peers.py says what each row computes in each library.")


def report(time_results, memory_results, settings, load_before=None, skipped=(),
           peer_results=(), peer_memory_results=(), peer_notes=()):
    """The text of RESULTS.md (``peer_notes``: lines that the peer modules' ``NOTES`` add under their
    tables, about reading a row)."""
    parts = ["# Benchmark results", "",
             "Written by `python -m benchmarks` (`make bench`); regenerate rather than edit. "
             "Medians per call, all implementations timed in the same run, interleaved; ratios "
             "above 1 mean tensorlab is slower. Absolute times depend on the machine; compare ratios. "
             "Wall-clock time, except the table against the other autograd libraries (CPU time); "
             "the load average below says how busy the machine was. Activation checkpointing's write-up "
             "is in CHECKPOINT.md; where the time of one op and one training step goes, in PROFILE.md.",
             "", "## Machine", "", *machine_description(load_before), f"- settings: {settings}", "",
             "## Time", "", table(time_results)]
    if memory_results:
        parts += ["", "## Peak memory", "", table(memory_results, fmt=format_bytes)]
    if peer_results or peer_memory_results:
        parts += ["", "## Against the other Python autograd libraries", "", PEER_INTRO, ""]
        if peer_results:
            parts += [peer_table(peer_results)]
        if peer_memory_results:
            parts += ["", "Peak memory, as ratios to PyTorch's:", "", peer_table(peer_memory_results, fmt=format_bytes)]
        if peer_notes:
            parts += ["", *(f"- {note}" for note in peer_notes)]
    if skipped:
        parts += ["", "## Not run here", "", *(f"- {name}: {reason}" for name, reason in skipped)]
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------- command line
def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--filter", "-k", metavar="REGEX",
                        help="run only cases whose 'module: name' matches (case-insensitive)")
    parser.add_argument("--repeats", type=int, default=15, help="timed rounds per case (default 15)")
    parser.add_argument("--min-time", type=float, default=0.01,
                        help="seconds one timed sample lasts at least (default 0.01)")
    parser.add_argument("--output", type=Path,
                        help="write the Markdown report here (default: benchmarks/RESULTS.md, "
                             "and only for a run without --filter)")
    parser.add_argument("--no-write", action="store_true", help="print only, write no report")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for PyTorch and the BLAS (default 1; see benchmarks/__main__.py)")
    args = parser.parse_args(argv)
    try:
        import torch
        torch.set_num_threads(args.threads)
    except ImportError:
        pass

    modules = discover()
    cases = collect(modules, args.filter)
    memory_cases = collect(modules, args.filter, "MEMORY_CASES")
    peer_cases = collect(modules, args.filter, "PEER_CASES")
    peer_memory_cases = collect(modules, args.filter, "PEER_MEMORY_CASES")
    if args.list:
        for c in cases + peer_cases:
            print(c.label)
        for c in memory_cases + peer_memory_cases:
            print(c.label, "(memory)")
        return 0
    if not (cases or memory_cases or peer_cases or peer_memory_cases):
        for name, reason in skipped_modules(modules):
            print(f"not run: {name}: {reason}", file=sys.stderr)
        print(f"no benchmark matches {args.filter!r}", file=sys.stderr)
        return 1

    load_before = os.getloadavg() if hasattr(os, "getloadavg") else None

    def timed(case):
        print(f"timing {case.label} ...", file=sys.stderr, flush=True)
        return time_case(case, repeats=args.repeats, min_time=args.min_time)
    time_results = [timed(c) for c in cases]
    peer_results = [timed(c) for c in peer_cases]
    memory_results = [measure_memory(c) for c in memory_cases]
    peer_memory_results = [measure_memory(c) for c in peer_memory_cases]

    if time_results:
        print(table(time_results))
    if memory_results:
        print()
        print(table(memory_results, fmt=format_bytes))
    if peer_results:
        print()
        print(peer_table(peer_results))
    if peer_memory_results:
        print()
        print(peer_table(peer_memory_results, fmt=format_bytes))
    skipped = [(name, reason) for name, reason in skipped_modules(modules)
               if not args.filter or re.search(args.filter, name, re.IGNORECASE)]
    for name, reason in skipped:
        print(f"not run: {name}: {reason}", file=sys.stderr)

    output = args.output
    if output is None and not args.filter:
        output = HERE / "RESULTS.md"
    if output is not None and not args.no_write:
        clocks = sorted({c.clock for c in cases + peer_cases})
        settings = (f"repeats={args.repeats}, min_time={args.min_time}s per sample, "
                    f"clock: {' and '.join(clocks)} (see the tables)")
        notes = [note for m in modules if getattr(m, "PEER_CASES", None) for note in getattr(m, "NOTES", [])]
        output.write_text(report(time_results, memory_results, settings, load_before, skipped,
                                 peer_results, peer_memory_results, notes), encoding="utf-8")
        print(f"\nwrote {output}", file=sys.stderr)
    return 0
