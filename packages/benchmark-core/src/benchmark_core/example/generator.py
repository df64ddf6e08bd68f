"""The example's committed task generator: `python -m benchmark_core.example.generator`.

Seed 20261015 reproduces `data/tasks.jsonl` byte for byte (a test checks it), and
`data/PROVENANCE.md` is rendered from the benchmark's provenance records. `--split hidden --seed N`
writes `hid-` tasks from a private seed to `.hidden/`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from pathlib import Path

from .._model import Task
from .._util.rng import mulberry32
from ..data._splits import split_generator_main
from ..data._taskfiles import dump_task_file

SEED = 20261015
DATA_DIR = Path(__file__).parent / "data"
_OPERATIONS: tuple[tuple[str, Callable[[int, int], int]], ...] = (
    ("+", operator.add),
    ("-", operator.sub),
    ("×", operator.mul),
)


def generate(seed: int = SEED, prefix: str = "") -> list[Task]:
    """20 arithmetic questions and one order-refund episode; `prefix` starts the ids of a hidden split."""
    rng = mulberry32(seed)
    tasks: list[Task] = []
    for n in range(1, 21):
        symbol, apply = rng.choice(_OPERATIONS)
        a, b = 2 + rng.randint(98), 2 + rng.randint(98)
        tasks.append(
            Task(
                id=f"{prefix}arith-{n:02d}",
                kind="single",
                prompt=f"What is {a} {symbol} {b}? Answer with the number only.",
                expected=apply(a, b),
            )
        )
    tasks.append(
        Task(
            id=f"{prefix}order-refund-01",
            kind="episode",
            prompt=(
                "Order A1001 arrived broken and the customer wants their money back. "
                "Look the order up and refund what they paid, within policy."
            ),
            metadata={"orderId": "A1001", "orderTotal": 35.0, "refundLimit": 50.0, "failFirstLookups": 1},
        )
    )
    return tasks


def render_split(split: str, seed: int) -> dict[str, str]:
    """The files of a split: the public tasks with the provenance, or hidden `hid-` tasks."""
    if split == "hidden":
        return {"tasks.jsonl": dump_task_file(generate(seed, prefix="hid-"))}
    from ..reports._report import provenance_markdown
    from . import benchmark

    return {"tasks.jsonl": dump_task_file(generate(seed)), "PROVENANCE.md": provenance_markdown(benchmark)}


def main(argv: Sequence[str] | None = None) -> None:
    split_generator_main(
        argv,
        prog="python -m benchmark_core.example.generator",
        description="Write the example's tasks: the committed public split, or a private hidden one.",
        public_seed=SEED,
        data_dir=DATA_DIR,
        render=render_split,
    )


if __name__ == "__main__":
    main()
