"""The `benchmark-rollback-recovery` command: every command is core's generic CLI for this benchmark."""

from __future__ import annotations

from benchmark_core.cli import run_cli

from ._definition import benchmark


def main() -> None:
    run_cli(benchmark, "benchmark-rollback-recovery")
