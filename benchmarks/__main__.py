"""``python -m benchmarks [--filter REGEX] [--threads N] ...``: see benchmarks/harness.py.

Every library runs single-threaded by default (``--threads 1``): the ratios then compare the work
each library does, not how many cores it grabs on a shared machine. The thread count must reach
NumPy's BLAS before NumPy is imported, hence this is done here, first.
"""
import os
import sys

_threads = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv[:-1] else "1"
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, _threads)

from benchmarks.harness import main  # noqa: E402

sys.exit(main())
