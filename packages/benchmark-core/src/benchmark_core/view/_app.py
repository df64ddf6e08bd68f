"""`benchmark-core view`: the results browser as an aiohttp app on loopback.

Every page is rendered by `Site.page` at the path a static site would write it (so `/` and
`/index.html` are the index, `/g/<group>/index.html` a group, ...), and `/live.json` is what the
pages poll for runs in progress: `{"generation": N, "runs": [...]}`, N changing when a report
appeared, changed or went away. Reading and rendering happen off the event loop: the quick pages
(the index, a group page, `live.json`) on one worker thread, a run's and a task's page on another,
and a comparison (two whole reports decoded and bootstrapped, long calls holding the interpreter
lock) in a process of its own, so a slow page never holds the index. The catalog is looked at again
on a thread of its own: a
request only starts that refresh and is answered at once from the last complete state, since a
changed report's group is ranked again (a joint bootstrap, seconds for a group of 50) and the index
must not wait for it. The catalog swaps in a rebuilt state whole, so a page reads the old state or
the new one, never half of each; `live.json`'s generation changes when the new one is in, and the
pages that poll it reload.

A path that names no page is a 404 with a page saying so; a path that tries to leave the pages
(`..`, a backslash, a NUL) is refused the same way, since paths only ever name catalog entries.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import multiprocessing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

import attrs
from aiohttp import web

from ._catalog import GroupView, ResultsCatalog, RunFile
from ._paths import INDEX, LIVE_JSON
from ._site import Site, compare_pair, render_compare

__all__ = ["CATALOG", "create_view_app", "not_found_page"]

#: The app's catalog, for whoever needs to look at the state it serves (the tests).
CATALOG = web.AppKey("catalog", ResultsCatalog)

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def not_found_page(path: str) -> str:
    from ..reports._html_page import e, page
    from ._html_common import VIEW_CSS, trail

    depth = max(len([p for p in path.split("/") if p]) - 1, 0)
    here = "/".join(["x"] * depth + ["index.html"])  # a trail link that climbs back to the index
    return page(
        "Not found",
        VIEW_CSS + trail(here, [("not found", None)], rule=False) + f'<h1>Not found</h1><p id="not-found">No page at '
        f"<code>/{e(path)}</code>: no such group, run, task or comparison in these results.</p>",
        "",
    )


def create_view_app(roots: Sequence[Path], *, resamples: int = 10_000, seed: int = 1) -> web.Application:
    """The app over `roots` (folders of reports); reads them before returning."""
    worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="view")
    reader = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="view-reports")
    refresher = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="view-catalog")
    refreshing: Optional[concurrent.futures.Future[bool]] = None
    catalog = worker.submit(ResultsCatalog, list(roots), resamples=resamples, seed=seed).result()
    site = Site(catalog)
    comparer = _Comparer(catalog)

    async def on_worker(function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(worker, function, *args)

    async def on_reader(function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(reader, function, *args)

    def refresh_soon() -> None:
        """Start a look at the folders unless one is under way (called on the loop alone)."""
        nonlocal refreshing
        if refreshing is None or refreshing.done():
            refreshing = refresher.submit(catalog.refresh)

    def quick_page(path: str) -> Optional[str]:
        with catalog.published:
            return site.page(path)

    def live() -> dict[str, Any]:
        return {"generation": catalog.generation, "runs": [run.to_json() for run in catalog.live()]}

    async def page(request: web.Request) -> web.Response:
        path = request.match_info.get("path", "")
        if _refused(path):
            return web.Response(text=not_found_page(path), status=404, content_type="text/html", headers=_HEADERS)
        if path and not path.endswith(("/", ".html")) and path != LIVE_JSON:
            # A folder's page named without its slash: its relative links would resolve one level up.
            raise web.HTTPMovedPermanently(f"/{path}/" + (f"?{request.query_string}" if request.query_string else ""))
        refresh_soon()
        if path == LIVE_JSON:
            document = await on_worker(live)
            return web.Response(text=json.dumps(document), content_type="application/json", headers=_HEADERS)
        if _compare(path):
            html = await comparer.page(path)
        else:
            html = await (on_worker(quick_page, path) if _quick(path) else on_reader(site.page, path))
        if html is None:
            return web.Response(text=not_found_page(path), status=404, content_type="text/html", headers=_HEADERS)
        return web.Response(text=html, content_type="text/html", headers=_HEADERS)

    async def close_worker(_app: web.Application) -> None:
        for pool in (worker, reader, refresher):
            pool.shutdown(wait=False, cancel_futures=True)

    app = web.Application()
    app[CATALOG] = catalog
    app.router.add_get("/{path:.*}", page)
    app.on_startup.append(comparer.start)
    app.on_cleanup.extend([close_worker, comparer.close])
    return app


class _Comparer:
    """Compare pages, each rendered in a process of its own. A compare page decodes two whole
    reports and bootstraps their difference: long calls that hold the interpreter lock (one
    `json.loads` per report), which kept the index waiting when they ran on a thread of the server.
    The process is spawned (the server has threads) and shares nothing with the index."""

    def __init__(self, catalog: ResultsCatalog) -> None:
        self.catalog = catalog
        self.pool = _spawned_worker()

    async def start(self, _app: web.Application) -> None:
        self.pool.submit(int)  # spawn it now: its imports take a second, not the first compare page's

    async def close(self, _app: web.Application) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def page(self, path: str) -> Optional[str]:
        job = self._job(path)
        if job is None:
            return None
        catalog, loop = self.catalog, asyncio.get_running_loop()
        try:
            html: str = await loop.run_in_executor(self.pool, render_compare, *job, catalog.resamples, catalog.seed)
        except concurrent.futures.BrokenExecutor:
            # The worker died (killed, out of memory): a new one serves this page and the next ones,
            # so one lost process does not turn every later compare page into an error.
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = _spawned_worker()
            html = await loop.run_in_executor(self.pool, render_compare, *job, catalog.resamples, catalog.seed)
        return html

    def _job(self, path: str) -> Optional[tuple[GroupView, RunFile, RunFile]]:
        """The page's group and runs, the group cut to those two runs (what the page reads of it)."""
        parts = path.strip("/").split("/")
        view = self.catalog.group(parts[1])
        pair = compare_pair(view, parts[3].removesuffix(".html")) if view is not None else None
        if view is None or pair is None:
            return None
        runs = [run for run in pair if run not in view.partial]
        return attrs.evolve(view, runs=runs, partial=[run for run in pair if run in view.partial], cells={}), *pair


def _spawned_worker() -> concurrent.futures.ProcessPoolExecutor:
    return concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def _quick(path: str) -> bool:
    """The index and the group pages: rendered from the catalog alone, no report read."""
    parts = [part for part in path.split("/") if part]
    return not parts or parts == [INDEX] or (parts[0] == "g" and (len(parts) == 2 or parts[2:] == [INDEX]))


def _compare(path: str) -> bool:
    parts = path.strip("/").split("/")
    return len(parts) == 4 and parts[0] == "g" and parts[2] == "compare" and parts[3].endswith(".html")


def _refused(path: str) -> bool:
    parts = path.split("/")
    return any(part in ("..", ".") for part in parts) or "\\" in path or "\x00" in path
