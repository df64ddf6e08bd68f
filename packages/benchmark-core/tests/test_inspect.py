"""benchmark-core under Inspect AI: the example task from the `inspect` CLI, mockllm, Inspect's limits
and epochs, native tools as a provider receives them. Run by `nox -s inspect`."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from benchmark_core import Benchmark, GradeContext, Task, TaskScore, ToolSpec, Trace, mock_adapter
from benchmark_core.errors import ConfigurationError
from benchmark_core.example import benchmark as example
from benchmark_core.inspect_task import TRACE_KEY, inspect_task
from benchmark_core.testing import FakeAnthropic, FakeGemini, mock_handler
from benchmark_core.testing.inspect_eval import (
    MOCKLLM_ANSWER,
    FixedAnswerAdapter,
    inspect_eval_cli,
    offline_mockllm,
    report_rows,
    sample_rows,
)
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage as InspectMessage
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model
from inspect_ai.tool import ToolChoice, ToolInfo

BenchmarkFactory = Callable[..., Benchmark]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_every_package_registers_its_tasks_under_the_inspect_ai_entry_point_group() -> None:
    found = {ep.name: ep.value for ep in entry_points(group="inspect_ai")}
    assert found["benchmark_core"] == "benchmark_core.inspect_task.registry"
    assert found["benchmark_schema_mutation"] == "benchmark_schema_mutation.inspect_tasks"
    assert found["benchmark_rollback_recovery"] == "benchmark_rollback_recovery.inspect_tasks"


def test_inspect_eval_cli_with_the_mock_scores_every_sample_as_our_report_does(tmp_path: Path) -> None:
    log = inspect_eval_cli("benchmark_core/example", "benchmark-mock/offline", tmp_path)
    assert log.status == "success"
    assert log.eval.task == "benchmark_core/example"
    ours = example.run(mock_adapter())
    rows = sample_rows(log)
    assert list(rows) == [row.task_id for row in ours.rows]
    assert rows == report_rows(ours)
    assert sum(r.passed for r in rows.values()) == 11  # the figure of the original package
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    assert metrics["mean"].value == pytest.approx(ours.mean)
    assert metrics["pass_rate"].value == pytest.approx(11 / 21)


@pytest.mark.parametrize("provider", ["anthropic", "gemini"])
def test_the_benchmark_provider_reaches_the_native_apis_from_inspect(
    provider: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`inspect eval --model benchmark/<provider>/<model>`: every request through our native adapter to
    the provider's fake (answering as the mock), every sample scored as our mock report scores it."""
    fake = {"anthropic": FakeAnthropic, "gemini": FakeGemini}[provider]
    with fake(handler=mock_handler(example, wire=provider), api_key="sk-inspect").in_thread() as server:  # type: ignore[arg-type]
        monkeypatch.setenv(f"{provider.upper()}_BASE_URL", server.base_url)
        monkeypatch.setenv(f"{provider.upper()}_API_KEY", "sk-inspect")
        log = inspect_eval_cli("benchmark_core/example", f"benchmark/{provider}/fake-model", tmp_path)
    assert log.status == "success" and log.eval.model == f"benchmark/{provider}/fake-model"
    assert sample_rows(log) == report_rows(example.run(mock_adapter()))
    assert server.received > len(log.samples or [])  # the episodes took several turns each


