"""A turn line is encoded from a view of the turn that shares the tools' results (no copy); its bytes,
or its error, are those of the copy (`to_wire`) whatever the results hold."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest
from benchmark_core._model import ChatMessage, ServedCount, ToolCall, ToolError, ToolLogEntry, Usage
from benchmark_core.runs._checkpoints import TurnRecord
from benchmark_core.runs._journal import turn_line
from benchmark_core.runs._requests import Spent
from benchmark_core.wire import to_wire

_COPY = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class Level(enum.IntEnum):
    HIGH = 3


class Colour(enum.Enum):
    RED = "red"


def _record(result: Any, arguments: Any = None) -> TurnRecord:
    arguments = {"path": "docs/é.md", "lines": [1, 2]} if arguments is None else arguments
    call = ToolCall(name="read", arguments=arguments, id="call_0")
    return TurnRecord(
        run="sha256:0123456789abcdef",
        task_id="t-1",
        epoch=None,
        turn=2,
        message=ChatMessage(role="assistant", content=None, tool_calls=[call], reasoning="look first"),
        calls=[
            ToolLogEntry(name="read", arguments=arguments, result=result, call_id="call_0"),
            ToolLogEntry(name="read", arguments={}, error=ToolError(code="bad", message="no"), call_id="call_1"),
        ],
        usage=Usage(prompt_tokens=10, completion_tokens=2, cost_usd=0.5, cached_tokens=4),
        spent=Spent(attempts=3, usage=Usage(prompt_tokens=30), served_by=[ServedCount("m", None, 3)]),
    )


def _copied(record: TurnRecord) -> bytes:
    """The line as the journal wrote it before the view: the copy, then the encoder."""
    return (_COPY.encode({"turn": to_wire(record)}) + "\n").encode()


@pytest.mark.parametrize(
    "result",
    [
        {"entries": [{"at": "2026-08-02", "ticket": None, "ok": True, "n": 1.5}], "text": 'a "quoted"\n\u2028'},
        ["a", ("tuple", 1), {"nested": ("x",)}],
        {"level": Level.HIGH, "colour": Colour.RED, "usage": Usage(prompt_tokens=1)},
        {1: "int key", 2.5: "float key", None: "null key", False: "bool key", Level.HIGH: "enum key"},
        None,
        "plain",
    ],
    ids=["plain-json", "tuples", "enums-and-attrs", "non-string-keys", "none", "string"],
)
def test_a_turn_line_is_the_copy_s_bytes(result: Any) -> None:
    record = _record(result)
    assert turn_line(record) == _copied(record)


@pytest.mark.parametrize(
    "result",
    [{"x": {1, 2}}, {"x": float("nan")}, {(1, 2): "tuple key"}],
    ids=["set", "nan", "tuple-key"],
)
def test_a_turn_the_copy_refuses_is_refused_the_same_way(result: Any) -> None:
    record = _record(result)
    with pytest.raises((TypeError, ValueError)) as copied:
        _copied(record)
    with pytest.raises(type(copied.value)) as viewed:
        turn_line(record)
    assert str(viewed.value) == str(copied.value)


def test_a_cyclic_result_fails_as_the_copy_does() -> None:
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    record = _record(cycle)
    with pytest.raises(RecursionError):
        _copied(record)
    with pytest.raises(RecursionError):
        turn_line(record)
