"""Calibration of the leaderboard's verdicts: how often leaderboards of ten equal mock models call one
of them "worse" than the top, and how often a real difference is called.

For each split (default: schema-mutation's full split, clustered by its 36 base schemas;
rollback-recovery's full split, clustered by its 29 templates; and both public splits: schema
mutation's 60 tasks in 12 clusters, rollback-recovery's 48 unclustered episodes) the script builds
`--leaderboards` leaderboards of ten mock models of skill `--skill` (0.6), each model with a name of
its own, so every leaderboard has other task outcomes (`run --mock-skill 0.6`: the mock answers well
on the tasks whose hash of model name and task id falls below the skill). The models' reports are
ranked by `rank_reports`, the code the `leaderboard` command runs (grouping, the joint bootstrap of
10,000 resamples seeded with 1, the verdicts), and the script counts the leaderboards with at least
one "worse".

Each mock run is assembled, not re-run: the split is run once through the SDK by a mock that answers
every task well and once by one that answers every task badly, and a model's rows are, task by
task, the good row where its hash says good and the bad row otherwise, which is what a run of that
mock returns (checked: for one model per split, a real run through the SDK gives the same scores,
verdicts and labels row by row; the script stops if not). Latencies and token counts, which no
verdict reads, are those of the good or bad run.

Scores: `pass/fail` as graded; `fractional`: a partial-credit variant of the same models, whose score
on a task is the share of four checks passed, each check passed when a hash of the model name, the
check and the task id falls below the skill (so scores 0, 0.25, ..., 1 with the same mean).

Printed per split and score type: leaderboards, how many had a spurious "worse" and the share with
its 95% Wilson interval (the target: at most 5%, within that interval), the number of "worse" verdicts
in all, and the max-|t| critical value. Then the power: leaderboards of one model of skill 0.7 and nine
of 0.6 on schema-mutation's full split; the share of the nine called "worse", on average (target at
least 80%), and how often a 0.7 model was called worse (never, ideally).

`--jobs N` spreads the leaderboards over N processes (the same figures).
Same arguments, same output (timings aside).

    python tools/bench_verdicts.py [--leaderboards 200] [--split benchmark-schema-mutation:full ...]
        [--scores pass/fail --scores fractional] [--power-leaderboards 200] [--jobs 2]
"""

from __future__ import annotations

import argparse
import functools
import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Optional

import attrs
from benchmark_core import RunReport, RunRow, mock_adapter, resolve_benchmark
from benchmark_core.adapters.mock import _draw
from benchmark_core.stats import wilson_ci
from benchmark_core.sweep import rank_reports

DEFAULT_SPLITS = (
    "benchmark-schema-mutation:full",
    "benchmark-rollback-recovery:full",
    "benchmark-schema-mutation:tasks",
    "benchmark-rollback-recovery:tasks",
)
POWER_SPLIT = "benchmark-schema-mutation:full"
SCORES = ("pass/fail", "fractional")
CHECKS = 4
MODELS = 10


@attrs.frozen
class Split:
    """A split run once by an all-good and once by an all-bad mock: the rows to assemble models from."""

    name: str
    base: RunReport
    good: list[RunRow]
    bad: list[RunRow]


@functools.cache
def _split(name: str) -> Split:
    benchmark_name, _, tasks_name = name.partition(":")
    benchmark = resolve_benchmark(benchmark_name)
    tasks = benchmark.task_file(tasks_name)
    good = benchmark.run(mock_adapter(model="all-good", skill=1.0), tasks=tasks, concurrency=50, cache=False)
    bad = benchmark.run(mock_adapter(model="all-bad", skill=0.0), tasks=tasks, concurrency=50, cache=False)
    if [r.task_id for r in good.rows] != [r.task_id for r in bad.rows]:
        raise SystemExit(f"{name}: the good and the bad run have different rows")
    return Split(name=name, base=good, good=list(good.rows), bad=list(bad.rows))


