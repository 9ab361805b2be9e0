"""Where the time of tensorlab's hottest paths goes: ``a + b`` on 32x32 float32 (without and with
grad) and one training step of the MLP 64-128-64-10 of bench_nn.py (batch 64, SGD with momentum).
benchmarks/PROFILE.md holds what it found.

    python -m benchmarks.profile_hot_path              # CPU time of each piece (interleaved medians)
    python -m benchmarks.profile_hot_path --callgrind  # instructions of each piece (valgrind)
    python -m benchmarks.profile_hot_path --cprofile   # the MLP step's functions, by their own time

Each path is measured as nested pieces -- the whole ``a + b``; the ``Function.apply`` it calls; the
``forward`` inside that; the NumPy add inside that -- and a row of the table is the difference of two
of them, so the rows add up to the whole. The pieces call tensorlab's internals by name
(``Add.forward``, ``broadcast_operands``, ``Tensor._from_array``...); a piece whose internals were
renamed or removed shows "n/a" and its row merges into the one above it, the totals still stand.

Times are CPU time of this process, one thread, all pieces of a path interleaved (each round runs
every piece once, in a rotating order); on a machine shared with other work they still wobble by some
percent. Instruction counts do not: ``--callgrind`` runs this file under ``valgrind --tool=callgrind``,
which dumps its counters each time ``os.getppid()`` is called -- once before each piece's loop -- so
one run gives every piece's count; an empty loop's count is subtracted. (Valgrind shows NumPy and
PyTorch a CPU without AVX-512: their large-array kernels take the AVX2 path there. Per-op overhead,
what these paths are about, does not depend on it.)
"""
import argparse
import gc
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import tensorlab  # noqa: E402

try:
    import torch  # noqa: E402
    torch.set_num_threads(1)
except ImportError:
    torch = None

from benchmarks.harness import calls_per_sample, cpu_time, format_time  # noqa: E402
from benchmarks.steps import train_on  # noqa: E402


def _internal(getter):
    """``getter()``, or None when the internals it names no longer exist."""
    try:
        return getter()
    except (AttributeError, ImportError, TypeError):
        return None


