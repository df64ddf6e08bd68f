"""The wire format and JSON values: converting between the model's classes and camelCase JSON
(`to_wire`, `from_wire`), reading and writing it (`loads`, `dumps`, byte for byte stable), comparing
and showing JSON values, and the one JSON Schema validator (`first_violation`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._converter": (
        "dumps",
        "to_wire",
        "from_wire",
    ),
    ".._util.json_values": (
        "loads",
        "decode_prefix",
        "first_difference",
        "is_number",
        "json_equal",
        "key_path",
        "show",
    ),
    ".._util.json_schema": (
        "SchemaError",
        "first_violation",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._util.json_schema import SchemaError, first_violation
    from .._util.json_values import decode_prefix, first_difference, is_number, json_equal, key_path, loads, show
    from ._converter import dumps, from_wire, to_wire
__all__ = [
    "SchemaError",
    "decode_prefix",
    "dumps",
    "first_difference",
    "first_violation",
    "from_wire",
    "is_number",
    "json_equal",
    "key_path",
    "loads",
    "show",
    "to_wire",
]
# End of the generated block.
