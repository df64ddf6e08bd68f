"""Episode sessions on the HTTP API, their tools over MCP's streamable HTTP transport.

- `POST /v1/sessions` `{taskId, tasks?, seed?}` opens a session: its id, prompt, system text, tools,
  the URL of its MCP endpoint and the bearer token that reaches it (and nothing else).
- `GET /v1/sessions/{id}` its state; `POST /v1/sessions/{id}/finish` `{answer}` ends it and answers
  the score, graded by replaying the session's own log (`EpisodeSession.finish`).
- `/v1/sessions/{id}/mcp` is the session's MCP endpoint, served by the official SDK's
  `StreamableHTTPSessionManager` (stateless, JSON responses: the episode is the state, kept here,
  so nothing else lives per MCP connection). The request reaches the SDK's ASGI app through a small
  bridge, after its token is checked; the low-level server then finds the session in the ASGI scope.

Every session route needs `Authorization: Bearer <token>` (401 UNAUTHORIZED without one, 404
SESSION_NOT_FOUND with another session's); see `SessionRegistry` for the limits.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Optional

from aiohttp import web

from ..episodes._session import EpisodeSession, open_session
from ..episodes._session_registry import SessionRegistry
from ..errors._sessions import InvalidSessionRequestError, SessionUnauthorizedError
from ..wire._converter import to_wire
from ._http_json import BENCHMARK_KEY, json_response, read_json
from ._remote import remote_task_file

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

REGISTRY_KEY = web.AppKey("sessions", SessionRegistry)
_MANAGER_KEY: web.AppKey[StreamableHTTPSessionManager] = web.AppKey("mcp_manager")
#: Where the bridge puts the session a request reached, for the MCP server's handlers.
SCOPE_KEY = "benchmark_core.session"
_OPEN_FIELDS = frozenset({"taskId", "tasks", "seed"})


def add_session_routes(
    app: web.Application, registry: Optional[SessionRegistry] = None, *, opening: bool = True
) -> None:
    """Serve episode sessions on `app` (see the module docstring); without `opening`, no client
    opens one (the run's server: its runner adds them, and an agent that opened sessions of its own
    could try answers on them)."""
    app[REGISTRY_KEY] = registry if registry is not None else SessionRegistry()
    if opening:
        app.router.add_post("/v1/sessions", _open)
    app.router.add_get("/v1/sessions/{session_id}", _state)
    app.router.add_post("/v1/sessions/{session_id}/finish", _finish)
    app.router.add_route("*", "/v1/sessions/{session_id}/mcp", _mcp)
    if BENCHMARK_KEY in app and app[BENCHMARK_KEY].environment is not None:
        # Only a benchmark with episodes starts the SDK's manager (and imports mcp at all).
        app.cleanup_ctx.append(_run_mcp)


async def _run_mcp(app: web.Application) -> AsyncIterator[None]:
    """The SDK's session manager (its task group) for the app's lifetime, and the idle sweeper."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from ._mcp_episode import episode_server

    async def session_for(ctx: Any) -> EpisodeSession:
        session: EpisodeSession = ctx.request.scope[SCOPE_KEY]
        return session

    manager = StreamableHTTPSessionManager(
        app=episode_server("benchmark-core-session", session_for), json_response=True, stateless=True
    )
    registry = app[REGISTRY_KEY]
    started, stop = asyncio.Event(), asyncio.Event()

    async def serve() -> None:
        # In a task of its own: the manager's task group must be entered and left in one task,
        # and aiohttp runs an app's start-up and clean-up in different ones.
        async with manager.run():
            started.set()
            while not stop.is_set():
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=max(registry.idle_timeout / 4, 0.05))
                registry.expire()

    task = asyncio.ensure_future(serve())
    waiter = asyncio.ensure_future(started.wait())
    await asyncio.wait([task, waiter], return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    if task.done():
        task.result()  # the manager failed to start: say why
    app[_MANAGER_KEY] = manager
    yield
    stop.set()
    await task


def _session(request: web.Request) -> EpisodeSession:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise SessionUnauthorizedError("session routes need Authorization: Bearer <the session's token>")
    return request.app[REGISTRY_KEY].get(request.match_info["session_id"], token.strip())


async def _open(request: web.Request) -> web.Response:
    body = await read_json(request)
    if not isinstance(body, dict) or not _OPEN_FIELDS.issuperset(body):
        raise InvalidSessionRequestError("the body must be a JSON object {taskId, tasks?, seed?}")
    task_id, tasks, seed = body.get("taskId"), body.get("tasks"), body.get("seed", 1)
    if not isinstance(task_id, str) or not task_id:
        raise InvalidSessionRequestError("taskId must be a non-empty string")
    if tasks is not None and not isinstance(tasks, str):
        raise InvalidSessionRequestError("tasks must be a string naming a task file")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidSessionRequestError("seed must be an integer")
    benchmark = request.app[BENCHMARK_KEY]
    with remote_task_file(benchmark, tasks) as source:
        session = await open_session(benchmark, task_id, tasks=source, seed=seed)
    registry = request.app[REGISTRY_KEY]
    session_id, token = registry.add(session)
    url = f"{request.scheme}://{request.host}/v1/sessions/{session_id}/mcp"
    document = {
        "sessionId": session_id,
        "token": token,
        "mcpUrl": url,
        "prompt": session.prompt,
        "system": session.system,
        "tools": [to_wire(spec) for spec in session.tools],
        "idleTimeoutSeconds": registry.idle_timeout,
        **session.state(),
    }
    return json_response(document, status=201)


async def _state(request: web.Request) -> web.Response:
    return json_response({"sessionId": request.match_info["session_id"], **_session(request).state()})


async def _finish(request: web.Request) -> web.Response:
    session = _session(request)
    body = await read_json(request)
    if not isinstance(body, dict) or not {"answer"}.issuperset(body):
        raise InvalidSessionRequestError("the body must be a JSON object {answer}")
    return json_response(to_wire(await session.finish(body.get("answer"))))


async def _mcp(request: web.Request) -> web.StreamResponse:
    """The session's MCP endpoint: the request handed to the SDK's ASGI app, the reply streamed back."""
    session = _session(request)
    body = await request.read()
    manager = request.app[_MANAGER_KEY]
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": f"{request.version.major}.{request.version.minor}",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.raw_path.split("?", 1)[0].encode(),
        "query_string": request.query_string.encode(),
        "root_path": "",
        "headers": [(key.lower(), value) for key, value in request.raw_headers],
        "client": request.transport.get_extra_info("peername") if request.transport else None,
        "server": None,
        SCOPE_KEY: session,
    }
    return await _asgi_call(manager.handle_request, scope, body, request)


async def _asgi_call(app: Any, scope: dict[str, Any], body: bytes, request: web.Request) -> web.StreamResponse:
    response: Optional[web.StreamResponse] = None
    sent_body = False

    async def receive() -> dict[str, Any]:
        nonlocal sent_body
        if not sent_body:
            sent_body = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client hanging up cancels the handler, and this with it
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal response
        if message["type"] == "http.response.start":
            response = web.StreamResponse(status=message["status"])
            for key, value in message.get("headers", []):
                response.headers.add(key.decode("latin-1"), value.decode("latin-1"))
            await response.prepare(request)
        elif message["type"] == "http.response.body" and response is not None:
            await response.write(message.get("body", b""))
            if not message.get("more_body", False):
                await response.write_eof()

    await app(scope, receive, send)
    if response is None:
        return web.Response(status=500)
    return response
