"""Text cut to a length, for one-line reasons, table cells and error details."""

from __future__ import annotations


def shorten(text: str, limit: int, *, ellipsis: str = "…") -> str:
    """`text` when it fits in `limit` characters, else its start and `ellipsis`, `limit` in all."""
    return text if len(text) <= limit else text[: limit - len(ellipsis)] + ellipsis
