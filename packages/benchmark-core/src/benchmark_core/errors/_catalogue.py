"""Every error class, in one order: the modules of `benchmark_core.errors` by concept, each in
definition order (the OpenAPI document lists the HTTP API's codes in this order)."""

from __future__ import annotations

from types import ModuleType

from . import _base, _failures, _provider, _requests, _runs, _sessions, _tasks, _usage
from ._base import BenchmarkError

#: The modules that define error classes, base first.
_MODULES: tuple[ModuleType, ...] = (_base, _tasks, _requests, _sessions, _usage, _runs, _failures, _provider)


def error_classes() -> list[type[BenchmarkError]]:
    """Every error class, base first: each module's own classes in definition order (a module's
    namespace keeps it), not the ones it imports."""
    return [
        value
        for module in _MODULES
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BenchmarkError) and value.__module__ == module.__name__
    ]
