"""A Messages answer as the server-sent events of a streamed one
(https://docs.anthropic.com/en/docs/build-with-claude/streaming): `message_start`, for each content
block `content_block_start`, its deltas (`text_delta`, `input_json_delta`, `thinking_delta` then
`signature_delta`) and `content_block_stop`, then `message_delta` (stop reason, output usage) and
`message_stop`."""

from __future__ import annotations

import json

from .._model import JsonObject, JsonValue


def sse_events(message: JsonObject) -> str:
    """The event stream of the finished `message`."""
    usage = dict(message.get("usage") or {})
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events: list[tuple[str, JsonValue]] = [("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(b for b in message.get("content") or [] if isinstance(b, dict)):
        events += _block_events(index, block)
    delta = {"stop_reason": message.get("stop_reason"), "stop_sequence": None}
    events.append(("message_delta", {"type": "message_delta", "delta": delta, "usage": usage}))
    events.append(("message_stop", {"type": "message_stop"}))
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)


def _block_events(index: int, block: JsonObject) -> list[tuple[str, JsonValue]]:
    kind = block.get("type")
    if kind == "text":
        empty: JsonObject = {"type": "text", "text": ""}
        deltas: list[JsonObject] = [{"type": "text_delta", "text": block.get("text", "")}]
    elif kind == "tool_use":
        empty = {**block, "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": json.dumps(block.get("input", {}))}]
    elif kind == "thinking":
        empty = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [
            {"type": "thinking_delta", "thinking": block.get("thinking", "")},
            {"type": "signature_delta", "signature": block.get("signature", "")},
        ]
    else:  # redacted_thinking and anything else arrive whole
        empty, deltas = block, []
    events: list[tuple[str, JsonValue]] = [
        ("content_block_start", {"type": "content_block_start", "index": index, "content_block": empty})
    ]
    events += [("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d}) for d in deltas]
    events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    return events
