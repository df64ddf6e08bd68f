"""The report's own headline fields and the per-kind table that ends the markdown report.

- `perMutationKind`: for each kind, `tasks`, `passed`, `staleSchemaUsed` (rows whose call was
  exactly the pre-migration call), `withStaleSignals` (rows whose call took at least one
  mutated element from the old schema), `severalCalls` (rows whose answer held more than one
  distinct call; the last is graded) and `anotherCallMatched` (those of them in which an earlier
  call matched the expected one).
- `staleSchemaUsedRate`: the strict rate, exact stale calls over all rows.
- `staleSignalRate`: rows with any stale signal over all rows; at least the strict rate, because
  it also counts half-adapted answers.
- `staleSignalCounts`: how often each kind of stale signal was seen.
- `toolCallRate`: rows whose graded call was a native tool call, over all rows (0 in prompt mode;
  in native mode, the rest answered in text or not at all).

Task sets whose prompts offer the decline format (the full split) add:

- `abstentionRate`: noCall rows that declined, over the noCall rows (the right answer there);
- `falseAbstentionRate`: rows that declined where a call was possible (every other task offering
  the decline, and drift episodes that made no call), over those rows;
- `drift`: the drift episodes' `episodes`, `adaptedAfterError` (the API refused the stale call and
  the episode then ended with the expected call), `adaptedAfterErrorRate`, `meanTurnsToAdapt`
  (calls from the first refusal to the accepted one, over the adapted episodes), `staleRepeats`
  (stale calls sent again after the refusal, in total); `driftPerKind` the same counts per drifted
  kind (`tasks` being its episodes), the drift rows of the HTML report's tables.

Rows that errored count as tasks that neither passed nor used the old schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from benchmark_core import JsonObject, RunReport, RunRow, Task

from ._by_year import per_change_year, year_markdown
from ._mutations import ALL_KINDS, STALE_SIGNALS

#: The kinds of the report's per-kind table, in order: the mutation kinds, then the full split's.
REPORT_KINDS: tuple[str, ...] = (*ALL_KINDS, "removedField", "control", "noCall", "drift")
#: The real split's report dimensions, beside mutationKind and baseSchema.
REAL_DIMENSIONS: tuple[str, ...] = ("product", "changeKind", "changeYear")

_COUNTS = ("tasks", "passed", "staleSchemaUsed", "withStaleSignals", "severalCalls", "anotherCallMatched")
_DRIFT_COUNTS = ("tasks", "passed", "adaptedAfterError", "staleRepeats")


def task_groups(task: Task) -> dict[str, str]:
    """The `groups` hook: every report carries the mean score per mutation kind and per base schema
    (the dimension the interval clusters by)."""
    groups = {"mutationKind": str(task.metadata.get("mutationKind", "unknown"))}
    base = task.metadata.get("baseSchema")
    if isinstance(base, str) and base:
        groups["baseSchema"] = base
    # The real split's tasks (a real task's baseSchema is its Twilio operation, the cluster).
    for dimension in REAL_DIMENSIONS:
        label = task.metadata.get(dimension)
        if isinstance(label, str) and label:
            groups[dimension] = label
    return groups


def _kind_order(kinds: set[str]) -> list[str]:
    return [k for k in REPORT_KINDS if k in kinds] + sorted(kinds - set(REPORT_KINDS))


def _signals(row: RunRow) -> list[Any]:
    raw = row.details.get("staleSignals")
    return raw if isinstance(raw, list) else []


def summarize(tasks: Sequence[Task], rows: Sequence[RunRow]) -> JsonObject:
    """The `summarize` hook: headline fields computed from the rows, grouped by the tasks' kinds."""
    kind_of = {task.id: str(task.metadata.get("mutationKind", "unknown")) for task in tasks}
    per_kind: dict[str, dict[str, int]] = {}
    counts = dict.fromkeys(STALE_SIGNALS, 0)
    stale_rows = signal_rows = tool_call_rows = 0
    for row in rows:
        entry = per_kind.setdefault(kind_of.get(row.task_id, "unknown"), dict.fromkeys(_COUNTS, 0))
        signals = _signals(row)
        stale = row.details.get("staleSchemaUsed") is True
        distinct = row.details.get("distinctCalls")
        several = isinstance(distinct, int) and distinct > 1
        entry["tasks"] += 1
        entry["passed"] += int(row.passed)
        entry["staleSchemaUsed"] += int(stale)
        entry["withStaleSignals"] += int(bool(signals))
        entry["severalCalls"] += int(several)
        entry["anotherCallMatched"] += int(several and row.details.get("anotherCallMatched") is True)
        stale_rows += int(stale)
        signal_rows += int(bool(signals))
        tool_call_rows += int(row.details.get("callSource") == "toolCalls")
        for signal in signals:
            name = signal.get("signal") if isinstance(signal, dict) else None
            if isinstance(name, str):
                counts[name] = counts.get(name, 0) + 1
    total = len(rows)
    return {
        "perMutationKind": {kind: per_kind[kind] for kind in _kind_order(set(per_kind))},
        "staleSchemaUsedRate": stale_rows / total if total else 0.0,
        "staleSignalRate": signal_rows / total if total else 0.0,
        "staleSignalCounts": counts,
        "toolCallRate": tool_call_rows / total if total else 0.0,
        **abstention_fields(tasks, rows),
        **({"perChangeYear": years} if (years := per_change_year(tasks, rows)) else {}),
    }


