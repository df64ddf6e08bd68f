"""What the HTTP API's handlers share: the served benchmark's app key, JSON bodies in (strict) and
JSON answers out."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .._benchmark.definition import Benchmark
from .._util.json_values import loads
from ..errors._requests import InvalidJsonError

BENCHMARK_KEY = web.AppKey("benchmark", Benchmark)
#: Built once: `json.dumps` with options builds a new encoder on every call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


async def read_json(request: web.Request) -> Any:
    """The body as JSON. aiohttp refuses a body over `client_max_size` (declared or chunked) after
    reading at most that much, as REQUEST_TOO_LARGE through the error middleware."""
    body = await request.read()
    if not body.strip():
        raise InvalidJsonError("the request body is empty; send a JSON object")
    try:
        return loads(body)
    except ValueError as exc:  # UnicodeDecodeError too
        raise InvalidJsonError(f"the request body is not valid JSON: {exc}") from None


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=_ENCODER.encode(data).encode(), status=status, content_type="application/json", charset="utf-8"
    )