@pytest.mark.parametrize(
    ("model", "variables", "model_args"),
    [
        ("anthropic/claude-fake", ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"), {"streaming": False}),
        ("anthropic/claude-fake", ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"), {}),  # streamed: SSE
        ("google/gemini-fake", ("GOOGLE_BASE_URL", "GOOGLE_API_KEY"), {}),
    ],
)
def test_inspects_own_providers_and_their_official_sdks_accept_the_fakes(
    model: str,
    variables: tuple[str, str],
    model_args: dict[str, object],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fakes' fidelity, checked by the clients people use: Inspect's `anthropic/` provider (the
    `anthropic` SDK) and `google/` provider (`google-genai`) run every sample against FakeAnthropic and
    FakeGemini, and the samples score as our mock report does."""
    wire = "anthropic" if model.startswith("anthropic/") else "gemini"
    fake = FakeAnthropic if wire == "anthropic" else FakeGemini
    with fake(handler=mock_handler(example, wire=wire), api_key="sk-sdk").in_thread() as server:  # type: ignore[arg-type]
        monkeypatch.setenv(variables[0], server.base_url)
        monkeypatch.setenv(variables[1], "sk-sdk")
        # With streaming off, a small max_tokens: the SDK insists on streaming for requests that may run long.
        [log] = inspect_eval(
            inspect_task(example),
            model=model,
            model_args=model_args,
            max_tokens=1024 if model_args else None,
            log_dir=str(tmp_path),
            display="none",
        )
    assert log.status == "success", log.error
    assert sample_rows(log) == report_rows(example.run(mock_adapter()))
    assert server.received > len(log.samples or [])
    streamed = [isinstance(r.body, dict) and r.body.get("stream") is True for r in server.requests]
    assert all(streamed) if wire == "anthropic" and not model_args else not any(streamed)


def test_mockllm_answers_are_scored_as_our_report_scores_the_same_text_over_two_epochs(tmp_path: Path) -> None:
    [log] = inspect_eval(
        inspect_task(example), model=offline_mockllm(), epochs=2, log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success"
    ours = report_rows(example.run(FixedAnswerAdapter(MOCKLLM_ANSWER)))
    assert sample_rows(log, epoch=1) == ours
    assert sample_rows(log, epoch=2) == ours
    assert not any(row.passed for row in ours.values())  # a fixed text is no number and refunds nothing


def test_the_episode_runs_the_seeded_environment_and_the_log_shows_the_transcript(tmp_path: Path) -> None:
    [log] = inspect_eval(
        inspect_task(example),
        model="benchmark-mock/offline",
        sample_id="order-refund-01",
        log_dir=str(tmp_path),
        display="none",
    )
    [sample] = log.samples or []
    roles = [m.role for m in sample.messages]
    assert roles[:2] == ["system", "user"]
    assert "refund" in (sample.messages[0].text.lower())
    # good script: lookup (HTTP 500), lookup, refund, then the environment is done
    assert roles[2:] == ["assistant", "tool", "assistant", "tool", "assistant", "tool"]
    assert "HTTP 500" in sample.messages[3].text
    trace = sample.store[TRACE_KEY]
    assert [entry["name"] for entry in trace["toolLog"]] == ["lookup_order", "lookup_order", "refund"]
    assert sample.scores is not None and sample.scores["benchmark_scorer"].value == 1.0


def test_an_inspect_message_limit_stops_the_episode_and_the_replay_grades_what_was_done(tmp_path: Path) -> None:
    [log] = inspect_eval(
        inspect_task(example),
        model="benchmark-mock/offline",
        sample_id="order-refund-01",
        message_limit=4,
        log_dir=str(tmp_path),
        display="none",
    )
    [sample] = log.samples or []
    assert sample.limit is not None and sample.limit.type == "message"
    assert sample.error is None
    assert [entry["name"] for entry in sample.store[TRACE_KEY]["toolLog"]] == ["lookup_order"]
    assert sample.scores is not None
    score = sample.scores["benchmark_scorer"]
    assert score.value == 0.0
    assert score.explanation is not None
    assert score.explanation.startswith("refunded $0.00 of $")
    assert "(episode aborted: Inspect message limit:" in score.explanation


def test_our_turn_budget_applies_inside_inspect(tmp_path: Path) -> None:
    [log] = inspect_eval(
        inspect_task(example, max_turns=2),
        model="benchmark-mock/offline",
        sample_id="order-refund-01",
        log_dir=str(tmp_path),
        display="none",
    )
    [sample] = log.samples or []
    assert sample.scores is not None
    explanation = sample.scores["benchmark_scorer"].explanation or ""
    assert explanation.endswith("(episode aborted: max_turns (2) reached)")


def test_native_tools_reach_the_model_in_provider_spelling_with_their_schema(
    make_benchmark: BenchmarkFactory, tmp_path: Path
) -> None:
    schema = {
        "type": "object",
        "properties": {
            "title": {"type": "string", "pattern": "^[A-Z]"},
            "kind": {"type": "string", "enum": ["a", "b"]},
        },
        "required": ["title"],
        "additionalProperties": False,
    }
    tool = ToolSpec(name="issues.create", description="Open an issue.", parameters=schema)
    task = Task(id="t1", kind="single", prompt="Open issue Hello.", expected={"title": "Hello"}, tools=[tool])

    def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
        calls = trace.tool_calls or []
        ok = [(c.name, c.arguments) for c in calls] == [("issues.create", {"title": "Hello"})]
        return TaskScore(1.0 if ok else 0.0, ok, f"calls: {[(c.name, c.arguments) for c in calls]}")

    bench = make_benchmark([task], id="tiny-native", grade=grade, answer_modes=("native",))
    received: list[list[ToolInfo]] = []

    def answer(
        input: list[InspectMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        received.append(tools)
        output = ModelOutput.for_tool_call("mockllm/model", tools[0].name, {"title": "Hello"}, tool_call_id="c1")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken download
        return output

    model = get_model("mockllm/model", custom_outputs=answer)
    [log] = inspect_eval(inspect_task(bench), model=model, log_dir=str(tmp_path), display="none")
    [tools] = received
    assert [t.name for t in tools] == ["issues_create"]
    assert tools[0].description == "Open an issue."
    assert tools[0].parameters.model_dump(exclude_none=True) == schema
    [sample] = log.samples or []
    assert sample.scores is not None
    score = sample.scores["benchmark_scorer"]
    assert score.value == 1.0, score.explanation
    assert (score.metadata or {})["passed"] is True
    assert score.answer is not None and '"name": "issues.create"' in score.answer


def test_a_mode_the_benchmark_lacks_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="supports answer modes prompt, not 'native'"):
        inspect_task(example, mode="native")
