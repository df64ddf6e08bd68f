"""The offline mock's episode policies as an OpenAI-compatible chat endpoint, for agents no one here
wrote: `mock_chat_handler(benchmark, tasks)` is a `FakeOpenAI` handler that answers each chat
request as `MockAdapter` would answer the same turn of the same episode.

    async with FakeOpenAI(handler=mock_chat_handler(benchmark, benchmark.tasks())) as server:
        ...  # point the agent framework at server.base_url

The request's task is the one whose prompt is the request's first user message and whose system
text (the environment's, for `seed`) is its system or developer message: a prompt alone is not
always unique (rollback-recovery's control and incident variants share some). Its position in
`tasks` (the whole task list, as the mock runner numbers it) decides good or bad, as the mock does
(first epoch). The turn is the number of assistant messages so far. Each tool call gets an id unique
in the episode, since frameworks match tool results to calls by id.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from .._model import ChatMessage, ChatRequest, JsonObject, Task
from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter
from ._loopback import RecordedRequest
from .fake_openai import FakeResponse, chat_completion

__all__ = ["mock_chat_handler"]


def mock_chat_handler(benchmark: Any, tasks: Sequence[Task], seed: int = 1) -> Callable[[RecordedRequest], Any]:
    environment = benchmark.environment
    by_text = {
        (task.prompt, environment().reset(task, seed).system if environment is not None else ""): (index, task)
        for index, task in enumerate(tasks)
        if task.kind == "episode"
    }
    mock = MockAdapter(seed, benchmark.mock_policies)

    async def answer(request: RecordedRequest) -> FakeResponse:
        messages = request.messages
        prompt = next((_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
        system = next((_text(m.get("content")) for m in messages if m.get("role") in ("system", "developer")), "")
        if (prompt, system) not in by_text:
            return FakeResponse.error(400, f"no episode has the prompt {prompt[:60]!r} and this system text")
        position, task = by_text[(prompt, system)]
        turns = [m for m in messages if m.get("role") == "assistant"]
        history = [ChatMessage(role="assistant", content=_text(m.get("content"))) for m in turns]
        chat = ChatRequest(messages=[ChatMessage(role="user", content=prompt), *history])
        result = await mock.chat(chat, AdapterContext(task=task, task_index=position, seed=seed))
        message: JsonObject = {"role": "assistant", "content": result.message.content}
        if result.message.tool_calls:
            message["tool_calls"] = [
                {
                    "id": f"call_{len(turns)}_{i}",
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
                for i, call in enumerate(result.message.tool_calls)
            ]
        usage = {
            "prompt_tokens": result.usage.prompt_tokens,
            "completion_tokens": result.usage.completion_tokens,
            "total_tokens": result.usage.prompt_tokens + result.usage.completion_tokens,
        }
        return FakeResponse(body=chat_completion(message, usage))

    return answer


def _text(content: Any) -> str:
    """A message's text, whether a string or a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""
