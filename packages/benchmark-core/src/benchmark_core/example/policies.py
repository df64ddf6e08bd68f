"""How the offline mock plays the example's refund episode: the good script retries the flaky lookup
and refunds the order in full, the bad one gives up after the first failure."""

from __future__ import annotations

from .._model import Task
from ..adapters.mock import MockPolicies, ScriptedTurn


def _good_script(task: Task) -> list[ScriptedTurn]:
    order_id, total = task.metadata["orderId"], task.metadata["orderTotal"]
    return [
        ScriptedTurn.call("lookup_order", order_id=order_id),
        ScriptedTurn.call("lookup_order", order_id=order_id),
        ScriptedTurn.call("refund", order_id=order_id, amount=total),
        ScriptedTurn.say(f"Refunded ${total:.2f} on order {order_id}."),
    ]


def _bad_script(task: Task) -> list[ScriptedTurn]:
    order_id = task.metadata["orderId"]
    return [
        ScriptedTurn.call("lookup_order", order_id=order_id),
        ScriptedTurn.say("The order service is down; I could not refund the order."),
    ]


MOCK_POLICIES = MockPolicies(good_script=_good_script, bad_script=_bad_script)
