"""HTML report render time: a 2,000-row report generated, then loaded in headless Chromium.

The rows are real: the offline mock's run of each installed benchmark (the example's arithmetic
tasks and its refund episode, schema-mutation's tool-call tasks, rollback-recovery's episodes with
full transcripts and tool logs) with as many epochs as it takes to reach N rows (the mock and the
episode simulators vary per epoch, so rows differ as a real run's do), cut to N rows. For each
benchmark the script prints the page size, the time `render_report_html` takes, the time from
navigation until the page has loaded and been laid out in Chromium (parse, the page's script, one
layout), each the median of three runs, the sum, and the times one status filter, one text search
(the first search reads every task's details) and unfolding one task take in the page. The total
is also given as a share of the issue's one-second budget.

This is a benchmark, not a test: slow figures do not fail it. It exits 1 only when the figures
cannot be produced (no Chromium, a benchmark that does not run).

    python tools/bench_html.py [--rows 2000] [--out artifacts/bench-html]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import attrs
from benchmark_core import Benchmark, RunReport, discover_benchmarks, mock_adapter, run
from benchmark_core.reports import render_report_html
from benchmark_core.testing.browser import launch_options
from playwright.async_api import async_playwright

REPO = Path(__file__).resolve().parent.parent


BUDGET_S = 1.0
#: Each figure is the median of this many runs: the machine is shared, and single runs vary.
REPEATS = 3
_TIMED = """(() => {{ const t = performance.now(); {action}; document.body.offsetHeight;
  return performance.now() - t; }})()"""


def _median_of(times: int, work: Callable[[], str]) -> tuple[float, str]:
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        result = work()
        spent.append(time.perf_counter() - started)
    return statistics.median(spent), result


async def report_of(benchmark: Benchmark, rows: int) -> RunReport:
    """A real mock run with enough epochs for `rows` rows, cut to `rows`."""
    tasks = await benchmark.load_tasks()
    report = await run(benchmark, mock_adapter(), epochs=max(1, math.ceil(rows / len(tasks))))
    return attrs.evolve(report, rows=report.rows[:rows])


async def measure(rows: int, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as playwright:
        browser = await (await playwright.chromium.launch(**launch_options())).new_page(
            viewport={"width": 1280, "height": 900}
        )
        for entry in discover_benchmarks():
            benchmark = entry.load()
            report = await report_of(benchmark, rows)
            tasks = await benchmark.load_tasks()
            generated, page = _median_of(REPEATS, functools.partial(render_report_html, report, benchmark, tasks))
            path = out / f"{benchmark.id}-{rows}.html"
            path.write_text(page, encoding="utf-8")
            loads = []
            for _ in range(REPEATS):
                started = time.perf_counter()
                await browser.goto(path.as_uri())
                await browser.evaluate("document.body.offsetHeight")  # the first layout, if not done yet
                loads.append(time.perf_counter() - started)
            loaded = statistics.median(loads)
            shown = await browser.evaluate("document.querySelectorAll('tbody.task').length")
            filter_ms = await browser.evaluate(
                _TIMED.format(
                    action="const s = document.getElementById('status-filter'); s.value = 'failed';"
                    " s.dispatchEvent(new Event('change'))"
                )
            )
            search_ms = await browser.evaluate(
                _TIMED.format(
                    action="const s = document.getElementById('status-filter'); s.value = '';"
                    " s.dispatchEvent(new Event('change')); const q = document.getElementById('text-filter');"
                    " q.value = 'zzz-not-there'; q.dispatchEvent(new Event('input'))"
                )
            )
            unfold_ms = await browser.evaluate(
                _TIMED.format(
                    action="const q = document.getElementById('text-filter'); q.value = '';"
                    " q.dispatchEvent(new Event('input'));"
                    " document.querySelector('tbody.task:last-child a.open').click()"
                )
            )
            total = generated + loaded
            print(
                f"{benchmark.id:<28} rows {shown:>5}  html {len(page.encode()) / 1e6:5.1f} MB  "
                f"generate {generated:4.2f} s  browser {loaded:4.2f} s  total {total:4.2f} s "
                f"({total / BUDGET_S:4.0%} of {BUDGET_S:g} s)  filter {filter_ms:4.0f} ms  "
                f"search {search_ms:4.0f} ms  unfold {unfold_ms:4.0f} ms"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=REPO / "artifacts" / "bench-html")
    args = parser.parse_args()
    try:
        asyncio.run(measure(args.rows, args.out))
    except Exception as exc:
        print(f"bench_html: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
