"""The example's committed task generator: `python -m benchmark_core.example.generator`.

Seed 20261015 reproduces `data/tasks.jsonl` byte for byte (a test checks it), and
`data/PROVENANCE.md` is rendered from the benchmark's provenance records.
"""

from __future__ import annotations

import argparse
import operator
from collections.abc import Callable
from pathlib import Path

from .._model import Task
from .._rng import mulberry32
from .._taskfiles import dump_task_file

SEED = 20261015
DATA_DIR = Path(__file__).parent / "data"
_OPERATIONS: tuple[tuple[str, Callable[[int, int], int]], ...] = (
    ("+", operator.add),
    ("-", operator.sub),
    ("×", operator.mul),
)


def generate(seed: int = SEED) -> list[Task]:
    """20 arithmetic questions and one order-refund episode."""
    rng = mulberry32(seed)
    tasks: list[Task] = []
    for n in range(1, 21):
        symbol, apply = rng.choice(_OPERATIONS)
        a, b = 2 + rng.randint(98), 2 + rng.randint(98)
        tasks.append(
            Task(
                id=f"arith-{n:02d}",
                kind="single",
                prompt=f"What is {a} {symbol} {b}? Answer with the number only.",
                expected=apply(a, b),
            )
        )
    tasks.append(
        Task(
            id="order-refund-01",
            kind="episode",
            prompt=(
                "Order A1001 arrived broken and the customer wants their money back. "
                "Look the order up and refund what they paid, within policy."
            ),
            metadata={"orderId": "A1001", "orderTotal": 35.0, "refundLimit": 50.0, "failFirstLookups": 1},
        )
    )
    return tasks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    from .._report import provenance_markdown
    from . import benchmark

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "tasks.jsonl").write_text(dump_task_file(generate(args.seed)), encoding="utf-8")
    (args.out / "PROVENANCE.md").write_text(provenance_markdown(benchmark), encoding="utf-8")


if __name__ == "__main__":
    main()
