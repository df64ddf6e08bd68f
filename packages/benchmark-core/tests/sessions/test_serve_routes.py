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
    page = await (await public.get("/")).text()
    assert "whatHappened" not in page and 'class="score"' not in page  # the incident the grader checks
    opened = await public.post("/v1/sessions", json={"taskId": task.id})
    assert opened.status == 201


async def test_serve_scores_nothing_where_it_opens_sessions(aiohttp_client: Any) -> None:
    # A score is an oracle an agent could try answers on, and its reason quotes the expected answer.
    bench = load_benchmark("benchmark-schema-mutation")
    task = bench.tasks()[0]
    public = await aiohttp_client(create_app(bench, routes="public"))
    refused = await public.post("/v1/score", json={"taskId": task.id, "submission": {"answer": "x"}})
    assert refused.status in (404, 405)
    assert "/v1/score" not in (await (await public.get("/openapi.json")).json())["paths"]
    scoring = await aiohttp_client(create_app(bench, routes="scoring"))
    scored = await scoring.post("/v1/score", json={"taskId": task.id, "submission": {"answer": "x"}})
    assert scored.status == 200 and (await scored.json())["passed"] is False
    assert "/v1/score" in (await (await scoring.get("/openapi.json")).json())["paths"]
    assert 'class="score"' in await (await scoring.get("/")).text()


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
