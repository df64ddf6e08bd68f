"""`python -m benchmark_core`: the same as the `benchmark-core` console script."""

from .cli import main

if __name__ == "__main__":
    main()
