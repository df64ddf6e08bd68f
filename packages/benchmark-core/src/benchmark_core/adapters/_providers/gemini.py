"""Google's Gemini API, natively: `POST {base_url}/v1beta/models/{model}:generateContent` with the
key in `x-goog-api-key` (https://ai.google.dev/api/generate-content); requests built from the core
model, answers read back. The key goes only into its header (never into the URL's `?key=`, which
would reach logs). 429 (`RESOURCE_EXHAUSTED`, its wait in the body's `RetryInfo.retryDelay` rather
than a header), 503 and other 5xx are retried; 400 (`INVALID_ARGUMENT`; `API_KEY_INVALID` is a
refused key), 401, 403 (`PERMISSION_DENIED`) and 404 end the run.

Google's OpenAI-compatible endpoint was not used: this wire reads `thoughtsTokenCount`, keeps
thought signatures for multi-turn function calling, and sends JSON Schema through
`parametersJsonSchema`, none of which that endpoint's documented subset promises.

- System messages go into `systemInstruction`; user turns are `user` contents with a text part;
  an assistant turn is a `model` content: the parts the model returned, kept verbatim under
  `provider_state["gemini"]` (thought summaries and the thought signatures Gemini requires back with
  function calls), else text and `functionCall` parts; tool results are `functionResponse` parts of
  one `user` content, named after the call they answer.
- A tool result is sent as `response`: the result's JSON object as is, anything else (a JSON value
  or plain text) as `{"output": value}`, the key the reference names for a function's output.
- Tools are one `{"functionDeclarations": [...]}` whose parameters travel as
  `parametersJsonSchema`: the field that takes JSON Schema as written, where `parameters` takes only
  Gemini's OpenAPI subset, into which benchmark schemas (`additionalProperties`, `const`, `oneOf`)
  would have to be cut down.
- Calls without an `id` get `gemini-call-<turn>-<n>`, unique in the conversation, so that their
  results can be matched to them; only ids Gemini gave are sent back in `functionResponse.id`.
- Settings go into `generationConfig` (`temperature`, `topP`, `maxOutputTokens`, `seed`); reasoning
  effort into `thinkingConfig`: a `thinkingBudget` from `THINKING_BUDGETS` ("none": 0, off where the
  model allows it) with `includeThoughts`, so the transcript keeps the thought summaries.
- Usage: `promptTokenCount` (cached content included) as prompt tokens,
  `cachedContentTokenCount` as cached ones, `candidatesTokenCount` plus `thoughtsTokenCount` as
  completion tokens, of which `thoughtsTokenCount` is reasoning.
- `finishReason: "MAX_TOKENS"` marks the answer truncated; a prompt blocked before any candidate
  (`promptFeedback.blockReason`) is an error no retry fixes.
"""

from __future__ import annotations

import json
from typing import Optional, Union
from urllib.parse import quote

from ..._model import ChatMessage, ChatRequest, JsonObject, JsonValue, ServedBy, ToolCall, ToolSpec, Usage
from ...errors._provider import AdapterError, AuthenticationFailedError, MalformedResponseError
from .._chat import ChatAdapter
from .._format import ProviderFormat
from .._json_values import count_in, non_negative_count, tool_call
from .._prices import Prices
from .._provider_errors import ProviderErrors
from .._toolnames import ToolNameCodec
from ..base import GenerationSettings
from ..catalog import PROVIDERS_BY_NAME

__all__ = ["GEMINI_BASE_URL", "FORMAT", "GeminiAdapter", "GeminiFormat", "gemini_adapter"]

GEMINI_BASE_URL = PROVIDERS_BY_NAME["gemini"].base_url
#: The one adapter, under the name it had when it was Gemini's own class.
GeminiAdapter = ChatAdapter

#: Thinking budgets (`thinkingConfig.thinkingBudget`) per reasoning effort.
THINKING_BUDGETS: dict[str, int] = {
    "none": 0,
    "minimal": 512,
    "low": 1024,
    "medium": 8192,
    "high": 24_576,
    "xhigh": 32_768,
}
STATE_KEY = "gemini"
GENERATED_ID_PREFIX = "gemini-call-"


def settings_fields(settings: GenerationSettings) -> JsonObject:
    """`generationConfig` from a run's settings (built once per run), and the extra fields."""
    config: JsonObject = {}
    for key, value in (
        ("temperature", settings.temperature),
        ("topP", settings.top_p),
        ("maxOutputTokens", settings.max_tokens),
        ("seed", settings.seed),
    ):
        if value is not None:
            config[key] = value
    if settings.reasoning_effort is not None:
        budget = THINKING_BUDGETS[settings.reasoning_effort]
        config["thinkingConfig"] = {"thinkingBudget": budget, "includeThoughts": budget > 0}
    body: JsonObject = dict(settings.extra_body)
    if config:
        body["generationConfig"] = {**config, **(body.get("generationConfig") or {})}
    return body


