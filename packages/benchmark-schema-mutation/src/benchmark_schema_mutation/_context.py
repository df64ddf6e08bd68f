"""What the results browser shows beside a drift episode (`episode_context`): what changed, and the
tools as the client last knew them beside the tools the API takes now."""

from __future__ import annotations

from benchmark_core import EpisodeContext, JsonObject, Task
from benchmark_core.wire import to_wire

from ._drift import DRIFT


def episode_context(task: Task) -> EpisodeContext:
    meta = task.metadata
    previous = meta.get("previousTools")
    if meta.get("mutationKind") != DRIFT or not isinstance(previous, list):
        return EpisodeContext()
    change: JsonObject = {"mutation": meta.get("mutation"), "mutatedElements": meta.get("mutatedElements")}
    return EpisodeContext(
        notes=(("What changed", change),),
        sides=(
            (f"Previous schema ({meta.get('previousVersion', '?')}): what the model was given", previous),
            (f"Current schema ({meta.get('schemaVersion', '?')}): what the API takes", to_wire(list(task.tools))),
        ),
    )
