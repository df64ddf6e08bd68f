"""The CLI through click's CliRunner (and one real subprocess for import weight)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import Task
from benchmark_core.cli import create_cli
from benchmark_core.data import dump_task_file
from benchmark_core.example import benchmark
from click.testing import CliRunner, Result

CLI = create_cli(benchmark, "benchmark-core", umbrella=True)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(CLI, list(args), catch_exceptions=False)


def test_list_and_show() -> None:
    result = invoke("list")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("arith-01")
    data = json.loads(invoke("list", "--json").stdout)
    assert data["count"] == 21 and data["tasks"][0]["id"] == "arith-01"
    shown = invoke("show", "order-refund-01")
    assert shown.exit_code == 0 and "kind:   episode" in shown.stdout
    assert json.loads(invoke("show", "arith-02", "--json").stdout)["expected"] == 56


def test_unknown_task_exits_1_with_a_json_error_on_stdout() -> None:
    result = invoke("show", "nope", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "error": {"code": "TASK_NOT_FOUND", "message": "unknown task id 'nope' in benchmark 'benchmark-core-example'"}
    }
    plain = invoke("show", "nope")
    assert plain.exit_code == 1 and plain.stdout == "" and "unknown task id 'nope'" in plain.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["frobnicate"],
        ["run", "--model", "m"],
        ["run", "--model", "m", "--provider", "mock", "--concurrency", "0"],
        ["run", "--model", "m", "--provider", "carrier-pigeon"],
        ["run", "--model", "m", "--provider", "mock", "--mode", "native"],
        ["score", "/nonexistent/report.json"],
        ["card", "/nonexistent/report.json"],
        ["list", "--tasks", "/nonexistent/tasks.jsonl"],
        ["run", "--model", "m", "--provider", "mock", "--output", "/proc/version/report.json"],
        ["run", "--model", "m", "--provider", "mock", "--markdown", "/"],
        ["--benchmark", "no-such-benchmark", "list"],
    ],
)
def test_invalid_usage_exits_1(args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output


def test_run_prints_the_summary_and_writes_reports(tmp_path: Path) -> None:
    out, md = tmp_path / "report.json", tmp_path / "report.md"
    result = invoke("run", "--model", "offline", "--provider", "mock", "--output", str(out), "--markdown", str(md))
    assert result.exit_code == 0, result.output
    assert "- Score: 52.4%" in result.stdout
    assert "- Tasks: 21 (11 passed, 0 errored)" in result.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert len(report["rows"]) == 21 and report["mean"] == 11 / 21
    assert "arith-01" in md.read_text(encoding="utf-8")

    summary = json.loads(invoke("run", "--model", "offline", "--provider", "mock", "--json").stdout)
    assert "rows" not in summary
    assert summary["totals"] == {"tasks": 21, "passed": 11, "failed": 0}
    assert summary["confidenceInterval95"] == report["confidenceInterval95"]

    rescored = json.loads(invoke("score", str(out), "--json").stdout)
    assert rescored["mean"] == report["mean"] and rescored["changed"] == 0
    assert invoke("score", str(out)).exit_code == 0

    svg_path = tmp_path / "card.svg"
    assert invoke("card", str(out), str(svg_path)).exit_code == 0
    assert svg_path.read_text(encoding="utf-8").startswith("<svg")
    assert json.loads(invoke("card", str(out), "--json").stdout)["svg"].startswith("<svg")


def test_score_a_file_of_submissions(tmp_path: Path) -> None:
    path = tmp_path / "subs.jsonl"
    path.write_text(
        '{"taskId": "arith-02", "submission": {"answer": "56"}}\n'
        '{"taskId": "arith-03", "submission": {"answer": "1"}}\n',
        encoding="utf-8",
    )
    data = json.loads(invoke("score", str(path), "--json").stdout)
    assert [r["passed"] for r in data["results"]] == [True, False]
    bad = tmp_path / "bad.json"
    bad.write_text('[{"task": "arith-02"}]', encoding="utf-8")
    assert invoke("score", str(bad)).exit_code == 1


def test_alternate_task_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text(dump_task_file([Task(id="mine-1", kind="single", prompt="1+1?", expected=2)]), encoding="utf-8")
    assert json.loads(invoke("list", "--tasks", str(path), "--json").stdout)["count"] == 1
    summary = json.loads(invoke("run", "--model", "m", "--provider", "mock", "--tasks", str(path), "--json").stdout)
    assert summary["totals"]["passed"] == 1


def test_provenance_index_entry_and_benchmarks() -> None:
    assert invoke("provenance").stdout.startswith("# Provenance")
    records = json.loads(invoke("provenance", "--json").stdout)["provenance"]
    assert records[0]["licence"] == "MIT"
    entry = json.loads(invoke("index-entry", "--json").stdout)
    assert entry["id"] == "benchmark-core-example" and entry["taskCount"] == 21
    listing = json.loads(invoke("benchmarks", "--json").stdout)["benchmarks"]
    assert "benchmark-core-example" in [b["id"] for b in listing]


def test_run_failure_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing listens on port 9 of loopback: every request fails, every row errors.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-never-printed")
    result = invoke("run", "--model", "m", "--provider", "openai", "--retries", "0", "--task", "arith-01", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["totals"] == {"tasks": 1, "passed": 0, "failed": 1}
    assert "sk-test-never-printed" not in result.output


def test_list_show_and_help_do_not_import_aiohttp_or_mcp() -> None:
    code = (
        "import sys\n"
        "from benchmark_core.cli import main\n"
        "for argv in (['list'], ['show', 'arith-01'], ['--help'], ['run', '--help']):\n"
        "    sys.argv = ['benchmark-core', *argv]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code == 0, (argv, exc.code)\n"
        "heavy = sorted(m for m in ('aiohttp', 'mcp') if m in sys.modules)\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in done.stderr


def test_python_dash_m_and_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmark_core", "--version"], capture_output=True, text=True, check=True
    )
    assert "benchmark-core" in done.stdout


def test_ctrl_c_keeps_the_finished_tasks(tmp_path: Path) -> None:
    import os
    import signal
    import time

    from benchmark_core.testing import FakeOpenAI, FakeResponse

    report_path = tmp_path / "partial.json"
    server = FakeOpenAI(default=FakeResponse.text("42", delay=0.2))
    with server.in_thread():
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test"}
        command = [sys.executable, "-m", "benchmark_core", "run", "--model", "m", "--provider", "openai"]
        child = subprocess.Popen(
            [*command, "--concurrency", "1", "--output", str(report_path), "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while server.received < 4 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert "interrupted:" in stderr and "Traceback" not in stderr
    report = json.loads(report_path.read_text(encoding="utf-8"))
    finished = len(report["rows"])
    assert 3 <= finished < 21
    assert report["totals"]["tasks"] == finished
    assert [row["taskId"] for row in report["rows"]] == [f"arith-{n:02d}" for n in range(1, finished + 1)]
    assert json.loads(stdout)["totals"]["tasks"] == finished


def test_score_refuses_bad_json_and_other_benchmarks_reports(tmp_path: Path) -> None:
    nan = tmp_path / "nan.jsonl"
    nan.write_text('{"taskId": "arith-02", "submission": {"answer": NaN}}\n', encoding="utf-8")
    result = invoke("score", str(nan), "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "INVALID_JSON"
    report = tmp_path / "other.json"
    assert invoke("run", "--model", "m", "--provider", "mock", "--output", str(report)).exit_code == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    data["benchmark"] = "someone-else"
    report.write_text(json.dumps(data), encoding="utf-8")
    other = invoke("score", str(report))
    assert other.exit_code == 1
    assert "report of benchmark 'someone-else'" in other.stderr


def test_servers_offer_a_task_file_given_at_start_up(tmp_path: Path) -> None:
    import asyncio
    import os
    import time
    import urllib.request

    import mcp
    from benchmark_core.testing import free_port, tool_data
    from mcp import StdioServerParameters

    path = tmp_path / "mine.jsonl"
    path.write_text(dump_task_file([Task(id="mine-1", kind="single", prompt="1+1?", expected=2)]), encoding="utf-8")
    port = free_port()
    command = [sys.executable, "-m", "benchmark_core", "serve", "--port", str(port), "--tasks", str(path)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline, listing = time.monotonic() + 30, None
        while listing is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/tasks", timeout=5) as response:
                    listing = json.loads(response.read())
            except OSError:
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert listing is not None
    assert [t["id"] for t in listing["tasks"]] == ["mine-1"]

    async def listed_over_mcp() -> Any:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "benchmark_core", "mcp", "--tasks", str(path)], env=dict(os.environ)
        )
        async with mcp.Client(params) as client:
            return tool_data(await client.call_tool("list_tasks", {}))

    assert [t["id"] for t in asyncio.run(listed_over_mcp())["tasks"]] == ["mine-1"]


def test_benchmarks_takes_no_task_file() -> None:
    assert invoke("benchmarks", "--tasks", "x.jsonl").exit_code == 1


def test_html_renders_a_saved_report(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    assert invoke("run", "--model", "offline", "--provider", "mock", "--output", str(report)).exit_code == 0
    out = tmp_path / "report.html"
    written = invoke("html", str(report), str(out), "--json")
    assert written.exit_code == 0, written.output
    page = out.read_text(encoding="utf-8")
    assert json.loads(written.stdout) == {"path": str(out), "bytes": len(page.encode("utf-8")), "rows": 21}
    assert page.startswith("<!DOCTYPE html>") and page.count('<tbody class="task') == 21
    printed = invoke("html", str(report))
    assert printed.exit_code == 0 and printed.stdout == page


def test_html_refuses_what_it_cannot_render(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    document = {"benchmark": "someone-else", "version": "1", "model": "m", "provider": "mock", "seed": 1}
    document |= {"mean": 0.0, "confidenceInterval95": {"low": 0.0, "high": 0.0}, "rows": []}
    document |= {"totals": {"tasks": 0, "passed": 0, "failed": 0}, "usage": {}}
    other.write_text(json.dumps(document), encoding="utf-8")
    refused = CliRunner().invoke(CLI, ["html", str(other)])
    assert refused.exit_code == 1
    assert "is a report of 'someone-else', not 'benchmark-core-example'" in refused.stderr
    missing = CliRunner().invoke(CLI, ["html", str(tmp_path / "nope.json"), "--json"])
    assert missing.exit_code == 1
    assert "error" in json.loads(missing.stdout)


def test_serve_takes_the_port_as_an_argument() -> None:
    import time
    import urllib.request

    from benchmark_core.testing import free_port

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmark_core", "serve", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline, page = time.monotonic() + 30, None
        while page is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = (response.headers.get_content_type(), response.read().decode("utf-8"))
            except OSError:
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert page is not None
    assert page[0] == "text/html"
    assert page[1].count('<section class="task"') == 21
    both = CliRunner().invoke(CLI, ["serve", "8788", "--port", "8789"])
    assert both.exit_code == 1
    assert "two ports given: 8788 and --port 8789" in both.stderr
    assert CliRunner().invoke(CLI, ["serve", "70000"]).exit_code == 1
