"""A run stopped before it finished (here by a fatal provider error, as SIGTERM stops one) joins the
group of its full task set as partial: listed there, marked, not ranked and in no verdict, instead
of a group of its own where it ranked first; and it shows, marked, on the matrix, the task pages and
a comparison with the top run (on the tasks it ran, no verdict), and in the reports counts. Against
the real server, the leaderboard and the static site."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from benchmark_core import openai_compat_adapter, run
from benchmark_core.errors import RunStoppedError
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import build_leaderboard, render_leaderboard
from benchmark_core.testing.fake_openai import FakeOpenAI, FakeResponse
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._paths import compare_page, group_page, run_page, task_page
from benchmark_core.view._site import write_site
from benchmark_core.wire import dumps, to_wire

FINISHED = 3


async def _stopped_run(folder: Path) -> None:
    """A run whose provider refuses the key after three answers: the runner stops it there."""
    seen = 0

    def answer(request: Any) -> FakeResponse:
        nonlocal seen
        seen += 1
        return FakeResponse.text("no idea") if seen <= FINISHED else FakeResponse.error(401, "key revoked")

    async with FakeOpenAI(handler=answer) as server:
        adapter = openai_compat_adapter(server.base_url, "stopped-model", "sk-test")
        with pytest.raises(RunStoppedError) as stopped:
            await run(example, adapter, concurrency=1, cache=False)
    report = stopped.value.report
    assert report.complete is False and 0 < len(report.rows) < len(example.tasks())
    path = folder / example.id / "stopped" / "report.json"
    path.parent.mkdir(parents=True)
    path.write_text(dumps(to_wire(report)), encoding="utf-8")


async def test_a_stopped_run_joins_its_group_as_partial_and_is_not_ranked(results: Path, tmp_path: Path) -> None:
    await _stopped_run(results)
    board = build_leaderboard(results, resamples=200)
    # One group holds the full task set's runs; the stopped one is in it, not ranked, not alone.
    assert len(board.groups) == 1
    group = board.groups[0]
    assert group.tasks == len(example.tasks())
    assert [e.label for e in group.partial] == ["stopped"] and group.partial[0].rank == 0
    assert "stopped" not in [e.label for e in group.entries] and group.entries[0].rank == 1
    assert re.search(r"^\| partial \| - \| stopped \(incomplete\) ", render_leaderboard(board), re.M)

    view = ResultsCatalog([results], resamples=200).groups[0]
    client = TestClient(TestServer(create_view_app([results], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        text = await (await client.get(f"/{group_page(view.id)}")).text()
        run_response = await client.get(f"/{run_page(view.id, view.partial[0].slug)}")
        assert run_response.status == 200
    finally:
        await client.close()
    row = re.search(r'<tr data-label="stopped" data-rank="0" class="partial">(.*?)</tr>', text, re.S)
    assert row is not None, "the stopped run is listed in its group's table"
    assert '<td class="num rank">partial</td>' in row.group(1) and "incomplete" in row.group(1)
    ranks = re.findall(r'<tr data-label="[^"]+" data-rank="(\d+)"', text)
    assert ranks.count("1") == 1 and ranks.count("0") == 1
    # The static site writes the partial run's page, which the group page links to.
    write_site(ResultsCatalog([results], resamples=200), tmp_path / "site")
    assert (tmp_path / "site" / run_page(view.id, view.partial[0].slug)).is_file()


async def test_a_stopped_run_with_no_finished_group_keeps_its_own(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    await _stopped_run(folder)
    (group,) = build_leaderboard(folder, resamples=200).groups
    assert [e.label for e in group.entries] == ["stopped"] and group.partial == []


async def _pages(results: Path, *paths: str) -> list[str]:
    client = TestClient(TestServer(create_view_app([results], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        pages = []
        for path in paths:
            response = await client.get(f"/{path}")
            assert response.status == 200, path
            pages.append(await response.text())
        return pages
    finally:
        await client.close()


def _fact(text: str, name: str) -> str:
    found = re.search(rf'<div data-fact="{name}"><dt>{name}</dt><dd>([^<]*)</dd>', text)
    assert found is not None, name
    return found.group(1)


async def test_a_stopped_run_shows_on_every_page_marked_partial_and_in_no_tally(results: Path, tmp_path: Path) -> None:
    await _stopped_run(results)
    view = ResultsCatalog([results], resamples=200).groups[0]
    (stopped,) = view.partial
    ran, skipped = sorted(stopped.status)[0], next(t for t in view.task_ids if t not in stopped.status)
    top = view.runs[0]
    index, group, done, not_done, compared = await _pages(
        results,
        "index.html",
        group_page(view.id),
        task_page(view.id, ran),
        task_page(view.id, skipped),
        compare_page(view.id, top.slug, stopped.slug),
    )
    ranked = len(view.runs)
    # Counted among the reports, said apart.
    assert _fact(index, "reports") == _fact(group, "reports") == f"{ranked + 1} (1 partial)"
    # The matrix: its column last, marked; its rows where it has them, "not run" where it stopped.
    heads = re.findall(r'<th class="model( partial)?" title="[^"]*" scope="col">([^<]+)</th>', group)
    assert heads[-1] == (" partial", "stopped (partial)") and all(not p for p, _ in heads[:-1])
    matrix_row = r'<tr data-s="(\w+)" data-n="\d+"[^>]*><th class="task" scope="row"><a [^>]*>([^<]+)<'
    by_task = {task: states for states, task in re.findall(matrix_row, group)}
    assert by_task[ran][-1] == stopped.status[ran] and by_task[skipped][-1] == "x"
    assert all(len(states) == ranked + 1 for states in by_task.values())
    # Its passes are in no tally: the pass column and data-n count the ranked runs only.
    tallies = re.findall(r'data-n="(\d+)"[^>]*>.*?<td class="n">(\d+)/(\d+)</td>', group)
    assert all(n == passed and int(of) == ranked for n, passed, of in tallies)
    assert '<td class="c x">–</td>' in group and "not run" in group
    # A task page: its answer where it ran, "not run" where it did not, marked partial both times.
    word = {"p": "passed", "f": "failed", "e": "errored"}[stopped.status[ran]]
    for text, status in ((done, word), (not_done, "not run")):
        line = re.search(r'<tr data-label="stopped"><th scope="row">stopped(.*?)</tr>', text, re.S)
        assert line is not None and 'class="pill partial"' in line.group(1)
        assert f">{status}</span>" in line.group(1)
    assert "Not run: this partial run stopped before this task." in not_done
    assert "Not run" not in done and '<section class="model" data-label="stopped"' in done
    # Compared with the top run on the tasks it ran, marked, and no verdict.
    assert 'class="banner partial"' in compared and f"after {len(stopped.status)} of the group" in compared
    assert _fact(compared, "tasks compared") == str(len(stopped.status))
    verdicts = re.findall(r'<p class="verdict-line (\w+)" data-verdict="(\w+)">([^<]*)</p>', compared)
    assert verdicts == [("none", "withheld", "No verdict: stopped is a partial run (not ranked).")]
    # Still unranked and in no verdict on the group page; its row links to that comparison.
    row = re.search(r'<tr data-label="stopped" data-rank="0" class="partial">(.*?)</tr>', group, re.S)
    assert row is not None and f'href="compare/{top.slug}--{stopped.slug}.html"' in row.group(1)
    assert re.search(r'<td class="vs-top [^"]*"><b>-</b></td>', row.group(1)), "no verdict against the top"
    # The static site writes the same pages.
    write_site(ResultsCatalog([results], resamples=200), tmp_path / "site")
    site = tmp_path / "site"
    for path in (task_page(view.id, skipped), compare_page(view.id, top.slug, stopped.slug)):
        assert (site / path).is_file()
    assert "Not run: this partial run stopped" in (site / task_page(view.id, skipped)).read_text(encoding="utf-8")
