"""Tool names that providers accept.

OpenAI-compatible APIs accept tool names matching ^[a-zA-Z0-9_-]{1,64}$, so `issues.create` cannot be
sent as is. The adapter maps names reversibly per request (`ToolNameCodec`); graders that must
recognise a name a model wrote in provider spelling for a tool it was never offered (an old,
memorised tool) use `provider_safe_name`. This module imports nothing heavy.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .._model import ChatRequest

_VALID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_BAD_CHARS = re.compile(r"[^a-zA-Z0-9_-]")


def provider_safe_name(name: str) -> str:
    """`name` as providers accept it: valid names unchanged, others with each bad character replaced
    by `_` and cut to 64 characters (`issues.create` -> `issues_create`)."""
    if _VALID.fullmatch(name):
        return name
    return _BAD_CHARS.sub("_", name)[:64] or "tool"


class ToolNameCodec:
    """A reversible mapping between tool names and names providers accept, for one request.

    Valid names map to themselves. Others have each bad character replaced by `_` and are cut to 64
    characters; if that clashes with another name of the request, a short hash of the original is
    appended. Build it from every name the request mentions (tools and earlier calls); `decode`
    leaves unknown names alone.
    """

    def __init__(self, names: Iterable[str]) -> None:
        ordered = list(dict.fromkeys(names))
        self._encode = {name: name for name in ordered if _VALID.fullmatch(name)}
        taken = set(self._encode)
        for name in ordered:
            if name in self._encode:
                continue
            base = provider_safe_name(name)
            candidate, salt = base, 0
            while candidate in taken:
                salt += 1
                digest = hashlib.sha256(f"{salt}:{name}".encode("utf-8", "surrogatepass")).hexdigest()[:8]
                candidate = f"{base[:55]}_{digest}"
            taken.add(candidate)
            self._encode[name] = candidate
        self._decode = {encoded: name for name, encoded in self._encode.items()}

    def encode(self, name: str) -> str:
        return self._encode[name]

    def decode(self, name: str) -> str:
        return self._decode.get(name, name)


def request_names(request: ChatRequest) -> ToolNameCodec:
    """The codec of one request: its tools' names and those of the calls its messages made."""
    return ToolNameCodec(
        [tool.name for tool in request.tools]
        + [call.name for message in request.messages for call in message.tool_calls or []]
    )
