"""The MCP server: `create_mcp_server(benchmark)` and `start_mcp(benchmark)` (stdio).

Tools: `list_tasks`, `get_task`, `score_answer`, `run_benchmark` and `get_provenance`. Each returns
the same camelCase JSON document the HTTP API returns, as structured content (with a published
output schema) and as JSON text.

Failures come back as tool errors (`isError`) whose text is `CODE: message`, with the same
`{"code", "message"}` under `_meta["benchmark-core/error"]` for programs, and no structured
content: a client that validates structured content against the tool's output schema (MCP Inspector
does) would otherwise replace our message with its own validation error. That covers our own errors
(`TASK_NOT_FOUND`, `TASKS_NOT_ALLOWED`, `INVALID_CONFIGURATION`, ...), arguments that do not fit the
input schema (`INVALID_ARGUMENTS`, refused before the tool runs), an unknown tool name
(`UNKNOWN_TOOL`) and unexpected exceptions (`INTERNAL_ERROR`, traceback in the server's log on
stderr); nothing a caller sends crashes the server.

`run_benchmark` returns the run report without episode transcripts unless asked for them
(`include_transcripts`): a transcript repeats every prompt and tool result and can dwarf the rest of
the report in a model's context, while the tool log, final state and abort reason that grading
needs stay in every row. It sends a progress notification per finished task when the client asks
for progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal, Optional

import attrs
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from .._benchmark.definition import Benchmark
from .._model import RunReport, RunRow, Task, TaskScore
from ..adapters._batches import BatchStatus
from ..errors._base import BenchmarkError, InternalError
from ..errors._requests import InvalidArgumentsError, UnknownToolError
from ..runs._batch import BatchProgress
from ..runs._options import OptionSpec, RunOptions, option_specs, option_type
from ..runs._runner import ProgressCallback
from ..runs._target import RunTarget
from ..wire._converter import to_wire
from ..wire._schema import JsonSchema, wire_schema
from ._documents import provenance_document, provenance_document_schema, task_list_document, task_list_schema
from ._remote import (
    get_remote_task,
    load_remote_tasks,
    remote_task_file,
    score_remote_submission,
    without_grading,
)

_TASKS_HELP = (
    "Optional alternate task file: a bare name from the benchmark's data/ folder, or a path listed in "
    "the benchmark's allow-list environment variable."
)
_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
#: Where an error result carries its `{"code", "message"}` for programs (an MCP `_meta` key).
ERROR_META_KEY = "benchmark-core/error"

_log = logging.getLogger(__name__)


def create_mcp_server(benchmark: Benchmark, *, grading: bool = True) -> MCPServer:
    """An MCP server exposing `benchmark` as five tools; with `grading=False` (what `mcp` serves
    unless `--scoring-api`: a server an agent may reach) the listing tools withhold every task's
    grading fields, and `score_answer` (its reasons quote the expected answer) and `run_benchmark`
    (a mock run's traces are the answer key) are left out. No state outside the returned server."""
    tools = [_list_tasks_tool(benchmark, grading), _get_task_tool(benchmark, grading)]
    tools += [_score_answer_tool(benchmark), _run_benchmark_tool(benchmark)] if grading else []
    tools.append(_provenance_tool(benchmark))
    return _BenchmarkServer(
        name=benchmark.id,
        title=benchmark.name,
        description=benchmark.tagline,
        version=benchmark.version,
        instructions=(
            f"{benchmark.name}: {benchmark.what_it_measures} Grading: {benchmark.grading_method} "
            "score_answer and the listing tools work offline; run_benchmark calls a model provider."
        ),
        tools=tools,
        log_level="WARNING",
    )


# Each tool: its handler (named as the tool, which the SDK takes the name from), what it says of
# itself, its output schema and the help of each parameter.


def _list_tasks_tool(benchmark: Benchmark, grading: bool) -> Tool:
    async def list_tasks(tasks: Optional[str] = None) -> CallToolResult:
        async def answer() -> Any:
            found = await load_remote_tasks(benchmark, tasks)
            return task_list_document(benchmark, found if grading else without_grading(found))

        return await _respond("list_tasks", answer)

    return _tool(
        list_tasks,
        f"List every task of {benchmark.name} (id, kind, prompt, tools"
        + (", expected answer, metadata)." if grading else "; no grading fields)."),
        task_list_schema(),
        {"tasks": _TASKS_HELP},
    )


def _get_task_tool(benchmark: Benchmark, grading: bool) -> Tool:
    async def get_task(task_id: str, tasks: Optional[str] = None) -> CallToolResult:
        async def answer() -> Any:
            task = await get_remote_task(benchmark, task_id, tasks)
            return to_wire(task if grading else without_grading([task])[0])

        return await _respond("get_task", answer)

    return _tool(
        get_task,
        "Get one task by id.",
        wire_schema(Task),
        {"task_id": "The task id, as listed by list_tasks.", "tasks": _TASKS_HELP},
    )


def _score_answer_tool(benchmark: Benchmark) -> Tool:
    async def score_answer(
        task_id: str, submission: dict[str, Any], tasks: Optional[str] = None, seed: int = 1
    ) -> CallToolResult:
        async def answer() -> Any:
            return to_wire(await score_remote_submission(benchmark, task_id, submission, tasks, seed))

        return await _respond("score_answer", answer)

    return _tool(
        score_answer,
        "Grade one submission against one task, deterministically and offline. The submission is a "
        "trace: {answer?, toolCalls?, toolLog?, finalState?} (camelCase keys).",
        wire_schema(TaskScore),
        {
            "task_id": "The task to grade against.",
            "submission": "The trace: {answer?, toolCalls?, toolLog?, finalState?}.",
            "tasks": _TASKS_HELP,
            "seed": "Seed for replaying an episode's tool log (use the run's seed).",
        },
    )


def _run_benchmark_tool(benchmark: Benchmark) -> Tool:
    async def run_benchmark(**arguments: Any) -> CallToolResult:
        return await _respond("run_benchmark", lambda: _run_report(benchmark, arguments))

    _declare_run_parameters(run_benchmark)
    return _tool(
        run_benchmark,
        f"Run {benchmark.name} against a model and return the run report. Each provider reads its API "
        "root and key from the environment variables the provider parameter lists; 'mock' runs offline. "
        "A fatal provider error (rejected key, unknown model) or max_errors ends the run early with an "
        "error naming the cause. "
        "Episode transcripts are left out (empty lists) unless include_transcripts is true; tool logs "
        "and final states are always kept, so every row can be re-scored with score_answer.",
        wire_schema(RunReport),
        {
            **run_parameter_help(),
            "tasks": _TASKS_HELP,
            "include_transcripts": "Keep each episode's full chat transcript in the report.",
        },
        ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=True),
    )


