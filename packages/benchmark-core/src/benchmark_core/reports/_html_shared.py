"""Long texts and JSON values that several rows of a report show (a task's prompt in every epoch,
an episode's system prompt, an audit log that every run of a store returns), written once.

`SharedBlocks` is told every candidate first (`count_text`, `count_json`), then renders each one:
a block shown by one row only is written in place; a long block shown by several is written once
under "Shared values" (`section()`), and each row gets a link to it. The report page's script puts
the block back in place when a row unfolds, so with JavaScript a reader never sees the link.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ._html_page import pretty_json, t

__all__ = ["SHARED_MIN_CHARS", "SharedBlocks"]

#: Blocks shorter than this are always written in place: a link would save little.
SHARED_MIN_CHARS = 600

_Key = tuple[str, str]


class SharedBlocks:
    def __init__(self, min_chars: int = SHARED_MIN_CHARS) -> None:
        self._min = min_chars
        self._counts: dict[_Key, int] = {}
        # A value's compact JSON, by the value's identity: each value is encoded once, and the
        # report keeps every value alive while the page is built.
        self._compact: dict[int, str] = {}
        self._markup: dict[_Key, tuple[str, int]] = {}
        self._numbers: dict[_Key, int] = {}

    def count_text(self, text: str) -> None:
        if len(text) >= self._min:
            key = ("text", text)
            self._counts[key] = self._counts.get(key, 0) + 1

    def count_json(self, value: Any) -> None:
        """Count `value`, which must live as long as this object (it is remembered by identity)."""
        compact = self._compact.get(id(value))
        if compact is None:
            compact = self._compact[id(value)] = _key(value)
        if len(compact) >= self._min:
            key = ("json", compact)
            self._counts[key] = self._counts.get(key, 0) + 1

    def text(self, text: str, css_class: str) -> str:
        """`text` in a `<pre>`, or a link to it when several rows show it."""
        return self._block(("text", text), lambda: (f'<pre class="{css_class}">{t(text)}</pre>', len(text)))

    def json(self, value: Any) -> str:
        """`value` as indented JSON in a `<pre>`, or a link to it when several rows show it."""

        def render() -> tuple[str, int]:
            shown = pretty_json(value)
            return f'<pre class="json">{t(shown)}</pre>', len(shown)

        return self._block(("json", self._encode(value)), render)

    def section(self) -> str:
        """The shared blocks, in the order rows first showed them (empty when none is shared)."""
        if not self._numbers:
            return ""
        items = "".join(
            f'<div class="shared-value" id="shared-{n}"><h3>Shared value {n}</h3>'
            f"<noscript>{self._markup[key][0]}</noscript></div>"
            for key, n in self._numbers.items()
        )
        return (
            '<section class="shared-values" id="shared-values"><h2>Shared values</h2>'
            '<p class="note">Long texts and values that several tasks show, written once; each task links '
            "here.</p>" + items + "</section>"
        )

    def _block(self, key: _Key, render: Callable[[], tuple[str, int]]) -> str:
        rendered = self._markup.get(key)
        if rendered is None:
            rendered = self._markup[key] = render()
        markup, chars = rendered
        if self._counts.get(key, 0) < 2:
            return markup
        n = self._numbers.setdefault(key, len(self._numbers) + 1)
        return (
            f'<div class="shared-ref" data-shared="{n}"><a href="#shared-{n}">Shared value {n}</a> '
            f"({chars:,} characters), written once under Shared values.</div>"
        )

    def _encode(self, value: Any) -> str:
        compact = self._compact.get(id(value))
        return compact if compact is not None else _key(value)


def _key(value: Any) -> str:
    """A JSON value's identity: its compact JSON, with the default (ASCII) encoder, the fastest."""
    return json.dumps(value)
