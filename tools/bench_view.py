"""The results browser (`benchmark-core view`) on a big results folder: 50 reports x 792 tasks.

The reports are real runs of schema-mutation's full split (792 tasks) by 50 offline models of
known skill (`mock_adapter(skill=...)`, 40% to 89% right, each choosing its tasks by its own digest), saved as
a sweep saves them; they are made once into `--folder` and reused. The script then starts
`benchmark-core view FOLDER --port 0` as a process of its own, as a user would, and prints:

- the server's start-up (reading and ranking the reports, until it listens);
- the time to first render of the index and of the group page: from the request to the last byte
  of the page (the median of three requests, and the first one); and of three task pages (the
  first one indexes where each report's rows are);
- the matrix's time to interactive in headless Chromium: from navigation until the matrix script
  has taken its 792 x 50 rows and shown the first page (the median of three loads);
- one filter of the matrix in the page;
- an episode page's time to interactive in headless Chromium (target 1 s): a rollback-recovery task
  page, each of 10 models' timelines side by side (10 runs of its public split, kept in
  FOLDER-episodes and served by a second `view`), from navigation until its load event (its scripts
  have run), the median of three loads; Chromium is driven by Playwright;
- the server's memory: resident now and at its peak (VmRSS and VmHWM of /proc/PID/status);
- a compare page of two 792-task reports (first and again), and the index's latency while such a
  page renders: the index asked for every 20 ms until the compare page has its last byte
  (`compare_figures`; issue 33 targets: the index under 100 ms meanwhile, the compare page under 1 s);
- the index's latency while one of the 50 reports changed and the server ranks its group of 50 again
  (`rerank_figures`, a `view` of a copy of FOLDER): the index asked for every 20 ms from the change
  until `live.json`'s generation moved (the new state in), and that time;
- a single-entry update of the catalog (`ResultsCatalog.refresh`, in this process, on a copy of
  FOLDER): one of the 50 reports changed (read again, its group of 50 ranked again), and a report
  added in a group of its own (the 50-report group kept as it was); issue 30's target: under 0.5 s;
- the wall time of `benchmark-core leaderboard FOLDER --site OUT` (every page of the browser written
  as a static site, compare pages included; issue 33's target: under 60 s), unless `--no-site`.

Targets (issue 26): index and group page under 1 s, the matrix under 2 s, the server under 300 MB.
A benchmark, not a test: slow figures do not fail it.

    python tools/bench_view.py [--folder /tmp/bench-view-50x792] [--models 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from benchmark_core import load_benchmark, mock_adapter, run
from benchmark_core.testing.browser import launch_options
from benchmark_core.view import ResultsCatalog
from benchmark_core.wire import dumps, to_wire
from playwright.async_api import Page, async_playwright

BENCHMARK = "benchmark-schema-mutation"
#: The benchmark whose tasks are episodes: its task pages show each model's timeline.
EPISODES = "benchmark-rollback-recovery"
REPEATS = 3


async def make_reports(folder: Path, models: int) -> None:
    bench = load_benchmark(BENCHMARK)
    tasks = bench.task_file("full")
    for number in range(models):
        path = folder / BENCHMARK / f"model-{number:02d}" / "report.json"
        if path.exists():
            continue
        skill = 0.4 + 0.01 * number
        report = await run(bench, mock_adapter(skill=skill, model=f"model-{number:02d}"), tasks=tasks, cache=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(to_wire(report)), encoding="utf-8")
    episodes = load_benchmark(EPISODES)
    for number in range(min(models, 10)):
        path = episodes_folder(folder) / EPISODES / f"model-{number:02d}" / "report.json"
        if path.exists():
            continue
        report = await run(episodes, mock_adapter(skill=0.4 + 0.05 * number, model=f"model-{number:02d}"), cache=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(to_wire(report)), encoding="utf-8")


def episodes_folder(folder: Path) -> Path:
    """The episode reports, apart: the 50 x 792 server's figures stay those of its reports alone."""
    return folder.with_name(folder.name + "-episodes")