def _rows(split: Split, model: str, skill: float, scores: str) -> list[RunRow]:
    """The rows a mock of this name and skill gets on the split."""
    rows = []
    for good, bad in zip(split.good, split.bad):
        if scores == "pass/fail":
            rows.append(good if _draw(model, good.task_id) < skill else bad)
        else:
            passed = sum(_draw(f"{model}#check{check}", good.task_id) < skill for check in range(CHECKS))
            rows.append(attrs.evolve(good, score=passed / CHECKS, passed=passed == CHECKS))
    return rows


def _report(split: Split, model: str, rows: list[RunRow]) -> RunReport:
    mean = math.fsum(row.score for row in rows) / len(rows)
    return attrs.evolve(split.base, model=model, rows=rows, mean=mean)


def _check_shortcut(split: Split) -> None:
    """A real mock run gives the rows the script assembles (scores, pass, labels), or the script stops."""
    benchmark_name, _, tasks_name = split.name.partition(":")
    benchmark = resolve_benchmark(benchmark_name)
    model = "shortcut-check"
    real = benchmark.run(
        mock_adapter(model=model, skill=0.6), tasks=benchmark.task_file(tasks_name), concurrency=50, cache=False
    )
    assembled = _rows(split, model, 0.6, "pass/fail")
    got = [(r.task_id, r.score, r.passed, r.groups) for r in real.rows]
    want = [(r.task_id, r.score, r.passed, r.groups) for r in assembled]
    if got != want:
        raise SystemExit(f"{split.name}: a real mock run differs from the assembled rows; the shortcut is wrong")


def _leaderboard(
    job: tuple[str, str, tuple[float, ...], str, int, int],
) -> tuple[int, int, float, int, int]:
    """One leaderboard: (worse verdicts on models of the lowest skill... see `_count`), ranked by
    the leaderboard's own code. Returns: worse verdicts against models of the top skill (spurious),
    worse verdicts against the others, the critical value, and whether a top-skill model was the top."""
    split_name, scores, skills, tag, number, resamples = job
    split = _split(split_name)
    reports = []
    skill_of = {}
    for index, skill in enumerate(skills):
        model = f"{tag}-{number:04d}-m{index:02d}"
        skill_of[model] = skill
        reports.append((f"{model}.json", _report(split, model, _rows(split, model, skill, scores))))
    best = max(skills)
    board = rank_reports("bench", reports, resamples=resamples, seed=1)
    (group,) = board.groups
    verdicts = [(entry.model, entry.verdict) for entry in group.entries]
    critical = group.critical_value
    spurious = sum(1 for model, verdict in verdicts if verdict == "worse" and skill_of[model] == best)
    called = sum(1 for model, verdict in verdicts if verdict == "worse" and skill_of[model] < best)
    top_is_best = skill_of[verdicts[0][0]] == best
    return spurious, called, critical if critical is not None else math.nan, int(top_is_best), len(verdicts)


def _run(
    pool: Optional[ProcessPoolExecutor],
    split: str,
    scores: str,
    skills: Sequence[float],
    tag: str,
    count: int,
    resamples: int,
) -> list[tuple[int, int, float, int, int]]:
    jobs = [(split, scores, tuple(skills), tag, number, resamples) for number in range(count)]
    if pool is None:
        return [_leaderboard(job) for job in jobs]
    return list(pool.map(_leaderboard, jobs, chunksize=4))


