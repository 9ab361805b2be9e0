#!/usr/bin/env bash
# The GPU part of issue 11 in one run, on a machine with an NVIDIA GPU (well under 10 minutes):
#   1. the device-independent tests on cuda (tests/test_device.py with --device cuda: tensor core,
#      autograd, nn, optim, seeds; against tensorlab on the CPU and PyTorch on cuda), plus the test
#      files that have cuda-specific checks, run as usual;
#   2. the GPU benchmarks (benchmarks/bench_gpu.py) against torch-cuda in the same run, with the GPU
#      named in the report.
# Needs: numpy, cupy-cuda12x or cupy-cuda13x (matching the driver's CUDA; see README), pytest,
# hypothesis, and PyTorch with CUDA for the torch column and oracle. Nothing is installed or downloaded.
#
# Usage, from the repository root:   bash benchmarks/gpu_check.sh
#   PYTHON=python3.12 bash benchmarks/gpu_check.sh     choose the interpreter (default: .venv's, else python3)
#   OUT=some/dir bash benchmarks/gpu_check.sh          where results go (default: gpu-results/)
# Writes $OUT/machine.txt, $OUT/tests_cuda.txt, $OUT/RESULTS_GPU.md (copy it to benchmarks/ to keep it)
# and prints a summary. Exit status: 0 if the tests passed and the benchmarks ran.
set -u
cd "$(dirname "$0")/.."
if [ -z "${PYTHON:-}" ]; then
    if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
OUT=${OUT:-gpu-results}
mkdir -p "$OUT"

{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
    "$PYTHON" - <<'EOF'
import platform, numpy
print("Python", platform.python_version(), "NumPy", numpy.__version__)
try:
    import cupy
    print("CuPy", cupy.__version__, "CUDA runtime", cupy.cuda.runtime.runtimeGetVersion(),
          "devices", cupy.cuda.runtime.getDeviceCount())
except Exception as error:
    print("CuPy unusable:", type(error).__name__, error)
try:
    import torch
    print("PyTorch", torch.__version__, "CUDA", torch.version.cuda, "available", torch.cuda.is_available())
except ImportError:
    print("PyTorch not installed")
import tensorlab
print("tensorlab.cuda.is_available():", tensorlab.cuda.is_available())
EOF
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"

echo "== 1. tests on cuda"
timeout 330 "$PYTHON" -m pytest -p no:cacheprovider -q -ra --device cuda \
    tests/test_device.py tests/test_tensor_basics.py tests/test_seeds.py tests/test_serialization.py \
    > "$OUT/tests_cuda.txt" 2>&1
tests=$?
tail -n 40 "$OUT/tests_cuda.txt"

echo "== 2. GPU benchmarks"
timeout 210 "$PYTHON" -m benchmarks --filter '^gpu:' --repeats 11 --output "$OUT/RESULTS_GPU.md"
bench=$?

echo "== tests exit status $tests, benchmarks exit status $bench; results in $OUT/"
[ "$tests" -eq 0 ] && [ "$bench" -eq 0 ]
