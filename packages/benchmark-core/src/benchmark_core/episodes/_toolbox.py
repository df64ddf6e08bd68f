"""A small tool registry for environments: each tool declared once, with its schema and its handler.

    TOOLS: Toolbox[OrderService] = Toolbox()

    @TOOLS.tool("lookup_order", "Look an order up by id.", {"order_id": {"type": "string"}}, required=("order_id",))
    def lookup_order(service: OrderService, arguments: JsonObject) -> JsonValue:
        return service.lookup(arguments["order_id"])

    # in the environment: reset returns EnvironmentStart(system, tools=TOOLS.specs),
    # call_tool returns TOOLS.call(self, name, arguments)

`call` answers every call with a `ToolResult`, never an exception, with the standard error codes:
`UNKNOWN_TOOL` (no such tool), `INVALID_ARGUMENTS` (the arguments break the tool's schema, checked
by the house's one validator, `benchmark_core._util.json_schema`, so the model is held to exactly the
contract it is shown), and whatever code a handler refuses with (`ToolRefusal`: `NOT_FOUND`,
`CONFLICT`, or a code of the environment's own, such as `OVER_LIMIT`). Codes are UPPER_SNAKE_CASE,
as the API's error codes are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, Optional, TypeVar

from attrs import frozen

from .._model import JsonObject, JsonValue, ToolError, ToolResult, ToolSpec
from .._util.json_schema import first_violation

__all__ = [
    "CONFLICT",
    "INVALID_ARGUMENTS",
    "NOT_FOUND",
    "UNKNOWN_TOOL",
    "Tool",
    "ToolRefusal",
    "Toolbox",
    "object_schema",
    "tool_error",
]

#: The call names no tool of the environment.
UNKNOWN_TOOL = "UNKNOWN_TOOL"
#: The arguments break the tool's parameter schema.
INVALID_ARGUMENTS = "INVALID_ARGUMENTS"
#: The call names a record that does not exist.
NOT_FOUND = "NOT_FOUND"
#: The call cannot be done in the state the environment is in (or would change nothing).
CONFLICT = "CONFLICT"

E = TypeVar("E")
Handler = Callable[[E, dict[str, Any]], JsonValue]


class ToolRefusal(Exception):
    """Raised by a handler to turn a call down; the call's result is a `ToolError(code, message)`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def tool_error(code: str, message: str) -> ToolResult:
    """A failed call's result."""
    return ToolResult(error=ToolError(code=code, message=message))


def object_schema(properties: Optional[JsonObject] = None, required: Iterable[str] = ()) -> JsonObject:
    """The parameter schema of most tools: an object of `properties`, `required` ones listed, no
    others allowed."""
    return {"type": "object", "properties": properties or {}, "required": list(required), "additionalProperties": False}


@frozen
class Tool(Generic[E]):
    """A declared tool: what the model is shown (`spec`) and what answers it (`handler`)."""

    spec: ToolSpec
    handler: Handler[E]


class Toolbox(Generic[E]):
    """The tools of one kind of environment `E`, in declaration order."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool[E]] = {}

    def tool(
        self,
        name: str,
        description: str,
        properties: Optional[JsonObject] = None,
        *,
        required: Iterable[str] = (),
        parameters: Optional[JsonObject] = None,
    ) -> Callable[[Handler[E]], Handler[E]]:
        """Declare a tool answered by the decorated `handler(environment, arguments)`. Its
        parameters are `parameters` when given, else `object_schema(properties, required)`."""

        def declare(handler: Handler[E]) -> Handler[E]:
            self.add(ToolSpec(name, description, parameters or object_schema(properties, required)), handler)
            return handler

        return declare

    def add(self, spec: ToolSpec, handler: Handler[E]) -> None:
        if spec.name in self._tools:
            raise ValueError(f"tool {spec.name!r} is declared twice")
        self._tools[spec.name] = Tool(spec, handler)

    @property
    def specs(self) -> list[ToolSpec]:
        """The tools as the model is shown them, in declaration order."""
        return [tool.spec for tool in self._tools.values()]

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def call(self, environment: E, name: str, arguments: Any) -> ToolResult:
        """Validate `arguments` against the tool's schema, then run its handler (see the module
        docstring for the error codes). A handler's return value is the call's result."""
        tool = self._tools.get(name)
        if tool is None:
            return tool_error(UNKNOWN_TOOL, f"no tool named {name!r}; the tools are: {', '.join(self._tools)}")
        violation = first_violation(arguments, tool.spec.parameters, root="arguments")
        if violation is not None:
            return tool_error(INVALID_ARGUMENTS, f"{name}: {violation}")
        try:
            return ToolResult(result=tool.handler(environment, arguments))
        except ToolRefusal as refusal:
            return tool_error(refusal.code, refusal.message)
