"""A scriptable Anthropic Messages server for tests: real HTTP on 127.0.0.1, following the
published API reference (https://docs.anthropic.com/en/api/messages, with
https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking,
https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching,
https://docs.anthropic.com/en/api/errors and https://docs.anthropic.com/en/api/rate-limits).

    async with FakeAnthropic([AnthropicResponse.overloaded(), AnthropicResponse.text("4")]) as server:
        adapter = anthropic_adapter("claude-fake", api_key="sk-ant-test", base_url=server.base_url)

`POST /v1/messages` is checked as the API checks it before answering (a 400
`invalid_request_error` otherwise): an `anthropic-version` header (a date; the adapter sends
2023-06-01, newer SDKs later ones); `model`, `max_tokens` and
`messages`; tools with valid names and an object `input_schema`; every `tool_use` answered by a
`tool_result` in the next message and every `tool_result` answering one; with `thinking` enabled, a
budget of at least 1,024 tokens below `max_tokens`, no temperature but 1, `top_p` from 0.95 to 1, and
every assistant turn with `tool_use` starting with the thinking block this server signed (signature
unchanged). `models`, when given, is the set of known models: others get a 404 `not_found_error`.

Answers are scripted as with `FakeOpenAI` (queue, handler, default; `api_key` makes a wrong key a
401 `authentication_error` echoing it, so tests can check redaction). Usage is the scripted one, or
estimated from the request (4 characters a token); with `cache_control` in the request, the prefix
up to the marked block (tools, then system) is written to the server's prompt cache on first sight
and read from it after, as `cache_creation_input_tokens` and `cache_read_input_tokens`, when it
reaches `cache_min_tokens` (the reference's 1,024 by default); an answer with thinking reports its
`output_tokens_details.thinking_tokens`. Every answer carries
`anthropic-ratelimit-requests-*` headers (limit, remaining, reset) from the token bucket when
`rate_limit` is set. A request with `"stream": true` gets the answer as server-sent events
(`_anthropic_stream`), as the official SDK asks for long requests. Injected faults (`fault_rate`)
are a 429 with `retry-after`, a 529 `overloaded_error` and a cut-off 200, in turn.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, Optional

from attrs import evolve, frozen

from .._model import JsonObject, JsonValue
from ._anthropic_stream import sse_events
from ._loopback import LoopbackServer, RecordedRequest, ScriptedResponse

__all__ = ["MESSAGES_PATH", "AnthropicResponse", "FakeAnthropic", "signature_of"]

MESSAGES_PATH = "/v1/messages"
_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_VERSION = re.compile(r"20[2-9][0-9]-[01][0-9]-[0-3][0-9]")
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def signature_of(thinking: str) -> str:
    """The signature this server gives a thinking block (the real API's is opaque too)."""
    return hashlib.sha256(f"fake-anthropic:{thinking}".encode()).hexdigest()


def estimate_tokens(value: JsonValue) -> int:
    return max(1, len(json.dumps(value, ensure_ascii=False)) // 4)


@frozen
class AnthropicResponse(ScriptedResponse):
    """An answer in the Messages API's shape."""

    @classmethod
    def reply(
        cls,
        content: list[JsonObject],
        *,
        stop_reason: str = "end_turn",
        input_tokens: Optional[int] = None,
        output_tokens: Optional[int] = None,
        delay: float = 0.0,
    ) -> AnthropicResponse:
        """A `message` with these content blocks; usage not given is estimated by the server."""
        body: JsonObject = {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": None,  # the requested model, filled in by the server
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        }
        return cls(body=body, delay=delay)

    @classmethod
    def text(
        cls, text: str, *, thinking: Optional[str] = None, stop_reason: str = "end_turn", **usage: Any
    ) -> AnthropicResponse:
        return cls.reply([*_thinking(thinking), {"type": "text", "text": text}], stop_reason=stop_reason, **usage)

    @classmethod
    def tool_use(
        cls,
        calls: Sequence[tuple[str, JsonObject]],
        *,
        text: Optional[str] = None,
        thinking: Optional[str] = None,
        **usage: Any,
    ) -> AnthropicResponse:
        """A turn calling tools: `(name, input)` pairs with ids `toolu_0`, `toolu_1`, ..."""
        blocks = [*_thinking(thinking), *([{"type": "text", "text": text}] if text else [])]
        blocks += [{"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]
        return cls.reply(blocks, stop_reason="tool_use", **usage)

    @classmethod
    def error(
        cls, status: int, message: str = "fake failure", *, retry_after: Optional[str] = None
    ) -> AnthropicResponse:
        headers = {"retry-after": retry_after} if retry_after is not None else {}
        error_type = _ERROR_TYPES.get(status, "api_error")
        return cls(
            status=status, body={"type": "error", "error": {"type": error_type, "message": message}}, headers=headers
        )

    @classmethod
    def overloaded(cls) -> AnthropicResponse:
        return cls.error(529, "Overloaded")


def _thinking(thinking: Optional[str]) -> list[JsonObject]:
    return [] if thinking is None else [{"type": "thinking", "thinking": thinking, "signature": signature_of(thinking)}]


class FakeAnthropic(LoopbackServer):
    """The server; `base_url` is its API root (what `ANTHROPIC_BASE_URL` holds, without `/v1`)."""

    routes = (("POST", MESSAGES_PATH),)

    def __init__(
        self,
        responses: Iterable[ScriptedResponse] = (),
        *,
        models: Optional[Iterable[str]] = None,
        cache_min_tokens: int = 1024,
        **options: Any,
    ) -> None:
        super().__init__(responses, **options)
        self.models = set(models) if models is not None else None
        self.cache_min_tokens = cache_min_tokens
        self._prompt_cache: set[str] = set()

    @property
    def base_url(self) -> str:
        return self.root_url

    def unauthorized(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        # The key, or an auth token as `Authorization: Bearer` (what gateways and ANTHROPIC_AUTH_TOKEN use).
        presented = request.headers.get("x-api-key") or (request.authorization or "").removeprefix("Bearer ")
        if presented == self.api_key:
            return None
        return AnthropicResponse.error(401, f"invalid x-api-key: {presented}")

    def error(self, status: int, message: str, *, retry_after: Optional[str] = None) -> ScriptedResponse:
        return AnthropicResponse.error(status, message, retry_after=retry_after)

    def injected_fault(self, kind: int) -> ScriptedResponse:
        if kind == 2:
            return AnthropicResponse.overloaded()
        return super().injected_fault(kind)

    def malformed_fault(self) -> ScriptedResponse:
        return ScriptedResponse(raw='{"id": "msg_fake", "type": "message", "content": [{"ty')

    def rate_headers(self) -> dict[str, str]:
        limit = self.burst if self.rate_limit else 4000.0
        remaining = self._tokens if self.rate_limit else limit
        seconds = (limit - remaining) / self.rate_limit if self.rate_limit else 0.0
        reset = datetime.now(timezone.utc) + timedelta(seconds=seconds)
        return {
            "anthropic-ratelimit-requests-limit": str(int(limit)),
            "anthropic-ratelimit-requests-remaining": str(max(0, int(remaining))),
            "anthropic-ratelimit-requests-reset": reset.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }

    def refuse(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        if not _VERSION.fullmatch(request.headers.get("anthropic-version", "")):
            return self.error(400, "anthropic-version: header is required (a date such as 2023-06-01)")
        problem = request_problem(request.body, self.models is None)
        if problem is not None:
            return self.error(400, problem)
        body = request.body
        assert isinstance(body, dict)
        if self.models is not None and body["model"] not in self.models:
            return self.error(404, f"model: {body['model']}")
        return None

    def finish(self, request: RecordedRequest, response: ScriptedResponse) -> ScriptedResponse:
        """The requested model and the usage (estimated, split by the prompt cache) filled in."""
        body = response.body
        if response.status != 200 or not isinstance(body, dict) or not isinstance(request.body, dict):
            return response
        usage = dict(body.get("usage") or {})
        total = usage.get("input_tokens")
        if total is None:
            total = estimate_tokens(request.body.get("messages")) + estimate_tokens(request.body.get("system", ""))
            total += estimate_tokens(request.body.get("tools", []))
        if usage.get("output_tokens") is None:
            usage["output_tokens"] = estimate_tokens(body.get("content"))
        thoughts = [b for b in body.get("content") or [] if isinstance(b, dict) and b.get("type") == "thinking"]
        if thoughts and "output_tokens_details" not in usage:
            usage["output_tokens_details"] = {"thinking_tokens": min(usage["output_tokens"], estimate_tokens(thoughts))}
        read, written = self._cache_split(request.body)
        usage.update(input_tokens=max(0, total - read - written))
        usage.update(cache_creation_input_tokens=written, cache_read_input_tokens=read)
        message = {**body, "model": body.get("model") or request.body["model"], "usage": usage}
        if request.body.get("stream") is True:
            return evolve(response, body=None, raw=sse_events(message), content_type="text/event-stream")
        return evolve(response, body=message)

    def _cache_split(self, body: JsonObject) -> tuple[int, int]:
        """(tokens read from the prompt cache, tokens written to it) for this request's prefix."""
        prefix: list[JsonValue] = []
        marked = None
        for block in [*(body.get("tools") or []), *_system_blocks(body)]:
            prefix.append(block)
            if isinstance(block, dict) and "cache_control" in block:
                marked = len(prefix)
        if marked is None:
            return 0, 0
        cached = prefix[:marked]
        tokens = estimate_tokens(cached)
        if tokens < self.cache_min_tokens:
            return 0, 0
        key = hashlib.sha256(json.dumps([body.get("model"), cached], sort_keys=True).encode()).hexdigest()
        if key in self._prompt_cache:
            return tokens, 0
        self._prompt_cache.add(key)
        return 0, tokens


def _system_blocks(body: JsonObject) -> list[JsonValue]:
    system = body.get("system")
    if isinstance(system, str):
        return [{"type": "text", "text": system}]
    return list(system) if isinstance(system, list) else []


def request_problem(body: JsonValue, any_model: bool = True) -> Optional[str]:
    """What the API would refuse in this body, or None."""
    if not isinstance(body, dict):
        return "the body is not a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    max_tokens = body.get("max_tokens")
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        return "max_tokens: field required (an integer >= 1)"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict) or not _TOOL_NAME.fullmatch(str(tool.get("name"))):
            return f"tools: name must match ^[a-zA-Z0-9_-]{{1,64}}$: {tool!r:.80}"
        schema = tool.get("input_schema")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            return f"tools.{tool['name']}.input_schema: type must be 'object'"
    return _thinking_problem(body) or _turns_problem(messages, isinstance(body.get("thinking"), dict))


def _thinking_problem(body: JsonObject) -> Optional[str]:
    thinking = body.get("thinking")
    if thinking is None:
        return None
    if not isinstance(thinking, dict) or thinking.get("type") not in ("enabled", "disabled"):
        return "thinking: type must be 'enabled' or 'disabled'"
    if thinking["type"] == "disabled":
        return None
    budget = thinking.get("budget_tokens")
    if not isinstance(budget, int) or budget < 1024:
        return "thinking.budget_tokens: must be at least 1024"
    if budget >= body["max_tokens"]:
        return "max_tokens must be greater than thinking.budget_tokens"
    if body.get("temperature", 1) != 1:
        return "temperature may only be set to 1 when thinking is enabled"
    top_p = body.get("top_p", 1)
    if not isinstance(top_p, (int, float)) or not 0.95 <= top_p <= 1:
        return "top_p must be between 0.95 and 1 when thinking is enabled"
    return None


def _turns_problem(messages: list[JsonValue], thinking: bool) -> Optional[str]:
    """Roles, and tool_use blocks answered by tool_result blocks in the very next message."""
    if not isinstance(messages[0], dict) or messages[0].get("role") != "user":
        return "messages: the first message must use the user role"
    pending: set[str] = set()
    for position, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            return f"messages.{position}.role: must be 'user' or 'assistant'"
        blocks = _content_blocks(message.get("content"))
        if blocks is None:
            return f"messages.{position}.content: must be a string or a list of content blocks"
        results = {str(b.get("tool_use_id")) for b in blocks if b.get("type") == "tool_result"}
        if results != pending and (pending or results):
            return (
                f"messages.{position}: tool_use ids {sorted(pending)} were found without tool_result blocks "
                f"immediately after, or tool_result blocks {sorted(results - pending)} answer no tool_use"
            )
        pending = {str(b.get("id")) for b in blocks if b.get("type") == "tool_use"}
        if pending and message["role"] != "assistant":
            return f"messages.{position}: tool_use blocks are only for the assistant"
        if pending and thinking and not _signed_first(blocks):
            return (
                f"messages.{position}.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
                f"`{blocks[0].get('type')}`. When `thinking` is enabled, an assistant message with tool_use "
                "must start with the thinking block it was answered with, signature unchanged"
            )
    return f"messages: tool_use ids {sorted(pending)} have no tool_result" if pending else None


def _content_blocks(content: JsonValue) -> Optional[list[JsonObject]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list) and all(isinstance(block, dict) for block in content):
        return list(content)
    return None


def _signed_first(blocks: list[JsonObject]) -> bool:
    first = blocks[0]
    if first.get("type") == "redacted_thinking":
        return True
    thinking = first.get("thinking")
    return (
        first.get("type") == "thinking"
        and isinstance(thinking, str)
        and first.get("signature") == signature_of(thinking)
    )
