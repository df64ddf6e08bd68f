"""The modules that moved behind the registry in 0.3.0 keep their old paths for one release: each
old module is a shim that warns (`DeprecationWarning`, naming the new path) when imported and
forwards every attribute to the module that holds it now."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any

#: Where the public names of the moved modules are imported from now.
PUBLIC_HOME = "benchmark_core.adapters"


def moved(old: str, new: str) -> Callable[[str], Any]:
    """Warn that `old` moved to `new` and give `old` a `__getattr__` that reads `new`'s attributes."""
    warnings.warn(
        f"{old} is deprecated and goes in the next release: it moved to {new}; import its public names "
        f"from {PUBLIC_HOME}",
        DeprecationWarning,
        stacklevel=3,
    )
    target = importlib.import_module(new)

    def __getattr__(name: str) -> Any:
        return getattr(target, name)

    return __getattr__
