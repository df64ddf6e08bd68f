"""Regenerate (or check) the committed task data of every benchmark in the repository.

    python tools/generate_tasks.py            # rewrite each package's committed splits and PROVENANCE.md
    python tools/generate_tasks.py --check    # exit 1 if any committed file differs from its generator

Each package's own generator does the work (`python -m <package>.generator`, seed 20261015); this
wrapper only runs them all, including the extra committed splits (schema-mutation's
`--split extended`, data/tasks-extended.jsonl, and `--split full`, data/tasks-full.jsonl).
Held-out splits are per benchmark: `python -m benchmark_schema_mutation.generator --split hidden
--seed N` (or `--split hidden-full`).
"""

from __future__ import annotations

import argparse
import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATORS = {
    "benchmark_core.example": ROOT / "packages/benchmark-core/src/benchmark_core/example/data",
    "benchmark_schema_mutation": ROOT / "packages/benchmark-schema-mutation/src/benchmark_schema_mutation/data",
    "benchmark_rollback_recovery": ROOT / "packages/benchmark-rollback-recovery/src/benchmark_rollback_recovery/data",
}
FILES = ("tasks.jsonl", "PROVENANCE.md")
#: Committed splits besides the public one: module -> (split, file).
EXTRA_SPLITS = {"benchmark_schema_mutation": [("extended", "tasks-extended.jsonl"), ("full", "tasks-full.jsonl")]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    stale: list[str] = []
    for module, data_dir in GENERATORS.items():
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) if args.check else data_dir
            subprocess.run([sys.executable, "-m", f"{module}.generator", "--out", str(out)], check=True)
            names = list(FILES)
            for split, name in EXTRA_SPLITS.get(module, []):
                command = [sys.executable, "-m", f"{module}.generator", "--split", split, "--out", str(out)]
                subprocess.run(command, check=True)
                names.append(name)
            if args.check:
                stale += [f"{data_dir / name}" for name in names if not filecmp.cmp(out / name, data_dir / name, False)]
        print(f"{module}: {'checked' if args.check else 'written to'} {data_dir.relative_to(ROOT)}")
    for path in stale:
        print(f"out of date: {path}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
