"""OrderLookupEnvironment: a tiny order service with a transient fault and a refund policy.

Its two tools are declared on a core `Toolbox`, which validates their arguments against the schemas
the model is shown and answers an unknown tool or bad arguments with the standard codes.
"""

from __future__ import annotations

from typing import Any

from .._model import JsonObject, JsonValue, Task, ToolResult
from .._util.rng import mulberry32
from ..episodes._environment import EnvironmentStart
from ..episodes._toolbox import INVALID_ARGUMENTS, NOT_FOUND, Toolbox, ToolRefusal

SYSTEM = (
    "You are a support agent with access to the order service. Use the tools to look orders up and "
    "to refund them. Refunds are limited to ${limit:.2f} per order and never exceed what was paid. "
    "The order service is sometimes flaky: retry a failed lookup."
)

#: The order service's tools; the handlers are the environment's methods below.
TOOLS: Toolbox[OrderLookupEnvironment] = Toolbox()


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
        return EnvironmentStart(system=SYSTEM.format(limit=self._limit), tools=TOOLS.specs)

    def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        return TOOLS.call(self, name, arguments)

    def state(self) -> JsonValue:
        return {"orders": [dict(o) for o in self._orders.values()], "refunds": [dict(r) for r in self._refunds]}

    def done(self) -> bool:
        return any(o["refunded"] >= o["total"] for o in self._orders.values())

    def _order(self, order_id: str) -> dict[str, Any]:
        order = self._orders.get(order_id)
        if order is None:
            raise ToolRefusal(NOT_FOUND, f"no order {order_id!r}")
        return order

    @TOOLS.tool(
        "lookup_order",
        "Look up an order by id. Returns its total, status and what was refunded so far.",
        {"order_id": {"type": "string"}},
        required=("order_id",),
    )
    def _lookup(self, arguments: JsonObject) -> JsonValue:
        if self._failures_left > 0:
            self._failures_left -= 1
            request_id = f"req-{int(self._request_ids() * 1_000_000):06d}"
            raise ToolRefusal("HTTP_500", f"order service returned HTTP 500 (request {request_id}); try again")
        return dict(self._order(arguments["order_id"]))

    @TOOLS.tool(
        "refund",
        "Refund an amount in dollars on an order. Refunds above the policy limit are refused.",
        {"order_id": {"type": "string"}, "amount": {"type": "number"}},
        required=("order_id", "amount"),
    )
    def _refund(self, arguments: JsonObject) -> JsonValue:
        order_id, amount = arguments["order_id"], arguments["amount"]
        order = self._order(order_id)
        if amount <= 0:
            raise ToolRefusal(INVALID_ARGUMENTS, "amount must be positive")
        if amount > self._limit:
            raise ToolRefusal("OVER_LIMIT", f"refunds are limited to ${self._limit:.2f}")
        if order["refunded"] + amount > order["total"] + 1e-9:
            raise ToolRefusal("EXCEEDS_TOTAL", f"order {order_id} was paid ${order['total']:.2f}")
        order["refunded"] = round(order["refunded"] + float(amount), 2)
        order["status"] = "refunded" if order["refunded"] >= order["total"] else "partially_refunded"
        refund = {"refundId": f"rf-{len(self._refunds) + 1}", "orderId": order_id, "amount": float(amount)}
        self._refunds.append(refund)
        return dict(refund)
