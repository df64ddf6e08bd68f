"""`view` over HTTP (issue 26): every route of the real server on 127.0.0.1, the 404 page for an
unknown group, run, task or path, path traversal refused, and `live.json`."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from benchmark_core.example import benchmark as example
from benchmark_core.view._app import CATALOG, create_view_app
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._paths import compare_page, group_page, run_page, task_page
from click.testing import CliRunner

Client = TestClient[web.Request, web.Application]


async def _client(results: Path) -> Client:
    client = TestClient(TestServer(create_view_app([results], resamples=500), host="127.0.0.1"))
    await client.start_server()
    return client


async def test_every_route_answers_with_its_page(results: Path) -> None:
    catalog = ResultsCatalog([results], resamples=500)
    view = next(v for v in catalog.groups if len(v.runs) == 4)
    top, last = view.runs[0], view.runs[-1]
    task_id = view.task_ids[0]
    client = await _client(results)
    try:
        assert str(client.server.host) == "127.0.0.1"
        for path, needle in [
            ("/", "<h1>Results</h1>"),
            ("/index.html", "<h1>Results</h1>"),
            (f"/{group_page(view.id)}", 'id="matrix"'),
            (f"/g/{view.id}/", 'id="matrix"'),
            (f"/{run_page(view.id, top.slug)}", 'id="task-table"'),
            (f"/{task_page(view.id, task_id)}", 'class="pair"'),
            (f"/{compare_page(view.id, top.slug, last.slug)}", 'id="flipped"'),
        ]:
            response = await client.get(path)
            text = await response.text()
            assert response.status == 200, path
            assert response.content_type == "text/html"
            assert needle in text, path
            assert "default-src 'none'" in text
        live = await client.get("/live.json")
        assert live.status == 200
        assert await live.json() == {"generation": 1, "runs": []}
    finally:
        await client.close()


async def test_the_index_lists_every_group_and_skipped_file(results: Path) -> None:
    client = await _client(results)
    try:
        text = await (await client.get("/")).text()
    finally:
        await client.close()
    # The three sweep reports and the loose one share a task set: one group of four.
    assert text.count('class="group"') == 1
    assert all(f">{label}</a>" in text for label in ("alpha", "bravo", "charlie", "loose run"))
    assert "<code>notes.json</code>: not a run report" in text
    # Each model's 95% rank interval from the leaderboard's joint bootstrap, and what a verdict means:
    # four models, so max-t over all six pairwise differences at a simultaneous 95%.
    assert text.count('class="num rank-ci" data-rank-low="') == 4
    assert "max-t adjustment over all 6 pairwise differences of the 4 models" in text
    assert "simultaneous 95% interval" in text


async def test_unknown_pages_are_404_with_a_page_saying_so(results: Path) -> None:
    catalog = ResultsCatalog([results], resamples=500)
    view = catalog.groups[0]
    client = await _client(results)
    try:
        for path in [
            "/g/no-such-group/index.html",
            f"/g/{view.id}/runs/nobody.html",
            f"/g/{view.id}/tasks/no-such-task.html",
            f"/g/{view.id}/compare/alpha--nobody.html",
            f"/g/{view.id}/compare/alpha--alpha.html",
            f"/g/{view.id}/other/x.html",
            "/favicon.ico",
            "/leaderboard.md",
        ]:
            response = await client.get(path)
            assert response.status == 404, path
            text = await response.text()
            assert '<p id="not-found">No page at' in text, path
            assert response.content_type == "text/html"
    finally:
        await client.close()


async def _raw_get(port: int, target: str) -> tuple[int, str]:
    """A request line sent as is: no client gets to normalize `..` away."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = (await reader.read()).decode("utf-8", "replace")
    writer.close()
    match = re.match(r"HTTP/1\.1 (\d+)", data)
    assert match, data[:200]
    return int(match.group(1)), data


