"""Where each page of the results browser (`view/`) lives. The server and the static site use the same
paths, so every link is relative and works from `http://127.0.0.1` and from `file://` alike:

    index.html                              every group, and the runs in progress
    g/<group>/index.html                    one group: leaderboard, per-dimension tables, the matrix
    g/<group>/runs/<run>.html               one run's report page (what `html` renders)
    g/<group>/tasks/<task>.html             one task, every model side by side
    g/<group>/compare/<run>--<run>.html     two runs of the group compared

Names that come from data (group keys, run labels, task ids) become file names through `slug`:
letters, digits, `.`, `_` and `-` stay; anything else is replaced and a short digest keeps the name
unique, so no name can climb out of its folder.
"""

from __future__ import annotations

import hashlib
import posixpath
import re

__all__ = ["compare_page", "group_page", "relative", "run_page", "slug", "task_page", "INDEX", "LIVE_JSON"]

INDEX = "index.html"
#: What `view` serves for the pages' live updates (not part of a static site).
LIVE_JSON = "live.json"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def slug(name: str) -> str:
    """A file name for `name`: itself when already safe, else a safe form plus a digest of it."""
    safe = _UNSAFE.sub("_", name).lstrip(".")[:80]
    if safe == name and safe:
        return safe
    return f"{safe or 'x'}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def group_page(group: str) -> str:
    return f"g/{group}/index.html"


def run_page(group: str, run: str) -> str:
    return f"g/{group}/runs/{run}.html"


def task_page(group: str, task_id: str) -> str:
    return f"g/{group}/tasks/{slug(task_id)}.html"


def compare_page(group: str, first: str, second: str) -> str:
    return f"g/{group}/compare/{first}--{second}.html"


def relative(page: str, target: str) -> str:
    """The link from the page at `page` to the page at `target` (both paths of this module)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")
