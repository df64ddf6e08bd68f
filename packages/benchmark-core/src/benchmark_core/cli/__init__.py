"""The command line, generated from one Benchmark: `create_cli(benchmark, prog_name)`.

One module per command (or pair of related commands), each a click command registered on the group
in `app.py`; the benchmark reaches them through `ctx.obj` (`base.CliState`). Commands hold no
business logic: they call the core functions the HTTP API and the MCP server call too
(`benchmark_core.servers._documents`, `plugins`, `runner`) and print what those return.

Exit codes (`benchmark_core.errors`): 0 success, 1 invalid usage (click usage errors, unknown task,
unknown provider, unreadable file), 2 run or runtime failure, 130/143 a run ended by SIGINT/SIGTERM.
With `--json` a command prints one JSON document on stdout and nothing else (errors too, as
`{"error": {"code", "message"}}`); messages and progress go to stderr. `list`, `show` and `--help`
import neither aiohttp nor mcp: heavy imports live inside the commands that need them.
"""

from .app import create_cli, main, run_cli
from .base import BenchmarkSource

__all__ = ["BenchmarkSource", "create_cli", "main", "run_cli"]
