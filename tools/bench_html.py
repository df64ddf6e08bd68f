"""HTML report render time: a 2,000-row report generated, then loaded in headless Chromium.

The rows are real: the offline mock's run of each installed benchmark (the example's arithmetic
tasks and its refund episode, schema-mutation's tool-call tasks, rollback-recovery's episodes with
full transcripts and tool logs), repeated with fresh ids until the report holds N rows. For each
benchmark the script prints the page size, the time `render_report_html` takes, the time from
navigation to the load event in Chromium (parse, layout and the filter script), and the time one
status filter takes to apply in the page.

This is a benchmark, not a test: slow figures do not fail it. It exits 1 only when the figures
cannot be produced (no Chromium, a benchmark that does not run).

    python tools/bench_html.py [--rows 2000] [--out artifacts/bench-html]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import time
from pathlib import Path

import attrs
from benchmark_core import RunReport, discover_benchmarks, mock_adapter, run
from benchmark_core.html_report import render_report_html
from benchmark_core.testing.chromium import Chromium

REPO = Path(__file__).resolve().parent.parent


def widen(report: RunReport, rows: int) -> RunReport:
    """`report` with its rows repeated (ids suffixed) until it holds `rows` rows."""
    widened = [
        attrs.evolve(row, task_id=f"{row.task_id}~{i // len(report.rows)}")
        for i, row in zip(range(rows), itertools.cycle(report.rows))
    ]
    return attrs.evolve(report, rows=widened)


async def measure(rows: int, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with Chromium.launch() as browser:
        for entry in discover_benchmarks():
            benchmark = entry.load()
            report = widen(await run(benchmark, mock_adapter()), rows)
            tasks = await benchmark.load_tasks()
            started = time.perf_counter()
            page = render_report_html(report, benchmark, tasks)
            generated = time.perf_counter() - started
            path = out / f"{benchmark.id}-{rows}.html"
            path.write_text(page, encoding="utf-8")
            started = time.perf_counter()
            await browser.open(path.as_uri())
            loaded = time.perf_counter() - started
            shown = await browser.evaluate("document.querySelectorAll('tbody.task').length")
            filter_ms = await browser.evaluate(
                "(() => { const s = document.getElementById('status-filter'); const t = performance.now();"
                " s.value = 'failed'; s.dispatchEvent(new Event('change')); return performance.now() - t; })()"
            )
            print(
                f"{benchmark.id:<30} rows {shown:>5}  html {len(page.encode()) / 1e6:6.1f} MB  "
                f"generate {generated:5.2f} s  browser load {loaded:5.2f} s  "
                f"total {generated + loaded:5.2f} s  filter {filter_ms:6.1f} ms"
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
