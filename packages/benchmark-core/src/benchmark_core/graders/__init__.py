"""Core's graders, each returning a `TaskScore`: `exact_match`, `regex_match`, `numeric_within` and
`json_schema_match` are deterministic; `judge_with_llm` (with `DEFAULT_JUDGE_PROMPT`) makes a paid,
non-reproducible call per grade, so offer it only as an opt-in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._graders": (
        "DEFAULT_JUDGE_PROMPT",
        "exact_match",
        "json_schema_match",
        "judge_with_llm",
        "numeric_within",
        "regex_match",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._graders import (
        DEFAULT_JUDGE_PROMPT,
        exact_match,
        json_schema_match,
        judge_with_llm,
        numeric_within,
        regex_match,
    )
__all__ = [
    "DEFAULT_JUDGE_PROMPT",
    "exact_match",
    "json_schema_match",
    "judge_with_llm",
    "numeric_within",
    "regex_match",
]
# End of the generated block.
