"""Reading what providers send, defensively, for every format object: token counts (whatever is not
a whole number >= 0 counts as absent), tool calls and their arguments (a string that is not a JSON
object is kept as `{RAW_ARGUMENTS_KEY: <the raw text>}` and sent back verbatim if the call is
replayed), and the message of an error body.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Optional

from .._model import JsonObject, JsonValue, ToolCall

if TYPE_CHECKING:
    from ._toolnames import ToolNameCodec

#: Where the raw text of undecodable tool-call arguments is kept, in `ToolCall.arguments`.
RAW_ARGUMENTS_KEY = "__raw_arguments__"


def encode_arguments(arguments: JsonObject) -> str:
    raw = arguments.get(RAW_ARGUMENTS_KEY)
    if len(arguments) == 1 and isinstance(raw, str):
        return raw
    return json.dumps(arguments, ensure_ascii=False)


def decode_arguments(arguments: JsonValue) -> JsonObject:
    if isinstance(arguments, dict):
        return arguments
    if arguments is None or arguments == "":
        return {}
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except ValueError:
            decoded = None
        if isinstance(decoded, dict):
            return decoded
        return {RAW_ARGUMENTS_KEY: arguments}
    return {RAW_ARGUMENTS_KEY: json.dumps(arguments)}


def tool_call(
    names: ToolNameCodec, name: str, arguments: JsonValue, call_id: JsonValue, default_id: str = ""
) -> ToolCall:
    """A call a provider sent: the benchmark's name for `name`, the decoded arguments, and its id
    (`default_id` when the provider sent no id, or an empty one)."""
    return ToolCall(
        name=names.decode(name),
        arguments=decode_arguments(arguments),
        id=call_id if isinstance(call_id, str) and call_id else default_id,
    )


def non_negative_count(value: Any) -> Optional[int]:
    """A token count from a provider's JSON: a whole number >= 0, else None."""
    number = non_negative(value)
    return int(number) if number is not None else None


def count_in(data: Optional[JsonObject], section: str, key: str) -> Optional[int]:
    """The token count at `data[section][key]` (`usage.total_tokens`), or None where it is missing
    or not a count: what a provider's `used_tokens` reads."""
    found = data.get(section) if data is not None else None
    return non_negative_count(found.get(key)) if isinstance(found, dict) else None


def non_negative(value: Any) -> Optional[float]:
    """A finite number >= 0 from a provider's JSON, or None for anything else (bools included)."""
    kind = type(value)
    if kind is int:  # the usual token count: no finiteness check needed, only the range
        try:
            return float(value) if value >= 0 else None
        except OverflowError:
            return None
    if kind is bool or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) and number >= 0 else None


def error_message(data: JsonValue) -> Optional[str]:
    """The message of an OpenAI-shaped error body (`{"error": {"message": ...}}`), if there is one."""
    if not isinstance(data, dict):
        return None
    error = data.get("error", data)
    message = error.get("message") if isinstance(error, dict) else error
    return message if isinstance(message, str) and message.strip() else None
