"""The error hierarchy: one class per code, the codes clients depend on unchanged, exit codes and
HTTP statuses fixed by the class, and the OpenAPI document's code list generated from it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import benchmark_core
import benchmark_core.errors
from benchmark_core.episodes._session import SESSION_TOOL_ERRORS
from benchmark_core.errors._base import EXIT_FAILURE, EXIT_USAGE, BenchmarkError, InternalError, UsageError
from benchmark_core.errors._catalogue import error_classes
from benchmark_core.errors._failures import GraderError
from benchmark_core.errors._requests import InvalidArgumentsError, UnknownToolError
from benchmark_core.errors._runs import RunStoppedError
from benchmark_core.errors._tasks import InvalidScoreRequestError, InvalidSubmissionError
from benchmark_core.example import benchmark as example
from benchmark_core.servers._openapi import ERROR_CODES, error_schema, http_error_codes, openapi_document

#: Every code a surface can report. Clients match on these strings: none may change or vanish.
STABLE_CODES = {
    "INTERNAL_ERROR", "INVALID_USAGE", "INVALID_DEFINITION", "INVALID_TASK_FILE", "TASK_NOT_FOUND",
    "TASKS_NOT_ALLOWED", "INVALID_SUBMISSION", "INVALID_JSON", "REQUEST_TOO_LARGE", "NOT_FOUND",
    "METHOD_NOT_ALLOWED", "INVALID_ARGUMENTS", "UNKNOWN_TOOL", "INVALID_CONFIGURATION",
    "INCOMPARABLE_REPORTS", "JOURNAL_MISMATCH", "JOURNAL_EXISTS", "FILE_NOT_FOUND", "FILE_UNREADABLE",
    "BENCHMARK_NOT_FOUND", "INVALID_BENCHMARK_FILE", "INVALID_SCAFFOLD", "EVENT_LOOP_RUNNING",
    "GRADER_ERROR", "PLUGIN_LOAD_ERROR", "LISTEN_FAILED",
    "ADAPTER_ERROR", "AUTHENTICATION_FAILED", "MODEL_NOT_FOUND", "BAD_REQUEST", "RATE_LIMITED",
    "PROVIDER_ERROR", "MALFORMED_RESPONSE", "CONNECTION_FAILED", "TIMEOUT", "RUN_STOPPED", "MAX_ERRORS",
    "OUTPUT_LOCKED", "OUTPUT_WRITE_FAILED", "BATCH_ITEM_FAILED", "SHARDS_MISMATCH", "EXTRA_NOT_INSTALLED",
    "AGENT_FAILED",
    "NOT_AN_EPISODE", "INVALID_SESSION_REQUEST", "SESSION_NOT_FOUND", "UNAUTHORIZED", "SESSION_FINISHED",
    "TOO_MANY_SESSIONS",
}  # fmt: skip
#: Subclasses that refine a status, not a code (so two classes share it).
SAME_CODE = {InvalidScoreRequestError: InvalidSubmissionError, InternalError: BenchmarkError}


def test_one_class_per_code_and_every_stable_code_kept() -> None:
    by_code: dict[str, list[type[BenchmarkError]]] = {}
    for cls in error_classes():
        by_code.setdefault(cls.code, []).append(cls)
    assert set(by_code) == STABLE_CODES
    for code, classes in by_code.items():
        extra = [cls for cls in classes[1:] if SAME_CODE.get(cls) is not classes[0]]
        assert extra == [], f"{code} has several classes"


def test_every_error_class_is_exported_from_the_errors_package() -> None:
    for cls in error_classes():
        assert getattr(benchmark_core.errors, cls.__name__) is cls
        assert cls.__name__ in benchmark_core.errors.__all__


def test_no_code_is_a_bare_string_outside_the_errors_package() -> None:
    """No `code=` override and no error-code literal compared or raised elsewhere in core: a code is
    named through its class (`RateLimitedError`, `GraderError.code`)."""
    root = Path(benchmark_core.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        # Tool results (the example environment's, and the standard ones `episodes/_toolbox.py` declares) carry
        # codes a model reads in a tool result, a namespace of their own, not these error classes.
        # The errors package defines the codes; the export tables (every `__init__.py`) only name its classes.
        relative = path.relative_to(root).as_posix()
        if (
            relative == "episodes/_toolbox.py"
            or path.name == "__init__.py"
            or path.parent.name in ("errors", "example")
        ):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "code" and isinstance(node.value, ast.Constant):
                offenders.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Constant) and node.value in STABLE_CODES - {"NOT_FOUND", "BAD_REQUEST"}:
                offenders.append(f"{path.name}:{node.lineno} {node.value}")
    assert offenders == []


def test_grader_errors_are_failures_not_usage_errors() -> None:
    assert not issubclass(GraderError, UsageError)
    assert (GraderError.exit_code, GraderError.http_status) == (EXIT_FAILURE, 500)
    assert (UsageError.exit_code, UsageError.http_status) == (EXIT_USAGE, 400)
    assert InternalError.code == "INTERNAL_ERROR" and InternalError.exit_code == EXIT_FAILURE


def test_a_stopped_run_carries_the_code_of_its_cause() -> None:
    from benchmark_core import RunReport
    from benchmark_core.errors import AuthenticationFailedError, MaxErrorsError

    report = RunReport.__new__(RunReport)  # the report is carried, never read, here
    assert RunStoppedError("stopped", report).code == "RUN_STOPPED"
    assert RunStoppedError("stopped", report, cause=AuthenticationFailedError("no")).code == "AUTHENTICATION_FAILED"
    assert MaxErrorsError("too many", report).code == "MAX_ERRORS"
    assert RunStoppedError.code == "RUN_STOPPED"


#: The codes the HTTP API answers with, in the order its document lists them, and their statuses.
HTTP_CODES = {
    "INTERNAL_ERROR": [500],
    "INVALID_DEFINITION": [400],
    "INVALID_TASK_FILE": [400],
    "TASK_NOT_FOUND": [404],
    "TASKS_NOT_ALLOWED": [403],
    "INVALID_SUBMISSION": [400, 422],
    "INVALID_JSON": [400],
    "REQUEST_TOO_LARGE": [413],
    "NOT_FOUND": [404],
    "METHOD_NOT_ALLOWED": [405],
    "NOT_AN_EPISODE": [422],
    "INVALID_SESSION_REQUEST": [400],
    "SESSION_NOT_FOUND": [404],
    "UNAUTHORIZED": [401],
    "SESSION_FINISHED": [409],
    "TOO_MANY_SESSIONS": [503],
    "GRADER_ERROR": [500],
}


def test_the_openapi_code_list_is_generated_from_the_classes() -> None:
    statuses = {code: [int(s) for s in re.findall(r"(?:^|\. )(\d{3}): ", text)] for code, text in ERROR_CODES.items()}
    assert statuses == HTTP_CODES and list(ERROR_CODES) == list(HTTP_CODES)
    assert http_error_codes() == ERROR_CODES  # computed once, at import
    assert error_schema()["properties"]["error"]["properties"]["code"]["examples"] == list(HTTP_CODES)
    assert ERROR_CODES["INVALID_SUBMISSION"].startswith("400: the score request is not")
    assert "422: the submission is not a valid trace" in ERROR_CODES["INVALID_SUBMISSION"]
    for code, text in ERROR_CODES.items():
        classes = [cls for cls in error_classes() if cls.code == code and cls.http_meaning]
        assert classes and all(f"{cls.http_status}: {cls.http_meaning}" in text for cls in classes)
    # Codes no HTTP route can answer with stay out of the HTTP error codes; the session tools' own
    # (UNKNOWN_TOOL, INVALID_ARGUMENTS: MCP tool results) are the MCP endpoint's x-tool-error-codes.
    assert not {"UNKNOWN_TOOL", "INVALID_ARGUMENTS", "RATE_LIMITED", "LISTEN_FAILED"} & set(ERROR_CODES)
    assert {UnknownToolError.code, InvalidArgumentsError.code} <= set(SESSION_TOOL_ERRORS)
    document = openapi_document(example, max_body_bytes=1024)
    mcp = document["paths"]["/v1/sessions/{session_id}/mcp"]
    assert all(operation["x-tool-error-codes"] == SESSION_TOOL_ERRORS for operation in mcp.values())
    assert benchmark_core.errors.EXIT_SIGINT == 130 and benchmark_core.errors.EXIT_SIGTERM == 143
