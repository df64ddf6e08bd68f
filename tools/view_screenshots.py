"""The screenshots of docs/looking-at-results.md, taken from a real `view` server in headless
Chromium: four offline models of known skill (`mock_adapter(skill=...)`) on schema-mutation's public split and
three on rollback-recovery's, saved as a sweep saves them, and one more run still in progress (the
offline mock behind a slow OpenAI-compatible server on loopback, journaling its rows) while the
index is shot.

    python tools/view_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

from aiohttp.test_utils import TestServer
from benchmark_core import load_benchmark, mock_adapter, openai_compat_adapter, run
from benchmark_core.testing import FakeOpenAI, mock_handler
from benchmark_core.testing.chromium import Chromium
from benchmark_core.view import create_view_app
from benchmark_core.wire import dumps, to_wire

MODELS = {
    "benchmark-schema-mutation": {"alpha": 0.7, "bravo": 0.65, "charlie": 0.6, "delta": 0.5},
    "benchmark-rollback-recovery": {"alpha": 0.7, "bravo": 0.65, "charlie": 0.6},
}


async def make_results(folder: Path) -> None:
    for benchmark_id, models in MODELS.items():
        bench = load_benchmark(benchmark_id)
        for label, skill in models.items():
            report = await run(bench, mock_adapter(skill=skill, model=label), cache=False)
            path = folder / benchmark_id / label / "report.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dumps(to_wire(report)), encoding="utf-8")


async def shoot(browser: Chromium, url: str, path: Path, ready: str = "true") -> None:
    await browser.open(url)
    for _ in range(200):
        if await browser.evaluate(ready):
            break
        await asyncio.sleep(0.05)
    await browser.screenshot(path)
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs")
    args = parser.parse_args()
    out = args.out.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the index names the folder as given: `results`, as after `sweep`
        results = Path("results")
        await make_results(results)
        server = TestServer(create_view_app([results]), host="127.0.0.1")
        await server.start_server()
        bench = load_benchmark("benchmark-schema-mutation")
        try:
            async with Chromium.launch(width=1200, height=760) as browser, FakeOpenAI(
                handler=mock_handler(bench, delay=0.2), record=False
            ) as fake:  # fmt: skip
                base = str(server.make_url("/")).rstrip("/")
                output = results / bench.id / "echo" / "report.json"
                live = asyncio.create_task(
                    run(bench, openai_compat_adapter(fake.base_url, "echo", "sk-x"), journal=f"{output}.journal.jsonl",
                        cache=False, concurrency=1)
                )  # fmt: skip
                await asyncio.sleep(4)
                rows = "(function(){var c=document.querySelector('#live td.rows');return c&&c.textContent!=='0';})()"
                await shoot(browser, f"{base}/index.html", out / "view-index.png", rows)
                live.cancel()
                await browser.open(f"{base}/index.html")
                group = await browser.evaluate(
                    "Array.from(document.querySelectorAll('a.group-link')).find(function(a){"
                    "return a.textContent.indexOf('benchmark-schema-mutation')===0;}).href"
                )
                await shoot(browser, f"{group}#dimensions", out / "view-group.png")
                filtered = (
                    "(function(){var f=document.getElementById('matrix-filter');f.value='disagree';"
                    "f.dispatchEvent(new Event('change'));document.getElementById('matrix-section').scrollIntoView();"
                    "return true;})()"
                )
                await browser.evaluate(filtered)
                await asyncio.sleep(0.2)
                await browser.screenshot(out / "view-matrix.png")
                print(f"wrote {out / 'view-matrix.png'}")
                # The first task the models disagree on (the filter above is still on).
                task = await browser.evaluate("document.querySelector('#matrix tbody th.task a').href")
                await shoot(browser, f"{task}#answers", out / "view-task.png")
        finally:
            await server.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
