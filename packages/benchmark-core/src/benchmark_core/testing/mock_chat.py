"""The offline mock's episode policies as an OpenAI-compatible chat endpoint, for agents no one here
wrote: `mock_chat_handler(benchmark, tasks)` is a `FakeOpenAI` handler that answers each chat
request as `MockAdapter` would answer the same turn of the same episode. The `fake-model` command
of every benchmark's CLI serves it (`benchmark-rollback-recovery fake-model --port 8123`).

    async with FakeOpenAI(handler=mock_chat_handler(benchmark, benchmark.tasks())) as server:
        ...  # point the agent framework at server.base_url

The request's task is the one whose prompt is in the request's first user message and whose system
text (the environment's, for `seed`) is in its system or developer message: frameworks wrap both
(smolagents sends "New task:\\n" and the prompt, and its own system template around the
instructions it is given), and a prompt alone is not always unique (rollback-recovery's control and
incident variants share some). An exact match wins; otherwise the longest prompt and system text
contained. Its position in `tasks` (the whole task list, as the mock runner numbers it) decides good
or bad, as the mock does (first epoch). The turn is the number of assistant messages so far. Each
tool call gets an id unique in the episode, since frameworks match tool results to calls by id.

Where the mock ends its episode with plain text and the request offers a tool named `final_tool`
(default `final_answer`, smolagents'), the answer is a call of that tool instead, its text the
tool's first required argument: a framework that ends only through its final-answer tool (and asks
for `tool_choice: required`) then ends as the mock does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Optional

from .._model import ChatMessage, ChatRequest, JsonObject, Task
from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter
from ._loopback import RecordedRequest
from .fake_openai import FakeResponse, chat_completion

__all__ = ["FINAL_ANSWER_TOOL", "mock_chat_handler"]

#: The tool the mock ends an episode through when a request offers it (smolagents' name).
FINAL_ANSWER_TOOL = "final_answer"


def mock_chat_handler(
    benchmark: Any, tasks: Sequence[Task], seed: int = 1, *, final_tool: Optional[str] = FINAL_ANSWER_TOOL
) -> Callable[[RecordedRequest], Any]:
    environment = benchmark.environment
    episodes = [
        (task.prompt, environment().reset(task, seed).system if environment is not None else "", index, task)
        for index, task in enumerate(tasks)
        if task.kind == "episode"
    ]
    by_text = {(prompt, system): (index, task) for prompt, system, index, task in episodes}
    mock = MockAdapter(seed, benchmark.mock_policies)

    def find(prompt: str, system: str) -> Optional[tuple[int, Task]]:
        exact = by_text.get((prompt, system))
        if exact is not None:
            return exact
        contained = [(len(p) + len(s), index, task) for p, s, index, task in episodes if p in prompt and s in system]
        if not contained:
            return None
        _, index, task = max(contained, key=lambda found: found[0])
        return index, task

    async def answer(request: RecordedRequest) -> FakeResponse:
        messages = request.messages
        prompt = next((_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
        system = next((_text(m.get("content")) for m in messages if m.get("role") in ("system", "developer")), "")
        found = find(prompt, system)
        if found is None:
            return FakeResponse.error(400, f"no episode's prompt and system text are in {prompt[:60]!r} and its system")
        position, task = found
        turns = [m for m in messages if m.get("role") == "assistant"]
        history = [ChatMessage(role="assistant", content=_text(m.get("content"))) for m in turns]
        chat = ChatRequest(messages=[ChatMessage(role="user", content=task.prompt), *history])
        result = await mock.chat(chat, AdapterContext(task=task, task_index=position, seed=seed))
        calls = [(call.name, call.arguments) for call in result.message.tool_calls or ()]
        content = result.message.content
        final = _final_argument(request, final_tool) if not calls else None
        if final is not None:
            calls, content = [(str(final_tool), {final: content or ""})], None
        message: JsonObject = {"role": "assistant", "content": content}
        if calls:
            message["tool_calls"] = [
                {
                    "id": f"call_{len(turns)}_{i}",
                    "type": "function",
                    "function": {"name": n, "arguments": json.dumps(a)},
                }
                for i, (n, a) in enumerate(calls)
            ]
        usage = {
            "prompt_tokens": result.usage.prompt_tokens,
            "completion_tokens": result.usage.completion_tokens,
            "total_tokens": result.usage.prompt_tokens + result.usage.completion_tokens,
        }
        return FakeResponse(body=chat_completion(message, usage))

    return answer


def _final_argument(request: RecordedRequest, final_tool: Optional[str]) -> Optional[str]:
    """The argument that carries the answer of the request's tool `final_tool` (its first required
    one, else its first), or None when the request offers no such tool."""
    tools = request.body.get("tools") if isinstance(request.body, dict) else None
    for tool in tools if isinstance(tools, list) else []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if final_tool is not None and isinstance(function, dict) and function.get("name") == final_tool:
            schema = function.get("parameters")
            schema = schema if isinstance(schema, dict) else {}
            names = [*(schema.get("required") or []), *(schema.get("properties") or {})]
            return str(names[0]) if names else "answer"
    return None


def _text(content: Any) -> str:
    """A message's text, whether a string or a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""
