"""Cold start of a benchmark's CLI: `benchmark-schema-mutation list --json` (or any command given
after --command, which takes the rest of the line) against the floor `python -c "import click,
attrs, cattrs"`, the libraries the CLI cannot start without. Each is run --runs times as a fresh
process, alternating, so that a busy machine slows both alike; the script prints min and median wall
time of each and their ratio (target: median ratio <= 1.5). A benchmark, not a test: it exits 1 only
when a command fails.

Cold start means a fresh process, not a cold disk nor an uncompiled install: one warm-up run of each
reads the files into the page cache, and the command's warm-up run may write its modules' bytecode
(`__pycache__`), as any first run does and as `pip install` does for a wheel. Otherwise an editable
install under PYTHONDONTWRITEBYTECODE=1 would compile the benchmark's own modules from source on
every run (about 10 ms for `list`), while click, attrs and cattrs load compiled.

    python tools/bench_startup.py [--runs 30] [--command benchmark-core list --json]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

FLOOR = [sys.executable, "-c", "import click, attrs, cattrs"]


def _time(argv: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--command", nargs=argparse.REMAINDER, default=["benchmark-schema-mutation", "list", "--json"])
    args = parser.parse_args(argv)
    command = list(args.command)
    if not command:
        parser.error("--command needs a command")
    found = shutil.which(command[0])
    if found is None:
        print(f"{command[0]} is not on PATH; install the benchmark first", file=sys.stderr)
        return 1
    command[0] = found
    warm = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    _time(FLOOR), _time(command, warm)  # see the docstring: a fresh process, not a cold disk nor uncompiled modules
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