# -- the pieces ------------------------------------------------------------------------------------------
# A path is a list of rows (what, how measured, piece name, the piece it is subtracted from... ). Each piece
# is a zero-argument callable; ``None`` when it cannot be built on this version of tensorlab.
def add_pieces(grad):
    """The pieces of ``a + b`` (32x32 float32), ``a`` requiring grad or not, and PyTorch's ``a + b``."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 32, 32), dtype=np.float32)
    a, b = tensorlab.from_numpy(x.copy()), tensorlab.from_numpy(y.copy())
    if grad:
        a.requires_grad_()
    names = {k for _, _, plus, minus in (ADD_GRAD_ROWS if grad else ADD_ROWS) for k in plus + minus}
    pieces = dict.fromkeys(sorted(names))  # None: not measurable on this version of tensorlab
    pieces.update({"a + b": lambda: a + b, "NumPy x + y": lambda: x + y})
    if torch is not None:
        ta, tb = torch.from_numpy(x.copy()), torch.from_numpy(y.copy())
        if grad:
            ta.requires_grad_()
        pieces["PyTorch a + b"] = lambda: ta + tb
    Add = _internal(lambda: tensorlab.ops.elementwise.Add)
    function = _internal(lambda: sys.modules["tensorlab.autograd.function"])
    result = x + y
    pieces["Add.apply"] = _internal(lambda: (lambda apply: lambda: apply(a, b, 1))(Add.apply))
    node_cls = _internal(lambda: Add._backward_cls)
    forward = _internal(lambda: Add.forward)
    if forward is not None and node_cls is not None:
        pieces["Add.forward"] = lambda: forward(object.__new__(node_cls), a, b, 1)
        pieces["node object"] = lambda: object.__new__(node_cls)
    broadcast = _internal(lambda: tensorlab.ops._pointwise.broadcast_operands)
    pieces["broadcast_operands"] = (lambda: broadcast(a, b)) if broadcast else None
    from_array = _internal(lambda: tensorlab.Tensor._from_array)
    pieces["Tensor._from_array"] = (lambda: from_array(result)) if from_array else None
    if grad:
        edge = _internal(lambda: sys.modules["tensorlab.autograd.graph"].gradient_edge)
        pieces["gradient_edge(a)"] = (lambda: edge(a)) if edge else None
        connect_inputs = _internal(lambda: function._connect_inputs)
        connect_outputs = _internal(lambda: function._connect_outputs)
        if connect_inputs and node_cls is not None:
            args = (a, b, 1)
            pieces["_connect_inputs"] = lambda: connect_inputs(object.__new__(node_cls), args)
            if connect_outputs and from_array:
                def connect_both():
                    node = object.__new__(node_cls)
                    connect_inputs(node, args)
                    return connect_outputs(node, args, from_array(result))
                pieces["_connect_inputs + _connect_outputs(new result)"] = connect_both
    return pieces


# A row of a table: (label, what it covers, pieces added, pieces subtracted). The rows of a path add up
# to its first piece (the whole ``a + b``).
ADD_ROWS = [
    ("the `+` operator", "`Tensor.__add__` (`_add_operator`): the operand type test, the call of `Add.apply`",
     ["a + b"], ["Add.apply"]),
    ("`Function.apply`", "op layers active?, grad mode, does an input require grad?, the call of forward",
     ["Add.apply"], ["Add.forward"]),
    ("the node object", "`object.__new__(AddBackward0)`: the ctx, made even when nothing is recorded",
     ["node object"], []),
    ("`broadcast_operands`", "both tensors? same shape, dtype and device? the dtype looked up",
     ["broadcast_operands"], []),
    ("NumPy's add", "`x + y` on the two ndarrays: the ufunc and its result array", ["NumPy x + y"], []),
    ("the result tensor", "`Tensor._from_array`: the Tensor, its lazy Storage, strides from a cache",
     ["Tensor._from_array"], []),
    ("`Add.forward`, the rest", "`ctx.alpha`, the `alpha == 1` test, the call of `wrap`", ["Add.forward"],
     ["node object", "broadcast_operands", "NumPy x + y", "Tensor._from_array"]),
]

ADD_GRAD_ROWS = [
    ("the `+` operator", "`Tensor.__add__` (`_add_operator`)", ["a + b"], ["Add.apply"]),
    ("`Function.apply`, the rest", "op layers?, requires-grad test, grad mode off and on again, try/finally, "
     "anomaly, dirty and observer checks", ["Add.apply", "node object", "Tensor._from_array"],
     ["_connect_inputs + _connect_outputs(new result)", "Add.forward"]),
    ("the node object", "`object.__new__(AddBackward0)`", ["node object"], []),
    ("the leaf's edge", "`gradient_edge(a)`: a new AccumulateGrad (the last graph died with its result) "
     "and the weak reference the leaf keeps to it", ["gradient_edge(a)"], []),
    ("`_connect_inputs`, the rest", "sequence number, the edge tuple, input metadata (shape, dtype, device)",
     ["_connect_inputs"], ["node object", "gradient_edge(a)"]),
    ("`_connect_outputs`", "grad_fn, output_nr, requires_grad on the result; the output metadata",
     ["_connect_inputs + _connect_outputs(new result)"], ["_connect_inputs", "Tensor._from_array"]),
    ("`Add.forward`", "as without grad, less the node object: operand checks, the result tensor...",
     ["Add.forward"], ["node object", "NumPy x + y"]),
    ("NumPy's add", "`x + y` on the two ndarrays", ["NumPy x + y"], []),
]


def _mlp(lib):
    n = lib.nn
    return n.Sequential(n.Linear(64, 128), n.ReLU(), n.Linear(128, 64), n.ReLU(), n.Linear(64, 10))


def mlp_pieces():
    """Nested prefixes of one training step, in tensorlab and in PyTorch (same weights, same batch)."""
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((64, 64), dtype=np.float32)
    y_np = rng.integers(0, 10, 64)
    pieces = {}
    models = {"tensorlab": (tensorlab, _mlp(tensorlab))}
    if torch is not None:
        theirs = _mlp(torch)
        ours = models["tensorlab"][1]
        ours.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})
        models["PyTorch"] = (torch, theirs)
    for name, (lib, model) in models.items():
        x, y = lib.tensor(x_np), lib.tensor(y_np)
        loss_fn = lib.nn.functional.cross_entropy
        optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

        def forward_and_loss(model=model, x=x, y=y, loss_fn=loss_fn):
            return loss_fn(model(x), y)

        def through_backward(model=model, x=x, y=y, loss_fn=loss_fn, optimizer=optimizer):
            loss = loss_fn(model(x), y)
            optimizer.zero_grad()
            loss.backward()

        pieces[f"{name} forward"] = lambda model=model, x=x: model(x)
        pieces[f"{name} forward + loss"] = forward_and_loss
        pieces[f"{name} + zero_grad + backward"] = through_backward
        pieces[f"{name} step"] = (lambda model=model, x=x, y=y, loss_fn=loss_fn, optimizer=optimizer:
                                  train_on(model, loss_fn, optimizer, x, y))
    return pieces


MLP_ROWS = [
    ("forward", "3 Linear (addmm), 2 ReLU, recording 5 nodes", ["{} forward"], []),
    ("cross-entropy", "log_softmax + nll_loss, recorded", ["{} forward + loss"], ["{} forward"]),
    ("zero_grad + backward", "6 parameters' grads set to None, the engine over the graph, AccumulateGrad",
     ["{} + zero_grad + backward"], ["{} forward + loss"]),
    ("optimizer.step", "SGD with momentum on 6 parameters", ["{} step"], ["{} + zero_grad + backward"]),
    ("the whole step", "", ["{} step"], []),
]


def _noop():
    return None


# -- measuring -------------------------------------------------------------------------------------------
def time_pieces(pieces, repeats=21, min_time=0.005):
    """Median CPU seconds per call of every piece, interleaved, less the time of calling an empty
    function in the same loop (as ``--callgrind`` subtracts an empty loop's instructions)."""
    fns = {k: f for k, f in pieces.items() if f is not None}
    fns["empty call"] = _noop
    for f in fns.values():  # warm up
        for _ in range(3):
            f()
    numbers = {k: calls_per_sample(f, min_time) for k, f in fns.items()}
    samples = {k: [] for k in fns}
    order = list(fns)
    gc.collect()
    gc.disable()
    try:
        for r in range(repeats):
            for k in order[r % len(order):] + order[:r % len(order)]:
                f, n = fns[k], numbers[k]
                start = cpu_time()
                for _ in range(n):
                    f()
                samples[k].append((cpu_time() - start) / n)
    finally:
        gc.enable()
    medians = {k: statistics.median(v) for k, v in samples.items()}
    empty = medians.pop("empty call")
    return {k: v - empty for k, v in medians.items()}


def callgrind_child(loops):
    """Run under callgrind: one ``os.getppid()`` (a counter dump) before each piece's loop."""
    paths = {"add": add_pieces(False), "add grad": add_pieces(True), "mlp": mlp_pieces()}
    order = [("empty loop", _noop, loops["add"])]
    for path, pieces in paths.items():
        order += [(f"{path}: {k}", f, loops[path.split()[0]]) for k, f in pieces.items() if f is not None]
    for _, f, _ in order:
        for _ in range(3):
            f()
    gc.collect()
    gc.disable()
    for _, f, n in order:
        os.getppid()  # dump: the counts since the last dump belong to the piece before
        for _ in range(n):
            f()
    os.getppid()
    print("\n".join(f"{label}\t{n}" for label, _, n in order))


def run_callgrind(loops, keep=None):
    """Instructions per call of every piece: this file under callgrind, one dump per piece. ``keep``: a
    folder to leave the dumps in, with ``pieces.txt`` saying which dump is which piece (read one with
    ``callgrind_annotate``: which C functions -- the interpreter's, NumPy's -- ran the instructions)."""
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    out = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="callgrind-"))
    out.mkdir(parents=True, exist_ok=True)
    # the tensorlab this process imported comes first (PYTHONPATH may name another copy), then this repo
    path = [str(Path(tensorlab.__file__).resolve().parent.parent), str(Path(__file__).resolve().parent.parent)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    cmd = ["valgrind", "--tool=callgrind", "--dump-before=getppid", "--compress-strings=no",
           f"--callgrind-out-file={out}/cg.out",
           sys.executable, "-m", "benchmarks.profile_hot_path", "--callgrind-child",
           ",".join(f"{k}={v}" for k, v in loops.items())]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    order = [line.split("\t") for line in done.stdout.strip().splitlines()]
    dumps = sorted(out.glob("cg.out.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
    totals = [_instructions(p) for p in dumps]
    # dump 1 is start-up; dump i+2 ends with the loop of piece i (dumps come at the getppid before)
    per_piece = {label: totals[i + 1] / int(n) for i, (label, n) in enumerate(order)}
    empty = per_piece.pop("empty loop")
    libraries = {label: _by_library(dumps[i + 1], int(n)) for i, (label, n) in enumerate(order)
                 if label in BROKEN_DOWN or label == "empty loop"}
    empty_libraries = libraries.pop("empty loop")
    if keep:
        (out / "pieces.txt").write_text("".join(f"{dump.name}\t{label}\t{n} calls\n" for dump, (label, n)
                                                in zip(dumps[1:], order)))
    else:
        shutil.rmtree(out)
    for counts in libraries.values():
        for library, n in empty_libraries.items():
            counts[library] = counts.get(library, 0) - n
    return {label: count - empty for label, count in per_piece.items()}, libraries


def _instructions(dump):
    for line in dump.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise ValueError(f"no instruction total in {dump}")


# the whole paths whose instructions are also split by the library that ran them
BROKEN_DOWN = ["add: a + b", "add: PyTorch a + b", "add grad: a + b", "add grad: PyTorch a + b",
               "mlp: tensorlab step", "mlp: PyTorch step"]
LIBRARIES = [("Python interpreter", ("libpython", "python3")), ("NumPy", ("_multiarray_umath", "numpy")),
             ("BLAS", ("openblas", "blas")), ("PyTorch's C++", ("libtorch", "libc10")),
             ("C library (malloc, memset...)", ("libc.so", "libm.so", "ld-linux", "libstdc++"))]


def _library_of(shared_object):
    name = shared_object.rsplit("/", 1)[-1]
    return next((label for label, keys in LIBRARIES if any(k in name for k in keys)), "other")


def _by_library(dump, calls):
    """Instructions per call of a dump, by the shared object they ran in (each function's own cost:
    the lines of a function's block, less those that follow a ``calls=`` line, which are its callees')."""
    counts, library, after_call = {}, "other", False
    for line in dump.read_text().splitlines():
        if line.startswith("ob="):
            library = _library_of(line[3:].split(") ", 1)[-1])
        elif line.startswith("calls="):
            after_call = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            if after_call:  # the inclusive cost of a call, counted in the callee's own lines
                after_call = False
            else:
                fields = line.split()
                if len(fields) > 1:
                    counts[library] = counts.get(library, 0) + int(fields[1]) / calls
    return counts


# -- tables ----------------------------------------------------------------------------------------------
def _combine(values, plus, minus):
    """sum(plus) - sum(minus) of the measured pieces; None when one of them was not measured."""
    if any(values.get(k) is None for k in plus + minus):
        return None
    return sum(values[k] for k in plus) - sum(values[k] for k in minus)


def _count(n):
    return "n/a" if n is None else f"{n:,.0f}"


def _time(seconds):
    return "n/a" if seconds is None else format_time(seconds) if seconds >= 0 else "-" + format_time(-seconds)


def rows_table(rows, time_values, instr_values, prefix):
    lines = ["| piece | what it does | CPU time | instructions |", "|---|---|---|---|"]
    for label, what, plus, minus in rows:
        plus, minus = [prefix + k for k in plus], [prefix + k for k in minus]
        lines.append(f"| {label} | {what} | {_time(_combine(time_values, plus, minus))} "
                     f"| {_count(_combine(instr_values, plus, minus)) if instr_values else '—'} |")
    return "\n".join(lines)


def summary_table(time_values, instr_values, prefix):
    lines = ["| | CPU time | instructions |", "|---|---|---|"]
    for label, key in (("tensorlab `a + b`", "a + b"), ("PyTorch `a + b`", "PyTorch a + b"),
                       ("NumPy `x + y`", "NumPy x + y")):
        k = prefix + key
        lines.append(f"| {label} | {_time(time_values.get(k))} | {_count(instr_values.get(k)) if instr_values else '—'} |")
    return "\n".join(lines)


def mlp_table(time_values, instr_values):
    lines = ["| phase | what | tensorlab CPU time | PyTorch CPU time | tensorlab/PyTorch | tensorlab instructions "
             "| PyTorch instructions |", "|---|---|---|---|---|---|---|"]
    for label, what, plus, minus in MLP_ROWS:
        def of(values, lib):
            return _combine(values, [k.format(lib) for k in plus], [k.format(lib) for k in minus])
        ours, theirs = of(time_values, "tensorlab"), of(time_values, "PyTorch")
        ratio = f"{ours / theirs:.2f}x" if ours is not None and theirs else "—"
        counts = [_count(of(instr_values, lib)) if instr_values else "—" for lib in ("tensorlab", "PyTorch")]
        lines.append(f"| {label} | {what} | {_time(ours)} | {_time(theirs)} | {ratio} | {' | '.join(counts)} |")
    return "\n".join(lines)


def cprofile_table(top=20, steps=2000):
    """The MLP step's tensorlab functions by own time, under cProfile, scaled to one step."""
    import cProfile
    import pstats
    pieces = mlp_pieces()
    step = pieces["tensorlab step"]
    for _ in range(20):
        step()
    real = time_pieces({"step": step})["step"]
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(steps):
        step()
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = sum(v[2] for v in stats.stats.values())  # own times add up to the profiled time
    entries = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    root = str(Path(tensorlab.__file__).resolve().parent.parent) + os.sep
    lines = [f"One step: {format_time(real)} of CPU time unprofiled; under cProfile each function's own time "
             f"is scaled so that they add up to that.", "",
             "| function | calls per step | own time per step | share |", "|---|---|---|---|"]
    for (filename, line, name), (_, ncalls, own, _, _) in entries:
        where = filename.replace(root, "") if filename != "~" else "built-in"
        name = re.sub(r" at 0x[0-9a-f]+", "", name)  # a built-in's address differs from run to run
        label = f"`{name}` ({where}:{line})" if filename != "~" else f"`{name}`"
        lines.append(f"| {label} | {ncalls / steps:g} | {format_time(real * own / total)} | {own / total:.1%} |")
    by_file = {}
    for (filename, _, _), (_, _, own, _, _) in stats.stats.items():
        where = filename.replace(root, "") if filename != "~" else "built-ins (NumPy's methods, isinstance, ...)"
        by_file[where] = by_file.get(where, 0.0) + own
    ops = []
    for (filename, line, name), (_, ncalls, _, inclusive, _) in stats.stats.items():
        if name in ("forward", "backward") and filename.startswith(root):
            ops.append((f"`{_enclosing_class(filename, line)}.{name}`", ncalls / steps, inclusive))
    lines += ["", "Each op's forward and backward, inclusive (what they call counted in):", "",
              "| op | calls per step | time per step (inclusive) | share |", "|---|---|---|---|"]
    for label, calls, inclusive in sorted(ops, key=lambda op: op[2], reverse=True)[:top]:
        lines.append(f"| {label} | {calls:g} | {format_time(real * inclusive / total)} | {inclusive / total:.1%} |")
    lines += ["", "The same own times added up per file:", "", "| file | own time per step | share |", "|---|---|---|"]
    for where, own in sorted(by_file.items(), key=lambda kv: kv[1], reverse=True)[:top]:
        lines.append(f"| {where} | {format_time(real * own / total)} | {own / total:.1%} |")
    return "\n".join(lines)


def library_table(libraries):
    names = [label for label, _ in LIBRARIES] + ["other"]
    lines = ["| path | " + " | ".join(names) + " | all |", "|---" * (len(names) + 2) + "|"]
    for piece, counts in libraries.items():
        total = sum(counts.values())
        cells = [f"{counts.get(n, 0):,.0f} ({counts.get(n, 0) / total:.0%})" if abs(counts.get(n, 0)) >= 1 else "—"
                 for n in names]
        lines.append(f"| {piece} | " + " | ".join(cells) + f" | {total:,.0f} |")
    return "\n".join(lines)


def _enclosing_class(filename, line):
    """The class a method defined at ``filename:line`` belongs to (the nearest ``class`` above it)."""
    import linecache
    if linecache.getline(filename, line).startswith("def "):  # a module-level function
        return Path(filename).stem
    for number in range(line, 0, -1):
        text = linecache.getline(filename, number)
        if text.startswith("class "):
            return text[len("class "):].split("(")[0].split(":")[0].strip()
    return "?"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile_hot_path", description=__doc__.split("\n\n")[0])
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind, minutes)")
    parser.add_argument("--keep-dumps", metavar="DIR", help="with --callgrind: leave the dumps in DIR")
    parser.add_argument("--cprofile", action="store_true", help="also list the MLP step's functions by own time")
    parser.add_argument("--callgrind-child", metavar="LOOPS", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    loops = {"add": 2000, "mlp": 40}
    if args.callgrind_child:
        callgrind_child({k: int(v) for k, v in (item.split("=") for item in args.callgrind_child.split(","))})
        return 0
    instr, libraries = run_callgrind(loops, args.keep_dumps) if args.callgrind else ({}, {})
    add, add_grad, mlp = add_pieces(False), add_pieces(True), mlp_pieces()
    times = {**{f"add: {k}": v for k, v in time_pieces(add).items()},
             **{f"add grad: {k}": v for k, v in time_pieces(add_grad).items()},
             **{f"mlp: {k}": v for k, v in time_pieces(mlp).items()}}
    print(f"tensorlab at {Path(tensorlab.__file__).parent}, load average {os.getloadavg()[0]:.2f}\n")
    print("## `a + b`, 32x32 float32, no grad\n")
    print(summary_table(times, instr, "add: "), "\n")
    print(rows_table(ADD_ROWS, times, instr, "add: "), "\n")
    print("## `a + b`, 32x32 float32, `a.requires_grad`\n")
    print(summary_table(times, instr, "add grad: "), "\n")
    print(rows_table(ADD_GRAD_ROWS, times, instr, "add grad: "), "\n")
    print("## MLP 64-128-64-10 training step, batch 64\n")
    print(mlp_table({k.removeprefix("mlp: "): v for k, v in times.items() if k.startswith("mlp: ")},
                    {k.removeprefix("mlp: "): v for k, v in instr.items() if k.startswith("mlp: ")}))
    if libraries:
        print("\n## Instructions by the library that ran them\n")
        print(library_table(libraries))
    if args.cprofile:
        print()
        print(cprofile_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
