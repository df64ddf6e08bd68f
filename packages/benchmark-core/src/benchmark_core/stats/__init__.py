"""The statistics behind reports and comparisons: bootstrap intervals (plain, paired and clustered,
seeded), Clopper-Pearson, Wilson, McNemar's exact test, group means, and comparing two runs
(`compare_reports`), rendered as Markdown or HTML.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._stats": (
        "bootstrap_ci",
        "clopper_pearson_ci",
        "cluster_bootstrap_ci",
        "mcnemar_exact",
        "paired_bootstrap_ci",
        "McNemarTest",
    ),
    "._groups": ("group_means",),
    "._proportions": ("wilson_ci",),
    "._ranks": (
        "JointBootstrap",
        "RankInterval",
        "ReferenceDifference",
        "joint_bootstrap",
    ),
    "._holm": ("holm_adjusted",),
    "._compare": (
        "ComparedRun",
        "Comparison",
        "Difference",
        "GroupDifference",
        "compare_reports",
    ),
    "._compare_markdown": ("render_comparison",),
    "._compare_html": ("render_comparison_html",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._compare import ComparedRun, Comparison, Difference, GroupDifference, compare_reports
    from ._compare_html import render_comparison_html
    from ._compare_markdown import render_comparison
    from ._groups import group_means
    from ._holm import holm_adjusted
    from ._proportions import wilson_ci
    from ._ranks import JointBootstrap, RankInterval, ReferenceDifference, joint_bootstrap
    from ._stats import (
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