async def episode_url(session: aiohttp.ClientSession, base: str) -> str:
    """The first task page of the rollback-recovery group (an episode, every model's timeline)."""
    async with session.get(f"{base}/index.html") as response:
        found = re.search(rf'class="group-link" href="([^"]+)">{EPISODES}', await response.text())
    assert found is not None
    group = f"{base}/{found.group(1)}"
    async with session.get(group) as response:
        task = re.findall(r'href="(tasks/[^"]+)"', await response.text())[0]
    return f"{group.rsplit('/', 1)[0]}/{task}"


async def start_view(folder: Path) -> tuple[asyncio.subprocess.Process, str, float]:
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmark_core", "view", str(folder), "--port", "0", stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    while True:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise SystemExit(f"view exited {await process.wait()} before listening")
        found = re.search(r"listening on (http://\S+)", line)
        if found:
            return process, found.group(1), time.perf_counter() - started


async def fetch_seconds(session: aiohttp.ClientSession, url: str) -> tuple[float, int]:
    started = time.perf_counter()
    async with session.get(url) as response:
        body = await response.read()
        assert response.status == 200, (url, response.status)
    return time.perf_counter() - started, len(body)


async def matrix_seconds(page: Page, url: str) -> float:
    await page.goto("about:blank")
    started = time.perf_counter()
    await page.goto(url, wait_until="commit")
    await page.wait_for_function(
        "() => !!document.getElementById('matrix') && document.getElementById('matrix').dataset.ready === '1'",
        polling=5,
    )
    return time.perf_counter() - started


async def episode_page_seconds(page: Page, url: str) -> float:
    """From navigation until the page's load event: its scripts have run (timelines built, JSON
    coloured) and it answers input."""
    await page.goto("about:blank")
    started = time.perf_counter()
    await page.goto(url, wait_until="load")
    return time.perf_counter() - started


