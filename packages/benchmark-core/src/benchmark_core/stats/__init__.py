"""The statistics behind reports and comparisons: bootstrap intervals (plain, paired and clustered,
seeded), Clopper-Pearson, Wilson, McNemar's exact test, group means, and comparing two runs
(`compare_reports`), rendered as Markdown or HTML.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    ".._stats.stats": (
        "bootstrap_ci",
        "clopper_pearson_ci",
        "cluster_bootstrap_ci",
        "mcnemar_exact",
        "paired_bootstrap_ci",
        "McNemarTest",
    ),
    ".._stats.groups": ("group_means",),
    ".._stats.proportions": ("wilson_ci",),
    ".._stats.ranks": (
        "JointBootstrap",
        "RankInterval",
        "ReferenceDifference",
        "joint_bootstrap",
    ),
    ".._stats.holm": ("holm_adjusted",),
    ".._stats.compare": (
        "ComparedRun",
        "Comparison",
        "Difference",
        "GroupDifference",
        "compare_reports",
    ),
    ".._render.compare_markdown": ("render_comparison",),
    ".._render.html_compare": ("render_comparison_html",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._render.compare_markdown import render_comparison
    from .._render.html_compare import render_comparison_html
    from .._stats.compare import ComparedRun, Comparison, Difference, GroupDifference, compare_reports
    from .._stats.groups import group_means
    from .._stats.holm import holm_adjusted
    from .._stats.proportions import wilson_ci
    from .._stats.ranks import JointBootstrap, RankInterval, ReferenceDifference, joint_bootstrap
    from .._stats.stats import (
        McNemarTest,
        bootstrap_ci,
        clopper_pearson_ci,
        cluster_bootstrap_ci,
        mcnemar_exact,
        paired_bootstrap_ci,
    )
__all__ = [
    "ComparedRun",
    "Comparison",
    "Difference",
    "GroupDifference",
    "JointBootstrap",
    "McNemarTest",
    "RankInterval",
    "ReferenceDifference",
    "bootstrap_ci",
    "clopper_pearson_ci",
    "cluster_bootstrap_ci",
    "compare_reports",
    "group_means",
    "holm_adjusted",
    "joint_bootstrap",
    "mcnemar_exact",
    "paired_bootstrap_ci",
    "render_comparison",
    "render_comparison_html",
    "wilson_ci",
]
# End of the generated block.
