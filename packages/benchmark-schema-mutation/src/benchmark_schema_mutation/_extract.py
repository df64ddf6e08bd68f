"""What an answer says, read from its text: the call objects it holds, and the explicit declines.

A call is `{"name": "<tool>", "arguments": {...}}` (`arguments` may be a JSON-encoded string). A
decline is `{"decline": "<why>"}`: the answer format the full split's prompts offer for requests
that cannot be carried out (docs/grading.md). Only an object of that exact shape declines; prose
such as "I can't do that", or an answer that cannot be parsed, is not a decline, so a format error
is never credited as an abstention (BFCL's false pass, gorilla #443).
"""

from __future__ import annotations

import re
from typing import Any, Optional, Union

from attrs import frozen
from benchmark_core import Task, Trace
from benchmark_core.wire import decode_prefix, loads

#: How much of a text answer is searched for the call: its last 100,000 characters.
MAX_ANSWER_CHARS = 100_000
_CANDIDATE = re.compile(r'\{\s*"')
#: The key of the decline object.
DECLINE_KEY = "decline"

Call = tuple[str, dict[str, Any]]


@frozen
class Decline:
    """An explicit decline, with the reason the answer gave."""

    reason: str


Found = Union[Call, Decline]


def decode_object(text: str) -> Optional[dict[str, Any]]:
    try:
        value = loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def as_call(value: Any) -> Optional[Call]:
    """(name, arguments) when `value` is a call object: a string `name` and an `arguments` object, or
    a string holding one as JSON. Other keys (`id`, `type`) are ignored."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str) or "arguments" not in value:
        return None
    arguments = value["arguments"]
    if isinstance(arguments, str):
        arguments = decode_object(arguments)
    if not isinstance(arguments, dict):
        return None
    return value["name"], arguments


def as_decline(value: Any) -> Optional[Decline]:
    """A `Decline` when `value` is exactly `{"decline": "<non-empty reason>"}`."""
    if not isinstance(value, dict) or list(value) != [DECLINE_KEY]:
        return None
    reason = value[DECLINE_KEY]
    return Decline(reason) if isinstance(reason, str) and reason.strip() else None


def found_in(value: Any) -> list[Found]:
    """The outermost call and decline objects inside a JSON value, in document order.

    Children are pushed in order and popped last-first, so objects are met from the last to the
    first and the list is reversed at the end; a call's own arguments are not searched (a nested
    call-shaped argument is data). The walk is iterative so that deep nesting cannot exhaust the
    stack.
    """
    found: list[Found] = []
    stack = [value]
    while stack:
        node = stack.pop()
        item: Optional[Found] = as_call(node) or as_decline(node)
        if item is not None:
            found.append(item)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    found.reverse()
    return found


def extract_found(text: str) -> list[Found]:
    """Every call and decline object in free text, in document order.

    Every `{` followed by a quoted key is a candidate start of a JSON object; a candidate that
    parses is searched (so wrappers such as `{"tool_call": {...}}` or `{"function": {...}}` work)
    and skipped as a whole, one that does not is passed over. Code fences and surrounding prose need
    no special case. Only the last `MAX_ANSWER_CHARS` characters are searched: each failed parse
    costs time proportional to its position (the JSON error computes a line number), so an unbounded
    search would be quadratic in a hostile answer's length.
    """
    text = text[-MAX_ANSWER_CHARS:]
    found: list[Found] = []
    position = 0
    while True:
        candidate = _CANDIDATE.search(text, position)
        if candidate is None:
            return found
        start = candidate.start()
        try:
            value, end = decode_prefix(text, start)
        except ValueError:
            position = start + 1
            continue
        found.extend(found_in(value))
        position = end


def answer_items(answer: Any) -> list[Found]:
    """The calls and declines of a submitted answer: searched in text, or walked in a JSON value."""
    if isinstance(answer, str):
        return extract_found(answer)
    if isinstance(answer, (dict, list)):
        return found_in(answer)
    return []


def calls_only(items: list[Found]) -> list[Call]:
    return [item for item in items if not isinstance(item, Decline)]


def extract_calls(text: str) -> list[Call]:
    """Every call object in free text, in document order (declines left out)."""
    return calls_only(extract_found(text))


def extract_call(text: str) -> Optional[Call]:
    """The last call object in free text (see `extract_calls`), the one that is graded."""
    calls = extract_calls(text)
    return calls[-1] if calls else None


def declined(trace: Trace) -> Optional[str]:
    """Why a trace declines, or None when it does not.

    Prompt mode: the last call-or-decline object of the answer is a decline. Native mode (the trace
    has a `toolCalls` list): no tool call and an answer in words holding no call either. Anything
    else is not a decline: text that cannot be parsed in prompt mode, and an empty answer in either
    mode (a truncated or filtered response says nothing).
    """
    if trace.tool_calls:
        return None
    items = answer_items(trace.answer)
    if items and isinstance(items[-1], Decline):
        return items[-1].reason
    answer = trace.answer
    spoken = isinstance(answer, str) and answer.strip()
    if trace.tool_calls is not None and spoken and not calls_only(items):
        return f"no tool call: {answer.strip()[:120]}"
    return None


def decline_offered(task: Task) -> bool:
    """Whether the task's prompt offers the decline format (the full split's tasks do)."""
    return task.metadata.get("declineOffered") is True
