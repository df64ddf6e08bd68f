"""Results folders for the results browser's tests: real runs of the example benchmark by models
of known skill (`mock_adapter(skill=...)`), saved where a sweep saves them, plus a loose `run --output` file."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_core import mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.wire import dumps, to_wire

SKILLS = {"alpha": 0.9, "bravo": 0.6, "charlie": 0.4}


async def make_results(folder: Path, skills: dict[str, float] = SKILLS) -> Path:
    for label, skill in skills.items():
        report = await run(example, mock_adapter(skill=skill, model=label), cache=False)
        path = folder / example.id / label / "report.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(to_wire(report)), encoding="utf-8")
    return folder


@pytest.fixture
async def results(tmp_path: Path) -> Path:
    folder = await make_results(tmp_path / "results")
    loose = await run(example, mock_adapter(skill=0.5, model="loose/one"), cache=False)
    (folder / "loose run.json").write_text(dumps(to_wire(loose)), encoding="utf-8")
    (folder / "notes.json").write_text('{"not": "a report"}', encoding="utf-8")
    return folder
