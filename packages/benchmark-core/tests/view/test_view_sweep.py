"""The live view follows a sweep from start to end (issue 26 §3): two models behind a slow
OpenAI-compatible server on loopback, run by `run_sweep_async` one request at a time, watched
through `ResultsCatalog` as `view` watches it: each cell shows in progress with its rows growing,
then becomes a report in its group."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import run_sweep_async
from benchmark_core.testing import FakeOpenAI, mock_handler
from benchmark_core.view import ResultsCatalog


async def test_a_sweep_watched_from_start_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_KEY", "sk-test")
    async with FakeOpenAI(handler=mock_handler(example, delay=0.05), record=False) as fake:
        models = "".join(
            f'[[models]]\nlabel = "{label}"\nprovider = "openai"\nmodel = "{label}"\n'
            f'base_url = "{fake.base_url}"\napi_key_env = "FAKE_KEY"\n'
            for label in ("one", "two")
        )
        sweep = tmp_path / "sweep.toml"
        sweep.write_text(
            f'results = "results"\n[options]\ncache = false\n{models}'
            f'[[benchmarks]]\nid = "{example.id}"\n[limits]\n"{fake.base_url}" = 1\n',
            encoding="utf-8",
        )
        results = tmp_path / "results"
        results.mkdir()
        catalog = ResultsCatalog([results], resamples=200)
        seen: dict[str, list[int]] = {}
        task = asyncio.create_task(run_sweep_async(sweep))
        while not task.done():
            for run in catalog.live():
                rows = seen.setdefault(run.output, [])
                if not rows or rows[-1] != run.rows:
                    rows.append(run.rows)
                assert run.total == len(example.tasks()) and run.running
            await asyncio.sleep(0.1)
        await task
    cells = {f"{example.id}/{label}/report.json" for label in ("one", "two")}
    assert set(seen) == cells
    for rows in seen.values():
        assert rows == sorted(rows) and len(rows) >= 3, rows
    assert catalog.live() == []
    catalog.refresh(force=True)
    assert [sorted(run.label for run in view.runs) for view in catalog.groups] == [["one", "two"]]
