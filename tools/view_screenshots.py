"""The screenshots of docs/looking-at-results.md, taken from a real `view` server in headless
Chromium driven by Playwright: four offline models of known skill (`mock_adapter(skill=...)`) on
schema-mutation's public split and three on rollback-recovery's, saved as a sweep saves them, and one
more run still in progress (the offline mock behind a slow OpenAI-compatible server on loopback,
journaling its rows) while the index is shot. One PNG per kind of page: the index, a group's
per-dimension tables and its matrix, a run, a task, an episode's two models side by side (and their
final states against the target), and a
comparison of two runs. When `pngquant` is on PATH (`apt-get install -y pngquant`), each PNG is
then quantised to a palette (quality 70-90), about a third of its size; without it they stay as
Chromium wrote them.

    python tools/view_screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from aiohttp.test_utils import TestServer
from benchmark_core import load_benchmark, mock_adapter, openai_compat_adapter, run
from benchmark_core.testing import FakeOpenAI, mock_handler
from benchmark_core.testing.browser import launch_options
from benchmark_core.view import create_view_app
from benchmark_core.wire import dumps, to_wire
from playwright.async_api import Page, ViewportSize, async_playwright

MODELS = {
    "benchmark-schema-mutation": {"alpha": 0.7, "bravo": 0.65, "charlie": 0.6, "delta": 0.5},
    "benchmark-rollback-recovery": {"alpha": 0.7, "bravo": 0.65, "charlie": 0.6},
}
#: Small enough that the page's text reads at the docs' column width, and the PNGs stay small.
VIEWPORT: ViewportSize = {"width": 1200, "height": 640}


async def make_results(folder: Path) -> None:
    for benchmark_id, models in MODELS.items():
        bench = load_benchmark(benchmark_id)
        for label, skill in models.items():
            report = await run(bench, mock_adapter(skill=skill, model=label), cache=False)
            path = folder / benchmark_id / label / "report.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dumps(to_wire(report)), encoding="utf-8")


async def shoot(page: Page, url: str, path: Path, ready: str = "true") -> None:
    await page.goto(url)
    await page.wait_for_function(f"() => {ready}")
    await page.screenshot(path=path)
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


async def group_url(page: Page, base: str, benchmark_id: str) -> str:
    await page.goto(f"{base}/index.html")
    url: str = await page.evaluate(
        "(id) => Array.from(document.querySelectorAll('a.group-link')).find(a => a.textContent.startsWith(id)).href",
        benchmark_id,
    )
    return url


async def shoot_schema_mutation(page: Page, base: str, out: Path) -> None:
    group = await group_url(page, base, "benchmark-schema-mutation")
    await shoot(page, f"{group}#dimensions", out / "view-group.png")
    await page.select_option("#matrix-filter", "disagree")
    await page.locator("#matrix-section").scroll_into_view_if_needed()
    await page.screenshot(path=out / "view-matrix.png")
    print(f"wrote {out / 'view-matrix.png'}")
    # The first task the models disagree on (the filter above is still on).
    task = await page.evaluate("document.querySelector('#matrix tbody th.task a').href")
    await shoot(page, f"{task}#answers", out / "view-task.png")
    await page.goto(group)
    run_page = await page.evaluate("document.querySelector('a.run').href")
    await shoot(page, run_page, out / "view-run.png")
    await page.goto(group)
    compare = await page.evaluate("document.querySelector('a.compare').href")
    await shoot(page, compare, out / "view-compare.png")


async def shoot_episode_pair(page: Page, base: str, out: Path) -> None:
    """An episode's task page with two models chosen side by side (its overview's `beside` link)."""
    group = await group_url(page, base, "benchmark-rollback-recovery")
    await page.goto(group)
    task = await page.evaluate("document.querySelector('#matrix tbody th.task a').href")
    await page.goto(task)
    pair = await page.evaluate("document.querySelector('a.pair-link').href")
    await page.goto(pair)
    await page.evaluate("document.querySelector('div.pair .timeline .call').scrollIntoView()")
    await page.screenshot(path=out / "view-episode-pair.png")
    print(f"wrote {out / 'view-episode-pair.png'}")
    # The end of a timeline: the final state against the target, one with records that differ if any.
    state = "(document.querySelector('.final-state .state-diff') || document.querySelector('.final-state'))"
    await page.evaluate(f"{state}.closest('.final-state').scrollIntoView()")
    await page.screenshot(path=out / "view-episode-state.png")
    print(f"wrote {out / 'view-episode-state.png'}")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs" / "images")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the index names the folder as given: `results`, as after `sweep`
        results = Path("results")
        await make_results(results)
        server = TestServer(create_view_app([results]), host="127.0.0.1")
        await server.start_server()
        bench = load_benchmark("benchmark-schema-mutation")
        try:
            async with async_playwright() as playwright, FakeOpenAI(
                handler=mock_handler(bench, delay=0.2), record=False
            ) as fake:  # fmt: skip
                browser = await playwright.chromium.launch(**launch_options())
                page = await browser.new_page(viewport=VIEWPORT)
                base = str(server.make_url("/")).rstrip("/")
                output = results / bench.id / "echo" / "report.json"
                live = asyncio.create_task(
                    run(bench, openai_compat_adapter(fake.base_url, "echo", "sk-x"), journal=f"{output}.journal.jsonl",
                        cache=False, concurrency=1)
                )  # fmt: skip
                await asyncio.sleep(4)
                rows = "(function(){var c=document.querySelector('#live td.rows');return c&&c.textContent!=='0';})()"
                await shoot(page, f"{base}/index.html", out / "view-index.png", rows)
                live.cancel()
                await shoot_schema_mutation(page, base, out)
                await shoot_episode_pair(page, base, out)
                await browser.close()
        finally:
            await server.close()
    shrink(sorted(out.glob("view-*.png")))
    return 0


def shrink(paths: list[Path]) -> None:
    """Quantise each PNG in place with pngquant, when it is installed (it keeps a file it cannot shrink)."""
    quantise = shutil.which("pngquant")
    if quantise is None:
        print("pngquant not found: the PNGs stay as Chromium wrote them")
        return
    for path in paths:
        before = path.stat().st_size
        # Exit 98/99: the result would be larger or below the quality floor; the file is kept as it was.
        subprocess.run([quantise, "--force", "--skip-if-larger", "--strip", "--quality", "70-90", "--output",
                        str(path), str(path)], check=False)  # fmt: skip
        print(f"{path.name}: {before:,} -> {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
