"""The OpenAPI 3.1 description of the HTTP API, with schemas derived from the wire model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..__about__ import __version__
from .._model import IndexEntry, Task, TaskScore
from ..data._taskfiles import remote_task_names
from ..errors._catalogue import error_classes
from ..errors._requests import RequestTooLargeError
from ..errors._tasks import TaskNotFoundError, TasksNotAllowedError
from ..wire._schema import JsonSchema, wire_schema
from ..wire._submission import MAX_NESTING, submission_schema
from ._documents import health_document_schema, provenance_document_schema, task_list_schema
from ._openapi_parts import codes_text, error_answers, error_response, json_content, ref
from ._openapi_sessions import session_paths, session_schemas, session_security_scheme

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark


def http_error_codes() -> dict[str, str]:
    """The codes the HTTP API can answer with, each as `"STATUS: meaning"` (several statuses for a
    code several classes share, e.g. INVALID_SUBMISSION), in the order `errors._catalogue.error_classes` lists them."""
    meanings: dict[str, dict[int, str]] = {}
    for cls in error_classes():
        if cls.http_meaning is not None:
            meanings.setdefault(cls.code, {})[cls.http_status] = cls.http_meaning
    return {
        code: " ".join(f"{status}: {meaning}" for status, meaning in sorted(by_status.items()))
        for code, by_status in meanings.items()
    }


#: The codes the HTTP API answers with and what each means, generated from the classes of `benchmark_core.errors`.
ERROR_CODES: dict[str, str] = http_error_codes()


def error_schema() -> JsonSchema:
    return {
        "type": "object",
        "properties": {
            "error": {
                "type": "object",
                "properties": {
                    "code": {
                        "type": "string",
                        "description": "Stable machine-readable code.",
                        "examples": list(ERROR_CODES),
                    },
                    "message": {"type": "string", "description": "What went wrong, for people."},
                },
                "required": ["code", "message"],
                "additionalProperties": False,
            }
        },
        "required": ["error"],
        "additionalProperties": False,
    }


def tasks_name_schema(benchmark: Benchmark) -> JsonSchema:
    """The values a `tasks` argument may take: the names `remote_task_names` lists when the
    document is built (any other name is refused with 400 or 403, so the schema says so)."""
    names = remote_task_names(benchmark)
    return {"type": "string", "enum": names} if names else {"not": {}}


def openapi_document(benchmark: Benchmark, *, max_body_bytes: int, scoring: bool = True) -> dict[str, Any]:
    """The document `GET /openapi.json` serves: every route with its parameters, its answers and the
    error codes it may give, and the schemas of the documents, derived from the wire model. With
    `scoring=False` (plain `serve`) it leaves out `POST /v1/score`, which that server does not answer."""
    tasks = _tasks_parameter(benchmark)
    paths = _paths(tasks, max_body_bytes)
    if not scoring:
        del paths["/v1/score"]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": f"{benchmark.name} API",
            "version": benchmark.version,
            "summary": benchmark.tagline,
            "description": f"{benchmark.what_it_measures} Served by benchmark-core {__version__}.",
        },
        "paths": _with_default_error({**paths, **session_paths()}),
        "components": {
            "schemas": {
                "Error": error_schema(),
                "Health": health_document_schema(),
                "Task": wire_schema(Task),
                "TaskList": task_list_schema(),
                "Trace": submission_schema(),
                "ScoreRequest": _score_request_schema(benchmark, tasks["description"]),
                "TaskScore": wire_schema(TaskScore),
                "ProvenanceDocument": provenance_document_schema(),
                "IndexEntry": wire_schema(IndexEntry),
                **session_schemas(tasks_name_schema(benchmark)),
            },
            "securitySchemes": {"sessionToken": session_security_scheme()},
        },
    }


def _tasks_parameter(benchmark: Benchmark) -> dict[str, Any]:
    """The `tasks` query parameter of every route that reads tasks."""
    return {
        "name": "tasks",
        "in": "query",
        "required": False,
        "description": (
            "An alternate JSONL task file: a bare name is looked up in the benchmark's data/ folder "
            "(.jsonl may be left out); any other path must be listed in the "
            f"{benchmark.tasks_allow_env or '(no allow-list variable defined)'} environment variable "
            "(colon-separated). The values listed are the files of data/ and the allow-listed paths when the "
            "server started; any other value is refused (INVALID_TASK_FILE or TASKS_NOT_ALLOWED)."
        ),
        "schema": tasks_name_schema(benchmark),
    }


def _paths(tasks: dict[str, Any], max_body_bytes: int) -> dict[str, Any]:
    task_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "/": {
            "get": {
                "summary": "Browse the tasks and score answers in a browser (an HTML page posting to /v1/score)",
                "responses": {"200": {"description": "OK", "content": {"text/html": {"schema": {"type": "string"}}}}},
            }
        },
        "/health": _get("Package identity and health", ref("Health")),
        "/v1/tasks": _get("All tasks", ref("TaskList"), tasks),
        "/v1/tasks/{id}": _get(
            "One task",
            ref("Task"),
            tasks,
            path=task_id,
            errors=error_answers(TaskNotFoundError),
        ),
        "/v1/score": {"post": _score_operation(max_body_bytes)},
        "/v1/provenance": _get("Data sources", ref("ProvenanceDocument"), tasks),
        "/v1/index-entry": _get("Directory entry", ref("IndexEntry"), tasks),
        "/openapi.json": _get("This document", {"type": "object"}),
    }


def _get(
    summary: str,
    schema: JsonSchema,
    tasks: Optional[dict[str, Any]] = None,
    *,
    path: Optional[dict[str, Any]] = None,
    errors: Optional[dict[str, Any]] = None,
) -> dict[str, Any]:
    """A GET route answering `schema`; one that reads tasks takes `tasks` and answers the task-file
    errors, then any of its own `errors`."""
    responses: dict[str, Any] = {"200": {"description": "OK", "content": json_content(schema)}}
    if tasks is not None:
        responses["400"] = error_response("INVALID_TASK_FILE or INVALID_DEFINITION")
        responses.update(error_answers(TasksNotAllowedError))
    responses.update(errors or {})
    parameters = ([tasks] if tasks is not None else []) + ([path] if path is not None else [])
    return {"get": {"summary": summary, "parameters": parameters, "responses": responses}}


def _score_operation(max_body_bytes: int) -> dict[str, Any]:
    return {
        "summary": "Deterministic score of one submission",
        "description": (
            f"No authentication: put auth and rate limits in front of public deployments. Bodies over "
            f"{max_body_bytes} bytes are refused."
        ),
        "requestBody": {"required": True, "content": json_content(ref("ScoreRequest"))},
        "responses": {
            "200": {"description": "OK", "content": json_content(ref("TaskScore"))},
            "400": error_response(
                "INVALID_JSON, INVALID_SUBMISSION (malformed request), INVALID_TASK_FILE or INVALID_DEFINITION"
            ),
            **error_answers(TasksNotAllowedError, TaskNotFoundError, RequestTooLargeError),
            "422": error_response(
                f"INVALID_SUBMISSION (the submission is not a valid trace, or nests more than {MAX_NESTING} "
                "levels deep; the message names the JSON path)"
            ),
        },
    }


def _score_request_schema(benchmark: Benchmark, tasks_description: str) -> JsonSchema:
    return {
        "type": "object",
        "properties": {
            "taskId": {"type": "string", "minLength": 1},
            "submission": ref("Trace"),
            "tasks": {
                "anyOf": [tasks_name_schema(benchmark), {"type": "null"}],
                "description": f"{tasks_description} Null or absent: the benchmark's own tasks.",
            },
            "seed": {"type": "integer", "default": 1, "description": "Seed for replaying episode tool logs."},
        },
        "required": ["taskId", "submission"],
        "additionalProperties": False,
    }


def _with_default_error(paths: dict[str, Any]) -> dict[str, Any]:
    """Every operation also answers any error in the one shape, and says which codes there are."""
    for item in paths.values():
        for operation in item.values():
            operation["responses"]["default"] = error_response(
                "Any error, as {error: {code, message}}. Codes: " + codes_text(ERROR_CODES)
            )
    return paths
