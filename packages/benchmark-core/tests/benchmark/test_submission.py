"""Hostile submissions are refused before any grading, with the JSON path, on every surface: the
SDK raises `InvalidSubmissionError`, CLI `score` exits 1, HTTP answers 422, MCP a tool error. The
checker agrees with the published Trace schema (hypothesis against `jsonschema`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import jsonschema  # type: ignore[import-untyped]  # installed with mcp, which validates with it
import mcp
import pytest
from benchmark_core import ToolCall, ToolLogEntry, Trace, mock_adapter
from benchmark_core.cli import create_cli
from benchmark_core.errors import InvalidSubmissionError
from benchmark_core.example import benchmark as example
from benchmark_core.testing.surfaces import mcp_stdio_parameters, serve_benchmark, tool_error
from benchmark_core.wire import dumps, from_wire, loads
from benchmark_core.wire._submission import MAX_NESTING, check_submission, parse_submission, submission_schema
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

EPISODE = "order-refund-01"


def nested(levels: int) -> str:
    """JSON text of `levels` objects nested inside each other: {"a": {"a": ... 1}}."""
    return '{"a":' * levels + "1" + "}" * levels


def deep_log(levels: int) -> str:
    """A submission whose one tool call's arguments are `levels` nested objects; the submission,
    toolLog and the entry add three levels above them."""
    return '{"toolLog": [{"name": "lookup_order", "arguments": ' + nested(levels) + "}]}"


def deep_path(levels: int) -> str:
    return "$.toolLog[0].arguments" + ".a" * levels


# Six hundred levels passed the JSON parser and crashed replay's deepcopy with RecursionError.
HOSTILE = loads(deep_log(600))
FIRST_TOO_DEEP = deep_path(MAX_NESTING - 3)  # the object at level MAX_NESTING + 1


def test_the_sdk_raises_the_typed_error_with_the_path() -> None:
    with pytest.raises(InvalidSubmissionError) as caught:
        example.score(EPISODE, HOSTILE)
    assert caught.value.code == "INVALID_SUBMISSION"
    assert caught.value.http_status == 422
    assert caught.value.path == FIRST_TOO_DEEP
    assert caught.value.message == f"invalid submission at {FIRST_TOO_DEEP}: nested more than 64 levels deep"


def test_a_trace_object_is_checked_too() -> None:
    arguments: dict[str, Any] = {}
    inner = arguments
    for _ in range(300):
        inner["a"] = {}
        inner = inner["a"]
    trace = Trace(tool_log=[ToolLogEntry(name="lookup_order", arguments=arguments)])
    with pytest.raises(InvalidSubmissionError, match=r"\$\.toolLog\[0\]\.arguments\.a.*nested more than 64"):
        example.score(EPISODE, trace)


def test_exactly_the_limit_is_graded() -> None:
    assert not example.score(EPISODE, loads(deep_log(MAX_NESTING - 3))).passed
    with pytest.raises(InvalidSubmissionError):
        example.score(EPISODE, loads(deep_log(MAX_NESTING - 2)))


def test_json_encoded_arguments_are_checked_once_decoded() -> None:
    submission = {"toolCalls": [{"name": "f", "arguments": nested(200)}]}
    with pytest.raises(InvalidSubmissionError, match=r"^invalid submission at \$\.toolCalls\[0\]\.arguments\.a\.a"):
        parse_submission(submission)


def test_the_first_too_deep_container_in_document_order_is_named() -> None:
    # `finalState` reaches the limit at a higher level than the answer's array does, but the answer
    # comes first in the document: it is the one named.
    answer = "[" * 70 + "]" * 70
    final_state = '{"b": [' + "[" * 64 + "]" * 64 + "]}"
    submission = loads(f'{{"answer": {answer}, "finalState": {final_state}}}')
    with pytest.raises(InvalidSubmissionError) as caught:
        parse_submission(submission, path="$.submission")
    assert caught.value.path == "$.submission.answer" + "[0]" * (MAX_NESTING - 1)
    assert caught.value.message == f"invalid submission at {caught.value.path}: nested more than 64 levels deep"


def test_decoded_arguments_count_from_where_they_sit() -> None:
    # The arguments object is level 4 (submission, toolCalls, the call): 61 levels from it fit.
    fits = {"toolCalls": [{"name": "f", "arguments": {}}, {"name": "f", "arguments": nested(MAX_NESTING - 3)}]}
    calls = parse_submission(fits).tool_calls
    assert calls is not None and calls[1].arguments["a"]
    too_deep = {"toolCalls": [{"name": "f", "arguments": {}}, {"name": "f", "arguments": nested(MAX_NESTING - 2)}]}
    with pytest.raises(InvalidSubmissionError) as caught:
        parse_submission(too_deep)
    assert caught.value.path == "$.toolCalls[1].arguments" + ".a" * (MAX_NESTING - 3)


def test_a_self_referencing_object_is_refused_not_walked_forever() -> None:
    looped: dict[str, Any] = {}
    looped["again"] = looped
    with pytest.raises(InvalidSubmissionError, match="nested more than 64"):
        example.score(EPISODE, {"toolLog": [{"name": "f", "arguments": looped}]})


@pytest.mark.parametrize(
    ("submission", "path", "message"),
    [
        # the converter used to read an object as an empty log and a number as a tool name
        ({"toolLog": {}}, "$.toolLog", "expected an array or null, got an object"),
        ({"toolLog": {"name": "f"}}, "$.toolLog", "expected an array or null, got an object"),
        ({"toolLog": [{"name": 5}]}, "$.toolLog[0].name", "expected a string, got an integer"),
        ({"toolCalls": [{"name": True}]}, "$.toolCalls[0].name", "expected a string, got a boolean"),
        ({"toolLog": [{"name": "f", "callId": 3}]}, "$.toolLog[0].callId", "expected a string, got an integer"),
        ({"toolLog": [{"name": "f", "arguments": []}]}, "$.toolLog[0].arguments", "expected an object, got an array"),
        ({"toolLog": [{"name": "f", "error": {"code": 1, "message": "m"}}]}, "$.toolLog[0].error.code", "expected"),
        ({"toolLog": ["f"]}, "$.toolLog[0]", "expected an object, got a string"),
        ({"toolLog": [{"arguments": {}}]}, "$.toolLog[0]", 'missing required property "name"'),
        ({"toolLog": [{"name": "f", "x y": 1}]}, '$.toolLog[0]["x y"]', "unknown property"),
        ({"answr": 1}, "$.answr", "unknown property"),
        (["not", "an", "object"], "$", "expected an object, got an array"),
    ],
)
def test_shape_problems_name_their_path(submission: Any, path: str, message: str) -> None:
    with pytest.raises(InvalidSubmissionError) as caught:
        example.score(EPISODE, submission)
    assert caught.value.path == path
    assert caught.value.message.startswith(f"invalid submission at {path}: {message}")


def test_cli_score_exits_1_with_the_message(tmp_path: Path) -> None:
    cli = create_cli(example, "benchmark-core", umbrella=True)
    items = tmp_path / "submissions.jsonl"
    items.write_text(f'{{"taskId": "{EPISODE}", "submission": {deep_log(600)}}}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", str(items)], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"item 1: submission at $.submission{FIRST_TOO_DEEP[1:]}: nested more than 64 levels deep" in result.stderr
    as_json = CliRunner().invoke(cli, ["score", str(items), "--json"], catch_exceptions=False)
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["error"]["code"] == "INVALID_SUBMISSION"


def test_cli_score_checks_the_traces_of_a_saved_report(tmp_path: Path) -> None:
    report = example.run(mock_adapter(policies=example.mock_policies))
    document = json.loads(dumps(report))
    row = next(i for i, r in enumerate(document["rows"]) if r["taskId"] == EPISODE)
    document["rows"][row]["trace"] = {"toolLog": {"name": "lookup_order"}}
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(document), encoding="utf-8")
    result = CliRunner().invoke(create_cli(example, "benchmark-core", umbrella=True), ["score", str(saved)])
    assert result.exit_code == 1
    assert f"$.rows[{row}].trace.toolLog: expected an array or null, got an object" in result.stderr


async def test_http_answers_422_with_the_path() -> None:
    body = f'{{"taskId": "{EPISODE}", "submission": {deep_log(600)}}}'
    async with serve_benchmark(example) as base, aiohttp.ClientSession() as session:
        async with session.post(f"{base}/v1/score", data=body) as response:
            assert response.status == 422
            error = (await response.json())["error"]
        async with session.post(
            f"{base}/v1/score", json={"taskId": EPISODE, "submission": {"toolLog": [{"name": 5}]}}
        ) as response:
            assert response.status == 422
            named = (await response.json())["error"]["message"]
    assert error["code"] == "INVALID_SUBMISSION"
    assert (
        error["message"] == f"invalid submission at $.submission{FIRST_TOO_DEEP[1:]}: nested more than 64 levels deep"
    )
    assert named == "invalid submission at $.submission.toolLog[0].name: expected a string, got an integer 5"


async def test_mcp_answers_a_tool_error_with_the_code() -> None:
    # 150 levels: the SDK's JSON-RPC reader drops messages nested about 200 levels deep unanswered
    submission = json.loads(deep_log(150))
    async with mcp.Client(mcp_stdio_parameters("benchmark_core"), read_timeout_seconds=60) as client:
        result = await client.call_tool("score_answer", {"task_id": EPISODE, "submission": submission})
    error = tool_error(result)
    assert error["code"] == "INVALID_SUBMISSION"
    assert error["message"].startswith("invalid submission at $.submission.toolLog[0].arguments.a.a")


# -- the checker and the published schema agree --------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=6,
)
_KEYS = st.sampled_from(["name", "arguments", "result", "error", "callId", "id", "code", "message", "x"])
_ENTRY = st.dictionaries(_KEYS, _JSON | st.dictionaries(st.sampled_from(["code", "message"]), _JSON), max_size=4)
_SUBMISSION = st.dictionaries(
    st.sampled_from(["answer", "toolCalls", "toolLog", "finalState", "other"]),
    _JSON | st.lists(_ENTRY, max_size=3),
    max_size=3,
)


def _encoded_arguments_ok(submission: dict[str, Any]) -> bool:
    calls = submission.get("toolCalls")
    for call in calls if isinstance(calls, list) else []:
        arguments = call.get("arguments") if isinstance(call, dict) else None
        if isinstance(arguments, str):
            try:
                if not isinstance(json.loads(arguments), dict):
                    return False
            except ValueError:
                return False
    return True


@settings(max_examples=300, deadline=None)
@given(submission=_SUBMISSION)
def test_the_checker_accepts_exactly_what_the_published_schema_allows(submission: dict[str, Any]) -> None:
    schema = submission_schema()
    # jsonschema treats contentSchema as an annotation; the checker enforces it
    allowed = jsonschema.Draft202012Validator(schema).is_valid(submission) and _encoded_arguments_ok(submission)
    try:
        check_submission(submission)
        accepted = True
    except InvalidSubmissionError:
        accepted = False
    assert accepted == allowed, submission
    if accepted:
        from_wire(submission, Trace)  # and the converter takes whatever the checker lets through


def test_the_published_schema_states_the_nesting_limit() -> None:
    assert "at most 64 levels" in submission_schema()["description"]
    arguments = submission_schema()["properties"]["toolCalls"]["anyOf"][0]["items"]["properties"]["arguments"]
    assert arguments["anyOf"][0] == {"type": "object"}
    assert arguments["anyOf"][1]["contentSchema"] == {"type": "object"}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ("not json", "expected a JSON-encoded object, got a string that is not JSON"),
        ("[1, 2]", "expected a JSON-encoded object, got a JSON-encoded array"),
    ],
)
def test_json_encoded_arguments_must_be_an_object(arguments: str, message: str) -> None:
    with pytest.raises(InvalidSubmissionError) as caught:
        parse_submission({"toolCalls": [{"name": "f", "arguments": arguments}]}, path="$.submission")
    assert caught.value.message == f"invalid submission at $.submission.toolCalls[0].arguments: {message}"


def test_tool_calls_built_in_python_pass() -> None:
    check_submission(Trace(tool_calls=[ToolCall(name="f", arguments={"a": [1, {"b": None}]})], answer={"x": [1]}))
