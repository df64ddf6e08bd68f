"""The `benchmark-schema-mutation` console script: core's generic command line for this benchmark."""

from __future__ import annotations

from benchmark_core.cli import run_cli

from ._definition import benchmark


def main() -> None:
    run_cli(benchmark, "benchmark-schema-mutation")
