"""A run stopped before it finished (here by a fatal provider error, as SIGTERM stops one) joins the
group of its full task set as partial: listed there, marked, not ranked and never compared, instead
of a group of its own where it ranked first. Against the real server, the leaderboard and the
static site."""

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
from benchmark_core.view._paths import group_page, run_page
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
    assert 'class="compare"' not in row.group(1)
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
