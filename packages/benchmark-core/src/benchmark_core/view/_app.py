"""`benchmark-core view`: the results browser as an aiohttp app on loopback.

Every page is rendered by `Site.page` at the path a static site would write it (so `/` and
`/index.html` are the index, `/g/<group>/index.html` a group, ...), and `/live.json` is what the
pages poll for runs in progress: `{"generation": N, "runs": [...]}`, N changing when a report
appeared, changed or went away. Reading and rendering happen on one worker thread: the event loop
stays free to answer, and the catalog is never read while it is rebuilt.

A path that names no page is a 404 with a page saying so; a path that tries to leave the pages
(`..`, a backslash, a NUL) is refused the same way, since paths only ever name catalog entries.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from aiohttp import web

from ._catalog import ResultsCatalog
from ._paths import LIVE_JSON
from ._site import Site

__all__ = ["create_view_app", "not_found_page"]

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def not_found_page(path: str) -> str:
    from ..reports._html_page import e, page
    from ._html_common import VIEW_CSS, trail

    depth = max(len([p for p in path.split("/") if p]) - 1, 0)
    here = "/".join(["x"] * depth + ["index.html"])  # a trail link that climbs back to the index
    return page(
        "Not found",
        VIEW_CSS + trail(here, [("not found", None)]) + f'<h1>Not found</h1><p id="not-found">No page at '
        f"<code>/{e(path)}</code>: no such group, run, task or comparison in these results.</p>",
        "",
    )


def create_view_app(roots: Sequence[Path], *, resamples: int = 10_000, seed: int = 1) -> web.Application:
    """The app over `roots` (folders of reports); reads them before returning."""
    worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="view")
    catalog = worker.submit(ResultsCatalog, list(roots), resamples=resamples, seed=seed).result()
    site = Site(catalog)

    async def on_worker(function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(worker, function, *args)

    def render(path: str) -> Optional[str]:
        catalog.refresh()
        return site.page(path)

    def live() -> dict[str, Any]:
        catalog.refresh()
        return {"generation": catalog.generation, "runs": [run.to_json() for run in catalog.live()]}

    async def page(request: web.Request) -> web.Response:
        path = request.match_info.get("path", "")
        if _refused(path):
            return web.Response(text=not_found_page(path), status=404, content_type="text/html", headers=_HEADERS)
        if path == LIVE_JSON:
            document = await on_worker(live)
            return web.Response(text=json.dumps(document), content_type="application/json", headers=_HEADERS)
        html = await on_worker(render, path)
        if html is None:
            return web.Response(text=not_found_page(path), status=404, content_type="text/html", headers=_HEADERS)
        return web.Response(text=html, content_type="text/html", headers=_HEADERS)

    async def close_worker(_app: web.Application) -> None:
        worker.shutdown(wait=False, cancel_futures=True)

    app = web.Application()
    app.router.add_get("/{path:.*}", page)
    app.on_cleanup.append(close_worker)
    return app


def _refused(path: str) -> bool:
    parts = path.split("/")
    return any(part in ("..", ".") for part in parts) or "\\" in path or "\x00" in path