def wire_tools(tools: list[ToolSpec], names: ToolNameCodec) -> list[JsonValue]:
    declarations: list[JsonValue] = []
    for tool in tools:
        declaration: JsonObject = {"name": names.encode(tool.name), "parametersJsonSchema": tool.parameters}
        if tool.description:
            declaration["description"] = tool.description
        declarations.append(declaration)
    return [{"functionDeclarations": declarations}] if declarations else []


def request_fields(messages: list[ChatMessage], tools: list[ToolSpec], names: ToolNameCodec) -> JsonObject:
    """`systemInstruction`, `contents` and `tools` of a request."""
    out: JsonObject = {}
    system = [{"text": m.content} for m in messages if m.role == "system" and m.content]
    if system:
        out["systemInstruction"] = {"parts": system}
    out["contents"] = wire_contents([m for m in messages if m.role != "system"], names)
    wired = wire_tools(tools, names)
    if wired:
        out["tools"] = wired
    return out


def wire_contents(messages: list[ChatMessage], names: ToolNameCodec) -> list[JsonValue]:
    """Messages as `user`/`model` contents, consecutive same-role turns merged."""
    called = {call.id: call.name for m in messages for call in m.tool_calls or []}
    out: list[JsonObject] = []
    for message in messages:
        role = "model" if message.role == "assistant" else "user"
        parts = _parts(message, names, called)
        if out and out[-1]["role"] == role:
            out[-1]["parts"].extend(parts)
        else:
            out.append({"role": role, "parts": parts})
    return list(out)


def _parts(message: ChatMessage, names: ToolNameCodec, called: dict[str, str]) -> list[JsonObject]:
    if message.role == "tool":
        call_id = message.tool_call_id or ""
        response: JsonObject = {"name": names.encode(called.get(call_id, call_id)), "response": _result(message)}
        if call_id and not call_id.startswith(GENERATED_ID_PREFIX):
            response["id"] = call_id
        return [{"functionResponse": response}]
    if message.role != "assistant":
        return [{"text": message.content or ""}]
    state = (message.provider_state or {}).get(STATE_KEY)
    if isinstance(state, list) and state:
        return [dict(part) for part in state if isinstance(part, dict)]
    parts: list[JsonObject] = [{"text": message.content}] if message.content else []
    for call in message.tool_calls or []:
        parts.append({"functionCall": {"name": names.encode(call.name), "args": call.arguments}})
    return parts or [{"text": ""}]


def _result(message: ChatMessage) -> JsonObject:
    text = message.content or ""
    try:
        value = json.loads(text)
    except ValueError:
        return {"output": text}
    return value if isinstance(value, dict) else {"output": value}


def first_candidate(data: JsonObject, errors: ProviderErrors) -> JsonObject:
    """The answer's first candidate; an error when there is none."""
    candidates = data.get("candidates")
    if isinstance(candidates, list) and candidates and isinstance(candidates[0], dict):
        return candidates[0]
    feedback = data.get("promptFeedback")
    reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
    if isinstance(reason, str):
        raise errors.error(f"the prompt was blocked ({reason})", kind=AdapterError)
    raise errors.error("the response has no candidates", retryable=True, kind=MalformedResponseError)


def parts_of(candidate: JsonObject) -> list[JsonObject]:
    content = candidate.get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    return [part for part in parts if isinstance(part, dict)] if isinstance(parts, list) else []


def text_of(parts: list[JsonObject]) -> str:
    return "".join(p["text"] for p in parts if isinstance(p.get("text"), str) and not p.get("thought"))


def reply_of(parts: list[JsonObject], names: ToolNameCodec, turn: int, errors: ProviderErrors) -> ChatMessage:
    """The assistant turn: text, tool calls (the benchmark's names), thoughts, the parts kept for replay."""
    thoughts: list[str] = []
    calls: list[ToolCall] = []
    for part in parts:
        call = part.get("functionCall")
        if part.get("thought") and isinstance(part.get("text"), str):
            thoughts.append(part["text"])
        elif isinstance(call, dict):
            name = call.get("name")
            if not isinstance(name, str):
                raise errors.error(f"functionCall #{len(calls) + 1} in the response has no name")
            generated = f"{GENERATED_ID_PREFIX}{turn}-{len(calls)}"
            calls.append(tool_call(names, name, call.get("args"), call.get("id"), generated))
    text = text_of(parts)
    return ChatMessage(
        role="assistant",
        content=text if text or not calls else None,
        tool_calls=calls or None,
        reasoning="\n\n".join(thoughts) if thoughts else None,
        provider_state={STATE_KEY: list(parts)} if parts else None,
    )


