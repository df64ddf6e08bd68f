"""Markdown reports, index entries and provenance documents. STUB: being written."""
