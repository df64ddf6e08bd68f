"""`cache info`, `cache prune --older-than 30d` and `cache clear`: the response cache `run` reads and
writes, seen and shrunk on request. Nothing removes entries otherwise (a reproducible rerun must not
turn into a paid one)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar

import click

from ..errors._base import UsageError
from .base import command, echo_json

if TYPE_CHECKING:
    from ..cache._cache import CacheRemoval

_DIR_HELP = "The cache folder (default: $BENCHMARK_CORE_CACHE, else ~/.cache/benchmark-core/responses)."
F = TypeVar("F", bound=Callable[..., Any])
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


@click.group("cache")
def cache_cmd() -> None:
    """See and shrink the response cache (entries are never removed unless asked)."""


def _folder(directory: Optional[Path]) -> Path:
    from ..cache._cache import default_cache_dir

    return directory if directory is not None else default_cache_dir()


def _dir_option() -> Callable[[F], F]:
    return click.option("--cache", "directory", type=click.Path(file_okay=False, path_type=Path), help=_DIR_HELP)


@cache_cmd.command("info")
@_dir_option()
@command(tasks=False)
def info_cmd(directory: Optional[Path], as_json: bool) -> None:
    """Show the cache folder, its entries, their size and the oldest entry."""
    from ..cache._cache import cache_info
    from ..wire._converter import to_wire

    info = cache_info(_folder(directory))
    if as_json:
        echo_json(to_wire(info))
        return
    click.echo(f"folder:  {info.folder}")
    click.echo(f"entries: {info.entries:,}")
    click.echo(f"size:    {size_text(info.bytes)}")
    click.echo(f"oldest:  {info.oldest or '-'}")


@cache_cmd.command("prune")
@click.option("--older-than", "age", required=True, metavar="AGE", help="Remove entries older than this: 30d, 12h, 2w.")
@_dir_option()
@command(tasks=False)
def prune_cmd(age: str, directory: Optional[Path], as_json: bool) -> None:
    """Remove the entries written longer ago than --older-than, and say how much that freed."""
    from ..cache._cache import prune_cache

    _report(prune_cache(_folder(directory), parse_age(age)), as_json, f" older than {age}")


@cache_cmd.command("clear")
@_dir_option()
@command(tasks=False)
def clear_cmd(directory: Optional[Path], as_json: bool) -> None:
    """Remove every entry of the cache, and say how much that freed."""
    from ..cache._cache import clear_cache

    _report(clear_cache(_folder(directory)), as_json, "")


def _report(removal: CacheRemoval, as_json: bool, which: str) -> None:
    from ..wire._converter import to_wire

    if as_json:
        echo_json(to_wire(removal))
        return
    entries = "entry" if removal.removed == 1 else "entries"
    click.echo(
        f"removed {removal.removed:,} {entries}{which} from {removal.folder}: {size_text(removal.freed_bytes)} "
        f"freed, {removal.remaining:,} left"
    )


def parse_age(text: str) -> float:
    """`30d` -> seconds; units s, m, h, d, w."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", text)
    if found is None:
        raise UsageError(f"--older-than {text!r}: give a number and a unit (s, m, h, d, w), like 30d")
    return float(found.group(1)) * _UNITS[found.group(2)]


def size_text(count: int) -> str:
    """Bytes in decimal units: `512 B`, `45.1 kB`, `3.2 MB`."""
    if count < 1000:
        return f"{count} B"
    size = count / 1000
    for unit in ("kB", "MB"):
        if size < 1000:
            return f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} GB"
