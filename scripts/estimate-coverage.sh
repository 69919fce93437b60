#!/usr/bin/env bash
# Coverage of the 95 % intervals of `knights estimate` against an exact count:
#   scripts/estimate-coverage.sh EXACT SEEDS BOARD [estimate options...]
# runs `knights estimate BOARD --seed S --json [options]` for S = 1..SEEDS
# (one thread each, niced; set KNIGHTS to the binary, default
# target/release/knights) and prints how often the interval [low, high] held
# EXACT, and how often the plain interval (estimate +- 1.96 standard errors)
# would have, with the mean relative error and the seconds a run took. With
# LOG=FILE each run's JSON line is also appended to FILE as it ends.
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 EXACT SEEDS BOARD [estimate options...]" >&2
    exit 2
fi
exact=$1 seeds=$2
shift 2
bin=${KNIGHTS:-target/release/knights}
for seed in $(seq 1 "$seeds"); do
    RAYON_NUM_THREADS=1 nice -n 10 "$bin" estimate "$@" --seed "$seed" --json 2>/dev/null
done | tee -a "${LOG:-/dev/null}" | python3 -c '
import json, math, sys
exact = float(sys.argv[1])
runs = [json.loads(line) for line in sys.stdin]
inside = sum(r["low"] <= exact <= r["high"] for r in runs)
plain = sum(abs(r["tours"] - exact) <= 1.96 * r["tours_error"] for r in runs)
above = sum(exact > r["high"] for r in runs)
rms = math.sqrt(sum((r["tours"] / exact - 1) ** 2 for r in runs) / len(runs))
se = sum(r["tours_error"] / r["tours"] for r in runs if r["tours"] > 0) / len(runs)
secs = sum(r["seconds"] for r in runs) / len(runs)
r = runs[0]
head = " ".join(str(r[k]) for k in ("board", "kind", "method", "samples"))
print(f"{head}: "
      f"inside {inside}/{len(runs)} ({100 * inside / len(runs):.1f} %), exact above {above}, "
      f"plain {plain}/{len(runs)} ({100 * plain / len(runs):.1f} %), "
      f"rms error {100 * rms:.2f} %, mean standard error {100 * se:.2f} %, {secs:.2f} s a run")
' "$exact"
