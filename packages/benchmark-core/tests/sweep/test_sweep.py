"""`sweep FILE` and `run_sweep` (issue 19): two endpoints x two benchmarks (an installed one and one
defined in a file), every cell an ordinary run with its own report and journal, the leaderboard at
the end; a rerun sends nothing; a sweep killed midway and rerun resends at most what was in flight;
a fatal error stops only its model's cells; a bad file is refused with its line and key before
anything is sent; a second process on the same results is refused; progress lines on a terminal.

Every model is a real OpenAI-compatible server on loopback playing our mock's answers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import resolve_benchmark
from benchmark_core.cli import create_cli
from benchmark_core.errors import EventLoopRunningError
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import plan_sweep, run_sweep
from benchmark_core.testing import FakeOpenAI, mock_handlers, stable_report
from click.testing import CliRunner

KEYS = {"SWEEP_KEY_A": "sk-sweep-alpha-0123456789", "SWEEP_KEY_B": "sk-sweep-beta-9876543210"}
WORDS = """
from benchmark_core import Provenance, Task, TaskScore, define_benchmark


def grade(task, trace, ctx):
    ok = trace.answer == task.expected
    return TaskScore(1.0 if ok else 0.0, ok, "match" if ok else "no match")


benchmark = define_benchmark(
    id="sweep-words", name="Words", tagline="Numbers as words.", tags=["test"], category="test",
    what_it_measures="Nothing real.", version="0.0.1", status="alpha", grade=grade,
    grading_method="Exact match.",
    provenance=[Provenance(name="test", kind="synthetic", url="https://example.invalid", licence="MIT",
        how_to_get="Written in the test.", retrieved_at="2026-12-01", contamination_notes="None.",
        refresh="Never.")],
    tasks=[Task(id=f"w{i}", kind="single", prompt=f"Write {i} in digits.", expected=str(i)) for i in range(8)],
)
"""


class Endpoints:
    """Two fake providers, each accepting only its own key, answering as the mock would."""

    def __init__(self, folder: Path, delay: float = 0.0) -> None:
        (folder / "words.py").write_text(WORDS, encoding="utf-8")
        words = resolve_benchmark(f"{folder / 'words.py'}:benchmark")
        self.a = FakeOpenAI(handler=mock_handlers([example, words], delay=delay), api_key=KEYS["SWEEP_KEY_A"])
        self.b = FakeOpenAI(handler=mock_handlers([example, words], delay=delay), api_key=KEYS["SWEEP_KEY_B"])

    @property
    def received(self) -> int:
        return self.a.received + self.b.received


@pytest.fixture
def endpoints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Endpoints]:
    for name, key in KEYS.items():
        monkeypatch.setenv(name, key)
    served = Endpoints(tmp_path)
    with served.a.in_thread(), served.b.in_thread():
        yield served


def sweep_toml(endpoints: Endpoints, *, results: str = "results", a_url: str = "", extra: str = "") -> str:
    return f"""results = "{results}"

[options]
cache = false

[[models]]
label = "alpha"
provider = "openai"
model = "model-a"
base_url = "{a_url or endpoints.a.base_url}"
api_key_env = "SWEEP_KEY_A"
temperature = 0

[[models]]
label = "beta"
provider = "openai"
model = "model-b"
base_url = "{endpoints.b.base_url}"
api_key_env = "SWEEP_KEY_B"

[[benchmarks]]
id = "benchmark-core-example"

[[benchmarks]]
file = "words.py:benchmark"
epochs = 2

