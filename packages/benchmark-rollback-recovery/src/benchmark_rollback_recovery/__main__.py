"""`python -m benchmark_rollback_recovery ...` is the `benchmark-rollback-recovery` command."""

from .cli import main

main()
