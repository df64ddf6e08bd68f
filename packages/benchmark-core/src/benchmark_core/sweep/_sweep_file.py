"""Reading a sweep file: TOML through the standard library's `tomllib` (`tomli` on Python 3.10),
and the line of each key, so that every mistake is reported as `FILE:LINE: key: what is wrong`.

`tomllib` gives values without positions, so `SweepFile.line` finds a key's line in the text: the
n-th `[[models]]` header, then the first `key =` line of its section. That covers the file format
documented in docs/sweeps.md (tables and arrays of tables, one key per line); for a key it cannot
find (a dotted key, an inline table) the message names the section's header line instead.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Optional, Union

from ..errors._usage import ConfigurationError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10
    import tomli as tomllib

#: Where a value sits: ("models", 0, "temperature"), ("limits", "openai"), ("results",).
KeyPath = tuple[Union[str, int], ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\"'-]+?)\s*\]\]?\s*(#.*)?$")


class SweepFile:
    """The parsed document and its text."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise ConfigurationError(f"sweep file not found: {path}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigurationError(f"cannot read {path}: {exc}") from None
        try:
            self.data: dict[str, Any] = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            line = getattr(exc, "lineno", None) or _line_in_message(str(exc))
            where = f"{path}:{line}" if line else str(path)
            raise ConfigurationError(f"{where}: not TOML ({_without_position(str(exc))})") from None

    def error(self, key: KeyPath, message: str) -> ConfigurationError:
        """`FILE:LINE: key: message` for the value at `key`."""
        line = self.line(key)
        where = f"{self.path}:{line}" if line else str(self.path)
        return ConfigurationError(f"{where}: {spell(key)}: {message}")

    def line(self, key: KeyPath) -> Optional[int]:
        """The 1-based line of `key` (its section's header when the key itself is absent)."""
        if not key:
            return None
        table, index, name = _split(key)
        target = None if table is None else (table, index)
        current: Optional[tuple[str, Optional[int]]] = None  # None: the top level, before any header
        occurrences: dict[str, int] = {}
        header_line: Optional[int] = None
        for number, line in enumerate(self.text.split("\n"), start=1):
            header = _HEADER.match(line)
            if header is not None:
                section = header.group(2).strip("\"'")
                occurrences[section] = occurrences.get(section, -1) + 1
                current = (section, occurrences[section] if header.group(1) == "[[" else None)
                if current == target:
                    header_line = number
                    if name is None:
                        return number
                continue
            if current == target and name is not None and re.match(rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=", line):
                return number
        return header_line


def spell(key: KeyPath) -> str:
    """`models[1].temperature`, `limits.openai`, `results`."""
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _split(key: KeyPath) -> tuple[Optional[str], Optional[int], Optional[str]]:
    """(table, index in an array of tables, key within it) of a key path."""
    if len(key) == 1:
        return None, None, str(key[0])
    table = str(key[0])
    if isinstance(key[1], int):
        return table, key[1], str(key[2]) if len(key) > 2 else None
    return table, None, str(key[1])


def _line_in_message(message: str) -> Optional[int]:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else None


def _without_position(message: str) -> str:
    return re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
