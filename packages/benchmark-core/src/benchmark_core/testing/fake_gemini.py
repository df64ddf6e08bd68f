"""A scriptable Gemini generateContent server for tests: real HTTP on 127.0.0.1, following the
published API reference (https://ai.google.dev/api/generate-content, with
https://ai.google.dev/gemini-api/docs/function-calling, https://ai.google.dev/gemini-api/docs/thinking
and https://ai.google.dev/gemini-api/docs/troubleshooting for the error statuses).

    async with FakeGemini([GeminiResponse.error(503, "overloaded"), GeminiResponse.text("4")]) as server:
        adapter = gemini_adapter("gemini-fake", api_key="AIza-test", base_url=server.base_url)

`POST /v1beta/models/{model}:generateContent` (and the same under `/v1`) is checked as the API checks it (a 400
`INVALID_ARGUMENT` otherwise): `contents` with roles `user` and `model` and non-empty `parts`; tools
as `functionDeclarations` with valid names and exactly one of `parameters` and
`parametersJsonSchema`; every `functionCall` answered by a `functionResponse` of the same name (an
object `response`) in the next content, and none without one; with thinking on, each function call
this server answered sent back with its `thoughtSignature`. `models`, when given, is the set of known
models: others get a 404 `NOT_FOUND`.

Field names are read in lowerCamel or, as proto JSON allows and the google-genai SDK sends some,
snake_case (recorded requests hold lowerCamel). Answers are scripted as with `FakeOpenAI`. With
`api_key`, a request whose `x-goog-api-key` differs gets the API's 400 `API_KEY_INVALID`, echoing
the key presented so tests can check redaction.
`usageMetadata` is the scripted one or estimated (4 characters a token), with `thoughtsTokenCount`
for thought parts; `modelVersion` is the requested model. Injected faults (`fault_rate`) are a 429
`RESOURCE_EXHAUSTED`, a 503 `UNAVAILABLE` and a cut-off 200, in turn.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Optional

from attrs import evolve, frozen

from .._model import JsonObject, JsonValue
from ._loopback import LoopbackServer, RecordedRequest, ScriptedResponse
from .fake_anthropic import estimate_tokens

__all__ = ["FakeGemini", "GeminiResponse", "thought_signature_of"]

GENERATE_PATH = "/v1beta/models/{model}:generateContent"
_FUNCTION_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}")
_STATUSES = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


def thought_signature_of(call: JsonValue) -> str:
    """The thought signature this server attaches to a function call it answers with."""
    return hashlib.sha256(f"fake-gemini:{json.dumps(call, sort_keys=True)}".encode()).hexdigest()


@frozen
class GeminiResponse(ScriptedResponse):
    """An answer in generateContent's shape."""

    @classmethod
    def candidate(
        cls, parts: list[JsonObject], *, finish_reason: str = "STOP", usage: Optional[JsonObject] = None
    ) -> GeminiResponse:
        """One candidate with these parts; usage not given is estimated by the server."""
        body: JsonObject = {
            "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": finish_reason, "index": 0}],
            "responseId": "fake-response",
        }
        if usage is not None:
            body["usageMetadata"] = usage
        return cls(body=body)

    @classmethod
    def text(cls, text: str, *, thought: Optional[str] = None, finish_reason: str = "STOP") -> GeminiResponse:
        parts = [{"text": thought, "thought": True}] if thought else []
        return cls.candidate([*parts, {"text": text}], finish_reason=finish_reason)

    @classmethod
    def function_calls(
        cls, calls: Sequence[tuple[str, JsonObject]], *, text: Optional[str] = None, thought: Optional[str] = None
    ) -> GeminiResponse:
        """A turn calling functions: `(name, args)` pairs (without ids, as the API answers)."""
        parts: list[JsonObject] = [{"text": thought, "thought": True}] if thought else []
        parts += [{"text": text}] if text else []
        parts += [{"functionCall": {"name": name, "args": args}} for name, args in calls]
        return cls.candidate(parts)

    @classmethod
    def error(cls, status: int, message: str = "fake failure", *, retry_after: Optional[str] = None) -> GeminiResponse:
        error: JsonObject = {"code": status, "message": message, "status": _STATUSES.get(status, "UNKNOWN")}
        if retry_after is not None:  # as the API says when to retry: RetryInfo, no Retry-After header
            error["details"] = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{retry_after}s"}]
        return cls(status=status, body={"error": error})


