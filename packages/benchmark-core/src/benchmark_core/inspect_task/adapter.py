"""`InspectModelAdapter`: the model of an Inspect sample behind benchmark-core's adapter protocol.

With it the code that answers a task (`run_episode` with its turn, tool-call and dollar budgets) runs
unchanged under Inspect, while every model call is Inspect's own: its retries, caching, limits,
usage accounting and transcript. The sample's `messages` and `output` follow the conversation, so
Inspect's message limit applies to each turn and its log shows the whole transcript.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Optional

from inspect_ai.model import ChatMessage as InspectMessage
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import TaskState
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolInfo, ToolParams

from .._model import ChatMessage, ChatRequest, ChatResult, CompletionResult, ToolCall, ToolSpec, Usage
from ..adapters._toolnames import ToolNameCodec
from ..adapters.base import AdapterContext


class InspectModelAdapter:
    """A `ModelAdapter` whose requests go to an Inspect `Model` (the sample's model by default) and
    are mirrored into the sample's `TaskState`.

    Tool names that providers refuse (`issues.create`) are offered in provider spelling and mapped
    back (`ToolNameCodec`), as the OpenAI-compatible adapter does.
    """

    def __init__(self, state: TaskState, model: Optional[Model] = None) -> None:
        self._state = state
        self._model = model if model is not None else get_model()
        # Our transcript position -> the Inspect message sent for it; the model's own replies are
        # kept as Inspect returned them (reasoning, ids, provider metadata), not rebuilt from ours.
        self._sent: list[InspectMessage] = []
        self._reply: Optional[ChatMessageAssistant] = None

    @property
    def provider(self) -> str:
        return "inspect"

    @property
    def model(self) -> str:
        return str(self._model)

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        messages: list[InspectMessage] = [ChatMessageUser(content=prompt)]
        self._state.messages = messages
        output = await self._model.generate(messages)
        self._record(output)
        return CompletionResult(text=output.message.text, usage=usage_of(output))

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = self.follow(request.messages, request.tools)
        output = await self._model.generate(self._sent, tools=tool_infos(request.tools, names))
        self._record(output)
        reply = output.message
        calls = [
            ToolCall(name=names.decode(call.function), arguments=dict(call.arguments), id=call.id)
            for call in reply.tool_calls or []
        ]
        message = ChatMessage(role="assistant", content=reply.text or None, tool_calls=calls or None)
        return ChatResult(message=message, usage=usage_of(output))

    async def aclose(self) -> None:
        return None

    def follow(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> ToolNameCodec:
        """Make the sample's messages our conversation `messages` (which only grows), so that the
        log shows it to its end, the last tool results included. Returns the request's name codec."""
        names = ToolNameCodec(
            [tool.name for tool in tools] + [call.name for message in messages for call in message.tool_calls or []]
        )
        calls_by_id = {
            call.id: names.encode(call.name) for message in messages for call in message.tool_calls or [] if call.id
        }
        for message in messages[len(self._sent) :]:
            self._sent.append(self._to_inspect(message, names, calls_by_id))
        self._state.messages = list(self._sent)
        return names

    def _record(self, output: ModelOutput) -> None:
        self._reply = output.message
        self._state.messages.append(output.message)
        self._state.output = output

    def _to_inspect(self, message: ChatMessage, names: ToolNameCodec, calls_by_id: dict[str, str]) -> InspectMessage:
        if message.role == "assistant" and self._reply is not None:
            reply, self._reply = self._reply, None
            return reply
        content = message.content or ""
        if message.role == "system":
            return ChatMessageSystem(content=content)
        if message.role == "user":
            return ChatMessageUser(content=content)
        if message.role == "tool":
            call_id = message.tool_call_id or ""
            return ChatMessageTool(content=content, tool_call_id=call_id, function=calls_by_id.get(call_id))
        return ChatMessageAssistant(content=content, tool_calls=_inspect_calls(message.tool_calls or [], names))


def tool_infos(tools: Sequence[ToolSpec], names: Optional[ToolNameCodec] = None) -> list[ToolInfo]:
    """Our tool specs as Inspect tool definitions. Inspect's `ToolParams` keeps the JSON Schema
    keywords it models (type, properties, required, enum, items, anyOf, pattern, lengths, bounds,
    descriptions, additionalProperties); others, such as `minProperties`, are not sent to the model.
    The environment still enforces them."""
    codec = names or ToolNameCodec(tool.name for tool in tools)
    return [
        ToolInfo(
            name=codec.encode(tool.name),
            description=tool.description,
            parameters=ToolParams.model_validate(tool.parameters),
        )
        for tool in tools
    ]


def usage_of(output: ModelOutput) -> Usage:
    usage = output.usage
    if usage is None:
        return Usage()
    return Usage(prompt_tokens=usage.input_tokens, completion_tokens=usage.output_tokens, cost_usd=usage.total_cost)


def _inspect_calls(calls: Iterable[ToolCall], names: ToolNameCodec) -> list[InspectToolCall]:
    return [
        InspectToolCall(id=call.id, function=names.encode(call.name), arguments=dict(call.arguments)) for call in calls
    ]
