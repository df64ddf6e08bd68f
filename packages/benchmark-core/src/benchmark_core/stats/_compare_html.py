"""A comparison as one self-contained HTML page (`render_comparison_html`): what `html` writes for
a document of `compare --json`, and what `compare --html` writes.

The page says what the Markdown comparison says, drawn: the runs (a leaderboard by mean when three
or more are compared) with each run's 95% interval on one 0-100% axis; then, for each run against
the first, the verdict line, the difference with its paired 95% interval on an axis centred on zero,
the McNemar counts and p, and the per-group differences as a forest of intervals on the same axis.
"""

from __future__ import annotations

from ..reports._html_page import Axis, e, fact_list, interval_svg, page, percent, words
from ._compare import Comparison, Difference
from ._compare_text import epochs_matched, mcnemar_rule, mcnemar_sentence, points, resampled_units

__all__ = ["render_comparison_html"]


def render_comparison_html(comparison: Comparison, *, trail: str = "", extra: str = "", withheld: str = "") -> str:
    """The comparison as one HTML page; the same comparison gives the same bytes. The results
    browser (`view`) adds a `trail` of links above it and `extra` sections (the flipped tasks), and
    for a partial run says `withheld` where each verdict would be."""
    c = comparison
    sections = [trail, _header(c), _runs(c), *(_pair(c, diff, withheld) for diff in c.differences), extra]
    return page(f"Comparison: {c.benchmark} {c.version}", "".join(sections), "")


def _header(c: Comparison) -> str:
    tasks = f"{c.tasks}" + epochs_matched(c.epochs)
    left_out = {label: count for label, count in c.not_compared.items() if count}
    no_mcnemar = mcnemar_rule(c.epochs, c.clustered_by)
    facts = [
        ("benchmark", f"{c.benchmark} {c.version}"),
        ("mode", c.mode),
        ("tasks compared", tasks),
        (
            "paired bootstrap",
            f"{c.resamples:,} resamples over {resampled_units(c.clustered_by, c.clusters)}, seed {c.seed}",
        ),
        ("McNemar test", "exact, when every score is pass/fail" if no_mcnemar is None else f"none ({no_mcnemar})"),
    ]
    if left_out:
        facts.append(("not compared", ", ".join(f"{label}: {count} rows" for label, count in left_out.items())))
    notes = "".join(
        f'<p class="note">{e(run.label)}: {run.errored} row(s) errored and count as 0.</p>'
        for run in c.runs
        if run.errored
    )
    return f"<header><h1>Comparison: {e(c.benchmark)}</h1>{fact_list(facts)}{notes}</header>"


def _runs(c: Comparison) -> str:
    by_label = {run.label: run for run in c.runs}
    order = c.leaderboard if c.leaderboard is not None else [run.label for run in c.runs]
    rows = []
    for rank, label in enumerate(order, start=1):
        run = by_label[label]
        ci = run.confidence_interval95
        said = f"{run.label}: mean {percent(run.mean)}, 95% confidence interval {percent(ci.low)} to {percent(ci.high)}"
        baseline = ' <span class="pill">baseline</span>' if label == c.runs[0].label else ""
        rows.append(
            f'<tr data-run="{e(label)}"><td class="num">{rank}</td><th scope="row">{e(label)}{baseline}</th>'
            f"<td>{e(run.model)}</td><td>{e(run.provider)}</td><td class=num>{run.seed}</td>"
            f"<td class=num>{run.tasks}</td><td class=num>{run.errored}</td>"
            f'<td class="num mean">{percent(run.mean)}</td><td class="num">{percent(ci.low)} to {percent(ci.high)}</td>'
            f"<td>{interval_svg(run.mean, ci.low, ci.high, Axis.share(), said, width=320)}</td></tr>"
        )
    title = "Leaderboard" if c.leaderboard is not None else "Runs"
    first = "rank" if c.leaderboard is not None else "#"
    head = "".join(
        f"<th>{h}</th>"
        for h in (first, "run", "model", "provider", "seed", "tasks", "errored", "mean", "95% CI", "interval")
    )
    note = "sorted by mean, best first" if c.leaderboard is not None else "in the order given"
    return (
        f'<section class="runs" id="runs"><h2>{title}</h2><p class="note">{note}</p>'
        f'<table class="forest" id="run-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
        "</section>"
    )


def _pair(c: Comparison, diff: Difference, withheld: str) -> str:
    ci = diff.confidence_interval95
    ends = [ci.low, ci.high] + [
        end
        for groups in diff.groups.values()
        for g in groups.values()
        for end in (g.confidence_interval95.low, g.confidence_interval95.high)
    ]
    axis = Axis.difference(max(abs(x) for x in ends), points)
    verdict = diff.verdict if diff.verdict in ("better", "worse") and not withheld else "none"
    said = (
        f"{diff.second} minus {diff.first}: {points(diff.mean_difference)} points, 95% confidence interval "
        f"{points(ci.low)} to {points(ci.high)}"
    )
    parts = [
        f'<section class="pair" data-second="{e(diff.second)}"><h2>{e(diff.first)} vs {e(diff.second)}</h2>',
        f'<p class="verdict-line {verdict}" data-verdict="{e("withheld" if withheld else diff.verdict)}">'
        f"{e(withheld or diff.summary)}</p>",
        interval_svg(diff.mean_difference, ci.low, ci.high, axis, said),
    ]
    if diff.mcnemar is not None:
        parts.append(f'<p class="mcnemar">{e(mcnemar_sentence(diff.mcnemar, diff.first, diff.second))}</p>')
    if diff.groups:
        parts.append(_group_table(diff, axis))
    parts.append("</section>")
    return "".join(parts)


def _group_table(diff: Difference, axis: Axis) -> str:
    rows = []
    for dimension, groups in diff.groups.items():
        for group, g in groups.items():
            ci = g.confidence_interval95
            said = (
                f"{dimension} {group}: {points(g.mean_difference)} points, 95% confidence interval "
                f"{points(ci.low)} to {points(ci.high)}"
            )
            rows.append(
                f'<tr data-group="{e(f"{dimension}={group}")}"><td>{e(words(dimension))}</td><th scope="row">'
                f"{e(group)}</th><td class=num>{g.tasks}</td><td class=num>{percent(g.first_mean)}</td>"
                f'<td class=num>{percent(g.second_mean)}</td><td class="num difference">{points(g.mean_difference)}'
                f"</td><td class=num>{points(ci.low)} to {points(ci.high)}</td>"
                f"<td>{interval_svg(g.mean_difference, ci.low, ci.high, axis, said, width=320)}</td></tr>"
            )
    head = "".join(
        f"<th>{e(h)}</th>"
        for h in ("dimension", "group", "tasks", diff.first, diff.second, "difference (points)", "95% CI", "interval")
    )
    return (
        '<table class="forest groups"><caption>Per group (second - first, paired over the group\'s tasks)</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
