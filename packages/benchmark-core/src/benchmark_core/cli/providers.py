"""`providers`: every provider `run --provider` takes, from the one table (`adapters.catalog`), with
its wire format, default API root, the variables that override the root and hold the key (and
whether the key is set, never its value), and its quirks."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import click

from ..adapters.catalog import PROVIDER_TABLE, ProviderInfo
from .base import CliState, command, echo_json


def provider_document(info: ProviderInfo) -> dict[str, Any]:
    """One provider as the `--json` output lists it."""
    return {
        "name": info.name,
        "wire": info.wire,
        "summary": info.summary,
        "baseUrl": info.base_url or None,
        "baseUrlVariable": info.base_url_variable,
        "keyVariable": info.key_variable,
        "keyRequired": info.key_required if info.key_variable else False,
        "keySet": bool(info.key_variable and os.environ.get(info.key_variable, "").strip()),
        "maxTokensField": info.max_tokens_field if info.wire != "mock" else None,
        "quirks": info.quirks or None,
    }


@click.command("providers")
@command(tasks=False)
@click.pass_obj
def providers_cmd(state: CliState, as_json: bool, tasks_path: Optional[Path] = None) -> None:
    """Every provider `run --provider` takes: its API format, default URL (override it with
    --base-url or the URL variable) and key variable."""
    documents = [provider_document(info) for info in PROVIDER_TABLE]
    if as_json:
        echo_json({"providers": documents})
        return
    rows = [("provider", "format", "default API root", "URL variable", "key variable")]
    for doc in documents:
        key = doc["keyVariable"] or "-"
        if doc["keyVariable"]:
            key += " (set)" if doc["keySet"] else (" (not set)" if doc["keyRequired"] else " (optional)")
        rows.append((doc["name"], doc["wire"], doc["baseUrl"] or "-", doc["baseUrlVariable"] or "-", key))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    click.echo("\nQuirks:")
    for doc in documents:
        if doc["quirks"]:
            click.echo(f"- {doc['name']}: {doc['quirks']}")
