"""A sweep model's API key, checked when the plan is made: before the banner, before anything is
sent, and with the file's line, the way every other mistake in a sweep file is reported."""

from __future__ import annotations

import os
import re
from typing import Optional

from ._sweep_file import KeyPath, SweepFile

__all__ = ["key_variable"]

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def key_variable(source: SweepFile, at: KeyPath, provider: str, key_env: Optional[str]) -> Optional[str]:
    """The model's `api_key_env` (None when not given), checked: it names a variable, and the key is
    there, in that variable or else in the provider's own (`$ANTHROPIC_API_KEY`, ...), as its adapter
    will look for it; local servers need none. Only whether the variable is set is read, never its
    value into the plan."""
    from ..adapters.catalog import PROVIDERS_BY_NAME

    if key_env is not None:
        if not _ENV_NAME.match(key_env):
            raise source.error((*at, "api_key_env"), "must name an environment variable (not hold the key)")
        if not os.environ.get(key_env, "").strip():
            raise source.error((*at, "api_key_env"), f"the environment variable {key_env} is not set")
        return key_env
    info = PROVIDERS_BY_NAME[provider]
    if info.key_required and info.key_variable and not os.environ.get(info.key_variable, "").strip():
        raise source.error(
            (*at, "provider"),
            f"{provider} needs an API key: ${info.key_variable} is not set "
            "(set it, or name the variable that holds the key with api_key_env)",
        )
    return None