def _ratio(part: int, whole: int) -> Optional[float]:
    return part / whole if whole else None


def abstention_fields(tasks: Sequence[Task], rows: Sequence[RunRow]) -> JsonObject:
    """`abstentionRate`, `falseAbstentionRate` and `drift` (see the module docstring); none of them
    for task sets that never offer the decline (the public and extended splits)."""
    by_id = {task.id: task for task in tasks}
    offered = {tid for tid, t in by_id.items() if t.metadata.get("declineOffered") is True or t.kind == "episode"}
    if not offered:
        return {}
    right = [0, 0]  # declined, rows: on noCall tasks
    wrong = [0, 0]  # declined, rows: where a call was possible
    drift: dict[str, dict[str, int]] = {}
    turns = 0
    for row in rows:
        task = by_id.get(row.task_id)
        if task is None or row.task_id not in offered:
            continue
        tally = right if task.metadata.get("mutationKind") == "noCall" else wrong
        tally[0] += int(row.details.get("declined") is True)
        tally[1] += 1
        if task.kind == "episode":
            entry = drift.setdefault(str(task.metadata.get("driftOf", "unknown")), dict.fromkeys(_DRIFT_COUNTS, 0))
            entry["tasks"] += 1
            entry["passed"] += int(row.passed)
            entry["adaptedAfterError"] += int(row.details.get("adaptedAfterError") is True)
            repeats, taken = row.details.get("staleRepeats"), row.details.get("turnsToAdapt")
            entry["staleRepeats"] += repeats if isinstance(repeats, int) else 0
            turns += taken if isinstance(taken, int) and not isinstance(taken, bool) else 0
    fields: JsonObject = {
        "abstentionRate": _ratio(right[0], right[1]),
        "falseAbstentionRate": _ratio(wrong[0], wrong[1]),
    }
    if drift:
        total = {key: sum(entry[key] for entry in drift.values()) for key in _DRIFT_COUNTS}
        fields["drift"] = {
            "episodes": total["tasks"],
            "passed": total["passed"],
            "adaptedAfterError": total["adaptedAfterError"],
            "adaptedAfterErrorRate": _ratio(total["adaptedAfterError"], total["tasks"]),
            "meanTurnsToAdapt": turns / total["adaptedAfterError"] if total["adaptedAfterError"] else None,
            "staleRepeats": total["staleRepeats"],
        }
        fields["driftPerKind"] = {kind: drift[kind] for kind in _kind_order(set(drift))}
    return fields


