"""The sessions one server holds: each under a random id with its own bearer token, at most
`max_open` unfinished at once, each dropped once idle for `idle_timeout` seconds.

Isolation: a session is reached only with its id and its token together. A wrong token, an unknown
id and an expired session all answer `SessionNotFoundError`, so a token cannot probe for other
sessions; nothing lists the sessions. Tokens are compared in constant time.
"""

from __future__ import annotations

import hmac
import secrets
import time
from typing import Optional

from ..errors._sessions import SessionNotFoundError, TooManySessionsError
from ._session import EpisodeSession

#: Defaults: a server holds at most this many unfinished sessions, each for at most this idle time.
DEFAULT_MAX_OPEN = 256
DEFAULT_IDLE_TIMEOUT = 900.0


class SessionRegistry:
    def __init__(self, *, max_open: int = DEFAULT_MAX_OPEN, idle_timeout: float = DEFAULT_IDLE_TIMEOUT) -> None:
        self.max_open = max_open
        self.idle_timeout = idle_timeout
        self._sessions: dict[str, tuple[str, EpisodeSession]] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def add(self, session: EpisodeSession) -> tuple[str, str]:
        """Hold `session`; its new id and token. `TooManySessionsError` when `max_open` unfinished
        sessions are held already (idle ones are dropped first)."""
        self.expire()
        if sum(1 for _, held in self._sessions.values() if not held.finished) >= self.max_open:
            raise TooManySessionsError(
                f"this server holds its maximum of {self.max_open} open sessions; finish one, or retry "
                f"once idle sessions expire ({self.idle_timeout:g} s)"
            )
        session_id, token = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
        self._sessions[session_id] = (token, session)
        return session_id, token

    def get(self, session_id: str, token: Optional[str]) -> EpisodeSession:
        """The session with this id if `token` is its own; `SessionNotFoundError` otherwise."""
        held = self._sessions.get(session_id)
        now = time.monotonic()
        if held is not None and now - held[1].last_used > self.idle_timeout:
            del self._sessions[session_id]
            held = None
        if held is None or token is None or not hmac.compare_digest(held[0].encode(), token.encode()):
            raise SessionNotFoundError(f"no open session {session_id!r} for this token")
        held[1].last_used = now
        return held[1]

    def remove(self, session_id: str) -> None:
        """Close a session: its id and token reach nothing any more."""
        self._sessions.pop(session_id, None)

    def expire(self) -> int:
        """Drop every session idle for longer than the timeout; how many were dropped."""
        cutoff = time.monotonic() - self.idle_timeout
        idle = [key for key, (_, session) in self._sessions.items() if session.last_used < cutoff]
        for key in idle:
            del self._sessions[key]
        return len(idle)
