"""Module attributes loaded on first use, for packages that keep heavy or self-running modules out
of their import (core keeps aiohttp and mcp off the CLI's start-up path; benchmark packages keep
their generators importable as `python -m <package>.generator` without a double-import warning)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(package: str, sources: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: the attribute `name` is imported from the module
    `sources[name]` (relative to `package`) on first access and then kept on the package.

    Use it as `__getattr__ = lazy_attributes(__name__, {"generate": ".generator"})`, and import the
    same names under `if TYPE_CHECKING:` so that type checkers see them.
    """

    def __getattr__(name: str) -> Any:
        module = sources.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
