"""`python -m benchmark_core.servers._mcp_bridge`: an episode session's tools on stdio, relayed from its
streamable HTTP endpoint (`BENCHMARK_MCP_URL`, with the bearer token `BENCHMARK_MCP_TOKEN`).

This is the server the `mcpServers` file of `run --agent` names, so that a client which only starts
stdio servers (Claude Desktop, most agent frameworks' defaults) reaches the session: every list and
call goes through to the session on the runner's server, which logs and grades it. The bridge
holds no state of its own.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, Optional


async def relay(url: str, token: str) -> None:
    """Serve the session at `url` on stdin/stdout until the client disconnects."""
    import httpx2
    import mcp
    import mcp_types as types
    from mcp.client.streamable_http import streamable_http_client
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300))
    async with mcp.Client(streamable_http_client(url, http_client=http)) as upstream:

        async def list_tools(ctx: Any, params: Optional[types.PaginatedRequestParams]) -> types.ListToolsResult:
            return await upstream.list_tools()

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            result = await upstream.call_tool(params.name, params.arguments or {})
            assert isinstance(result, types.CallToolResult)
            return result

        server: Server[Any] = Server("benchmark-core-session", on_list_tools=list_tools, on_call_tool=call_tool)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    url, token = os.environ.get("BENCHMARK_MCP_URL"), os.environ.get("BENCHMARK_MCP_TOKEN")
    if not url or not token:
        print("benchmark_core.servers._mcp_bridge needs BENCHMARK_MCP_URL and BENCHMARK_MCP_TOKEN", file=sys.stderr)
        sys.exit(1)
    asyncio.run(relay(url, token))


if __name__ == "__main__":
    main()