[limits]
"{a_url or endpoints.a.base_url}" = 3
openai = 2
{extra}"""


def _write(tmp_path: Path, text: str, name: str = "sweep.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(create_cli(example, "benchmark-core", umbrella=True), list(args))
    return result.exit_code, result.stdout, result.stderr


def _reports(results: Path) -> dict[str, dict[str, Any]]:
    return {
        p.relative_to(results).parent.as_posix(): json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(results.glob("*/*/report.json"))
    }


def _all_text(folder: Path) -> str:
    return "".join(p.read_text(encoding="utf-8", errors="replace") for p in folder.rglob("*") if p.is_file())


CELLS = ["benchmark-core-example/alpha", "benchmark-core-example/beta", "sweep-words/alpha", "sweep-words/beta"]


def test_a_sweep_writes_every_report_and_the_leaderboard_and_a_rerun_sends_nothing(
    endpoints: Endpoints, tmp_path: Path
) -> None:
    path = _write(tmp_path, sweep_toml(endpoints))
    code, out, err = _cli("sweep", str(path), "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["complete"] is True
    assert [f"{c['benchmark']}/{c['model']}" for c in document["cells"]] == CELLS
    assert {c["status"] for c in document["cells"]} == {"done"}
    results = tmp_path / "results"
    reports = _reports(results)
    assert sorted(reports) == sorted(CELLS)
    for name, report in reports.items():
        label = name.split("/")[1]
        assert (report["model"], report["provider"]) == (f"model-{label[0]}", "openai")
        assert report["complete"] and report["totals"]["failed"] == 0
        assert report.get("generation", {}) == ({"temperature": 0.0} if label == "alpha" else {})
    assert reports["sweep-words/alpha"]["epochs"] == 2 and len(reports["sweep-words/alpha"]["rows"]) == 16
    sent_a = sum(r["attempts"] for n, rep in reports.items() if n.endswith("alpha") for r in rep["rows"])
    assert endpoints.a.received == sent_a
    assert not list(results.rglob("*.journal.jsonl"))  # complete cells leave nothing to resume
    board = (results / "leaderboard.md").read_text(encoding="utf-8")
    assert "## benchmark-core-example" in board and "## sweep-words" in board and "| alpha (openai/model-a)" in board
    assert (results / "index.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "requests in flight per endpoint: " in err and "response cache off" in err

    before = endpoints.received
    code, out, err = _cli("sweep", str(path))
    assert code == 0, err
    assert endpoints.received == before
    assert out.count(" skipped ") == 4
    assert _reports(results).keys() == reports.keys()
    for key in KEYS.values():  # keys are read from the environment, never printed or written
        assert key not in out + err and key not in _all_text(results)


def test_the_sdk_and_the_plan(endpoints: Endpoints, tmp_path: Path) -> None:
    path = _write(tmp_path, sweep_toml(endpoints))
    plan = plan_sweep(path)
    assert [c.name for c in plan.cells] == CELLS
    assert plan.limits == {f"openai {endpoints.a.base_url}": 3, f"openai {endpoints.b.base_url}": 2}
    assert [c.options.concurrency for c in plan.cells] == [3, 2, 3, 2]
    assert [c.options.epochs for c in plan.cells] == [1, 1, 2, 2]
    assert plan.cells[0].output == tmp_path / "results" / "benchmark-core-example" / "alpha" / "report.json"
    assert plan.cells[0].model.target.api_key_env == "SWEEP_KEY_A" and "sk-" not in repr(plan)
    outcome = run_sweep(path)
    assert outcome.completed and [c.status for c in outcome.cells] == ["done"] * 4
    assert run_sweep(path).completed and endpoints.received == sum(
        r.attempts for c in outcome.cells if c.report is not None for r in c.report.rows
    )


async def test_run_sweep_inside_an_event_loop_says_what_to_await(endpoints: Endpoints, tmp_path: Path) -> None:
    with pytest.raises(EventLoopRunningError, match=r"await run_sweep_async\(\)"):
        run_sweep(_write(tmp_path, sweep_toml(endpoints)))


def test_a_fatal_error_stops_that_models_cells_and_the_rest_finish(
    endpoints: Endpoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong = "sk-wrong-key-never-printed"
    monkeypatch.setenv("SWEEP_KEY_B", wrong)
    path = _write(tmp_path, sweep_toml(endpoints))
    code, out, err = _cli("sweep", str(path), "--json")
    assert code == 2
    cells = {f"{c['benchmark']}/{c['model']}": c for c in json.loads(out)["cells"]}
    assert [cells[n]["status"] for n in CELLS] == ["done", "stopped", "done", "stopped"]
    assert "HTTP 401" in cells["benchmark-core-example/beta"]["message"] + cells["sweep-words/beta"]["message"]
    assert endpoints.b.received <= 2 * 2  # at most what each of its cells had in flight
    assert "2 of 4 cells did not complete" in err
    assert wrong not in out + err and wrong not in _all_text(tmp_path / "results")

    monkeypatch.setenv("SWEEP_KEY_B", KEYS["SWEEP_KEY_B"])
    sent_a = endpoints.a.received
    code, out, err = _cli("sweep", str(path), "--json")
    assert code == 0, err
    statuses = [c["status"] for c in json.loads(out)["cells"]]
    assert statuses == ["skipped", "done", "skipped", "done"] and endpoints.a.received == sent_a


BAD = [
    ("results = [1]\n", 1, "results: must be a non-empty string"),
    ('results = "r"\n[[models]]\nlabel = "x"\nprovider = "mock"\nmodel = "m"\ncolour = 1\n', 6, "models[0].colour"),
    ('[[models]]\nlabel = "x"\nprovider = "mock"\nmodel = "m"\ntemperature = "hot"\n', 5, "must be a number"),
    ('[[models]]\nlabel = "x"\nprovider = "mock"\nmodel = "m"\ntemperature = -1\n', 5, "at least 0"),
    ('[[models]]\nprovider = "mock"\nmodel = "m"\n', 1, "models[0].label: missing"),
    ('[[models]]\nlabel = "x"\nprovider = "acme"\nmodel = "m"\n', 3, "'acme' is not one of mock"),
    ('[[models]]\nlabel = "a/b"\nprovider = "mock"\nmodel = "m"\n', 2, "must be a folder name"),
    (
        '[[models]]\nlabel = "x"\nprovider = "mock"\nmodel = "m"\n'
        '[[models]]\nlabel = "x"\nprovider = "mock"\nmodel = "n"\n',
        6,
        "used by another",
    ),
    ('[[models]]\nlabel = "x"\nprovider = "openai"\nmodel = "m"\napi_key_env = "NO_SUCH_VAR_19"\n', 5, "not set"),
    ('[[models]]\nlabel = "x"\nprovider = "openai"\nmodel = "m"\napi_key_env = "sk-abc"\n', 5, "must name an env"),
    ("[[benchmarks]]\nid = 'no-such-benchmark'\n", 2, "no installed benchmark 'no-such-benchmark'"),
    ("[[benchmarks]]\nid = 'benchmark-core-example'\ntasks = 'full'\n", 3, "'full' is neither a file"),
    ("[[benchmarks]]\nid = 'benchmark-core-example'\nmode = 'native'\n", 3, "supports answer modes prompt"),
    ("[[benchmarks]]\nid = 'benchmark-core-example'\nepochs = 0\n", 3, "benchmarks[0].epochs: must be at least 1"),
    ("[[benchmarks]]\nfile = 'missing.py:benchmark'\n", 2, "benchmarks[0].file"),
    ("[limits]\nopnai = 4\n", 2, "limits.opnai: names no provider or base_url"),
    ("[limits]\nmock = 0\n", 2, "at least 1"),
    ("[options]\nconcurrency = 4\n", 2, "requests in flight are set per endpoint in [limits]"),
    ("[options]\ntimeout = 'soon'\n", 2, "options.timeout: must be a number"),
    ("[[models]\nlabel = 'x'\n", 1, "not TOML"),
]
GOOD_MODEL = '[[models]]\nlabel = "ok"\nprovider = "mock"\nmodel = "m"\n'
GOOD_BENCHMARK = '[[benchmarks]]\nid = "benchmark-core-example"\n'


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_a_bad_file_names_the_line_and_key_and_sends_nothing(
    endpoints: Endpoints, tmp_path: Path, text: str, line: int, message: str
) -> None:
    body = text
    if "[[models]]" not in text and "[[models]" not in text:
        body += "\n" + GOOD_MODEL
    if "[[benchmarks]]" not in text:
        body += "\n" + GOOD_BENCHMARK
    path = _write(tmp_path, body)
    code, _, err = _cli("sweep", str(path))
    assert code == 1, err
    assert err.startswith(f"error: {path}:{line}: ") and message in err, err
    assert "Traceback" not in err and endpoints.received == 0
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("provider", ["anthropic", "gemini", "openai", "openrouter", "groq"])
def test_every_models_key_is_checked_before_the_banner_and_before_anything_is_sent(
    endpoints: Endpoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    from benchmark_core.adapters.catalog import PROVIDERS_BY_NAME

    variable = PROVIDERS_BY_NAME[provider].key_variable
    assert variable is not None
    monkeypatch.delenv(variable, raising=False)
    # The first model has its key; the second relies on its provider's variable, which is not set.
    models = (
        f'[[models]]\nlabel = "ok"\nprovider = "openai"\nmodel = "m"\nbase_url = "{endpoints.a.base_url}"\n'
        'api_key_env = "SWEEP_KEY_A"\n\n'
        f'[[models]]\nlabel = "keyless"\nprovider = "{provider}"\nmodel = "m"\n'
    )
    path = _write(tmp_path, models + "\n" + GOOD_BENCHMARK)
    code, out, err = _cli("sweep", str(path))
    assert code == 1, err
    assert err == (
        f"error: {path}:10: models[1].provider: {provider} needs an API key: ${variable} is not set "
        "(set it, or name the variable that holds the key with api_key_env)\n"
    )
    assert out == "" and endpoints.received == 0 and not (tmp_path / "results").exists()
    # With the provider's variable set, the plan is accepted (and reads no key into it).
    monkeypatch.setenv(variable, "sk-from-the-environment")
    plan = plan_sweep(path)
    assert plan.cells[1].model.target.api_key_env is None and "sk-from" not in repr(plan)


def test_a_local_server_needs_no_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_API_KEY", raising=False)
    path = _write(tmp_path, '[[models]]\nlabel = "l"\nprovider = "ollama"\nmodel = "m"\n\n' + GOOD_BENCHMARK)
    assert plan_sweep(path).cells[0].model.target.provider == "ollama"


def test_a_missing_file() -> None:
    code, _, err = _cli("sweep", "no-such-sweep.toml")
    assert code == 1 and "sweep file not found: no-such-sweep.toml" in err


def _sweep_process(path: Path, *args: str, **kwargs: Any) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "benchmark_core", "sweep", str(path), *args]
    env = {**os.environ, **KEYS}
    streams: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.Popen(command, env=env, text=True, **streams)


@pytest.fixture
def slow_endpoints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Endpoints]:
    for name, key in KEYS.items():
        monkeypatch.setenv(name, key)
    served = Endpoints(tmp_path, delay=0.25)
    with served.a.in_thread(), served.b.in_thread():
        yield served


def test_killed_midway_and_rerun_resends_at_most_what_was_in_flight(slow_endpoints: Endpoints, tmp_path: Path) -> None:
    baseline_dir = tmp_path / "baseline"
    baseline_dir.mkdir()
    (baseline_dir / "words.py").write_text(WORDS, encoding="utf-8")
    whole = _sweep_process(_write(baseline_dir, sweep_toml(slow_endpoints)))
    _, err = whole.communicate(timeout=120)
    assert whole.returncode == 0, err
    uninterrupted = slow_endpoints.received
    baseline = _reports(baseline_dir / "results")
    most_attempts = max(r["attempts"] for report in baseline.values() for r in report["rows"])

    path = _write(tmp_path, sweep_toml(slow_endpoints))
    first = _sweep_process(path)
    deadline = time.monotonic() + 60
    while slow_endpoints.received < uninterrupted + 12 and time.monotonic() < deadline:
        time.sleep(0.01)
    # Meanwhile a second process on the same results (the same file, another server for alpha) is refused.
    idle = FakeOpenAI(api_key=KEYS["SWEEP_KEY_A"])
    with idle.in_thread():
        second = _sweep_process(_write(tmp_path, sweep_toml(slow_endpoints, a_url=idle.base_url), "other.toml"))
        _, err = second.communicate(timeout=60)
    assert second.returncode == 1, err
    assert f"another process (pid {first.pid})" in err and idle.received == 0
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    assert first.returncode == -signal.SIGKILL
    assert list((tmp_path / "results").rglob("*.journal.jsonl"))

    rerun = _sweep_process(path)
    _, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    in_flight = 3 + 2  # the limits of the two endpoints
    assert slow_endpoints.received - uninterrupted <= uninterrupted + in_flight * most_attempts
    finished = _reports(tmp_path / "results")
    assert {n: stable_report(r) for n, r in finished.items()} == {n: stable_report(r) for n, r in baseline.items()}


def test_progress_lines_on_a_terminal(slow_endpoints: Endpoints, tmp_path: Path) -> None:
    pty = pytest.importorskip("pty", reason="a pseudo-terminal needs POSIX")
    path = _write(tmp_path, sweep_toml(slow_endpoints))
    ours, theirs = pty.openpty()
    child = _sweep_process(path, stderr=theirs)
    os.close(theirs)
    shown = b""
    while True:
        try:
            chunk = os.read(ours, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    child.wait(timeout=60)
    os.close(ours)
    assert child.returncode == 0
    text = shown.decode()
    final = text.rsplit("\x1b[5F", 1)[-1]  # the last redraw: 4 cell lines and the overall line
    lines = [line.removeprefix("\x1b[K") for line in final.replace("\r", "").split("\n") if line]
    assert [line.split()[0] for line in lines] == [*CELLS, "sweep:"]
    assert all(" done | mean " in line for line in lines[:4])
    assert lines[4].startswith("sweep: 4/4 cells finished | 74/74 rows | elapsed ")  # 21 + 21 + 2 x 8 x 2


def test_a_cell_runs_on_its_own_and_the_sweep_then_skips_it(endpoints: Endpoints, tmp_path: Path) -> None:
    """What a worker elsewhere does with one cell of a plan (`run_cell`), and a partial plan."""
    import asyncio
    import pickle

    from benchmark_core.sweep import execute_sweep, run_cell

    plan = plan_sweep(_write(tmp_path, sweep_toml(endpoints)))
    cell = pickle.loads(pickle.dumps(plan.cells[2]))  # a cell holds no live object and no key
    outcome = asyncio.run(run_cell(cell))
    assert outcome.status == "done" and cell.output.is_file() and endpoints.b.received == 0
    sent = endpoints.received
    partial = asyncio.run(execute_sweep(plan, cells=plan.cells[2:3]))
    assert [c.status for c in partial.cells] == ["skipped"] and endpoints.received == sent


def test_a_report_of_another_configuration_is_refused(endpoints: Endpoints, tmp_path: Path) -> None:
    path = _write(tmp_path, sweep_toml(endpoints))
    assert _cli("sweep", str(path))[0] == 0
    sent = endpoints.received
    path.write_text(path.read_text(encoding="utf-8").replace("temperature = 0", "temperature = 0.7"), "utf-8")
    code, _, err = _cli("sweep", str(path))
    assert code == 1 and endpoints.received == sent
    assert "holds a run with generation {'temperature': 0.0}, but the sweep asks for {'temperature': 0.7}" in err


def test_a_sweep_on_a_disk_that_fills_up(tmp_path: Path) -> None:
    """Journals that cannot be written (a file size limit in the sweep's process, as a full disk
    refuses a write): each cell says which file and how many rows are safe, exit 2, no traceback;
    rerun with room, every cell finishes from its journal."""
    resource = pytest.importorskip("resource", reason="RLIMIT_FSIZE needs the POSIX resource module")
    path = _write(
        tmp_path,
        'results = "results"\n[[models]]\nlabel = "m"\nprovider = "mock"\nmodel = "m"\n'
        '[[benchmarks]]\nid = "benchmark-core-example"\n[limits]\nmock = 1\n',
    )

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    command = [sys.executable, "-m", "benchmark_core", "sweep", str(path)]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    full = subprocess.run(command, env=env, preexec_fn=limit, capture_output=True, text=True, timeout=120)
    assert full.returncode == 2, full.stderr
    assert "Traceback" not in full.stderr
    journal = tmp_path / "results" / "benchmark-core-example" / "m" / "report.json.journal.jsonl"
    assert f"benchmark-core-example/m: failed: cannot write {journal}: File too large;" in full.stderr
    assert "finished rows are safe in" in full.stderr and "1 of 1 cells did not complete" in full.stderr
    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    report = json.loads((journal.parent / "report.json").read_text(encoding="utf-8"))
    assert report["complete"] and len(report["rows"]) == len(example.tasks())


def test_the_sweep_guide_names_every_provider() -> None:
    from benchmark_core.adapters.catalog import PROVIDER_NAMES

    text = (Path(__file__).resolve().parents[4] / "docs" / "sweeps.md").read_text(encoding="utf-8")
    comment = text[text.index('provider = "openai"') : text.index('model = "gpt-4.1-mini"')]
    words = " ".join(comment.replace("#", " ").split())
    assert words == f'provider = "openai" one of `benchmark-core providers`: {", ".join(PROVIDER_NAMES)}'
