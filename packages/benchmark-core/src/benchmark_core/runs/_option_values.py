"""How the CLI's text becomes a run option's value (JSON objects, prices), the provider option's
help: the parsers `RunOptions` and `RunTarget` (`options.py`, `target.py`) declare; and the check of
a value against its declaration (choices, bounds)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .._model import JsonObject
from ..errors._usage import ConfigurationError

if TYPE_CHECKING:
    from ._options import OptionSpec


def json_object(text: str, flag: str = "--extra-body", example: str = '{"top_k": 40}') -> JsonObject:
    from .._util.json_values import loads

    try:
        value = loads(text)
    except ValueError as exc:
        raise ConfigurationError(f"{flag} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ConfigurationError(f"{flag} must be a JSON object, like '{example}'")
    return value


def prices_object(text: str) -> JsonObject:
    from ..adapters._prices import Prices

    value = json_object(text, "--prices", '{"input": 3, "output": 15}')
    Prices.from_json(value)  # refused here, before any request, when malformed
    return value


def provider_help() -> str:
    """The providers, each with the variable of its key: from the one provider table."""
    from ..adapters.catalog import PROVIDER_TABLE

    described = [
        f"{info.name} ({'$' + info.key_variable if info.key_variable else 'offline'}"
        f"{'' if info.key_required else ', optional'})"
        for info in PROVIDER_TABLE
    ]
    return (
        "Provider: "
        + ", ".join(described)
        + ". Each reads its API root from $<NAME>_BASE_URL; `providers` lists the default URLs."
    )


def check_value(name: str, value: Any, spec: OptionSpec) -> None:
    if value is None:
        return
    if spec.choices is not None and value not in spec.choices:
        raise ConfigurationError(f"{name} must be one of {', '.join(spec.choices)}, not {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ConfigurationError(f"{name} must be a finite number")
        if spec.minimum is not None and (value < spec.minimum or (spec.min_open and value == spec.minimum)):
            bound = "above" if spec.min_open else "at least"
            raise ConfigurationError(f"{name} must be {bound} {spec.minimum:g}, not {value:g}")
        if spec.maximum is not None and value > spec.maximum:
            raise ConfigurationError(f"{name} must be at most {spec.maximum:g}, not {value:g}")
