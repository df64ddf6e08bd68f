"""The pair view with turns aligned: on an episode's task page each model's column is a subgrid of
the pair, so turn i of one model is on the grid row of turn i of the model beside it. Against the
real server, with the reports' own transcripts."""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from benchmark_core.example import benchmark as example
from benchmark_core.runs._files import read_report
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._paths import task_page


async def test_turn_i_of_one_model_is_on_the_row_of_turn_i_of_the_other(results: Path) -> None:
    view = next(v for v in ResultsCatalog([results], resamples=200).groups if len(v.runs) == 4)
    task_id = next(t.id for t in example.tasks() if t.kind == "episode")
    client = TestClient(TestServer(create_view_app([results], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        text = await (await client.get(f"/{task_page(view.id, task_id)}")).text()
    finally:
        await client.close()
    assert '<div class="pair aligned">' in text
    sections = re.findall(r'<section class="model" data-label="([^"]+)" style="grid-row:span (\d+)">', text)
    assert [label for label, _ in sections] == [run.label for run in view.runs]
    spans = {int(span) for _, span in sections}
    turns_of: dict[str, list[str]] = {}
    for run in view.runs:
        row = next(r for r in read_report(run.path).rows if r.task_id == task_id)
        assert row.episode is not None
        answered = {e.call_id for e in row.episode.tool_log if e.call_id}
        # A tool result the log matches is drawn under its call, not as a turn of its own.
        turns_of[run.label] = [
            m.role for m in row.episode.transcript if not (m.role == "tool" and m.tool_call_id in answered)
        ]
    (span,) = spans
    assert span == 2 + max(len(roles) for roles in turns_of.values())
    for label, roles in turns_of.items():
        column = text[text.index(f'data-label="{label}" style=') :].split("</section>", 1)[0]
        # The head on the pair's row 1, the timeline on the rest; in it, turn i on its row i (the
        # pair's i + 1), in the transcript's order, whatever the model beside it did.
        assert '<div class="slot head" style="grid-row:1">' in column
        assert f'<div class="timeline" style="grid-row:2 / span {span - 1}">' in column
        slots = re.findall(
            r'<div class="slot" data-pair-turn="(\d+)" style="grid-row:(\d+)"><div class="turn (\w+)"', column
        )
        assert [(int(n), int(r)) for n, r, _ in slots] == [(i, i) for i in range(1, len(roles) + 1)]
        assert [role for _, _, role in slots] == roles
        assert f'<div class="slot end" style="grid-row:{span - 1}">' in column


async def test_several_epochs_keep_the_plain_columns(tmp_path: Path) -> None:
    from benchmark_core import mock_adapter, run
    from benchmark_core.wire import dumps, to_wire

    folder = tmp_path / "results"
    for label in ("one", "two"):
        report = await run(example, mock_adapter(skill=0.5, model=label), epochs=2, cache=False)
        (folder / label).mkdir(parents=True)
        (folder / label / "report.json").write_text(dumps(to_wire(report)), encoding="utf-8")
    view = ResultsCatalog([folder], resamples=200).groups[0]
    task_id = next(t.id for t in example.tasks() if t.kind == "episode")
    client = TestClient(TestServer(create_view_app([folder], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        text = await (await client.get(f"/{task_page(view.id, task_id)}")).text()
    finally:
        await client.close()
    assert '<div class="pair">' in text and "grid-row:span" not in text
    assert text.count('<div class="timeline">') == 4  # two epochs of each model, one after the other
