"""Text cut to a length, for one-line reasons, table cells and error details."""

from __future__ import annotations


def shorten(text: str, limit: int, *, ellipsis: str = "…") -> str:
    """`text` when it fits in `limit` characters, else its start and `ellipsis`, `limit` in all."""
    return text if len(text) <= limit else text[: limit - len(ellipsis)] + ellipsis


def ends_kept(text: str, limit: int, *, ellipsis: str = " … ") -> str:
    """`text` on one line (each run of whitespace one space); longer than `limit`, about its first
    quarter and its last three quarters, each cut between words where it has spaces: an error's end
    says what went wrong last (the exception at the end of a traceback), its start what failed."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    head, tail = flat[: limit // 4], flat[len(flat) - limit * 3 // 4 :]
    if flat[len(head)] != " " and " " in head:
        head = head.rsplit(" ", 1)[0]
    if flat[len(flat) - len(tail) - 1] != " " and " " in tail:
        tail = tail.split(" ", 1)[1]
    return head.rstrip() + ellipsis + tail.lstrip()