def truncated(candidate: JsonObject) -> bool:
    return candidate.get("finishReason") == "MAX_TOKENS"


def retry_delay(data: object) -> Optional[str]:
    """The seconds of a Google error's `RetryInfo` (`{"error": {"details": [{"retryDelay": "27s"}]}}`,
    what Gemini sends with a 429 instead of a Retry-After header), as Retry-After text; else None."""
    delay = _google_details(data, "retryDelay")
    return delay[:-1] if delay is not None and delay.endswith("s") else None


def _google_details(data: object, key: str) -> Optional[str]:
    """The first string under `key` in a Google error's `details` (RetryInfo, ErrorInfo), or None."""
    error = data.get("error") if isinstance(data, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else []:
        value = detail.get(key) if isinstance(detail, dict) else None
        if isinstance(value, str):
            return value
    return None


class GeminiFormat(ProviderFormat):
    """generateContent: `base_url` is the API root (without `/v1beta`); the model id may carry the
    `models/` prefix."""

    #: Gemini sends no rate-limit headers; its 429 says how long to wait in the body.
    rate_limit_families = ()

    def headers(self, api_key: str) -> dict[str, str]:
        return {"x-goog-api-key": api_key}

    def endpoint(self, base_url: str, model: str) -> str:
        return f"{base_url}/v1beta/models/{quote(model.removeprefix('models/'), safe='')}:generateContent"

    def settings_fields(self, settings: GenerationSettings, model: str, errors: ProviderErrors) -> JsonObject:
        return settings_fields(settings)

    def prompt_fields(self, prompt: str) -> JsonObject:
        return {"contents": [{"role": "user", "parts": [{"text": prompt}]}]}

    def chat_fields(self, request: ChatRequest, names: ToolNameCodec) -> JsonObject:
        return request_fields(list(request.messages), list(request.tools), names)

    def check(self, data: JsonObject, errors: ProviderErrors) -> None:
        first_candidate(data, errors)

    def completion(self, data: JsonObject, errors: ProviderErrors) -> tuple[str, bool]:
        candidate = first_candidate(data, errors)
        return text_of(parts_of(candidate)), truncated(candidate)

    def reply(
        self, data: JsonObject, request: ChatRequest, names: ToolNameCodec, errors: ProviderErrors
    ) -> tuple[ChatMessage, bool]:
        candidate = first_candidate(data, errors)
        turn = sum(1 for message in request.messages if message.role == "assistant")
        return reply_of(parts_of(candidate), names, turn, errors), truncated(candidate)

    def usage(self, data: JsonObject) -> Usage:
        usage = data.get("usageMetadata")
        if not isinstance(usage, dict):
            return Usage()
        thoughts = non_negative_count(usage.get("thoughtsTokenCount"))
        candidates = non_negative_count(usage.get("candidatesTokenCount")) or 0
        return Usage(
            prompt_tokens=non_negative_count(usage.get("promptTokenCount")) or 0,
            completion_tokens=candidates + (thoughts or 0),
            reasoning_tokens=thoughts,
            cached_tokens=non_negative_count(usage.get("cachedContentTokenCount")),
        )

    def served_by(self, data: JsonObject) -> Optional[ServedBy]:
        model = data.get("modelVersion")
        return ServedBy(model=model) if isinstance(model, str) and model else None

    def used_tokens(self, data: Optional[JsonObject]) -> Optional[int]:
        """`usageMetadata.totalTokenCount`."""
        return count_in(data, "usageMetadata", "totalTokenCount")

    def error(
        self, status: int, data: JsonValue, text: str, retry_after: Union[str, float, None], errors: ProviderErrors
    ) -> AdapterError:
        error = super().error(status, data, text, retry_after if retry_after is not None else retry_delay(data), errors)
        if status == 400 and _google_details(data, "reason") == "API_KEY_INVALID":
            # Google refuses a key with a 400; it is the same mistake as another provider's 401.
            error = AuthenticationFailedError(error.message, status=status, fatal=True)
        return error


#: The format object of the table's rows whose `wire` is "gemini".
FORMAT = GeminiFormat


def gemini_adapter(
    model: str, api_key: Optional[str] = None, *, base_url: Optional[str] = None, prices: Optional[Prices] = None
) -> ChatAdapter:
    """The adapter with its API root and key from the arguments, else the variables of the provider table."""
    return ChatAdapter.from_environment(PROVIDERS_BY_NAME["gemini"], model, api_key, base_url=base_url, prices=prices)
