"""Module attributes loaded on first use, for packages and modules that keep heavy or self-running
modules out of their import (core keeps aiohttp and mcp off the CLI's start-up path, and the model's
report classes off `list`'s; benchmark packages keep their generators importable as
`python -m <package>.generator` without a double-import warning)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_attributes(module: str, exports: Mapping[str, Iterable[str]]) -> Callable[[str], Any]:
    """A module `__getattr__` for `module` (a package or a plain module): `exports` maps each source
    module (relative to `module`'s package, as its own relative imports are) to the names it gives;
    a name is imported from its source on first access and then kept on `module`.

    Use it as `__getattr__ = lazy_attributes(__name__, {".generator": ("generate",)})`, and import
    the same names under `if TYPE_CHECKING:` so that type checkers see them (`tools/sync_exports.py`
    writes that block and `__all__` from the table).
    """
    sources: dict[str, str] = {}
    for source, names in exports.items():
        for name in names:
            if sources.setdefault(name, source) != source:
                raise ValueError(f"{module}: {name!r} is exported by both {sources[name]!r} and {source!r}")

    def __getattr__(name: str) -> Any:
        owner = sys.modules[module]
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source, owner.__package__), name)
        setattr(owner, name, value)
        return value

    return __getattr__


class Deferred:
    """A stand-in for the object at `target` ("package.module:name"), imported on first use.

    A benchmark's definition names its grader, summaries, mock policies and environment this way, so
    that loading the Benchmark (which `list`, `show` and `--help` do) does not import them: calling
    the stand-in imports the target once and forwards the call, and `resolve()` gives the target.
    """

    __slots__ = ("_value", "target")

    def __init__(self, target: str) -> None:
        module, _, name = target.partition(":")
        if not module or not name or not all(part.isidentifier() for part in (*module.split("."), *name.split("."))):
            raise ValueError(f"deferred target {target!r} must be 'package.module:name'")
        self.target = target
        self._value: Any = _UNRESOLVED

    def resolve(self) -> Any:
        """The target object, imported on the first call and kept."""
        value = self._value
        if value is _UNRESOLVED:
            module, _, name = self.target.partition(":")
            value = importlib.import_module(module)
            for part in name.split("."):
                value = getattr(value, part)
            self._value = value
        return value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        value = self._value
        if value is _UNRESOLVED:
            value = self.resolve()
        return value(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Deferred({self.target!r})"


_UNRESOLVED: Any = object()