def _provenance_tool(benchmark: Benchmark) -> Tool:
    async def get_provenance(tasks: Optional[str] = None) -> CallToolResult:
        async def answer() -> Any:
            await load_remote_tasks(benchmark, tasks)
            return provenance_document(benchmark)

        return await _respond("get_provenance", answer)

    return _tool(
        get_provenance,
        "Where the benchmark's data comes from: licence, contamination notes, refresh plan (records and Markdown).",
        provenance_document_schema(),
        {"tasks": _TASKS_HELP + " Provenance is per benchmark; a given file is only validated."},
    )


async def _run_report(benchmark: Benchmark, arguments: dict[str, Any]) -> Any:
    """`run_benchmark`'s answer: the arguments (as `_declare_run_parameters` declares them) turned
    back into the run options, the run, and its report as JSON, without transcripts unless asked."""
    from ..runs._runner import run

    ctx: Optional[Context] = arguments.pop("ctx", None)
    tasks: Optional[str] = arguments.pop("tasks", None)
    include_transcripts = bool(arguments.pop("include_transcripts", False))
    target = RunTarget(
        model=arguments.pop("model"), provider=arguments.pop("provider"), prices=arguments.pop("prices", None)
    )
    fields: dict[str, Any] = {k: tuple(v) if k == "task_ids" and v is not None else v for k, v in arguments.items()}
    options = RunOptions(**fields)
    with remote_task_file(benchmark, tasks) as source:
        adapter = target.adapter(options.seed, benchmark=benchmark)
        async with _progress_reporter(ctx) as (progress, batch_progress):
            report = await run(
                benchmark, adapter, options, tasks=source, progress=progress, batch_progress=batch_progress
            )
    return to_wire(report if include_transcripts else without_transcripts(report))


def _declare_run_parameters(fn: Callable[..., Any]) -> None:
    """Give `run_benchmark` its parameters from the one declaration of run options (`RunTarget`,
    then every MCP-visible `RunOptions` field), plus the tool's own `tasks` and `include_transcripts`:
    the SDK builds the tool's input schema, and validates calls, from this signature."""
    params: list[inspect.Parameter] = []
    for cls in (RunTarget, RunOptions):
        for name, spec in option_specs(cls).items():
            if spec.mcp:
                annotation, default = _mcp_type(cls, name, spec)
                params.append(
                    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
                )
    params += [
        inspect.Parameter("tasks", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[str]),
        inspect.Parameter("include_transcripts", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool),
        inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[Context]),
    ]
    fn.__signature__ = inspect.Signature(params, return_annotation=CallToolResult)  # type: ignore[attr-defined]
    fn.__annotations__ = {p.name: p.annotation for p in params} | {"return": CallToolResult}


def _mcp_type(cls: type[Any], name: str, spec: OptionSpec) -> tuple[Any, Any]:
    """The parameter type (bounds and choices included, for the input schema) and default."""
    field = attrs.fields_dict(cls)[name]
    default = inspect.Parameter.empty if field.default is attrs.NOTHING else field.default
    if name == "cache":
        return bool, True
    declared = option_type(cls, name)
    if spec.multiple:
        return Optional[list[str]], None
    if spec.parse is not None:  # JSON text on the CLI, an object here
        return Optional[dict[str, Any]], None
    base: Any = Literal[spec.choices] if spec.choices is not None else declared
    bounds: dict[str, float] = {}
    if spec.minimum is not None:
        bounds["gt" if spec.min_open else "ge"] = spec.minimum
    if spec.maximum is not None:
        bounds["le"] = spec.maximum
    annotated: Any = Annotated[base, Field(**bounds)] if bounds else base  # type: ignore[call-overload]
    return (Optional[annotated] if default is None else annotated), default


