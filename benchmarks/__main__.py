"""``python -m benchmarks [--filter REGEX] [--repeats N] ...``: see benchmarks/harness.py."""
import sys

from benchmarks.harness import main

sys.exit(main())
