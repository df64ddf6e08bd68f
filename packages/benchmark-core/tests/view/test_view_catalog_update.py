"""A changed, added or removed report updates the results browser's catalog in place: only that
file is read again and only its group ranked again (the other groups keep their state, objects and
all), and every page the catalog yields then equals what a fresh catalog of the folder gives."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from benchmark_core import mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.testing import run_in_thread
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._site import write_site
from benchmark_core.wire import dumps, to_wire

RESAMPLES = 200
GENERATION = re.compile(r' data-generation="\d+"')


async def _two_epoch_group(folder: Path) -> None:
    for label, skill in (("delta", 0.7), ("echo", 0.3)):
        report = await run(example, mock_adapter(skill=skill, model=label), epochs=2, cache=False)
        path = folder / "twice" / label / "report.json"
        path.parent.mkdir(parents=True)
        path.write_text(dumps(to_wire(report)), encoding="utf-8")


def _pages(catalog: ResultsCatalog, out: Path) -> dict[str, str]:
    """Every page, but for the count of rebuilds a live page polls (`generation`), which differs."""
    write_site(catalog, out)
    pages = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()}
    return {path: GENERATION.sub("", page) for path, page in sorted(pages.items())}


def _state(catalog: ResultsCatalog) -> list[object]:
    """What the catalog holds besides its pages: each group's ranking and files, and the skipped."""
    return [
        [(v.id, to_wire(v.group), v.runs, v.partial, v.task_ids, v.task_groups) for v in catalog.groups],
        catalog.skipped,
    ]


def _assert_as_fresh(catalog: ResultsCatalog, results: Path, out: Path, step: str) -> None:
    assert catalog.refresh(force=True)
    fresh = ResultsCatalog([results], resamples=RESAMPLES)
    assert _state(catalog) == _state(fresh), step
    assert _pages(catalog, out / step / "updated") == _pages(fresh, out / step / "fresh"), step


def _rewrite(path: Path) -> None:
    """The report with its first row failed: its mean, statuses and ranking change."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["rows"][0].update(score=0.0, passed=False, reason="changed after the run")
    data["mean"] = sum(row["score"] for row in data["rows"]) / len(data["rows"])
    path.write_text(json.dumps(data), encoding="utf-8")
    later = path.stat().st_mtime_ns + 1_000_000_000  # a stamp apart even on a coarse clock
    os.utime(path, ns=(later, later))


def test_one_report_updates_its_entry_and_group_alone(results: Path, tmp_path: Path) -> None:
    run_in_thread(_two_epoch_group(results))
    catalog = ResultsCatalog([results], resamples=RESAMPLES)
    twice = next(v for v in catalog.groups if v.group.epochs == 2)
    once = next(v for v in catalog.groups if v.group.epochs == 1)
    twice.dimension_cells("kind")  # computed state that an untouched group keeps

    _rewrite(results / example.id / "bravo" / "report.json")
    _assert_as_fresh(catalog, results, tmp_path, "changed")
    assert catalog.group(twice.id) is twice and "kind" in twice._cells  # not re-read, not re-ranked
    assert catalog.group(once.id) is not once
    assert "changed after the run" in catalog.group(once.id).run("bravo").notes[once.task_ids[0]]  # type: ignore[union-attr]

    added = results / example.id / "foxtrot" / "report.json"
    added.parent.mkdir()
    added.write_bytes((results / example.id / "alpha" / "report.json").read_bytes())
    _assert_as_fresh(catalog, results, tmp_path, "added")
    assert catalog.group(twice.id) is twice
    assert "foxtrot" in [run.label for run in catalog.group(once.id).runs]  # type: ignore[union-attr]

    (results / "twice" / "echo" / "report.json").unlink()
    _assert_as_fresh(catalog, results, tmp_path, "removed")
    assert [run.label for run in catalog.group(twice.id).runs] == ["delta"]  # type: ignore[union-attr]

    (results / example.id / "alpha" / "report.json").write_text('{"benchmark": "x", "mean": ', encoding="utf-8")
    _assert_as_fresh(catalog, results, tmp_path, "corrupted")
    reasons = {skip.path: skip.reason for _, skip in catalog.skipped}
    assert f"{example.id}/alpha/report.json" in reasons and reasons["notes.json"] == "not a run report"
    assert "alpha" not in [run.label for view in catalog.groups for run in view.runs]
