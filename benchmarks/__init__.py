"""Side-by-side benchmarks of tensorlab against PyTorch and NumPy: ``python -m benchmarks``.

Each ``bench_*.py`` module lists its cases; ``harness.py`` times them and writes RESULTS.md.
"""
