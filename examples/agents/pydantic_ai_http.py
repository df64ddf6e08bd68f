"""A pydantic-ai agent for `run --agent`, reaching the episode over streamable HTTP.

    benchmark-rollback-recovery run --agent 'python examples/agents/pydantic_ai_http.py' \
        --agent-env OPENAI_BASE_URL --agent-env OPENAI_API_KEY --model pydantic-ai --output agents.json

It connects to the session's MCP endpoint ($BENCHMARK_MCP_URL, bearer $BENCHMARK_MCP_TOKEN), gives
the agent its tools, the prompt (stdin) and the system text ($BENCHMARK_SYSTEM), and prints the
final answer. A tool error goes back to the model as a failed call ('failed'), not a retry with a
budget of its own. $OPENAI_MODEL picks the model (default gpt-4.1-mini).
"""

import json
import os
import sys

from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

episode = MCPToolset(
    os.environ["BENCHMARK_MCP_URL"],
    headers={"Authorization": f"Bearer {os.environ['BENCHMARK_MCP_TOKEN']}"},
    tool_error_behavior="failed",
)
model = OpenAIChatModel(os.environ.get("OPENAI_MODEL", "gpt-4.1-mini"), provider=OpenAIProvider())
agent = Agent(model, instructions=os.environ["BENCHMARK_SYSTEM"], toolsets=[episode])
result = agent.run_sync(sys.stdin.read())
print(result.output)
usage = result.usage
with open(os.environ["BENCHMARK_USAGE_FILE"], "w", encoding="utf-8") as handle:
    json.dump({"promptTokens": usage.input_tokens, "completionTokens": usage.output_tokens}, handle)
