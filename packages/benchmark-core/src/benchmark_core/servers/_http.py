"""The HTTP API: `create_app(benchmark)` builds an aiohttp application, `serve(app)` runs it.

`GET /` is a task browser (`html_browser.render_task_browser_html`): every task of the served list,
each with a form that posts an answer to `/v1/score` and shows the verdict. The other routes are
JSON: `GET /health`, `GET /v1/tasks`, `GET /v1/tasks/{id}`, `POST /v1/score`,
`GET /v1/provenance`, `GET /v1/index-entry` and `GET /openapi.json`. Every failure is
`{"error": {"code", "message"}}`, mapped in one middleware from `BenchmarkError` (its `code` and
`http_status`) and from aiohttp's routing errors; an unexpected exception is a bare 500
INTERNAL_ERROR, its traceback only in the server log. Every response allows any origin, and OPTIONS
answers CORS preflights: there are no credentials to protect, and `POST /v1/score` has no
authentication either, so public deployments belong behind a proxy with auth and rate limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Optional

from aiohttp import web

from .._benchmark.definition import Benchmark
from .._model import Task
from .._util.signals import stop_signals
from ..errors._base import BenchmarkError, InternalError, error_document
from ..errors._failures import ListenError
from ..errors._requests import MethodNotAllowedError, RequestTooLargeError, RouteNotFoundError
from ..errors._tasks import InvalidScoreRequestError
from ..wire._converter import to_wire
from ._documents import health_document, index_entry_document, provenance_document, task_list_document
from ._http_json import BENCHMARK_KEY, json_response, read_json
from ._http_sessions import add_session_routes
from ._openapi import openapi_document
from ._remote import get_remote_task, load_remote_tasks, score_remote_submission, without_grading

#: Request bodies above this many bytes are refused with 413 REQUEST_TOO_LARGE.
MAX_BODY_BYTES = 1024 * 1024

OPENAPI_KEY = web.AppKey("openapi", dict[str, Any])
#: Whether the task routes withhold the grading fields (`routes="public"`).
WITHHELD_KEY = web.AppKey("withheld", bool)
ROUTES = ("full", "public", "scoring", "sessions")

_log = logging.getLogger(__name__)
_SCORE_FIELDS = ("taskId", "submission", "tasks", "seed")
_SCORE_KEYS = frozenset(_SCORE_FIELDS)
_ALLOW_ORIGIN = "Access-Control-Allow-Origin"
#: aiohttp's own routing errors, as the classes of errors.py that report them.
_HTTP_ERRORS: dict[int, type[BenchmarkError]] = {
    404: RouteNotFoundError,
    405: MethodNotAllowedError,
    413: RequestTooLargeError,
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def create_app(benchmark: Benchmark, *, routes: str = "full") -> web.Application:
    """An aiohttp application serving `benchmark`, with the routes `routes` names (one of `ROUTES`):

    - "full": the task routes and the sessions (in-process use and tests);
    - "public": what `serve` answers by default: the task routes with every task's grading fields
      (`expected`, `metadata`: the stale call, target states, what the grader reads) withheld, no
      `POST /v1/score` (its reasons quote the expected answer, and any score is an oracle to try
      answers on), and the sessions, so a session's agent finds no answer key on the server it
      plays on;
    - "scoring": the full task routes and no sessions (`serve --scoring-api`);
    - "sessions": the routes of sessions already open and their MCP endpoints, nothing else (the
      server of `run --agent`, whose runner opens them).

    It keeps its state in the app (no globals), so one process can serve several benchmarks side
    by side."""
    if routes not in ROUTES:
        raise ValueError(f"routes is one of {', '.join(ROUTES)}, not {routes!r}")
    app = web.Application(middlewares=[_answer_middleware], client_max_size=MAX_BODY_BYTES)
    app[BENCHMARK_KEY] = benchmark
    app[WITHHELD_KEY] = routes == "public"
    if routes != "sessions":
        _add_task_routes(app)
    if routes != "scoring":
        add_session_routes(app, opening=routes != "sessions")
    return app


def _add_task_routes(app: web.Application) -> None:
    scoring = not app[WITHHELD_KEY]
    app[OPENAPI_KEY] = openapi_document(app[BENCHMARK_KEY], max_body_bytes=MAX_BODY_BYTES, scoring=scoring)
    routes: list[tuple[str, str, Handler]] = [
        ("GET", "/", _task_browser),
        ("GET", "/health", _health),
        ("GET", "/v1/tasks", _list_tasks),
        ("GET", "/v1/tasks/{task_id}", _get_task),
        *([("POST", "/v1/score", _score)] if scoring else []),
        ("GET", "/v1/provenance", _provenance),
        ("GET", "/v1/index-entry", _index_entry),
        ("GET", "/openapi.json", _openapi),
    ]
    for method, path, handler in routes:
        if method == "GET":
            app.router.add_get(path, handler)
        else:
            app.router.add_route(method, path, handler)
        app.router.add_route("OPTIONS", path, _preflight(method))


def serve(app: web.Application, host: str = "127.0.0.1", port: int = 8787, *, name: Optional[str] = None) -> None:
    """Serve `app` until SIGINT or SIGTERM, then shut down cleanly. Blocks. The listening URL goes
    to stderr, after `name` (default: the served benchmark's id); port 0 picks a free port and
    prints the one chosen."""
    # KeyboardInterrupt is how Ctrl+C arrives where no signal handler can be installed (Windows).
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(app, host, port, name))


async def _serve(app: web.Application, host: str, port: int, name: Optional[str]) -> None:
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    with stop_signals() as stop:
        try:
            site = web.TCPSite(runner, host, port)
            try:
                await site.start()
            except OSError as exc:
                raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
            bound_port = runner.addresses[0][1]
            shown_host = f"[{host}]" if ":" in host else host
            if name is None:
                name = app[BENCHMARK_KEY].id if BENCHMARK_KEY in app else "benchmark"
            print(
                f"{name}: listening on http://{shown_host}:{bound_port} (Ctrl+C to stop)", file=sys.stderr, flush=True
            )
            await stop.wait()
        finally:
            await runner.cleanup()


# -- handlers ------------------------------------------------------------------------------------


async def _task_browser(request: web.Request) -> web.Response:
    from ..reports._html_browser import render_task_browser_html

    benchmark = request.app[BENCHMARK_KEY]
    shown = _shown(request, await benchmark.load_tasks())
    page = render_task_browser_html(benchmark, shown, scoring=not request.app[WITHHELD_KEY])
    return web.Response(text=page, content_type="text/html", charset="utf-8")


async def _health(request: web.Request) -> web.Response:
    return json_response(health_document(request.app[BENCHMARK_KEY]))


async def _list_tasks(request: web.Request) -> web.Response:
    benchmark = request.app[BENCHMARK_KEY]
    tasks = await load_remote_tasks(benchmark, request.query.get("tasks"))
    return json_response(task_list_document(benchmark, _shown(request, tasks)))


async def _get_task(request: web.Request) -> web.Response:
    benchmark = request.app[BENCHMARK_KEY]
    task = await get_remote_task(benchmark, request.match_info["task_id"], request.query.get("tasks"))
    return json_response(to_wire(_shown(request, [task])[0]))


def _shown(request: web.Request, tasks: list[Task]) -> list[Task]:
    """The tasks as this app answers them: without their grading fields where it withholds them."""
    return without_grading(tasks) if request.app[WITHHELD_KEY] else tasks


async def _score(request: web.Request) -> web.Response:
    benchmark = request.app[BENCHMARK_KEY]
    body = await read_json(request)
    if not isinstance(body, dict):
        raise InvalidScoreRequestError("the body must be a JSON object {taskId, submission, tasks?, seed?}")
    if not _SCORE_KEYS.issuperset(body):
        unknown = sorted(set(body) - _SCORE_KEYS)
        raise InvalidScoreRequestError(
            f"unknown field(s) {', '.join(map(repr, unknown))}; expected {', '.join(_SCORE_FIELDS)}"
        )
    task_id = body.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        raise InvalidScoreRequestError("taskId must be a non-empty string")
    if "submission" not in body:
        raise InvalidScoreRequestError("submission is required: {answer?, toolCalls?, toolLog?, finalState?}")
    seed = body.get("seed", 1)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidScoreRequestError("seed must be an integer")
    tasks = body.get("tasks")
    if tasks is not None and not isinstance(tasks, str):
        raise InvalidScoreRequestError("tasks must be a string naming a task file")
    verdict = await score_remote_submission(benchmark, task_id, body["submission"], tasks, seed)
    return json_response(to_wire(verdict))


async def _provenance(request: web.Request) -> web.Response:
    benchmark = request.app[BENCHMARK_KEY]
    await load_remote_tasks(benchmark, request.query.get("tasks"))
    return json_response(provenance_document(benchmark))


async def _index_entry(request: web.Request) -> web.Response:
    benchmark = request.app[BENCHMARK_KEY]
    tasks = await load_remote_tasks(benchmark, request.query.get("tasks"))
    return json_response(index_entry_document(benchmark, tasks))


async def _openapi(request: web.Request) -> web.Response:
    return json_response(request.app[OPENAPI_KEY])


def _preflight(method: str) -> Handler:
    allowed = ", ".join(["HEAD", "GET", "OPTIONS"] if method == "GET" else [method, "OPTIONS"])

    async def preflight(request: web.Request) -> web.Response:
        return web.Response(
            status=204,
            headers={
                "Access-Control-Allow-Methods": allowed,
                "Access-Control-Allow-Headers": request.headers.get("Access-Control-Request-Headers", "Content-Type"),
                "Access-Control-Max-Age": "86400",
                "Allow": allowed,
            },
        )

    return preflight


# -- plumbing ------------------------------------------------------------------------------------


def _error(status: int, code: str, message: str) -> web.Response:
    return json_response(error_document(code, message), status=status)


@web.middleware
async def _answer_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every routed request passes here (aiohttp's own 404 and 405 too): failures become error
    documents, and every answer allows any origin. The header is set here rather than in an
    `on_response_prepare` signal, which would cost every request a coroutine more; answers that
    skip the middleware (a request aiohttp cannot parse) would not get the signal either."""
    try:
        response = await handler(request)
    except BenchmarkError as exc:
        response = _error(exc.http_status, exc.code, exc.message)
    except web.HTTPException as exc:
        if exc.status < 400:
            exc.headers[_ALLOW_ORIGIN] = "*"
            raise
        known = _HTTP_ERRORS.get(exc.status)
        code = known.code if known is not None else f"HTTP_{exc.status}"
        response = _error(exc.status, code, _describe(request, exc))
        if "Allow" in exc.headers:
            response.headers["Allow"] = exc.headers["Allow"]
    except Exception:
        _log.exception("unexpected error while answering %s %s", request.method, request.path)
        response = _error(InternalError.http_status, InternalError.code, "internal server error")
    response.headers[_ALLOW_ORIGIN] = "*"
    return response


def _describe(request: web.Request, exc: web.HTTPException) -> str:
    if exc.status == 404:
        return f"no route {request.path}; see /openapi.json"
    if exc.status == 405:
        return f"{request.method} is not allowed on {request.path}; allowed: {exc.headers.get('Allow', 'none')}"
    if exc.status == 413:
        return f"request body is over the {MAX_BODY_BYTES}-byte limit"
    return exc.reason
