"""`rows_frame`'s reading: each report decoded by msgspec into just the fields a row of the frame
needs (a row's trace and episode, most of a report's bytes, are skipped by the decoder, not built
as Python objects: about 2.5x faster than the standard library's parser), its rows appended to one
set of columns, and the document dropped before the next report is read."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Optional

from ..errors._base import UsageError
from ..errors._requests import InvalidJsonError
from ..errors._usage import MissingExtraError, UnreadableFileError
from ._reading import ReportSource, walk_paths

#: The columns every report gives, in order; `group.<dimension>` and `detail.<field>` follow.
ROW_COLUMNS = (
    "report",
    "benchmark",
    "version",
    "model",
    "provider",
    "mode",
    "seed",
    "task",
    "epoch",
    "score",
    "passed",
    "error_code",
    "error",
    "attempts",
    "prompt_tokens",
    "completion_tokens",
    "tokens",
    "cost_usd",
    "latency_ms",
    "cache_hits",
)
_SCALARS = (str, int, float, bool)


class RowColumns:
    """Columns (lists of equal length) that grow report by report; a column that first appears in
    a later report is filled with None for the rows before it."""

    def __init__(self) -> None:
        self.data: dict[str, list[Any]] = {name: [] for name in ROW_COLUMNS}
        self.count = 0

    def add(self, path: Path, report: Any) -> None:
        rows = report.rows
        n = len(rows)
        data = self.data
        for name, value in (
            ("report", str(path)),
            ("benchmark", report.benchmark),
            ("version", report.version),
            ("model", report.model),
            ("provider", report.provider),
            ("mode", report.mode),
            ("seed", report.seed),
        ):
            data[name].extend([value] * n)
        prompt = [row.usage.prompt_tokens for row in rows]
        completion = [row.usage.completion_tokens for row in rows]
        data["task"].extend([row.task_id for row in rows])
        data["epoch"].extend([row.epoch or 1 for row in rows])
        data["score"].extend([row.score for row in rows])
        data["passed"].extend([row.passed for row in rows])
        data["error_code"].extend([row.error_code for row in rows])
        data["error"].extend([row.error for row in rows])
        data["attempts"].extend([row.attempts for row in rows])
        data["prompt_tokens"].extend(prompt)
        data["completion_tokens"].extend(completion)
        data["tokens"].extend([p + c for p, c in zip(prompt, completion)])
        data["cost_usd"].extend([row.usage.cost_usd for row in rows])
        data["latency_ms"].extend([row.latency_ms for row in rows])
        data["cache_hits"].extend([row.cache_hits for row in rows])
        self._spread("group.", [row.groups for row in rows])
        self._spread("detail.", [dict(flattened(row.details)) for row in rows])
        self.count += n

    def _spread(self, prefix: str, values: list[dict[str, Any]]) -> None:
        """Mappings, one per row, as one column per key (None where a row lacks it)."""
        keys: dict[str, None] = {}
        for value in values:
            keys.update(dict.fromkeys(value))
        for key in keys:
            column = self.data.setdefault(prefix + key, [None] * self.count)
            column.extend([value.get(key) for value in values])
        for name, column in self.data.items():
            if name.startswith(prefix) and len(column) == self.count:
                column.extend([None] * len(values))


def flattened(details: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """The scalar fields of `details`, nested objects' as `a.b`; lists left out."""
    for key, value in details.items():
        if value is None or isinstance(value, _SCALARS):
            yield prefix + key, value
        elif isinstance(value, dict):
            yield from flattened(value, f"{prefix}{key}.")


def row_reports(sources: Iterable[ReportSource]) -> Iterator[tuple[Path, Any]]:
    """Each run report's path and its decoded rows, one report at a time (see `iter_reports` for
    which files count, and why a shard's report found in a folder is passed over)."""
    decode = _decoder()
    for path, named in walk_paths(sources):
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UnreadableFileError(f"cannot read {path}: {exc}") from None
        report = decode(data, path)
        if report is None:
            if named:
                raise UsageError(f"{path} is not a run report")
        elif named or report.shard is None:
            yield path, report


@functools.lru_cache(maxsize=1)
def _decoder() -> Callable[[bytes, Path], Optional[Any]]:
    """A msgspec decoder of the report fields the frame reads; None for a document that is not a
    run report. The classes are defined here, on first use, so that importing this module needs no
    msgspec."""
    try:
        import msgspec
    except ImportError:
        raise MissingExtraError(
            "results as data need the `analysis` extra (pandas, pyarrow, msgspec): "
            "pip install 'benchmark-core[analysis]'"
        ) from None

    decoder = msgspec.json.Decoder(_report_struct(msgspec))

    def decode(data: bytes, path: Path) -> Optional[Any]:
        try:
            return decoder.decode(data)
        except msgspec.ValidationError:
            return None
        except msgspec.DecodeError as exc:
            raise InvalidJsonError(f"{path}: not JSON ({exc})") from None

    return decode


def _report_struct(msgspec: Any) -> Any:
    """The report as the frame reads it: identity, and per row its figures, groups and details."""
    # defstruct rather than class statements: this module's annotations are strings (PEP 563),
    # which msgspec could not resolve for classes local to a function.
    usage = msgspec.defstruct(
        "Usage",
        [("prompt_tokens", int, 0), ("completion_tokens", int, 0), ("cost_usd", Optional[float], None)],
        rename="camel",
    )
    row = msgspec.defstruct(
        "Row",
        [
            ("task_id", str),
            ("score", float),
            ("passed", bool),
            ("attempts", int, 0),
            ("latency_ms", Optional[int], None),
            ("epoch", Optional[int], None),
            ("error", Optional[str], None),
            ("error_code", Optional[str], None),
            ("cache_hits", int, 0),
            ("usage", usage, msgspec.field(default_factory=usage)),
            ("groups", dict[str, str], msgspec.field(default_factory=dict)),
            ("details", dict[str, Any], msgspec.field(default_factory=dict)),
        ],
        rename="camel",
    )
    return msgspec.defstruct(
        "Report",
        [
            ("benchmark", str),
            ("version", str),
            ("model", str),
            ("provider", str),
            ("mean", float),
            ("seed", int, 1),
            ("mode", str, "prompt"),
            ("rows", list[row], msgspec.field(default_factory=list)),  # type: ignore[valid-type]
            ("shard", Optional[dict[str, Any]], None),
        ],
    )