def _count(entry: Any, key: str) -> int:
    value = entry.get(key) if isinstance(entry, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _several(values: dict[str, int]) -> str:
    several, matched = values["severalCalls"], values["anotherCallMatched"]
    return f"{several} ({matched} matched earlier)" if matched else str(several)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def summary_markdown(report: RunReport) -> str:
    """The `summary_markdown` hook: the per-kind breakdown that ends the markdown report."""
    per_kind = report.summary.get("perMutationKind")
    if not isinstance(per_kind, dict) or not per_kind:
        return "## Per mutation kind\n\nThis report has no per-kind breakdown.\n"
    lines = [
        "## Per mutation kind",
        "",
        "| Mutation kind | Tasks | Passed | Score | Stale schema used | Stale signals | Several calls |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    totals = dict.fromkeys(_COUNTS, 0)
    for kind, entry in per_kind.items():
        # A report read back from a file may carry anything here; render what is countable.
        values = {key: _count(entry, key) for key in totals}
        for key, value in values.items():
            totals[key] += value
        lines.append(
            f"| {kind} | {values['tasks']} | {values['passed']} | {_percent(values['passed'], values['tasks'])} "
            f"| {values['staleSchemaUsed']} | {values['withStaleSignals']} | {_several(values)} |"
        )
    n = totals["tasks"]
    lines.append(
        f"| **all** | {n} | {totals['passed']} | {_percent(totals['passed'], n)} "
        f"| {totals['staleSchemaUsed']} ({_percent(totals['staleSchemaUsed'], n)}) "
        f"| {totals['withStaleSignals']} ({_percent(totals['withStaleSignals'], n)}) | {_several(totals)} |"
    )
    lines += [
        "",
        "Stale schema used: the call is exactly the one the previous schema version asked for "
        "(`staleSchemaUsedRate`). Stale signals: the call took at least one mutated element from the old "
        "schema, such as an old field name, an old enum value, the old unsplit tool, a missing new required "
        "field, a value in the old unit, the deprecated tool, an old pagination field or a missing scope "
        "(`staleSignalRate`). Several calls: the answer held more than one "
        "distinct call and the last one was graded; in brackets, how many of them had an earlier call that matched.",
    ]
    lines += _abstention_markdown(report)
    rate = report.summary.get("toolCallRate")
    if report.mode == "native" and isinstance(rate, (int, float)) and not isinstance(rate, bool):
        lines += [
            "",
            f"Tool-call rate: {100 * rate:.1f}% of the answers were native tool calls (`toolCallRate`); the rest "
            "were graded from their text or had no call.",
        ]
    lines += year_markdown(report)
    return "\n".join(lines) + "\n"


def _rate(value: Any) -> str:
    return f"{100 * value:.1f}%" if isinstance(value, (int, float)) and not isinstance(value, bool) else "n/a"


def _abstention_markdown(report: RunReport) -> list[str]:
    """The abstention line and the drift table of a report whose tasks offered the decline."""
    summary = report.summary
    if "abstentionRate" not in summary:
        return []
    lines = [
        "",
        f"Abstention: {_rate(summary.get('abstentionRate'))} of the noCall requests were declined "
        f"(`abstentionRate`, the right answer there); {_rate(summary.get('falseAbstentionRate'))} of the "
        "requests that could be carried out were declined (`falseAbstentionRate`). An answer that cannot be "
        "parsed is a format error, never a decline.",
    ]
    drift = summary.get("drift")
    per_kind = summary.get("driftPerKind")
    if not isinstance(drift, dict) or not isinstance(per_kind, dict):
        return lines
    lines += [
        "",
        "## Drift episodes",
        "",
        "| Drifted kind | Episodes | Passed | Adapted after error | Stale call repeated |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    totals = {"tasks": _count(drift, "episodes"), **{key: _count(drift, key) for key in _DRIFT_COUNTS[1:]}}
    for kind, entry in [*per_kind.items(), ("**all**", totals)]:
        values = {key: _count(entry, key) for key in _DRIFT_COUNTS}
        lines.append(
            f"| {kind} | {values['tasks']} | {values['passed']} | {values['adaptedAfterError']} "
            f"({_percent(values['adaptedAfterError'], values['tasks'])}) | {values['staleRepeats']} |"
        )
    turns = drift.get("meanTurnsToAdapt")
    lines += [
        "",
        "The client had the previous tools; the API refused the stale call with the error a real API gives. "
        "Adapted after error: the episode then ended with the expected call (`adaptedAfterError`), after "
        + (f"{turns:.2f}" if isinstance(turns, (int, float)) else "n/a")
        + " calls on average (`meanTurnsToAdapt`). Stale call repeated: the exact stale call sent again after "
        "the error (`staleRepeats`).",
    ]
    return lines
