"""An episode session served as an MCP server: exactly the episode's tools, as the environment
declares them (name, description, input schema), each call run by `EpisodeSession.call`.

A tool's result comes back as JSON text (and, when it is an object, as structured content too); a
tool error the environment or the session answers (`NOT_FOUND`, `INVALID_ARGUMENTS`,
`MAX_TOOL_CALLS`, ...) comes back as an MCP tool error (`isError`) whose text is `CODE: message`,
with `{"code", "message"}` under `_meta["benchmark-core/error"]`, as the benchmark's own MCP tools
report errors. Arguments are not checked by the SDK against the schema: the environment checks them,
as it does for a model run, so the agent sees the same codes a model does.

One low-level `Server` serves any number of sessions: `session_for(ctx)` says which session a
request belongs to (stdio: the one session; streamable HTTP: the session its URL and bearer token
name, see `mcp_sessions`).

`serve_episode_stdio` serves one session on stdin/stdout and, when the client disconnects, writes
the session's log to the record file as a submission (`[{taskId, submission}]`) that `score --seed
N` grades.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Optional

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from .._model import ToolResult
from ..episodes._session import EpisodeSession
from ..errors._base import BenchmarkError
from ..runs._files import write_output
from ._mcp import ERROR_META_KEY, error_result

SessionFor = Callable[[ServerRequestContext[Any, Any]], Awaitable[EpisodeSession]]


def episode_server(name: str, session_for: SessionFor, *, version: str = "") -> Server[Any]:
    """A low-level MCP server whose tools are those of the session each request belongs to."""

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: Optional[types.PaginatedRequestParams]
    ) -> types.ListToolsResult:
        session = await session_for(ctx)
        tools = [
            types.Tool(name=spec.name, description=spec.description, input_schema=spec.parameters)
            for spec in session.tools
        ]
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            session = await session_for(ctx)
            outcome = session.call(params.name, params.arguments if params.arguments is not None else {})
        except BenchmarkError as exc:
            return error_result(exc)
        return tool_result(outcome)

    return Server(
        name,
        version=version,
        instructions="The tools of one benchmark episode; every call is logged and graded by replay.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def tool_result(outcome: ToolResult) -> types.CallToolResult:
    """An environment's answer as an MCP result: the result as JSON text (structured too when it is
    an object), or the tool error as `CODE: message` with `isError`."""
    if outcome.error is not None:
        error = outcome.error
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"{error.code}: {error.message}")],
            is_error=True,
            _meta={ERROR_META_KEY: {"code": error.code, "message": error.message}},
        )
    text = json.dumps(outcome.result, ensure_ascii=False)
    structured = outcome.result if isinstance(outcome.result, dict) else None
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=structured)


def write_record(session: EpisodeSession, record: Path) -> None:
    """The session's log as a submission file `score` grades: whole or not at all."""
    text = json.dumps([session.submission()], ensure_ascii=False, indent=2) + "\n"
    write_output(record, text, journal=None, rows_safe=0)


async def serve_episode_stdio(session: EpisodeSession, record: Optional[Path]) -> None:
    """Serve `session` on stdin/stdout until the client disconnects, then write the record."""
    from mcp.server.stdio import stdio_server

    async def session_for(ctx: ServerRequestContext[Any, Any]) -> EpisodeSession:
        return session

    server = episode_server(f"{session.benchmark.id}:{session.task.id}", session_for, version=session.benchmark.version)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        if record is not None:
            write_record(session, record)
