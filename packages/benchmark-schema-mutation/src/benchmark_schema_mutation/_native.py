"""What a task sends in native answer mode: what a real tool-using application would send.

The prompt-mode prompt prints the schema as JSON and asks for one JSON object; a model that obeys
that text is graded on its text, so native mode would not measure tool calling. Native mode sends
instead a short system message naming the schema version in words and the user's request alone;
the schema reaches the model only as `tools`. No schema text, no answer format. Tasks that offer the
decline format (the full split's) add to the system message that a request the tools cannot carry
out is answered without a tool call.
"""

from __future__ import annotations

from benchmark_core import Task
from benchmark_core.chat import ChatMessage

from ._extract import decline_offered
from ._prompt import NATIVE_DECLINE_SENTENCE

SYSTEM_MESSAGE = "You act for the user through the tools provided, which are at schema version {version} of the API."


def native_messages(task: Task) -> list[ChatMessage]:
    """A system message with the schema version and a user message with the request.

    A task without this benchmark's `metadata.request` (an alternate task file written by hand)
    falls back to its prompt as the user message, core's default.
    """
    request = task.metadata.get("request")
    if not isinstance(request, str) or not request.strip():
        return [ChatMessage(role="user", content=task.prompt)]
    version = task.metadata.get("schemaVersion")
    messages = [ChatMessage(role="user", content=request)]
    if isinstance(version, str) and version:
        system = SYSTEM_MESSAGE.format(version=version)
        if decline_offered(task):
            system = f"{system} {NATIVE_DECLINE_SENTENCE}"
        messages.insert(0, ChatMessage(role="system", content=system))
    return messages
