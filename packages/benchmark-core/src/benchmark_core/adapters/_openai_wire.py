"""The OpenAI chat-completions wire format: requests built from the core model, answers read back.

Tool names are encoded per request with a `ToolNameCodec` and decoded in the returned calls. Tool
arguments travel as a JSON-encoded string; a string that is not a JSON object is kept as
`{RAW_ARGUMENTS_KEY: <the raw text>}` and sent back verbatim if the call is replayed. Readers of an
answer take what a provider may omit or garble (usage, content parts, served-by names) defensively:
whatever is not a well-formed value counts as absent.
"""

from __future__ import annotations

import json
import math
from typing import Any, Optional

from .._errors import MalformedResponseError
from .._model import ChatMessage, JsonObject, JsonValue, ServedBy, ToolCall, ToolSpec, Usage
from ._openai_errors import ProviderErrors
from .toolnames import ToolNameCodec

#: Where the raw text of undecodable tool-call arguments is kept, in `ToolCall.arguments`.
RAW_ARGUMENTS_KEY = "__raw_arguments__"


def wire_tool(tool: ToolSpec, names: ToolNameCodec) -> JsonObject:
    function: JsonObject = {"name": names.encode(tool.name), "parameters": tool.parameters}
    if tool.description:
        function["description"] = tool.description
    return {"type": "function", "function": function}


def wire_message(message: ChatMessage, names: ToolNameCodec) -> JsonObject:
    content = message.content if message.content is not None or message.role == "assistant" else ""
    out: JsonObject = {"role": message.role, "content": content}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": names.encode(call.name), "arguments": encode_arguments(call.arguments)},
            }
            for call in message.tool_calls
        ]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    return out


def encode_arguments(arguments: JsonObject) -> str:
    raw = arguments.get(RAW_ARGUMENTS_KEY)
    if len(arguments) == 1 and isinstance(raw, str):
        return raw
    return json.dumps(arguments, ensure_ascii=False)


def decode_arguments(arguments: JsonValue) -> JsonObject:
    if isinstance(arguments, dict):
        return arguments
    if arguments is None or arguments == "":
        return {}
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except ValueError:
            decoded = None
        if isinstance(decoded, dict):
            return decoded
        return {RAW_ARGUMENTS_KEY: arguments}
    return {RAW_ARGUMENTS_KEY: json.dumps(arguments)}


def content_text(message: JsonObject) -> Optional[str]:
    content = message.get("content")
    if isinstance(content, str) or content is None:
        return content
    if isinstance(content, list):
        # Some providers answer with content parts; the text parts are the answer.
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return str(content)


def usage_of(data: JsonObject) -> Usage:
    usage = data.get("usage")
    if not isinstance(usage, dict):
        return Usage()
    prompt = _non_negative(usage.get("prompt_tokens"))
    completion = _non_negative(usage.get("completion_tokens"))
    return Usage(
        prompt_tokens=int(prompt) if prompt is not None else 0,
        completion_tokens=int(completion) if completion is not None else 0,
        cost_usd=_non_negative(usage.get("cost")),
        reasoning_tokens=_detail_tokens(usage, "completion_tokens_details", "reasoning_tokens"),
        cached_tokens=_detail_tokens(usage, "prompt_tokens_details", "cached_tokens"),
    )


def non_negative_count(value: Any) -> Optional[int]:
    """A token count from a provider's JSON: a whole number >= 0, else None."""
    number = _non_negative(value)
    return int(number) if number is not None else None


def reasoning_of(message: JsonObject) -> Optional[str]:
    """The reasoning text some servers put beside the answer: `reasoning_content` (DeepSeek, vLLM,
    llama.cpp, xAI) or `reasoning` (Groq, OpenRouter)."""
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def truncated(data: JsonObject) -> bool:
    """Whether the first choice stopped at the token limit (`finish_reason: "length"`)."""
    choices = data.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    return isinstance(first, dict) and first.get("finish_reason") == "length"


def _detail_tokens(usage: JsonObject, group: str, key: str) -> Optional[int]:
    details = usage.get(group)
    if details is None:  # most answers carry no details: spare the checks
        return None
    value = _non_negative(details.get(key)) if isinstance(details, dict) else None
    return int(value) if value is not None else None


def served_by_of(data: JsonObject) -> Optional[ServedBy]:
    model, provider = data.get("model"), data.get("provider")
    model = model if isinstance(model, str) and model else None
    provider = provider if isinstance(provider, str) and provider else None
    return ServedBy(model=model, provider=provider) if model or provider else None


def _non_negative(value: Any) -> Optional[float]:
    """A finite number >= 0 from a provider's JSON, or None for anything else (bools included)."""
    kind = type(value)
    if kind is int:  # the usual token count: no finiteness check needed, only the range
        try:
            return float(value) if value >= 0 else None
        except OverflowError:
            return None
    if kind is bool or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) and number >= 0 else None


def error_message(data: JsonValue) -> Optional[str]:
    """The message of an OpenAI-shaped error body (`{"error": {"message": ...}}`), if there is one."""
    if not isinstance(data, dict):
        return None
    error = data.get("error", data)
    message = error.get("message") if isinstance(error, dict) else error
    return message if isinstance(message, str) and message.strip() else None


def first_message(data: JsonObject, errors: ProviderErrors) -> JsonObject:
    """The message of the answer's first choice; an error when the answer has none."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        error = data.get("error")
        if error is not None:
            # OpenRouter reports some upstream failures as a 200 whose body is an error.
            code = error.get("code") if isinstance(error, dict) else None
            status = code if isinstance(code, int) and not isinstance(code, bool) else 0
            raise errors.status(status, error_message(data) or "error without a message", None)
        raise errors.error("the response has no choices", retryable=True, kind=MalformedResponseError)
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    if not isinstance(message, dict):
        raise errors.error("the response's first choice has no message", retryable=True, kind=MalformedResponseError)
    return message


def tool_calls_of(message: JsonObject, names: ToolNameCodec, errors: ProviderErrors) -> list[ToolCall]:
    """The answer's tool calls, with the names the benchmark gave its tools."""
    wire_calls = message.get("tool_calls") or []
    if not isinstance(wire_calls, list):
        raise errors.error("the response's tool_calls is not a list")
    calls = []
    for position, wire in enumerate(wire_calls):
        function = wire.get("function") if isinstance(wire, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(function, dict) or not isinstance(name, str):
            raise errors.error(f"tool call #{position + 1} in the response has no function name")
        call_id = wire.get("id")
        calls.append(
            ToolCall(
                name=names.decode(name),
                arguments=decode_arguments(function.get("arguments")),
                id=call_id if isinstance(call_id, str) else "",
            )
        )
    return calls
