"""OrderLookupEnvironment: a tiny order service with a transient fault and a refund policy."""

from __future__ import annotations

from typing import Any

from ..environment import EnvironmentStart
from ..model import JsonValue, Task, ToolError, ToolResult, ToolSpec
from ..rng import mulberry32

TOOLS = [
    ToolSpec(
        name="lookup_order",
        description="Look up an order by id. Returns its total, status and what was refunded so far.",
        parameters={
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
            "additionalProperties": False,
        },
    ),
    ToolSpec(
        name="refund",
        description="Refund an amount in dollars on an order. Refunds above the policy limit are refused.",
        parameters={
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"}},
            "required": ["order_id", "amount"],
            "additionalProperties": False,
        },
    ),
]

SYSTEM = (
    "You are a support agent with access to the order service. Use the tools to look orders up and "
    "to refund them. Refunds are limited to ${limit:.2f} per order and never exceed what was paid. "
    "The order service is sometimes flaky: retry a failed lookup."
)


class OrderLookupEnvironment:
    """The order from the task's metadata; the first `failFirstLookups` lookups fail with HTTP 500.

    The seed only varies the fault's request id, so replays with the run's seed are identical.
    """

    def __init__(self) -> None:
        self._orders: dict[str, dict[str, Any]] = {}
        self._refunds: list[dict[str, Any]] = []
        self._failures_left = 0
        self._limit = 0.0
        self._request_ids = mulberry32(0)

    def reset(self, task: Task, seed: int) -> EnvironmentStart:
        meta = task.metadata
        self._orders = {
            str(meta["orderId"]): {
                "id": str(meta["orderId"]),
                "total": float(meta["orderTotal"]),
                "status": "delivered",
                "refunded": 0.0,
            }
        }
        self._refunds = []
        self._failures_left = int(meta.get("failFirstLookups", 0))
        self._limit = float(meta["refundLimit"])
        self._request_ids = mulberry32(seed)
        return EnvironmentStart(system=SYSTEM.format(limit=self._limit), tools=list(TOOLS))

    def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        if name == "lookup_order":
            return self._lookup(arguments)
        if name == "refund":
            return self._refund(arguments)
        return _error("UNKNOWN_TOOL", f"no tool named {name!r}; available: lookup_order, refund")

    def state(self) -> JsonValue:
        return {"orders": [dict(o) for o in self._orders.values()], "refunds": [dict(r) for r in self._refunds]}

    def done(self) -> bool:
        return any(o["refunded"] >= o["total"] for o in self._orders.values())

    def _lookup(self, arguments: dict[str, Any]) -> ToolResult:
        order_id = arguments.get("order_id")
        if not isinstance(order_id, str):
            return _error("BAD_ARGUMENTS", "order_id must be a string")
        if self._failures_left > 0:
            self._failures_left -= 1
            request_id = f"req-{int(self._request_ids() * 1_000_000):06d}"
            return _error("HTTP_500", f"order service returned HTTP 500 (request {request_id}); try again")
        order = self._orders.get(order_id)
        if order is None:
            return _error("NOT_FOUND", f"no order {order_id!r}")
        return ToolResult(result=dict(order))

    def _refund(self, arguments: dict[str, Any]) -> ToolResult:
        order_id, amount = arguments.get("order_id"), arguments.get("amount")
        if not isinstance(order_id, str) or isinstance(amount, bool) or not isinstance(amount, (int, float)):
            return _error("BAD_ARGUMENTS", "order_id must be a string and amount a number")
        order = self._orders.get(order_id)
        if order is None:
            return _error("NOT_FOUND", f"no order {order_id!r}")
        if amount <= 0:
            return _error("BAD_ARGUMENTS", "amount must be positive")
        if amount > self._limit:
            return _error("OVER_LIMIT", f"refunds are limited to ${self._limit:.2f}")
        if order["refunded"] + amount > order["total"] + 1e-9:
            return _error("EXCEEDS_TOTAL", f"order {order_id} was paid ${order['total']:.2f}")
        order["refunded"] = round(order["refunded"] + float(amount), 2)
        order["status"] = "refunded" if order["refunded"] >= order["total"] else "partially_refunded"
        refund = {"refundId": f"rf-{len(self._refunds) + 1}", "orderId": order_id, "amount": float(amount)}
        self._refunds.append(refund)
        return ToolResult(result=dict(refund))


def _error(code: str, message: str) -> ToolResult:
    return ToolResult(error=ToolError(code=code, message=message))
