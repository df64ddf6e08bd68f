"""Cold start of a benchmark's CLI: `benchmark-schema-mutation list --json` (or any command given
with --command) against the floor `python -c "import click, attrs, cattrs"`, the libraries the CLI
cannot start without. Each is run --runs times as a fresh process, alternating, so that a busy
machine slows both alike; the script prints min and median wall time of each and their ratio
(target: median ratio <= 1.5). A benchmark, not a test: it exits 1 only when a command fails.

    python tools/bench_startup.py [--runs 30] [--command benchmark-schema-mutation list --json]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

FLOOR = [sys.executable, "-c", "import click, attrs, cattrs"]


def _time(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--command", nargs="+", default=["benchmark-schema-mutation", "list", "--json"])
    args = parser.parse_args(argv)
    command = list(args.command)
    found = shutil.which(command[0])
    if found is None:
        print(f"{command[0]} is not on PATH; install the benchmark first", file=sys.stderr)
        return 1
    command[0] = found
    _time(FLOOR), _time(command)  # warm the file cache: cold start means a fresh process, not a cold disk
    floor: list[float] = []
    measured: list[float] = []
    try:
        for _ in range(args.runs):
            floor.append(_time(FLOOR))
            measured.append(_time(command))
    except subprocess.CalledProcessError as exc:
        print(f"failed: {exc}", file=sys.stderr)
        return 1
    name = " ".join(args.command)
    print(f"{'':<44} {'min ms':>8} {'median ms':>10}")
    for label, times in (("floor: import click, attrs, cattrs", floor), (name, measured)):
        print(f"{label:<44} {min(times) * 1000:>8.1f} {statistics.median(times) * 1000:>10.1f}")
    ratio = statistics.median(measured) / statistics.median(floor)
    print(f"ratio (median): {ratio:.2f}x the floor; min ratio {min(measured) / min(floor):.2f}x (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