async def browser_figures(group_url: str, episode_url: str) -> None:
    """The matrix's and an episode page's time to interactive in headless Chromium, through Playwright."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(**launch_options())
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        loads = [await matrix_seconds(page, group_url) for _ in range(REPEATS)]
        median = statistics.median(loads)
        verdict = "under" if median < 2.0 else "OVER"
        print(f"matrix time to interactive in Chromium: median {median * 1000:.0f} ms of "
              f"{', '.join(f'{t * 1000:.0f}' for t in loads)} (target 2 s: {verdict})")  # fmt: skip
        filtered = await page.evaluate(
            "(function(){var t=performance.now(),f=document.getElementById('matrix-filter');f.value='disagree';"
            "f.dispatchEvent(new Event('change'));return [performance.now()-t,"
            "document.getElementById('matrix-count').textContent];})()"
        )
        print(f"matrix filter 'models disagree': {filtered[0]:.0f} ms ({filtered[1]})")
        loads = [await episode_page_seconds(page, episode_url) for _ in range(REPEATS)]
        median = statistics.median(loads)
        models = await page.evaluate("document.querySelectorAll('.pair section.model').length")
        verdict = "under" if median < 1.0 else "OVER"
        shown = ", ".join(f"{t * 1000:.0f}" for t in loads)
        print(f"episode page ({models} models' timelines) time to interactive in Chromium: median "
              f"{median * 1000:.0f} ms of {shown} (target 1 s: {verdict})")  # fmt: skip
        await browser.close()


async def compare_figures(session: aiohttp.ClientSession, base: str, group_url: str) -> None:
    """A compare page's time alone, then the index's latency while two other compare pages render."""
    async with session.get(group_url) as response:
        pairs = re.findall(r'href="(compare/[^"]+)"', await response.text())
    folder = group_url.rsplit("/", 1)[0]
    urls = [f"{folder}/{pair}" for pair in dict.fromkeys(pairs)][:3]
    first, size = await fetch_seconds(session, urls[0])
    again, _ = await fetch_seconds(session, urls[0])
    verdict = "under" if first < 1.0 else "OVER"
    print(f"compare page (792-task pair): first {first * 1000:.0f} ms, again {again * 1000:.0f} ms "
          f"({size / 1e6:.2f} MB; target 1 s: {verdict})")  # fmt: skip
    for url in urls[1:]:
        slow = asyncio.ensure_future(fetch_seconds(session, url))
        latencies: list[float] = []
        while not slow.done():
            latencies.append((await fetch_seconds(session, f"{base}/index.html"))[0])
            await asyncio.sleep(0.02)
        took, _ = await slow
        worst = max(latencies) if latencies else float("nan")
        verdict = "under" if worst < 0.1 else "OVER"
        median = statistics.median(latencies) * 1000
        print(f"index while a compare page renders ({took * 1000:.0f} ms): {len(latencies)} requests, median "
              f"{median:.0f} ms, slowest {worst * 1000:.0f} ms (target 100 ms: {verdict})")  # fmt: skip


def memory_mb(pid: int) -> tuple[float, float]:
    status = Path(f"/proc/{pid}/status").read_text()

    def field(name: str) -> float:
        match = re.search(rf"^{name}:\s+(\d+) kB", status, re.M)
        return int(match.group(1)) / 1024 if match else float("nan")

    return field("VmRSS"), field("VmHWM")


def descendants(pid: int) -> list[int]:
    """The processes started by `pid` and by them (the view's compare worker, multiprocessing's
    resource tracker): their memory is the server's too."""
    parents: dict[int, int] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            match = re.search(r"^PPid:\s+(\d+)", status.read_text(), re.M)
        except OSError:  # the process ended while the folder was read
            continue
        if match:
            parents[int(status.parent.name)] = int(match.group(1))
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found.extend(children)
        frontier = children
    return found


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp/bench-view-50x792"))
    parser.add_argument("--models", type=int, default=50)
    parser.add_argument("--no-site", action="store_true", help="leave out the `leaderboard --site` figure")
    args = parser.parse_args()
    made = time.perf_counter()
    await make_reports(args.folder, args.models)
    print(f"reports: {args.models} x 792 tasks in {args.folder} (ready in {time.perf_counter() - made:.1f} s)")
    process, base, startup = await start_view(args.folder)
    try:
        print(f"view start-up (read and rank the reports, then listen): {startup:.2f} s")
        async with aiohttp.ClientSession() as session:
            index_url = f"{base}/index.html"
            index_times = [await fetch_seconds(session, index_url) for _ in range(REPEATS)]
            async with session.get(index_url) as response:
                group_href = re.search(rf'class="group-link" href="([^"]+)">{BENCHMARK}', await response.text())
            assert group_href is not None
            group_url = f"{base}/{group_href.group(1)}"
            group_times = [await fetch_seconds(session, group_url) for _ in range(REPEATS)]
            async with session.get(group_url) as response:
                tasks = re.findall(r'href="(tasks/[^"]+)"', await response.text())[:REPEATS]
            base_url = group_url.rsplit("/", 1)[0]
            task_times = [await fetch_seconds(session, f"{base_url}/{task}") for task in tasks]
            await compare_figures(session, base, group_url)
        for name, times in (("index", index_times), ("group page", group_times), ("task page", task_times)):
            first, size = times[0]
            median = statistics.median(t for t, _ in times)
            verdict = "under" if median < 1.0 else "OVER"
            print(f"{name}: first {first * 1000:.0f} ms, median {median * 1000:.0f} ms ({size / 1e6:.2f} MB; "
                  f"target 1 s: {verdict})")  # fmt: skip
        episodes, episodes_base, _ = await start_view(episodes_folder(args.folder))
        try:
            async with aiohttp.ClientSession() as session:
                episode = await episode_url(session, episodes_base)
            await browser_figures(group_url, episode)
        finally:
            episodes.terminate()
            await episodes.wait()
        rss, peak = memory_mb(process.pid)
        helpers = [memory_mb(child) for child in descendants(process.pid)]
        total = peak + sum(child_peak for _, child_peak in helpers)
        verdict = "under" if total < 300 else "OVER"
        print(f"server memory: {rss:.0f} MB resident, {peak:.0f} MB at its peak; with its {len(helpers)} "
              f"child processes (the compare worker) {total:.0f} MB, the sum of their peaks "
              f"(target 300 MB: {verdict})")  # fmt: skip
    finally:
        process.terminate()
        await process.wait()
    await rerank_figures(args.folder)
    update_figures(args.folder)
    if not args.no_site:
        site_figure(args.folder)
    return 0


