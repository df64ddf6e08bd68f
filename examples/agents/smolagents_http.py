"""A smolagents agent for `run --agent`, reaching the episode over streamable HTTP.

    benchmark-rollback-recovery run --agent '.venv-smolagents/bin/python examples/agents/smolagents_http.py' \
        --agent-env OPENAI_BASE_URL --agent-env OPENAI_API_KEY --model smolagents --output agents.json

smolagents' MCP client (mcpadapt) needs mcp<2 and the runner mcp>=2, so this agent lives in a venv
of its own (`pip install 'smolagents[mcp,openai]==1.26.0'`), named by its python in the command.
It connects to the session's MCP endpoint ($BENCHMARK_MCP_URL, bearer $BENCHMARK_MCP_TOKEN), gives
a tool-calling agent its tools, the system text ($BENCHMARK_SYSTEM) as its instructions and the
prompt (stdin), and prints the answer it gives through its final_answer tool (and nothing else:
its step log is off, as stdout is the answer). $OPENAI_MODEL picks
the model (default gpt-4.1-mini).
"""

import json
import os
import sys

from smolagents import LogLevel, MCPClient, OpenAIModel, ToolCallingAgent

episode = {
    "url": os.environ["BENCHMARK_MCP_URL"],
    "transport": "streamable-http",
    "headers": {"Authorization": f"Bearer {os.environ['BENCHMARK_MCP_TOKEN']}"},
}
model = OpenAIModel(os.environ.get("OPENAI_MODEL", "gpt-4.1-mini"), api_base=os.environ.get("OPENAI_BASE_URL"))
with MCPClient(episode, structured_output=False) as tools:
    # Its step log goes to stdout, which is the answer here: keep it quiet.
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
