"""An agent command that checks an MCP 1.x client (`mcp<2`, in a venv of its own, as smolagents'
and LangGraph's MCP adapters need) against both transports of a `run --agent` session.

    benchmark-core run --agent '/path/to/mcp1-venv/bin/python tools/mcp1_client_agent.py' --model mcp1

On the bundled example's episode (order-refund-01, seed 1) it lists the tools through the stdio
bridge the `mcpServers` file names and over the session's streamable HTTP endpoint, and plays the
episode across both: the first lookup through the bridge (the order service's seeded HTTP_500, a
tool error), the retry over HTTP (the order), the refund through the bridge. Any answer other than
the expected one exits 1 with what differed (an errored row); otherwise it answers with the mcp
version it ran. `tools/agents_proof.py` runs it sealed and checks the row passes.
"""

import asyncio
import json
import os
import sys
from importlib.metadata import version
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client


def expect(ok: bool, what: str) -> None:
    if not ok:
        print(f"mcp {version('mcp')}: {what}", file=sys.stderr)
        sys.exit(1)


def data(result: Any) -> Any:
    """A tool result's value, from its text (what every MCP client gets)."""
    return json.loads(result.content[0].text)


async def play(server: dict[str, Any]) -> None:
    bridge = StdioServerParameters(command=server["command"], args=server["args"], env={**os.environ, **server["env"]})
    headers = {"Authorization": f"Bearer {os.environ['BENCHMARK_MCP_TOKEN']}"}
    async with (
        stdio_client(bridge) as (read, write),
        ClientSession(read, write) as stdio,
        streamablehttp_client(os.environ["BENCHMARK_MCP_URL"], headers=headers) as (http_read, http_write, _),
        ClientSession(http_read, http_write) as http,
    ):
        await stdio.initialize()
        await http.initialize()
        listed = [sorted(tool.name for tool in (await s.list_tools()).tools) for s in (stdio, http)]
        expect(listed == [["lookup_order", "refund"]] * 2, f"tools listed {listed}")
        failed = await stdio.call_tool("lookup_order", {"order_id": "A1001"})
        expect(failed.isError and failed.content[0].text.startswith("HTTP_500: "), f"first lookup {failed}")
        order = await http.call_tool("lookup_order", {"order_id": "A1001"})
        expect(not order.isError and data(order)["total"] == 35.0, f"second lookup {order}")
        refund = await stdio.call_tool("refund", {"order_id": "A1001", "amount": 35.0})
        expect(not refund.isError and data(refund)["amount"] == 35.0, f"refund {refund}")
    print(f"Refunded $35.00 through mcp {version('mcp')}.")


with open(os.environ["BENCHMARK_MCP_CONFIG"], encoding="utf-8") as handle:
    [config] = json.load(handle)["mcpServers"].values()
asyncio.run(play(config))