def change_report(path: Path) -> None:
    """Flip the first row's score: the report's mean and its group's ranking change."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["rows"][0].update(score=1.0 - data["rows"][0]["score"], reason="changed after the run")
    path.write_text(json.dumps(data), encoding="utf-8")
    later = path.stat().st_mtime_ns + 1_000_000_000
    os.utime(path, ns=(later, later))


async def rerank_figures(folder: Path) -> None:
    """The index's latency from a report's change until the server has ranked its group again."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "results"
        shutil.copytree(folder, copy)
        process, base, _ = await start_view(copy)
        try:
            async with aiohttp.ClientSession() as session:
                async with session.get(f"{base}/live.json") as response:
                    generation = (await response.json())["generation"]
                await asyncio.sleep(1.1)  # past the server's once-a-second look at the folder
                change_report(copy / BENCHMARK / "model-00" / "report.json")
                started = time.perf_counter()
                latencies: list[float] = []
                while True:
                    latencies.append((await fetch_seconds(session, f"{base}/index.html"))[0])
                    async with session.get(f"{base}/live.json") as response:
                        if (await response.json())["generation"] != generation:
                            break
                    await asyncio.sleep(0.02)
                took = time.perf_counter() - started
        finally:
            process.terminate()
            await process.wait()
    worst = max(latencies)
    verdict = "under" if worst < 0.1 else "OVER"
    print(f"index while a 50-model group is ranked again: {len(latencies)} requests, median "
          f"{statistics.median(latencies) * 1000:.0f} ms, slowest {worst * 1000:.0f} ms (target 100 ms: {verdict}); "
          f"the change in the served state after {took * 1000:.0f} ms")  # fmt: skip


def update_figures(folder: Path) -> None:
    """The time `refresh` takes after one report changed, then after one was added, on a copy of FOLDER."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "results"
        shutil.copytree(folder, copy)
        catalog = ResultsCatalog([copy])
        change_report(copy / BENCHMARK / "model-00" / "report.json")
        took = refresh_seconds(catalog)
        verdict = "under" if took < 0.5 else "OVER"
        print(f"catalog update, one of the 50 reports changed (its group of 50 ranked again): {took * 1000:.0f} ms "
              f"(target 0.5 s: {verdict})")  # fmt: skip
        added = copy / EPISODES / "model-00" / "report.json"
        added.parent.mkdir(parents=True)
        shutil.copyfile(episodes_folder(folder) / EPISODES / "model-00" / "report.json", added)
        took = refresh_seconds(catalog)
        verdict = "under" if took < 0.5 else "OVER"
        print(f"catalog update, a report added in a group of its own: {took * 1000:.0f} ms (target 0.5 s: {verdict})")


def refresh_seconds(catalog: ResultsCatalog) -> float:
    started = time.perf_counter()
    assert catalog.refresh(force=True)
    return time.perf_counter() - started


def site_figure(folder: Path) -> None:
    """The wall time of `leaderboard FOLDER --site OUT`, in a process of its own."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        command = [sys.executable, "-m", "benchmark_core", "leaderboard", str(folder), "--site", str(out)]
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        took = time.perf_counter() - started
        pages = sum(1 for _ in out.rglob("*.html"))
    verdict = "under" if took < 60 else "OVER"
    print(f"leaderboard --site: {pages} pages in {took:.1f} s (target 60 s: {verdict})")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