async def test_path_traversal_is_refused(results: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not serve", encoding="utf-8")
    client = await _client(results)
    try:
        port = client.server.port
        assert port is not None
        for target in [
            "/../secret.txt",
            "/g/../../secret.txt",
            "/g/%2e%2e/%2e%2e/secret.txt",
            "/..%2fsecret.txt",
            "/g/x/runs/..%2f..%2f..%2fsecret.txt",
            "/%5c..%5csecret.txt",
        ]:
            status, data = await _raw_get(port, target)
            assert status in (400, 404), target
            assert "do not serve" not in data
            if status == 404:
                assert "Not found" in data
    finally:
        await client.close()


async def test_a_new_report_is_picked_up(results: Path) -> None:
    from benchmark_core import mock_adapter, run
    from benchmark_core.wire import dumps, to_wire

    client = await _client(results)
    try:
        first = await (await client.get("/live.json")).json()
        report = await run(example, mock_adapter(skill=0.7, model="echo"), cache=False)
        path = results / example.id / "echo" / "report.json"
        path.parent.mkdir(parents=True)
        path.write_text(dumps(to_wire(report)), encoding="utf-8")
        await asyncio.sleep(1.1)  # the folders are looked at again at most once a second
        second = await _next_generation(client, first["generation"])
        assert second == first["generation"] + 1
        assert ">echo</a>" in await (await client.get("/")).text()
    finally:
        await client.close()


async def _next_generation(client: Client, generation: int) -> int:
    """`live.json`'s generation once it moved past `generation`, polled as the pages poll it: a
    request only starts the look at the folders, which the server does in the background."""
    for _ in range(200):
        now = int((await (await client.get("/live.json")).json())["generation"])
        if now != generation:
            return now
        await asyncio.sleep(0.05)
    raise AssertionError(f"generation stayed {generation}")


async def test_pages_do_not_wait_for_a_refresh(results: Path) -> None:
    """While the catalog is being rebuilt (held here: a group of 50 takes seconds to rank again),
    the index and a group page answer at once, from the last complete state, unchanged; once the
    rebuild is in, they show the new report."""
    client = await _client(results)
    try:
        catalog = client.app[CATALOG]
        old = {path: await (await client.get(path)).text() for path in ("/", "/live.json")}
        assert ">alpha</a>" in old["/"]
        before = catalog.generation
        (results / example.id / "alpha" / "report.json").unlink()
        await asyncio.sleep(1.1)  # past the once-a-second look
        with catalog._lock:  # the refresh the next request starts waits here, as on a long rank
            for _ in range(3):
                for page, text in old.items():
                    response = await asyncio.wait_for(client.get(page), timeout=5)
                    assert await response.text() == text
                await asyncio.sleep(0.05)
        assert await _next_generation(client, before) == before + 1
        assert ">alpha</a>" not in await (await client.get("/")).text()
    finally:
        await client.close()


def test_the_cli_refuses_a_missing_folder(tmp_path: Path) -> None:
    from benchmark_core.cli import create_cli

    cli = create_cli(example, "benchmark-core", umbrella=True)
    result = CliRunner().invoke(cli, ["view", str(tmp_path / "nowhere")])
    assert result.exit_code == 1, result.output
    assert "no results folder" in result.output
    assert "Traceback" not in result.output


async def test_the_view_command_serves_until_sigterm(results: Path) -> None:
    import signal
    import sys

    import aiohttp

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmark_core", "view", str(results), "--port", "0", stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    try:
        assert (await process.stderr.readline()).decode() == f"reading the reports under {results}...\n"
        line = (await asyncio.wait_for(process.stderr.readline(), 120)).decode()
        found = re.match(r"view: listening on (http://127\.0\.0\.1:\d+) \(Ctrl\+C to stop\)", line)
        assert found, line
        async with aiohttp.ClientSession() as session, session.get(found.group(1) + "/") as response:
            assert response.status == 200
            assert "<h1>Results</h1>" in await response.text()
    finally:
        process.send_signal(signal.SIGTERM)
        # Read stderr to its end, not just wait: a pipe left open keeps the transport alive past the
        # test's event loop, and its collection in a later test raised "Event loop is closed" (3.10).
        await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0


def test_leaderboard_writes_the_static_site(results: Path, tmp_path: Path) -> None:
    from benchmark_core.cli import create_cli

    out = tmp_path / "site"
    cli = create_cli(example, "benchmark-core", umbrella=True)
    result = CliRunner().invoke(cli, ["leaderboard", str(results), "--site", str(out)])
    assert result.exit_code == 0, result.output
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert f"wrote {len(pages)} pages under {out} (open {out / 'index.html'})" in result.output
    assert pages[-1] == "index.html" and any("/tasks/" in p for p in pages) and any("/compare/" in p for p in pages)
    view = ResultsCatalog([results], resamples=10_000).groups[0]
    assert (out / group_page(view.id)).is_file()


def test_a_task_s_rows_are_read_as_the_report_holds_them(results: Path) -> None:
    from benchmark_core.runs._files import read_report
    from benchmark_core.view._rows import RowIndex

    index = RowIndex()
    reports = [path for path in sorted(results.rglob("*.json")) if path.name != "notes.json"]
    assert reports, f"no report under {results}"  # an empty find must not pass
    checked = 0
    for path in reports:
        report = read_report(path)
        checked += len(report.rows)
        for row in report.rows:
            assert index.rows(path, row.task_id) == [row]
        assert index.rows(path, "no-such-task") == []
    assert checked > 0


async def test_the_benchmark_s_summary_side_by_side(tmp_path: Path, make_benchmark: Any) -> None:
    """Summary figures and per-kind breakdowns (as schema-mutation's `perMutationKind`), one row
    per model."""
    from collections.abc import Sequence

    from benchmark_core import RunRow, Task, mock_adapter, run
    from benchmark_core.wire import dumps, to_wire

    def summarize(tasks: Sequence[Task], rows: Sequence[RunRow]) -> dict[str, Any]:
        kinds = {row.task_id: "even" if int(row.task_id[1:]) % 2 == 0 else "odd" for row in rows}
        per_kind = {
            kind: {
                "tasks": sum(k == kind for k in kinds.values()),
                "passed": sum(r.passed for r in rows if kinds[r.task_id] == kind),
                "misses": sum(not r.passed for r in rows if kinds[r.task_id] == kind),
            }
            for kind in ("even", "odd")
        }
        return {"missRate": sum(not r.passed for r in rows) / len(rows), "perKind": per_kind}

    bench = make_benchmark(summarize=summarize)
    folder = tmp_path / "results"
    for label, skill in (("good", 0.9), ("poor", 0.2)):
        report = await run(bench, mock_adapter(skill=skill, model=label), cache=False)
        (folder / label).mkdir(parents=True)
        (folder / label / "report.json").write_text(dumps(to_wire(report)), encoding="utf-8")
        expected = report.summary
    view = ResultsCatalog([folder], resamples=200).groups[0]
    client = TestClient(TestServer(create_view_app([folder], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        text = await (await client.get(f"/{group_page(view.id)}")).text()
    finally:
        await client.close()
    figures = re.findall(r'<td class="num" data-field="missRate">([^<]+)</td>', text)
    assert len(figures) == 2 and figures[-1] == f"{expected['missRate'] * 100:.1f}%"  # poor ranks last
    cell = re.findall(r'<table class="breakdown" data-field="perKind">.*?</table>', text)[0]
    odd = expected["perKind"]["odd"]
    assert f"<b>{odd['passed']} of {odd['tasks']}</b><br><small>misses {odd['misses']}</small>" in cell


async def test_a_compare_page_rendered_in_its_process_is_the_static_one(results: Path) -> None:
    """The server renders compare pages in a process of its own, from the group cut to the two runs:
    the page is byte for byte the one the static site writes, and a pair not in the group is a 404."""
    from benchmark_core.view._site import Site

    client = await _client(results)
    try:
        catalog = client.app[CATALOG]
        view = next(v for v in catalog.groups if len(v.runs) == 4)
        first, second = view.runs[2], view.runs[0]
        path = compare_page(view.id, first.slug, second.slug)
        served = await client.get(f"/{path}")
        assert served.status == 200
        assert await served.text() == Site(ResultsCatalog([results], resamples=500), static=True).page(path)
        missing = await client.get(f"/{compare_page(view.id, first.slug, 'nobody')}")
        assert missing.status == 404
    finally:
        await client.close()


async def test_a_killed_compare_worker_is_replaced(results: Path) -> None:
    """A compare worker that dies (killed, out of memory) is replaced: the next compare page is
    served, not an error for every compare page until the server restarts."""
    import multiprocessing
    import signal

    client = await _client(results)
    try:
        view = next(v for v in client.app[CATALOG].groups if len(v.runs) == 4)
        path = compare_page(view.id, view.runs[2].slug, view.runs[0].slug)
        first = await client.get(f"/{path}")
        assert first.status == 200
        workers = multiprocessing.active_children()
        assert workers
        for worker in workers:
            os.kill(worker.pid or 0, signal.SIGKILL)
            worker.join(10)
        again = await client.get(f"/{path}")
        assert again.status == 200
        assert await again.text() == await first.text()
    finally:
        await client.close()
