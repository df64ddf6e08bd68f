"""Helpers for testing a benchmark under Inspect AI (needs `benchmark-core[inspect]`).

Run `inspect eval` as a user would, read the log, and compare its per-sample scores with the rows of
benchmark-core's own report for the same answers:

    log = inspect_eval_cli("benchmark_x/x", "benchmark-mock/offline", tmp_path)
    assert sample_rows(log) == report_rows(run(benchmark, mock_adapter()))

`offline_mockllm()` is Inspect's `mockllm/model` answering its default text; `FixedAnswerAdapter`
answers every request with that text on benchmark-core's side.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from attrs import frozen
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ChatMessage as InspectMessage
from inspect_ai.model import GenerateConfig, Model, ModelOutput, ModelUsage, get_model
from inspect_ai.model._providers.mockllm import MockLLM
from inspect_ai.tool import ToolChoice, ToolInfo

from .._model import ChatMessage, ChatRequest, ChatResult, CompletionResult, JsonObject, RunReport
from ..adapters.base import AdapterContext
from ..wire._converter import to_wire

#: What `mockllm/model` answers to everything.
MOCKLLM_ANSWER: str = MockLLM.default_output


def offline_mockllm() -> Model:
    """`mockllm/model` with its default answer, offline.

    Left to itself, mockllm counts the tokens of each request with tiktoken's o200k_base encoding,
    which tiktoken downloads on first use; with no network the sample errors. Its answers are given
    here with their usage, so that the encoding is never needed; the text is mockllm's own default.
    """

    def default_output(
        input: list[InspectMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        output = ModelOutput.from_content("mockllm/model", MOCKLLM_ANSWER)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=default_output)


@frozen
class ScoreRow:
    """What a score says about one sample: our report's row, or the Inspect log's sample."""

    score: float
    passed: bool
    reason: str
    details: JsonObject


def report_rows(report: RunReport) -> dict[str, ScoreRow]:
    return {
        row.task_id: ScoreRow(score=row.score, passed=row.passed, reason=row.reason, details=to_wire(row.details))
        for row in report.rows
    }


def sample_rows(log: EvalLog, epoch: int = 1) -> dict[str, ScoreRow]:
    """The scores of one epoch of a finished eval, by sample id. An errored sample fails loudly."""
    rows: dict[str, ScoreRow] = {}
    for sample in log.samples or []:
        if sample.epoch != epoch:
            continue
        if sample.error is not None:
            raise AssertionError(f"sample {sample.id} errored: {sample.error.message}")
        assert sample.scores is not None, f"sample {sample.id} has no score"
        score = sample.scores["benchmark_scorer"]
        metadata: dict[str, Any] = score.metadata or {}
        rows[str(sample.id)] = ScoreRow(
            score=float(score.as_float()),
            passed=metadata["passed"],
            reason=score.explanation or "",
            details=metadata["details"],
        )
    return rows


def inspect_eval_cli(task: str, model: str, log_dir: Path, *args: str) -> EvalLog:
    """`inspect eval TASK --model MODEL ARGS...` in a subprocess; the log it wrote, read back."""
    command = [
        sys.executable,
        "-m",
        "inspect_ai",
        "eval",
        task,
        "--model",
        model,
        "--log-dir",
        str(log_dir),
        "--display",
        "none",
        *args,
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if finished.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {finished.returncode}:\n{finished.stdout}\n{finished.stderr}")
    logs = sorted(log_dir.glob("*.eval"), key=lambda p: p.stat().st_mtime_ns)
    if not logs:
        raise AssertionError(f"inspect eval wrote no log in {log_dir}:\n{finished.stdout}\n{finished.stderr}")
    return read_eval_log(str(logs[-1]))


class FixedAnswerAdapter:
    """A `ModelAdapter` that answers every request with `text` and calls no tool."""

    def __init__(self, text: str = MOCKLLM_ANSWER) -> None:
        self._text = text

    @property
    def provider(self) -> str:
        return "fixed"

    @property
    def model(self) -> str:
        return "fixed"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        return CompletionResult(text=self._text)

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        return ChatResult(message=ChatMessage(role="assistant", content=self._text))

    async def aclose(self) -> None:
        return None
