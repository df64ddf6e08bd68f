"""The pieces the OpenAPI documents of the task routes (`_openapi`) and the session routes
(`_openapi_sessions`) are built of: a schema reference, a JSON body, an error answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors._base import BenchmarkError
from ..wire._schema import JsonSchema

__all__ = ["codes_text", "error_answers", "error_response", "json_content", "ref"]


def ref(name: str) -> JsonSchema:
    """A reference to the component schema `name`."""
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema: JsonSchema) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def error_response(description: str) -> dict[str, Any]:
    """An answer in the one error shape (`Error`), described by the codes it carries."""
    return {"description": description, "content": json_content(ref("Error"))}


def error_answers(*errors: type[BenchmarkError]) -> dict[str, Any]:
    """The answers of `errors`, each under its own HTTP status, in the order given: the status and
    the code come from the error class, so the document cannot say another status than the route sends."""
    return {str(error.http_status): error_response(error.code) for error in errors}


def codes_text(codes: Mapping[str, str]) -> str:
    """`CODE (meaning); ...`: the codes a description lists."""
    return "; ".join(f"{code} ({meaning})" for code, meaning in codes.items())
