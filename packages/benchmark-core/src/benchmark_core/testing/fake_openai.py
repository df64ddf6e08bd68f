"""A scriptable OpenAI-compatible server for tests: real HTTP on 127.0.0.1, canned answers.

    async with FakeOpenAI([FakeResponse.error(429, retry_after="0"), FakeResponse.text("4")]) as server:
        adapter = openai_compat_adapter(server.base_url, "fake-model", api_key="sk-test")
        ...
        assert server.requests[1].body["model"] == "fake-model"

Every `POST /v1/chat/completions` takes the next queued `FakeResponse`. Once the queue is empty the
`handler` answers (a callable, sync or async, given the `RecordedRequest`), else `default`, else a 500
that names the request which found nothing scripted, so a test that under-scripts fails loudly.

With `api_key` set, a request without `Authorization: Bearer <api_key>` gets a 401 whose message
echoes the presented key, as some real providers do, so tests can check that adapters redact it.
`cancelled` counts requests whose client hung up before the answer was sent (the handler is
cancelled then), which is how tests see that a timed-out request was really abandoned.

Two modes stand in for a real provider under load:

- `rate_limit=R`: a token bucket of R requests per second (holding up to `burst`, default R); a
  request beyond it gets a 429 with `Retry-After` (whole seconds until the next token, at least 1),
  as providers answer. `rate_limited` counts them. With `ratelimit_headers=True` every answer also
  carries OpenAI's `x-ratelimit-{limit,remaining,reset}-requests` headers and a 429 a precise
  `retry-after-ms`; `token_rate=T` adds a bucket of T tokens a second (holding T), spent by each
  answer's `usage.total_tokens`, with its `-tokens` headers (see `testing.buckets`).
- `fault_rate=p`: each request fails with probability p (seeded by `fault_seed`), in turn a 429 with
  `Retry-After: 1`, a 500, and a 200 whose body is cut off. `faults` counts them.

For synchronous code under test (`asyncio.run`, click's `CliRunner`), `in_thread()` serves from a
background thread instead.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from typing import Any, Optional, Union

import attrs
from attrs import frozen

from .._model import JsonObject
from ._loopback import Handler, LoopbackServer, RecordedRequest, ScriptedResponse
from .buckets import TokenBucket, go_duration

__all__ = ["CHAT_PATH", "FakeOpenAI", "FakeResponse", "Handler", "RecordedRequest", "chat_completion"]

CHAT_PATH = "/v1/chat/completions"


@frozen
class FakeResponse(ScriptedResponse):
    """What the server answers: `body` as JSON, or `raw` text sent as is, after `delay` seconds."""

    @classmethod
    def text(
        cls,
        content: str,
        *,
        prompt_tokens: int = 10,
        completion_tokens: int = 2,
        cost: Optional[float] = None,
        usage: bool = True,
        delay: float = 0.0,
    ) -> FakeResponse:
        """A plain assistant answer. `cost` adds OpenRouter's `usage.cost`; `usage=False` omits usage."""
        message: JsonObject = {"role": "assistant", "content": content}
        return cls(body=chat_completion(message, _usage(usage, prompt_tokens, completion_tokens, cost)), delay=delay)

    @classmethod
    def tool_calls(
        cls,
        calls: Sequence[tuple[str, Union[JsonObject, str]]],
        *,
        content: Optional[str] = None,
        prompt_tokens: int = 10,
        completion_tokens: int = 5,
        cost: Optional[float] = None,
        delay: float = 0.0,
    ) -> FakeResponse:
        """An assistant turn calling tools: `(name, arguments)` pairs with ids `call_0`, `call_1`, ...
        Arguments given as a string are sent verbatim (for undecodable-arguments cases)."""
        wire_calls = [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)},
            }
            for i, (name, args) in enumerate(calls)
        ]
        message: JsonObject = {"role": "assistant", "content": content, "tool_calls": wire_calls}
        return cls(body=chat_completion(message, _usage(True, prompt_tokens, completion_tokens, cost)), delay=delay)

    @classmethod
    def error(
        cls, status: int, message: str = "fake failure", *, retry_after: Optional[str] = None, delay: float = 0.0
    ) -> FakeResponse:
        """An OpenAI-shaped error body with `status`, and a `Retry-After` header when given."""
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        body = {"error": {"message": message, "type": "fake_error", "code": status}}
        return cls(status=status, body=body, headers=headers, delay=delay)

    @classmethod
    def malformed(cls, raw: str = '{"choices": [', *, status: int = 200) -> FakeResponse:
        return cls(status=status, raw=raw)


