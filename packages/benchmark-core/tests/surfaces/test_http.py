"""The HTTP API: every route and error code through pytest-aiohttp, real servers on loopback for
body limits, CORS and `serve`."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import jsonschema  # type: ignore[import-untyped]  # installed with mcp, which validates with it
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from benchmark_core import Benchmark, Task, TaskScore, mock_adapter
from benchmark_core.__about__ import __version__
from benchmark_core.data import dump_task_file
from benchmark_core.errors._failures import ListenError
from benchmark_core.example import benchmark as example
from benchmark_core.reports._report import index_entry, provenance_markdown
from benchmark_core.servers._http import MAX_BODY_BYTES, create_app, serve
from benchmark_core.testing.surfaces import free_port, serve_benchmark
from benchmark_core.wire import to_wire
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_aiohttp import AiohttpClient

ALLOW_ENV = "TINY_HTTP_TASKS_ALLOW"

Client = TestClient[web.Request, web.Application]


@pytest.fixture
def tiny(make_benchmark: Any, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Benchmark:
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    bench: Benchmark = make_benchmark(
        tasks_file=data_dir / "tasks.jsonl", tasks_allow_env=ALLOW_ENV, distribution="tiny-dist"
    )
    return bench


@pytest.fixture
async def client(aiohttp_client: AiohttpClient, tiny: Benchmark) -> Client:
    return await aiohttp_client(create_app(tiny))


async def _error(response: aiohttp.ClientResponse, status: int, code: str) -> str:
    assert response.status == status, await response.text()
    assert response.headers["Content-Type"].startswith("application/json")
    body = await response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code
    message: str = body["error"]["message"]
    assert message
    assert "Traceback" not in message
    return message


# -- routes --------------------------------------------------------------------------------------


async def test_health_names_the_package(client: Client) -> None:
    response = await client.get("/health")
    assert response.status == 200
    assert await response.json() == {
        "status": "ok",
        "benchmark": "tiny",
        "name": "Tiny",
        "version": "0.0.1",
        "distribution": "tiny-dist",
        "benchmarkCoreVersion": __version__,
    }
    head = await client.head("/health")
    assert head.status == 200
    assert await head.read() == b""


async def test_tasks_and_one_task(client: Client, tiny: Benchmark) -> None:
    response = await client.get("/v1/tasks")
    assert response.status == 200
    assert await response.json() == {"benchmark": "tiny", "count": 3, "tasks": to_wire(await tiny.load_tasks())}
    one = await client.get("/v1/tasks/t1")
    assert one.status == 200
    assert await one.json() == to_wire((await tiny.load_tasks())[1])
    message = await _error(await client.get("/v1/tasks/nope"), 404, "TASK_NOT_FOUND")
    assert "'nope'" in message


async def test_task_ids_with_punctuation_round_trip(aiohttp_client: AiohttpClient, make_benchmark: Any) -> None:
    client = await aiohttp_client(create_app(make_benchmark(tasks=[Task("ns:q.1_a-b", "single", "?", "x")])))
    response = await client.get("/v1/tasks/ns:q.1_a-b")
    assert response.status == 200
    assert (await response.json())["id"] == "ns:q.1_a-b"


async def test_score_matches_the_sdk(client: Client, tiny: Benchmark) -> None:
    for answer, passed in (("1", True), ("2", False)):
        response = await client.post("/v1/score", json={"taskId": "t1", "submission": {"answer": answer}})
        assert response.status == 200
        body = await response.json()
        assert body == to_wire(await tiny.score_async("t1", {"answer": answer}))
        assert body["passed"] is passed


async def test_score_grades_every_row_of_a_mock_run_like_the_runner(aiohttp_client: AiohttpClient) -> None:
    client = await aiohttp_client(create_app(example))
    report = await example.run_async(mock_adapter(seed=3, policies=example.mock_policies), seed=3)
    assert any(row.episode is not None for row in report.rows)
    for row in report.rows:
        response = await client.post(
            "/v1/score", json={"taskId": row.task_id, "submission": to_wire(row.trace), "seed": report.seed}
        )
        assert response.status == 200
        assert (await response.json())["score"] == row.score, row.task_id


async def test_provenance_and_index_entry(client: Client, tiny: Benchmark) -> None:
    response = await client.get("/v1/provenance")
    assert response.status == 200
    assert await response.json() == {
        "benchmark": "tiny",
        "provenance": to_wire(tiny.provenance),
        "markdown": provenance_markdown(tiny),
    }
    entry = await client.get("/v1/index-entry")
    assert entry.status == 200
    assert await entry.json() == to_wire(index_entry(tiny, await tiny.load_tasks()))
    alt = await (await client.get("/v1/index-entry?tasks=alt")).json()
    assert alt["taskCount"] == 2


async def test_apps_keep_their_own_benchmark(aiohttp_client: AiohttpClient, make_benchmark: Any) -> None:
    first = await aiohttp_client(create_app(make_benchmark(id="first")))
    second = await aiohttp_client(create_app(make_benchmark(id="second")))
    assert (await (await first.get("/health")).json())["benchmark"] == "first"
    assert (await (await second.get("/health")).json())["benchmark"] == "second"


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [b"{", b"", b"   ", b"\xff\xfe", b'{"taskId": NaN}', b"[" * 100_000 + b"]" * 100_000],
    ids=["truncated", "empty", "blank", "not-utf8", "nan", "deep"],
)
async def test_invalid_json(client: Client, body: bytes) -> None:
    await _error(await client.post("/v1/score", data=body), 400, "INVALID_JSON")


@pytest.mark.parametrize(
    "body",
    [
        [],
        "text",
        {"submission": {"answer": "1"}},
        {"taskId": "", "submission": {}},
        {"taskId": 3, "submission": {}},
        {"taskId": "t1"},
        {"taskId": "t1", "submission": {}, "extra": 1},
        {"taskId": "t1", "submission": {}, "seed": "7"},
        {"taskId": "t1", "submission": {}, "seed": True},
        {"taskId": "t1", "submission": {}, "tasks": ["alt"]},
    ],
)
async def test_malformed_score_requests_are_400(client: Client, body: Any) -> None:
    await _error(await client.post("/v1/score", json=body), 400, "INVALID_SUBMISSION")


@pytest.mark.parametrize(
    "submission",
    [
        "1",
        None,
        ["1"],
        {"answr": "1"},
        {"toolLog": "not a list"},
        {"toolLog": [{"arguments": {}}]},
        {"toolCalls": [{"name": "f", "extra": 1}]},
    ],
)
async def test_invalid_submissions_are_422(client: Client, submission: Any) -> None:
    await _error(
        await client.post("/v1/score", json={"taskId": "t1", "submission": submission}), 422, "INVALID_SUBMISSION"
    )


async def test_score_of_an_unknown_task_is_404(client: Client) -> None:
    response = await client.post("/v1/score", json={"taskId": "nope", "submission": {"answer": "1"}})
    await _error(response, 404, "TASK_NOT_FOUND")


async def test_unknown_routes_and_methods(client: Client) -> None:
    await _error(await client.get("/nope"), 404, "NOT_FOUND")
    await _error(await client.get("/v1/tasks/t1/extra"), 404, "NOT_FOUND")
    response = await client.get("/v1/score")
    await _error(response, 405, "METHOD_NOT_ALLOWED")
    assert "POST" in response.headers["Allow"]
    for method, path in (("POST", "/v1/tasks"), ("DELETE", "/v1/tasks/t1"), ("PUT", "/health")):
        await _error(await client.request(method, path), 405, "METHOD_NOT_ALLOWED")


async def test_oversized_bodies_are_413(client: Client) -> None:
    too_big = b" " * (MAX_BODY_BYTES + 1)
    await _error(await client.post("/v1/score", data=too_big), 413, "REQUEST_TOO_LARGE")

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    await _error(await client.post("/v1/score", data=chunks()), 413, "REQUEST_TOO_LARGE")


async def test_a_body_of_exactly_the_limit_is_read(client: Client) -> None:
    body = json.dumps({"taskId": "t1", "submission": {"answer": "1"}}).encode()
    padded = body + b" " * (MAX_BODY_BYTES - len(body))
    response = await client.post("/v1/score", data=padded)
    assert response.status == 200
    assert (await response.json())["passed"] is True


async def test_numbers_out_of_float_range_are_invalid_json(aiohttp_client: AiohttpClient, make_benchmark: Any) -> None:
    # Python reads 1e999 as infinity; a grader that echoes the answer must not turn that into a 500.
    def echo(task: Task, trace: Any, ctx: Any) -> TaskScore:
        return TaskScore(0.0, False, "echo", {"answer": trace.answer})

    client = await aiohttp_client(create_app(make_benchmark(grade=echo)))
    for number in ("1e999", "-1e999"):
        body = '{"taskId": "t0", "submission": {"answer": ' + number + "}}"
        message = await _error(await client.post("/v1/score", data=body), 400, "INVALID_JSON")
        assert number in message
    fine = await client.post("/v1/score", data='{"taskId": "t0", "submission": {"answer": 1e308}}')
    assert (await fine.json())["details"] == {"answer": 1e308}


async def test_a_crashing_grader_is_a_bare_500(aiohttp_client: AiohttpClient, make_benchmark: Any) -> None:
    def crash(task: Task, trace: Any, ctx: Any) -> TaskScore:
        raise RuntimeError("secret internals")

    client = await aiohttp_client(create_app(make_benchmark(grade=crash)))
    response = await client.post("/v1/score", json={"taskId": "t0", "submission": {"answer": "0"}})
    message = await _error(response, 500, "INTERNAL_ERROR")
    assert "secret" not in message


async def test_a_grader_breaking_its_contract_is_grader_error(
    aiohttp_client: AiohttpClient, make_benchmark: Any
) -> None:
    client = await aiohttp_client(create_app(make_benchmark(grade=lambda task, trace, ctx: TaskScore(2.0, True, ""))))
    response = await client.post("/v1/score", json={"taskId": "t0", "submission": {}})
    await _error(response, 500, "GRADER_ERROR")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    body=st.one_of(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
            max_leaves=8,
        ),
        st.fixed_dictionaries(
            {"taskId": st.sampled_from(["t0", "t1", "zz"]) | st.text(max_size=3)},
            optional={
                "submission": st.dictionaries(
                    st.sampled_from(["answer", "toolCalls", "toolLog", "finalState", "other"]),
                    st.none()
                    | st.text(max_size=3)
                    | st.lists(st.dictionaries(st.text(max_size=4), st.text(max_size=3))),
                ),
                "seed": st.integers(),
                "tasks": st.sampled_from(["alt", "../outside", "/etc/passwd", "nope"]),
            },
        ),
    )
)
def test_no_score_request_is_a_server_error(make_benchmark: Any, data_dir: Path, body: Any) -> None:
    bench = make_benchmark(tasks_file=data_dir / "tasks.jsonl", tasks_allow_env=ALLOW_ENV)

    async def post() -> tuple[int, Any]:
        async with (
            serve_benchmark(bench) as base,
            aiohttp.ClientSession() as session,
            session.post(f"{base}/v1/score", data=json.dumps(body)) as response,
        ):
            return response.status, await response.json()

    status, answer = asyncio.run(post())
    assert status in (200, 400, 403, 404, 422), answer
    if status != 200:
        assert answer["error"]["code"] in (
            "INVALID_JSON",  # json.dumps writes Infinity and NaN, which are not JSON
            "INVALID_SUBMISSION",
            "TASK_NOT_FOUND",
            "TASKS_NOT_ALLOWED",
            "INVALID_TASK_FILE",
        )


# -- CORS ----------------------------------------------------------------------------------------


async def test_every_response_allows_any_origin(client: Client) -> None:
    for response in (
        await client.get("/v1/tasks", headers={"Origin": "https://example.org"}),
        await client.get("/v1/tasks/nope"),
        await client.post("/v1/score", json={"taskId": "t1", "submission": {}}),
        await client.get("/nope"),
    ):
        assert response.headers["Access-Control-Allow-Origin"] == "*"


async def test_preflight(client: Client) -> None:
    response = await client.options(
        "/v1/score",
        headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert response.status == 204
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in response.headers["Access-Control-Allow-Methods"].split(", ")
    assert response.headers["Access-Control-Allow-Headers"] == "content-type"
    get_preflight = await client.options("/v1/tasks/t1", headers={"Access-Control-Request-Method": "GET"})
    assert get_preflight.status == 204
    assert "GET" in get_preflight.headers["Access-Control-Allow-Methods"]
    await _error(await client.options("/nope"), 404, "NOT_FOUND")


# -- alternate task files ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["alt", "alt.jsonl"])
async def test_bare_names_resolve_in_data(client: Client, name: str) -> None:
    body = await (await client.get("/v1/tasks", params={"tasks": name})).json()
    assert [t["id"] for t in body["tasks"]] == ["alt0", "alt1"]
    one = await client.get("/v1/tasks/alt1", params={"tasks": name})
    assert one.status == 200
    scored = await client.post("/v1/score", json={"taskId": "alt1", "submission": {"answer": "1"}, "tasks": name})
    assert (await scored.json())["passed"] is True


async def test_escapes_from_data_are_403(client: Client, data_dir: Path) -> None:
    outside = data_dir.parent / "outside.jsonl"
    (data_dir / "link.jsonl").symlink_to(outside)
    (data_dir / "inner-link.jsonl").symlink_to(data_dir / "alt.jsonl")
    names = [
        "../outside",
        "../outside.jsonl",
        "data/../../outside.jsonl",
        "..",
        ".",
        str(outside),
        str(data_dir / "alt.jsonl"),  # absolute paths need the allow-list even inside data/
        "link",
        "..\\outside.jsonl",
        "",
        "alt\x00",
    ]
    for name in names:
        for path in ("/v1/tasks", "/v1/tasks/out0", "/v1/provenance", "/v1/index-entry"):
            await _error(await client.get(path, params={"tasks": name}), 403, "TASKS_NOT_ALLOWED")
        response = await client.post("/v1/score", json={"taskId": "out0", "submission": {}, "tasks": name})
        await _error(response, 403, "TASKS_NOT_ALLOWED")
    # A symlink that stays inside data/ is just another name for a file there.
    assert (await client.get("/v1/tasks", params={"tasks": "inner-link"})).status == 200


async def test_a_missing_bare_name_is_400(client: Client) -> None:
    message = await _error(await client.get("/v1/tasks", params={"tasks": "nope"}), 400, "INVALID_TASK_FILE")
    assert "nope" in message


async def test_allow_listed_paths(client: Client, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = data_dir.parent / "outside.jsonl"
    monkeypatch.setenv(ALLOW_ENV, os.pathsep.join(["/nonexistent/x.jsonl", str(outside)]))
    for name in (str(outside), str(data_dir / ".." / "outside.jsonl")):
        body = await (await client.get("/v1/tasks", params={"tasks": name})).json()
        assert body["count"] == 4
    scored = await client.post(
        "/v1/score", json={"taskId": "out3", "submission": {"answer": "3"}, "tasks": str(outside)}
    )
    assert (await scored.json())["passed"] is True
    # The allow-list names files, not folders.
    await _error(await client.get("/v1/tasks", params={"tasks": str(data_dir / "alt.jsonl")}), 403, "TASKS_NOT_ALLOWED")


async def test_an_allow_listed_file_that_is_not_a_task_file_is_400(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json}\n", encoding="utf-8")
    monkeypatch.setenv(ALLOW_ENV, str(bad))
    await _error(await client.get("/v1/tasks", params={"tasks": str(bad)}), 400, "INVALID_TASK_FILE")


async def test_task_file_errors_name_the_file_as_the_client_did(client: Client, data_dir: Path) -> None:
    # The resolved path would tell a remote client where the package is installed.
    (data_dir / "broken.jsonl").write_text('{"id": "b0", "kind": "single", "prompt": "p"}\n{nope\n', encoding="utf-8")
    responses = [
        await client.get("/v1/tasks", params={"tasks": "broken"}),
        await client.get("/v1/tasks/b0", params={"tasks": "broken.jsonl"}),
        await client.get("/v1/index-entry", params={"tasks": "broken"}),
        await client.post("/v1/score", json={"taskId": "b0", "submission": {}, "tasks": "broken"}),
    ]
    for response in responses:
        message = await _error(response, 400, "INVALID_TASK_FILE")
        assert str(data_dir) not in message
        assert re.match(r"broken(\.jsonl)?:2: not JSON", message), message


async def test_a_task_file_with_duplicate_ids_is_a_documented_400(client: Client, data_dir: Path) -> None:
    (data_dir / "dup.jsonl").write_text(
        dump_task_file([Task(id="d0", kind="single", prompt="Say 0.")] * 2), encoding="utf-8"
    )
    message = await _error(await client.get("/v1/tasks", params={"tasks": "dup"}), 400, "INVALID_TASK_FILE")
    assert message == "dup:2: duplicate task id 'd0' (first on line 1)"
    document = await (await client.get("/openapi.json")).json()
    assert "INVALID_TASK_FILE" in document["paths"]["/v1/tasks"]["get"]["responses"]["400"]["description"]


# -- OpenAPI -------------------------------------------------------------------------------------


def _validator(document: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    )


async def test_openapi_describes_every_route_and_the_responses_match_it(client: Client, tiny: Benchmark) -> None:
    document = await (await client.get("/openapi.json")).json()
    assert document["openapi"] == "3.1.0"
    assert document["info"]["title"] == "Tiny API"
    routes = {re.sub(r"\{task_id\}", "{id}", resource.canonical) for resource in client.app.router.resources()}
    assert set(document["paths"]) == routes
    jsonschema.Draft202012Validator.check_schema(document["components"]["schemas"]["Task"])
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert operation["summary"]
            if path not in ("/health", "/openapi.json") and not path.startswith("/v1/sessions/"):
                assert "tasks" in json.dumps(operation), (method, path)
    checks = [
        ("/health", "Health"),
        ("/v1/tasks", "TaskList"),
        ("/v1/tasks/t0", "Task"),
        ("/v1/provenance", "ProvenanceDocument"),
        ("/v1/index-entry", "IndexEntry"),
        ("/v1/tasks/nope", "Error"),
        ("/nope", "Error"),
    ]
    for path, schema in checks:
        _validator(document, schema).validate(await (await client.get(path)).json())
    scored = await client.post("/v1/score", json={"taskId": "t0", "submission": {"answer": "0"}})
    _validator(document, "TaskScore").validate(await scored.json())
    request = {"taskId": "t0", "submission": {"answer": "0", "toolLog": [{"name": "f"}]}, "seed": 2}
    _validator(document, "ScoreRequest").validate(request)
    with pytest.raises(jsonschema.ValidationError):
        _validator(document, "ScoreRequest").validate({"taskId": "t0", "submission": {"answr": "0"}})


async def test_openapi_states_what_the_server_refuses(
    aiohttp_client: AiohttpClient, tiny: Benchmark, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # schemathesis found an empty taskId and an unknown tasks name answered 400 though the schema allowed them
    outside = str(data_dir.parent / "outside.jsonl")
    monkeypatch.setenv(ALLOW_ENV, outside)
    client = await aiohttp_client(create_app(tiny))
    document = await (await client.get("/openapi.json")).json()
    request = _validator(document, "ScoreRequest")
    names = ["alt", "alt.jsonl", "tasks", "tasks.jsonl", outside]
    tasks_schema = document["components"]["schemas"]["ScoreRequest"]["properties"]["tasks"]["anyOf"]
    assert tasks_schema == [{"type": "string", "enum": names}, {"type": "null"}]
    request.validate({"taskId": "t0", "submission": {}, "tasks": None})
    assert (await client.post("/v1/score", json={"taskId": "t0", "submission": {}, "tasks": None})).status == 200
    assert document["paths"]["/v1/tasks"]["get"]["parameters"][0]["schema"] == {"type": "string", "enum": names}
    for name in names:
        request.validate({"taskId": "t0", "submission": {}, "tasks": name})
        assert (await client.get("/v1/tasks", params={"tasks": name})).status == 200
    refused = [({"taskId": "", "submission": {}}, 400), ({"taskId": "t0", "submission": {}, "tasks": "nope"}, 400)]
    for body, status in refused:
        assert not request.is_valid(body)
        assert (await client.post("/v1/score", json=body)).status == status
    assert (await client.get("/v1/tasks", params={"tasks": "nope"})).status == 400
    deep = {"taskId": "t0", "submission": {"answer": [[[[1]]]], "toolCalls": [{"name": "f", "arguments": "{}"}]}}
    request.validate(deep)
    assert "64 levels" in document["components"]["schemas"]["Trace"]["description"]


# -- real servers --------------------------------------------------------------------------------


async def test_a_real_server_and_client(tiny: Benchmark) -> None:
    async with serve_benchmark(tiny) as base, aiohttp.ClientSession() as session:
        assert base.startswith("http://127.0.0.1:")
        async with session.get(f"{base}/health") as response:
            assert response.status == 200
            assert (await response.json())["benchmark"] == "tiny"
        async with session.post(f"{base}/v1/score", json={"taskId": "t2", "submission": {"answer": "2"}}) as response:
            assert (await response.json())["passed"] is True
        async with session.post(f"{base}/v1/score", data=b"x" * (2 * MAX_BODY_BYTES)) as response:
            await _error(response, 413, "REQUEST_TOO_LARGE")

        async def endless() -> AsyncIterator[bytes]:
            while True:
                yield b" " * 65536
                await asyncio.sleep(0)

        # A chunked body that never ends is cut off at the limit rather than read forever.
        try:
            async with session.post(f"{base}/v1/score", data=endless()) as response:
                await _error(response, 413, "REQUEST_TOO_LARGE")
        except aiohttp.ClientOSError:
            pytest.fail("the server hung up instead of answering 413")
        async with session.get(f"{base}/health") as response:
            assert response.status == 200


def test_serve_prints_its_url_and_stops_on_signals(tmp_path: Path) -> None:
    script = (
        "from benchmark_core.example import benchmark\nfrom benchmark_core.servers._http import create_app, serve\n"
    )
    script += "serve(create_app(benchmark), port=0)\n"
    for sig in (signal.SIGINT, signal.SIGTERM):
        process = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True)
        try:
            assert process.stderr is not None
            line = process.stderr.readline()
            match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
            assert match, line

            async def health(port: int) -> Any:
                async with (
                    aiohttp.ClientSession() as session,
                    session.get(f"http://127.0.0.1:{port}/health") as response,
                ):
                    return await response.json()

            assert asyncio.run(health(int(match.group(1))))["benchmark"] == "benchmark-core-example"
            process.send_signal(sig)
            assert process.wait(timeout=30) == 0
            assert "Traceback" not in process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def test_serve_on_a_busy_port_is_a_listen_error() -> None:
    port = free_port()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", port))
        busy.listen()
        with pytest.raises(ListenError, match=f"127.0.0.1:{port}"):
            serve(create_app(example), port=port)