def _head(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def _share(count: int, n: int) -> str:
    ci = wilson_ci(count, n)
    return f"{100 * count / n:.1f}% ({100 * ci.low:.1f}% to {100 * ci.high:.1f}%)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--leaderboards", type=int, default=200, help="leaderboards of equal models per split and score type"
    )
    parser.add_argument(
        "--power-leaderboards", type=int, default=200, help="leaderboards of one 0.7 and nine 0.6 models"
    )
    parser.add_argument(
        "--split", action="append", help=f"BENCHMARK:TASKS (repeat; default: {', '.join(DEFAULT_SPLITS)})"
    )
    parser.add_argument("--scores", action="append", choices=SCORES, help="pass/fail, fractional (default: both)")
    parser.add_argument("--skill", type=float, default=0.6)
    parser.add_argument(
        "--resamples", type=int, default=10_000, help="joint resamples per leaderboard (the leaderboard's own)"
    )
    parser.add_argument("--seed", type=int, default=1, help="names the mock models: other seed, other outcomes")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    splits = args.split or list(DEFAULT_SPLITS)
    score_types = args.scores or list(SCORES)
    started = time.perf_counter()
    for split in dict.fromkeys([*splits, POWER_SPLIT] if args.power_leaderboards else splits):
        _check_shortcut(_split(split))
    rule = "max-|t| with the small-sample correction"
    print(
        f'Leaderboards of {MODELS} equal mock models (skill {args.skill}): the share with any spurious "worse" '
        f"({rule}; {args.resamples:,} joint resamples, seed 1; models named with seed {args.seed})"
    )
    print()
    print(
        _head("split", "tasks", "resampled", "scores", "leaderboards", 'with a spurious "worse"')
        + _head("share (95% Wilson)", '"worse" verdicts', "critical value")[1:]
    )
    print("| --- | ---: | --- | --- | ---: | ---: | --- | ---: | ---: |")
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for split in splits:
            data = _split(split)
            units = (
                f"{data.base.clusters} {data.base.clustered_by} clusters"
                if data.base.clustered_by
                else f"{len(data.good)} tasks"
            )
            for scores in score_types:
                tag = f"s{args.seed}-eq-{scores[:4]}"
                results = _run(pool, split, scores, [args.skill] * MODELS, tag, args.leaderboards, args.resamples)
                any_worse = sum(1 for spurious, *_ in results if spurious)
                verdicts = sum(spurious for spurious, *_ in results)
                critical = sorted(r[2] for r in results)[len(results) // 2]
                print(
                    f"| {split} | {len(data.good)} | {units} | {scores} | {len(results)} | {any_worse} | "
                    f"{_share(any_worse, len(results))} | {verdicts} | {critical:.2f} |"
                )
        if args.power_leaderboards:
            print()
            skills = [0.7] + [args.skill] * (MODELS - 1)
            print(
                f"Power on {POWER_SPLIT}: one model of skill 0.7, nine of {args.skill}; "
                + f"{args.power_leaderboards} leaderboards"
            )
            print()
            print(
                _head("scores", "leaderboards", 'nine called "worse", on average', "leaderboards with all nine")
                + _head("0.7 model on top", '0.7 model called "worse"')[1:]
            )
            print("| --- | ---: | ---: | ---: | ---: | ---: |")
            for scores in score_types:
                tag = f"s{args.seed}-pow-{scores[:4]}"
                results = _run(pool, POWER_SPLIT, scores, skills, tag, args.power_leaderboards, args.resamples)
                n = len(results)
                shares = [called / (MODELS - 1) for _, called, *_ in results]
                mean = sum(shares) / n
                sd = math.sqrt(sum((s - mean) ** 2 for s in shares) / (n - 1)) if n > 1 else 0.0
                half = 1.959963984540054 * sd / math.sqrt(n)
                all_nine = sum(1 for _, called, *_ in results if called == MODELS - 1)
                on_top = sum(r[3] for r in results)
                wrong = sum(1 for spurious, *_ in results if spurious)
                print(
                    f"| {scores} | {n} | {100 * mean:.1f}% "
                    f"({100 * (mean - half):.1f}% to {100 * (mean + half):.1f}%) | "
                    f"{all_nine} | {on_top} | {wrong} |"
                )
    finally:
        if pool is not None:
            pool.shutdown()
    print()
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
