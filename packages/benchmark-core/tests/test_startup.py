"""Cold start: `list --json` is measured against `import click, attrs, cattrs` (tools/bench_startup.py),
so every module on its path is a deliberate choice, pinned here; and the console scripts' processes
skip the collector's last walk at exit, while a process that builds the CLI itself keeps its collector.

Each run is a real `benchmark-core` in a fresh interpreter; the probe prints what it left in
`sys.modules`, and the document it printed is checked too.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys

from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark
from click.testing import CliRunner

#: The core modules `list --json` imports: the package, the task model and file reading, the wire
#: converter and the JSON writer, the definition and its rules, the CLI's group and the `list`
#: command, and the bundled example's definition (no grader, environment or mock scripts). The
#: public packages those modules sit in (`errors`, `wire`, `data`, `servers`) are tables of names.
LIST_PATH = {
    "benchmark_core",
    "benchmark_core.__about__",
    "benchmark_core._util",
    "benchmark_core._util.lazy",
    "benchmark_core.errors",
    "benchmark_core.errors._base",
    "benchmark_core.errors._failures",
    "benchmark_core.errors._tasks",
    "benchmark_core.errors._usage",
    "benchmark_core._util.text",
    "benchmark_core._util.json_values",
    "benchmark_core._util.indented_json",
    "benchmark_core.wire",
    "benchmark_core.wire._converter",
    "benchmark_core._model",
    "benchmark_core._model.tasks",
    "benchmark_core._benchmark",
    "benchmark_core.data",
    "benchmark_core.data._taskfiles",
    "benchmark_core.data._validation",
    "benchmark_core._benchmark.definition",
    "benchmark_core.servers",
    "benchmark_core.servers._documents",
    "benchmark_core._benchmark.plugins",
    "benchmark_core.cli",
    "benchmark_core.cli.app",
    "benchmark_core.cli.base",
    "benchmark_core.cli.tasks",
    "benchmark_core.example",
}
#: Never on the path: the event loop and the servers, entry-point scanning (importlib.metadata and
#: the `email` package it parses metadata with), the runner, the adapters, the graders, the model
#: classes of traces, chat turns and reports, and the `analysis` and `ray` extras' libraries.
NEVER = (
    "asyncio",
    "aiohttp",
    "mcp",
    "importlib.metadata",
    "email",
    "decimal",
    "benchmark_core._model.traces",
    "benchmark_core._model.chat",
    "benchmark_core._model.reports",
    "benchmark_core.hooks._hooks",
    "benchmark_core.runs._runner",
    "benchmark_core.episodes._episode",
    "benchmark_core.graders._graders",
    "benchmark_core.adapters",
    "pandas",
    "pyarrow",
    "msgspec",
    "ray",
)

PROBE = """
import sys
from benchmark_core.cli import main
sys.argv = ["benchmark-core", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    assert exc.code == 0, exc.code
print("MODULES", " ".join(sorted(sys.modules)), file=sys.stderr)
"""


def _list_modules(*argv: str) -> tuple[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True, timeout=120)
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return done.stdout, set(line.split()[1:])


def test_list_json_imports_only_the_list_path() -> None:
    stdout, modules = _list_modules("list", "--json")
    assert json.loads(stdout)["count"] == 21
    assert sorted(m for m in modules if m.split(".")[0] == "benchmark_core") == sorted(LIST_PATH)
    assert [m for m in NEVER if m in modules or any(n.startswith(m + ".") for n in modules)] == []


def test_show_stays_off_the_runner_and_the_servers() -> None:
    stdout, modules = _list_modules("show", "order-refund-01", "--json")
    assert json.loads(stdout)["kind"] == "episode"
    assert [m for m in NEVER[1:] if m in modules] == []


FREEZE_PROBE = """
import atexit, gc, os, sys
# Registered before the entry point's hook, so it runs after it (atexit runs last-in, first-out).
atexit.register(lambda: os.write(2, f"FROZEN {gc.get_freeze_count()}\\n".encode()))
from benchmark_core.cli import main
sys.argv = ["benchmark-core", "list", "--json"]
main()
"""


def test_the_console_script_freezes_the_collector_at_exit() -> None:
    done = subprocess.run([sys.executable, "-c", FREEZE_PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["count"] == 21
    frozen = next(line for line in done.stderr.splitlines() if line.startswith("FROZEN "))
    assert int(frozen.split()[1]) > 10_000


def test_a_cli_built_in_process_leaves_the_collector_alone() -> None:
    result = CliRunner().invoke(create_cli(benchmark, "benchmark-core", umbrella=True), ["list", "--json"])
    assert result.exit_code == 0
    assert gc.get_freeze_count() == 0
