"""Call overhead of the Python package, and the same work through the CLI.

    python crates/knights-py/benches/overhead.py [path/to/knights]

Prints the best of several repeats for each measurement (BENCHMARKS.md,
section Python). The CLI defaults to target/release/knights.
"""

from __future__ import annotations

import subprocess
import sys
import timeit
from pathlib import Path

import numpy as np

import knights

ROOT = Path(__file__).resolve().parents[3]
CLI = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "release" / "knights")


def best(stmt, number, repeat=5):
    return min(timeit.repeat(stmt, globals=globals(), number=number, repeat=repeat)) / number


def show(what, seconds):
    unit, scale = ("us", 1e6) if seconds < 1e-3 else ("ms", 1e3)
    print(f"{what:58} {seconds * scale:9.1f} {unit}")


def cli_grid(board):
    out = subprocess.run([CLI, "tour", board], check=True, capture_output=True).stdout
    return np.array(out.split(), dtype=np.uint32).reshape(-1, int(board.split("x")[1]))


knights.tour("8x8").to_numpy()  # imports numpy and warms up
show('knights.tour("8x8")', best('knights.tour("8x8")', 20000))
show('knights.tour("8x8", kind="closed", seed=1)', best('knights.tour("8x8", kind="closed", seed=1)', 20000))
show('knights.tour("8x8", algorithm="warnsdorff")', best('knights.tour("8x8", algorithm="warnsdorff")', 5000))
show('knights.exists("8x8")', best('knights.exists("8x8")', 20000))
show('knights.tour("1000x1000")', best('knights.tour("1000x1000")', 10))
show('knights.tour("1000x1000").to_numpy()', best('knights.tour("1000x1000").to_numpy()', 10))
t = knights.tour("1000x1000")
show("  of which .to_numpy()", best("t.to_numpy()", 20))
show("  .grid() (lists of ints, for comparison)", best("t.grid()", 3, 3))
assert (cli_grid("1000x1000") == t.to_numpy()).all()
show(f"CLI: {Path(CLI).name} tour 8x8 (a process)", best('subprocess.run([CLI, "tour", "8x8"], check=True, capture_output=True)', 50))
show(f"CLI: {Path(CLI).name} tour 1000x1000 (grid text only)", best('subprocess.run([CLI, "tour", "1000x1000"], check=True, capture_output=True)', 3, 3))
show("CLI: the same, parsed into a numpy array", best('cli_grid("1000x1000")', 3, 3))
