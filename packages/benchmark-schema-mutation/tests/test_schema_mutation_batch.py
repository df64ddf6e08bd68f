"""`--batch` in native mode: every batch item carries the tools and settings a direct request sends
(Inspect's batch-only crash with reasoning_effort, #3272, came from bodies that differed), and the
batched run grades as the direct one, against core's loopback fakes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from benchmark_core import RunOptions, openai_compat_adapter, run
from benchmark_core.testing import FakeOpenAI, FakeOpenAIBatches, mock_handler
from benchmark_schema_mutation import benchmark

KEY = "sk-test-schema-batch"


def test_native_batch_items_are_the_direct_requests_and_grade_alike() -> None:
    tasks = tuple(task.id for task in benchmark.tasks()[:10])
    settings: dict[str, Any] = {"reasoning_effort": "medium", "temperature": 0.0, "max_tokens": 256}
    options = RunOptions(mode="native", task_ids=tasks, cache=False, batch_poll=0.05, **settings)

    async def main() -> tuple[Any, Any, list[Any], list[Any]]:
        async with FakeOpenAI(handler=mock_handler(benchmark)) as server:
            direct = await run(benchmark, openai_compat_adapter(server.base_url, "m", KEY), options)
        async with FakeOpenAIBatches(mock_handler(benchmark), processing_delay=0.1) as fake:
            batched = await run(benchmark, openai_compat_adapter(fake.base_url, "m", KEY), options, batch=True)
        items = [body for batch in fake.batches.values() for body in batch.items.values()]
        return direct, batched, [r.body for r in server.requests], items

    direct, batched, direct_bodies, items = asyncio.run(main())
    # Direct requests reach the server in the order they finish being sent; compare them as a set.
    assert sorted(map(_canonical, items)) == sorted(map(_canonical, direct_bodies))
    assert len(items) == len(direct_bodies) == 10
    assert all(body["tools"] and body["reasoning_effort"] == "medium" for body in items)
    assert [(r.task_id, r.score, r.trace.tool_calls) for r in batched.rows] == [
        (r.task_id, r.score, r.trace.tool_calls) for r in direct.rows
    ]
    assert batched.mode == "native" and batched.batch is not None and batched.batch.discount == 0.5


def _canonical(body: Any) -> str:
    return json.dumps(body, sort_keys=True)