def chat_completion(message: JsonObject, usage: Optional[JsonObject] = None) -> JsonObject:
    """A `chat.completion` body with one choice holding `message`."""
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    body: JsonObject = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def _usage(include: bool, prompt_tokens: int, completion_tokens: int, cost: Optional[float]) -> Optional[JsonObject]:
    if not include:
        return None
    usage: JsonObject = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if cost is not None:
        usage["cost"] = cost
    return usage


class FakeOpenAI(LoopbackServer):
    """The server. Use as an async context manager (or `in_thread()`); `base_url` ends in `/v1`."""

    routes = (("POST", CHAT_PATH),)
    #: The builder of its answers (a fake of another OpenAI-shaped provider gives its own).
    response_type: type[FakeResponse] = FakeResponse

    def __init__(
        self,
        responses: Iterable[ScriptedResponse] = (),
        *,
        ratelimit_headers: bool = False,
        token_rate: Optional[float] = None,
        **options: Any,
    ) -> None:
        super().__init__(responses, **options)
        self.ratelimit_headers = ratelimit_headers
        self.tokens_bucket = TokenBucket(token_rate) if token_rate is not None else None

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def rate_headers(self) -> dict[str, str]:
        if not self.ratelimit_headers or self.rate_limit is None:
            return {}
        headers = {
            "x-ratelimit-limit-requests": str(int(self.burst)),
            "x-ratelimit-remaining-requests": str(max(0, int(self._tokens))),
            "x-ratelimit-reset-requests": go_duration(max(0.0, self.burst - self._tokens) / self.rate_limit),
        }
        if self.tokens_bucket is not None:
            headers.update(self.tokens_bucket.headers("tokens"))
        return headers

    def refuse(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        bucket = self.tokens_bucket
        if bucket is None:
            return None
        bucket.refill()
        if bucket.level >= 0:
            return None
        self.rate_limited += 1
        return self.error(429, "token rate limit exceeded", retry_after=str(max(1, math.ceil(bucket.wait(0.0)))))

    def finish(self, request: RecordedRequest, response: ScriptedResponse) -> ScriptedResponse:
        if self.tokens_bucket is not None and isinstance(response.body, dict):
            usage = response.body.get("usage")
            used = usage.get("total_tokens") if isinstance(usage, dict) else None
            self.tokens_bucket.spend(float(used) if isinstance(used, int) else 0.0)
        return response

    def unauthorized(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        if request.authorization == f"Bearer {self.api_key}":
            return None
        presented = (request.authorization or "").removeprefix("Bearer ")
        return FakeResponse.error(401, f"Incorrect API key provided: {presented}")

    def error(self, status: int, message: str, *, retry_after: Optional[str] = None) -> ScriptedResponse:
        response = self.response_type.error(status, message, retry_after=retry_after)
        if status == 429 and self.ratelimit_headers and self.rate_limit is not None:
            # OpenAI's precise form of Retry-After: until the request bucket holds a token again.
            wait = max(0.0, 1 - self._tokens) / self.rate_limit
            return attrs.evolve(response, headers={**response.headers, "retry-after-ms": str(math.ceil(wait * 1000))})
        return response

    def malformed_fault(self) -> ScriptedResponse:
        return self.response_type.malformed('{"id": "chatcmpl-fake", "choices": [{"mess')
