"""End-to-end checks of every installed benchmark, through its real surfaces.

Run by nox against the installed wheels (`python tools/e2e.py`). Benchmarks are discovered through
the `benchmark_core.benchmarks` entry points; for each one this script drives:

- every CLI command through the package's console script, as a subprocess, with and without
  `--json`, plus the exit code 1 of bad usage (unknown task, unknown provider, unreadable file, bad
  option), `python -m <module>`, and the umbrella `benchmark-core --benchmark ID`;
- every HTTP route and error code against `<script> serve --scoring-api --port N` on a free loopback port, with a
  real aiohttp client, then a clean shutdown on SIGTERM;
- every MCP tool through the SDK's client over a real stdio subprocess (`python -m <module> mcp`);
- the same server through a third-party client, the MCP Inspector CLI (`--inspector`, installed from
  npm by nox): tools/list, one successful call per tool, and each kind of tool error (unknown task,
  TASKS_NOT_ALLOWED, missing API key, invalid arguments, a crash as INTERNAL_ERROR), asserting the
  text Inspector prints;
- every task: each row of an offline mock run is re-scored through `POST /v1/score` and through the
  `score_answer` tool, and must get the row's score back;
- every other split the benchmark ships (`data/tasks-NAME.jsonl`), by its bare name: a mock run
  and `score` regrading it to the same scores;
- every provider wire format against its loopback fake playing the offline mock: `run --provider
  anthropic` (native mode where the benchmark has it, episodes, extended thinking) and `run
  --provider gemini` score as the mock does, with the provider, cached and reasoning tokens in the
  report and the key in no output; `providers --json` lists the whole provider table;
- every other split the benchmark ships (`data/tasks-NAME.jsonl`), by its bare name: a mock run
  and `score` regrading it to the same scores;
- `run --batch` against the fake OpenAI and Anthropic batch APIs (`benchmark_core.testing`), each
  run killed with SIGKILL while it polls and resumed: every single task submitted exactly once and
  scored as the mock scored it; benchmarks with episodes refuse `--batch` with exit 1;
- an alternate task file (the first tasks, re-id'd `alt-...`): `--tasks` on the CLI, and on HTTP and
  MCP refused without the benchmark's allow-list variable and served by a second server and MCP
  process started with it; broken task files fail cleanly;
- `benchmark-core sweep` over every installed benchmark with two offline mock models, its rerun,
  `leaderboard` (Markdown, --json, index.html), a bad sweep file and the `cache` commands;
- a sweep of four models on schema-mutation's full split (792 tasks, 180 drift episodes) at 32
  requests in flight against a fake answering in 20 ms, killed with SIGKILL among the episodes (the
  last 40% of each cell's requests) and rerun: it
  sends at most the 32 requests in flight more than the uninterrupted sweep, and every cell's
  report is the uninterrupted one (episodes resume at their last finished turn).

Each check lands in artifacts/e2e-report.json as {name, ok, detail, durationMs}. The last line
printed is `e2e: N passed, M failed`; the exit status is 1 when any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import json
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Optional

import aiohttp
import mcp
from mcp import StdioServerParameters

GROUP = "benchmark_core.benchmarks"
REPO = Path(__file__).resolve().parent.parent
COMMAND_TIMEOUT = 180.0
MAX_BODY_BYTES = 1024 * 1024
ALT_TASKS = 3
ROUTES = ("/health", "/v1/tasks", "/v1/tasks/{id}", "/v1/score", "/v1/provenance", "/v1/index-entry", "/openapi.json")
TOOLS = ("list_tasks", "get_task", "score_answer", "run_benchmark", "get_provenance")
ERROR_META_KEY = "benchmark-core/error"
#: What MCP Inspector prints instead of a tool's message when an error result fails output validation.
INSPECTOR_VALIDATION_TEXT = "must have required property"
BATCH_KEY = "sk-e2e-batch-key"


class CheckFailed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    """`assert` that survives `python -O`."""
    if not condition:
        raise CheckFailed(message)


def short(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    duration_ms: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "durationMs": self.duration_ms}


@dataclass
class Checks:
    items: list[Check] = field(default_factory=list)

    def check(self, name: str) -> Recording:
        """Record one check: it passes unless the block raises. Append notes to the yielded list."""
        return Recording(self, name)

    def add(self, check: Check) -> None:
        self.items.append(check)
        if not check.ok:
            print(f"FAIL {check.name}: {check.detail}", file=sys.stderr, flush=True)


class Recording:
    """The context manager behind `Checks.check`. It swallows the failure it records, so one failed
    check never stops the others."""

    def __init__(self, checks: Checks, name: str) -> None:
        self.checks, self.name = checks, name
        self.notes: list[str] = []
        self.started = time.perf_counter()

    async def __aenter__(self) -> list[str]:
        self.started = time.perf_counter()
        return self.notes

    async def __aexit__(
        self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> bool:
        if exc is None:
            self.checks.add(Check(self.name, True, "; ".join(self.notes), _ms(self.started)))
            return False
        if not isinstance(exc, Exception):
            return False
        detail = str(exc) if isinstance(exc, CheckFailed) else f"{type(exc).__name__}: {exc}"
        self.checks.add(Check(self.name, False, short(detail, 2000), _ms(self.started)))
        return True


def _ms(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


@dataclass
class Target:
    """One installed benchmark: where its entry point lives and how to start its surfaces."""

    entry_point: str
    distribution: str
    module: str
    script: Optional[Path]
    id: str = ""
    tasks: list[dict[str, Any]] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    allow_env: Optional[str] = None
    alt: Optional[AltTasks] = None


@dataclass
class AltTasks:
    """An alternate task file: the benchmark's first tasks with `alt-` ids, written as `list --json`
    prints them, beside broken and not-allow-listed variants of it."""

    folder: Path
    tasks: list[dict[str, Any]]
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return self.folder / "alt.jsonl"

    @property
    def not_json(self) -> Path:
        return self.folder / "not-json.jsonl"

    @property
    def duplicated(self) -> Path:
        return self.folder / "duplicated.jsonl"

    @property
    def outside(self) -> Path:
        """The same tasks under a name the allow-list never holds."""
        return self.folder / "outside.jsonl"

    @property
    def link(self) -> Path:
        """A symlink to `outside`."""
        return self.folder / "link.jsonl"

    @property
    def ids(self) -> list[str]:
        return [task["id"] for task in self.tasks]


def write_alt_tasks(target: Target, folder: Path) -> AltTasks:
    folder.mkdir()
    alt = AltTasks(folder, [{**task, "id": "alt-" + task["id"]} for task in target.tasks[:ALT_TASKS]])
    lines = [json.dumps(task, ensure_ascii=False) + "\n" for task in alt.tasks]
    alt.path.write_text("".join(lines), encoding="utf-8")
    alt.outside.write_text("".join(lines), encoding="utf-8")
    alt.not_json.write_text(lines[0] + "{not json\n", encoding="utf-8")
    alt.duplicated.write_text(lines[0] + lines[0], encoding="utf-8")
    alt.link.symlink_to(alt.outside)
    return alt


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        try:
            return json.loads(self.stdout)
        except json.JSONDecodeError as exc:
            raise CheckFailed(f"stdout is not one JSON document ({exc}): {short(self.stdout)}") from None

    def expect_exit(self, code: int) -> None:
        expect(
            self.returncode == code,
            f"exit {self.returncode}, expected {code}; stderr: {short(self.stderr)}; stdout: {short(self.stdout)}",
        )


def child_env(**overrides: Optional[str]) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("BENCHMARK_CORE_DEBUG", None)
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


async def execute(
    argv: Sequence[str],
    *,
    timeout: float = COMMAND_TIMEOUT,
    cwd: Optional[Path] = None,
    env: Optional[dict[str, Optional[str]]] = None,
) -> Completed:
    process = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=child_env(**(env or {})),
        cwd=cwd,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()
        raise CheckFailed(f"{' '.join(argv)} did not finish within {timeout:g}s") from None
    return Completed(process.returncode or 0, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


# -- discovery -----------------------------------------------------------------------------------


def discover() -> tuple[list[Target], list[str]]:
    """The installed benchmarks, and a description of each entry point that cannot be used."""
    targets: list[Target] = []
    problems: list[str] = []
    for ep in sorted(importlib.metadata.entry_points(group=GROUP), key=lambda e: e.name):
        dist = ep.dist
        if dist is None:
            problems.append(f"entry point {ep.name} ({ep.value}) belongs to no distribution")
            continue
        scripts = [e for e in dist.entry_points if e.group == "console_scripts"]
        chosen = next((s for s in scripts if s.name == dist.name), scripts[0] if scripts else None)
        targets.append(
            Target(
                entry_point=ep.name,
                distribution=dist.name,
                module=ep.value.split(":")[0].split(".")[0],
                script=find_script(chosen.name) if chosen is not None else None,
            )
        )
    return targets, problems


def find_script(name: str) -> Optional[Path]:
    # Prefer the script next to this interpreter: that is the venv the wheels were installed into.
    for candidate in (Path(sys.executable).parent / name, Path(sys.executable).parent / f"{name}.exe"):
        if candidate.exists():
            return candidate
    found = shutil.which(name)
    return Path(found) if found else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# -- CLI -----------------------------------------------------------------------------------------


async def cli_checks(checks: Checks, target: Target, work: Path) -> None:
    script = target.script
    label = target.entry_point
    if script is None:
        async with checks.check(f"{label}/cli/console script"):
            raise CheckFailed(f"distribution {target.distribution} installs no console script")
        return
    run = str(script)

    async with checks.check(f"{label}/cli/--help") as notes:
        result = await execute([run, "--help"])
        result.expect_exit(0)
        for command in (
            "list",
            "show",
            "run",
            "score",
            "card",
            "provenance",
            "index-entry",
            "serve",
            "mcp",
            "providers",
        ):
            expect(command in result.stdout, f"--help does not mention {command}")
        notes.append(script.name)

    async with checks.check(f"{label}/cli/list --json") as notes:
        result = await execute([run, "list", "--json"])
        result.expect_exit(0)
        listing = result.json()
        expect(listing["count"] == len(listing["tasks"]) > 0, f"count {listing['count']} vs {len(listing['tasks'])}")
        target.id = listing["benchmark"]
        target.tasks = listing["tasks"]
        notes.append(f"{target.id}: {listing['count']} tasks")
    if not target.tasks:
        return
    label = target.id

    async with checks.check(f"{label}/cli/list"):
        result = await execute([run, "list"])
        result.expect_exit(0)
        lines = result.stdout.splitlines()
        expect(len(lines) == len(target.tasks), f"{len(lines)} lines for {len(target.tasks)} tasks")
        ids = [line.split()[0] for line in lines]
        expect(ids == [t["id"] for t in target.tasks], "lines out of task order")

    async with checks.check(f"{label}/cli/python -m {target.module} list --json"):
        result = await execute([sys.executable, "-m", target.module, "list", "--json"])
        result.expect_exit(0)
        expect(result.json()["tasks"] == target.tasks, "differs from the console script's list --json")

    semaphore = asyncio.Semaphore(max(2, min(8, os.cpu_count() or 2)))

    async def show(task: dict[str, Any], as_json: bool) -> None:
        name = f"{label}/cli/show {task['id']}" + (" --json" if as_json else "")
        async with semaphore, checks.check(name):
            result = await execute([run, "show", task["id"], *(["--json"] if as_json else [])])
            result.expect_exit(0)
            if as_json:
                expect(result.json() == task, "differs from the task in list --json")
            else:
                expect(task["id"] in result.stdout, "the task id is not shown")

    await asyncio.gather(*(show(task, as_json) for task in target.tasks for as_json in (False, True)))

    report_path, markdown_path = work / "report.json", work / "report.md"
    async with checks.check(f"{label}/cli/run --model offline --provider mock") as notes:
        outputs = ["--output", str(report_path), "--markdown", str(markdown_path)]
        result = await execute([run, "run", "--model", "offline", "--provider", "mock", *outputs])
        result.expect_exit(0)
        target.report = json.loads(report_path.read_text(encoding="utf-8"))
        rows = target.report["rows"]
        expect([r["taskId"] for r in rows] == [t["id"] for t in target.tasks], "rows are not one per task in order")
        expect(target.report["totals"]["failed"] == 0, f"{target.report['totals']['failed']} rows errored")
        expect(markdown_path.read_text(encoding="utf-8").strip() != "", "empty markdown report")
        expect(result.stdout.strip() != "", "no summary printed")
        notes.append(f"mean {target.report['mean']:.4f}")

    async with checks.check(f"{label}/cli/run --shard I/3 x3, merge (equals the unsharded report)") as notes:
        shards = [work / f"shard-{index}.json" for index in (1, 2, 3)]
        for index, shard in enumerate(shards, start=1):
            sharded = ["--shard", f"{index}/3", "--output", str(shard)]
            (await execute([run, "run", "--model", "offline", "--provider", "mock", *sharded])).expect_exit(0)
        merged = work / "merged.json"
        (await execute([run, "merge", *map(str, reversed(shards)), "--output", str(merged)])).expect_exit(0)
        from benchmark_core.testing import stable_report  # the determinism tests' helper: timestamps, latencies out

        stable = [stable_report(json.loads(p.read_text(encoding="utf-8"))) for p in (merged, report_path)]
        expect(stable[0] == stable[1], "the merged report differs from the unsharded one")
        missing = await execute([run, "merge", str(shards[0]), str(shards[2]), "--output", str(work / "x.json")])
        missing.expect_exit(1)
        expect("missing shard(s) 2/3" in missing.stderr, f"no reason given: {short(missing.stderr)}")
        notes.append(f"{len(target.report['rows'])} rows in 3 shards")

    async with checks.check(f"{label}/cli/export report.json --format csv") as notes:
        exported = work / "rows.csv"
        result = await execute([run, "export", str(report_path), "--format", "csv", "--output", str(exported)])
        try:
            import pandas  # noqa: F401  (the `analysis` extra, which the e2e session does not install)
        except ImportError:
            result.expect_exit(1)
            expect("pip install 'benchmark-core[analysis]'" in result.stderr, f"no extra named: {short(result.stderr)}")
            notes.append("without the analysis extra: exit 1 naming it")
        else:
            result.expect_exit(0)
            lines = exported.read_text(encoding="utf-8").splitlines()
            expect(len(lines) == 1 + len(target.report["rows"]), f"{len(lines) - 1} rows exported")

    async with checks.check(f"{label}/cli/run --json"):
        result = await execute([run, "run", "--model", "offline", "--provider", "mock", "--json"])
        result.expect_exit(0)
        summary = result.json()
        expect("rows" not in summary, "--json summary carries rows")
        expect(summary["mean"] == target.report["mean"], "mean differs from the same seeded run")
        expect(summary["totals"] == target.report["totals"], "totals differ from the same seeded run")

    for as_json in (False, True):
        async with checks.check(f"{label}/cli/score report.json" + (" --json" if as_json else "")):
            result = await execute([run, "score", str(report_path), *(["--json"] if as_json else [])])
            result.expect_exit(0)
            if as_json:
                scored = result.json()
                expect(scored["changed"] == 0, f"{scored['changed']} scores differ from the report")
                rescored = [r["score"] for r in scored["results"]]
                expect(rescored == [r["score"] for r in target.report["rows"]], "re-scored values differ")
            else:
                expect("mean" in result.stdout, "no mean printed")

    svg_path = work / "card.svg"
    async with checks.check(f"{label}/cli/card report.json card.svg"):
        result = await execute([run, "card", str(report_path), str(svg_path)])
        result.expect_exit(0)
        expect(svg_path.read_text(encoding="utf-8").lstrip().startswith("<svg"), "card.svg is not an SVG")
    async with checks.check(f"{label}/cli/card report.json (stdout)"):
        result = await execute([run, "card", str(report_path)])
        result.expect_exit(0)
        expect(result.stdout.lstrip().startswith("<svg"), "stdout is not an SVG")
    async with checks.check(f"{label}/cli/card report.json --json"):
        result = await execute([run, "card", str(report_path), "--json"])
        result.expect_exit(0)
        expect(result.json()["svg"].lstrip().startswith("<svg"), "no svg in the JSON")

    async with checks.check(f"{label}/cli/provenance"):
        result = await execute([run, "provenance"])
        result.expect_exit(0)
        expect(result.stdout.strip() != "", "empty provenance")
    async with checks.check(f"{label}/cli/provenance --json"):
        result = await execute([run, "provenance", "--json"])
        result.expect_exit(0)
        expect(len(result.json()["provenance"]) > 0, "no provenance records")

    for as_json in (False, True):
        async with checks.check(f"{label}/cli/index-entry" + (" --json" if as_json else "")):
            result = await execute([run, "index-entry", *(["--json"] if as_json else [])])
            result.expect_exit(0)
            entry = result.json()
            expect(entry["id"] == target.id, f"id {entry['id']!r}")
            expect(entry["taskCount"] == len(target.tasks), f"taskCount {entry['taskCount']}")

    garbage = work / "garbage.json"
    garbage.write_text("{this is not json", encoding="utf-8")
    bad_usage = {
        "unknown task": [run, "show", "no-such-task-id"],
        "unknown task --json": [run, "show", "no-such-task-id", "--json"],
        "unknown provider": [run, "run", "--model", "m", "--provider", "carrier-pigeon"],
        "missing --model": [run, "run", "--provider", "mock"],
        "unreadable file": [run, "score", str(work / "missing.json")],
        "unparsable file": [run, "score", str(garbage)],
        "unreadable card input": [run, "card", str(work / "missing.json")],
        "unreadable task file": [run, "list", "--tasks", str(work / "missing.jsonl")],
        "bad option": [run, "list", "--no-such-option"],
        "bad option value": [run, "run", "--model", "m", "--provider", "mock", "--concurrency", "zero"],
        "unknown command": [run, "frobnicate"],
    }
    for what, argv in bad_usage.items():
        async with checks.check(f"{label}/cli/exit 1: {what}"):
            result = await execute(argv)
            result.expect_exit(1)
            if argv[-1] == "--json":
                expect(result.json()["error"]["code"] == "TASK_NOT_FOUND", "no TASK_NOT_FOUND error document")


_SHIPPED_SPLITS = (
    "import json, sys\n"
    "from benchmark_core import load_benchmark\n"
    "data = load_benchmark(sys.argv[1]).data_dir\n"
    "print(json.dumps(sorted(p.name for p in data.glob('tasks-*.jsonl')) if data else []))\n"
)


async def split_checks(checks: Checks, target: Target, work: Path) -> None:
    """Every other split the benchmark ships (`data/tasks-NAME.jsonl`), chosen by its bare name:
    a mock run over it, and `score` regrading the saved report (episodes replayed) to the same scores."""
    assert target.script is not None
    listed = await execute([sys.executable, "-c", _SHIPPED_SPLITS, target.id])
    async with checks.check(f"{target.id}/cli/shipped splits") as notes:
        listed.expect_exit(0)
        names = [name.removeprefix("tasks-").removesuffix(".jsonl") for name in listed.json()]
        notes.append(", ".join(names) or "none")
    for name in names if listed.returncode == 0 else []:
        path = work / f"split-{name}.json"
        async with checks.check(f"{target.id}/cli/run --tasks {name}, score") as notes:
            result = await execute(
                [
                    str(target.script),
                    "run",
                    "--model",
                    "offline",
                    "--provider",
                    "mock",
                    "--tasks",
                    name,
                    "--output",
                    str(path),
                ]
            )
            result.expect_exit(0)
            report = json.loads(path.read_text(encoding="utf-8"))
            expect(report["totals"]["failed"] == 0, f"{report['totals']['failed']} rows errored")
            scored = await execute([str(target.script), "score", str(path), "--tasks", name, "--json"])
            scored.expect_exit(0)
            expect(scored.json()["changed"] == 0, f"{scored.json()['changed']} scores differ from the report")
            notes.append(f"{report['totals']['tasks']} rows, mean {report['mean']:.4f}")


async def allow_list_checks(checks: Checks, target: Target) -> None:
    """Read the allow-list variable from the installed Benchmark rather than assume its name."""
    async with checks.check(f"{target.id}/tasks allow-list variable (Benchmark.tasks_allow_env)") as notes:
        from benchmark_core import Benchmark

        found = importlib.metadata.entry_points(group=GROUP, name=target.entry_point)
        benchmark = next(iter(found)).load()
        expect(isinstance(benchmark, Benchmark), f"entry point {target.entry_point} is a {type(benchmark).__name__}")
        expect(bool(benchmark.tasks_allow_env), "the benchmark names no allow-list variable")
        target.allow_env = benchmark.tasks_allow_env
        notes.append(str(target.allow_env))


async def alt_cli_checks(checks: Checks, target: Target, alt: AltTasks) -> None:
    """`--tasks` reads any file on the CLI: no allow-list, since the caller is local."""
    assert target.script is not None
    run, label, source = str(target.script), target.id, ["--tasks", str(alt.path)]
    report_path = alt.folder / "alt-report.json"

    async with checks.check(f"{label}/cli/list --tasks alt.jsonl --json") as notes:
        result = await execute([run, "list", *source, "--json"])
        result.expect_exit(0)
        listing = result.json()
        expect(listing["count"] == len(alt.tasks), f"count {listing['count']}, expected {len(alt.tasks)}")
        expect([t["id"] for t in listing["tasks"]] == alt.ids, f"ids {[t['id'] for t in listing['tasks']]}")
        expect(listing["tasks"] == alt.tasks, "tasks differ from the lines of the file")
        notes.append(", ".join(alt.ids))
    async with checks.check(f"{label}/cli/show {alt.ids[0]} --tasks alt.jsonl --json"):
        result = await execute([run, "show", alt.ids[0], *source, "--json"])
        result.expect_exit(0)
        expect(result.json() == alt.tasks[0], "differs from the task in the file")
    async with checks.check(f"{label}/cli/run --tasks alt.jsonl --json --output alt-report.json") as notes:
        mock = ["--model", "offline", "--provider", "mock"]
        result = await execute([run, "run", *mock, *source, "--json", "--output", str(report_path)])
        result.expect_exit(0)
        summary = result.json()
        expect(summary["totals"]["tasks"] == len(alt.tasks), f"totals {summary['totals']}")
        expect(summary["totals"]["failed"] == 0, f"{summary['totals']['failed']} rows errored")
        report = json.loads(report_path.read_text(encoding="utf-8"))
        expect([r["taskId"] for r in report["rows"]] == alt.ids, f"rows {[r['taskId'] for r in report['rows']]}")
        expect(report["mean"] == summary["mean"], "the report's mean differs from the printed one")
        alt.report = report
        notes.append(f"mean {report['mean']:.4f}")
    async with checks.check(f"{label}/cli/score alt-report.json --tasks alt.jsonl --json"):
        result = await execute([run, "score", str(report_path), *source, "--json"])
        result.expect_exit(0)
        scored = result.json()
        expect(scored["count"] == len(alt.tasks), f"count {scored['count']}")
        expect(scored["changed"] == 0, f"{scored['changed']} scores differ from the report")
    async with checks.check(f"{label}/cli/index-entry --tasks alt.jsonl --json"):
        result = await execute([run, "index-entry", *source, "--json"])
        result.expect_exit(0)
        entry = result.json()
        expect(entry["id"] == target.id, f"id {entry['id']!r}")
        expect(entry["taskCount"] == len(alt.tasks), f"taskCount {entry['taskCount']}, expected {len(alt.tasks)}")

    # Each failure must name what is wrong and where: (argv, text the message must hold).
    failures: dict[str, tuple[list[str], list[str]]] = {
        "score alt-report.json without --tasks": ([run, "score", str(report_path)], [alt.ids[0]]),
        "task file with a non-JSON line": (
            [run, "list", "--tasks", str(alt.not_json)],
            [f"{alt.not_json}:2:", "not JSON"],
        ),
        "task file with duplicate ids": (
            [run, "list", "--tasks", str(alt.duplicated)],
            [str(alt.duplicated), "duplicate", alt.ids[0]],
        ),
    }
    for what, (argv, fragments) in failures.items():
        async with checks.check(f"{label}/cli/exit 1: {what}") as notes:
            result = await execute(argv)
            result.expect_exit(1)
            expect("Traceback" not in result.stderr, f"a traceback: {short(result.stderr)}")
            for fragment in fragments:
                expect(fragment in result.stderr, f"{fragment!r} is not in the message: {short(result.stderr)}")
            notes.append(short(result.stderr.strip(), 200))


async def umbrella_checks(checks: Checks, targets: list[Target]) -> None:
    """`benchmark-core benchmarks` lists every plugin; `--benchmark ID` addresses each one."""
    script = find_script("benchmark-core")
    if script is None:
        async with checks.check("benchmark-core/cli/console script"):
            raise CheckFailed("no benchmark-core console script next to this interpreter or on PATH")
        return
    async with checks.check("benchmark-core/cli/benchmarks --json") as notes:
        result = await execute([str(script), "benchmarks", "--json"])
        result.expect_exit(0)
        listed = {item["id"]: item for item in result.json()["benchmarks"]}
        for target in targets:
            if target.id:
                expect(target.id in listed, f"{target.id} is not listed")
                expect(listed[target.id]["error"] is None, f"{target.id}: {listed[target.id]['error']}")
                expect(listed[target.id]["tasks"] == len(target.tasks), f"{target.id}: task count differs")
        notes.append(", ".join(sorted(listed)))
    async with checks.check("benchmark-core/cli/benchmarks"):
        result = await execute([str(script), "benchmarks"])
        result.expect_exit(0)
    for target in targets:
        if not target.id:
            continue
        async with checks.check(f"{target.id}/cli/benchmark-core --benchmark {target.id} list --json") as notes:
            result = await execute([str(script), "--benchmark", target.id, "list", "--json"])
            result.expect_exit(0)
            listing = result.json()
            expect(listing["benchmark"] == target.id, f"benchmark {listing['benchmark']!r}")
            expect(listing["count"] == len(target.tasks), f"count {listing['count']}, own script {len(target.tasks)}")
            expect(listing["tasks"] == target.tasks, "tasks differ from the package's own list --json")
            notes.append(f"{listing['count']} tasks")
        async with checks.check(f"{target.id}/cli/benchmark-core --benchmark {target.id} index-entry --json"):
            own = (await execute([str(target.script), "index-entry", "--json"])).json()
            result = await execute([str(script), "--benchmark", target.id, "index-entry", "--json"])
            result.expect_exit(0)
            expect(result.json() == own, "differs from the package's own index-entry")
    async with checks.check("benchmark-core/cli/exit 1: --benchmark unknown"):
        (await execute([str(script), "--benchmark", "no-such-benchmark", "list"])).expect_exit(1)
    with tempfile.TemporaryDirectory(prefix="e2e-sweep-") as tmp:
        await campaign_checks(checks, script, targets, Path(tmp))
    if any(t.id == SWEEP_KILL_BENCHMARK for t in targets):
        with tempfile.TemporaryDirectory(prefix="e2e-sweep-kill-") as tmp:
            await sweep_kill_check(checks, script, Path(tmp))


SWEEP_KILL_BENCHMARK = "benchmark-schema-mutation"
SWEEP_KILL_LIMIT = 32


async def sweep_kill_check(checks: Checks, script: Path, work: Path) -> None:
    """Four models on schema-mutation's full split through one fake OpenAI endpoint (20 ms an
    answer, 32 in flight): an uninterrupted sweep, then the same sweep in another folder killed with
    SIGKILL once it has sent 80% as many requests (each cell's episodes come last), then rerun. The
    rerun may send again only what was in flight at the kill (at most the endpoint's limit), and
    every cell's report must be the uninterrupted one, timestamps and latencies aside."""
    from benchmark_core import resolve_benchmark
    from benchmark_core.testing import FakeOpenAI, mock_handler, stable_report

    async with checks.check("benchmark-core/cli/sweep killed with SIGKILL mid-episodes, rerun") as notes:
        benchmark = resolve_benchmark(SWEEP_KILL_BENCHMARK)
        handler = mock_handler(benchmark, delay=0.02, tasks=benchmark.tasks("full"))
        async with FakeOpenAI(handler=handler, record=False) as server:
            env: dict[str, Optional[str]] = {"E2E_SWEEP_KEY": "sk-e2e-sweep"}
            models = "".join(
                f'[[models]]\nlabel = "m{n}"\nprovider = "openai"\nmodel = "m{n}"\n'
                f'base_url = "{server.base_url}"\napi_key_env = "E2E_SWEEP_KEY"\n\n'
                for n in range(1, 5)
            )
            body = (
                f'[options]\ncache = false\n\n{models}[[benchmarks]]\nid = "{SWEEP_KILL_BENCHMARK}"\n'
                f'tasks = "full"\n\n[limits]\n"{server.base_url}" = {SWEEP_KILL_LIMIT}\n'
            )
            sent = {}
            for name in ("whole", "killed"):
                (work / name).mkdir()
                (work / name / "sweep.toml").write_text(f'results = "results"\n\n{body}', encoding="utf-8")
            start = server.received
            (await execute([str(script), "sweep", "sweep.toml", "--json"], cwd=work / "whole", env=env)).expect_exit(0)
            sent["whole"] = server.received - start
            start = server.received
            process = await asyncio.create_subprocess_exec(
                str(script), "sweep", "sweep.toml", cwd=work / "killed", env=child_env(**env),
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )  # fmt: skip
            deadline = time.monotonic() + COMMAND_TIMEOUT
            # The fake serves on this loop: its request count is the state to wait on.
            while server.received - start < sent["whole"] * 4 // 5 and process.returncode is None:
                expect(time.monotonic() < deadline, "the sweep to kill did not get 80% of the way")
                await asyncio.sleep(0.01)
            expect(process.returncode is None, f"the sweep ended before it was killed (exit {process.returncode})")
            process.send_signal(signal.SIGKILL)
            await process.wait()
            sent["killed"] = server.received - start
            start = server.received
            rerun = await execute([str(script), "sweep", "sweep.toml", "--json"], cwd=work / "killed", env=env)
            rerun.expect_exit(0)
            sent["rerun"] = server.received - start
        resent = sent["killed"] + sent["rerun"] - sent["whole"]
        expect(resent <= SWEEP_KILL_LIMIT, f"{resent} requests sent again, more than {SWEEP_KILL_LIMIT} in flight")
        reports = sorted((work / "whole" / "results").rglob("*.json"))
        expect(len(reports) >= 4, f"{len(reports)} reports in the uninterrupted sweep's results")
        for whole in reports:
            killed = work / "killed" / whole.relative_to(work / "whole")
            expect(killed.is_file(), f"no {killed.relative_to(work)}")
            same = stable_report(json.loads(whole.read_text(encoding="utf-8"))) == stable_report(
                json.loads(killed.read_text(encoding="utf-8"))
            )
            expect(same, f"{killed.relative_to(work / 'killed')} differs from the uninterrupted sweep's")
        resumed = [line for line in rerun.stderr.splitlines() if "last finished turn" in line]
        expect(bool(resumed), f"no episode resumed at its last finished turn: {short(rerun.stderr)}")
        notes.append(
            f"uninterrupted {sent['whole']} requests; killed after {sent['killed']}, rerun {sent['rerun']}: "
            f"{resent} sent again (limit {SWEEP_KILL_LIMIT}); {len(reports)} reports equal; " + "; ".join(resumed)
        )


async def campaign_checks(checks: Checks, script: Path, targets: list[Target], work: Path) -> None:
    """`benchmark-core sweep` over every installed benchmark with two offline mock models, its rerun
    (every cell skipped), `leaderboard` (Markdown, --json, index.html), a bad sweep file, and the
    `cache` commands."""
    ids = [t.id or t.entry_point for t in targets]
    models = "".join(f'[[models]]\nlabel = "{label}"\nprovider = "mock"\nmodel = "{label}"\n\n' for label in ("a", "b"))
    benchmarks = "".join(f'[[benchmarks]]\nid = "{i}"\n\n' for i in ids)
    sweep = work / "sweep.toml"
    sweep.write_text(f'results = "results"\n\n{models}{benchmarks}[limits]\nmock = 8\n', encoding="utf-8")
    results = work / "results"
    async with checks.check("benchmark-core/cli/sweep --json") as notes:
        result = await execute([str(script), "sweep", str(sweep), "--json"], cwd=work)
        result.expect_exit(0)
        cells = result.json()["cells"]
        expect(len(cells) == 2 * len(ids) and all(c["status"] == "done" for c in cells), short(result.stdout))
        for cell in cells:
            expect(Path(cell["output"]).is_file(), f"no report at {cell['output']}")
        expect((results / "leaderboard.md").is_file() and (results / "index.html").is_file(), "no leaderboard")
        notes.append(f"{len(cells)} cells")
    async with checks.check("benchmark-core/cli/sweep rerun skips every cell"):
        result = await execute([str(script), "sweep", str(sweep), "--json"], cwd=work)
        result.expect_exit(0)
        expect({c["status"] for c in result.json()["cells"]} == {"skipped"}, short(result.stdout))
    async with checks.check("benchmark-core/cli/leaderboard") as notes:
        printed = await execute([str(script), "leaderboard", str(results)])
        printed.expect_exit(0)
        expect(printed.stdout == (results / "leaderboard.md").read_text(encoding="utf-8"), "differs from the file")
        board = (await execute([str(script), "leaderboard", str(results), "--json"])).json()
        expect(sorted(g["benchmark"] for g in board["groups"]) == sorted(ids), f"groups {board['groups']}")
        expect(all(len(g["entries"]) == 2 for g in board["groups"]), "a group without both models")
        notes.append(f"{len(board['groups'])} groups")
    async with checks.check("benchmark-core/cli/exit 1: sweep file with a bad key"):
        bad = work / "bad.toml"
        bad.write_text('[[models]]\nlabel = "a"\nprovider = "mock"\nmodel = "m"\ncolour = 1\n', encoding="utf-8")
        result = await execute([str(script), "sweep", str(bad)])
        result.expect_exit(1)
        expect(f"{bad}:5: models[0].colour: unknown key" in result.stderr, short(result.stderr))
    async with checks.check("benchmark-core/cli/cache info, prune, clear"):
        folder = str(work / "cache")
        info = await execute([str(script), "cache", "info", "--cache", folder, "--json"])
        info.expect_exit(0)
        expect(info.json()["entries"] == 0, short(info.stdout))
        for command in (["prune", "--older-than", "30d"], ["clear"]):
            done = await execute([str(script), "cache", *command, "--cache", folder])
            done.expect_exit(0)
            expect(done.stdout.startswith("removed 0 entries"), short(done.stdout))


# -- HTTP ----------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def served(
    target: Target, work: Path, **env: Optional[str]
) -> AsyncIterator[tuple[str, asyncio.subprocess.Process]]:
    """`<script> serve --scoring-api --port N` on a free loopback port, yielding its base URL once
    /health answers. The scoring API is the surface whose task documents must equal the SDK's whole
    (plain `serve` withholds their grading fields from agents; tests/sessions/test_serve_routes.py).
    `env` sets (or, with None, removes) variables of the server's environment."""
    assert target.script is not None
    port = free_port()
    log = (work / "serve.log").open("wb")
    argv = [str(target.script), "serve", "--scoring-api", "--port", str(port)]
    process = await asyncio.create_subprocess_exec(
        *argv, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log, env=child_env(**env)
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        async with aiohttp.ClientSession() as session:
            while True:
                if process.returncode is not None:
                    raise CheckFailed(f"serve exited {process.returncode}: {short(log_text(work))}")
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(f"{base}/health") as response:
                        if response.status == 200:
                            break
                if time.monotonic() > deadline:
                    raise CheckFailed(f"serve did not answer /health within 60s: {short(log_text(work))}")
                await asyncio.sleep(0.1)
        yield base, process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        log.close()


def log_text(work: Path) -> str:
    return (work / "serve.log").read_text(encoding="utf-8", errors="replace")


@dataclass
class Api:
    """A real aiohttp client bound to one server."""

    session: aiohttp.ClientSession
    base: str

    async def call(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any, Any]:
        async with self.session.request(method, self.base + path, **kwargs) as response:
            body = await response.read()
            data = json.loads(body) if body else None
            return response.status, data, response.headers

    async def expect_error(self, method: str, path: str, status: int, code: str, **kwargs: Any) -> dict[str, Any]:
        got, data, _ = await self.call(method, path, **kwargs)
        expect(got == status, f"status {got}, expected {status}: {short(json.dumps(data))}")
        expect(isinstance(data, dict) and data["error"]["code"] == code, f"body {short(json.dumps(data))}")
        expect(bool(data["error"]["message"]), "empty error message")
        error: dict[str, Any] = data["error"]
        return error


def unset_allow_list(target: Target) -> dict[str, Optional[str]]:
    """Environment overrides that keep the allow-list variable from leaking in from this process."""
    return {target.allow_env: None} if target.allow_env else {}


async def http_checks(checks: Checks, target: Target, work: Path) -> None:
    label = target.id
    async with contextlib.AsyncExitStack() as stack:
        server: Optional[tuple[str, asyncio.subprocess.Process]] = None
        async with checks.check(f"{label}/http/serve starts on 127.0.0.1") as notes:
            server = await stack.enter_async_context(served(target, work, **unset_allow_list(target)))
            notes.append(server[0])
            expect("127.0.0.1" in log_text(work), "the listening URL is not printed")
        if server is None:
            return
        base, process = server
        api = Api(await stack.enter_async_context(aiohttp.ClientSession()), base)
        call, expect_error = api.call, api.expect_error

        async with checks.check(f"{label}/http/GET /health"):
            status, data, headers = await call("GET", "/health")
            expect(status == 200 and data["status"] == "ok", f"{status} {data}")
            expect(data["benchmark"] == target.id, f"benchmark {data['benchmark']!r}")
            expect(data["distribution"] == target.distribution, f"distribution {data['distribution']!r}")
            expect(headers.get("Access-Control-Allow-Origin") == "*", "no CORS header")
        async with checks.check(f"{label}/http/GET /v1/tasks"):
            status, data, headers = await call("GET", "/v1/tasks")
            expect(status == 200 and data["tasks"] == target.tasks, "differs from list --json")
            expect(headers.get("Access-Control-Allow-Origin") == "*", "no CORS header")
        async with checks.check(f"{label}/http/GET /v1/tasks?tasks=tasks (bare name in data/)"):
            status, data, _ = await call("GET", "/v1/tasks", params={"tasks": "tasks"})
            expect(status == 200 and data["count"] == len(target.tasks), f"{status} {short(json.dumps(data))}")
        for task in target.tasks:
            async with checks.check(f"{label}/http/GET /v1/tasks/{task['id']}"):
                status, data, _ = await call("GET", f"/v1/tasks/{task['id']}")
                expect(status == 200 and data == task, f"{status}: differs from show --json")
        for row in target.report.get("rows", []):
            async with checks.check(f"{label}/http/POST /v1/score {row['taskId']}") as notes:
                body = {"taskId": row["taskId"], "submission": row["trace"], "seed": target.report["seed"]}
                status, data, _ = await call("POST", "/v1/score", json=body)
                expect(status == 200, f"status {status}: {short(json.dumps(data))}")
                expect(data["score"] == row["score"], f"score {data['score']} but the run row has {row['score']}")
                notes.append(f"score {data['score']}")
        async with checks.check(f"{label}/http/GET /v1/provenance"):
            own = (await execute([str(target.script), "provenance", "--json"])).json()
            status, data, _ = await call("GET", "/v1/provenance")
            expect(status == 200 and data["provenance"] == own["provenance"], "differs from provenance --json")
            expect(bool(data["markdown"].strip()), "no markdown")
        async with checks.check(f"{label}/http/GET /v1/index-entry"):
            own = (await execute([str(target.script), "index-entry", "--json"])).json()
            status, data, _ = await call("GET", "/v1/index-entry")
            expect(status == 200 and data == own, "differs from index-entry --json")
        async with checks.check(f"{label}/http/GET /openapi.json"):
            status, data, _ = await call("GET", "/openapi.json")
            expect(status == 200 and data["openapi"].startswith("3.1"), f"{status}")
            expect(set(ROUTES) <= set(data["paths"]), f"paths {sorted(data['paths'])}")
            expect("Error" in data["components"]["schemas"], "no Error schema")
        async with checks.check(f"{label}/http/OPTIONS /v1/score (CORS preflight)"):
            headers_in = {"Origin": "https://example.org", "Access-Control-Request-Method": "POST"}
            status, _, headers = await call("OPTIONS", "/v1/score", headers=headers_in)
            expect(status == 204, f"status {status}")
            expect(headers.get("Access-Control-Allow-Origin") == "*", "no Access-Control-Allow-Origin")
            expect("POST" in headers.get("Access-Control-Allow-Methods", ""), "POST not allowed")

        first = target.tasks[0]["id"]
        errors: list[tuple[str, str, str, int, str, dict[str, Any]]] = [
            ("413 body over 1 MiB", "POST", "/v1/score", 413, "REQUEST_TOO_LARGE",
             {"data": b" " * (MAX_BODY_BYTES + 1)}),
            ("413 chunked body over 1 MiB", "POST", "/v1/score", 413, "REQUEST_TOO_LARGE", {"data": chunks()}),
            ("400 invalid JSON", "POST", "/v1/score", 400, "INVALID_JSON", {"data": b"{not json"}),
            ("400 body not an object", "POST", "/v1/score", 400, "INVALID_SUBMISSION", {"json": [1, 2]}),
            ("400 missing submission", "POST", "/v1/score", 400, "INVALID_SUBMISSION", {"json": {"taskId": first}}),
            ("422 invalid submission", "POST", "/v1/score", 422, "INVALID_SUBMISSION",
             {"json": {"taskId": first, "submission": {"toolLog": "nope"}}}),
            ("422 submission not an object", "POST", "/v1/score", 422, "INVALID_SUBMISSION",
             {"json": {"taskId": first, "submission": "42"}}),
            ("404 unknown task", "GET", "/v1/tasks/no-such-task", 404, "TASK_NOT_FOUND", {}),
            ("404 score of an unknown task", "POST", "/v1/score", 404, "TASK_NOT_FOUND",
             {"json": {"taskId": "no-such-task", "submission": {}}}),
            ("404 unknown route", "GET", "/v2/nothing", 404, "NOT_FOUND", {}),
            ("405 GET /v1/score", "GET", "/v1/score", 405, "METHOD_NOT_ALLOWED", {}),
            ("405 POST /v1/tasks", "POST", "/v1/tasks", 405, "METHOD_NOT_ALLOWED", {}),
            ("403 ?tasks=../", "GET", "/v1/tasks", 403, "TASKS_NOT_ALLOWED", {"params": {"tasks": "../tasks.jsonl"}}),
            ("403 ?tasks=absolute path", "GET", "/v1/index-entry", 403, "TASKS_NOT_ALLOWED",
             {"params": {"tasks": "/etc/passwd"}}),
            ("403 tasks in the score body", "POST", "/v1/score", 403, "TASKS_NOT_ALLOWED",
             {"json": {"taskId": first, "submission": {}, "tasks": "../../x.jsonl"}}),
        ]  # fmt: skip
        for what, method, path, status, code, kwargs in errors:
            async with checks.check(f"{label}/http/error {what}"):
                await expect_error(method, path, status, code, **kwargs)
        if target.alt is not None and target.allow_env:
            # The very file the allow-listed server below serves: the variable is what lets it through.
            async with checks.check(f"{label}/http/error 403 ?tasks=alt.jsonl without {target.allow_env}"):
                params = {"tasks": str(target.alt.path)}
                error = await expect_error("GET", "/v1/tasks", 403, "TASKS_NOT_ALLOWED", params=params)
                expect(target.allow_env in error["message"], f"the variable is not named: {error['message']}")

        async with checks.check(f"{label}/http/still healthy after the errors"):
            status, _, _ = await call("GET", "/health")
            expect(status == 200, f"status {status}")
        async with checks.check(f"{label}/http/SIGTERM stops the server cleanly"):
            process.send_signal(signal.SIGTERM)
            exit_code = await asyncio.wait_for(process.wait(), 30)
            expect(exit_code == 0, f"exit {exit_code}: {short(log_text(work))}")
            expect("Traceback" not in log_text(work), short(log_text(work)))


async def alt_http_checks(checks: Checks, target: Target) -> None:
    """A second server, its allow-list naming the alternate file and its non-JSON sibling."""
    alt, variable = target.alt, target.allow_env
    if alt is None or not variable:
        return
    label, work = target.id, alt.folder / "serve"
    work.mkdir()
    allowed = os.pathsep.join([str(alt.path), str(alt.not_json)])
    async with contextlib.AsyncExitStack() as stack:
        server: Optional[tuple[str, asyncio.subprocess.Process]] = None
        async with checks.check(f"{label}/http/serve with {variable}=alt.jsonl{os.pathsep}not-json.jsonl") as notes:
            server = await stack.enter_async_context(served(target, work, **{variable: allowed}))
            notes.append(server[0])
        if server is None:
            return
        base, process = server
        api = Api(await stack.enter_async_context(aiohttp.ClientSession()), base)
        source = {"tasks": str(alt.path)}

        async with checks.check(f"{label}/http/GET /v1/tasks?tasks=alt.jsonl (allow-listed)"):
            status, data, _ = await api.call("GET", "/v1/tasks", params=source)
            expect(status == 200, f"status {status}: {short(json.dumps(data))}")
            expect(data["count"] == len(alt.tasks), f"count {data['count']}, expected {len(alt.tasks)}")
            expect(data["tasks"] == alt.tasks, f"ids {[t['id'] for t in data['tasks']]}, expected {alt.ids}")
        async with checks.check(f"{label}/http/GET /v1/tasks/{alt.ids[0]}?tasks=alt.jsonl"):
            status, data, _ = await api.call("GET", f"/v1/tasks/{alt.ids[0]}", params=source)
            expect(status == 200 and data == alt.tasks[0], f"{status}: differs from the task in the file")
        async with checks.check(f"{label}/http/GET /v1/index-entry?tasks=alt.jsonl"):
            status, data, _ = await api.call("GET", "/v1/index-entry", params=source)
            expect(status == 200 and data["taskCount"] == len(alt.tasks), f"{status}: {short(json.dumps(data))}")
        for row in alt.report.get("rows", []):
            async with checks.check(f'{label}/http/POST /v1/score {row["taskId"]} with "tasks": alt.jsonl') as notes:
                body = {"taskId": row["taskId"], "submission": row["trace"], "seed": alt.report["seed"], **source}
                status, data, _ = await api.call("POST", "/v1/score", json=body)
                expect(status == 200, f"status {status}: {short(json.dumps(data))}")
                expect(data["score"] == row["score"], f"score {data['score']} but the run row has {row['score']}")
                notes.append(f"score {data['score']}")

        # Paths that resolve to a valid task file beside the allowed one, but not to an allowed path.
        around = str(alt.folder / ".." / alt.folder.name / alt.outside.name)
        refused = {
            "absolute path not on the allow-list": str(alt.outside),
            "../ path not on the allow-list": around,
            "symlink to a file not on the allow-list": str(alt.link),
        }
        for what, name in refused.items():
            async with checks.check(f"{label}/http/error 403 ?tasks={what}"):
                await api.expect_error("GET", "/v1/tasks", 403, "TASKS_NOT_ALLOWED", params={"tasks": name})
        async with checks.check(f'{label}/http/error 403 "tasks" in the score body not on the allow-list'):
            body = {"taskId": alt.ids[0], "submission": {}, "tasks": str(alt.outside)}
            await api.expect_error("POST", "/v1/score", 403, "TASKS_NOT_ALLOWED", json=body)
        async with checks.check(f"{label}/http/error 400 allow-listed task file with a non-JSON line"):
            params = {"tasks": str(alt.not_json)}
            error = await api.expect_error("GET", "/v1/tasks", 400, "INVALID_TASK_FILE", params=params)
            expect(":2:" in error["message"], f"the line is not named: {error['message']}")

        async with checks.check(f"{label}/http/SIGTERM stops the allow-listed server cleanly"):
            process.send_signal(signal.SIGTERM)
            exit_code = await asyncio.wait_for(process.wait(), 30)
            expect(exit_code == 0, f"exit {exit_code}: {short(log_text(work))}")
            expect("Traceback" not in log_text(work), short(log_text(work)))


async def chunks() -> AsyncIterator[bytes]:
    for _ in range(MAX_BODY_BYTES // 65536 + 2):
        yield b" " * 65536


# -- MCP -----------------------------------------------------------------------------------------


def structured(result: Any) -> Any:
    if result.is_error:
        raise CheckFailed("tool error: " + short(" ".join(getattr(b, "text", "") for b in result.content)))
    return result.structured_content


def tool_error(result: Any) -> dict[str, str]:
    """The `{"code", "message"}` of a tool error, checked against the shape every client relies on:
    text `CODE: message`, the same under `_meta`, no structured content."""
    expect(result.is_error, f"expected a tool error, got {short(json.dumps(result.structured_content))}")
    expect(result.structured_content is None, f"structured content on an error: {result.structured_content}")
    error: dict[str, str] = (result.meta or {}).get(ERROR_META_KEY) or {}
    text = " ".join(getattr(b, "text", "") for b in result.content)
    expect(text == f"{error.get('code')}: {error.get('message')}", f"text {text!r} vs _meta {error!r}")
    return error


def tool_error_code(result: Any) -> str:
    return tool_error(result)["code"]


async def mcp_checks(checks: Checks, target: Target) -> None:
    label = target.id
    # Without the key, run_benchmark on openrouter must fail with a clear tool error.
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", target.module, "mcp", "--scoring-api"],
        env=child_env(OPENROUTER_API_KEY=None, **unset_allow_list(target)),
    )
    async with contextlib.AsyncExitStack() as stack:
        connected: Optional[mcp.Client] = None
        async with checks.check(f"{label}/mcp/stdio handshake (python -m {target.module} mcp)") as notes:
            connected = await stack.enter_async_context(mcp.Client(parameters, read_timeout_seconds=COMMAND_TIMEOUT))
            notes.append(f"protocol {connected.protocol_version}")
        if connected is None:
            return
        client = connected
        async with checks.check(f"{label}/mcp/list_tools"):
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            expect(set(tools) == set(TOOLS), f"tools {sorted(tools)}")
            for tool in tools.values():
                expect(tool.input_schema.get("type") == "object", f"{tool.name}: no input schema")
                expect(bool(tool.output_schema), f"{tool.name}: no output schema")
        async with checks.check(f"{label}/mcp/list_tasks"):
            data = structured(await client.call_tool("list_tasks", {}))
            expect(data["tasks"] == target.tasks, "differs from list --json")
        async with checks.check(f"{label}/mcp/get_task"):
            data = structured(await client.call_tool("get_task", {"task_id": target.tasks[0]["id"]}))
            expect(data == target.tasks[0], "differs from list --json")
        async with checks.check(f"{label}/mcp/get_task unknown id is a tool error"):
            code = tool_error_code(await client.call_tool("get_task", {"task_id": "no-such-task"}))
            expect(code == "TASK_NOT_FOUND", code)
        async with checks.check(f"{label}/mcp/list_tasks tasks=../ is a tool error"):
            code = tool_error_code(await client.call_tool("list_tasks", {"tasks": "../tasks.jsonl"}))
            expect(code == "TASKS_NOT_ALLOWED", code)
        if target.alt is not None and target.allow_env:
            alt = target.alt
            async with checks.check(f"{label}/mcp/tasks=alt.jsonl without {target.allow_env} is a tool error"):
                listed = await client.call_tool("list_tasks", {"tasks": str(alt.path)})
                expect(tool_error_code(listed) == "TASKS_NOT_ALLOWED", "list_tasks: wrong code")
                arguments = {"task_id": alt.ids[0], "submission": {}, "tasks": str(alt.path)}
                scored = await client.call_tool("score_answer", arguments)
                expect(tool_error_code(scored) == "TASKS_NOT_ALLOWED", "score_answer: wrong code")
        for row in target.report.get("rows", []):
            async with checks.check(f"{label}/mcp/score_answer {row['taskId']}"):
                arguments = {"task_id": row["taskId"], "submission": row["trace"], "seed": target.report["seed"]}
                data = structured(await client.call_tool("score_answer", arguments))
                expect(data["score"] == row["score"], f"score {data['score']} but the run row has {row['score']}")
        async with checks.check(f"{label}/mcp/score_answer invalid submission is a tool error"):
            arguments = {"task_id": target.tasks[0]["id"], "submission": {"toolLog": "nope"}}
            code = tool_error_code(await client.call_tool("score_answer", arguments))
            expect(code == "INVALID_SUBMISSION", code)
        async with checks.check(f"{label}/mcp/run_benchmark provider=mock") as notes:
            data = structured(await client.call_tool("run_benchmark", {"model": "offline", "provider": "mock"}))
            if target.report:
                expect(data["mean"] == target.report["mean"], f"mean {data['mean']} vs CLI {target.report['mean']}")
            expect(all(not r["episode"] or r["episode"]["transcript"] == [] for r in data["rows"]), "transcripts kept")
            notes.append(f"mean {data['mean']:.4f}")
        async with checks.check(f"{label}/mcp/run_benchmark without OPENROUTER_API_KEY is a tool error"):
            result = await client.call_tool("run_benchmark", {"model": "some/model", "provider": "openrouter"})
            error = tool_error(result)
            expect(error["code"] == "INVALID_CONFIGURATION", "wrong code")
            expect("OPENROUTER_API_KEY" in error["message"], "the variable is not named")
        async with checks.check(f"{label}/mcp/get_provenance"):
            data = structured(await client.call_tool("get_provenance", {}))
            expect(len(data["provenance"]) > 0 and bool(data["markdown"].strip()), "empty provenance")


async def alt_mcp_checks(checks: Checks, target: Target) -> None:
    """A second MCP process, with the allow-list variable naming the alternate file in its environment."""
    alt, variable = target.alt, target.allow_env
    if alt is None or not variable:
        return
    label = target.id
    # The SDK's stdio client passes only a few variables on its own: hand it the whole environment.
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", target.module, "mcp", "--scoring-api"],
        env=child_env(**{variable: str(alt.path)}),
    )
    async with contextlib.AsyncExitStack() as stack:
        connected: Optional[mcp.Client] = None
        async with checks.check(f"{label}/mcp/stdio handshake with {variable}=alt.jsonl"):
            connected = await stack.enter_async_context(mcp.Client(parameters, read_timeout_seconds=COMMAND_TIMEOUT))
        if connected is None:
            return
        client = connected
        async with checks.check(f"{label}/mcp/list_tasks tasks=alt.jsonl (allow-listed)"):
            data = structured(await client.call_tool("list_tasks", {"tasks": str(alt.path)}))
            expect(data["count"] == len(alt.tasks), f"count {data['count']}, expected {len(alt.tasks)}")
            expect(data["tasks"] == alt.tasks, f"ids {[t['id'] for t in data['tasks']]}, expected {alt.ids}")
        for row in alt.report.get("rows", []):
            async with checks.check(f"{label}/mcp/score_answer {row['taskId']} tasks=alt.jsonl"):
                arguments = {"task_id": row["taskId"], "submission": row["trace"], "seed": alt.report["seed"]}
                arguments["tasks"] = str(alt.path)
                data = structured(await client.call_tool("score_answer", arguments))
                expect(data["score"] == row["score"], f"score {data['score']} but the run row has {row['score']}")
        async with checks.check(f"{label}/mcp/list_tasks tasks=absolute path not on the allow-list is a tool error"):
            code = tool_error_code(await client.call_tool("list_tasks", {"tasks": str(alt.outside)}))
            expect(code == "TASKS_NOT_ALLOWED", code)


# -- MCP Inspector (a third-party client) -------------------------------------------------------

#: A server whose grader crashes, for the INTERNAL_ERROR check: the example benchmark, grader replaced.
CRASHING_SERVER = """
import attrs
from benchmark_core.servers import start_mcp
from benchmark_core.example import benchmark

def crash(task, trace, ctx):
    raise RuntimeError("grader bug")

start_mcp(attrs.evolve(benchmark, grade=crash))
"""


@dataclass
class Inspector:
    """The MCP Inspector CLI (`npx @modelcontextprotocol/inspector --cli ...`), installed by nox."""

    path: Path

    async def call(self, server: Sequence[str], tool: Optional[str], **arguments: str) -> tuple[Completed, Any]:
        """Run one method against `server` (a stdio command); returns the process and the JSON it
        printed on stdout: the tools/list or tools/call result, which is what a user reads."""
        argv = [str(self.path), "--cli", *server]
        if tool is None:
            argv += ["--method", "tools/list"]
        else:
            argv += ["--method", "tools/call", "--tool-name", tool]
            if arguments:
                argv += ["--tool-arg", *(f"{key}={value}" for key, value in arguments.items())]
        result = await execute(argv, env={"OPENROUTER_API_KEY": None, "OPENAI_API_KEY": None})
        return result, result.json()

    async def structured(self, server: Sequence[str], tool: str, **arguments: str) -> Any:
        result, data = await self.call(server, tool, **arguments)
        result.expect_exit(0)
        expect(not data.get("isError"), f"tool error: {short(json.dumps(data.get('content')))}")
        return data["structuredContent"]

    async def error_text(self, server: Sequence[str], tool: str, **arguments: str) -> str:
        """The text of a tool error as Inspector prints it; fails when Inspector replaced the
        message with its own output-schema validation error."""
        result, data = await self.call(server, tool, **arguments)
        shown = result.stdout + result.stderr
        expect(INSPECTOR_VALIDATION_TEXT not in shown, f"Inspector rejected the error result: {short(shown)}")
        result.expect_exit(5)  # Inspector's exit code for a tool that returned isError
        expect(data.get("isError") is True, f"not a tool error: {short(result.stdout)}")
        expect("structuredContent" not in data, "an error result with structured content")
        text: str = " ".join(block.get("text", "") for block in data["content"])
        return text


async def inspector_episode_checks(checks: Checks, target: Target, inspector: Inspector) -> None:
    """An episode session (`mcp --episode`) through MCP Inspector: it lists exactly the episode's
    tools and calls one, the call's error readable as `CODE: message` (issue 23)."""
    from benchmark_core import load_benchmark

    assert target.script is not None
    episode = next((task for task in target.tasks if task["kind"] == "episode"), None)
    if episode is None:
        return  # this task list has no episode (schema-mutation's public split)
    bench = load_benchmark(target.id)
    task = next(t for t in bench.tasks() if t.id == episode["id"])
    assert bench.environment is not None
    declared = bench.environment().reset(task, 1).tools
    label, server = target.id, [str(target.script), "mcp", "--episode", task.id]
    async with checks.check(f"{label}/inspector/episode {task.id}/tools/list") as notes:
        result, data = await inspector.call(server, None)
        result.expect_exit(0)
        listed = [(t["name"], t.get("description"), t["inputSchema"]) for t in data["tools"]]
        expect(listed == [(s.name, s.description, s.parameters) for s in declared], f"tools {short(str(listed))}")
        notes.append(", ".join(name for name, _, _ in listed))
    async with checks.check(f"{label}/inspector/episode {task.id}/tools/call without arguments") as notes:
        result, data = await inspector.call(server, declared[0].name)
        if data.get("isError"):
            text = " ".join(block.get("text", "") for block in data["content"])
            expect(re.match(r"^[A-Z][A-Z0-9_]*: ", text) is not None, f"Inspector shows {text!r}")
        else:
            result.expect_exit(0)
            text = short(json.dumps(data.get("content")))
        notes.append(short(text, 120))


async def inspector_version_check(checks: Checks, inspector: Optional[Path]) -> Optional[Inspector]:
    async with checks.check("mcp-inspector/installed") as notes:
        if inspector is None:
            raise CheckFailed("no --inspector given: run `nox -s e2e`, which installs MCP Inspector from npm")
        expect(inspector.exists(), f"{inspector} does not exist")
        result = await execute([str(inspector), "--version"])
        result.expect_exit(0)
        notes.append(f"@modelcontextprotocol/inspector {result.stdout.strip()}")
        return Inspector(inspector)
    return None


async def inspector_checks(checks: Checks, target: Target, inspector: Inspector) -> None:
    """Every tool and each kind of tool error through MCP Inspector's CLI, asserting what it prints."""
    assert target.script is not None
    label, server = target.id, [str(target.script), "mcp", "--scoring-api"]
    first = target.tasks[0]

    # Plain `mcp` (what an agent's client could start) serves no grading field and no scoring tool.
    async with checks.check(f"{label}/inspector/plain mcp withholds grading") as notes:
        plain = [str(target.script), "mcp"]
        result, data = await inspector.call(plain, None)
        result.expect_exit(0)
        names = sorted(tool["name"] for tool in data["tools"])
        expect(names == ["get_provenance", "get_task", "list_tasks"], f"tools {names}")
        listed = await inspector.structured(plain, "list_tasks")
        expect(
            all(task.get("expected") is None and not task.get("metadata") for task in listed["tasks"]),
            "a grading field",
        )
        notes.append(", ".join(names))
    async with checks.check(f"{label}/inspector/tools/list") as notes:
        result, data = await inspector.call(server, None)
        result.expect_exit(0)
        tools = {tool["name"]: tool for tool in data["tools"]}
        expect(set(tools) == set(TOOLS), f"tools {sorted(tools)}")
        expect(all(tool.get("outputSchema") for tool in tools.values()), "a tool without an output schema")
        notes.append(", ".join(sorted(tools)))
    async with checks.check(f"{label}/inspector/tools/call list_tasks"):
        data = await inspector.structured(server, "list_tasks")
        expect(data["tasks"] == target.tasks, "differs from list --json")
    async with checks.check(f"{label}/inspector/tools/call get_task task_id={first['id']}"):
        data = await inspector.structured(server, "get_task", task_id=first["id"])
        expect(data == first, "differs from list --json")
    rows = target.report.get("rows", [])
    if rows:
        row = next((r for r in rows if r.get("episode")), rows[0])
        async with checks.check(f"{label}/inspector/tools/call score_answer task_id={row['taskId']}") as notes:
            submission = json.dumps(row["trace"], ensure_ascii=False)
            arguments = {"task_id": row["taskId"], "submission": submission, "seed": str(target.report["seed"])}
            data = await inspector.structured(server, "score_answer", **arguments)
            expect(data["score"] == row["score"], f"score {data['score']} but the run row has {row['score']}")
            notes.append(f"score {data['score']}")
    async with checks.check(f"{label}/inspector/tools/call run_benchmark provider=mock") as notes:
        data = await inspector.structured(server, "run_benchmark", model="offline", provider="mock")
        if target.report:
            expect(data["mean"] == target.report["mean"], f"mean {data['mean']} vs CLI {target.report['mean']}")
        notes.append(f"mean {data['mean']:.4f}")
    async with checks.check(f"{label}/inspector/tools/call get_provenance"):
        data = await inspector.structured(server, "get_provenance")
        expect(bool(data["markdown"].strip()), "empty provenance")

    # Each error as the user reads it: (tool, arguments, the exact text, or its start when it ends "…").
    errors: dict[str, tuple[str, dict[str, str], str]] = {
        "unknown task": (
            "get_task",
            {"task_id": "no-such-task"},
            f"TASK_NOT_FOUND: unknown task id 'no-such-task' in benchmark '{label}'",
        ),
        "tasks not allowed": (
            "list_tasks",
            {"tasks": "../tasks.jsonl"},
            "TASKS_NOT_ALLOWED: task file '../tasks.jsonl' is outside the benchmark's data folder…",
        ),
        "missing API key": (
            "run_benchmark",
            {"model": "some/model", "provider": "openrouter"},
            "INVALID_CONFIGURATION: openrouter: no API key given and $OPENROUTER_API_KEY is not set",
        ),
        "missing argument": (
            "get_task",
            {},
            "INVALID_ARGUMENTS: invalid arguments for get_task: task_id: Field required",
        ),
        "argument of the wrong type": (
            "score_answer",
            {"task_id": first["id"], "submission": "[1]"},
            "INVALID_ARGUMENTS: invalid arguments for score_answer: submission: Input should be a valid dictionary",
        ),
    }
    for what, (tool, arguments, wanted) in errors.items():
        async with checks.check(f"{label}/inspector/tools/call {tool}: {what} is readable") as notes:
            text = await inspector.error_text(server, tool, **arguments)
            if wanted.endswith("…"):
                expect(text.startswith(wanted[:-1]), f"Inspector shows {text!r}, expected {wanted!r}")
            else:
                expect(text == wanted, f"Inspector shows {text!r}, expected {wanted!r}")
            notes.append(short(text, 160))


async def inspector_crash_check(checks: Checks, inspector: Inspector, work: Path) -> None:
    script = work / "crashing_server.py"
    script.write_text(CRASHING_SERVER, encoding="utf-8")
    async with checks.check("benchmark-core/inspector/tools/call score_answer: a crashing grader is INTERNAL_ERROR"):
        text = await inspector.error_text(
            [sys.executable, str(script)], "score_answer", task_id="arith-01", submission="{}"
        )
        wanted = "INTERNAL_ERROR: score_answer failed unexpectedly; the traceback is in the server's log"
        expect(text == wanted, f"Inspector shows {text!r}, expected {wanted!r}")
        expect("grader bug" not in text, "the exception text reached the client")


# -- providers against their fakes ---------------------------------------------------------------

PROVIDER_KEY = "sk-e2e-provider-SECRET-71d4"


def load_benchmark(target: Target) -> Any:
    [entry] = importlib.metadata.entry_points(group=GROUP, name=target.entry_point)
    return entry.load()


async def provider_checks(checks: Checks, target: Target, work: Path) -> None:
    """`run --provider anthropic` (native mode where the benchmark has it, episodes, extended
    thinking) and `run --provider gemini`, each against its loopback fake playing the mock: the same
    scores as the mock in the same mode, the provider, cached and reasoning tokens in the report, and
    the key in no output."""
    from benchmark_core.testing import FakeAnthropic, FakeGemini, mock_handler

    benchmark = load_benchmark(target)
    mode = ["--mode", "native"] if "native" in benchmark.answer_modes else []
    mock = work / "mock-mode.json"
    base = [str(target.script), "run", "--no-cache", *mode]
    shown = "".join(f" {arg}" for arg in mode)
    async with checks.check(f"{target.id}/cli/run --provider mock{shown}"):
        (await execute([*base, "--model", "offline", "--provider", "mock", "--output", str(mock)])).expect_exit(0)
    expected = [(r["taskId"], r["score"]) for r in json.loads(mock.read_text(encoding="utf-8"))["rows"]]
    for provider in ("anthropic", "gemini"):
        name = f"{target.id}/cli/run --provider {provider}{shown} --reasoning-effort low (fake)"
        async with checks.check(name) as notes:
            handler = mock_handler(benchmark, wire=provider)
            server: Any = (
                FakeAnthropic(handler=handler, api_key=PROVIDER_KEY, cache_min_tokens=100)
                if provider == "anthropic"
                else FakeGemini(handler=handler, api_key=PROVIDER_KEY)
            )
            async with server:
                report_path = work / f"{provider}.json"
                env = {f"{provider.upper()}_API_KEY": PROVIDER_KEY, f"{provider.upper()}_BASE_URL": server.base_url}
                argv = [*base, "--model", "fake-model", "--provider", provider, "--reasoning-effort", "low"]
                result = await execute([*argv, "--output", str(report_path)], env=env)
            result.expect_exit(0)
            text = report_path.read_text(encoding="utf-8")
            for output in (result.stdout, result.stderr, text):
                expect(PROVIDER_KEY not in output, "the API key was printed or written")
            report = json.loads(text)
            notes.append(_provider_notes(report, expected, provider, server.received))


def _provider_notes(report: dict[str, Any], expected: list[tuple[str, float]], provider: str, sent: int) -> str:
    """Check a provider run's report against the mock's scores; a note of what it recorded."""
    expect(report["provider"] == provider, f"provider {report['provider']!r}")
    expect([(r["taskId"], r["score"]) for r in report["rows"]] == expected, "scores differ from the mock's")
    usage = report["usage"]
    episodes = [row for row in report["rows"] if row.get("episode")]
    if provider == "anthropic" and episodes:
        expect(usage.get("cachedTokens", 0) > 0, "no prompt-cache reads over the episodes")
        transcript = episodes[0]["episode"]["transcript"]
        expect(any(m.get("reasoning") for m in transcript), "no thinking kept in an episode's transcript")
    expect(usage.get("reasoningTokens", 0) > 0, "no reasoning tokens reported")
    cache = f", {usage.get('cachedTokens', 0):,} read from the prompt cache" if provider == "anthropic" else ""
    return f"{sent} requests, mean {report['mean']:.4f}, {usage['promptTokens']:,} prompt tokens{cache}"


async def providers_command_check(checks: Checks, target: Target) -> None:
    async with checks.check(f"{target.id}/cli/providers --json"):
        from benchmark_core.adapters import PROVIDERS as PROVIDER_NAMES

        result = await execute([str(target.script), "providers", "--json"])
        result.expect_exit(0)
        listed = [entry["name"] for entry in result.json()["providers"]]
        expect(tuple(listed) == PROVIDER_NAMES, f"lists {listed}")


# -- main ----------------------------------------------------------------------------------------


async def check_target(checks: Checks, target: Target, inspector: Optional[Inspector]) -> None:
    with tempfile.TemporaryDirectory(prefix=f"e2e-{target.entry_point}-") as tmp:
        work = Path(tmp)
        await cli_checks(checks, target, work)
        if not target.tasks:
            return
        await split_checks(checks, target, work)
        await allow_list_checks(checks, target)
        target.alt = write_alt_tasks(target, work / "alt-tasks")
        await alt_cli_checks(checks, target, target.alt)
        await http_checks(checks, target, work)
        await alt_http_checks(checks, target)
        await mcp_checks(checks, target)
        await alt_mcp_checks(checks, target)
        await provider_checks(checks, target, work)
        await providers_command_check(checks, target)
        await batch_checks(checks, target, work)
        if inspector is not None:
            await inspector_checks(checks, target, inspector)
            await inspector_episode_checks(checks, target, inspector)


# -- batch APIs ------------------------------------------------------------------------------------


async def batch_checks(checks: Checks, target: Target, work: Path) -> None:
    """`run --batch` against the fake OpenAI Files + Batches and Anthropic Message Batches servers,
    playing the mock's answers: each run is killed with SIGKILL while it polls, then resumed, and
    must submit every task exactly once and score every task as the mock run did. A benchmark
    with episodes must refuse `--batch` with exit 1."""
    from benchmark_core import load_benchmark
    from benchmark_core.testing import FakeAnthropicBatches, FakeOpenAIBatches, mock_handler

    assert target.script is not None
    single = [task["id"] for task in target.tasks if task["kind"] == "single"]
    if len(single) < len(target.tasks):
        async with checks.check(f"{target.id}/batch/episodes refused with exit 1"):
            env: dict[str, Optional[str]] = {"OPENAI_API_KEY": BATCH_KEY, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
            result = await execute(
                [str(target.script), "run", "--model", "m", "--provider", "openai", "--batch"], env=env
            )
            result.expect_exit(1)
            expect("--batch runs single tasks only" in result.stderr, f"stderr: {short(result.stderr)}")
            expect("Traceback" not in result.stderr, "a traceback was printed")
    if not single:
        return
    benchmark = load_benchmark(target.id)
    expected = {row["taskId"]: row["score"] for row in target.report["rows"] if row["taskId"] in single}
    for provider, fake_class in (("openai", FakeOpenAIBatches), ("anthropic", FakeAnthropicBatches)):
        async with checks.check(f"{target.id}/batch/{provider}: killed while polling, resumed") as notes:
            handler = mock_handler(benchmark, wire="openai" if provider == "openai" else "anthropic")
            fake = fake_class(handler, processing_delay=2.0)
            output = work / f"batch-{provider}.json"
            async with fake:
                variable = provider.upper()
                env = {f"{variable}_BASE_URL": fake.base_url, f"{variable}_API_KEY": BATCH_KEY}
                argv = [str(target.script), "run", "--model", "m", "--provider", provider, "--batch"]
                argv += ["--batch-poll", "0.1", "--output", str(output), *(f for t in single for f in ("--task", t))]
                await _killed_while_polling(argv, env, fake)
                resumed = await execute([*argv, "--resume"], env=env)
                resumed.expect_exit(0)
            report = json.loads(output.read_text(encoding="utf-8"))
            counts = fake.submissions
            expect(
                sorted(counts.values()) == [1] * len(single), f"submissions per task: {sorted(set(counts.values()))}"
            )
            expect({row["taskId"]: row["score"] for row in report["rows"]} == expected, "scores differ from the mock's")
            expect(report["batch"]["discount"] == 0.5, f"batch record {report.get('batch')}")
            notes.append(f"{len(single)} tasks, {len(fake.batches)} batch, {fake.polls} polls, each task sent once")


async def _killed_while_polling(argv: Sequence[str], env: dict[str, Optional[str]], fake: Any) -> None:
    process = await asyncio.create_subprocess_exec(
        *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL, env=child_env(**env),
    )  # fmt: skip
    deadline = time.monotonic() + COMMAND_TIMEOUT
    # The fake serves on this loop and counts polls: its counter is the state to wait on.
    while fake.polls < 2 and process.returncode is None and time.monotonic() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.02)
    expect(process.returncode is None, f"the run ended before it was killed (exit {process.returncode})")
    process.send_signal(signal.SIGKILL)
    await process.wait()
    expect(len(fake.batches) == 1, f"{len(fake.batches)} batches created before the kill")


async def main_async(args: argparse.Namespace) -> Checks:
    checks = Checks()
    targets, problems = discover()
    async with checks.check("discovery/entry points") as notes:
        if problems:
            raise CheckFailed("; ".join(problems))
        expect(bool(targets), f"no installed benchmark under the entry-point group {GROUP}")
        notes.append(", ".join(f"{t.entry_point} ({t.distribution})" for t in targets))
    for wanted in args.expect:
        async with checks.check(f"discovery/{wanted} is installed"):
            expect(any(t.distribution == wanted for t in targets), f"no benchmark from distribution {wanted}")
    inspector = await inspector_version_check(checks, args.inspector)
    for target in targets:
        if args.only and target.entry_point not in args.only and target.distribution not in args.only:
            continue
        await check_target(checks, target, inspector)
    if inspector is not None:
        with tempfile.TemporaryDirectory(prefix="e2e-inspector-") as tmp:
            await inspector_crash_check(checks, inspector, Path(tmp))
    if not args.only:
        await umbrella_checks(checks, targets)
    return checks


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--report", type=Path, default=REPO / "artifacts" / "e2e-report.json")
    parser.add_argument(
        "--expect", action="append", default=[], metavar="DIST", help="Fail unless this distribution is installed."
    )
    parser.add_argument(
        "--inspector",
        type=Path,
        default=None,
        metavar="PATH",
        help="The MCP Inspector executable (node_modules/.bin/mcp-inspector); nox installs it. Without it "
        "the Inspector checks fail.",
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="NAME", help="Check only this entry point or distribution."
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    checks = asyncio.run(main_async(args))
    passed = sum(1 for c in checks.items if c.ok)
    failed = len(checks.items) - passed
    args.report.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "passed": passed,
        "failed": failed,
        "durationMs": _ms(started),
        "python": sys.version.split()[0],
        "checks": [c.to_json() for c in checks.items],
    }
    args.report.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"e2e: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
