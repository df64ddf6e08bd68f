"""Comparing run reports in tests: what two runs of the same tasks may legitimately differ in."""

from __future__ import annotations

from typing import Any

#: Keys whose values differ between two runs of the same tasks: timestamps and latencies.
VOLATILE_KEYS = frozenset({"latencyMs", "startedAt", "finishedAt"})


def stable_report(document: Any) -> Any:
    """A report's wire form (or any part of it) without the volatile keys, at every depth, so that an
    interrupted-and-resumed run can be compared with an uninterrupted one with `==`."""
    if isinstance(document, dict):
        return {k: stable_report(v) for k, v in document.items() if k not in VOLATILE_KEYS}
    if isinstance(document, list):
        return [stable_report(v) for v in document]
    return document
