"""An episode's task page shows what its benchmark says to show beside it (`episode_context`):
each model's final state as a diff against the target (only the records that differ, the damaged
one marked), the injected incident, and for a drift episode the schema before and after, all
against the real server with the real benchmarks' reports."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from benchmark_core import Benchmark, RunReport, Task, mock_adapter, run
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._html_state import state_diff
from benchmark_core.view._paths import task_page
from benchmark_core.wire import dumps, to_wire
from benchmark_rollback_recovery import benchmark as rollback
from benchmark_rollback_recovery import task_spec
from benchmark_schema_mutation import benchmark as schema_mutation

Client = TestClient[web.Request, web.Application]


async def _reports(bench: Benchmark, tasks: Sequence[Task], folder: Path) -> dict[str, RunReport]:
    reports = {}
    for label, skill in (("good", 1.0), ("poor", 0.0)):
        report = await run(bench, mock_adapter(skill=skill, model=label), cache=False, tasks=list(tasks))
        (folder / label).mkdir(parents=True)
        (folder / label / "report.json").write_text(dumps(to_wire(report)), encoding="utf-8")
        reports[label] = report
    return reports


async def _page(folder: Path, task_id: str) -> str:
    view = ResultsCatalog([folder], resamples=200).groups[0]
    client: Client = TestClient(TestServer(create_view_app([folder], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        response = await client.get(f"/{task_page(view.id, task_id)}")
        assert response.status == 200
        return await response.text()
    finally:
        await client.close()


def _column(text: str, label: str) -> str:
    found = re.search(rf'<section class="model" data-label="{label}"[^>]*>(.*?)</section>', text, re.S)
    assert found is not None, label
    return found.group(1)


async def test_a_rollback_episode_shows_the_incident_and_each_final_state_against_the_target(tmp_path: Path) -> None:
    tasks = rollback.tasks()[:2]  # an incident, then a clean control
    incident, control = tasks
    spec = task_spec(incident)
    assert spec.incident is not None and task_spec(control).incident is None
    reports = await _reports(rollback, tasks, tmp_path / "results")
    text = await _page(tmp_path / "results", incident.id)
    context = text[text.index('id="episode-context"') : text.index('id="overview"')]
    assert "Incident injected" in context and html.escape(spec.incident.ticket, quote=False) in context
    # The good model repaired the damaged record: nothing differs, and the damaged record is named.
    good = _column(text, "good")
    victim = f"{spec.incident.store}/{spec.incident.object_id}"
    assert "Every record matches the target." in good
    assert f"The damaged record <code>{victim}</code> matches the target." in good
    # The poor one: exactly the records the grader's own diff names, the damaged one marked.
    poor = _column(text, "poor")
    poor_row = reports["poor"].rows[0]
    assert poor_row.episode is not None
    target = rollback.episode_context(incident).targets[0]
    expected = {f"{store}/{key}" for store, key, _, _ in state_diff(poor_row.episode.final_state, target)}
    shown = set(re.findall(r'<tr class="record[^"]*" data-record="([^"]+)"', poor))
    assert shown == expected and victim in shown
    assert re.search(rf'<tr class="record focus" data-record="{re.escape(victim)}">', poor)
    # Not a dump of the stores: a record nobody touched is not on the page.
    untouched = next(c for c in spec.world.contacts if f"contacts/{c.id}" not in expected)
    states = good[good.index('class="final-state"') :] + poor[poor.index('class="final-state"') :]
    assert untouched.revisions[-1].record.email not in states
    # A clean control: the poor model's stray write is the one record shown.
    text = await _page(tmp_path / "results", control.id)
    poor_row = reports["poor"].rows[1]
    assert poor_row.episode is not None and not poor_row.passed
    target = rollback.episode_context(control).targets[0]
    expected = {f"{store}/{key}" for store, key, _, _ in state_diff(poor_row.episode.final_state, target)}
    assert expected and set(re.findall(r'data-record="([^"]+)"', _column(text, "poor"))) == expected
    assert "a clean control" in text[text.index('id="episode-context"') :]


def test_the_diff_names_records_stores_and_fields() -> None:
    final = {"a": {"x": {"v": 1, "w": 2}, "y": {"v": 1}}, "b": 3, "c": {"z": {}}}
    target = {"a": {"x": {"v": 1, "w": 3}, "y": {"v": 1}}, "b": 3, "c": {}, "d": {"q": 1}}
    assert [(s, k) for s, k, _, _ in state_diff(final, target)] == [("a", "x"), ("c", "z"), ("d", "q")]
    assert state_diff([1], [1]) == [] and [k for _, k, _, _ in state_diff([1], [2])] == ["state"]


async def test_a_drift_episode_shows_the_previous_and_current_schema_side_by_side(tmp_path: Path) -> None:
    task = next(t for t in schema_mutation.tasks("full") if t.metadata.get("mutationKind") == "drift")
    await _reports(schema_mutation, [task], tmp_path / "results")
    text = await _page(tmp_path / "results", task.id)
    sides = re.findall(r'<div class="side"><h3>([^<]+)</h3><pre class="json">(.*?)</pre></div>', text, re.S)
    assert [title.split(" (")[0] for title, _ in sides] == ["Previous schema", "Current schema"]
    assert (
        f"({task.metadata['previousVersion']})" in sides[0][0] and f"({task.metadata['schemaVersion']})" in sides[1][0]
    )
    # The renamed field: the old name on the left only, the new one on the right only.
    change = task.metadata["mutatedElements"][0]
    old, new = f'"{change["field"]}"', f'"{change["replacement"]}"'
    assert old in sides[0][1] and new not in sides[0][1]
    assert new in sides[1][1] and old not in sides[1][1]
    assert "What changed" in text and html.escape(str(task.metadata["mutation"]), quote=False) in text