def run_parameter_help() -> dict[str, str]:
    """The help of each declared run parameter, as `run_benchmark` documents it."""
    texts = {name: spec.help for cls in (RunTarget, RunOptions) for name, spec in option_specs(cls).items() if spec.mcp}
    texts["cache"] = (
        "Use the response cache in the user's cache directory ($BENCHMARK_CORE_CACHE, else "
        "~/.cache/benchmark-core/responses): repeated requests are answered from disk. Never for the mock."
    )
    return texts


def start_mcp(benchmark: Benchmark, *, grading: bool = True) -> None:
    """Serve `benchmark`'s MCP tools (see `create_mcp_server`) on stdin/stdout until the client disconnects."""
    create_mcp_server(benchmark, grading=grading).run("stdio")


def without_transcripts(report: RunReport) -> RunReport:
    """`report` with every episode's transcript emptied; everything else, tool logs included, kept."""
    rows = [
        attrs.evolve(row, episode=attrs.evolve(row.episode, transcript=[])) if row.episode is not None else row
        for row in report.rows
    ]
    return attrs.evolve(report, rows=rows)


@contextlib.asynccontextmanager
async def _progress_reporter(
    ctx: Optional[Context],
) -> AsyncIterator[tuple[Optional[ProgressCallback], Optional[BatchProgress]]]:
    """Runner progress callbacks that forward each finished task, and with `batch` each batch's
    counts, as MCP progress notifications (sent only when the client asked for progress), so
    clients see long runs advance."""
    if ctx is None:
        yield None, None
        return
    queue: asyncio.Queue[Optional[tuple[int, int, str]]] = asyncio.Queue()

    def progress(done: int, total: int, row: RunRow) -> None:
        queue.put_nowait((done, total, f"{row.task_id}: {row.score:g}"))

    def batch_progress(status: BatchStatus) -> None:
        queue.put_nowait((status.succeeded + status.failed, status.total, status.describe()))

    async def forward() -> None:
        while (item := await queue.get()) is not None:
            # A client that went away must not fail the run; the result reports it anyway.
            with contextlib.suppress(Exception):
                await ctx.report_progress(*item)

    forwarder = asyncio.ensure_future(forward())
    try:
        yield progress, batch_progress
    finally:
        queue.put_nowait(None)
        await forwarder


def _tool(
    fn: Callable[..., Awaitable[CallToolResult]],
    description: str,
    output_schema: JsonSchema,
    parameter_help: dict[str, str],
    annotations: ToolAnnotations = _READ_ONLY,
) -> Tool:
    tool = Tool.from_function(fn, description=description, annotations=annotations, structured_output=False)
    # The tools build their own results, so the SDK publishes this schema without re-validating.
    tool.fn_metadata.output_schema = output_schema
    properties = tool.parameters.get("properties", {})
    for name, text in parameter_help.items():
        properties[name]["description"] = text
    return tool


async def _respond(tool: str, answer: Callable[[], Awaitable[Any]]) -> CallToolResult:
    try:
        data = await answer()
    except BenchmarkError as exc:
        return error_result(exc)
    except Exception:
        return _internal_error(tool)
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))], structured_content=data
    )


def error_result(exc: BenchmarkError) -> CallToolResult:
    """A tool error every client shows as is: `CODE: message` as text, the same under `_meta` for
    programs, and no structured content (which a client would check against the output schema)."""
    return CallToolResult(
        content=[TextContent(type="text", text=f"{exc.code}: {exc.message}")],
        is_error=True,
        _meta={ERROR_META_KEY: {"code": exc.code, "message": exc.message}},
    )


class _BenchmarkServer(MCPServer):
    """The SDK's server, with the failures it reports itself (arguments that do not fit the input
    schema, an unknown tool, a crash outside our tools' own handling) given our error codes."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Optional[Context[Any, Any]] = None
    ) -> CallToolResult | InputRequiredResult:
        known = sorted(tool.name for tool in await self.list_tools())
        if name not in known:
            return error_result(UnknownToolError(f"no tool named {name!r}; available: {', '.join(known)}"))
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            return _internal_error(name)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                return error_result(InvalidArgumentsError(_describe_validation(name, exc.__cause__)))
            return error_result(InternalError(str(exc)))


def _internal_error(tool: str) -> CallToolResult:
    """A crash: the traceback goes to the server's log (stderr), never to the caller."""
    _log.exception("tool %r failed unexpectedly", tool)
    return error_result(InternalError(f"{tool} failed unexpectedly; the traceback is in the server's log"))


def _describe_validation(tool: str, error: ValidationError) -> str:
    """One line per bad argument, `name: problem`, without echoing the values the caller sent."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        problems.append(f"{where}: {item['msg']}")
    return f"invalid arguments for {tool}: " + "; ".join(problems)
