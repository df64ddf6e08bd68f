"""The results browser's correctness fixes (issue 33 §4), each against the real server or the real
renderer: a group's page named without its slash, the compare page's title in its URL's order,
"(differs)" only where graded rows differ, the mock refusing `--prices`, and errored rows counted
in the rollback breakdown as they are in its means."""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from benchmark_core import RunRow, mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._html_task import _differing
from benchmark_core.view._paths import compare_page
from benchmark_rollback_recovery import summarize
from click.testing import CliRunner

Client = TestClient[web.Request, web.Application]


async def _client(results: Path) -> Client:
    client = TestClient(TestServer(create_view_app([results], resamples=500), host="127.0.0.1"))
    await client.start_server()
    return client


async def test_a_group_named_without_its_slash_redirects_and_its_task_links_resolve(results: Path) -> None:
    view = ResultsCatalog([results], resamples=500).groups[0]
    client = await _client(results)
    try:
        bare = await client.get(f"/g/{view.id}", allow_redirects=False)
        assert bare.status == 301 and bare.headers["Location"] == f"/g/{view.id}/"
        followed = await client.get(f"/g/{view.id}")
        text = await followed.text()
        assert followed.status == 200 and str(followed.url).endswith(f"/g/{view.id}/")
        task = re.search(r'href="(tasks/[^"]+)"', text)
        assert task is not None
        assert (await client.get(f"/g/{view.id}/{task.group(1)}")).status == 200
    finally:
        await client.close()


async def test_a_compare_page_is_titled_in_the_order_of_its_url(results: Path) -> None:
    view = next(v for v in ResultsCatalog([results], resamples=500).groups if len(v.runs) == 4)
    first, second = view.runs[-1], view.runs[0]
    client = await _client(results)
    try:
        text = await (await client.get(f"/{compare_page(view.id, first.slug, second.slug)}")).text()
    finally:
        await client.close()
    assert f"<li>{first.label} vs {second.label}</li>" in text or f">{first.label} vs {second.label}<" in text
    assert f"<h2>{first.label} vs {second.label}</h2>" in text
    assert f"{second.label} vs {first.label}" not in text
    # Each flipped task with both runs' reasons.
    flipped = text[text.index('id="flipped"') :]
    items = re.findall(r'<li data-task="[^"]+">.*?</li>', flipped)
    assert items, "the fixture's runs differ on some task"
    assert all(f"<dt>{first.label}</dt><dd>" in item and f"<dt>{second.label}</dt><dd>" in item for item in items)
    assert "<dd>-</dd>" not in flipped


def _row(task_id: str, details: dict[str, object], error: str | None = None) -> RunRow:
    return RunRow(task_id=task_id, score=0.0, passed=False, reason="r", attempts=1, latency_ms=1, error=error,
                  details=details)  # fmt: skip


def test_differs_marks_only_fields_whose_graded_values_differ() -> None:
    rows = [_row("t", {"a": 1, "b": "x"}), _row("t", {"a": 2, "b": "x"}), _row("t", {}, error="boom")]
    assert _differing(rows) == {"a"}
    assert _differing(rows[1:]) == set()


def test_the_mock_refuses_prices_with_exit_1(tmp_path: Path) -> None:
    from benchmark_core.cli import create_cli

    args = ["run", "--provider", "mock", "--model", "m", "--prices", '{"input": 3, "output": 15}']
    result = CliRunner().invoke(create_cli(example, "benchmark-core"), [*args, "--output", str(tmp_path / "r.json")])
    assert result.exit_code == 1, result.output
    assert "--prices: the mock provider has no costs to price" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "r.json").exists()


async def test_errored_rows_count_in_the_rollback_breakdown_as_in_its_means() -> None:
    from benchmark_rollback_recovery import benchmark as rollback

    tasks = rollback.tasks()
    report = await run(rollback, mock_adapter(seed=3, policies=rollback.mock_policies), tasks=tasks, cache=False)
    controls = [row for row in report.rows if row.groups.get("scenario") == "control"]
    assert controls
    broken = [
        RunRow(task_id=r.task_id, score=0.0, passed=False, reason="errored", attempts=1, latency_ms=1,
               error="boom", groups=r.groups) if r is controls[0] else r
        for r in report.rows
    ]  # fmt: skip
    summary = summarize(tasks, broken)
    cell = summary["perIncidentKind"]["control"]
    assert cell["tasks"] == len(controls)
    assert cell["passed"] == sum(r.passed for r in controls[1:])
    # The control mean counts the errored row as 0 over the same tasks.
    assert abs(summary["controlMean"] - cell["passed"] / cell["tasks"]) < 1e-9
