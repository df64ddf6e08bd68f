"""The issue tracker: issues with every revision; a closed issue is reopened with the fields it had."""

from __future__ import annotations

from .records import RecordKind

TRACKER = RecordKind(
    store="tracker",
    noun="issue",
    plural="issues",
    list_tool="list_issues",
    fields=("title", "assignee", "priority", "component"),
    live="open",
    removed="closed",
    audit_order=4,
)
