"""The mailing lists: messages with their sends and recalls, and the tools' reads and recalls."""

from __future__ import annotations

from benchmark_core import JsonObject, ToolRefusal
from benchmark_core.episodes import CONFLICT, NOT_FOUND

from .._world import Message, MessageEvent, MessageState, message_state
from .session import SESSION_ACTOR, AuditRow, SessionClock, audit_entry, quote, who


class MessageStore:
    """Messages by id, each with the list of its events (the last one decides its status)."""

    def __init__(self, messages: list[Message], clock: SessionClock) -> None:
        self._messages = {m.id: (m, list(m.events)) for m in messages}
        self._clock = clock

    def current(self) -> dict[str, MessageState]:
        return {mid: message_state(m, events[-1].op) for mid, (m, events) in self._messages.items()}

    def __contains__(self, mid: object) -> bool:
        return mid in self._messages

    def audit_rows(self) -> list[AuditRow]:
        rows: list[AuditRow] = []
        for mid, (message, events) in self._messages.items():
            for i, event in enumerate(events):
                verb = "sent" if event.op == "send" else "recalled"
                direction = "to" if event.op == "send" else "from"
                change = f"{verb} {quote(message.subject)} {direction} {message.to}"
                entry = audit_entry(event.at, event.actor, "messages", mid, event.op, event.ticket, change)
                rows.append(((event.at, 2, mid, i), entry))
        return rows

    def list(self) -> JsonObject:
        return {
            "messages": [
                {
                    "id": mid,
                    "to": message.to,
                    "subject": message.subject,
                    "body": message.body,
                    "status": message_state(message, events[-1].op).status,
                    "events": [who(e) for e in events],
                    **({"external": True} if message.external else {}),
                }
                for mid, (message, events) in sorted(self._messages.items())
            ]
        }

    def unsend(self, mid: str) -> JsonObject:
        found = self._messages.get(mid)
        if found is None:
            raise ToolRefusal(NOT_FOUND, f"no message {mid!r}; list_messages shows every id")
        message, events = found
        if events[-1].op == "recall":
            raise ToolRefusal(CONFLICT, f"message {mid} is already recalled")
        if message.external:
            raise ToolRefusal(
                CONFLICT,
                f"message {mid} was delivered to {message.to}, outside the organisation; it cannot be recalled",
            )
        events.append(MessageEvent(at=self._clock.stamp(), actor=SESSION_ACTOR, op="recall"))
        return {"id": mid, "status": "recalled"}
