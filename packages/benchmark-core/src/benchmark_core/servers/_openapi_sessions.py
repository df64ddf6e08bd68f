"""The OpenAPI description of the episode-session routes (`http_sessions`)."""

from __future__ import annotations

from typing import Any

from .._model import ToolSpec
from ..episodes._session import SESSION_TOOL_ERRORS
from ..errors._requests import RequestTooLargeError
from ..errors._sessions import (
    InvalidSessionRequestError,
    NotAnEpisodeError,
    SessionFinishedError,
    SessionNotFoundError,
    SessionUnauthorizedError,
    TooManySessionsError,
)
from ..errors._tasks import TaskNotFoundError, TasksNotAllowedError
from ..wire._schema import JsonSchema, wire_schema
from ._openapi_parts import codes_text, error_answers, error_response, json_content, ref

#: The tool errors a session's tools answer with: in a tool result, so no HTTP status carries them.
_TOOL_ERRORS_TEXT = (
    "A refused tool call is an MCP tool result with isError, its text `CODE: message`, the code also under "
    '_meta["benchmark-core/error"]. Codes (x-tool-error-codes): '
    + codes_text(SESSION_TOOL_ERRORS)
    + " The environment adds codes of its own (NOT_FOUND, CONFLICT, ...); a finished session's tools answer "
    f"{SessionFinishedError.code}."
)
_BEARER: list[dict[str, list[str]]] = [{"sessionToken": []}]
_SESSION_ID = {"name": "session_id", "in": "path", "required": True, "schema": {"type": "string"}}


def session_security_scheme() -> JsonSchema:
    return {
        "type": "http",
        "scheme": "bearer",
        "description": "The token POST /v1/sessions answered; it reaches that session only.",
    }


def session_schemas(tasks_schema: JsonSchema) -> dict[str, JsonSchema]:
    state: JsonSchema = {
        "type": "object",
        "properties": {
            "sessionId": {"type": "string"},
            "taskId": {"type": "string"},
            "seed": {"type": "integer"},
            "toolCalls": {"type": "integer", "description": "Calls executed (and logged) so far."},
            "maxToolCalls": {"type": "integer", "description": "Calls beyond this are refused (MAX_TOOL_CALLS)."},
            "finished": {"type": "boolean"},
            "score": {"anyOf": [ref("TaskScore"), {"type": "null"}]},
        },
        "required": ["sessionId", "taskId", "seed", "toolCalls", "maxToolCalls", "finished", "score"],
    }
    opened: JsonSchema = {
        "type": "object",
        "properties": {
            **state["properties"],
            "token": {"type": "string", "description": "Bearer token for this session's routes and MCP endpoint."},
            "mcpUrl": {"type": "string", "description": "The session's MCP endpoint (streamable HTTP)."},
            "prompt": {"type": "string"},
            "system": {"type": "string"},
            "tools": {"type": "array", "items": wire_schema(ToolSpec)},
            "idleTimeoutSeconds": {"type": "number"},
        },
        "required": [*state["required"], "token", "mcpUrl", "prompt", "system", "tools", "idleTimeoutSeconds"],
    }
    return {
        "SessionRequest": {
            "type": "object",
            "properties": {
                "taskId": {"type": "string", "minLength": 1, "description": "An episode task's id."},
                "tasks": {"anyOf": [tasks_schema, {"type": "null"}], "description": "An alternate task file."},
                "seed": {"type": "integer", "default": 1, "description": "The environment's (and replay's) seed."},
            },
            "required": ["taskId"],
            "additionalProperties": False,
        },
        "Session": opened,
        "SessionState": state,
        "FinishRequest": {
            "type": "object",
            "properties": {"answer": {"description": "The agent's final answer."}},
            "additionalProperties": False,
        },
    }


def _ok(status: str, schema: str) -> dict[str, Any]:
    return {status: {"description": "OK", "content": json_content(ref(schema))}}


def _json_body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": json_content(ref(schema))}


def session_paths() -> dict[str, Any]:
    """The four session routes."""
    reached = error_answers(SessionUnauthorizedError, SessionNotFoundError)
    return {
        "/v1/sessions": {
            "post": {
                "summary": "Open an episode session: its prompt, tools, MCP endpoint and bearer token",
                "description": "No route lists sessions; each is reached with its own token only.",
                "requestBody": _json_body("SessionRequest"),
                "responses": {
                    **_ok("201", "Session"),
                    "400": error_response(f"{InvalidSessionRequestError.code}, INVALID_JSON or INVALID_TASK_FILE"),
                    **error_answers(
                        TasksNotAllowedError,
                        TaskNotFoundError,
                        RequestTooLargeError,
                        NotAnEpisodeError,
                        TooManySessionsError,
                    ),
                },
            }
        },
        "/v1/sessions/{session_id}": {
            "get": {
                "summary": "A session's state: calls so far, and its score once finished",
                "parameters": [_SESSION_ID],
                "security": _BEARER,
                "responses": {**_ok("200", "SessionState"), **reached},
            }
        },
        "/v1/sessions/{session_id}/finish": {
            "post": {
                "summary": "Finish a session with the agent's answer: its score, graded by replaying its log",
                "parameters": [_SESSION_ID],
                "security": _BEARER,
                "requestBody": _json_body("FinishRequest"),
                "responses": {
                    **_ok("200", "TaskScore"),
                    **error_answers(InvalidSessionRequestError),
                    **reached,
                    **error_answers(SessionFinishedError),
                },
            }
        },
        "/v1/sessions/{session_id}/mcp": {
            method: {
                "summary": "The session's MCP endpoint (streamable HTTP, JSON responses): exactly the episode's tools",
                "description": _TOOL_ERRORS_TEXT,
                "x-tool-error-codes": dict(SESSION_TOOL_ERRORS),
                "parameters": [_SESSION_ID],
                "security": _BEARER,
                "responses": {"200": {"description": "An MCP JSON-RPC response"}, **reached},
            }
            for method in ("post", "get", "delete")
        },
    }
