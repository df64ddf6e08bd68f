"""A request the HTTP API or the MCP server cannot take: not JSON, too large, no such route,
method or tool, arguments that do not fit (exit 1, HTTP 4xx)."""

from __future__ import annotations

from ._base import UsageError


class InvalidJsonError(UsageError):
    """A request body or a file given on the command line is not strict JSON."""

    code = "INVALID_JSON"
    http_meaning = "the body is not JSON."


class RequestTooLargeError(UsageError):
    """A request body over the HTTP API's size limit."""

    code = "REQUEST_TOO_LARGE"
    http_status = 413
    http_meaning = "the body is over the size limit."


class RouteNotFoundError(UsageError):
    """An HTTP request for a path the API does not serve."""

    code = "NOT_FOUND"
    http_status = 404
    http_meaning = "no such route."


class MethodNotAllowedError(UsageError):
    """An HTTP request with a method the route does not accept."""

    code = "METHOD_NOT_ALLOWED"
    http_status = 405
    http_meaning = "the route exists but not for this method."


class InvalidArgumentsError(UsageError):
    """An MCP tool call whose arguments do not fit the tool's input schema."""

    code = "INVALID_ARGUMENTS"


class UnknownToolError(UsageError):
    """An MCP tool call naming a tool the server does not offer."""

    code = "UNKNOWN_TOOL"
    http_status = 404
