"""A smolagents agent for `run --agent`, reaching the episode over streamable HTTP.

    benchmark-rollback-recovery run --agent '.venv-smolagents/bin/python examples/agents/smolagents_http.py' \
        --agent-env OPENAI_BASE_URL --agent-env OPENAI_API_KEY --model smolagents --output agents.json

smolagents' MCP client (mcpadapt) needs mcp<2 and the runner mcp>=2, so this agent lives in a venv
of its own (`pip install 'smolagents[mcp,openai]==1.26.0'`), named by its python in the command.
It connects to the session's MCP endpoint ($BENCHMARK_MCP_URL, bearer $BENCHMARK_MCP_TOKEN), gives
a tool-calling agent its tools, the system text ($BENCHMARK_SYSTEM) as its instructions and the
prompt (stdin), and prints the answer it gives through its final_answer tool (and nothing else:
its step log is off, as stdout is the answer). $OPENAI_MODEL picks the model (default gpt-4.1-mini).

mcpadapt (0.1.19) makes every argument of an MCP tool required, and smolagents then refuses a call
that leaves out an optional one (`audit_log` without `store`) before it reaches the session: the
adapter below keeps the tool's own `required` list, marking the other arguments nullable.
"""

import json
import os
import sys

from mcpadapt.core import MCPAdapt
from mcpadapt.smolagents_adapter import SmolAgentsAdapter
from smolagents import LogLevel, OpenAIModel, ToolCallingAgent


class OptionalArguments(SmolAgentsAdapter):
    def adapt(self, func, mcp_tool):
        tool = super().adapt(func, mcp_tool)
        required = set(mcp_tool.inputSchema.get("required", []))
        for name, schema in tool.inputs.items():
            if name not in required:
                schema["nullable"] = True
        return tool


episode = {
    "url": os.environ["BENCHMARK_MCP_URL"],
    "transport": "streamable-http",
    "headers": {"Authorization": f"Bearer {os.environ['BENCHMARK_MCP_TOKEN']}"},
}
model = OpenAIModel(os.environ.get("OPENAI_MODEL", "gpt-4.1-mini"), api_base=os.environ.get("OPENAI_BASE_URL"))
with MCPAdapt(episode, OptionalArguments(structured_output=False)) as tools:
    agent = ToolCallingAgent(
        tools=tools,
        model=model,
        instructions=os.environ["BENCHMARK_SYSTEM"],
        max_steps=60,
        verbosity_level=LogLevel.OFF,
    )
    answer = agent.run(sys.stdin.read())
print(answer)
usage = agent.monitor.get_total_token_counts()
with open(os.environ["BENCHMARK_USAGE_FILE"], "w", encoding="utf-8") as handle:
    json.dump({"promptTokens": usage.input_tokens, "completionTokens": usage.output_tokens}, handle)
