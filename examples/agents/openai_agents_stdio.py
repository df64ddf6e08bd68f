"""An OpenAI Agents SDK agent for `run --agent`, reaching the episode over stdio.

    benchmark-rollback-recovery run --agent 'python examples/agents/openai_agents_stdio.py' \
        --agent-env OPENAI_BASE_URL --agent-env OPENAI_API_KEY --model openai-agents --output agents.json

It starts the stdio server that the `mcpServers` file in $BENCHMARK_MCP_CONFIG names, gives the
agent its tools, the prompt (stdin) and the system text ($BENCHMARK_SYSTEM), and prints the final
answer. $OPENAI_MODEL picks the model (default gpt-4.1-mini).
"""

import asyncio
import json
import os
import sys

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.mcp import MCPServerStdio
from openai import AsyncOpenAI


async def play(server: dict, prompt: str) -> object:
    params = {"command": server["command"], "args": server["args"], "env": {**os.environ, **server["env"]}}
    async with MCPServerStdio(params=params, client_session_timeout_seconds=60) as episode:
        model = OpenAIChatCompletionsModel(os.environ.get("OPENAI_MODEL", "gpt-4.1-mini"), AsyncOpenAI())
        agent = Agent(name="episode", instructions=os.environ["BENCHMARK_SYSTEM"], model=model, mcp_servers=[episode])
        return await Runner.run(agent, prompt, max_turns=60)


set_tracing_disabled(True)
with open(os.environ["BENCHMARK_MCP_CONFIG"], encoding="utf-8") as handle:
    [server] = json.load(handle)["mcpServers"].values()
result = asyncio.run(play(server, sys.stdin.read()))
print(result.final_output)
usage = result.context_wrapper.usage
with open(os.environ["BENCHMARK_USAGE_FILE"], "w", encoding="utf-8") as handle:
    json.dump({"promptTokens": usage.input_tokens, "completionTokens": usage.output_tokens}, handle)
