"""The route sets of the HTTP API: `serve` (sessions, grading fields withheld), `serve --scoring-api`
(full task routes, no sessions) and the run's server (sessions only)."""

from __future__ import annotations

from typing import Any

from benchmark_core import load_benchmark
from benchmark_core.servers._http import create_app


async def test_serve_withholds_grading_fields_where_it_opens_sessions(aiohttp_client: Any) -> None:
    bench = load_benchmark("benchmark-rollback-recovery")
    task = next(t for t in bench.tasks() if t.kind == "episode")
    public = await aiohttp_client(create_app(bench, routes="public"))
    shown = await (await public.get(f"/v1/tasks/{task.id}")).json()
    assert task.metadata and shown["id"] == task.id  # what the grader reads, which must not be shown
    assert shown.get("expected") is None and not shown.get("metadata")
    listed = await (await public.get("/v1/tasks")).json()
    assert all(t.get("expected") is None and not t.get("metadata") for t in listed["tasks"])
    assert "whatHappened" not in await (await public.get("/")).text()  # the incident the grader checks
    opened = await public.post("/v1/sessions", json={"taskId": task.id})
    assert opened.status == 201


async def test_the_scoring_api_has_the_full_tasks_and_no_sessions(aiohttp_client: Any) -> None:
    bench = load_benchmark("benchmark-rollback-recovery")
    task = next(t for t in bench.tasks() if t.kind == "episode")
    scoring = await aiohttp_client(create_app(bench, routes="scoring"))
    shown = await (await scoring.get(f"/v1/tasks/{task.id}")).json()
    assert shown["metadata"] and (await scoring.post("/v1/sessions", json={"taskId": task.id})).status == 404
    assert "whatHappened" in await (await scoring.get("/")).text()  # the browser shows it here


async def test_the_run_server_serves_nothing_but_open_sessions(aiohttp_client: Any) -> None:
    bench = load_benchmark("benchmark-rollback-recovery")
    task = next(t for t in bench.tasks() if t.kind == "episode")
    sessions = await aiohttp_client(create_app(bench, routes="sessions"))
    for path in ("/", "/health", "/v1/tasks", f"/v1/tasks/{task.id}", "/v1/provenance", "/openapi.json"):
        assert (await sessions.get(path)).status == 404, path
    assert (await sessions.post("/v1/sessions", json={"taskId": task.id})).status in (404, 405)
    assert (await sessions.post("/v1/score", json={"taskId": task.id, "submission": {}})).status == 404