class FakeGemini(LoopbackServer):
    """The server; `base_url` is its API root (`--base-url`, without `/v1beta`)."""

    # The adapter speaks v1beta; the reference's stable v1 (the google-genai SDK's default) takes the same body.
    routes = (("POST", GENERATE_PATH), ("POST", GENERATE_PATH.replace("/v1beta/", "/v1/")))

    def __init__(
        self, responses: Iterable[ScriptedResponse] = (), *, models: Optional[Iterable[str]] = None, **options: Any
    ) -> None:
        super().__init__(responses, **options)
        self.models = set(models) if models is not None else None
        self._signed: set[str] = set()

    @property
    def base_url(self) -> str:
        return self.root_url

    def unauthorized(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        presented = request.headers.get("x-goog-api-key", "")
        if presented == self.api_key:
            return None
        refused = GeminiResponse.error(400, f"API key not valid. Please pass a valid API key. ({presented})")
        info = {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}
        assert isinstance(refused.body, dict)
        return evolve(refused, body={"error": {**refused.body["error"], "details": [info]}})

    def error(self, status: int, message: str, *, retry_after: Optional[str] = None) -> ScriptedResponse:
        return GeminiResponse.error(status, message, retry_after=retry_after)

    def injected_fault(self, kind: int) -> ScriptedResponse:
        if kind == 2:
            return GeminiResponse.error(503, "The model is overloaded. Please try again later.")
        return super().injected_fault(kind)

    def malformed_fault(self) -> ScriptedResponse:
        return ScriptedResponse(raw='{"candidates": [{"content": {"par')

    def normalized(self, body: JsonValue) -> JsonValue:
        return camel_request(body)

    def refuse(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        model = _model_of(request.path)
        if self.models is not None and model not in self.models:
            return self.error(404, f"models/{model} is not found for API version v1beta")
        problem = request_problem(request.body, self._signed if _thinking(request.body) else None)
        return self.error(400, problem) if problem is not None else None

    def finish(self, request: RecordedRequest, response: ScriptedResponse) -> ScriptedResponse:
        """The model version, usage estimates and (with thinking on) thought signatures filled in."""
        body = response.body
        if response.status != 200 or not isinstance(body, dict) or not isinstance(request.body, dict):
            return response
        candidates = [dict(c) for c in body.get("candidates") or []]
        parts: list[JsonObject] = []
        if candidates:
            parts = [dict(p) for p in candidates[0]["content"]["parts"]]
            if _thinking(request.body):
                for part in parts:
                    if "functionCall" in part:
                        part["thoughtSignature"] = thought_signature_of(part["functionCall"])
                        self._signed.add(part["thoughtSignature"])
            candidates[0] = {**candidates[0], "content": {"role": "model", "parts": parts}}
        usage = body.get("usageMetadata") or _estimated_usage(request.body, parts)
        filled = {**body, "candidates": candidates, "usageMetadata": usage, "modelVersion": _model_of(request.path)}
        return evolve(response, body=filled)


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def _keys(value: JsonValue, nested: Optional[dict[str, Any]] = None) -> JsonValue:
    """`value`'s keys in lowerCamel (proto JSON accepts a field's original snake_case name too, as
    the google-genai SDK sends some), recursing only into the structural fields `nested` names, so
    that arguments, results and schemas keep their keys."""
    if isinstance(value, list):
        return [_keys(item, nested) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, JsonValue] = {}
    for key, item in value.items():
        name = _camel(key)
        out[name] = _keys(item, (nested or {}).get(name)) if nested and name in nested else item
    return out


_PART: dict[str, Any] = {"functionCall": {}, "functionResponse": {}}
_STRUCTURE: dict[str, Any] = {
    "contents": {"parts": _PART},
    "systemInstruction": {"parts": _PART},
    "tools": {"functionDeclarations": {}},
    "generationConfig": {"thinkingConfig": {}},
    "toolConfig": {"functionCallingConfig": {}},
    "safetySettings": {},
}


def camel_request(body: JsonValue) -> JsonValue:
    """A generateContent body with every structural key in lowerCamel."""
    return _keys(body, _STRUCTURE)


def _model_of(path: str) -> str:
    return path.split("/models/", 1)[-1].removesuffix(":generateContent")


def _thinking(body: JsonValue) -> bool:
    config = body.get("generationConfig") if isinstance(body, dict) else None
    thinking = config.get("thinkingConfig") if isinstance(config, dict) else None
    return isinstance(thinking, dict) and thinking.get("thinkingBudget", -1) != 0


def _estimated_usage(body: JsonObject, parts: list[JsonObject]) -> JsonObject:
    prompt = estimate_tokens([body.get("contents"), body.get("systemInstruction"), body.get("tools")])
    thoughts = [p for p in parts if p.get("thought")]
    answer = [p for p in parts if not p.get("thought")]
    usage: JsonObject = {"promptTokenCount": prompt, "candidatesTokenCount": estimate_tokens(answer) if answer else 0}
    if thoughts:
        usage["thoughtsTokenCount"] = estimate_tokens(thoughts)
    usage["totalTokenCount"] = prompt + usage["candidatesTokenCount"] + usage.get("thoughtsTokenCount", 0)
    return usage


def request_problem(body: JsonValue, signed: Optional[set[str]] = None) -> Optional[str]:
    """What the API would refuse in this body, or None. With `signed` (thinking on), function calls
    this server signed must come back with their signature."""
    if not isinstance(body, dict):
        return "Invalid JSON payload received."
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        return "* GenerateContentRequest.contents: contents is not specified"
    for tools in body.get("tools") or []:
        for declaration in (tools.get("functionDeclarations") or []) if isinstance(tools, dict) else []:
            name = declaration.get("name") if isinstance(declaration, dict) else None
            if not isinstance(name, str) or not _FUNCTION_NAME.fullmatch(name):
                return f"* function_declarations[].name: invalid function name {name!r}"
            if ("parameters" in declaration) == ("parametersJsonSchema" in declaration):
                return f"* function_declarations[{name}]: exactly one of parameters, parametersJsonSchema"
    return _contents_problem(contents, signed)


def _contents_problem(contents: list[JsonValue], signed: Optional[set[str]]) -> Optional[str]:
    pending: list[str] = []
    for position, content in enumerate(contents):
        if not isinstance(content, dict) or content.get("role") not in ("user", "model"):
            return f"* contents[{position}].role: must be user or model"
        parts = content.get("parts")
        if not isinstance(parts, list) or not parts or not all(isinstance(p, dict) for p in parts):
            return f"* contents[{position}].parts: must not be empty"
        responses = [p["functionResponse"] for p in parts if "functionResponse" in p]
        names = [r.get("name") if isinstance(r, dict) else None for r in responses]
        if sorted(map(str, names)) != sorted(pending):
            return (
                f"* contents[{position}]: the number of function response parts must equal the number of "
                f"function call parts of the function call turn ({sorted(pending)} called, {names} answered)"
            )
        if any(not isinstance(r, dict) or not isinstance(r.get("response"), dict) for r in responses):
            return f"* contents[{position}]: functionResponse.response must be an object"
        calls = [p for p in parts if "functionCall" in p]
        if calls and content["role"] != "model":
            return f"* contents[{position}]: function calls come from the model"
        for part in calls:
            signature = part.get("thoughtSignature")
            if signed is not None and thought_signature_of(part["functionCall"]) in signed and signature not in signed:
                return f"* contents[{position}]: Function call is missing a thought_signature"
        pending = [str(p["functionCall"].get("name")) for p in calls if isinstance(p["functionCall"], dict)]
    return None
