"""A caller's mistakes about episode sessions: no episode, a malformed session request, an
unknown, unauthorised or finished session, or a server at its maximum of open sessions."""

from __future__ import annotations

from ._base import UsageError


class NotAnEpisodeError(UsageError):
    """An episode session was asked for a task that is not an episode, or of a benchmark without an
    environment (its tasks have no tools to serve)."""

    code = "NOT_AN_EPISODE"
    http_status = 422
    http_meaning = "the task is not an episode (or the benchmark has no environment), so it has no session."


class InvalidSessionRequestError(UsageError):
    """A session request that is not what the route takes (`{taskId, tasks?, seed?}`, `{answer}`)."""

    code = "INVALID_SESSION_REQUEST"
    http_meaning = "the body is not {taskId, tasks?, seed?} (opening a session) or {answer} (finishing one)."


class SessionNotFoundError(UsageError):
    """No open session with this id for this bearer token (an unknown id, a closed or idle-expired
    session, or another session's token: the three look the same, so no token probes other sessions)."""

    code = "SESSION_NOT_FOUND"
    http_status = 404
    http_meaning = "no open session with this id for this token (unknown, closed after its idle timeout, or another's)."


class SessionUnauthorizedError(UsageError):
    """A session route or the sessions' MCP endpoint called without a bearer token."""

    code = "UNAUTHORIZED"
    http_status = 401
    http_meaning = "the request has no Authorization: Bearer token; session routes need the session's token."


class SessionFinishedError(UsageError):
    """A tool call or a second finish on a session that was already finished."""

    code = "SESSION_FINISHED"
    http_status = 409
    http_meaning = "the session is finished: its score is final and its tools take no more calls."


class TooManySessionsError(UsageError):
    """The server holds as many open sessions as it allows."""

    code = "TOO_MANY_SESSIONS"
    http_status = 503
    http_meaning = "the server holds its maximum of open sessions; finish one, or retry once idle ones expire."
